package depthspace

import (
	"context"
	"net/url"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/picture"
)

// Result answers an edit of the explorer (docs/protocol.md, "The
// depth-space explorer"). When the state breaks a rule, ok is false and
// the page shows each error at its field, keeping the last valid picture
// (whose query is last).
type Result struct {
	explorer.Head
	OK       bool             `json:"ok"`
	Query    string           `json:"query"`
	Last     string           `json:"last,omitempty"`
	Form     Form             `json:"form"`
	Errors   []core.Violation `json:"errors"`
	Warnings []core.Violation `json:"warnings"`
	Meta     *Meta            `json:"meta,omitempty"`
	// Steps are the step-through's numbers (steps.go).
	Steps *Steps `json:"steps,omitempty"`
	HTML  *HTML  `json:"html,omitempty"`
	Alt   string `json:"alt,omitempty"`
}

// Form is the state of the inputs, for the page to refill its form
// after an example or a mode change.
type Form struct {
	Op       string   `json:"op"`
	DT       string   `json:"dt"`
	IMode    string   `json:"imode"`
	Sizes    []string `json:"sizes"`
	IStrides []string `json:"istrides"`
	Block    string   `json:"block"`
	Vals     string   `json:"vals"`
}

// HTML is the picture's fragment the page swaps in.
type HTML struct {
	Picture string             `json:"picture,omitempty"`
	Keys    explorer.Fragments `json:"keys"`
}

func newForm(f FormModel) Form {
	m := Form{Op: f.Op, DT: f.DataType, IMode: f.Mode, Block: f.Block, Vals: f.Vals, Sizes: []string{}, IStrides: []string{}}
	for _, d := range f.Dims {
		m.Sizes, m.IStrides = append(m.Sizes, d.Size), append(m.IStrides, d.Stride)
	}
	return m
}

// Answer answers an edit: decode the query, validate with core, draw
// both orders, render the fragment. Every view is in the HTML or not
// drawn, so there are no binary frames and every valid answer can be
// embedded in its page.
func (Kind) Answer(ctx context.Context, q url.Values, opt explorer.AnswerOptions) (explorer.Answer, error) {
	a := explorer.Answer{Release: func() {}}
	st, qvs := StateFromQuery(q)
	v := Validate(st, qvs)
	res := &Result{Head: explorer.ResultHead("depthspace"), OK: v.OK()}
	a.Result = res
	shown := v
	if !v.OK() {
		if lv, ok := LastValid(st); ok {
			shown = lv
		}
	}
	var keys explorer.Fragments
	if opt.HTML {
		keys = explorer.Fragments{}
		res.HTML = &HTML{Keys: keys}
	}
	if shown.OK() {
		release, err := opt.Take(ctx, Cost(shown.DCR, true))
		if err != nil {
			return a, err
		}
		a.Release = release
		query := StateOf(shown).CanonicalQuery(false)
		pic, meta := NewPicture(ctx, shown)
		if res.OK {
			res.Query = query
			v = Validated{State: StateOf(v), DCR: v.DCR, CRD: v.CRD, Vals: v.Vals, Warnings: v.Warnings}
		} else {
			res.Last = query
		}
		res.Meta, res.Alt = &meta, pic.Alt
		res.Steps = stepsOf(shown)
		if opt.HTML {
			res.HTML.Picture = keys.Render(ctx, "picture", PictureFragment(pic))
		}
		a.Drawn = true
	}
	if !res.OK {
		res.Query = v.State.CanonicalQuery(false)
	}
	res.Errors = picture.NonNil(picture.Worded(ctx, v.Errors, 4))
	res.Warnings = picture.NonNil(picture.Localised(ctx, v.Warnings))
	res.Form = newForm(FormIn(ctx, v))
	a.Embeddable = res.OK
	return a, nil
}
