package depthspace

import (
	"context"
	"net/url"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// PageModel is the model of the explorer's page (/depthspace).
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
	// Answer, when set, is the websocket's answer to the picture's
	// state, embedded so that the page links its cells at once.
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
	Mode      string
	Modes     []string
	Dims      []DimRow // the four of NCHW
	Block     string
	Vals      string
	Errors    map[string][]string
	Warnings  map[string][]string
}

// DimRow is one dimension's inputs: its size and the input's stride
// (shown, read-only, when the mode computes it).
type DimRow struct {
	Index        int
	Label        string
	Size, Stride string
}

// ErrorsFor returns the errors of one field.
func (f FormModel) ErrorsFor(field string) []string { return f.Errors[field] }

// WarningsFor returns the warnings of one field.
func (f FormModel) WarningsFor(field string) []string { return f.Warnings[field] }

// PageOf builds the page for a query: the form as typed, the picture of
// its state or of the last valid one.
func PageOf(ctx context.Context, q url.Values) (PageModel, error) {
	typed, shown, stale := Resolve(q)
	m := PageModel{Form: FormIn(ctx, typed), Presets: PresetLinks(typed.State, typed.OK()), Stale: picture.StaleIn(ctx, stale)}
	if !shown.OK() {
		empty := views.Logical{Mode: views.ModeEmpty, Note: i18n.T(ctx, "empty.inputs")}
		m.Picture = PictureView{Input: empty, DCR: empty, CRD: empty}
		return m, nil
	}
	if err := budget.Take(ctx, Cost(shown.DCR, false)); err != nil {
		return PageModel{}, err
	}
	m.LastValid = StateOf(shown).CanonicalQuery(false)
	m.Picture, _ = NewPicture(ctx, shown)
	m.Drawn = true
	m.Step = pageStep(q, shown, &m.Picture)
	if typed.OK() {
		m.Form = FormIn(ctx, Validated{State: StateOf(typed), DCR: typed.DCR, Vals: typed.Vals, Warnings: typed.Warnings})
	}
	return m, nil
}

// FormIn is the form as typed, with the errors of each field in ctx's
// locale.
func FormIn(ctx context.Context, v Validated) FormModel {
	st := v.State
	f := FormModel{
		Op:       st.Op,
		Mode:     st.Mode,
		Modes:    Modes(),
		Block:    st.Block,
		Vals:     strings.Join(st.Vals, ", "),
		Errors:   picture.ViolationMap(picture.Worded(ctx, v.Errors, 4)),
		Warnings: picture.ViolationMap(picture.Localised(ctx, v.Warnings)),
	}
	f.DataTypes, f.DataType = picture.DataTypeChoices(st.DT)
	strides := st.Strides
	if st.Mode != ModeExplicit && v.DCR != nil {
		strides = picture.FormatInts(v.DCR.Input.Strides)
	}
	at := func(xs []string, i int) string {
		if i < len(xs) {
			return xs[i]
		}
		return ""
	}
	labels := core.DimensionLabels(4)
	f.Dims = make([]DimRow, 4)
	for i := range f.Dims {
		f.Dims[i] = DimRow{Index: i, Label: labels[i], Size: at(st.Sizes, i), Stride: at(strides, i)}
	}
	return f
}

// modeLabel is a mode's label in the picker: its words for packed and
// explicit, a named layout as DirectML writes it.
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

// orderName and orderShort name the i-th order drawn: DCR, then CRD.
func orderName(i int) string { return core.DepthSpaceOrders[i].String() }

func orderShort(i int) string {
	if core.DepthSpaceOrders[i] == core.ColumnRowDepth {
		return "CRD"
	}
	return "DCR"
}
