package core

import (
	"encoding/binary"
	"math"
)

// ONNXPadWrapOpset is the opset whose Pad has mode wrap; the other
// modes are written at ONNXOpset, the models' opset elsewhere: Pad's
// pads and constant_value have been inputs (initializers here) since 11.
const ONNXPadWrapOpset = 19

// ONNXModel is p as an ONNX model file: one Pad node from a dense input
// "x" of the input's sizes to "y", its pads (ONNX's order: every axis's
// start, then every axis's end) an INT64 initializer and, for CONSTANT,
// the padding value a scalar initializer of the input's type. ok is
// false where no ONNX Pad computes what DirectML does: SYMMETRIC (ONNX
// has no such mode), and REFLECTION or WRAP with a padding at least its
// axis's size (DirectML folds or repeats again; ONNX's reflect refuses
// such a padding and its wrap is not specified past one period). p.Notes
// says which.
func (p *Padding1) ONNXModel() ([]byte, bool) {
	o, ok := p.ONNX()
	elem, typed := onnxTypes[p.Input.DataType]
	if !ok || !typed || !p.onnxPadsBelowSizes() {
		return nil, false
	}
	var node, graph pb
	node.str(1, "x")
	node.str(1, "pads")
	graph.msg(11, onnxValue("x", elem, p.Input.Sizes))
	graph.msg(5, onnxInt64s("pads", o.Pads))
	if p.Mode == PadConstant {
		node.str(1, "constant_value")
		graph.msg(5, onnxScalar("constant_value", elem, PaddingValueBytes(p.Input.DataType, p.PaddingValue)))
	}
	node.str(2, "y")
	node.str(3, "pad")
	node.str(4, "Pad")
	var mode pb
	mode.str(1, "mode")
	mode.str(4, o.Mode) // s
	mode.varint(20, 3)  // type: STRING
	node.msg(5, mode)
	graph.msg(12, onnxValue("y", elem, p.Output.Sizes))
	return onnxModelAt(node, graph, "stridescope_padding1", int64(o.Opset)), true
}

// onnxPadsBelowSizes reports whether the repeating modes stay within one
// period of their axis: every padding below its size.
func (p *Padding1) onnxPadsBelowSizes() bool {
	if p.Mode != PadReflection && p.Mode != PadWrap {
		return true
	}
	for i, s := range p.Input.Sizes {
		if p.StartPadding[i] >= s || p.EndPadding[i] >= s {
			return false
		}
	}
	return true
}

// ONNXModel is t as an ONNX model file: one Tile node (opset
// ONNXOpset) from a dense "x" to "y", its repeats an INT64 initializer.
func (t *Tile) ONNXModel() ([]byte, bool) {
	elem, typed := onnxTypes[t.Input.DataType]
	if !typed {
		return nil, false
	}
	var node, graph pb
	node.str(1, "x")
	node.str(1, "repeats")
	node.str(2, "y")
	node.str(3, "tile")
	node.str(4, "Tile")
	graph.msg(11, onnxValue("x", elem, t.Input.Sizes))
	graph.msg(5, onnxInt64s("repeats", t.Repeats))
	graph.msg(12, onnxValue("y", elem, t.Output.Sizes))
	return onnxModelOf(node, graph, "stridescope_tile"), true
}

// onnxInt64s is a 1-D INT64 TensorProto initializer.
func onnxInt64s(name string, v []int64) pb {
	var t pb
	t.varint(1, int64(len(v))) // dims
	t.varint(2, 7)             // data_type: INT64
	for _, x := range v {
		t.varint(7, x) // int64_data
	}
	t.str(8, name)
	return t
}

// onnxScalar is a 0-D TensorProto initializer of type elem holding raw,
// its little-endian bytes (raw_data: one encoding for every type).
func onnxScalar(name string, elem int64, raw []byte) pb {
	var t pb
	t.varint(2, elem) // data_type
	t.str(8, name)
	t.bytes(9, raw) // raw_data
	return t
}

// PaddingValueBytes is a padding value as one element of dt, little
// endian: what DML_PADDING1 writes in CONSTANT mode. v must be one
// NewPadding1 accepted for dt (a whole number in range for an integer
// type); FLOAT16 rounds to nearest even as Float16Bits does.
func PaddingValueBytes(dt DataType, v float64) []byte {
	b := make([]byte, 8)
	switch dt {
	case Float64:
		binary.LittleEndian.PutUint64(b, math.Float64bits(v))
	case Float32:
		binary.LittleEndian.PutUint32(b, math.Float32bits(float32(v)))
	case Float16:
		binary.LittleEndian.PutUint16(b, Float16Bits(v))
	case UInt64:
		binary.LittleEndian.PutUint64(b, uint64(v))
	default:
		// Two's complement: the low bytes of the int64 are the value in
		// every narrower signed or unsigned type that holds it.
		binary.LittleEndian.PutUint64(b, uint64(int64(v)))
	}
	return b[:dt.Bits()/8]
}
