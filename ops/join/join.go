// Package join is the DML_JOIN and DML_SPLIT explorer as one
// explorer.Kind: a picker chooses the operator, because each is the
// other turned round (a join's inputs are a split's outputs) and both
// are the same lesson, a set of strided copies along one axis: a join
// writes each input into its window of the output, a split copies each
// output out of its window of the input with a DML_SLICE1. Every output
// cell is linked to the input cell it comes from.
package join

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/i18n"
)

// Kind is the join and split explorer.
type Kind struct{}

var (
	_ explorer.Kind   = Kind{}
	_ explorer.Listed = Kind{}
)

// Name is the explorer's page in the protocol.
func (Kind) Name() string { return "joinsplit" }

// Listing is the explorer's entry in the operators index.
func (Kind) Listing(ctx context.Context) (title, summary string) {
	return i18n.T(ctx, "joinsplit.title"), i18n.T(ctx, "joinsplit.summary")
}

// Routes are the explorer's addresses.
func (Kind) Routes() explorer.Routes {
	return explorer.Routes{Page: "/joinsplit", Embed: "/embed/joinsplit", SVG: "/api/v1/joinsplit.svg", File: "stridescope-joinsplit.svg", EmbedHeight: 900}
}

// MaxQuery is the longest query of a state.
func (Kind) MaxQuery() int { return MaxQueryLen }

// Canonical is the canonical query of a state as typed: a state with
// errors carries its last valid one, if any.
func (Kind) Canonical(q url.Values) string {
	typed, shown, _ := Resolve(q)
	if typed.Valid() {
		return StateOf(typed).CanonicalQuery(false)
	}
	st := typed.State
	st.Last = ""
	if shown.Valid() {
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
				m.Answer = json.RawMessage(answer)
			}
			return explorer.Framed(at.Frame,
				func() templ.Component { return PageView(m) },
				func() templ.Component { return EmbedPage(m) },
				func() templ.Component { return Widget(m) })
		},
	}, nil
}

// API is POST /api/v1/join and POST /api/v1/split.
func (Kind) API() []explorer.Endpoint {
	return []explorer.Endpoint{
		{Path: "/api/v1/join", New: func() any { return new(JoinRequest) }, Serve: serveJoin},
		{Path: "/api/v1/split", New: func() any { return new(SplitRequest) }, Serve: serveSplit},
	}
}

func serveJoin(ctx context.Context, req any) (any, error) {
	j, inv := req.(*JoinRequest).Join()
	if inv != nil {
		return nil, inv
	}
	if err := budget.Take(ctx, JoinAPICost(j.Output.LogicalElementCount(), len(j.Inputs))); err != nil {
		return nil, err
	}
	resp := NewJoinResponse(j)
	resp.Warnings = i18n.LocaleOf(ctx).Violations(resp.Warnings)
	return resp, nil
}

func serveSplit(ctx context.Context, req any) (any, error) {
	s, inv := req.(*SplitRequest).Split()
	if inv != nil {
		return nil, inv
	}
	if err := budget.Take(ctx, SplitAPICost(len(s.Outputs))); err != nil {
		return nil, err
	}
	resp := NewSplitResponse(s)
	resp.Warnings = i18n.LocaleOf(ctx).Violations(resp.Warnings)
	return resp, nil
}
