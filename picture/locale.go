package picture

import (
	"context"

	"github.com/stridescope/stridescope/i18n"
)

// LangParam is "&" and i18n.LangQuery for a picture's URL: an embed on
// another site gets no cookie of ours, and the picture should read as the
// page around it.
func LangParam(ctx context.Context) string {
	if q := i18n.LangQuery(ctx); q != "" {
		return "&" + q
	}
	return ""
}
