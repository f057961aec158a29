// Package padding1 is the DML_PADDING1 explorer as an explorer.Kind: an
// input tensor padded by each mode (CONSTANT, EDGE, REFLECTION,
// SYMMETRIC, WRAP), every output cell linked to the input cell it reads
// or marked as the padding value, the index map of each axis, and where
// DirectML's modes and ONNX's or WebNN's disagree.
package padding1

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/i18n"
)

// Kind is the padding explorer.
type Kind struct{}

var _ explorer.Kind = Kind{}

// Listing is the explorer's entry in the operators index.
func (Kind) Listing(ctx context.Context) (title, summary string) {
	return i18n.T(ctx, "padding.title"), i18n.T(ctx, "padding.summary")
}

// Name is the padding explorer's page in the protocol.
func (Kind) Name() string { return "padding" }

// Routes are the padding explorer's addresses.
func (Kind) Routes() explorer.Routes {
	return explorer.Routes{Page: "/padding", Embed: "/embed/padding", SVG: "/api/v1/padding1.svg", File: "stridescope-padding.svg", EmbedHeight: 1000}
}

// MaxQuery is the longest query of a padding state.
func (Kind) MaxQuery() int { return MaxQueryLen }

// Canonical is the canonical query of a state as typed: a state with
// errors carries its last valid one, if any.
func (Kind) Canonical(q url.Values) string {
	typed, shown, _ := Resolve(q)
	if typed.P != nil {
		return StateOf(typed).CanonicalQuery(false)
	}
	st := typed.State
	st.Last = ""
	if shown.P != nil {
		st.Last = StateOf(shown).CanonicalQuery(false)
	}
	return st.CanonicalQuery(true)
}

// Page is the padding explorer of q at place.
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

// API is POST /api/v1/padding1.
func (Kind) API() []explorer.Endpoint {
	return []explorer.Endpoint{{Path: "/api/v1/padding1", New: func() any { return new(Request) }, Serve: servePadding1}}
}

func servePadding1(ctx context.Context, req any) (any, error) {
	p, inv := req.(*Request).Padding1()
	if inv != nil {
		return nil, inv
	}
	if err := budget.Take(ctx, APICost(p)); err != nil {
		return nil, err
	}
	resp := NewResponse(p)
	loc := i18n.LocaleOf(ctx)
	resp.Notes, resp.Warnings = loc.Violations(resp.Notes), loc.Violations(resp.Warnings)
	return resp, nil
}
