package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// docsRoutes are the pages and pictures made for documentation: the
// guided tour, the embeds and the SVG pictures. headers.go lets other
// sites frame the embeds and the pictures, and only them.
func (s *Server) docsRoutes() {
	e := s.echo
	e.GET("/tour", s.getTourStart)
	e.GET("/tour/:n", s.budgeted(asPage, s.getTourStep))
	e.GET("/embed/layout", s.budgeted(asPage, s.getEmbedLayout))
	e.GET("/embed/slice", s.budgeted(asPage, s.getEmbedSlice))
	e.GET("/api/v1/layout.svg", s.budgeted(asAPI, s.getLayoutSVG))
	e.GET("/api/v1/slice1.svg", s.budgeted(asAPI, s.getSlice1SVG))
}

// getEmbedLayout is the layout explorer without the site's chrome, for an
// iframe: the state from the URL, live as on its own page.
func (s *Server) getEmbedLayout(c echo.Context) error {
	if done, err := formRedirect(c, false); done || err != nil {
		return err
	}
	m, err := s.layoutAt(c, "", "/embed/layout", true)
	if err != nil {
		return err
	}
	return renderTranslated(c, http.StatusOK, views.EmbedLayoutPage(m))
}

// getEmbedSlice is the DML_SLICE1 explorer without the site's chrome,
// for an iframe: the state from the URL (the keys of /slice), live.
func (s *Server) getEmbedSlice(c echo.Context) error {
	if done, err := formRedirect(c, true); done || err != nil {
		return err
	}
	m, err := s.sliceAt(c, "", "/embed/slice", true)
	if err != nil {
		return err
	}
	return renderTranslated(c, http.StatusOK, views.EmbedSlicePage(m))
}

// viewKeys are the query keys that change how a state is shown, or where,
// but not the state itself: the classroom room (and a viewer's exploring
// in it), the page's language (the
// switcher's links add it), the cell labels, the focused cell and the
// step-through position.
var viewKeys = map[string]bool{"room": true, "explore": true, "lang": true, "labels": true, "sel": true, "cell": true, "t": true}

// queryOr is the explorer state in the request's URL, or own when the
// URL has none (a tour step's own state). Only an edit changes a step's
// state: a URL with view keys alone (?room=, ?labels=offset) shows own
// with them, never the default tensor.
func queryOr(c echo.Context, limit int, own string) (url.Values, error) {
	q, err := parsePageQuery(c, limit)
	if err != nil || own == "" {
		return q, err
	}
	for k := range q {
		if !viewKeys[k] {
			return q, nil
		}
	}
	oq, err := url.ParseQuery(own)
	if err != nil {
		return nil, err
	}
	for k, v := range q {
		if k != "room" && k != "explore" && k != "lang" {
			oq[k] = v
		}
	}
	return oq, nil
}

// layoutAt is the layout explorer of the request's state (own when the
// URL has none) shown at path ("/", a tour step, the embed): its form
// and its presets lead there. inEmbed gives it the embed's buttons.
func (s *Server) layoutAt(c echo.Context, own, path string, inEmbed bool) (views.Explorer, error) {
	q, err := queryOr(c, picture.MaxQueryLen, own)
	if err != nil {
		return views.Explorer{}, err
	}
	m, err := picture.LayoutPage(c.Request().Context(), q)
	if err != nil {
		return m, err
	}
	m.Action = path
	rebasePresets(m.Presets, path)
	m.Share = shareOf(c, "layout", m.LastValid, inEmbed)
	m.Share.NoSVG = m.Picture.NoSVG
	if m.LastValid != "" {
		m.Share.Alt = views.LayoutTitle(c.Request().Context(), m.Picture)
	}
	if m.Stale == "" && m.LastValid != "" && drawnWhole(m.Picture.Logical.Mode, m.Picture.Buffer.Mode) {
		if a := s.hub.FirstAnswer(c.Request().Context(), "layout", m.LastValid); a != nil {
			m.Answer = a // not a nil json.RawMessage, which would render "null"
		}
	}
	return m, nil
}

// sliceAt is layoutAt for the DML_SLICE1 explorer ("/slice"), whose
// step-through links lead to path too.
func (s *Server) sliceAt(c echo.Context, own, path string, inEmbed bool) (views.SlicePage, error) {
	q, err := queryOr(c, picture.MaxSliceQuery, own)
	if err != nil {
		return views.SlicePage{}, err
	}
	m, err := picture.SlicePage(c.Request().Context(), q)
	if err != nil {
		return m, err
	}
	m.Action = path
	rebasePresets(m.Presets, path)
	st := &m.Picture.Steps
	st.Prev, st.Next = rebase(st.Prev, path), rebase(st.Next, path)
	m.Share = shareOf(c, "slice", m.LastValid, inEmbed)
	m.Share.NoSVG = m.Picture.NoSVG
	m.Share.Alt = m.Picture.Alt
	if p := m.Picture; m.Stale == "" && m.LastValid != "" && drawnWhole(p.Input.Mode, p.Output.Mode, p.Buffer.Mode) {
		if a := s.hub.FirstAnswer(c.Request().Context(), "slice", m.LastValid); a != nil {
			m.Answer = a
		}
	}
	return m, nil
}

// drawnWhole reports whether a picture of views in these modes is all in
// the page's HTML: no view is a canvas, whose cells come in binary frames.
// Its page embeds the socket's answer (live.Hub.FirstAnswer), so that it
// links its cells without asking for what it already shows.
func drawnWhole(modes ...string) bool {
	for _, m := range modes {
		if m == views.ModeCanvas {
			return false
		}
	}
	return true
}

func rebasePresets(ps []views.Preset, path string) {
	for i, p := range ps {
		ps[i].Href = rebase(p.Href, path)
	}
}

// rebase points an explorer's link ("/?q", "/slice?q") at path, keeping
// its query; "" (no link) stays.
func rebase(href, path string) string {
	if i := strings.IndexByte(href, '?'); i >= 0 {
		return path + href[i:]
	}
	if href == "" {
		return ""
	}
	return path
}

// shareOf is the Embed and Download SVG buttons of an explorer ("layout"
// or "slice") showing the state query. A page read in another language
// than English shares its links with ?lang=: an embed on another site
// gets no cookie of ours, and a link opened elsewhere should read as the
// page it was copied from did.
func shareOf(c echo.Context, name, query string, inEmbed bool) *views.Share {
	if q := i18n.LangQuery(c.Request().Context()); q != "" {
		query = joinQuery(query, q)
	}
	sh := &views.Share{Name: name, Query: query, Origin: c.Scheme() + "://" + c.Request().Host, InEmbed: inEmbed}
	// The snippet's height holds the picture (the embed puts it first)
	// at a documentation column's width, 600 to 900 px; the form follows
	// it inside the frame.
	switch name {
	case "slice":
		sh.SVG, sh.Embed, sh.Open, sh.Height = "/api/v1/slice1.svg", "/embed/slice", "/slice", 1120
	default:
		sh.SVG, sh.Embed, sh.Open, sh.Height = "/api/v1/layout.svg", "/embed/layout", "/", 800
	}
	return sh
}

// formRedirect answers the explorers' GET form as JavaScript-off pages
// submit it (every field, rank and mode among them) with a redirect to
// the state's canonical URL, as the live page would show it: the address
// bar then holds a link worth sharing. It reports whether it answered.
func formRedirect(c echo.Context, slice bool) (bool, error) {
	raw := c.Request().URL.RawQuery
	if !strings.Contains(raw, "rank=") {
		return false, nil
	}
	limit := picture.MaxQueryLen
	if slice {
		limit = picture.MaxSliceQuery
	}
	q, err := parsePageQuery(c, limit)
	if err != nil || q["rank"] == nil {
		return false, err
	}
	// A rank that is not one is the page's to show at its field; the
	// canonical URL would drop it without a word.
	if r := strings.TrimSpace(q.Get("rank")); r != "" {
		if _, ok := picture.ParseRank(r); !ok {
			return false, nil
		}
	}
	var canon string
	if slice {
		canon = canonicalSlice(q)
	} else {
		canon = canonicalLayout(q)
	}
	if room := q.Get("room"); room != "" {
		canon += "&room=" + url.QueryEscape(room)
		if q.Has("explore") {
			canon += "&explore" // a viewer exploring stays so
		}
	}
	return true, redirectKeepingLang(c, http.StatusSeeOther, c.Request().URL.Path+"?"+canon)
}

// canonicalLayout is the canonical query of a layout state as typed: a
// state with errors carries its last valid one, if any, in last.
func canonicalLayout(q url.Values) string {
	v, pv, _ := picture.Resolve(q)
	if v.Layout != nil {
		return v.State.CanonicalQuery(false)
	}
	st := v.State
	st.Last = ""
	if pv.Layout != nil {
		st.Last = pv.State.CanonicalQuery(false)
	}
	return st.CanonicalQuery(true)
}

// canonicalSlice is canonicalLayout for the slice explorer.
func canonicalSlice(q url.Values) string {
	typed, drawn, _ := picture.ResolveSlice(q)
	if typed.Slice != nil {
		return picture.SliceStateOf(typed).CanonicalQuery(false)
	}
	st := typed.State
	st.Last = ""
	if drawn.Slice != nil {
		st.Last = picture.SliceStateOf(drawn).CanonicalQuery(false)
	}
	return st.CanonicalQuery(true)
}
