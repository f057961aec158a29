package core

// onnxTypes are ONNX's TensorProto.DataType numbers (onnx.proto) of the
// data types the identity accepts.
var onnxTypes = map[DataType]int64{
	Float32: 1, UInt8: 2, Int8: 3, UInt16: 4, Int16: 5, Int32: 6, Int64: 7,
	Float16: 10, Float64: 11, UInt32: 12, UInt64: 13,
}

// ONNXOpset is the opset the exported model imports: Transpose has had
// its present form (any tensor type, perm an INTS attribute) since 13,
// which IR version 7 introduced.
const (
	ONNXOpset     = 13
	onnxIRVersion = 7
)

// ONNXModel is the conversion as an ONNX model file (a serialised
// ModelProto), when the conversion is one (ONNX): one Transpose node with
// its perm, from a dense input x of the tensor's sizes to a dense output
// y of the sizes permuted, of the tensor's data type. It holds no data,
// so it is a few hundred bytes whatever the tensor's size. The model's
// input is the input buffer's first elements and its output the output
// buffer's: ONNX tensors are dense and row-major.
func (id *Identity) ONNXModel() ([]byte, bool) {
	perm, ok := id.ONNX()
	elem, typed := onnxTypes[id.Input.DataType]
	if !ok || !typed {
		return nil, false
	}
	sizes := id.Input.Sizes
	out := make([]int64, len(perm))
	for i, d := range perm {
		out[i] = sizes[d]
	}
	var attr pb
	attr.str(1, "perm")
	for _, d := range perm {
		attr.varint(8, int64(d)) // ints
	}
	attr.varint(20, 7) // type: INTS
	var node pb
	node.str(1, "x")
	node.str(2, "y")
	node.str(3, "transpose")
	node.str(4, "Transpose")
	node.msg(5, attr)
	var graph pb
	graph.msg(1, node)
	graph.str(2, "stridescope_convert")
	graph.msg(11, onnxValue("x", elem, sizes))
	graph.msg(12, onnxValue("y", elem, out))
	var opset pb
	opset.str(1, "")
	opset.varint(2, ONNXOpset)
	var model pb
	model.varint(1, onnxIRVersion)
	model.str(2, "stridescope")
	model.msg(7, graph)
	model.msg(8, opset)
	return model.b, true
}

// onnxValue is a ValueInfoProto: a tensor's name, element type and shape.
func onnxValue(name string, elem int64, dims []int64) pb {
	var shape pb
	for _, d := range dims {
		var dim pb
		dim.varint(1, d) // dim_value
		shape.msg(1, dim)
	}
	var tensor pb
	tensor.varint(1, elem)
	tensor.msg(2, shape)
	var typ pb
	typ.msg(1, tensor) // tensor_type
	var v pb
	v.str(1, name)
	v.msg(2, typ)
	return v
}

// pb writes a protocol buffer message: only what ONNXModel needs, varint
// and length-delimited fields.
type pb struct{ b []byte }

func (p *pb) uvarint(x uint64) {
	for x >= 0x80 {
		p.b = append(p.b, byte(x)|0x80)
		x >>= 7
	}
	p.b = append(p.b, byte(x))
}

func (p *pb) varint(field int, x int64) {
	p.uvarint(uint64(field)<<3 | 0)
	p.uvarint(uint64(x))
}

func (p *pb) bytes(field int, b []byte) {
	p.uvarint(uint64(field)<<3 | 2)
	p.uvarint(uint64(len(b)))
	p.b = append(p.b, b...)
}

func (p *pb) str(field int, s string) { p.bytes(field, []byte(s)) }
func (p *pb) msg(field int, m pb)     { p.bytes(field, m.b) }
