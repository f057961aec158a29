package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/views"
)

// getIndex renders the explorer from the URL query: complete and correct
// without JavaScript.
func (s *Server) getIndex(c echo.Context) error {
	if done, err := formRedirect(c, false); done || err != nil {
		return err
	}
	m, err := s.layoutAt(c, "", "/", false)
	if err != nil {
		return err
	}
	return renderTranslated(c, http.StatusOK, views.ExplorerPage(m))
}
