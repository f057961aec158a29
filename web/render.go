package web

import (
	"encoding/json"

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

// plainJSON writes JSON as the websocket does, "<" as "<" and not
// "\u003c": messages quote rules ("60 < DMLCalcBufferTensorSize 64"), read
// in a terminal as often as by a program, and an answer is never taken
// for HTML (application/json, nosniff).
type plainJSON struct{ echo.DefaultJSONSerializer }

func (plainJSON) Serialize(c echo.Context, v any, indent string) error {
	enc := json.NewEncoder(c.Response())
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	return enc.Encode(v)
}
