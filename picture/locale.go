package picture

import (
	"context"
	"strconv"

	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/views"
)

// plain is a prose number as the page has always written it in English
// (digits only), grouped the locale's way in the other languages.
func plain(ctx context.Context, n int64) string {
	if i18n.LocaleOf(ctx) == i18n.English {
		return strconv.FormatInt(n, 10)
	}
	return i18n.Num(ctx, n)
}

// langParam is "&" and i18n.LangQuery for a picture's URL: an embed on
// another site gets no cookie of ours, and the picture should read as the
// page around it.
func langParam(ctx context.Context) string {
	if q := i18n.LangQuery(ctx); q != "" {
		return "&" + q
	}
	return ""
}

// grouped is a fact's number: views.Group's grouping in English, the
// locale's in the other languages.
func grouped(ctx context.Context, n int64) string {
	if i18n.LocaleOf(ctx) == i18n.English {
		return views.Group(n)
	}
	return i18n.Num(ctx, n)
}
