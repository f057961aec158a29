// Package depthspace is DML_DEPTH_TO_SPACE1 and DML_SPACE_TO_DEPTH1 as
// one explorer.Kind: an operator picker, one input, and the output in
// depth-column-row (DCR) and column-row-depth (CRD) order side by side,
// every output cell linked to the input element it reads. Both orders
// of both operators are a reshape and a transpose, a 6-D strided view of
// the input (core.DepthSpace.View, run by compute).
package depthspace

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/i18n"
)

// Kind is the depth-space explorer.
type Kind struct{}

var _ explorer.Kind = Kind{}

// Name is the explorer's page in the protocol.
func (Kind) Name() string { return "depthspace" }

// Routes are the explorer's addresses.
func (Kind) Routes() explorer.Routes {
	return explorer.Routes{Page: "/depthspace", Embed: "/embed/depthspace", SVG: "/api/v1/depthspace.svg", File: "stridescope-depthspace.svg", EmbedHeight: 1100}
}

// Listing is the explorer in the operators index (/operators).
func (Kind) Listing(ctx context.Context) (title, summary string) {
	return i18n.T(ctx, "depthspace.title"), i18n.T(ctx, "depthspace.summary")
}

// MaxQuery is the longest query of a state.
func (Kind) MaxQuery() int { return MaxQueryLen }

// Canonical is the canonical query of a state as typed: a state with
// errors carries its last valid one, if any.
func (Kind) Canonical(q url.Values) string {
	typed, shown, _ := Resolve(q)
	if typed.OK() {
		return StateOf(typed).CanonicalQuery(false)
	}
	st := typed.State
	st.Last = ""
	if shown.OK() {
		st.Last = StateOf(shown).CanonicalQuery(false)
	}
	return st.CanonicalQuery(true)
}

// Page is the explorer of q at place.
func (k Kind) Page(ctx context.Context, q url.Values, at explorer.Place) (explorer.Page, error) {
	m, err := PageOf(ctx, q)
	if err != nil {
		return explorer.Page{}, err
	}
	m.Action = at.Path
	explorer.RebasePresets(m.Presets, at.Path)
	m.Share = explorer.ShareOf(k, at, m.LastValid)
	m.Share.Alt = m.Picture.Alt
	return explorer.Page{
		LastValid: m.LastValid,
		Whole:     m.Stale == "" && m.Drawn,
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

// API is POST /api/v1/depthtospace1 and /api/v1/spacetodepth1.
func (Kind) API() []explorer.Endpoint {
	return []explorer.Endpoint{
		{Path: "/api/v1/depthtospace1", New: func() any { return new(Request) }, Serve: serve(core.DepthToSpace)},
		{Path: "/api/v1/spacetodepth1", New: func() any { return new(Request) }, Serve: serve(core.SpaceToDepth)},
	}
}
