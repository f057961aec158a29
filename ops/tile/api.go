package tile

import (
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
)

// Request is the body of POST /api/v1/tile: a DML_TILE_OPERATOR_DESC,
// its input tensor named as /api/v1/slice1 names it. The output is
// packed, its sizes input * repeats (outputSizes, when given, must be
// those).
type Request struct {
	DataType string `json:"dataType"`
	// FeatureLevel nil (absent or null) means the newest.
	FeatureLevel                       *string `json:"featureLevel"`
	InputSizes                         []int64 `json:"inputSizes"`
	InputStrides                       []int64 `json:"inputStrides"`
	InputTotalTensorSizeInBytes        *int64  `json:"inputTotalTensorSizeInBytes"`
	InputGuaranteedBaseOffsetAlignment int64   `json:"inputGuaranteedBaseOffsetAlignment"`
	Repeats                            []int64 `json:"repeats"`
	OutputSizes                        []int64 `json:"outputSizes"`
}

// Response is the answer of POST /api/v1/tile, named as
// /api/v1/padding1's: the first Listed output elements' input
// coordinates and offsets, row-major; Truncated says there are more.
type Response struct {
	FeatureLevel       string           `json:"featureLevel"`
	OutputSizes        []int64          `json:"outputSizes"`
	OutputElementCount int64            `json:"outputElementCount"`
	InputStrides       []int64          `json:"inputStrides"`
	InputCoordinates   [][]int64        `json:"inputCoordinates"`
	InputOffsets       []int64          `json:"inputOffsets"`
	Listed             int64            `json:"listed"`
	Truncated          bool             `json:"truncated"`
	NumPy              string           `json:"numpy"`
	ONNX               ONNXTile         `json:"onnx"`
	Warnings           []core.Violation `json:"warnings"`
}

// ONNXTile is the ONNX Tile node (its repeats input) and its one-node
// model file (core.Tile.ONNXModel), base64 in JSON.
type ONNXTile struct {
	Op      string  `json:"op"`
	Repeats []int64 `json:"repeats"`
	Opset   int     `json:"opset"`
	Model   []byte  `json:"model"`
}

// Tile validates a request and returns the core tiling, or every
// violation as a 422.
func (r Request) Tile() (*core.Tile, *picture.Invalid) {
	dt, vs := picture.ParseType("dataType", r.DataType, true)
	fl, flvs := parseFeatureLevel(r.FeatureLevel)
	vs = append(vs, flvs...)
	in := core.TensorDesc{DataType: dt, Sizes: r.InputSizes, Strides: r.InputStrides,
		TotalTensorSizeInBytes: r.InputTotalTensorSizeInBytes, GuaranteedBaseOffsetAlignment: r.InputGuaranteedBaseOffsetAlignment}
	if dt == core.Unknown {
		in.DataType = core.Float32
		if t := in.TotalTensorSizeInBytes; t != nil && *t >= 0 {
			in.TotalTensorSizeInBytes = nil
		}
		if a := in.GuaranteedBaseOffsetAlignment; a > 0 && a&(a-1) == 0 {
			in.GuaranteedBaseOffsetAlignment = 0
		}
	}
	t, err := core.NewTile(core.TileDesc{Input: in, FeatureLevel: fl, Repeats: r.Repeats, OutputSizes: r.OutputSizes})
	vs = append(vs, picture.Required(picture.CoreViolations(err), picture.List{Field: "inputSizes", Values: r.InputSizes}, picture.List{Field: "repeats", Values: r.Repeats})...)
	if len(vs) > 0 {
		return nil, picture.InvalidOf(vs...)
	}
	return t, nil
}

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

func featureLevelName(fl string) *string {
	if fl == "" {
		return nil
	}
	return &fl
}

// NewResponse describes t for the API.
func NewResponse(t *core.Tile) Response {
	n := min(t.Output.LogicalElementCount(), picture.MaxListedElements)
	r := Response{
		FeatureLevel: t.FeatureLevel.String(), OutputSizes: t.Output.Sizes, OutputElementCount: t.Output.LogicalElementCount(),
		InputStrides: t.Input.Strides, InputCoordinates: make([][]int64, n), InputOffsets: make([]int64, n),
		Listed: n, Truncated: n < t.Output.LogicalElementCount(),
		NumPy: t.NumPy(), ONNX: ONNXTile{Op: "Tile", Repeats: t.Repeats, Opset: core.ONNXOpset}, Warnings: picture.NonNil(t.Input.Warnings),
	}
	r.ONNX.Model, _ = t.ONNXModel()
	for i := range n {
		c := t.InputCoordinate(i)
		r.InputCoordinates[i] = c
		r.InputOffsets[i], _ = t.Input.Offset(c)
	}
	return r
}
