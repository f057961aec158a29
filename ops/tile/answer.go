package tile

import (
	"context"
	"net/url"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/picture"
)

// Result answers an edit of the tile explorer: as the padding
// explorer's (docs/protocol.md), with its own form.
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

// Form is the state of the inputs, for the page to refill its form.
type Form struct {
	DT        string   `json:"dt"`
	FL        string   `json:"fl"`
	Values    string   `json:"values"`
	Sizes     []string `json:"sizes"`
	Strides   []string `json:"strides"`
	Repeats   []string `json:"repeats"`
	DimLabels []string `json:"dimLabels"`
}

// HTML is the fragments the page swaps in.
type HTML struct {
	Dims    string             `json:"dims"`
	Picture string             `json:"picture,omitempty"`
	Keys    explorer.Fragments `json:"keys"`
}

func newForm(f FormModel) Form {
	m := Form{DT: f.DataType, FL: f.Level, Values: f.Values, Sizes: []string{}, Strides: []string{}, Repeats: []string{}, DimLabels: []string{}}
	for _, d := range f.Dims {
		if !d.Active {
			break
		}
		m.Sizes, m.Strides, m.Repeats = append(m.Sizes, d.Size), append(m.Strides, d.Stride), append(m.Repeats, d.Repeat)
		m.DimLabels = append(m.DimLabels, d.Label)
	}
	return m
}

// Answer answers an edit; no frames: the grids are in the HTML or not
// drawn.
func (Kind) Answer(ctx context.Context, q url.Values, opt explorer.AnswerOptions) (explorer.Answer, error) {
	a := explorer.Answer{Release: func() {}}
	st, qvs := StateFromQuery(q)
	v := Validate(st, qvs)
	res := &Result{Head: explorer.ResultHead("tile"), OK: v.T != nil}
	a.Result = res
	shown := v
	if v.T == nil {
		if lv, ok := LastValid(st); ok {
			shown = lv
		}
	}
	var keys explorer.Fragments
	if opt.HTML {
		keys = explorer.Fragments{}
		res.HTML = &HTML{Keys: keys}
	}
	if shown.T != nil {
		release, err := opt.Take(ctx, Cost(shown.T, true))
		if err != nil {
			return a, err
		}
		a.Release = release
		query := StateOf(shown).CanonicalQuery(false)
		pic, meta := NewPicture(ctx, shown)
		if res.OK {
			res.Query = query
			v = Validated{State: StateOf(v), T: v.T, Values: v.Values}
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
	res.Errors = picture.NonNil(picture.Worded(ctx, v.Errors, len(v.State.Sizes)))
	res.Warnings = []core.Violation{}
	if v.T != nil {
		res.Warnings = picture.NonNil(picture.Localised(ctx, v.T.Input.Warnings))
	}
	f := FormIn(ctx, v)
	res.Form = newForm(f)
	if opt.HTML {
		res.HTML.Dims = keys.Render(ctx, "dims", DimsView(f))
	}
	a.Embeddable = res.OK
	return a, nil
}
