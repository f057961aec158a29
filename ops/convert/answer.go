package convert

import (
	"context"
	"net/url"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/picture"
)

// Result answers an edit of the conversion explorer (docs/protocol.md,
// "The conversion explorer"). When the state breaks a rule, ok is false
// and the page shows each error at its field, keeping the last valid
// picture (whose query is last).
type Result struct {
	explorer.Head
	OK       bool             `json:"ok"`
	Query    string           `json:"query"`
	Last     string           `json:"last,omitempty"`
	Form     Form             `json:"form"`
	Errors   []core.Violation `json:"errors"`
	Warnings []core.Violation `json:"warnings"`
	Meta     *Meta            `json:"meta,omitempty"`
	HTML     *HTML            `json:"html,omitempty"`
	Alt      string           `json:"alt,omitempty"`
	NoSVG    string           `json:"noSVG,omitempty"`
}

// Form is the state of the inputs, for the page to refill its form
// after an example, a rank or a mode change.
type Form struct {
	DT         string   `json:"dt"`
	Sizes      []string `json:"sizes"`
	InStrides  []string `json:"istrides"`
	OutStrides []string `json:"ostrides"`
	IMode      string   `json:"imode"`
	OMode      string   `json:"omode"`
	ITotal     string   `json:"itotal"`
	IAlign     string   `json:"ialign"`
	OTotal     string   `json:"ototal"`
	OAlign     string   `json:"oalign"`
	Scale      string   `json:"scale"`
	Bias       string   `json:"bias"`
	DimLabels  []string `json:"dimLabels"`
}

// HTML is the fragments the page swaps in: the form's rows and the
// whole picture.
type HTML struct {
	Dims    string             `json:"dims"`
	Picture string             `json:"picture,omitempty"`
	Keys    explorer.Fragments `json:"keys"`
}

func newForm(f FormModel) Form {
	m := Form{DT: f.DataType, IMode: f.In.Mode, OMode: f.Out.Mode, ITotal: f.In.Total, IAlign: f.In.Align,
		OTotal: f.Out.Total, OAlign: f.Out.Align, Scale: f.Scale, Bias: f.Bias,
		Sizes: []string{}, InStrides: []string{}, OutStrides: []string{}, DimLabels: []string{}}
	for _, d := range f.Dims {
		if !d.Active {
			break
		}
		m.Sizes, m.InStrides, m.OutStrides = append(m.Sizes, d.Size), append(m.InStrides, d.InStride), append(m.OutStrides, d.OutStride)
		m.DimLabels = append(m.DimLabels, d.Label)
	}
	return m
}

// Answer answers an edit: decode the query, validate with core, describe
// with compute, render the fragments. A view in the HTML is whole; a
// canvas is drawn by the page from the meta alone (the sizes and both
// sides' strides give every offset), so there are no binary frames and
// every valid answer can be embedded in its page.
func (Kind) Answer(ctx context.Context, q url.Values, opt explorer.AnswerOptions) (explorer.Answer, error) {
	a := explorer.Answer{Release: func() {}}
	st, qvs := StateFromQuery(q)
	v := Validate(st, qvs)
	res := &Result{Head: explorer.ResultHead("convert"), OK: v.ID != nil}
	a.Result = res
	shown := v
	if v.ID == nil {
		if lv, ok := LastValid(st); ok {
			shown = lv
		}
	}
	var keys explorer.Fragments
	if opt.HTML {
		keys = explorer.Fragments{}
		res.HTML = &HTML{Keys: keys}
	}
	if shown.ID != nil {
		release, err := opt.Take(ctx, Cost(shown.ID, true))
		if err != nil {
			return a, err
		}
		a.Release = release
		resp, err := describe(ctx, shown.ID, domDrawn(shown.ID))
		if err != nil {
			release()
			return explorer.Answer{}, err
		}
		query := StateOf(shown).CanonicalQuery(false)
		pic, meta := NewPicture(ctx, shown.ID, resp, query)
		if res.OK {
			res.Query = query
			v = Validated{State: StateOf(v), ID: v.ID, Warnings: v.Warnings}
		} else {
			res.Last = query
		}
		res.Meta, res.Alt = &meta, pic.Alt
		if opt.HTML {
			res.HTML.Picture = keys.Render(ctx, "picture", PictureFragment(pic))
		}
		a.Drawn = true
	}
	if !res.OK {
		res.Query = v.State.CanonicalQuery(false)
	}
	res.Errors = picture.NonNil(picture.Worded(ctx, v.Errors, len(v.State.Sizes)))
	res.Warnings = picture.NonNil(picture.Localised(ctx, v.Warnings))
	f := FormIn(ctx, v)
	res.Form = newForm(f)
	if opt.HTML {
		res.HTML.Dims = keys.Render(ctx, "dims", DimsView(f))
	}
	a.Embeddable = res.OK
	return a, nil
}
