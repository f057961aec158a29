package web

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/docs"
)

// APIDocPath is where the server serves docs/api.md, the address the
// import box and the API panel cite.
const APIDocPath = "/docs/api.md"

// getAPIDoc serves docs/api.md as it is in the repository, Markdown read
// as plain text: nothing of it is rendered or run (nosniff, set for every
// answer, keeps a browser from reading it as anything else).
func (s *Server) getAPIDoc(c echo.Context) error {
	h := c.Response().Header()
	h.Set("Cache-Control", "public, max-age=3600")
	return c.Blob(http.StatusOK, "text/plain; charset=utf-8", []byte(docs.API))
}
