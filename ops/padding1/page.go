package padding1

import (
	"context"
	"net/url"
	"strconv"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// PageModel is the model of the padding explorer's page (/padding).
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
	// Step is the step-through's step the URL's t= asks for (steps.go).
	Step *views.CopyStep
	views.Mount
}

// FormModel is the state of the inputs, as typed, with their errors.
type FormModel struct {
	DataType  string
	DataTypes []string
	Level     string
	Levels    []string
	Mode      string
	Modes     []string
	Value     string
	Values    string
	Rank      int
	Dims      []DimRow // views.MaxRank rows; the first Rank are Active (and rendered)
	Errors    map[string][]string
	Notes     map[string][]string
}

// DimRow is one dimension's inputs.
type DimRow struct {
	Index                    int
	Label                    string
	Size, Stride, Start, End string
	Active                   bool
}

// template is the form and row a views.DimTemplate is rendered from:
// row 0, empty, named views.DimTemplateLabel, without the form's errors.
func (f FormModel) template() (FormModel, DimRow) {
	f.Errors, f.Notes = nil, nil
	return f, DimRow{Label: views.DimTemplateLabel}
}

// ErrorsFor returns the errors of one field.
func (f FormModel) ErrorsFor(field string) []string { return f.Errors[field] }

// NotesFor returns the notes of one field.
func (f FormModel) NotesFor(field string) []string { return f.Notes[field] }

// PageOf builds the page for a query: the form as typed, the picture of
// its padding or of the last valid one.
func PageOf(ctx context.Context, q url.Values) (PageModel, error) {
	typed, shown, stale := Resolve(q)
	m := PageModel{Form: FormIn(ctx, typed), Presets: PresetLinks(typed.State, typed.P != nil), Stale: picture.StaleIn(ctx, stale)}
	if shown.P == nil {
		m.Picture = emptyPicture(ctx)
		return m, nil
	}
	if err := budget.Take(ctx, Cost(shown.P, false)); err != nil {
		return PageModel{}, err
	}
	m.LastValid = StateOf(shown).CanonicalQuery(false)
	m.Picture, _ = NewPicture(ctx, shown)
	m.Drawn = true
	m.Step = pageStep(ctx, q, shown.P, &m.Picture)
	if typed.P != nil {
		m.Form = FormIn(ctx, Validated{State: StateOf(typed), P: typed.P, Values: typed.Values, Notes: typed.Notes})
	}
	return m, nil
}

// FormIn is the form as typed, with the errors and notes of each field
// in ctx's locale.
func FormIn(ctx context.Context, v Validated) FormModel {
	st := v.State
	f := FormModel{
		Level: st.FL, Mode: st.Mode, Value: st.Value, Values: st.Values,
		Rank:   min(max(len(st.Sizes), 1), views.MaxRank),
		Errors: picture.ViolationMap(picture.Worded(ctx, v.Errors, len(st.Sizes))),
		Notes:  picture.ViolationMap(picture.Localised(ctx, v.Notes)),
	}
	f.DataTypes, f.DataType = picture.DataTypeChoices(st.DT)
	for _, m := range core.PaddingModes() {
		f.Modes = append(f.Modes, m.String())
	}
	for _, l := range core.FeatureLevels {
		if l.AtLeast(core.FeatureLevel{Major: 5}) {
			f.Levels = append(f.Levels, l.String())
		}
	}
	labels := core.DimensionLabels(f.Rank)
	at := func(xs []string, i int) string {
		if i < len(xs) {
			return xs[i]
		}
		return ""
	}
	f.Dims = make([]DimRow, views.MaxRank)
	for i := range f.Dims {
		d := DimRow{Index: i, Active: i < len(st.Sizes), Size: at(st.Sizes, i), Stride: at(st.Strides, i), Start: at(st.Start, i), End: at(st.End, i)}
		if i < f.Rank {
			d.Label = labels[i]
		}
		f.Dims[i] = d
	}
	if len(st.Sizes) == 0 {
		f.Dims[0].Active = true
	}
	return f
}

func itoa(i int) string { return strconv.Itoa(i) }
