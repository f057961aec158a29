package slice1

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
)

// Request is the body of POST /api/v1/slice1.
type Request struct {
	DataType       string `json:"dataType"`
	OutputDataType string `json:"outputDataType,omitempty"` // "": the input's
	// FeatureLevel nil (absent or null) means the newest.
	FeatureLevel *string `json:"featureLevel"`
	InputSizes   []int64 `json:"inputSizes"`
	InputStrides []int64 `json:"inputStrides"`
	InputBuffer
	Window
}

// InputBuffer is the optional buffer of a slice's input tensor, named
// as core reports its violations.
type InputBuffer struct {
	// InputTotalTensorSizeInBytes nil means the minimum
	// (DMLCalcBufferTensorSize).
	InputTotalTensorSizeInBytes *int64 `json:"inputTotalTensorSizeInBytes"`
	// InputGuaranteedBaseOffsetAlignment 0 means no guarantee.
	InputGuaranteedBaseOffsetAlignment int64 `json:"inputGuaranteedBaseOffsetAlignment"`
}

// Response is the answer of POST /api/v1/slice1.
type Response struct {
	FeatureLevel       string           `json:"featureLevel"`
	MaxCopiedElements  []int64          `json:"maxCopiedElements"`
	CopyStart          []int64          `json:"copyStart"`
	OutputSizes        []int64          `json:"outputSizes"`
	OutputElementCount int64            `json:"outputElementCount"`
	InputStrides       []int64          `json:"inputStrides"`
	InputCoordinates   [][]int64        `json:"inputCoordinates,omitempty"`
	InputOffsets       []int64          `json:"inputOffsets,omitempty"`
	NumPy              string           `json:"numpy"`
	ONNX               core.ONNXSlice   `json:"onnx"`
	CPP                string           `json:"cpp"`
	Warnings           []core.Violation `json:"warnings"`
}

// V1Request is the body of POST /api/v1/slice: a DML_SLICE (version
// 1) description, whose sizes are the output sizes and whose offsets and
// strides are unsigned.
type V1Request struct {
	DataType string `json:"dataType"`
	// FeatureLevel nil (absent or null) means the newest.
	FeatureLevel *string `json:"featureLevel"`
	InputSizes   []int64 `json:"inputSizes"`
	InputStrides []int64 `json:"inputStrides"`
	InputBuffer
	Offsets []int64 `json:"offsets"`
	Sizes   []int64 `json:"sizes"`
	Strides []int64 `json:"strides"`
}

// V1Response is the answer of POST /api/v1/slice: the DML_SLICE1
// that copies the same elements, and everything /api/v1/slice1 says
// about it.
type V1Response struct {
	Slice1 Window `json:"slice1"`
	Response
}

// Window is a DML_SLICE1 input window and output sizes.
type Window struct {
	InputWindowOffsets []int64 `json:"inputWindowOffsets"`
	InputWindowSizes   []int64 `json:"inputWindowSizes"`
	InputWindowStrides []int64 `json:"inputWindowStrides"`
	OutputSizes        []int64 `json:"outputSizes"`
}

// NumpyRequest is the body of POST /api/v1/slice1/numpy.
type NumpyRequest struct {
	InputSizes []int64 `json:"inputSizes"`
	Expression string  `json:"expression"`
}

// NumpyResponse is the canonical tight DML_SLICE1 window of an expression.
type NumpyResponse struct {
	InputWindowOffsets []int64 `json:"inputWindowOffsets"`
	InputWindowSizes   []int64 `json:"inputWindowSizes"`
	InputWindowStrides []int64 `json:"inputWindowStrides"`
	OutputSizes        []int64 `json:"outputSizes"`
	DroppedAxes        []int   `json:"droppedAxes"`
	// PythonSliceIndices are whole JSON numbers, a step past 64 bits
	// included (core.NumpyWindow.PythonIndices).
	PythonSliceIndices [][3]json.Number `json:"pythonSliceIndices"`
	NumPy              string           `json:"numpy"`
}

// Slice1 validates a request and returns the core slice, or every
// violation as a 422.
func (r Request) Slice1() (*core.Slice1, *picture.Invalid) {
	dt, vs := picture.ParseType("dataType", r.DataType, true)
	var out core.DataType
	if r.OutputDataType != "" {
		var ovs []core.Violation
		out, ovs = picture.ParseType("outputDataType", r.OutputDataType, false)
		vs = append(vs, ovs...)
	}
	fl, flvs := parseFeatureLevel(r.FeatureLevel)
	vs = append(vs, flvs...)
	buf := r.InputBuffer
	if len(vs) > 0 && dt == core.Unknown {
		dt = core.Float32 // report the remaining rules against a placeholder type
		out = core.Unknown
		buf = buf.placeholder()
	}
	s, err := core.NewSlice1(core.Slice1Desc{
		Input:          buf.input(dt, r.InputSizes, r.InputStrides),
		OutputDataType: out,
		FeatureLevel:   fl,
		WindowOffsets:  r.InputWindowOffsets,
		WindowSizes:    r.InputWindowSizes,
		WindowStrides:  r.InputWindowStrides,
		OutputSizes:    r.OutputSizes,
	})
	vs = append(vs, picture.Required(picture.CoreViolations(err), picture.List{Field: "inputSizes", Values: r.InputSizes}, picture.List{Field: "inputWindowOffsets", Values: r.InputWindowOffsets},
		picture.List{Field: "inputWindowSizes", Values: r.InputWindowSizes}, picture.List{Field: "inputWindowStrides", Values: r.InputWindowStrides})...)
	if len(vs) > 0 {
		return nil, picture.InvalidOf(vs...)
	}
	return s, nil
}

// input is the slice's input tensor description.
func (b InputBuffer) input(dt core.DataType, sizes, strides []int64) core.TensorDesc {
	return core.TensorDesc{DataType: dt, Sizes: sizes, Strides: strides,
		TotalTensorSizeInBytes: b.InputTotalTensorSizeInBytes, GuaranteedBaseOffsetAlignment: b.InputGuaranteedBaseOffsetAlignment}
}

// placeholder keeps only what can be judged without the element size
// (a negative total, an alignment that is not a power of two), as
// LayoutRequest.Layout does when the data type is a placeholder.
func (b InputBuffer) placeholder() InputBuffer {
	if t := b.InputTotalTensorSizeInBytes; t != nil && *t >= 0 {
		b.InputTotalTensorSizeInBytes = nil
	}
	if a := b.InputGuaranteedBaseOffsetAlignment; a > 0 && a&(a-1) == 0 {
		b.InputGuaranteedBaseOffsetAlignment = 0
	}
	return b
}

// SliceV1 validates a DML_SLICE request, reporting every violation at
// once against the request's own fields: a rule of the converted
// DML_SLICE1 names the DML_SLICE field it comes from.
func (r V1Request) SliceV1() (*core.Slice1, *picture.Invalid) {
	dt, vs := picture.ParseType("dataType", r.DataType, true)
	fl, flvs := parseFeatureLevel(r.FeatureLevel)
	vs = append(vs, flvs...)
	buf := r.InputBuffer
	if dt == core.Unknown {
		dt = core.Float32 // report the remaining rules against a placeholder type
		buf = buf.placeholder()
	}
	s, err := core.NewSliceV1(core.SliceDesc{
		Input:   buf.input(dt, r.InputSizes, r.InputStrides),
		Offsets: r.Offsets, Sizes: r.Sizes, Strides: r.Strides,
	}, fl)
	cvs := picture.CoreViolations(err)
	for i := range cvs {
		cvs[i] = v1Violation(cvs[i])
	}
	for _, v := range picture.Required(cvs, picture.List{Field: "inputSizes", Values: r.InputSizes}, picture.List{Field: "offsets", Values: r.Offsets}, picture.List{Field: "sizes", Values: r.Sizes}, picture.List{Field: "strides", Values: r.Strides}) {
		// The window's sizes and the output sizes both come from sizes:
		// what is wrong with one of them is said once, at its first rule
		// (a size of 0 is an empty window and an empty output).
		fromSizes := strings.HasPrefix(v.Field, "sizes") && v.Code == "slice.as.slice1"
		if !slices.ContainsFunc(vs, func(w core.Violation) bool {
			return w.Field == v.Field && (w.Message == v.Message || fromSizes && w.Code == v.Code)
		}) {
			vs = append(vs, v)
		}
	}
	if len(vs) > 0 {
		return nil, picture.InvalidOf(vs...)
	}
	return s, nil
}

// v1Violation renames a violation of the converted DML_SLICE1 to the
// DML_SLICE field it comes from: the window's offsets are the offsets, its
// strides the strides, and both its sizes and the output sizes come from
// the sizes (the window spans (size-1)*stride+1 elements).
func v1Violation(v core.Violation) core.Violation {
	for from, to := range map[string]string{
		"inputWindowOffsets": "offsets",
		"inputWindowSizes":   "sizes",
		"inputWindowStrides": "strides",
		"outputSizes":        "sizes",
	} {
		if rest, ok := strings.CutPrefix(v.Field, from); ok && (rest == "" || rest[0] == '[') {
			// The cause names the DML_SLICE field too when it names one.
			cause := v.Renamed(to + rest).Msg()
			v = core.NewMsg("slice.as.slice1", "as DML_SLICE1: {cause}", core.Args{"cause": cause}).At(to + rest)
			break
		}
	}
	return v
}

// parseFeatureLevel reads a request's featureLevel strictly: nil is the
// newest; otherwise exactly a level's name, "6_4" or
// "DML_FEATURE_LEVEL_6_4". An empty string or "6.4" is refused rather
// than guessed at.
func parseFeatureLevel(name *string) (core.FeatureLevel, []core.Violation) {
	if name == nil {
		return core.NewestFeatureLevel, nil
	}
	for _, f := range core.FeatureLevels {
		if *name == f.String() || *name == "DML_FEATURE_LEVEL_"+f.String() {
			return f, nil
		}
	}
	names := make([]string, len(core.FeatureLevels))
	for i, f := range core.FeatureLevels {
		names[i] = f.String()
	}
	return core.NewestFeatureLevel, []core.Violation{core.NewMsg("featurelevel.unknown",
		"featureLevel {name:q} is not a feature level: give one of {names} (or DML_FEATURE_LEVEL_{newest}), or leave it out for the newest, {newest}",
		core.Args{"name": *name, "names": strings.Join(names, ", "), "newest": core.NewestFeatureLevel}).At("featureLevel")}
}

// FeatureLevelName is the request's featureLevel for a page's fl: none
// (the newest) when empty.
func FeatureLevelName(fl string) *string {
	if fl == "" {
		return nil
	}
	return &fl
}

// NewResponse describes s for the API and the pages.
func NewResponse(s *core.Slice1) Response {
	r := Response{
		FeatureLevel:       s.FeatureLevel.String(),
		MaxCopiedElements:  s.MaxCopied,
		CopyStart:          s.CopyStart,
		OutputSizes:        s.OutputSizes,
		OutputElementCount: s.OutputElementCount(),
		InputStrides:       s.Input.Strides,
		NumPy:              s.Numpy(),
		ONNX:               s.ONNX(),
		CPP:                s.CPP(),
		Warnings:           picture.NonNil(s.Input.Warnings),
	}
	if s.OutputElementCount() <= picture.MaxListedElements {
		r.InputCoordinates, _ = s.InputCoordinates(picture.MaxListedElements)
		r.InputOffsets = Offsets(s)
	}
	return r
}
