// Package tile is the DML_TILE explorer as an explorer.Kind: an input
// tensor repeated along each dimension, every output cell linked to the
// input cell it reads (output coordinate o reads o mod size per axis).
package tile

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/i18n"
)

// Kind is the tile explorer.
type Kind struct{}

var _ explorer.Kind = Kind{}

// Listing is the explorer's entry in the operators index.
func (Kind) Listing(ctx context.Context) (title, summary string) {
	return i18n.T(ctx, "tile.title"), i18n.T(ctx, "tile.summary")
}

// Name is the tile explorer's page in the protocol.
func (Kind) Name() string { return "tile" }

// Routes are the tile explorer's addresses.
func (Kind) Routes() explorer.Routes {
	return explorer.Routes{Page: "/tile", Embed: "/embed/tile", SVG: "/api/v1/tile.svg", File: "stridescope-tile.svg", EmbedHeight: 900}
}

// MaxQuery is the longest query of a tiling state.
func (Kind) MaxQuery() int { return MaxQueryLen }

// Canonical is the canonical query of a state as typed: a state with
// errors carries its last valid one, if any.
func (Kind) Canonical(q url.Values) string {
	typed, shown, _ := Resolve(q)
	if typed.T != nil {
		return StateOf(typed).CanonicalQuery(false)
	}
	st := typed.State
	st.Last = ""
	if shown.T != nil {
		st.Last = StateOf(shown).CanonicalQuery(false)
	}
	return st.CanonicalQuery(true)
}

// Page is the tile explorer of q at place.
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

// API is POST /api/v1/tile.
func (Kind) API() []explorer.Endpoint {
	return []explorer.Endpoint{{Path: "/api/v1/tile", New: func() any { return new(Request) }, Serve: serveTile}}
}

func serveTile(ctx context.Context, req any) (any, error) {
	t, inv := req.(*Request).Tile()
	if inv != nil {
		return nil, inv
	}
	if err := budget.Take(ctx, APICost(t)); err != nil {
		return nil, err
	}
	resp := NewResponse(t)
	resp.Warnings = i18n.LocaleOf(ctx).Violations(resp.Warnings)
	return resp, nil
}
