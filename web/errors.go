package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/strictjson"
	"github.com/stridescope/stridescope/views"
)

// statusClientGone is the status logged for a request whose client went
// away before it was answered (nginx's 499).
const statusClientGone = 499

// errorBody is the one shape of every API error: every violation at once.
type errorBody struct {
	Errors []core.Violation `json:"errors"`
}

// apiError carries an HTTP status and the violations to report.
type apiError struct {
	status     int
	violations []core.Violation
}

func (e *apiError) Error() string {
	return fmt.Sprintf("status %d: %v", e.status, e.violations)
}

func invalid(vs ...core.Violation) *apiError {
	return &apiError{status: http.StatusUnprocessableEntity, violations: vs}
}

func badRequest(field, code, tmpl string, args core.Args) *apiError {
	return &apiError{status: http.StatusBadRequest, violations: []core.Violation{core.NewMsg(code, tmpl, args).At(field)}}
}

// decodeStrict reads exactly one JSON object into v with strictjson's
// rules, the same for every body of every endpoint: every fault at once,
// each at its path (a null, a fraction or a number past 64 bits inside
// a list at its index), unknown fields, keys given twice and data after
// the object refused.
func decodeStrict(r io.Reader, v any) *apiError {
	body, err := io.ReadAll(r)
	if err != nil {
		return readError(err)
	}
	if vs := strictjson.Decode(body, v); vs != nil {
		return &apiError{status: http.StatusBadRequest, violations: vs}
	}
	return nil
}

// readError is the answer to a body that could not be read whole: over
// the limit (413), not all there within the server's read timeout (408),
// or cut off. The transport's own error names socket addresses and is in
// English: the log has it, the client gets the rule.
func readError(err error) *apiError {
	var maxErr *http.MaxBytesError
	var netErr net.Error
	switch {
	case errors.As(err, &maxErr):
		return tooLarge(maxErr.Limit)
	case errors.As(err, &netErr) && netErr.Timeout():
		return &apiError{status: http.StatusRequestTimeout, violations: []core.Violation{
			core.NewMsg("body.timeout", "the body did not arrive in time: send all of it at once", nil).At("")}}
	}
	return badRequest("", "body.read", "the body could not be read: it was cut off", nil)
}

// httpErrorHandler writes every error in the errorBody shape; anything not
// ours is reported by status only, never with internal detail.
func httpErrorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	if errors.Is(err, context.Canceled) && c.Request().Context().Err() != nil {
		// The client went away (while its request waited for the work
		// budget, say): nobody reads the answer, and it is no server
		// error. 499 is what proxies log for it.
		c.Response().WriteHeader(statusClientGone)
		return
	}
	var ae *apiError
	var inv *picture.Invalid
	var he *echo.HTTPError
	status, body := http.StatusInternalServerError, errorBody{Errors: []core.Violation{core.NewMsg("server.internal", "internal error", nil).At("")}}
	switch {
	case errors.As(err, &ae):
		status, body = ae.status, errorBody{Errors: ae.violations}
	case errors.As(err, &inv):
		status, body = http.StatusUnprocessableEntity, errorBody{Errors: inv.Violations}
	case errors.As(err, &he):
		status = he.Code
		body = errorBody{Errors: []core.Violation{{Message: fmt.Sprint(he.Message)}}}
		switch status {
		case http.StatusRequestEntityTooLarge:
			body.Errors[0] = core.NewMsg("body.large.any", "the body is too large", nil).At("")
		case http.StatusNotFound: // no such route (Echo's router), or a handler's echo.ErrNotFound
			if strings.HasPrefix(c.Request().URL.Path, "/api/") {
				body.Errors[0] = core.NewMsg("route.none", "Not Found", nil).At("")
			} else {
				// A page (/tour/99) asked for by a client that takes no HTML.
				body.Errors[0] = core.NewMsg("page.none", "Not Found", nil).At("")
			}
		case http.StatusMethodNotAllowed:
			// The router has set Allow; HEAD joins it when it is written
			// (allowHead), and is said here as it will be sent.
			h := http.Header{echo.HeaderAllow: {c.Response().Header().Get(echo.HeaderAllow)}}
			allowHead(h)
			body.Errors[0] = core.NewMsg("route.method", "{method} is not allowed at this address: it takes {allow}",
				core.Args{"method": c.Request().Method, "allow": h.Get(echo.HeaderAllow)}).At("")
		}
	}
	body.Errors = picture.Capped(body.Errors)
	// Each coded violation in the request's language (English by default).
	body.Errors = i18n.LocaleOf(c.Request().Context()).Violations(body.Errors)
	// A picture refused where a picture was asked for (an <img> on a
	// documentation page, the Download SVG link): a picture that says
	// why, with the same status, rather than JSON a browser shows as a
	// broken image or saves as a .svg.
	if p := c.Request().URL.Path; strings.HasPrefix(p, "/api/") && strings.HasSuffix(p, ".svg") && acceptsPicture(c.Request()) {
		_ = writeRefusalSVG(c, status, body.Errors)
		return
	}
	if !strings.HasPrefix(c.Request().URL.Path, "/api/") && acceptsHTML(c.Request()) {
		ctx := i18n.Translated(c.Request().Context())
		switch status {
		case http.StatusNotFound:
			c.SetRequest(c.Request().WithContext(ctx))
			_ = render(c, status, views.NotFoundPage(c.Request().URL.Path))
			return
		case http.StatusBadRequest, http.StatusMethodNotAllowed, http.StatusRequestEntityTooLarge:
			// A page address a browser cannot be answered with (a query
			// that does not parse, a form's route opened as a link, a
			// form's body over the limit): the reasons in words, and a way
			// on in the asked language.
			title := i18n.Key("error.address")
			if status == http.StatusRequestEntityTooLarge {
				title = "error.too-large"
			}
			wordedPage(c, ctx, status, title, body.Errors)
			return
		case http.StatusForbidden, http.StatusTooManyRequests, http.StatusServiceUnavailable:
			// A room's form a browser posted ("Present this", "End the
			// room") that the server refused: the reason in words, not
			// JSON on the projector.
			if c.Request().Method == http.MethodPost {
				wordedPage(c, ctx, status, "error.refused", body.Errors)
				return
			}
		}
	}
	_ = c.JSON(status, body)
}

// wordedPage answers a browser with an error page titled title: the
// violations' messages as sentences, and a way on, in ctx's language.
func wordedPage(c echo.Context, ctx context.Context, status int, title i18n.Key, vs []core.Violation) {
	msgs := make([]string, len(vs))
	for i, v := range vs {
		msgs[i] = i18n.Sentence(ctx, v.Message)
	}
	c.SetRequest(c.Request().WithContext(ctx))
	_ = render(c, status, errorPage(c.Request().URL.Path)(i18n.T(ctx, title), strings.Join(msgs, " "), i18n.WithAsked(ctx, onward(c.Request(), status))))
}

// onward is where a page address that could not be answered goes on to:
// the same page without its query, or the layout explorer when the route
// takes no GET (or the path could leave the site).
func onward(r *http.Request, status int) string {
	if status == http.StatusRequestEntityTooLarge {
		// A form's body over the limit: the pages send no Referer
		// (Referrer-Policy: no-referrer, so that a room's code in an
		// address never leaves it), so the way on is the explorer.
		return "/"
	}
	p := r.URL.EscapedPath()
	if status != http.StatusBadRequest || r.Method != http.MethodGet || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, "/\\") {
		return "/"
	}
	return p
}

// errorPage is the error page for a page at path: an embed's has the
// embed's frame (no site header), whose links stay in the frame.
func errorPage(path string) func(title, message, retry string) templ.Component {
	if strings.HasPrefix(path, "/embed/") {
		return views.EmbedErrorPage
	}
	return views.ErrorPage
}

// acceptsPicture says the client asked for an image or a page (an <img>,
// a link followed), not for whatever comes (an API client).
func acceptsPicture(r *http.Request) bool {
	a := r.Header.Get("Accept")
	return strings.Contains(a, "image/") || strings.Contains(a, "text/html")
}

func acceptsHTML(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}
