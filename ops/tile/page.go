package tile

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

// PageModel is the model of the tile explorer's page (/tile).
type PageModel struct {
	Form      FormModel
	Presets   []views.Preset
	Picture   PictureView
	Drawn     bool
	Stale     string
	LastValid string
	Answer    any
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
	Values    string
	Rank      int
	Dims      []DimRow
	Errors    map[string][]string
}

// DimRow is one dimension's inputs.
type DimRow struct {
	Index                int
	Label                string
	Size, Stride, Repeat string
	Active               bool
}

// template is the form and row a views.DimTemplate is rendered from:
// row 0, empty, named views.DimTemplateLabel, without the form's errors.
func (f FormModel) template() (FormModel, DimRow) {
	f.Errors = nil
	return f, DimRow{Label: views.DimTemplateLabel}
}

// ErrorsFor returns the errors of one field.
func (f FormModel) ErrorsFor(field string) []string { return f.Errors[field] }

// PageOf builds the page for a query.
func PageOf(ctx context.Context, q url.Values) (PageModel, error) {
	typed, shown, stale := Resolve(q)
	m := PageModel{Form: FormIn(ctx, typed), Presets: PresetLinks(typed.State, typed.T != nil), Stale: picture.StaleIn(ctx, stale)}
	if shown.T == nil {
		m.Picture = PictureView{
			Input:  views.Logical{Mode: views.ModeEmpty, Note: i18n.T(ctx, "empty.inputs")},
			Output: views.Logical{Mode: views.ModeEmpty, Note: i18n.T(ctx, "empty.inputs")},
		}
		return m, nil
	}
	if err := budget.Take(ctx, Cost(shown.T, false)); err != nil {
		return PageModel{}, err
	}
	m.LastValid = StateOf(shown).CanonicalQuery(false)
	m.Picture, _ = NewPicture(ctx, shown)
	m.Drawn = true
	m.Step = pageStep(q, shown.T, &m.Picture)
	if typed.T != nil {
		m.Form = FormIn(ctx, Validated{State: StateOf(typed), T: typed.T, Values: typed.Values})
	}
	return m, nil
}

// FormIn is the form as typed, with the errors of each field in ctx's
// locale.
func FormIn(ctx context.Context, v Validated) FormModel {
	st := v.State
	f := FormModel{Level: st.FL, Values: st.Values, Rank: min(max(len(st.Sizes), 1), views.MaxRank),
		Errors: picture.ViolationMap(picture.Worded(ctx, v.Errors, len(st.Sizes)))}
	f.DataTypes, f.DataType = picture.DataTypeChoices(st.DT)
	for _, l := range core.FeatureLevels {
		f.Levels = append(f.Levels, l.String())
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
		d := DimRow{Index: i, Active: i < len(st.Sizes), Size: at(st.Sizes, i), Stride: at(st.Strides, i), Repeat: at(st.Repeats, i)}
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
