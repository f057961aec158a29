package slice1

import "github.com/stridescope/stridescope/views"

// PageModel is the model of the DML_SLICE1 explorer ("/slice").
type PageModel struct {
	Form    FormModel
	Presets []views.Preset
	// Dims is the per-dimension table, of the form as typed (so that it
	// says why a typed output size is not allowed).
	Dims Dims
	// Picture is of the form's slice when it is valid, otherwise of the
	// last valid one (or Example 1); Stale then says so.
	Picture   PictureView
	Stale     string
	LastValid string
	// Answer is as the layout explorer's (Explorer.Answer).
	Answer any
	// Mount is where the explorer is shown: the tour and the embed
	// submit the form to themselves.
	views.Mount
}

// FormModel is the state of the slice explorer's inputs, as typed, with
// the errors of each field (keyed by core's field names: dataType,
// inputSizes[1], inputWindowStrides[2], outputSizes[3], featureLevel,
// expression, values ...).
type FormModel struct {
	DataType      string
	DataTypes     []string
	Rank          int
	Packed        bool
	Total         string // TotalTensorSizeInBytes as typed, "" for the minimum
	Align         string // GuaranteedBaseOffsetAlignment as typed
	FeatureLevel  string
	FeatureLevels []string
	Dims          []DimRow // always views.MaxRank rows; the first Rank are Active
	NumPy         string
	Values        string
	T             string // the step-through position
	Typed         string // as views.Form.Typed
	Errors        map[string][]string
	Warnings      map[string][]string
	// Blamed are fields marked invalid for an error reported at another:
	// a window that runs out of the input is reported at its offset, and
	// its size is as much to blame.
	Blamed map[string]bool
}

// template is the form and row a views.DimTemplate is rendered from:
// row 0, empty, named views.DimTemplateLabel, without the form's errors.
func (f FormModel) template() (FormModel, DimRow) {
	f.Errors, f.Warnings, f.Blamed = nil, nil, nil
	return f, DimRow{Label: views.DimTemplateLabel}
}

// ErrorsFor returns the errors of one field.
func (f FormModel) ErrorsFor(field string) []string { return f.Errors[field] }

// WarningsFor returns the warnings of one field.
func (f FormModel) WarningsFor(field string) []string { return f.Warnings[field] }

// DimRow is one dimension's inputs: the input's size and stride, the
// window's offset, size and signed stride, and the output size.
type DimRow struct {
	Index               int
	Label               string
	Active              bool
	Size, Stride        string
	Off, Win, Step, Out string
	OutMax              string // MaxCopiedElements, the output size's placeholder
}

// invalid is aria-invalid for a field.
func (f FormModel) invalid(name string) string {
	return views.BoolAttr(len(f.Errors[name]) > 0 || f.Blamed[name])
}

// Dims is the per-dimension table.
type Dims struct {
	Rows []DimFact
	// E2 is the erratum note on MaxCopiedElements, shown when a stride is
	// negative (where the page's signed formula goes wrong).
	E2 string
}

// DimFact is one axis worked out.
type DimFact struct {
	Axis      int
	Label     string
	Window    string // "[0, 3] of 4"
	Stride    string
	CopyStart string // "3 = 0 + 4 − 1"
	MaxCopied string // "1 + (4 − 1) / |−2| = 2"
	Out       string
	Verdict   string // why the output size is or is not allowed
	OK        bool
}

// PictureView is everything drawn for one valid slice.
type PictureView struct {
	// MetaJSON is what the page's script links and steps by.
	MetaJSON  string
	Input     views.Logical
	Buffer    views.Buffer
	Output    views.Logical
	InputSub  string
	BufferSub string
	OutputSub string
	Steps     Steps
	Facts     []views.Fact
	// First lists the first output values when the output is too large
	// to draw; Notes say what the values are.
	First  []string
	Notes  []string
	Export Export
	// Title names the slice (Title), empty when there is none.
	Title string
	// Alt is the picture snippet's alt text (Alt).
	Alt string
	// NoSVG says why the slice has no standalone SVG picture, in the
	// page's language; empty when it has one.
	NoSVG string
}

// HasCanvas reports whether any of the picture's views is drawn on a
// canvas, which needs the canvases' module (static/slice-canvas.js) at
// once.
func (p PictureView) HasCanvas() bool {
	return p.Input.Mode == views.ModeCanvas || p.Output.Mode == views.ModeCanvas || p.Buffer.Mode == views.ModeCanvas
}

// Steps is the step-through: the DirectML page's pseudo-code and one
// step worked out with its numbers.
type Steps struct {
	Code  []CodeLine
	Total int64
	// Cur is the step shown, -1 before the first.
	Cur    int64
	Text   string // "Output[{0,0,1,0}] = Input[{0,0,3,1} + {1,1,-2,2} * {0,0,1,0}] = Input[{0,0,1,1}] = 6"
	Sub    string // the buffer offset read
	Note   string // an erratum of the page at this step
	Prev   string // hrefs for the page without JavaScript
	Next   string
	Header string // "step 5 of 9"
}

// CodeLine is one line of the pseudo-code.
type CodeLine struct {
	N      int
	Text   string
	Active bool
}

// Export is the same slice in C++, NumPy and ONNX.
type Export struct {
	CPP       string
	NumPy     string
	NumPyNote string // the axes NumPy drops afterwards
	ONNX      string
}

// Code is the DirectML page's pseudo-code, line by line.
var Code = []string{
	"CopyStart = InputWindowOffsets",
	"for dimension i in [0, DimensionCount - 1]:",
	"    if InputWindowStrides[i] < 0:",
	"        CopyStart[i] += InputWindowSizes[i] - 1 // start at the end of the window in this dimension",
	"",
	"OutputTensor[OutputCoordinates] = InputTensor[CopyStart + InputWindowStrides * OutputCoordinates]",
}

// describedBy joins the ids an input's aria-describedby names; its error
// slot first (the script reads it there).
func describedBy(err, hint string) string {
	if hint == "" {
		return err
	}
	return err + " " + hint
}
