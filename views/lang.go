package views

import (
	"context"

	"github.com/stridescope/stridescope/i18n"
)

// langCurrent marks the switcher's link to the language being read.
func langCurrent(ctx context.Context, l i18n.Locale) string {
	if i18n.LocaleOf(ctx) == l {
		return "true"
	}
	return "false"
}

// pageLang is the lang attribute of the page's html element: the
// language its text is in.
func pageLang(ctx context.Context) string { return string(i18n.ContentLocale(ctx)) }
