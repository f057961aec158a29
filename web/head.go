package web

import (
	"net/http"
	"slices"
	"strings"

	"github.com/labstack/echo/v4"
)

// headKey marks, in the Echo context, a HEAD request routed as a GET.
const headKey = "stridescope.head"

// headAsGet routes a HEAD request to the GET route of its path: Echo's
// router knows only the methods it is told, but RFC 9110 has every GET
// resource answer HEAD too, and health checks use it. The router reads the
// connection's own request, so its method is GET while the route is found
// and HEAD again from keepHead on: the handlers see HEAD, and net/http
// writes the headers and drops the body. Nothing may replace the request
// before it: the router reads the one the connection gave.
func headAsGet(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		res := c.Response()
		res.Before(func() { allowHead(res.Header()) })
		if r := c.Request(); r.Method == http.MethodHead {
			r.Method = http.MethodGet
			c.Set(headKey, true)
		}
		return next(c)
	}
}

// keepHead puts back the HEAD that headAsGet routed as a GET; it is the
// first middleware after routing.
func keepHead(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if c.Get(headKey) != nil {
			c.Request().Method = http.MethodHead
		}
		return next(c)
	}
}

// allowHead adds HEAD to an Allow header (a 405's, an OPTIONS answer's)
// wherever it lists GET: every GET route answers HEAD (headAsGet), which
// Echo's router, not knowing it, leaves out.
func allowHead(h http.Header) {
	methods := strings.Split(h.Get(echo.HeaderAllow), ", ")
	if slices.Contains(methods, http.MethodGet) && !slices.Contains(methods, http.MethodHead) {
		h.Set(echo.HeaderAllow, strings.Join(append(methods, http.MethodHead), ", "))
	}
}
