package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/views"
)

// getSlice renders the DML_SLICE1 explorer from the URL query: complete
// and correct without JavaScript.
func (s *Server) getSlice(c echo.Context) error {
	if done, err := formRedirect(c, true); done || err != nil {
		return err
	}
	m, err := s.sliceAt(c, "", "/slice", false)
	if err != nil {
		return err
	}
	return renderTranslated(c, http.StatusOK, views.SlicePageView(m))
}

// slicePresetLinks are the examples' links for the current data type and
