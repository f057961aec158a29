package interop

import (
	"encoding/json"
	"math"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/ops/padding1"
	"github.com/stridescope/stridescope/ops/tile"
	"github.com/stridescope/stridescope/picture"
)

// importDxPadding1 reads a DML_PADDING1 into the padding page: the input
// tensor, the mode, the paddings and the value (a DML_SCALAR_UNION: a
// number, or an object naming the member of its type, as DxDispatch reads
// it). The output tensor is the page's own, packed: given sizes must be
// input + start + end.
//
// DxDispatch's generated parser reads a scalar union's type from the
// desc's ValueDataType, whatever the union's field is called
// (ParseDmlScalarUnionField(value, "PaddingValue", "ValueDataType")), and
// takes from an object only the member of that type ("Float32" for
// FLOAT32, the bits in "UInt16" for FLOAT16): a model without
// ValueDataType, or whose union names another member, is one DxDispatch
// refuses, and one whose ValueDataType is not the output's fills the
// union as one type while DirectML reads it as another.
func importDxPadding1(name, opType, path string, desc json.RawMessage) (*ImportResponse, *ImportError) {
	var op struct {
		InputTensor          json.RawMessage `json:"InputTensor"`
		OutputTensor         json.RawMessage `json:"OutputTensor"`
		PaddingMode          string          `json:"PaddingMode"`
		PaddingValueDataType string          `json:"PaddingValueDataType"`
		ValueDataType        *string         `json:"ValueDataType"`
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
	inErr := in.read(op.InputTensor, prefix+"InputTensor")
	if inErr != nil {
		vs = append(vs, inErr.Violations...)
	}
	var outErr *ImportError
	if len(op.OutputTensor) > 0 {
		if outErr = out.read(op.OutputTensor, prefix+"OutputTensor"); outErr != nil {
			vs = append(vs, outErr.Violations...)
		}
	}
	output := dxTypeName(in.DataType)
	if t := dxTypeName(op.PaddingValueDataType); t != "" && in.DataType != "" && t != output {
		vs = append(vs, core.NewMsg("import.dx.padding.valuetype", "PaddingValueDataType {type} is not the output's DataType {output}: DML_PADDING1 requires them equal", core.Args{"type": t, "output": output}).At(prefix+"PaddingValueDataType"))
	}
	unionType := output
	switch {
	case op.ValueDataType == nil:
		vs = append(vs, core.NewMsg("import.dx.union.type.missing", "ValueDataType is missing: DxDispatch reads the type of PaddingValue (a DML_SCALAR_UNION) from ValueDataType, and refuses a model without it", nil).At(prefix+"ValueDataType"))
	case dxTypeName(*op.ValueDataType) != output && in.DataType != "":
		vs = append(vs, core.NewMsg("import.dx.union.type", "ValueDataType {type} is not the output's DataType {output}: DxDispatch would fill PaddingValue as a {type} and DirectML read it as a {output}", core.Args{"type": dxTypeName(*op.ValueDataType), "output": output}).At(prefix+"ValueDataType"))
		unionType = dxTypeName(*op.ValueDataType)
	}
	value, verr := dxScalarIn(op.PaddingValue, unionType, prefix+"PaddingValue")
	if verr != nil {
		vs = append(vs, verr.Violations...)
	}
	if inErr == nil && op.DimensionCount != nil && *op.DimensionCount != int64(len(in.Sizes)) {
		vs = append(vs, core.NewMsg("import.dx.op.rank", "DimensionCount = {rank} but InputTensor.Sizes has {count}", core.Args{"rank": *op.DimensionCount, "count": core.Count{N: int64(len(in.Sizes)), Unit: "values"}}).At(prefix+"DimensionCount"))
	}
	// Every rule at once: the desc's own fields above, the operator's
	// (core's) when the input could be read, and the output's own.
	var req padding1.Request
	var p *core.Padding1
	if inErr == nil {
		total := in.TotalTensorSizeInBytes
		if total != nil && *total == 0 {
			total = nil // DxDispatch's default: computed
		}
		req = padding1.Request{DataType: dxTypeName(in.DataType), InputSizes: in.Sizes, InputStrides: in.Strides,
			InputTotalTensorSizeInBytes: total, InputGuaranteedBaseOffsetAlignment: in.GuaranteedBaseOffsetAlignment,
			PaddingMode: op.PaddingMode, PaddingValue: value, StartPadding: op.StartPadding, EndPadding: op.EndPadding, OutputSizes: out.Sizes}
		var inv *picture.Invalid
		if p, inv = req.Padding1(); inv != nil {
			vs = append(vs, renameAll(inv.Violations, map[string]string{
				"dataType": "InputTensor.DataType", "inputSizes": "InputTensor.Sizes", "inputStrides": "InputTensor.Strides",
				"inputTotalTensorSizeInBytes": "InputTensor.TotalTensorSizeInBytes", "inputGuaranteedBaseOffsetAlignment": "InputTensor.GuaranteedBaseOffsetAlignment",
				"paddingMode": "PaddingMode", "paddingValue": "PaddingValue", "startPadding": "StartPadding", "endPadding": "EndPadding", "outputSizes": "OutputTensor.Sizes",
			}, prefix)...)
		}
	}
	if inErr == nil && outErr == nil && len(op.OutputTensor) > 0 {
		// Sizes are core's rule (input + start + end, at each size).
		vs = append(vs, dxOutputOf(op.OutputTensor, prefix+"OutputTensor", opType, in, nil)...)
		vs = append(vs, dxWritten(out, prefix+"OutputTensor")...)
	}
	if len(vs) > 0 {
		return nil, &ImportError{Violations: distinct(vs)}
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
	want, known := unionMembers[dt]
	for k, x := range m {
		if known && k != want {
			return nil, importErr(path, "import.dx.scalar.member", "{field} names the member {member}, but DxDispatch reads a {type} from the member {want} ({\"{want}\": …}) and refuses the model without it", core.Args{"field": path, "member": k, "type": dt, "want": want})
		}
		v = x
		if k == "UInt16" && dt == "FLOAT16" && x >= 0 && x < 1<<16 {
			v = halfValue(uint16(x))
		}
	}
	return &v, nil
}

// unionMembers is the DML_SCALAR_UNION member DxDispatch's
// ParseDmlScalarUnion reads from an object for each data type (a FLOAT16
// is its bits). Its other types (the 4-bit ones) it refuses, as core's
// rules do.
var unionMembers = map[string]string{
	"FLOAT16": "UInt16", "FLOAT32": "Float32", "FLOAT64": "Float64",
	"UINT8": "UInt8", "UINT16": "UInt16", "UINT32": "UInt32", "UINT64": "UInt64",
	"INT8": "Int8", "INT16": "Int16", "INT32": "Int32", "INT64": "Int64",
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
	inErr := in.read(op.InputTensor, prefix+"InputTensor")
	if inErr != nil {
		vs = append(vs, inErr.Violations...)
	}
	var outErr *ImportError
	if len(op.OutputTensor) > 0 {
		if outErr = out.read(op.OutputTensor, prefix+"OutputTensor"); outErr != nil {
			vs = append(vs, outErr.Violations...)
		}
	}
	if op.RepeatsCount != nil && *op.RepeatsCount != int64(len(op.Repeats)) {
		vs = append(vs, core.NewMsg("import.dx.op.count", "{field} = {n} but {array} has {count}", core.Args{"field": prefix + "RepeatsCount", "n": *op.RepeatsCount, "array": prefix + "Repeats", "count": core.Count{N: int64(len(op.Repeats)), Unit: "values"}}).At(prefix+"RepeatsCount"))
	}
	// Every rule at once, as for DML_PADDING1.
	var req tile.Request
	var t *core.Tile
	if inErr == nil {
		total := in.TotalTensorSizeInBytes
		if total != nil && *total == 0 {
			total = nil
		}
		req = tile.Request{DataType: dxTypeName(in.DataType), InputSizes: in.Sizes, InputStrides: in.Strides,
			InputTotalTensorSizeInBytes: total, InputGuaranteedBaseOffsetAlignment: in.GuaranteedBaseOffsetAlignment, Repeats: op.Repeats, OutputSizes: out.Sizes}
		var inv *picture.Invalid
		if t, inv = req.Tile(); inv != nil {
			vs = append(vs, renameAll(inv.Violations, map[string]string{
				"dataType": "InputTensor.DataType", "inputSizes": "InputTensor.Sizes", "inputStrides": "InputTensor.Strides",
				"inputTotalTensorSizeInBytes": "InputTensor.TotalTensorSizeInBytes", "inputGuaranteedBaseOffsetAlignment": "InputTensor.GuaranteedBaseOffsetAlignment",
				"repeats": "Repeats", "outputSizes": "OutputTensor.Sizes",
			}, prefix)...)
		}
	}
	if inErr == nil && outErr == nil && len(op.OutputTensor) > 0 {
		// Sizes are core's rule (input x repeats, at each size).
		vs = append(vs, dxOutputOf(op.OutputTensor, prefix+"OutputTensor", opType, in, nil)...)
		vs = append(vs, dxWritten(out, prefix+"OutputTensor")...)
	}
	if len(vs) > 0 {
		return nil, &ImportError{Violations: distinct(vs)}
	}
	st := tile.StateOf(tile.Validated{T: t})
	notes := []core.Msg{fromNote(name, opType)}
	return &ImportResponse{Page: "tile", URL: "/tile?" + st.CanonicalQuery(false), Tile: &req, Notes: englishNotes(notes), notes: notes}, nil
}
