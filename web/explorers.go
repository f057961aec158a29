package web

import (
	"net/http"
	"net/url"
	"strings"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// explorerRoutes serves every explorer (s.kinds) through the one
// pipeline: its page and its embed, complete and correct without
// JavaScript; its picture as an SVG file; its JSON endpoints. An
// explorer's own code is in its package (ops/...); this file only frames
// its answers.
func (s *Server) explorerRoutes() {
	e := s.echo
	for _, k := range s.kinds {
		r := k.Routes()
		e.GET(r.Page, s.budgeted(asPage, s.explorerPage(k, r.Page, explorer.OnPage)))
		e.GET(r.Embed, s.budgeted(asPage, s.explorerPage(k, r.Embed, explorer.InEmbed)))
		e.GET(r.SVG, s.budgeted(asAPI, s.explorerSVG(k)))
		for _, ep := range k.API() {
			e.POST(ep.Path, s.budgeted(asAPI, endpoint(ep)))
		}
	}
}

// headerLinked are the explorers the site's header links by themselves;
// the others are reached from its operators index (/operators).
var headerLinked = map[string]struct{}{"/": {}, "/slice": {}}

// explorerPage renders k's page at path from the URL query.
func (s *Server) explorerPage(k explorer.Kind, path string, frame explorer.Frame) echo.HandlerFunc {
	return func(c echo.Context) error {
		if done, err := formRedirect(c, k); done || err != nil {
			return err
		}
		if _, ok := headerLinked[k.Routes().Page]; !ok {
			// The header's operators index is where the reader came from.
			c.SetRequest(c.Request().WithContext(views.AnOperatorPage(c.Request().Context())))
		}
		page, err := s.showExplorer(c, k, "", path, frame)
		if err != nil {
			return err
		}
		return renderTranslated(c, http.StatusOK, page)
	}
}

// showExplorer is k's page of the request's state (own when the URL has
// none: a tour step's) shown at path: its form and its presets lead
// there.
func (s *Server) showExplorer(c echo.Context, k explorer.Kind, own, path string, frame explorer.Frame) (templ.Component, error) {
	q, err := parsePageQuery(c, k.MaxQuery())
	if err != nil {
		return nil, err
	}
	if q, err = explorer.QueryOr(q, own); err != nil {
		return nil, err
	}
	ctx := c.Request().Context()
	at := explorer.Place{Path: path, Frame: frame, Origin: c.Scheme() + "://" + c.Request().Host, Lang: i18n.LangQuery(ctx)}
	return explorer.Show(ctx, k, q, at)
}

// explorerSVG is GET of k's picture of the state in the query, as a
// standalone SVG file.
func (s *Server) explorerSVG(k explorer.Kind) echo.HandlerFunc {
	return func(c echo.Context) error {
		q, err := parsePageQuery(c, k.MaxQuery())
		if err != nil {
			return err
		}
		ctx := c.Request().Context()
		plan, err := k.SVG(ctx, q)
		if err != nil {
			return err
		}
		tag := svgTag(ctx, k.Name(), plan.Query)
		if notModified(c, tag) {
			return nil
		}
		if err := budget.Take(ctx, plan.Cost); err != nil {
			return err
		}
		pic, err := plan.Draw(ctx)
		if err != nil {
			return err
		}
		h := svgHeaders(c)
		h.Set(echo.HeaderContentDisposition, `inline; filename="`+k.Routes().File+`"`)
		cacheHeaders(h, tag)
		return renderStatus(c, http.StatusOK, pic)
	}
}

// endpoint answers one of an explorer's JSON endpoints: the body decoded
// strictly (the same rules for every body), then the explorer's answer.
func endpoint(ep explorer.Endpoint) echo.HandlerFunc {
	return func(c echo.Context) error {
		req := ep.New()
		if err := decodeStrict(c.Request().Body, req); err != nil {
			return err
		}
		resp, err := ep.Serve(c.Request().Context(), req)
		if err != nil {
			return err
		}
		return c.JSON(http.StatusOK, resp)
	}
}

// formRedirect answers an explorer's GET form as JavaScript-off pages
// submit it (every field, rank and mode among them) with a redirect to
// the state's canonical URL, as the live page would show it: the address
// bar then holds a link worth sharing. It reports whether it answered.
func formRedirect(c echo.Context, k explorer.Kind) (bool, error) {
	raw := c.Request().URL.RawQuery
	if !strings.Contains(raw, "rank=") {
		return false, nil
	}
	q, err := parsePageQuery(c, k.MaxQuery())
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
	canon := k.Canonical(q)
	if room := q.Get("room"); room != "" {
		canon += "&room=" + url.QueryEscape(room)
		if q.Has("explore") {
			canon += "&explore" // a viewer exploring stays so
		}
	}
	return true, redirectKeepingLang(c, http.StatusSeeOther, c.Request().URL.Path+"?"+canon)
}
