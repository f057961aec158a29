package core

// The operator as an ONNX model file (opset 13), written with the
// protobuf wire format by hand (core is the standard library only): one
// node, DepthToSpace with its mode or SpaceToDepth, between a dense
// input "x" of the input's sizes and an output "y". ONNX tensors are
// dense, so the model is of the logical tensors: the input's strides
// are the layout it is read from, which ONNX does not describe.

// onnxTypes are ONNX's TensorProto.DataType numbers.
var onnxTypes = map[DataType]uint64{
	Float32: 1, UInt8: 2, Int8: 3, UInt16: 4, Int16: 5, Int32: 6, Int64: 7,
	Float16: 10, Float64: 11, UInt32: 12, UInt64: 13,
}

type protoBuf []byte

func (b protoBuf) varint(v uint64) protoBuf {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// field writes a varint field, bytes a length-delimited one.
func (b protoBuf) field(n int, v uint64) protoBuf { return b.varint(uint64(n) << 3).varint(v) }

func (b protoBuf) bytes(n int, p []byte) protoBuf {
	return append(b.varint(uint64(n)<<3|2).varint(uint64(len(p))), p...)
}

// onnxValueInfo is a ValueInfoProto: a tensor of elem type t and sizes.
func onnxValueInfo(name string, t uint64, sizes []int64) []byte {
	var shape protoBuf
	for _, s := range sizes {
		shape = shape.bytes(1, protoBuf(nil).field(1, uint64(s))) // Dimension.dim_value
	}
	tensor := protoBuf(nil).field(1, t).bytes(2, shape) // TypeProto.Tensor
	typ := protoBuf(nil).bytes(1, tensor)               // TypeProto.tensor_type
	return protoBuf(nil).bytes(1, []byte(name)).bytes(2, typ)
}

// ONNXModel is s as an ONNX model, and ok false when no single ONNX node
// computes it (SPACE_TO_DEPTH1 in CRD order) or ONNX has no such type.
func (s *DepthSpace) ONNXModel() ([]byte, bool) {
	t, ok := onnxTypes[s.Input.DataType]
	if !ok || s.Op == SpaceToDepth && s.Order == ColumnRowDepth {
		return nil, false
	}
	intAttr := func(name string, v int64) []byte { // AttributeProto, type INT (2)
		return protoBuf(nil).bytes(1, []byte(name)).field(3, uint64(v)).field(20, 2)
	}
	node := protoBuf(nil).bytes(1, []byte("x")).bytes(2, []byte("y")).bytes(3, []byte("op"))
	if s.Op == DepthToSpace {
		mode := "DCR"
		if s.Order == ColumnRowDepth {
			mode = "CRD"
		}
		node = node.bytes(4, []byte("DepthToSpace")).bytes(5, intAttr("blocksize", s.BlockSize))
		node = node.bytes(5, protoBuf(nil).bytes(1, []byte("mode")).bytes(4, []byte(mode)).field(20, 3)) // STRING (3)
	} else {
		node = node.bytes(4, []byte("SpaceToDepth")).bytes(5, intAttr("blocksize", s.BlockSize))
	}
	graph := protoBuf(nil).bytes(1, node).bytes(2, []byte("stridescope")).
		bytes(11, onnxValueInfo("x", t, s.Input.Sizes)).bytes(12, onnxValueInfo("y", t, s.Output.Sizes))
	opset := protoBuf(nil).bytes(1, nil).field(2, 13)
	model := protoBuf(nil).field(1, 7).bytes(2, []byte("stridescope")).bytes(7, graph).bytes(8, opset)
	return model, true
}
