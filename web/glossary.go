package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/views"
)

// getGlossary is /glossary, written in the request's language.
func (s *Server) getGlossary(c echo.Context) error {
	r := c.Request()
	c.SetRequest(r.WithContext(i18n.Translated(r.Context())))
	return render(c, http.StatusOK, views.GlossaryPage())
}
