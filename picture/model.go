package picture

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
)

// The JSON API's requests and responses live here, beside the page
// states: the pages Validate and describe a tensor or a slice exactly as
// the API does.

// Invalid is every violation of a request, reported at once (the API's
// 422).
type Invalid = explorer.Invalid

func invalid(vs ...core.Violation) *Invalid { return &Invalid{Violations: vs} }

// CoreViolations lists the violations of a core validation error (nil for
// nil).
func CoreViolations(err error) []core.Violation {
	if err == nil {
		return nil
	}
	var ve *core.ValidationError
	if errors.As(err, &ve) {
		return ve.Violations
	}
	return []core.Violation{{Message: err.Error()}}
}

// MaxListedElements is how many per-element offsets or coordinates a JSON
// response lists; larger tensors are described by their facts alone.
const MaxListedElements = 1 << 16

// LayoutRequest is the body of POST /api/v1/layout.
type LayoutRequest struct {
	DataType                      string  `json:"dataType"`
	Sizes                         []int64 `json:"sizes"`
	Strides                       []int64 `json:"strides"`
	TotalTensorSizeInBytes        *int64  `json:"totalTensorSizeInBytes"`
	GuaranteedBaseOffsetAlignment int64   `json:"guaranteedBaseOffsetAlignment"`
}

// BufferSizeSteps is DMLCalcBufferTensorSize worked step by step.
type BufferSizeSteps struct {
	ElementSizeInBits   int64  `json:"elementSizeInBits"`
	Formula             string `json:"formula"`
	ElementCount        int64  `json:"elementCount"`
	SizeInBits          int64  `json:"sizeInBits"`
	BytesBeforeRounding int64  `json:"bytesBeforeRounding"`
	Result              int64  `json:"result"`
}

// HelperResults is what the published C++ DMLCalcBufferTensorSize helpers
// return for the description, wrap-arounds and missing cases included, to
// compare with minimumBufferSizeInBytes (which is exact).
type HelperResults struct {
	DirectMLX         uint64 `json:"directmlx"`         // DirectMLX.h's
	DocumentationPage uint64 `json:"documentationPage"` // the one printed on the documentation page: 0 for UINT4/INT4
}

// LayoutResponse is the answer of POST /api/v1/layout. Facts that cannot be
// settled without enumerating a very large tensor are null.
type LayoutResponse struct {
	DataType                   string           `json:"dataType"`
	ElementSizeInBits          int64            `json:"elementSizeInBits"`
	Sizes                      []int64          `json:"sizes"`
	Strides                    []int64          `json:"strides"`
	StridesImplicit            bool             `json:"stridesImplicit"`
	DimensionLabels            []string         `json:"dimensionLabels"`
	LogicalElementCount        int64            `json:"logicalElementCount"`
	IndexOfLastElement         int64            `json:"indexOfLastElement"`
	MinimumImpliedElementCount int64            `json:"minimumImpliedElementCount"`
	DistinctOffsetCount        *int64           `json:"distinctOffsetCount"`
	IsPacked                   *bool            `json:"isPacked"`
	HasBroadcast               bool             `json:"hasBroadcast"`
	HasOverlap                 *bool            `json:"hasOverlap"`
	IsPadded                   *bool            `json:"isPadded"`
	MinimumBufferSizeInBytes   int64            `json:"minimumBufferSizeInBytes"`
	BufferSizeInBytes          int64            `json:"bufferSizeInBytes"`
	BufferSizeSteps            BufferSizeSteps  `json:"bufferSizeSteps"`
	PublishedHelperResults     HelperResults    `json:"publishedHelperResults"`
	Offsets                    []int64          `json:"offsets,omitempty"`
	CPP                        string           `json:"cpp"`
	Warnings                   []core.Violation `json:"warnings"`
}

// Slice1Request is the body of POST /api/v1/slice1.
type Slice1Request struct {
	DataType       string `json:"dataType"`
	OutputDataType string `json:"outputDataType,omitempty"` // "": the input's
	// FeatureLevel nil (absent or null) means the newest.
	FeatureLevel *string `json:"featureLevel"`
	InputSizes   []int64 `json:"inputSizes"`
	InputStrides []int64 `json:"inputStrides"`
	SliceInputBuffer
	Slice1Window
}

// SliceInputBuffer is the optional buffer of a slice's input tensor, named
// as core reports its violations.
type SliceInputBuffer struct {
	// InputTotalTensorSizeInBytes nil means the minimum
	// (DMLCalcBufferTensorSize).
	InputTotalTensorSizeInBytes *int64 `json:"inputTotalTensorSizeInBytes"`
	// InputGuaranteedBaseOffsetAlignment 0 means no guarantee.
	InputGuaranteedBaseOffsetAlignment int64 `json:"inputGuaranteedBaseOffsetAlignment"`
}

// Slice1Response is the answer of POST /api/v1/slice1.
type Slice1Response struct {
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

// SliceV1Request is the body of POST /api/v1/slice: a DML_SLICE (version
// 1) description, whose sizes are the output sizes and whose offsets and
// strides are unsigned.
type SliceV1Request struct {
	DataType string `json:"dataType"`
	// FeatureLevel nil (absent or null) means the newest.
	FeatureLevel *string `json:"featureLevel"`
	InputSizes   []int64 `json:"inputSizes"`
	InputStrides []int64 `json:"inputStrides"`
	SliceInputBuffer
	Offsets []int64 `json:"offsets"`
	Sizes   []int64 `json:"sizes"`
	Strides []int64 `json:"strides"`
}

// SliceV1Response is the answer of POST /api/v1/slice: the DML_SLICE1
// that copies the same elements, and everything /api/v1/slice1 says
// about it.
type SliceV1Response struct {
	Slice1 Slice1Window `json:"slice1"`
	Slice1Response
}

// Slice1Window is a DML_SLICE1 input window and output sizes.
type Slice1Window struct {
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

// Layout validates a request and returns the core layout, or every
// violation as a 422.
func (r LayoutRequest) Layout() (*core.Layout, *Invalid) {
	dt, vs := parseType("dataType", r.DataType, true)
	if len(vs) > 0 {
		// Still Validate the rest so every violation is reported at once,
		// against a placeholder type; rules that need the element size
		// (the total's minimum, the alignment's floor) wait for a real one.
		total := r.TotalTensorSizeInBytes
		if total != nil && *total >= 0 {
			total = nil
		}
		align := r.GuaranteedBaseOffsetAlignment
		if align > 0 && align&(align-1) == 0 {
			align = 0
		}
		_, err := core.NewLayout(core.TensorDesc{DataType: core.UInt4, Sizes: r.Sizes, Strides: r.Strides,
			TotalTensorSizeInBytes: total, GuaranteedBaseOffsetAlignment: align})
		return nil, invalid(append(vs, required(CoreViolations(err), list{"sizes", r.Sizes})...)...)
	}
	l, err := core.NewLayout(core.TensorDesc{DataType: dt, Sizes: r.Sizes, Strides: r.Strides,
		TotalTensorSizeInBytes: r.TotalTensorSizeInBytes, GuaranteedBaseOffsetAlignment: r.GuaranteedBaseOffsetAlignment})
	if err != nil {
		return nil, invalid(required(CoreViolations(err), list{"sizes", r.Sizes})...)
	}
	return l, nil
}

// list is a request's list by its field name.
type list struct {
	field  string
	values []int64
}

// required says that each list the request left out (absent, or null) is
// required, in the place of what core says of a list of no entries ("has
// 0 entries: DimensionCount must match"), which is not what was sent; and
// keeps vs's other violations. lists[0] is the one that gives the
// DimensionCount.
func required(vs []core.Violation, lists ...list) []core.Violation {
	var out []core.Violation
	for _, l := range lists {
		if l.values == nil {
			out = append(out, core.NewMsg("api.required", "{field} is missing: give one entry for each dimension", core.Args{"field": l.field}).At(l.field))
		}
	}
	if len(out) == 0 {
		return vs
	}
	// The first list gives the DimensionCount: without it, the others'
	// counts are measured against 0, which says nothing more.
	rankless := lists[0].values == nil
	for _, v := range vs {
		if rankless && (v.Code == "tensor.strides.count" || v.Code == "slice1.rank.mismatch") {
			continue
		}
		if !slices.ContainsFunc(out, func(m core.Violation) bool { return m.Field == v.Field }) {
			out = append(out, v)
		}
	}
	return out
}

// Slice1 validates a request and returns the core slice, or every
// violation as a 422.
func (r Slice1Request) Slice1() (*core.Slice1, *Invalid) {
	dt, vs := parseType("dataType", r.DataType, true)
	var out core.DataType
	if r.OutputDataType != "" {
		var ovs []core.Violation
		out, ovs = parseType("outputDataType", r.OutputDataType, false)
		vs = append(vs, ovs...)
	}
	fl, flvs := parseFeatureLevel(r.FeatureLevel)
	vs = append(vs, flvs...)
	buf := r.SliceInputBuffer
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
	vs = append(vs, required(CoreViolations(err), list{"inputSizes", r.InputSizes}, list{"inputWindowOffsets", r.InputWindowOffsets},
		list{"inputWindowSizes", r.InputWindowSizes}, list{"inputWindowStrides", r.InputWindowStrides})...)
	if len(vs) > 0 {
		return nil, invalid(vs...)
	}
	return s, nil
}

// input is the slice's input tensor description.
func (b SliceInputBuffer) input(dt core.DataType, sizes, strides []int64) core.TensorDesc {
	return core.TensorDesc{DataType: dt, Sizes: sizes, Strides: strides,
		TotalTensorSizeInBytes: b.InputTotalTensorSizeInBytes, GuaranteedBaseOffsetAlignment: b.InputGuaranteedBaseOffsetAlignment}
}

// placeholder keeps only what can be judged without the element size
// (a negative total, an alignment that is not a power of two), as
// LayoutRequest.Layout does when the data type is a placeholder.
func (b SliceInputBuffer) placeholder() SliceInputBuffer {
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
func (r SliceV1Request) SliceV1() (*core.Slice1, *Invalid) {
	dt, vs := parseType("dataType", r.DataType, true)
	fl, flvs := parseFeatureLevel(r.FeatureLevel)
	vs = append(vs, flvs...)
	buf := r.SliceInputBuffer
	if dt == core.Unknown {
		dt = core.Float32 // report the remaining rules against a placeholder type
		buf = buf.placeholder()
	}
	s, err := core.NewSliceV1(core.SliceDesc{
		Input:   buf.input(dt, r.InputSizes, r.InputStrides),
		Offsets: r.Offsets, Sizes: r.Sizes, Strides: r.Strides,
	}, fl)
	cvs := CoreViolations(err)
	for i := range cvs {
		cvs[i] = sliceV1Violation(cvs[i])
	}
	for _, v := range required(cvs, list{"inputSizes", r.InputSizes}, list{"offsets", r.Offsets}, list{"sizes", r.Sizes}, list{"strides", r.Strides}) {
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
		return nil, invalid(vs...)
	}
	return s, nil
}

// sliceV1Violation renames a violation of the converted DML_SLICE1 to the
// DML_SLICE field it comes from: the window's offsets are the offsets, its
// strides the strides, and both its sizes and the output sizes come from
// the sizes (the window spans (size-1)*stride+1 elements).
func sliceV1Violation(v core.Violation) core.Violation {
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

func parseType(field, name string, required bool) (core.DataType, []core.Violation) {
	if name == "" {
		if required {
			return core.Unknown, []core.Violation{core.NewMsg("datatype.required", "{field} is required (e.g. \"FLOAT32\")", core.Args{"field": field}).At(field)}
		}
		return core.Unknown, nil
	}
	dt, err := core.ParseDataType(name)
	if err != nil {
		return core.Unknown, []core.Violation{core.ViolationOf(field, err)}
	}
	if dt == core.Unknown {
		return core.Unknown, []core.Violation{core.NewMsg("tensor.datatype.unknown", "DML_TENSOR_DATA_TYPE_UNKNOWN is never valid", nil).At(field)}
	}
	return dt, nil
}

// NewLayoutResponse describes l for the API and the pages.
func NewLayoutResponse(l *core.Layout) LayoutResponse {
	steps := l.BufferSizeSteps()
	formula := "product(sizes) * elementSizeInBits"
	if steps.StridesGiven {
		formula = "(indexOfLastElement + 1) * elementSizeInBits"
	}
	r := LayoutResponse{
		DataType:                   l.DataType.String(),
		ElementSizeInBits:          l.ElementSizeInBits(),
		Sizes:                      l.Sizes,
		Strides:                    l.Strides,
		StridesImplicit:            l.StridesImplicit,
		DimensionLabels:            core.DimensionLabels(l.Rank()),
		LogicalElementCount:        l.LogicalElementCount(),
		IndexOfLastElement:         l.IndexOfLastElement(),
		MinimumImpliedElementCount: l.MinimumImpliedElementCount(),
		IsPacked:                   triPtr(l.IsPacked()),
		HasBroadcast:               l.HasBroadcast(),
		HasOverlap:                 triPtr(l.HasOverlap()),
		IsPadded:                   triPtr(l.IsPadded()),
		MinimumBufferSizeInBytes:   steps.Result,
		BufferSizeInBytes:          l.BufferSizeInBytes(),
		BufferSizeSteps: BufferSizeSteps{
			ElementSizeInBits:   steps.ElementSizeInBits,
			Formula:             formula,
			ElementCount:        steps.ElementCount,
			SizeInBits:          steps.SizeInBits,
			BytesBeforeRounding: steps.BytesBeforeRounding,
			Result:              steps.Result,
		},
		CPP:      core.CPPTensorDesc(l, "tensor"),
		Warnings: NonNil(l.Warnings),
	}
	r.PublishedHelperResults.DirectMLX, r.PublishedHelperResults.DocumentationPage = l.PublishedHelperResults()
	if n, ok := l.DistinctOffsetCount(); ok {
		r.DistinctOffsetCount = &n
	}
	if l.LogicalElementCount() <= MaxListedElements {
		r.Offsets = LayoutOffsets(l)
	}
	return r
}

// NewSlice1Response describes s for the API and the pages.
func NewSlice1Response(s *core.Slice1) Slice1Response {
	r := Slice1Response{
		FeatureLevel:       s.FeatureLevel.String(),
		MaxCopiedElements:  s.MaxCopied,
		CopyStart:          s.CopyStart,
		OutputSizes:        s.OutputSizes,
		OutputElementCount: s.OutputElementCount(),
		InputStrides:       s.Input.Strides,
		NumPy:              s.Numpy(),
		ONNX:               s.ONNX(),
		CPP:                s.CPP(),
		Warnings:           NonNil(s.Input.Warnings),
	}
	if s.OutputElementCount() <= MaxListedElements {
		r.InputCoordinates, _ = s.InputCoordinates(MaxListedElements)
		r.InputOffsets = SliceOffsets(s)
	}
	return r
}

func triPtr(t core.Tri) *bool {
	if !t.Known() {
		return nil
	}
	b := t.Bool()
	return &b
}

func NonNil(vs []core.Violation) []core.Violation {
	if vs == nil {
		return []core.Violation{}
	}
	return vs
}
