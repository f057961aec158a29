package join

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// PageModel is the model of the join and split explorer's page (/joinsplit).
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
	// Answer, when set, is the answer to the picture's state, embedded
	// so that the page links its cells at once.
	Answer any
	// Step is the step-through's step the URL's t= asks for (steps.go).
	Step *views.CopyStep
	views.Mount
}

// FormModel is the state of the inputs, as typed, with their errors.
type FormModel struct {
	Op        string
	DataType  string
	DataTypes []string
	Axis      string
	Count     int
	Tensors   []TensorForm
	Outs      string
	// FL is the feature level chosen ("": the newest); Levels the
	// choices.
	FL     string
	Levels []string
	// Errors are each box's: a tensor's sizes box holds the errors of
	// every one of its sizes (inputs[1].sizes[3] is in inputs[1].sizes).
	Errors map[string][]string
}

// TensorForm is one tensor's boxes.
type TensorForm struct {
	Index          int
	Label          string // the legend: InputTensors[1] (b)
	Sizes, Strides string
	// SizesField and StridesField are the request's names of the boxes:
	// inputs[1].sizes, inputSizes.
	SizesField, StridesField string
}

// ErrorsFor returns the errors of one box.
func (f FormModel) ErrorsFor(field string) []string { return f.Errors[field] }

// Counts are the choices of a join's number of inputs.
func (f FormModel) Counts() []int {
	var out []int
	for k := MinPageTensors; k <= MaxPageTensors; k++ {
		out = append(out, k)
	}
	return out
}

// PageOf builds the page for a query.
func PageOf(ctx context.Context, q url.Values) (PageModel, error) {
	typed, shown, stale := Resolve(q)
	m := PageModel{Form: FormIn(ctx, typed), Presets: PresetLinks(typed.State, typed.Valid()), Stale: picture.StaleIn(ctx, stale)}
	if !shown.Valid() {
		return m, nil
	}
	if err := budget.Take(ctx, Cost(shown, false)); err != nil {
		return PageModel{}, err
	}
	m.LastValid = StateOf(shown).CanonicalQuery(false)
	m.Picture = NewPicture(ctx, shown)
	m.Drawn = true
	m.Step = pageStep(q, shown, &m.Picture)
	if typed.Valid() {
		m.Form = FormIn(ctx, Validated{State: StateOf(typed), Join: typed.Join, Split: typed.Split, Warnings: typed.Warnings})
	}
	return m, nil
}

// FormIn is the form as typed, with the errors of each box in ctx's
// locale.
func FormIn(ctx context.Context, v Validated) FormModel {
	st := v.State
	f := FormModel{Op: st.Op, Axis: st.Axis, Outs: st.Outs, Count: len(st.Sizes), FL: st.FL}
	for _, l := range core.FeatureLevels {
		f.Levels = append(f.Levels, l.String())
	}
	f.DataTypes, f.DataType = picture.DataTypeChoices(st.DT)
	for k := range st.Sizes {
		t := TensorForm{Index: k, Sizes: st.Sizes[k], Strides: st.Strides[k]}
		if st.Op == OpSplit {
			t.Label, t.SizesField, t.StridesField = "InputTensor (x)", "inputSizes", "inputStrides"
		} else {
			t.Label = fmt.Sprintf("InputTensors[%d] (%s)", k, tensorName(k))
			t.SizesField, t.StridesField = fmt.Sprintf("inputs[%d].sizes", k), fmt.Sprintf("inputs[%d].strides", k)
		}
		f.Tensors = append(f.Tensors, t)
	}
	f.Errors = map[string][]string{}
	for _, e := range picture.Localised(ctx, v.Errors) {
		box := boxOf(f, e.Field)
		f.Errors[box] = append(f.Errors[box], e.Message)
	}
	return f
}

// boxOf is the form's box that shows a field's errors: the field
// itself, or the list box that holds it (inputs[1].sizes[3] is in
// inputs[1].sizes), or "form" when no box holds it.
func boxOf(f FormModel, field string) string {
	boxes := []string{"dataType", "axis", "op", "n", "preset", "outputSizes", "featureLevel"}
	for _, t := range f.Tensors {
		boxes = append(boxes, t.SizesField, t.StridesField)
	}
	for _, b := range boxes {
		if field == b || strings.HasPrefix(field, b+"[") {
			return b
		}
	}
	if strings.HasPrefix(field, "inputs") || strings.HasPrefix(field, "outputs") {
		return "tensors"
	}
	return "form"
}

func itoa(i int) string { return strconv.Itoa(i) }

// opLabel is an operator's name in the picker.
func opLabel(op string) string {
	if op == OpSplit {
		return "DML_SPLIT"
	}
	return "DML_JOIN"
}

// Ops are the picker's operators.
func Ops() []string { return []string{OpJoin, OpSplit} }
