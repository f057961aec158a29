package views

import (
	"context"
	"html"
	"io"
	"strings"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/i18n"
)

// navCurrent marks the site link to the page being read (the tour's
// steps and the rooms count as the tour and the join page): screen
// readers say so, the link is set apart, and on a phone the links' line
// opens scrolled to it.
func navCurrent(ctx context.Context, href string) templ.Attributes {
	p := i18n.PagePath(ctx)
	current := p == href
	switch href {
	case "/tour":
		current = p == href || strings.HasPrefix(p, "/tour/")
	case "/join":
		current = p == href || strings.HasPrefix(p, "/rooms/")
	case "/operators":
		// The index, the check and every operator's own page.
		current = p == href || p == "/check" || inOperators(ctx)
	}
	if current {
		return templ.Attributes{"aria-current": "page"}
	}
	return nil
}

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

// RichT renders key's text in ctx's locale with its two marks of markup:
// `code` becomes <code>code</code> and [[key]] becomes <kbd>key</kbd>.
// Catalog text is escaped like any other text; only those marks become
// elements, so a translation places the code and keys where its grammar
// wants them.
func RichT(key i18n.Key, args ...i18n.Args) templ.Component {
	return templ.ComponentFunc(func(ctx context.Context, w io.Writer) error {
		_, err := io.WriteString(w, richHTML(i18n.T(ctx, key, args...)))
		return err
	})
}

func richHTML(s string) string {
	var b strings.Builder
	for i, part := range strings.Split(s, "`") {
		if i%2 == 1 {
			b.WriteString("<code>" + html.EscapeString(part) + "</code>")
			continue
		}
		for j, k := range strings.Split(strings.ReplaceAll(part, "]]", "[["), "[[") {
			if j%2 == 1 {
				b.WriteString("<kbd>" + html.EscapeString(k) + "</kbd>")
			} else {
				b.WriteString(html.EscapeString(k))
			}
		}
	}
	return b.String()
}

type operatorPageKey struct{}

// AnOperatorPage marks ctx's page as an operator's explorer, reached from
// the header's operators index.
func AnOperatorPage(ctx context.Context) context.Context {
	return context.WithValue(ctx, operatorPageKey{}, true)
}

func inOperators(ctx context.Context) bool {
	b, _ := ctx.Value(operatorPageKey{}).(bool)
	return b
}
