package web

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// parsePageQuery reads a page's URL query (an explorer's state), of at
// most limit bytes.
func parsePageQuery(c echo.Context, limit int) (url.Values, error) {
	raw := c.Request().URL.RawQuery
	if len(raw) > limit {
		return nil, badRequest("", "query.long", "the query is longer than {limit} bytes", core.Args{"limit": limit})
	}
	q, err := url.ParseQuery(raw)
	if err != nil {
		return nil, badRequest("", "query.invalid", "the query is not valid: {detail}", core.Args{"detail": picture.QueryDetail(err)})
	}
	return q, nil
}

// svgHeaders marks the answer an SVG picture that any site may show, and
// returns the headers.
func svgHeaders(c echo.Context) http.Header {
	h := c.Response().Header()
	h.Set(echo.HeaderContentType, "image/svg+xml; charset=utf-8")
	h.Set("Cross-Origin-Resource-Policy", "cross-origin")
	return h
}

// cacheHeaders lets caches keep a picture an hour and revalidate it by tag.
func cacheHeaders(h http.Header, tag string) {
	h.Set("Cache-Control", "public, max-age=3600")
	h.Set("ETag", tag)
}

// svgBuild is part of every SVG picture's validator: what this build
// draws. A build from a clean checkout is its revision; any other (a
// modified tree, a test) a value of its own run, so that a picture drawn
// by other code is never taken for this one's.
var svgBuild = func() string {
	if bi, ok := debug.ReadBuildInfo(); ok {
		rev, modified := "", false
		for _, kv := range bi.Settings {
			switch kv.Key {
			case "vcs.revision":
				rev = kv.Value
			case "vcs.modified":
				modified = kv.Value == "true"
			}
		}
		if rev != "" && !modified {
			return rev
		}
	}
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}()

// svgTag is the validator of the picture of the canonical query of kind
// ("layout", "slice") in ctx's language: the picture is a function of
// those and of the build, so a page that shows it again after an hour
// revalidates it (304) before anything is computed, instead of fetching
// megabytes again. Weak: the gzipped and the plain answer are one picture.
func svgTag(ctx context.Context, kind, query string) string {
	sum := sha256.Sum256([]byte(svgBuild + "\x00" + kind + "\x00" + string(i18n.LocaleOf(ctx)) + "\x00" + query))
	return `W/"` + hex.EncodeToString(sum[:12]) + `"`
}

// notModified answers 304 when the request already holds the picture
// tagged tag.
func notModified(c echo.Context, tag string) bool {
	if !etagMatches(c.Request().Header.Get("If-None-Match"), tag) {
		return false
	}
	cacheHeaders(c.Response().Header(), tag)
	_ = c.NoContent(http.StatusNotModified)
	return true
}

// etagMatches is If-None-Match's weak comparison of the header's tags
// with tag.
func etagMatches(header, tag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimSpace(t)
		if t == "*" || strings.TrimPrefix(t, "W/") == strings.TrimPrefix(tag, "W/") {
			return true
		}
	}
	return false
}

func renderStatus(c echo.Context, status int, comp templ.Component) error {
	c.Response().WriteHeader(status)
	return comp.Render(c.Request().Context(), c.Response())
}

// writeRefusalSVG answers with a picture of the reasons a picture was
// refused (views.RefusalSVG), each reason wrapped to the picture's width.
func writeRefusalSVG(c echo.Context, status int, vs []core.Violation) error {
	reasons := make([]string, len(vs))
	for i, v := range vs {
		reasons[i] = v.Message
	}
	svgHeaders(c)
	return renderStatus(c, status, views.RefusalSVG(views.RefusalLines(reasons)))
}
