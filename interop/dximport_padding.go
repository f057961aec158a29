package interop

import (
	"encoding/json"
	"math"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/ops/padding1"
	"github.com/stridescope/stridescope/ops/tile"
)

// importDxPadding1 reads a DML_PADDING1 into the padding page: the input
// tensor, the mode, the paddings and the value (a DML_SCALAR_UNION: a
// number, or an object naming the member of PaddingValueDataType, as
// DxDispatch reads it). The output tensor is the page's own, packed:
// given sizes must be input + start + end.
func importDxPadding1(name, opType, path string, desc json.RawMessage) (*ImportResponse, *ImportError) {
	var op struct {
		InputTensor          json.RawMessage `json:"InputTensor"`
		OutputTensor         json.RawMessage `json:"OutputTensor"`
		PaddingMode          string          `json:"PaddingMode"`
		PaddingValueDataType string          `json:"PaddingValueDataType"`
		PaddingValue         json.RawMessage `json:"PaddingValue"`
		DimensionCount       *int64          `json:"DimensionCount"`
		StartPadding         []int64         `json:"StartPadding"`
		EndPadding           []int64         `json:"EndPadding"`
	}
	if err := decodeInto(desc, path, &op, true); err != nil {
		return nil, err
	}
	prefix := path + "."
	var in, out dxTensorIn
	var vs []core.Violation
	if err := in.read(op.InputTensor, prefix+"InputTensor"); err != nil {
		vs = append(vs, err.Violations...)
	}
	if len(op.OutputTensor) > 0 {
		if err := out.read(op.OutputTensor, prefix+"OutputTensor"); err != nil {
			vs = append(vs, err.Violations...)
		}
	}
	value, verr := dxScalarIn(op.PaddingValue, dxTypeName(in.DataType), prefix+"PaddingValue")
	if verr != nil {
		vs = append(vs, verr.Violations...)
	}
	if t := dxTypeName(op.PaddingValueDataType); t != "" && in.DataType != "" && t != dxTypeName(in.DataType) {
		vs = append(vs, core.NewMsg("import.dx.padding.valuetype", "PaddingValueDataType {type} is not the output's DataType {output}: DML_PADDING1 requires them equal", core.Args{"type": t, "output": dxTypeName(in.DataType)}).At(prefix+"PaddingValueDataType"))
	}
	if len(vs) > 0 {
		return nil, &ImportError{Violations: vs}
	}
	total := in.TotalTensorSizeInBytes
	if total != nil && *total == 0 {
		total = nil // DxDispatch's default: computed
	}
	req := padding1.Request{DataType: dxTypeName(in.DataType), InputSizes: in.Sizes, InputStrides: in.Strides,
		InputTotalTensorSizeInBytes: total, InputGuaranteedBaseOffsetAlignment: in.GuaranteedBaseOffsetAlignment,
		PaddingMode: op.PaddingMode, PaddingValue: value, StartPadding: op.StartPadding, EndPadding: op.EndPadding, OutputSizes: out.Sizes}
	p, inv := req.Padding1()
	if inv != nil {
		return nil, &ImportError{Violations: renameAll(inv.Violations, map[string]string{
			"dataType": "InputTensor.DataType", "inputSizes": "InputTensor.Sizes", "inputStrides": "InputTensor.Strides",
			"inputTotalTensorSizeInBytes": "InputTensor.TotalTensorSizeInBytes", "inputGuaranteedBaseOffsetAlignment": "InputTensor.GuaranteedBaseOffsetAlignment",
			"paddingMode": "PaddingMode", "paddingValue": "PaddingValue", "startPadding": "StartPadding", "endPadding": "EndPadding", "outputSizes": "OutputTensor.Sizes",
		}, prefix)}
	}
	st := padding1.StateOf(padding1.Validated{P: p})
	notes := []core.Msg{fromNote(name, opType)}
	return &ImportResponse{Page: "padding", URL: "/padding?" + st.CanonicalQuery(false), Padding1: &req, Notes: englishNotes(notes), notes: notes}, nil
}

// dxScalarIn reads a DML_SCALAR_UNION of type dt as a number: a JSON
// number, or an object of one member ({"Float32": 9}; a FLOAT16 is its
// bits in {"UInt16": 18560}, read back as the value they hold). Absent
// is nil (0).
func dxScalarIn(raw json.RawMessage, dt, path string) (*float64, *ImportError) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var v float64
	if json.Unmarshal(raw, &v) == nil {
		return &v, nil
	}
	var m map[string]float64
	if err := json.Unmarshal(raw, &m); err != nil || len(m) != 1 {
		return nil, importErr(path, "import.dx.scalar", "{field} must be a number or an object of one DML_SCALAR_UNION member ({\"Float32\": 9})", core.Args{"field": path})
	}
	for k, x := range m {
		v = x
		if k == "UInt16" && dt == "FLOAT16" && x >= 0 && x < 1<<16 {
			v = halfValue(uint16(x))
		}
	}
	return &v, nil
}

// halfValue is the value of IEEE half bits h.
func halfValue(h uint16) float64 {
	sign, exp, frac := 1.0, int(h>>10)&0x1f, float64(h&0x3ff)
	if h&0x8000 != 0 {
		sign = -1
	}
	switch exp {
	case 0:
		return sign * math.Ldexp(frac, -24)
	case 0x1f:
		if frac != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	}
	return sign * math.Ldexp(1024+frac, exp-25)
}

// importDxTile reads a DML_TILE into the tile page.
func importDxTile(name, opType, path string, desc json.RawMessage) (*ImportResponse, *ImportError) {
	var op struct {
		InputTensor  json.RawMessage `json:"InputTensor"`
		OutputTensor json.RawMessage `json:"OutputTensor"`
		RepeatsCount *int64          `json:"RepeatsCount"`
		Repeats      []int64         `json:"Repeats"`
	}
	if err := decodeInto(desc, path, &op, true); err != nil {
		return nil, err
	}
	prefix := path + "."
	var in, out dxTensorIn
	var vs []core.Violation
	if err := in.read(op.InputTensor, prefix+"InputTensor"); err != nil {
		vs = append(vs, err.Violations...)
	}
	if len(op.OutputTensor) > 0 {
		if err := out.read(op.OutputTensor, prefix+"OutputTensor"); err != nil {
			vs = append(vs, err.Violations...)
		}
	}
	if op.RepeatsCount != nil && *op.RepeatsCount != int64(len(op.Repeats)) {
		vs = append(vs, core.NewMsg("import.dx.op.rank", "DimensionCount = {rank} but InputTensor.Sizes has {count}", core.Args{"rank": *op.RepeatsCount, "count": core.Count{N: int64(len(op.Repeats)), Unit: "values"}}).At(prefix+"RepeatsCount"))
	}
	if len(vs) > 0 {
		return nil, &ImportError{Violations: vs}
	}
	total := in.TotalTensorSizeInBytes
	if total != nil && *total == 0 {
		total = nil
	}
	req := tile.Request{DataType: dxTypeName(in.DataType), InputSizes: in.Sizes, InputStrides: in.Strides,
		InputTotalTensorSizeInBytes: total, InputGuaranteedBaseOffsetAlignment: in.GuaranteedBaseOffsetAlignment, Repeats: op.Repeats, OutputSizes: out.Sizes}
	t, inv := req.Tile()
	if inv != nil {
		return nil, &ImportError{Violations: renameAll(inv.Violations, map[string]string{
			"dataType": "InputTensor.DataType", "inputSizes": "InputTensor.Sizes", "inputStrides": "InputTensor.Strides",
			"inputTotalTensorSizeInBytes": "InputTensor.TotalTensorSizeInBytes", "inputGuaranteedBaseOffsetAlignment": "InputTensor.GuaranteedBaseOffsetAlignment",
			"repeats": "Repeats", "outputSizes": "OutputTensor.Sizes",
		}, prefix)}
	}
	st := tile.StateOf(tile.Validated{T: t})
	notes := []core.Msg{fromNote(name, opType)}
	return &ImportResponse{Page: "tile", URL: "/tile?" + st.CanonicalQuery(false), Tile: &req, Notes: englishNotes(notes), notes: notes}, nil
}
