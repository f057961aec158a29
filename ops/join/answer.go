package join

import (
	"context"
	"net/url"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/picture"
)

// Result answers an edit of the join and split explorer
// (docs/protocol.md, "The join and split explorer"). When the state
// breaks a rule, ok is false and the page shows each error at its box,
// keeping the last valid picture (whose query is last).
type Result struct {
	explorer.Head
	OK       bool             `json:"ok"`
	Query    string           `json:"query"`
	Last     string           `json:"last,omitempty"`
	Errors   []core.Violation `json:"errors"`
	Warnings []core.Violation `json:"warnings"`
	Meta     *Meta            `json:"meta,omitempty"`
	// Steps are the step-through's numbers (steps.go).
	Steps *Steps `json:"steps,omitempty"`
	HTML  *HTML  `json:"html,omitempty"`
	Alt   string `json:"alt,omitempty"`
}

// Meta is what the picture drawn is: the edit client shows a picture
// once its answer has one (every cell's links are in the fragment).
type Meta struct {
	Op       string `json:"op"`
	Elements int64  `json:"elements"` // the output elements, as many as the input's
	Drawn    bool   `json:"drawn"`    // the grids are in the fragment
	// Canvas is what the page draws its canvases from, past the DOM's
	// limit (canvas.go).
	Canvas *CanvasMeta `json:"canvas,omitempty"`
}

// HTML is the fragments the page swaps in: the form's tensors (their
// count and the operator change them) and the whole picture.
type HTML struct {
	Tensors string             `json:"tensors"`
	Picture string             `json:"picture,omitempty"`
	Keys    explorer.Fragments `json:"keys"`
}

// Answer answers an edit: decode the query, validate with core, draw
// the grids, render the fragments. Every view is in the HTML, so there
// are no binary frames and every valid answer can be embedded in its
// page.
func (Kind) Answer(ctx context.Context, q url.Values, opt explorer.AnswerOptions) (explorer.Answer, error) {
	a := explorer.Answer{Release: func() {}}
	st, qvs := StateFromQuery(q)
	v := Validate(st, qvs)
	res := &Result{Head: explorer.ResultHead("joinsplit"), OK: v.Valid()}
	a.Result = res
	shown := v
	if !v.Valid() {
		if lv, ok := LastValid(st); ok {
			shown = lv
		}
	}
	var keys explorer.Fragments
	if opt.HTML {
		keys = explorer.Fragments{}
		res.HTML = &HTML{Keys: keys}
	}
	if shown.Valid() {
		release, err := opt.Take(ctx, Cost(shown, true))
		if err != nil {
			return a, err
		}
		a.Release = release
		query := StateOf(shown).CanonicalQuery(false)
		pic := NewPicture(ctx, shown)
		if res.OK {
			res.Query = query
			v = Validated{State: StateOf(v), Join: v.Join, Split: v.Split, Warnings: v.Warnings}
		} else {
			res.Last = query
		}
		res.Alt = pic.Alt
		res.Meta = &Meta{Op: shown.State.Op, Elements: elementCount(shown), Drawn: Drawn(shown), Canvas: canvasMeta(shown)}
		res.Steps = stepsOf(shown)
		if opt.HTML {
			res.HTML.Picture = keys.Render(ctx, "picture", PictureFragment(pic))
		}
		a.Drawn = true
	}
	if !res.OK {
		res.Query = v.State.CanonicalQuery(false)
	}
	f := FormIn(ctx, v)
	// Each error goes to the box that shows it (the page has one box a
	// list: inputs[1].sizes[3] is shown at inputs[1].sizes), its message
	// still naming its own field.
	res.Errors = picture.NonNil(picture.Localised(ctx, v.Errors))
	for i, e := range res.Errors {
		res.Errors[i].Field = boxOf(f, e.Field)
	}
	res.Warnings = picture.NonNil(picture.Localised(ctx, v.Warnings))
	for i, w := range res.Warnings {
		res.Warnings[i].Field = boxOf(f, w.Field)
	}
	if opt.HTML {
		res.HTML.Tensors = keys.Render(ctx, "tensors", TensorsView(f))
	}
	a.Embeddable = res.OK
	return a, nil
}
