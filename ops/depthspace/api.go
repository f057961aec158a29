package depthspace

import (
	"context"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
)

// Request is the body of POST /api/v1/depthtospace1 and
// /api/v1/spacetodepth1: the input tensor (strides absent: packed), its
// optional buffer, BlockSize and Order (DEPTH_COLUMN_ROW or
// COLUMN_ROW_DEPTH, DML_DEPTH_SPACE_ORDER_ prefix optional).
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
	BlockSize                          *int64 `json:"blockSize"`
	Order                              string `json:"order"`
}

// Response is the answer of both endpoints.
type Response struct {
	Operator           string  `json:"operator"`
	FeatureLevel       string  `json:"featureLevel"`
	Order              string  `json:"order"`
	BlockSize          int64   `json:"blockSize"`
	OutputSizes        []int64 `json:"outputSizes"`
	OutputElementCount int64   `json:"outputElementCount"`
	InputStrides       []int64 `json:"inputStrides"`
	// View is the operator as a 6-D strided view of the input buffer:
	// output element i reads the input buffer at dot(coord(i), strides).
	View View `json:"view"`
	// InputCoordinates and InputOffsets: for each output element in
	// row-major order the input coordinate it reads and its buffer
	// offset, up to picture.MaxListedElements elements.
	InputCoordinates [][]int64 `json:"inputCoordinates,omitempty"`
	InputOffsets     []int64   `json:"inputOffsets,omitempty"`
	MinFeatureLevel  string    `json:"minFeatureLevel"`
	NumPy            string    `json:"numpy"`
	ONNX             string    `json:"onnx,omitempty"`
	// ONNXModel is the same node as an ONNX model file (opset 13, dense
	// input "x", output "y"), base64 in the JSON; absent with ONNX.
	ONNXModel []byte           `json:"onnxModel,omitempty"`
	CPP       string           `json:"cpp"`
	Warnings  []core.Violation `json:"warnings"`
}

// View is a 6-D strided walk of the input buffer.
type View struct {
	Sizes   []int64 `json:"sizes"`
	Strides []int64 `json:"strides"`
}

// depthSpace validates a request for op and returns the core operator,
// or every violation as a 422.
func (r Request) depthSpace(op core.DepthSpaceOp) (*core.DepthSpace, *picture.Invalid) {
	dt, vs := picture.ParseType("dataType", r.DataType, true)
	fl, flvs := parseFeatureLevel(r.FeatureLevel)
	vs = append(vs, flvs...)
	total, align := r.InputTotalTensorSizeInBytes, r.InputGuaranteedBaseOffsetAlignment
	if dt == core.Unknown {
		// The other rules still report, against a placeholder type; the
		// buffer's that need the element size wait for a real one.
		dt = core.Float32
		if total != nil && *total >= 0 {
			total = nil
		}
		if align > 0 && align&(align-1) == 0 {
			align = 0
		}
	}
	order, orderOK := core.ParseDepthSpaceOrder(r.Order)
	if !orderOK {
		vs = append(vs, core.NewMsg("depthspace.order.name", "order {name:q} is not a DML_DEPTH_SPACE_ORDER: give DEPTH_COLUMN_ROW or COLUMN_ROW_DEPTH", core.Args{"name": r.Order}).At("order"))
	}
	var block int64 = 1
	if r.BlockSize == nil {
		vs = append(vs, core.NewMsg("depthspace.block.required", "blockSize is missing: give the BlockSize (at least 1)", nil).At("blockSize"))
	} else {
		block = *r.BlockSize
	}
	s, err := core.NewDepthSpace(core.DepthSpaceDesc{
		Op:           op,
		Input:        core.TensorDesc{DataType: dt, Sizes: r.InputSizes, Strides: r.InputStrides, TotalTensorSizeInBytes: total, GuaranteedBaseOffsetAlignment: align},
		FeatureLevel: fl,
		BlockSize:    block,
		Order:        order,
	})
	vs = append(vs, picture.Required(picture.CoreViolations(err), picture.List{Field: "inputSizes", Values: r.InputSizes})...)
	if len(vs) > 0 {
		return nil, picture.InvalidOf(vs...)
	}
	return s, nil
}

// parseFeatureLevel reads a request's featureLevel strictly, as
// /api/v1/slice1 does: nil is the newest; otherwise exactly a level's
// name, "6_4" or "DML_FEATURE_LEVEL_6_4".
func parseFeatureLevel(name *string) (core.FeatureLevel, []core.Violation) {
	if name == nil {
		return core.NewestFeatureLevel, nil
	}
	names := make([]string, len(core.FeatureLevels))
	for i, f := range core.FeatureLevels {
		if *name == f.String() || *name == "DML_FEATURE_LEVEL_"+f.String() {
			return f, nil
		}
		names[i] = f.String()
	}
	return core.NewestFeatureLevel, []core.Violation{core.NewMsg("featurelevel.unknown",
		"featureLevel {name:q} is not a feature level: give one of {names} (or DML_FEATURE_LEVEL_{newest}), or leave it out for the newest, {newest}",
		core.Args{"name": *name, "names": strings.Join(names, ", "), "newest": core.NewestFeatureLevel}).At("featureLevel")}
}

// NewResponse describes s for the API.
func NewResponse(s *core.DepthSpace) Response {
	sizes, strides := s.View()
	r := Response{
		Operator:           s.Op.OperatorName(),
		FeatureLevel:       s.FeatureLevel.String(),
		Order:              s.Order.String(),
		BlockSize:          s.BlockSize,
		OutputSizes:        s.Output.Sizes,
		OutputElementCount: s.OutputElementCount(),
		InputStrides:       s.Input.Strides,
		View:               View{Sizes: sizes, Strides: strides},
		MinFeatureLevel:    s.MinFeatureLevel().String(),
		NumPy:              s.NumPy(),
		CPP:                s.CPP(),
		Warnings:           picture.NonNil(s.Input.Warnings),
	}
	r.ONNX, _ = s.ONNX()
	r.ONNXModel, _ = s.ONNXModel()
	if n := s.OutputElementCount(); n <= picture.MaxListedElements {
		r.InputCoordinates, _ = s.InputCoordinates(picture.MaxListedElements)
		r.InputOffsets = make([]int64, n)
		compute.Offsets(compute.DepthSpaceWalk(s), 0, r.InputOffsets)
	}
	return r
}

// serve is one endpoint: op's request answered.
func serve(op core.DepthSpaceOp) func(ctx context.Context, req any) (any, error) {
	return func(ctx context.Context, req any) (any, error) {
		s, inv := req.(*Request).depthSpace(op)
		if inv != nil {
			return nil, inv
		}
		if err := budget.Take(ctx, APICost(s)); err != nil {
			return nil, err
		}
		resp := NewResponse(s)
		resp.Warnings = i18n.LocaleOf(ctx).Violations(resp.Warnings)
		return resp, nil
	}
}

// DepthSpace validates a request for op (the import's way in), as the
// endpoints do.
func (r Request) DepthSpace(op core.DepthSpaceOp) (*core.DepthSpace, *picture.Invalid) {
	return r.depthSpace(op)
}

// QueryOf is the page's canonical query of a valid operator: its
// strides explicit when it has some, packed otherwise.
func QueryOf(s *core.DepthSpace) string {
	st := State{Op: OpD2S, DT: s.Input.DataType.String(), Sizes: picture.FormatInts(s.Input.Sizes), Mode: ModePacked,
		Block: strconv.FormatInt(s.BlockSize, 10)}
	if s.Op == core.SpaceToDepth {
		st.Op = OpS2D
	}
	if !s.Input.StridesImplicit {
		st.Mode, st.Strides = ModeExplicit, picture.FormatInts(s.Input.Strides)
	}
	return st.CanonicalQuery(false)
}
