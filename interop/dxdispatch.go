package interop

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"

	"github.com/stridescope/stridescope/ops/slice1"

	"github.com/stridescope/stridescope/core"
)

// DxDispatch model files (Microsoft's DirectML DxDispatch, models/*.json):
// resources (buffers with initial values), dispatchables (a DirectML
// operator and its desc, field names as in DirectML.h) and commands
// (dispatch, print). Only what stridescope writes and reads is modelled.

// DxModel is a DxDispatch model file.
type DxModel struct {
	Resources     map[string]DxResource     `json:"resources"`
	Dispatchables map[string]DxDispatchable `json:"dispatchables"`
	Commands      []DxCommand               `json:"commands"`
}

// DxResource is a buffer and its initial contents.
type DxResource struct {
	InitialValuesDataType string `json:"initialValuesDataType"`
	// InitialValues is an array of values or a {valueCount, value} or
	// {valueCount, valueStart, valueDelta} initializer.
	InitialValues json.RawMessage `json:"initialValues"`
	SizeInBytes   int64           `json:"sizeInBytes,omitempty"`
}

// DxDispatchable is a DirectML operator: its DML_OPERATOR_TYPE name and
// desc.
type DxDispatchable struct {
	Type string `json:"type"`
	Desc any    `json:"desc"`
}

// DxCommand is a dispatch of a dispatchable with its bindings, or a print
// of a resource.
type DxCommand struct {
	Type         string `json:"type"`
	Dispatchable string `json:"dispatchable,omitempty"`
	// Bindings name a resource a tensor, or a list of them for an
	// array of tensors (DML_JOIN's InputTensors).
	Bindings map[string]any `json:"bindings,omitempty"`
	Resource string         `json:"resource,omitempty"`
}

// DxTensor is a DML_BUFFER_TENSOR_DESC in DxDispatch's short form
// (DML_TENSOR_TYPE_BUFFER implied). Strides are omitted for a packed
// tensor, as DirectML reads a null Strides.
type DxTensor struct {
	DataType                      string  `json:"DataType"`
	Sizes                         []int64 `json:"Sizes"`
	Strides                       []int64 `json:"Strides,omitempty"`
	TotalTensorSizeInBytes        int64   `json:"TotalTensorSizeInBytes,omitempty"`
	GuaranteedBaseOffsetAlignment int64   `json:"GuaranteedBaseOffsetAlignment,omitempty"`
}

// DxSlice1Desc is DML_SLICE1_OPERATOR_DESC.
type DxSlice1Desc struct {
	InputTensor        DxTensor `json:"InputTensor"`
	OutputTensor       DxTensor `json:"OutputTensor"`
	DimensionCount     int      `json:"DimensionCount"`
	InputWindowOffsets []int64  `json:"InputWindowOffsets"`
	InputWindowSizes   []int64  `json:"InputWindowSizes"`
	InputWindowStrides []int64  `json:"InputWindowStrides"`
}

// DxIdentityDesc is DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC; ScaleBias
// nil is its nullptr.
type DxIdentityDesc struct {
	InputTensor  DxTensor     `json:"InputTensor"`
	OutputTensor DxTensor     `json:"OutputTensor"`
	ScaleBias    *DxScaleBias `json:"ScaleBias,omitempty"`
}

// DxScaleBias is a DML_SCALE_BIAS, its fields named as in DirectML.h (as
// DxDispatch names every struct's). The model schema does not list it;
// DxDispatch's JSON parser (microsoft/DirectML, DxDispatch's
// JsonParsers.cpp, ParseDmlScaleBias) reads a desc's "ScaleBias" field as
// an object of FLOATs "Scale" and "Bias", which is this.
type DxScaleBias struct {
	Scale float32 `json:"Scale"`
	Bias  float32 `json:"Bias"`
}

// DxIdentityModel is a model that runs the layout conversion id on an
// input holding 1..N in its elements' cells (as DxLayoutModel fills one)
// and prints the output buffer: both tensors as described, buffers and
// strides, so that DxDispatch shows where each element lands.
func DxIdentityModel(ctx context.Context, id *core.Identity) (*DxModel, []core.Violation) {
	if vs := dxCheckType("dataType", id.Input.DataType); vs != nil {
		return nil, vs
	}
	in, vs := dxInput(ctx, id.Input, nil, "sizes")
	if vs != nil {
		return nil, vs
	}
	desc := DxIdentityDesc{InputTensor: dxTensorOf(id.Input, true), OutputTensor: dxTensorOf(id.Output, true)}
	if sb := id.ScaleBias; sb != nil {
		desc.ScaleBias = &DxScaleBias{Scale: float32(sb.Scale), Bias: float32(sb.Bias)}
	}
	return &DxModel{
		Resources:     map[string]DxResource{"input": in, "output": dxZeros(id.Output.DataType, id.Output.BufferElementCount())},
		Dispatchables: map[string]DxDispatchable{"identity": {Type: "DML_OPERATOR_ELEMENT_WISE_IDENTITY", Desc: desc}},
		Commands:      dxRun("identity"),
	}, nil
}

// MaxDxInitialValues is the most initial values a model lists: a larger
// input is written as a sequence when the page's values are one.
const MaxDxInitialValues = 1 << 16

// DxRunCommand is how the README says to run an exported model.
const DxRunCommand = "dxdispatch.exe stridescope.json"

func dxTensorOf(l *core.Layout, withBuffer bool) DxTensor {
	t := DxTensor{DataType: l.DataType.String(), Sizes: l.Sizes}
	if !l.StridesImplicit {
		t.Strides = l.Strides
	}
	if withBuffer {
		// DxDispatch computes DMLCalcBufferTensorSize when the total is
		// absent: only a larger one is written.
		if total := l.BufferSizeInBytes(); total > l.MinimumBufferSizeInBytes() {
			t.TotalTensorSizeInBytes = total
		}
		t.GuaranteedBaseOffsetAlignment = l.GuaranteedBaseOffsetAlignment
	}
	return t
}

// dxCheckType refuses the data types DxDispatch cannot initialise.
func dxCheckType(field string, dt core.DataType) []core.Violation {
	if dt.Bits() < 8 {
		return []core.Violation{core.NewMsg("dxdispatch.4bit", "{type}: DxDispatch's models have no 4-bit data types (its initialValuesDataType is one of FLOAT16, FLOAT32, FLOAT64, UINT8 ... INT64), so no model can hold this tensor", core.Args{"type": dt}).At(field)}
	}
	return nil
}

// dxInput is the input buffer as the explorers show it: element i
// (row-major) holds its value (1..N, or the typed values repeated), a
// cell several elements share holds the first one's, padding is 0. It is
// a sequence initializer when that is exactly what the buffer holds,
// else up to MaxDxInitialValues values.
func dxInput(ctx context.Context, in *core.Layout, vals []slice1.Value, field string) (DxResource, []core.Violation) {
	res := DxResource{InitialValuesDataType: in.DataType.String()}
	cells, n := in.BufferElementCount(), in.LogicalElementCount()
	elem := in.DataType.Bits() / 8
	// Packed in row-major order, the page's 1..N fill the first N cells in
	// order; the cells past them are the buffer's tail (a byte tensor's
	// DWORD rounding, or TotalTensorSizeInBytes past the minimum), which
	// no element reads. Packed in another order (strides {1,2} for sizes
	// {2,3}), the cells hold 1 4 2 5 3 6, which are listed.
	plain := in.IsPacked().Bool() && rowMajor(in.Sizes, in.Strides) && len(vals) == 0
	limit := sequenceLimit(in.DataType)
	// A buffer longer than its values is bound at its own size: DxDispatch
	// binds a resource's sizeInBytes, which defaults to its values' bytes
	// rounded up to 4.
	total := in.BufferSizeInBytes()
	if plain && n <= limit {
		if total > n*elem {
			res.SizeInBytes = total
		}
		res.InitialValues = json.RawMessage(fmt.Sprintf(`{"valueCount": %d, "valueStart": 1, "valueDelta": 1}`, n))
		return res, nil
	}
	if total > cells*elem {
		res.SizeInBytes = total
	}
	switch {
	case cells <= MaxDxInitialValues:
	case plain:
		return res, []core.Violation{core.NewMsg("dxdispatch.values.exact",
			"the input buffer has {cells} cells; a model lists at most {max} initial values, and DxDispatch's sequence 1, 2, 3… is not what the page holds: {type} holds the integers exactly only up to {limit}",
			core.Args{"cells": cells, "max": MaxDxInitialValues, "type": in.DataType, "limit": limit}).At(field)}
	default:
		return res, []core.Violation{core.NewMsg("dxdispatch.values",
			"the input buffer has {cells} cells; a model lists at most {max} initial values, and these are not the sequence 1..N (only a packed input without typed values is)",
			core.Args{"cells": cells, "max": MaxDxInitialValues}).At(field)}
	}
	buf := make([]byte, cells*elem)
	if err := slice1.FillInput(ctx, buf, in, vals); err != nil {
		return res, []core.Violation{{Field: field, Message: err.Error()}}
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for k := range cells {
		if k > 0 {
			b.WriteString(", ")
		}
		b.WriteString(dxNumber(slice1.ValueText(buf[k*elem:], in.DataType)))
	}
	b.WriteByte(']')
	res.InitialValues = b.Bytes()
	return res, nil
}

// rowMajor reports whether strides step through sizes in row-major
// order: each dimension of more than one element has the packed stride (a
// dimension of one element is never stepped along).
func rowMajor(sizes, strides []int64) bool {
	packed := core.PackedStrides(sizes)
	for i, n := range sizes {
		if n > 1 && strides[i] != packed[i] {
			return false
		}
	}
	return true
}

// sequenceLimit is the longest DxDispatch sequence 1, 2, ... n that holds
// the same values as the page's 1..N in dt: up to it every value is exact
// in the type.
func sequenceLimit(dt core.DataType) int64 {
	return map[core.DataType]int64{
		core.Float16: 2048, core.Float32: 1 << 24, core.Float64: 1 << 53,
		core.Int8: math.MaxInt8, core.UInt8: math.MaxUint8, core.Int16: math.MaxInt16, core.UInt16: math.MaxUint16,
		core.Int32: math.MaxInt32, core.UInt32: math.MaxUint32, core.Int64: math.MaxInt64, core.UInt64: math.MaxInt64,
	}[dt]
}

// dxNumber writes a value as DxDispatch reads it: a JSON number, or
// "inf", "-inf", "nan" for floats that JSON cannot hold. A float's
// negative zero (ValueText's "-0"; an integer type has none) is written
// -0.0: DxDispatch's JSON parser reads -0 as the integer 0, which fills
// the buffer with +0 and drops the sign bit the page shows.
func dxNumber(text string) string {
	switch text {
	case "+Inf":
		return `"inf"`
	case "-Inf":
		return `"-inf"`
	case "NaN":
		return `"nan"`
	case "-0":
		return "-0.0"
	}
	return text
}

func dxZeros(dt core.DataType, n int64) DxResource {
	return DxResource{InitialValuesDataType: dt.String(), InitialValues: json.RawMessage(fmt.Sprintf(`{"valueCount": %d, "value": 0}`, n))}
}

// dxRun is the commands of a model: dispatch op with its tensors bound to
// the resources input and output, then print the output.
func dxRun(op string) []DxCommand {
	return []DxCommand{
		{Type: "dispatch", Dispatchable: op, Bindings: map[string]any{"InputTensor": "input", "OutputTensor": "output"}},
		{Type: "print", Resource: "output"},
	}
}

// DxSlice1Model is a model that runs s on an input holding the values the
// slice explorer shows (vals nil: 1..N) and prints the output.
func DxSlice1Model(ctx context.Context, s *core.Slice1, vals []slice1.Value) (*DxModel, []core.Violation) {
	if vs := dxCheckType("dataType", s.Input.DataType); vs != nil {
		return nil, vs
	}
	in, vs := dxInput(ctx, s.Input, vals, "inputSizes")
	if vs != nil {
		return nil, vs
	}
	return &DxModel{
		Resources: map[string]DxResource{"input": in, "output": dxZeros(s.Output.DataType, s.OutputElementCount())},
		Dispatchables: map[string]DxDispatchable{"slice": {Type: "DML_OPERATOR_SLICE1", Desc: DxSlice1Desc{
			InputTensor:        dxTensorOf(s.Input, true),
			OutputTensor:       dxTensorOf(s.Output, false),
			DimensionCount:     s.Input.Rank(),
			InputWindowOffsets: s.WindowOffsets,
			InputWindowSizes:   s.WindowSizes,
			InputWindowStrides: s.WindowStrides,
		}}},
		Commands: dxRun("slice"),
	}, nil
}

// DxLayoutModel is a model that copies the strided tensor l into a packed
// one with DML_OPERATOR_ELEMENT_WISE_IDENTITY and prints it: the elements
// in logical order, each the value of the first element stored in its
// cell (broadcast and overlapping elements repeat it).
func DxLayoutModel(ctx context.Context, l *core.Layout) (*DxModel, []core.Violation) {
	if vs := dxCheckType("dataType", l.DataType); vs != nil {
		return nil, vs
	}
	in, vs := dxInput(ctx, l, nil, "sizes")
	if vs != nil {
		return nil, vs
	}
	out := DxTensor{DataType: l.DataType.String(), Sizes: l.Sizes}
	return &DxModel{
		Resources: map[string]DxResource{"input": in, "output": dxZeros(l.DataType, l.LogicalElementCount())},
		Dispatchables: map[string]DxDispatchable{"identity": {Type: "DML_OPERATOR_ELEMENT_WISE_IDENTITY", Desc: DxIdentityDesc{
			InputTensor: dxTensorOf(l, true), OutputTensor: out,
		}}},
		Commands: dxRun("identity"),
	}, nil
}

// MarshalDxModel writes m as a model file, indented as DxDispatch's are.
func MarshalDxModel(m *DxModel) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "    ")
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("encode the DxDispatch model: %w", err)
	}
	// Lists of numbers on one line, as in DxDispatch's models ("Sizes":
	// [1,1,5,5]); nothing stridescope writes has brackets inside a string.
	return scalarList.ReplaceAllFunc(b.Bytes(), func(list []byte) []byte {
		items := bytes.Fields(bytes.Trim(list, "[]"))
		return append(append([]byte("["), bytes.Join(items, []byte(" "))...), ']')
	}), nil
}

// scalarList is an indented JSON list of scalars.
var scalarList = regexp.MustCompile(`\[[^\[\]{}]*\]`)

// dxTypeName strips the DML_TENSOR_DATA_TYPE_ prefix DxDispatch allows.
func dxTypeName(s string) string { return strings.TrimPrefix(s, "DML_TENSOR_DATA_TYPE_") }

// dxOperatorName strips the DML_OPERATOR_ prefix DxDispatch allows.
func dxOperatorName(s string) string { return strings.TrimPrefix(s, "DML_OPERATOR_") }
