package join

import (
	"encoding/base64"
	"fmt"
	"regexp"
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
)

// MaxTensors bounds the inputs of a join and the outputs of a split a
// request may list: DirectML's counts are UINTs, but each tensor is
// judged and described, and a page draws at most 8.
const MaxTensors = 64

// Tensor is one tensor of a request: its sizes, and its strides (absent:
// packed).
type Tensor struct {
	Sizes   []int64 `json:"sizes"`
	Strides []int64 `json:"strides"`
}

// JoinRequest is the body of POST /api/v1/join: the inputs of one data
// type, joined along axis into a packed output.
type JoinRequest struct {
	DataType string   `json:"dataType"`
	Inputs   []Tensor `json:"inputs"`
	Axis     *int64   `json:"axis"`
	// FeatureLevel nil (absent) means the newest.
	FeatureLevel *string `json:"featureLevel"`
}

// SplitRequest is the body of POST /api/v1/split: one input cut along
// axis into packed outputs of the given sizes along the axis.
type SplitRequest struct {
	DataType     string  `json:"dataType"`
	InputSizes   []int64 `json:"inputSizes"`
	InputStrides []int64 `json:"inputStrides"`
	Axis         *int64  `json:"axis"`
	// OutputSizes are the outputs' sizes along the axis, one an output.
	OutputSizes  []int64 `json:"outputSizes"`
	FeatureLevel *string `json:"featureLevel"`
}

// Source is where one output element of a join comes from.
type Source struct {
	Input      int     `json:"input"`
	Coordinate []int64 `json:"coordinate"`
}

// InputWindow is where one input of a join is written: the output's
// window it fills (offsets and sizes per dimension; only the axis's
// offset is not 0), starting at Start along the axis.
type InputWindow struct {
	Start               int64   `json:"start"`
	Size                int64   `json:"size"`
	OutputWindowOffsets []int64 `json:"outputWindowOffsets"`
	OutputWindowSizes   []int64 `json:"outputWindowSizes"`
}

// JoinResponse is the answer of POST /api/v1/join.
type JoinResponse struct {
	DataType           string        `json:"dataType"`
	Axis               int           `json:"axis"`
	FeatureLevel       string        `json:"featureLevel"` // the oldest that runs the join
	OutputSizes        []int64       `json:"outputSizes"`
	OutputElementCount int64         `json:"outputElementCount"`
	Inputs             []InputWindow `json:"inputs"`
	// Sources lists every output element's in row-major order, up to
	// picture.MaxListedElements elements (absent past that).
	Sources  []Source         `json:"sources,omitempty"`
	NumPy    string           `json:"numpy"`
	CPP      string           `json:"cpp"`
	ONNX     *ONNX            `json:"onnx,omitempty"`
	Warnings []core.Violation `json:"warnings"`
}

// ONNX is the operator as an ONNX node (Concat for a join, Split for a
// split, opset 13) and its one-node model file in base64: its inputs
// x0, x1... (x) and outputs y (y0, y1...) are the tensors' logical
// elements, dense and row-major.
type ONNX struct {
	Op    string  `json:"op"`
	Axis  int     `json:"axis"`
	Split []int64 `json:"split,omitempty"`
	Opset int     `json:"opset"`
	Model string  `json:"model"`
}

// OutputWindow is one output of a split: its sizes, and the DML_SLICE1
// that copies it from the input (window strides all 1), starting at
// Start along the axis.
type OutputWindow struct {
	Start              int64   `json:"start"`
	Size               int64   `json:"size"`
	OutputSizes        []int64 `json:"outputSizes"`
	InputWindowOffsets []int64 `json:"inputWindowOffsets"`
	InputWindowSizes   []int64 `json:"inputWindowSizes"`
	InputWindowStrides []int64 `json:"inputWindowStrides"`
}

// SplitResponse is the answer of POST /api/v1/split.
type SplitResponse struct {
	DataType     string           `json:"dataType"`
	Axis         int              `json:"axis"`
	FeatureLevel string           `json:"featureLevel"`
	InputSizes   []int64          `json:"inputSizes"`
	InputStrides []int64          `json:"inputStrides"`
	Outputs      []OutputWindow   `json:"outputs"`
	NumPy        string           `json:"numpy"`
	CPP          string           `json:"cpp"`
	ONNX         *ONNX            `json:"onnx,omitempty"`
	Warnings     []core.Violation `json:"warnings"`
}

// parseLevel reads the optional feature level.
func parseLevel(s *string) (core.FeatureLevel, []core.Violation) {
	if s == nil {
		return core.NewestFeatureLevel, nil
	}
	fl, err := core.ParseFeatureLevel(*s)
	if err != nil {
		return core.NewestFeatureLevel, []core.Violation{core.NewMsg("joinsplit.level.unknown", "{value:q} is not a DML_FEATURE_LEVEL: give one such as 4_1", core.Args{"value": *s}).At("featureLevel")}
	}
	return fl, nil
}

func axisOf(a *int64) (int64, []core.Violation) {
	if a == nil {
		return 0, []core.Violation{core.NewMsg("joinsplit.axis.required", "axis is missing: give the index of the dimension to join or split along", nil).At("axis")}
	}
	return *a, nil
}

func tooMany(field string, n int) []core.Violation {
	if n <= MaxTensors {
		return nil
	}
	return []core.Violation{core.NewMsg("joinsplit.count.max", "{field} lists {n} tensors: this site describes at most {max} at once", core.Args{"field": field, "n": n, "max": MaxTensors}).At(field)}
}

// Join validates a request and returns the core join, or every
// violation as a 422.
func (r JoinRequest) Join() (*core.Join, *picture.Invalid) {
	dt, vs := picture.ParseType("dataType", r.DataType, true)
	if dt == core.Unknown {
		dt = core.Float32 // the other rules still report, against a placeholder
	}
	fl, lvs := parseLevel(r.FeatureLevel)
	axis, avs := axisOf(r.Axis)
	vs = append(append(vs, lvs...), avs...)
	if more := tooMany("inputs", len(r.Inputs)); more != nil {
		return nil, picture.InvalidOf(append(vs, more...)...)
	}
	d := core.JoinDesc{Axis: axis, FeatureLevel: fl}
	for i, in := range r.Inputs {
		if in.Sizes == nil {
			vs = append(vs, core.NewMsg("api.required", "{field} is missing: give one entry for each dimension", core.Args{"field": fmt.Sprintf("inputs[%d].sizes", i)}).At(fmt.Sprintf("inputs[%d].sizes", i)))
		}
		d.Inputs = append(d.Inputs, core.TensorDesc{DataType: dt, Sizes: in.Sizes, Strides: in.Strides})
	}
	j, err := core.NewJoin(d)
	for _, v := range picture.CoreViolations(err) {
		if r.Axis == nil && v.Field == "axis" {
			continue // said missing above
		}
		vs = append(vs, v)
	}
	if len(vs) > 0 {
		return nil, picture.InvalidOf(vs...)
	}
	return j, nil
}

// outputField finds a split output's fields in core's report.
var outputField = regexp.MustCompile(`^outputs\[(\d+)\]\.(.*)$`)

// Split validates a request and returns the core split, or every
// violation as a 422. The outputs are packed and take the input's sizes
// but for the axis, so core's report on them is renamed: an output's
// size along the axis is outputSizes[k]; what it repeats of the input's
// sizes is said at the input.
func (r SplitRequest) Split() (*core.Split, *picture.Invalid) {
	dt, vs := picture.ParseType("dataType", r.DataType, true)
	if dt == core.Unknown {
		dt = core.Float32
	}
	fl, lvs := parseLevel(r.FeatureLevel)
	axis, avs := axisOf(r.Axis)
	vs = append(append(vs, lvs...), avs...)
	if more := tooMany("outputSizes", len(r.OutputSizes)); more != nil {
		return nil, picture.InvalidOf(append(vs, more...)...)
	}
	if r.InputSizes == nil {
		vs = append(vs, core.NewMsg("api.required", "{field} is missing: give one entry for each dimension", core.Args{"field": "inputSizes"}).At("inputSizes"))
	}
	if r.OutputSizes == nil {
		vs = append(vs, core.NewMsg("joinsplit.outputs.required", "outputSizes is missing: give each output's size along the axis", nil).At("outputSizes"))
	}
	in := core.TensorDesc{DataType: dt, Sizes: r.InputSizes, Strides: r.InputStrides}
	s, err := core.NewSplit(core.SplitDesc{Input: in, Outputs: core.SplitOutputs(dt, r.InputSizes, axis, r.OutputSizes), Axis: axis, FeatureLevel: fl})
	for _, v := range picture.CoreViolations(err) {
		switch m := outputField.FindStringSubmatch(v.Field); {
		case r.Axis == nil && v.Field == "axis":
		case v.Field == "outputs":
			if r.OutputSizes != nil {
				vs = append(vs, v.Renamed("outputSizes"))
			}
		case m != nil:
			if m[2] == fmt.Sprintf("sizes[%d]", axis) {
				vs = append(vs, v.Renamed("outputSizes["+m[1]+"]"))
			}
		default:
			if r.InputSizes != nil || !strings.HasPrefix(v.Field, "inputS") {
				vs = append(vs, v)
			}
		}
	}
	if len(vs) > 0 {
		return nil, picture.InvalidOf(vs...)
	}
	return s, nil
}

// NewJoinResponse describes j; the sources are listed up to
// picture.MaxListedElements output elements.
func NewJoinResponse(j *core.Join) JoinResponse {
	n := j.Output.LogicalElementCount()
	r := JoinResponse{DataType: j.Output.DataType.String(), Axis: j.Axis, FeatureLevel: j.MinFeatureLevel().String(),
		OutputSizes: j.Output.Sizes, OutputElementCount: n, NumPy: JoinNumPy(j), CPP: j.CPP(), Warnings: []core.Violation{}}
	for k, in := range j.Inputs {
		w := InputWindow{Start: j.Starts[k], Size: in.Sizes[j.Axis], OutputWindowOffsets: make([]int64, in.Rank()), OutputWindowSizes: in.Sizes}
		w.OutputWindowOffsets[j.Axis] = j.Starts[k]
		r.Inputs = append(r.Inputs, w)
		r.Warnings = append(r.Warnings, in.Warnings...)
	}
	r.ONNX = JoinONNX(j)
	if n <= picture.MaxListedElements {
		r.Sources = make([]Source, n)
		for i := range n {
			k, c := j.Source(i)
			r.Sources[i] = Source{Input: k, Coordinate: c}
		}
	}
	return r
}

// NewSplitResponse describes s: each output's DML_SLICE1 window.
func NewSplitResponse(s *core.Split) SplitResponse {
	r := SplitResponse{DataType: s.Input.DataType.String(), Axis: s.Axis, FeatureLevel: s.MinFeatureLevel().String(),
		InputSizes: s.Input.Sizes, InputStrides: s.Input.Strides, NumPy: SplitNumPy(s), CPP: s.CPP(), Warnings: picture.NonNil(s.Input.Warnings)}
	for k, o := range s.Outputs {
		d := s.Slice1Desc(k)
		r.Outputs = append(r.Outputs, OutputWindow{Start: s.Starts[k], Size: o.Sizes[s.Axis], OutputSizes: o.Sizes,
			InputWindowOffsets: d.WindowOffsets, InputWindowSizes: d.WindowSizes, InputWindowStrides: d.WindowStrides})
	}
	r.ONNX = SplitONNX(s)
	return r
}

// JoinONNX is the join's ONNX Concat.
func JoinONNX(j *core.Join) *ONNX {
	m, ok := j.ONNXModel()
	if !ok {
		return nil
	}
	return &ONNX{Op: "Concat", Axis: j.Axis, Opset: core.ONNXOpset, Model: base64.StdEncoding.EncodeToString(m)}
}

// SplitONNX is the split's ONNX Split.
func SplitONNX(s *core.Split) *ONNX {
	m, ok := s.ONNXModel()
	if !ok {
		return nil
	}
	split := make([]int64, len(s.Outputs))
	for k, o := range s.Outputs {
		split[k] = o.Sizes[s.Axis]
	}
	return &ONNX{Op: "Split", Axis: s.Axis, Split: split, Opset: core.ONNXOpset, Model: base64.StdEncoding.EncodeToString(m)}
}

// Text is the node as the page writes it: Concat(axis=3),
// Split(axis=2, split=[2, 1, 3]).
func (o *ONNX) Text() string {
	if o == nil {
		return ""
	}
	if o.Op == "Split" {
		parts := make([]string, len(o.Split))
		for i, v := range o.Split {
			parts[i] = fmt.Sprint(v)
		}
		return fmt.Sprintf("Split(axis=%d, split=[%s])", o.Axis, strings.Join(parts, ", "))
	}
	return fmt.Sprintf("Concat(axis=%d)", o.Axis)
}

// JoinNumPy is the join in NumPy: each input holding the values the
// page shows (1, 2, 3... numbered on from one input to the next, as the
// DML_JOIN page writes them), named a, b, c..., and np.concatenate.
func JoinNumPy(j *core.Join) string {
	var b strings.Builder
	dt := core.NumpyDType(j.Output.DataType)
	b.WriteString("import numpy as np\n")
	names := make([]string, len(j.Inputs))
	at := int64(1)
	for k, in := range j.Inputs {
		names[k] = tensorName(k)
		n := in.LogicalElementCount()
		fmt.Fprintf(&b, "%s = np.arange(%d, %d, dtype=np.%s).reshape(%s)  # InputTensors[%d]\n", names[k], at, at+n, dt, pyTuple(in.Sizes), k)
		at += n
	}
	fmt.Fprintf(&b, "y = np.concatenate([%s], axis=%d)  # OutputTensor, %s\n", strings.Join(names, ", "), j.Axis, pyTuple(j.Output.Sizes))
	return b.String()
}

// SplitNumPy is the split in NumPy: the input holding 1, 2, 3... and
// np.split at the running sums of the outputs' sizes along the axis.
func SplitNumPy(s *core.Split) string {
	var b strings.Builder
	b.WriteString("import numpy as np\n")
	n := s.Input.LogicalElementCount()
	fmt.Fprintf(&b, "x = np.arange(1, %d, dtype=np.%s).reshape(%s)  # InputTensor\n", n+1, core.NumpyDType(s.Input.DataType), pyTuple(s.Input.Sizes))
	cuts := make([]string, 0, len(s.Starts))
	for _, st := range s.Starts[1:] {
		cuts = append(cuts, fmt.Sprint(st))
	}
	outs := make([]string, len(s.Outputs))
	for k := range outs {
		outs[k] = fmt.Sprintf("y%d", k)
	}
	fmt.Fprintf(&b, "%s, = np.split(x, [%s], axis=%d)  # OutputTensors\n", strings.Join(outs, ", "), strings.Join(cuts, ", "), s.Axis)
	return b.String()
}

// pyTuple writes sizes as a Python tuple: (3,) for one.
func pyTuple(vs []int64) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = fmt.Sprint(v)
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// tensorName names input k of a join: a to z, then t26, t27...
func tensorName(k int) string {
	if k < 26 {
		return string(rune('a' + k))
	}
	return fmt.Sprintf("t%d", k)
}
