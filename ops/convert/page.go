package convert

import (
	"context"
	"net/url"
	"strconv"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// PageModel is the model of the conversion explorer's page (/convert).
type PageModel struct {
	Form    FormModel
	Presets []views.Preset
	// Picture is of the form's state when valid, else of the last valid
	// one; Stale then says so. Drawn is false when there is none.
	Picture PictureView
	Drawn   bool
	Stale   string
	// LastValid is the canonical query of the picture.
	LastValid string
	// Answer, when set, is the websocket's answer to the picture's state,
	// embedded so that the page links its cells at once.
	Answer any
	views.Mount
}

// FormModel is the state of the inputs, as typed, with their errors.
type FormModel struct {
	DataType  string
	DataTypes []string
	Rank      int
	Modes     []string
	Dims      []DimRow // views.MaxRank rows; the first Rank are Active (and rendered)
	In, Out   SideForm
	Scale     string
	Bias      string
	// Typed is the typed state's query when the rows cannot hold it (as
	// the layout explorer's).
	Typed    string
	Errors   map[string][]string
	Warnings map[string][]string
}

// SideForm is one side's own inputs.
type SideForm struct {
	Mode         string
	Total, Align string
}

// DimRow is one dimension's inputs: its size and each side's stride
// (shown, read-only, when the side's mode computes it).
type DimRow struct {
	Index                     int
	Label                     string
	Size, InStride, OutStride string
	Active                    bool
}

// template is the form and row a views.DimTemplate is rendered from:
// row 0, empty, named views.DimTemplateLabel, without the form's errors.
func (f FormModel) template() (FormModel, DimRow) {
	f.Errors, f.Warnings = nil, nil
	return f, DimRow{Label: views.DimTemplateLabel}
}

// ErrorsFor returns the errors of one field.
func (f FormModel) ErrorsFor(field string) []string { return f.Errors[field] }

// WarningsFor returns the warnings of one field.
func (f FormModel) WarningsFor(field string) []string { return f.Warnings[field] }

// PageOf builds the page for a query: the form as typed, the picture of
// its copy or of the last valid one.
func PageOf(ctx context.Context, q url.Values) (PageModel, error) {
	typed, shown, stale := Resolve(q)
	m := PageModel{Form: FormIn(ctx, typed), Presets: PresetLinks(typed.State, typed.ID != nil), Stale: picture.StaleIn(ctx, stale)}
	if shown.ID == nil {
		m.Picture = PictureView{
			Logical: views.Logical{Mode: views.ModeEmpty, Note: i18n.T(ctx, "empty.inputs")},
			Input:   views.Buffer{Mode: views.ModeEmpty, Note: i18n.T(ctx, "empty.buffer")},
			Output:  views.Buffer{Mode: views.ModeEmpty, Note: i18n.T(ctx, "empty.buffer")},
		}
		return m, nil
	}
	if err := budget.Take(ctx, Cost(shown.ID, false)); err != nil {
		return PageModel{}, err
	}
	resp, err := describe(ctx, shown.ID, domDrawn(shown.ID))
	if err != nil {
		return PageModel{}, err
	}
	m.LastValid = StateOf(shown).CanonicalQuery(false)
	m.Picture, _ = NewPicture(ctx, shown.ID, resp, m.LastValid)
	m.Drawn = true
	if typed.ID != nil {
		m.Form = FormIn(ctx, Validated{State: StateOf(typed), ID: typed.ID, Warnings: typed.Warnings})
	}
	return m, nil
}

// FormIn is the form as typed, with the errors of each field in ctx's
// locale.
func FormIn(ctx context.Context, v Validated) FormModel {
	st := v.State
	f := FormModel{
		Rank:     min(max(len(st.Sizes), 1), views.MaxRank),
		Modes:    Modes(),
		In:       SideForm{Mode: st.In.Mode, Total: st.In.Total, Align: st.In.Align},
		Out:      SideForm{Mode: st.Out.Mode, Total: st.Out.Total, Align: st.Out.Align},
		Scale:    st.Scale,
		Bias:     st.Bias,
		Errors:   picture.ViolationMap(picture.Worded(ctx, v.Errors, len(st.Sizes))),
		Warnings: picture.ViolationMap(picture.Localised(ctx, v.Warnings)),
	}
	f.DataTypes, f.DataType = picture.DataTypeChoices(st.DT)
	labels := core.DimensionLabels(f.Rank)
	strides := func(s Side, l *core.Layout) []string {
		switch {
		case s.Mode == ModeExplicit:
			return s.Strides
		case l != nil:
			return picture.FormatInts(l.Strides)
		}
		return nil
	}
	var inL, outL *core.Layout
	if v.ID != nil {
		inL, outL = v.ID.Input, v.ID.Output
	}
	ins, outs := strides(st.In, inL), strides(st.Out, outL)
	at := func(xs []string, i int) string {
		if i < len(xs) {
			return xs[i]
		}
		return ""
	}
	f.Dims = make([]DimRow, views.MaxRank)
	for i := range f.Dims {
		d := DimRow{Index: i, Active: i < len(st.Sizes), Size: at(st.Sizes, i), InStride: at(ins, i), OutStride: at(outs, i)}
		if i < f.Rank {
			d.Label = labels[i]
		}
		f.Dims[i] = d
	}
	if len(st.Sizes) == 0 {
		f.Dims[0].Active = true
	}
	if r := picture.BadRankOf(v.Errors); r != "" || picture.Overflows(len(st.Sizes), st.In.Strides, st.Out.Strides) {
		f.Typed = st.CanonicalQuery(false) + r
	}
	return f
}

// modeLabel is a side mode's label in the picker: its words for packed
// and explicit, a named layout as DirectML writes it.
func modeLabel(ctx context.Context, mode string) string {
	switch mode {
	case ModePacked:
		return i18n.T(ctx, "convert.mode.packed")
	case ModeExplicit:
		return i18n.T(ctx, "convert.mode.explicit")
	}
	return mode
}

func itoa(i int) string { return strconv.Itoa(i) }
