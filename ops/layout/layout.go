// Package layout is the tensor layout explorer as an explorer.Kind: one
// tensor description (data type, sizes, strides, buffer size), where each
// logical element sits in the buffer, and DMLCalcBufferTensorSize.
package layout

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// Kind is the layout explorer.
type Kind struct{}

var _ explorer.Kind = Kind{}

// Name is the layout explorer's page in the protocol.
// Listing is the explorer's entry in the operators index.
func (Kind) Listing(ctx context.Context) (title, summary string) {
	return i18n.T(ctx, "site.nav.layout"), i18n.T(ctx, "layout.summary")
}

func (Kind) Name() string { return "layout" }

// Routes are the layout explorer's addresses.
func (Kind) Routes() explorer.Routes {
	return explorer.Routes{Page: "/", Embed: "/embed/layout", SVG: "/api/v1/layout.svg", File: "stridescope-layout.svg", EmbedHeight: 800}
}

// MaxQuery is the longest query of a layout state.
func (Kind) MaxQuery() int { return picture.MaxQueryLen }

// Canonical is the canonical query of a layout state as typed: a state
// with errors carries its last valid one, if any.
func (Kind) Canonical(q url.Values) string {
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

// Page is the layout explorer of q at place.
func (k Kind) Page(ctx context.Context, q url.Values, at explorer.Place) (explorer.Page, error) {
	m, err := PageOf(ctx, q)
	if err != nil {
		return explorer.Page{}, err
	}
	m.Action = at.Path
	explorer.RebasePresets(m.Presets, at.Path)
	m.Share = explorer.ShareOf(k, at, m.LastValid)
	m.Share.NoSVG = m.Picture.NoSVG
	if m.LastValid != "" {
		m.Share.Alt = views.LayoutTitle(ctx, m.Picture)
	}
	return explorer.Page{
		LastValid: m.LastValid,
		Whole:     m.Stale == "" && explorer.DrawnWhole(m.Picture.Logical.Mode, m.Picture.Buffer.Mode),
		Render: func(answer []byte) templ.Component {
			if answer != nil {
				m.Answer = json.RawMessage(answer) // never a nil RawMessage, which renders "null"
			}
			return explorer.Framed(at.Frame,
				func() templ.Component { return PageView(m) },
				func() templ.Component { return EmbedPage(m) },
				func() templ.Component { return Widget(m) })
		},
	}, nil
}

// SVG plans the picture of q's layout as an SVG file: every valid state
// has one. Views of up to views.MaxSVGDetail cells are drawn cell by cell,
// labelled; larger ones, or a detailed picture that would be more than
// views.MaxSVGAspect times as tall as wide, binned (picture.LayoutBinned).
func (Kind) SVG(ctx context.Context, q url.Values) (explorer.SVGPlan, error) {
	st, qvs := picture.LayoutStateFromQuery(q)
	v := picture.Validate(st, qvs)
	if v.Layout == nil {
		return explorer.SVGPlan{}, &explorer.Invalid{Violations: v.Errors}
	}
	query := st.CanonicalQuery(false)
	detailed := picture.DetailedLayout(v.Layout)
	cost := picture.BinnedCost(v.Layout.LogicalElementCount(), v.Layout.Rank(), 1, 2)
	if detailed {
		cost += picture.LayoutCost(v.Layout, picture.InSVG)
	}
	return explorer.SVGPlan{
		Query: query,
		Cost:  cost,
		Draw: func(ctx context.Context) (templ.Component, error) {
			if detailed {
				pic, err := picture.NewSVG(ctx, v, query)
				if err != nil {
					return nil, err
				}
				if doc, ok, err := views.Bounded(ctx, views.LayoutSVG(ctx, pic.View, "layout")); ok || err != nil {
					return doc, err
				}
			}
			s, err := picture.LayoutBinned(ctx, v, query, "layout")
			if err != nil {
				return nil, err
			}
			return views.SVGDocument(s), nil
		},
	}, nil
}

// API is POST /api/v1/layout.
func (Kind) API() []explorer.Endpoint {
	return []explorer.Endpoint{{
		Path: "/api/v1/layout",
		New:  func() any { return new(picture.LayoutRequest) },
		Serve: func(ctx context.Context, req any) (any, error) {
			l, inv := req.(*picture.LayoutRequest).Layout()
			if inv != nil {
				return nil, inv
			}
			if err := budget.Take(ctx, APICost(l)); err != nil {
				return nil, err
			}
			resp := NewResponse(l)
			resp.Warnings = i18n.LocaleOf(ctx).Violations(resp.Warnings)
			return resp, nil
		},
	}}
}
