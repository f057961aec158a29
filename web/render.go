package web

import (
	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/i18n"
)

// render writes a templ component as the response.
func render(c echo.Context, status int, comp templ.Component) error {
	c.Response().Header().Set(echo.HeaderContentType, echo.MIMETextHTMLCharsetUTF8)
	c.Response().WriteHeader(status)
	return comp.Render(c.Request().Context(), c.Response())
}

// renderTranslated renders a page written in every locale: its <html
// lang> names the request's locale.
func renderTranslated(c echo.Context, status int, comp templ.Component) error {
	c.SetRequest(c.Request().WithContext(i18n.Translated(c.Request().Context())))
	return render(c, status, comp)
}
