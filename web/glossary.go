package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/views"
)

// getGlossary is /glossary, written in the request's language.
func (s *Server) getGlossary(c echo.Context) error {
	r := c.Request()
	c.SetRequest(r.WithContext(i18n.Translated(r.Context())))
	return render(c, http.StatusOK, views.GlossaryPage())
}

// getOperators is /operators: every explorer in s.kinds that lists
// itself, in the site's order.
func (s *Server) getOperators(c echo.Context) error {
	r := c.Request()
	ctx := i18n.Translated(r.Context())
	c.SetRequest(r.WithContext(ctx))
	var items []views.OperatorItem
	for _, k := range s.kinds {
		if l, ok := k.(explorer.Listed); ok {
			title, summary := l.Listing(ctx)
			items = append(items, views.OperatorItem{Title: title, Summary: summary, URL: k.Routes().Page})
		}
	}
	return render(c, http.StatusOK, views.OperatorsPage(items))
}
