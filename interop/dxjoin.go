package interop

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/ops/join"
)

// DxJoinDesc is DML_JOIN_OPERATOR_DESC as DxDispatch reads it.
type DxJoinDesc struct {
	Axis         int        `json:"Axis"`
	InputCount   int        `json:"InputCount"`
	InputTensors []DxTensor `json:"InputTensors"`
	OutputTensor DxTensor   `json:"OutputTensor"`
}

// DxSplitDesc is DML_SPLIT_OPERATOR_DESC as DxDispatch reads it.
type DxSplitDesc struct {
	Axis          int        `json:"Axis"`
	InputTensor   DxTensor   `json:"InputTensor"`
	OutputCount   int        `json:"OutputCount"`
	OutputTensors []DxTensor `json:"OutputTensors"`
}

// joinsplitDxPlan plans the model of the join and split explorer's
// state: its inputs' and outputs' buffers are each at most
// MaxDxInitialValues cells, as the page's values are listed.
func joinsplitDxPlan(q url.Values) (DxPlan, error) {
	v := join.Validate(join.StateFromQuery(q))
	if !v.Valid() {
		return DxPlan{}, &explorer.Invalid{Violations: v.Errors}
	}
	if j := v.Join; j != nil {
		cost := dxCost(j.Output)
		for _, in := range j.Inputs {
			cost += dxCost(in)
		}
		return DxPlan{File: "stridescope-joinsplit.json", Cost: cost,
			Build: func(ctx context.Context) (*DxModel, []core.Violation) { return DxJoinModel(ctx, j) }}, nil
	}
	s := v.Split
	cost := dxCost(s.Input)
	for _, o := range s.Outputs {
		cost += dxCost(o)
	}
	return DxPlan{File: "stridescope-joinsplit.json", Cost: cost,
		Build: func(ctx context.Context) (*DxModel, []core.Violation) { return DxSplitModel(ctx, s) }}, nil
}

// DxJoinModel is a model that runs j on inputs holding the values the
// page shows (input k's elements numbered on from input k-1's: 1..6 and
// 7..14 for the DML_JOIN page's Example 1) and prints the output.
func DxJoinModel(ctx context.Context, j *core.Join) (*DxModel, []core.Violation) {
	if vs := dxCheckType("dataType", j.Output.DataType); vs != nil {
		return nil, vs
	}
	m := &DxModel{Resources: map[string]DxResource{}, Dispatchables: map[string]DxDispatchable{}}
	desc := DxJoinDesc{Axis: j.Axis, InputCount: len(j.Inputs), OutputTensor: dxTensorOf(j.Output, true)}
	names := make([]string, len(j.Inputs))
	first := int64(1)
	for k, in := range j.Inputs {
		res, vs := dxNumbered(ctx, in, first, fmt.Sprintf("inputs[%d].sizes", k))
		if vs != nil {
			return nil, vs
		}
		names[k] = fmt.Sprintf("input%d", k)
		m.Resources[names[k]] = res
		desc.InputTensors = append(desc.InputTensors, dxTensorOf(in, true))
		first += in.LogicalElementCount()
	}
	m.Resources["output"] = dxZeros(j.Output.DataType, j.Output.BufferElementCount())
	m.Dispatchables["join"] = DxDispatchable{Type: "DML_OPERATOR_JOIN", Desc: desc}
	m.Commands = []DxCommand{
		{Type: "dispatch", Dispatchable: "join", Bindings: map[string]any{"InputTensors": names, "OutputTensor": "output"}},
		{Type: "print", Resource: "output"},
	}
	return m, nil
}

// DxSplitModel is a model that runs s on an input holding 1..N and
// prints each output.
func DxSplitModel(ctx context.Context, s *core.Split) (*DxModel, []core.Violation) {
	if vs := dxCheckType("dataType", s.Input.DataType); vs != nil {
		return nil, vs
	}
	in, vs := dxNumbered(ctx, s.Input, 1, "inputSizes")
	if vs != nil {
		return nil, vs
	}
	m := &DxModel{Resources: map[string]DxResource{"input": in}, Dispatchables: map[string]DxDispatchable{}}
	desc := DxSplitDesc{Axis: s.Axis, InputTensor: dxTensorOf(s.Input, true), OutputCount: len(s.Outputs)}
	names := make([]string, len(s.Outputs))
	for k, o := range s.Outputs {
		names[k] = fmt.Sprintf("output%d", k)
		m.Resources[names[k]] = dxZeros(o.DataType, o.BufferElementCount())
		desc.OutputTensors = append(desc.OutputTensors, dxTensorOf(o, true))
	}
	m.Dispatchables["split"] = DxDispatchable{Type: "DML_OPERATOR_SPLIT", Desc: desc}
	m.Commands = []DxCommand{{Type: "dispatch", Dispatchable: "split", Bindings: map[string]any{"InputTensor": "input", "OutputTensors": names}}}
	for _, n := range names {
		m.Commands = append(m.Commands, DxCommand{Type: "print", Resource: n})
	}
	return m, nil
}

// dxNumbered is l's buffer with element i (row-major) holding first+i,
// a cell several elements share the first one's, padding 0: a sequence
// when the tensor is packed row-major, else its cells listed, up to
// MaxDxInitialValues.
func dxNumbered(ctx context.Context, l *core.Layout, first int64, field string) (DxResource, []core.Violation) {
	res := DxResource{InitialValuesDataType: l.DataType.String()}
	n, cells := l.LogicalElementCount(), l.BufferElementCount()
	e := l.DataType.Bits() / 8
	if total := l.BufferSizeInBytes(); total > n*e {
		res.SizeInBytes = total
	}
	if l.IsPacked().Bool() && rowMajor(l.Sizes, l.Strides) {
		res.InitialValues = json.RawMessage(fmt.Sprintf(`{"valueCount": %d, "valueStart": %d, "valueDelta": 1}`, n, first))
		return res, nil
	}
	if cells > MaxDxInitialValues {
		return res, []core.Violation{core.NewMsg("dxdispatch.joinsplit.large", "{field}: a buffer of {cells} cells is more than a model lists ({max}); DxDispatch's sequence fills only a packed row-major tensor", core.Args{"field": field, "cells": cells, "max": MaxDxInitialValues}).At(field)}
	}
	vals := make([]int64, cells)
	set := make([]bool, cells)
	offs, err := l.Offsets(n)
	if err != nil {
		return res, []core.Violation{core.ViolationOf(field, err)}
	}
	for i, o := range offs {
		if !set[o] {
			vals[o], set[o] = first+int64(i), true
		}
		if i&0xffff == 0 && ctx.Err() != nil {
			return res, []core.Violation{core.ViolationOf(field, ctx.Err())}
		}
	}
	parts := make([]string, cells)
	for i, v := range vals {
		parts[i] = fmt.Sprint(v)
	}
	res.InitialValues = json.RawMessage("[" + strings.Join(parts, ", ") + "]")
	return res, nil
}
