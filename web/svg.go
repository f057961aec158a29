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

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/compute"
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

// getLayoutSVG is GET /api/v1/layout.svg: the picture of the explorer
// state in the query, as a standalone SVG file.
func (s *Server) getLayoutSVG(c echo.Context) error {
	q, err := parsePageQuery(c, picture.MaxQueryLen)
	if err != nil {
		return err
	}
	st, qvs := picture.LayoutStateFromQuery(q)
	v := picture.Validate(st, qvs)
	if v.Layout == nil {
		return invalid(v.Errors...)
	}
	l := v.Layout
	if vs := picture.LayoutSVGLimits(l); vs != nil {
		return invalid(vs...)
	}
	ctx := c.Request().Context()
	query := st.CanonicalQuery(false)
	tag := svgTag(ctx, "layout", query)
	if notModified(c, tag) {
		return nil
	}
	if err := budget.Take(ctx, picture.LayoutCost(l, picture.InSVG)); err != nil {
		return err
	}
	pic, err := picture.NewSVG(ctx, v, query)
	if err != nil {
		return err
	}
	return writeSVG(c, "stridescope-layout.svg", tag, views.LayoutSVG(ctx, pic.View, "layout"))
}

// writeSVG answers with a standalone SVG file that any site may show,
// its validator tag (svgTag).
func writeSVG(c echo.Context, name, tag string, pic views.SVG) error {
	h := svgHeaders(c)
	h.Set(echo.HeaderContentDisposition, `inline; filename="`+name+`"`)
	cacheHeaders(h, tag)
	return renderStatus(c, http.StatusOK, views.SVGDocument(pic))
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

// getSlice1SVG is GET /api/v1/slice1.svg: the picture of the slice
// explorer's state in the query (the same keys as /slice), as a
// standalone SVG file.
func (s *Server) getSlice1SVG(c echo.Context) error {
	q, err := parsePageQuery(c, picture.MaxSliceQuery)
	if err != nil {
		return err
	}
	st, qvs := picture.SliceStateFromQuery(q)
	v := picture.ValidateSlice(st, qvs)
	if v.Slice == nil {
		return invalid(v.Errors...)
	}
	if vs := picture.SliceSVGLimits(v.Slice); vs != nil {
		return invalid(vs...)
	}
	ctx := c.Request().Context()
	tag := svgTag(ctx, "slice", st.CanonicalQuery(false))
	if notModified(c, tag) {
		return nil
	}
	if err := budget.Take(ctx, picture.SliceSVGCost(v.Slice)); err != nil {
		return err
	}
	pic, err := sliceDiagram(ctx, v.Slice, v.Values)
	if err != nil {
		return err
	}
	return writeSVG(c, "stridescope-slice.svg", tag, views.SliceSVG(ctx, pic, "slice"))
}

// sliceDiagram computes what the slice picture shows with core and
// compute: the buffer offset of every input element, the values their
// cells hold once filled (1..N when none are given) and the output the
// slice engine's walk reads from them. Only the cells shown are read
// (picture.CellValues): strides can spread a few elements over a buffer of
// millions of cells. The caller bounds the element counts.
func sliceDiagram(ctx context.Context, s *core.Slice1, vals []picture.SliceValue) (views.SliceDiagram, error) {
	in := s.Input
	dt := in.DataType
	n, m := in.LogicalElementCount(), s.OutputElementCount()
	offsets := make([]int64, n)
	compute.Offsets(compute.LayoutWalk(in), 0, offsets)
	reads := make([]int64, m)
	compute.Offsets(compute.SliceWalk(s), 0, reads)
	cv, err := picture.SparseCellValues(ctx, in, vals, append(append([]int64(nil), offsets...), reads...))
	if err != nil {
		return views.SliceDiagram{}, err
	}
	p := views.SliceDiagram{
		DataType: dt.String(), Labels: core.DimensionLabels(in.Rank()),
		InputSizes: in.Sizes, InputStrides: in.Strides, InputOffsets: offsets,
		WindowOffsets: s.WindowOffsets, WindowSizes: s.WindowSizes, WindowStrides: s.WindowStrides,
		CopyStart: s.CopyStart, MaxCopied: s.MaxCopied, OutputSizes: s.OutputSizes,
		ValuesNote: i18n.T(ctx, "svg.slice.values"),
		Values:     make([]string, n), Order: make([]int64, n), Output: make([]string, m),
	}
	if vals != nil {
		p.ValuesNote = i18n.T(ctx, "svg.slice.given")
	}
	if note := picture.ValuesNoteIn(ctx, dt, n, vals != nil); note != "" {
		p.ValuesNote += " (" + note + ")"
	}
	for i, o := range offsets {
		p.Values[i] = cv.Text(o)
	}
	for k := range m {
		p.Output[k] = cv.Text(reads[k])
		p.Order[picture.RowMajorIndex(in.Sizes, s.InputCoordinate(k))] = k + 1
	}
	return p, nil
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
