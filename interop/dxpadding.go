package interop

import (
	"context"
	"net/url"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/ops/padding1"
	"github.com/stridescope/stridescope/ops/slice1"
	"github.com/stridescope/stridescope/ops/tile"
)

// DxPadding1Desc is DML_PADDING1_OPERATOR_DESC as DxDispatch reads it.
// PaddingValue is a DML_SCALAR_UNION: an object naming the union's
// member of the data type ({"Float32": 9}; FLOAT16 as its bits,
// {"UInt16": 18560}), which DxDispatch's ParseDmlScalarUnion reads by
// the data type. ValueDataType repeats PaddingValueDataType: the
// generator of DxDispatch's parsers names a scalar union's data type
// field ValueDataType whatever the struct calls it, and a member it
// does not read is ignored, so the model loads either way.
type DxPadding1Desc struct {
	InputTensor          DxTensor           `json:"InputTensor"`
	OutputTensor         DxTensor           `json:"OutputTensor"`
	PaddingMode          string             `json:"PaddingMode"`
	PaddingValueDataType string             `json:"PaddingValueDataType"`
	ValueDataType        string             `json:"ValueDataType"`
	PaddingValue         map[string]float64 `json:"PaddingValue"`
	DimensionCount       int                `json:"DimensionCount"`
	StartPadding         []int64            `json:"StartPadding"`
	EndPadding           []int64            `json:"EndPadding"`
}

func paddingDxPlan(q url.Values) (DxPlan, error) {
	v := padding1.Validate(padding1.StateFromQuery(q))
	if v.P == nil {
		return DxPlan{}, &explorer.Invalid{Violations: v.Errors}
	}
	var vals []slice1.Value
	if v.State.Values != "" {
		vals, _ = slice1.ParseValues(v.State.Values, v.P.Input.DataType)
	}
	p := v.P
	return DxPlan{File: "stridescope-padding.json", Cost: dxCost(p.Input) + dxCost(p.Output),
		Build: func(ctx context.Context) (*DxModel, []core.Violation) { return DxPadding1Model(ctx, p, vals) }}, nil
}

// DxPadding1Model is a model that runs p on an input holding the values
// the padding explorer shows (vals nil: 1..N) and prints the output.
func DxPadding1Model(ctx context.Context, p *core.Padding1, vals []slice1.Value) (*DxModel, []core.Violation) {
	if vs := dxCheckType("dataType", p.Input.DataType); vs != nil {
		return nil, vs
	}
	in, vs := dxInput(ctx, p.Input, vals, "inputSizes")
	if vs != nil {
		return nil, vs
	}
	dt := p.Output.DataType
	member, value := dxScalar(dt, p.PaddingValue)
	desc := DxPadding1Desc{
		InputTensor: dxTensorOf(p.Input, true), OutputTensor: dxTensorOf(p.Output, false),
		PaddingMode: p.Mode.CName(), PaddingValueDataType: dt.String(), ValueDataType: dt.String(),
		PaddingValue:   map[string]float64{member: value},
		DimensionCount: len(p.StartPadding), StartPadding: p.StartPadding, EndPadding: p.EndPadding,
	}
	return &DxModel{
		Resources:     map[string]DxResource{"input": in, "output": dxZeros(dt, p.Output.BufferElementCount())},
		Dispatchables: map[string]DxDispatchable{"padding": {Type: "DML_OPERATOR_PADDING1", Desc: desc}},
		Commands:      dxRun("padding"),
	}, nil
}

// dxScalar is the DML_SCALAR_UNION member DxDispatch reads for dt, and
// v as that member holds it (FLOAT16: its bits).
func dxScalar(dt core.DataType, v float64) (string, float64) {
	if dt == core.Float16 {
		return unionMembers["FLOAT16"], float64(core.Float16Bits(v))
	}
	return unionMembers[dt.String()], v
}

// DxTileDesc is DML_TILE_OPERATOR_DESC as DxDispatch reads it.
type DxTileDesc struct {
	InputTensor  DxTensor `json:"InputTensor"`
	OutputTensor DxTensor `json:"OutputTensor"`
	RepeatsCount int      `json:"RepeatsCount"`
	Repeats      []int64  `json:"Repeats"`
}

func tileDxPlan(q url.Values) (DxPlan, error) {
	v := tile.Validate(tile.StateFromQuery(q))
	if v.T == nil {
		return DxPlan{}, &explorer.Invalid{Violations: v.Errors}
	}
	var vals []slice1.Value
	if v.State.Values != "" {
		vals, _ = slice1.ParseValues(v.State.Values, v.T.Input.DataType)
	}
	t := v.T
	return DxPlan{File: "stridescope-tile.json", Cost: dxCost(t.Input) + dxCost(t.Output),
		Build: func(ctx context.Context) (*DxModel, []core.Violation) { return DxTileModel(ctx, t, vals) }}, nil
}

// DxTileModel is a model that runs t on an input holding the values the
// tile explorer shows (vals nil: 1..N) and prints the output.
func DxTileModel(ctx context.Context, t *core.Tile, vals []slice1.Value) (*DxModel, []core.Violation) {
	if vs := dxCheckType("dataType", t.Input.DataType); vs != nil {
		return nil, vs
	}
	in, vs := dxInput(ctx, t.Input, vals, "inputSizes")
	if vs != nil {
		return nil, vs
	}
	desc := DxTileDesc{InputTensor: dxTensorOf(t.Input, true), OutputTensor: dxTensorOf(t.Output, false), RepeatsCount: len(t.Repeats), Repeats: t.Repeats}
	return &DxModel{
		Resources:     map[string]DxResource{"input": in, "output": dxZeros(t.Output.DataType, t.Output.BufferElementCount())},
		Dispatchables: map[string]DxDispatchable{"tile": {Type: "DML_OPERATOR_TILE", Desc: desc}},
		Commands:      dxRun("tile"),
	}, nil
}
