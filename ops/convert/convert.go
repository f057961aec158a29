// Package convert is the layout conversion explorer as an explorer.Kind:
// DML_ELEMENT_WISE_IDENTITY between two tensor descriptions of one
// logical tensor (NHWC to NCHW, a transpose, a broadcast materialised,
// rows padded), each output cell linked to the input cell it is copied
// from, the copy's access pattern, and whether it may run in place.
package convert

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/i18n"
)

// Kind is the layout conversion explorer.
type Kind struct{}

var _ explorer.Kind = Kind{}

// Name is the conversion explorer's page in the protocol.
// Listing is the explorer's entry in the operators index.
func (Kind) Listing(ctx context.Context) (title, summary string) {
	return i18n.T(ctx, "convert.title"), i18n.T(ctx, "convert.summary")
}

func (Kind) Name() string { return "convert" }

// Routes are the conversion explorer's addresses.
func (Kind) Routes() explorer.Routes {
	return explorer.Routes{Page: "/convert", Embed: "/embed/convert", SVG: "/api/v1/identity.svg", File: "stridescope-convert.svg", EmbedHeight: 1100}
}

// MaxQuery is the longest query of a conversion state.
func (Kind) MaxQuery() int { return MaxQueryLen }

// Canonical is the canonical query of a state as typed: a state with
// errors carries its last valid one, if any.
func (Kind) Canonical(q url.Values) string {
	typed, shown, _ := Resolve(q)
	if typed.ID != nil {
		return StateOf(typed).CanonicalQuery(false)
	}
	st := typed.State
	st.Last = ""
	if shown.ID != nil {
		st.Last = StateOf(shown).CanonicalQuery(false)
	}
	return st.CanonicalQuery(true)
}

// Page is the conversion explorer of q at place.
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

// API is POST /api/v1/identity.
func (Kind) API() []explorer.Endpoint {
	return []explorer.Endpoint{{Path: "/api/v1/identity", New: func() any { return new(Request) }, Serve: serveIdentity}}
}

func serveIdentity(ctx context.Context, req any) (any, error) {
	id, inv := req.(*Request).Identity()
	if inv != nil {
		return nil, inv
	}
	if err := budget.Take(ctx, APICost(id)); err != nil {
		return nil, err
	}
	resp, err := NewResponse(ctx, id)
	if err != nil {
		return nil, err
	}
	resp.Warnings = i18n.LocaleOf(ctx).Violations(resp.Warnings)
	return resp, nil
}
