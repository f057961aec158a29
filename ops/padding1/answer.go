package padding1

import (
	"context"
	"net/url"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/picture"
)

// Result answers an edit of the padding explorer (docs/protocol.md, "The
// padding explorer"). When the state breaks a rule, ok is false and the
// page shows each error at its field, keeping the last valid picture
// (whose query is last).
type Result struct {
	explorer.Head
	OK     bool             `json:"ok"`
	Query  string           `json:"query"`
	Last   string           `json:"last,omitempty"`
	Form   Form             `json:"form"`
	Errors []core.Violation `json:"errors"`
	// Notes are where other runtimes differ; the page shows them at
	// their fields as warnings.
	Warnings []core.Violation `json:"warnings"`
	Meta     *Meta            `json:"meta,omitempty"`
	// Steps are the step-through's numbers (steps.go).
	Steps *Steps `json:"steps,omitempty"`
	HTML  *HTML  `json:"html,omitempty"`
	Alt   string `json:"alt,omitempty"`
}

// Form is the state of the inputs, for the page to refill its form
// after an example or a rank change.
type Form struct {
	DT        string   `json:"dt"`
	FL        string   `json:"fl"`
	Mode      string   `json:"mode"`
	Value     string   `json:"value"`
	Values    string   `json:"values"`
	Sizes     []string `json:"sizes"`
	Strides   []string `json:"strides"`
	Start     []string `json:"start"`
	End       []string `json:"end"`
	DimLabels []string `json:"dimLabels"`
}

// HTML is the fragments the page swaps in: the form's rows and the
// whole picture.
type HTML struct {
	Dims    string             `json:"dims"`
	Picture string             `json:"picture,omitempty"`
	Keys    explorer.Fragments `json:"keys"`
}

func newForm(f FormModel) Form {
	m := Form{DT: f.DataType, FL: f.Level, Mode: f.Mode, Value: f.Value, Values: f.Values,
		Sizes: []string{}, Strides: []string{}, Start: []string{}, End: []string{}, DimLabels: []string{}}
	for _, d := range f.Dims {
		if !d.Active {
			break
		}
		m.Sizes, m.Strides = append(m.Sizes, d.Size), append(m.Strides, d.Stride)
		m.Start, m.End = append(m.Start, d.Start), append(m.End, d.End)
		m.DimLabels = append(m.DimLabels, d.Label)
	}
	return m
}

// Answer answers an edit: decode the query, validate with core, draw,
// render the fragments. The grids are in the HTML or not drawn at all,
// so there are no binary frames and every valid answer can be embedded
// in its page.
func (Kind) Answer(ctx context.Context, q url.Values, opt explorer.AnswerOptions) (explorer.Answer, error) {
	a := explorer.Answer{Release: func() {}}
	st, qvs := StateFromQuery(q)
	v := Validate(st, qvs)
	res := &Result{Head: explorer.ResultHead("padding"), OK: v.P != nil}
	a.Result = res
	shown := v
	if v.P == nil {
		if lv, ok := LastValid(st); ok {
			shown = lv
		}
	}
	var keys explorer.Fragments
	if opt.HTML {
		keys = explorer.Fragments{}
		res.HTML = &HTML{Keys: keys}
	}
	if shown.P != nil {
		release, err := opt.Take(ctx, Cost(shown.P, true))
		if err != nil {
			return a, err
		}
		a.Release = release
		query := StateOf(shown).CanonicalQuery(false)
		pic, meta := NewPicture(ctx, shown)
		if res.OK {
			res.Query = query
			v = Validated{State: StateOf(v), P: v.P, Values: v.Values, Notes: v.Notes}
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
	res.Warnings = picture.NonNil(picture.Localised(ctx, v.Notes))
	f := FormIn(ctx, v)
	res.Form = newForm(f)
	if opt.HTML {
		res.HTML.Dims = keys.Render(ctx, "dims", DimsView(f))
	}
	a.Embeddable = res.OK
	return a, nil
}
