package padding1

import (
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
)

// Request is the body of POST /api/v1/padding1: a
// DML_PADDING1_OPERATOR_DESC, its input tensor named as /api/v1/slice1
// names it. The output is packed, its sizes input + start + end
// (outputSizes, when given, must be those).
type Request struct {
	DataType string `json:"dataType"`
	// FeatureLevel nil (absent or null) means the newest.
	FeatureLevel *string `json:"featureLevel"`
	InputSizes   []int64 `json:"inputSizes"`
	InputStrides []int64 `json:"inputStrides"`
	// InputTotalTensorSizeInBytes nil means the minimum
	// (DMLCalcBufferTensorSize); the alignment 0 no guarantee.
	InputTotalTensorSizeInBytes        *int64 `json:"inputTotalTensorSizeInBytes"`
	InputGuaranteedBaseOffsetAlignment int64  `json:"inputGuaranteedBaseOffsetAlignment"`
	PaddingMode                        string `json:"paddingMode"`
	// PaddingValue nil means 0.
	PaddingValue *float64 `json:"paddingValue"`
	StartPadding []int64  `json:"startPadding"`
	EndPadding   []int64  `json:"endPadding"`
	OutputSizes  []int64  `json:"outputSizes"`
}

// Response is the answer of POST /api/v1/padding1. InputCoordinates and
// InputOffsets list the first Listed output elements in row-major order
// (null: the padding value); Truncated says that there are more.
type Response struct {
	FeatureLevel       string    `json:"featureLevel"`
	PaddingMode        string    `json:"paddingMode"`
	OutputSizes        []int64   `json:"outputSizes"`
	OutputElementCount int64     `json:"outputElementCount"`
	InputStrides       []int64   `json:"inputStrides"`
	InputCoordinates   [][]int64 `json:"inputCoordinates"`
	InputOffsets       []*int64  `json:"inputOffsets"`
	Listed             int64     `json:"listed"`
	Truncated          bool      `json:"truncated"`
	NumPy              string    `json:"numpy"`
	CPP                string    `json:"cpp"`
	// ONNX is the ONNX Pad node and its model file; absent for
	// SYMMETRIC, which ONNX has no mode for. Its model is absent where
	// ONNX Runtime computes another map (the notes say why).
	ONNX     *core.ONNXPad    `json:"onnx,omitempty"`
	Notes    []core.Violation `json:"notes"`
	Warnings []core.Violation `json:"warnings"`
}

// Padding1 validates a request and returns the core padding, or every
// violation as a 422.
func (r Request) Padding1() (*core.Padding1, *picture.Invalid) {
	dt, vs := picture.ParseType("dataType", r.DataType, true)
	fl, flvs := parseFeatureLevel(r.FeatureLevel)
	vs = append(vs, flvs...)
	mode := core.PadConstant
	if r.PaddingMode == "" {
		vs = append(vs, core.NewMsg("padding.mode.required", "{field} is required: CONSTANT, EDGE, REFLECTION, SYMMETRIC or WRAP", core.Args{"field": "paddingMode"}).At("paddingMode"))
	} else if m, err := core.ParsePaddingMode(r.PaddingMode); err != nil {
		vs = append(vs, core.ViolationOf("paddingMode", err))
	} else {
		mode = m
	}
	in := core.TensorDesc{DataType: dt, Sizes: r.InputSizes, Strides: r.InputStrides,
		TotalTensorSizeInBytes: r.InputTotalTensorSizeInBytes, GuaranteedBaseOffsetAlignment: r.InputGuaranteedBaseOffsetAlignment}
	if dt == core.Unknown {
		// The other rules still report, against a placeholder type; the
		// ones that need the element size wait for a real one.
		in.DataType = core.Float32
		if t := in.TotalTensorSizeInBytes; t != nil && *t >= 0 {
			in.TotalTensorSizeInBytes = nil
		}
		if a := in.GuaranteedBaseOffsetAlignment; a > 0 && a&(a-1) == 0 {
			in.GuaranteedBaseOffsetAlignment = 0
		}
	}
	var value float64
	if r.PaddingValue != nil {
		value = *r.PaddingValue
	}
	p, err := core.NewPadding1(core.Padding1Desc{Input: in, FeatureLevel: fl, Mode: mode, PaddingValue: value,
		StartPadding: r.StartPadding, EndPadding: r.EndPadding, OutputSizes: r.OutputSizes})
	cvs := picture.CoreViolations(err)
	if dt == core.Unknown {
		cvs = dropTypeRules(cvs)
	}
	vs = append(vs, picture.Required(cvs, picture.List{Field: "inputSizes", Values: r.InputSizes},
		picture.List{Field: "startPadding", Values: r.StartPadding}, picture.List{Field: "endPadding", Values: r.EndPadding})...)
	if len(vs) > 0 {
		return nil, picture.InvalidOf(vs...)
	}
	return p, nil
}

// dropTypeRules leaves out what core said of the placeholder type.
func dropTypeRules(vs []core.Violation) []core.Violation {
	out := vs[:0:0]
	for _, v := range vs {
		if !strings.HasPrefix(v.Code, "padding1.value.") {
			out = append(out, v)
		}
	}
	return out
}

// parseFeatureLevel reads a request's featureLevel strictly, as
// /api/v1/slice1 does: nil is the newest; otherwise exactly a level's
// name, "6_4" or "DML_FEATURE_LEVEL_6_4".
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

// NewResponse describes p for the API: every output element's source up
// to picture.MaxListedElements.
func NewResponse(p *core.Padding1) Response {
	coords, all := p.InputCoordinates(picture.MaxListedElements)
	r := Response{
		FeatureLevel: p.FeatureLevel.String(), PaddingMode: p.Mode.String(),
		OutputSizes: p.Output.Sizes, OutputElementCount: p.Output.LogicalElementCount(),
		InputStrides: p.Input.Strides, InputCoordinates: coords, InputOffsets: make([]*int64, len(coords)),
		Listed: int64(len(coords)), Truncated: !all,
		NumPy: p.NumPy(), CPP: p.CPP(),
		Notes: picture.NonNil(p.Notes), Warnings: picture.NonNil(p.Input.Warnings),
	}
	if o, ok := p.ONNX(); ok {
		o.Model, _ = p.ONNXModel()
		r.ONNX = &o
	}
	for i, c := range coords {
		if c != nil {
			off, _ := p.Input.Offset(c)
			r.InputOffsets[i] = &off
		}
	}
	return r
}
