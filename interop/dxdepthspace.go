package interop

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"

	"context"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/ops/depthspace"
	"github.com/stridescope/stridescope/picture"
)

// DxDepthSpaceDesc is DML_DEPTH_TO_SPACE1_OPERATOR_DESC, which
// DML_SPACE_TO_DEPTH1_OPERATOR_DESC's fields are the same as.
type DxDepthSpaceDesc struct {
	InputTensor  DxTensor `json:"InputTensor"`
	OutputTensor DxTensor `json:"OutputTensor"`
	BlockSize    int64    `json:"BlockSize"`
	Order        string   `json:"Order"`
}

// depthSpaceDxPlan is the model of a depth-space state: the operator in
// both orders, one after the other, on the input the page shows, each
// output printed (DCR first, as the page draws them).
func depthSpaceDxPlan(q url.Values) (DxPlan, error) {
	v := depthspace.Validate(depthspace.StateFromQuery(q))
	if !v.OK() {
		return DxPlan{}, &explorer.Invalid{Violations: v.Errors}
	}
	in := v.DCR.Input
	return DxPlan{File: "stridescope-depthspace.json", Cost: dxCost(in) + 2*dxCost(v.DCR.Output),
		Build: func(ctx context.Context) (*DxModel, []core.Violation) { return DxDepthSpaceModel(v.DCR, v.CRD, v.Vals) }}, nil
}

// DxDepthSpaceModel is a model that runs dcr and crd, the same operator
// in its two orders, on an input whose elements hold vals (nil: 0, 1,
// 2 ... in row-major order, as the page numbers them; padding 0) and
// prints both outputs.
func DxDepthSpaceModel(dcr, crd *core.DepthSpace, vals []int64) (*DxModel, []core.Violation) {
	in := dcr.Input
	if vs := dxCheckType("dataType", in.DataType); vs != nil {
		return nil, vs
	}
	res, vs := dxIndexed(in, vals)
	if vs != nil {
		return nil, vs
	}
	m := &DxModel{Resources: map[string]DxResource{"input": res}, Dispatchables: map[string]DxDispatchable{}}
	for _, s := range []*core.DepthSpace{dcr, crd} {
		name, out := "dcr", "outputDCR"
		if s.Order == core.ColumnRowDepth {
			name, out = "crd", "outputCRD"
		}
		m.Resources[out] = dxZeros(s.Output.DataType, s.OutputElementCount())
		m.Dispatchables[name] = DxDispatchable{Type: "DML_OPERATOR_" + s.Op.OperatorName()[len("DML_"):], Desc: DxDepthSpaceDesc{
			InputTensor: dxTensorOf(in, true), OutputTensor: dxTensorOf(s.Output, false),
			BlockSize: s.BlockSize, Order: "DML_DEPTH_SPACE_ORDER_" + s.Order.String(),
		}}
		m.Commands = append(m.Commands,
			DxCommand{Type: "dispatch", Dispatchable: name, Bindings: map[string]any{"InputTensor": "input", "OutputTensor": out}},
			DxCommand{Type: "print", Resource: out})
	}
	return m, nil
}

// dxIndexed is an input buffer whose element i (row-major) holds vals[i]
// or i, a cell several elements share the first one's, padding 0: a
// sequence from 0 when the input is packed in row-major order and has
// no typed values, else up to MaxDxInitialValues values.
func dxIndexed(in *core.Layout, vals []int64) (DxResource, []core.Violation) {
	res := DxResource{InitialValuesDataType: in.DataType.String()}
	cells, n := in.BufferElementCount(), in.LogicalElementCount()
	elem, total := in.DataType.Bits()/8, in.BufferSizeInBytes()
	if limit := sequenceLimit(in.DataType); vals == nil && n-1 > limit {
		return res, []core.Violation{core.NewMsg("dxdispatch.index.range",
			"{n} elements numbered 0 to {last}: {type} holds whole numbers exactly only up to {limit}; type the input's values or choose a wider type",
			core.Args{"n": n, "last": n - 1, "type": in.DataType, "limit": limit}).At("dataType")}
	}
	// DxDispatch binds a resource at its values' bytes (rounded up to 4)
	// unless sizeInBytes says more: a longer buffer says so.
	if vals == nil && in.IsPacked().Bool() && rowMajor(in.Sizes, in.Strides) {
		if total > n*elem {
			res.SizeInBytes = total
		}
		res.InitialValues = json.RawMessage(fmt.Sprintf(`{"valueCount": %d, "valueStart": 0, "valueDelta": 1}`, n))
		return res, nil
	}
	if total > cells*elem {
		res.SizeInBytes = total
	}
	if cells > MaxDxInitialValues {
		return res, []core.Violation{core.NewMsg("dxdispatch.values",
			"the input buffer has {cells} cells; a model lists at most {max} initial values, and these are not the sequence 1..N (only a packed input without typed values is)",
			core.Args{"cells": cells, "max": MaxDxInitialValues}).At("inputSizes")}
	}
	cell := make([]int64, cells)
	set := make([]bool, cells)
	offs := make([]int64, n)
	compute.Offsets(compute.LayoutWalk(in), 0, offs)
	for i, o := range offs {
		if !set[o] {
			set[o], cell[o] = true, int64(i)
			if vals != nil {
				cell[o] = vals[i]
			}
		}
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for k, v := range cell {
		if k > 0 {
			b.WriteString(", ")
		}
		if !set[k] {
			v = 0
		}
		b.WriteString(strconv.FormatInt(v, 10))
	}
	b.WriteByte(']')
	res.InitialValues = b.Bytes()
	return res, nil
}

// importDxDepthSpace reads a DML_DEPTH_TO_SPACE1 or DML_SPACE_TO_DEPTH1
// desc: its input, BlockSize and Order, validated as the endpoints do
// (each violation at the model's field), into the depth-space page,
// which draws both orders.
func importDxDepthSpace(name, opType, path string, desc json.RawMessage) (*ImportResponse, *ImportError) {
	var op struct {
		InputTensor  json.RawMessage `json:"InputTensor"`
		OutputTensor json.RawMessage `json:"OutputTensor"`
		BlockSize    *int64          `json:"BlockSize"`
		Order        string          `json:"Order"`
	}
	// Other fields are passed over. The page derives the output from the
	// input and the block; a model's OutputTensor must be that output.
	if err := decodeInto(desc, path, &op, true); err != nil {
		return nil, err
	}
	var in, out dxTensorIn
	var vs []core.Violation
	inErr := in.read(op.InputTensor, path+".InputTensor")
	if inErr != nil {
		vs = append(vs, inErr.Violations...)
	}
	var outErr *ImportError
	if len(op.OutputTensor) > 0 {
		if outErr = out.read(op.OutputTensor, path+".OutputTensor"); outErr != nil {
			vs = append(vs, outErr.Violations...)
		}
	}
	kind := core.DepthToSpace
	if dxOperatorName(opType) == "SPACE_TO_DEPTH1" {
		kind = core.SpaceToDepth
	}
	// Every rule at once: the operator's when the input could be read,
	// the output's (its sizes only where the operator derives them).
	var req depthspace.Request
	var s *core.DepthSpace
	if inErr == nil {
		total := in.TotalTensorSizeInBytes
		if total != nil && *total == 0 {
			total = nil // DxDispatch's default: computed
		}
		req = depthspace.Request{DataType: dxTypeName(in.DataType), InputSizes: in.Sizes, InputStrides: in.Strides,
			InputTotalTensorSizeInBytes: total, InputGuaranteedBaseOffsetAlignment: in.GuaranteedBaseOffsetAlignment,
			BlockSize: op.BlockSize, Order: op.Order}
		var inv *picture.Invalid
		if s, inv = req.DepthSpace(kind); inv != nil {
			vs = append(vs, renameAll(inv.Violations, map[string]string{
				"dataType": "InputTensor.DataType", "inputSizes": "InputTensor.Sizes", "inputStrides": "InputTensor.Strides",
				"inputTotalTensorSizeInBytes": "InputTensor.TotalTensorSizeInBytes", "inputGuaranteedBaseOffsetAlignment": "InputTensor.GuaranteedBaseOffsetAlignment",
				"blockSize": "BlockSize", "order": "Order",
			}, path+".")...)
		}
	}
	if inErr == nil && outErr == nil && len(op.OutputTensor) > 0 {
		var sizes []int64
		if s != nil {
			sizes = s.Output.Sizes
		}
		vs = append(vs, dxOutputOf(op.OutputTensor, path+".OutputTensor", opType, in, sizes)...)
		vs = append(vs, dxWritten(out, path+".OutputTensor")...)
	}
	if len(vs) > 0 {
		return nil, &ImportError{Violations: distinct(vs)}
	}
	notes := []core.Msg{fromNote(name, opType), core.NewMsg("import.note.dx.order", "the model's order is {order}; the page draws both orders side by side.", core.Args{"order": s.Order.String()})}
	return &ImportResponse{Page: "depthspace", URL: "/depthspace?" + depthspace.QueryOf(s), DepthSpace: &req, Notes: englishNotes(notes), notes: notes}, nil
}
