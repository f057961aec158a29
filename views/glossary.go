package views

import (
	"context"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
)

// termWord is the glossary term id in ctx's language.
func termWord(ctx context.Context, id string) string {
	for _, t := range i18n.Glossary {
		if t.ID == id {
			return t.Word[i18n.LocaleOf(ctx)]
		}
	}
	return id
}

func apiName(name string) core.Args { return core.Args{"name": name} }

// glossaryCounts says how much the glossary holds, its numbers written the
// locale's way.
func glossaryCounts(ctx context.Context) string {
	words := 0
	for _, p := range i18n.LocalizedPages {
		words += len(p.Words)
	}
	return i18n.T(ctx, i18n.KeyGlossaryCounts, core.Args{
		"terms": i18n.Num(ctx, len(i18n.Glossary)), "words": i18n.Num(ctx, words), "pages": i18n.Num(ctx, len(i18n.LocalizedPages)),
	})
}
