package core

import "fmt"

// ONNXModel is the join as an ONNX model file: one Concat node (opset
// 13, axis) of dense inputs x0, x1... of the inputs' sizes into y, of
// the join's data type. ONNX tensors are dense and row-major: the
// model's inputs are the inputs' logical elements in row-major order,
// whatever their strides. ok is false for a type ONNX has no number for.
func (j *Join) ONNXModel() ([]byte, bool) {
	elem, typed := onnxTypes[j.Output.DataType]
	if !typed {
		return nil, false
	}
	var node pb
	var graph pb
	for k, in := range j.Inputs {
		name := fmt.Sprintf("x%d", k)
		node.str(1, name)
		graph.msg(11, onnxValue(name, elem, in.Sizes))
	}
	node.str(2, "y")
	node.str(3, "join")
	node.str(4, "Concat")
	node.msg(5, onnxIntAttr("axis", int64(j.Axis)))
	graph.msg(12, onnxValue("y", elem, j.Output.Sizes))
	return onnxModelOf(node, graph, "stridescope_join"), true
}

// ONNXModel is the split as an ONNX model file: one Split node (opset
// 13: the outputs' sizes along the axis are its second input, split, an
// INT64 initializer) of a dense x into y0, y1...
func (s *Split) ONNXModel() ([]byte, bool) {
	elem, typed := onnxTypes[s.Input.DataType]
	if !typed {
		return nil, false
	}
	var node, graph, split pb
	node.str(1, "x")
	node.str(1, "split")
	graph.msg(11, onnxValue("x", elem, s.Input.Sizes))
	split.varint(1, int64(len(s.Outputs))) // dims
	split.varint(2, 7)                     // data_type: INT64
	for k, o := range s.Outputs {
		name := fmt.Sprintf("y%d", k)
		node.str(2, name)
		graph.msg(12, onnxValue(name, elem, o.Sizes))
		split.varint(7, o.Sizes[s.Axis]) // int64_data
	}
	split.str(8, "split")
	node.str(3, "split")
	node.str(4, "Split")
	node.msg(5, onnxIntAttr("axis", int64(s.Axis)))
	graph.msg(5, split) // initializer
	return onnxModelOf(node, graph, "stridescope_split"), true
}

// onnxIntAttr is an INT AttributeProto.
func onnxIntAttr(name string, v int64) pb {
	var a pb
	a.str(1, name)
	a.varint(3, v)  // i
	a.varint(20, 2) // type: INT
	return a
}

// onnxModelOf wraps one node in its graph (whose inputs, outputs and
// initializers are written) and a ModelProto importing ONNXOpset.
func onnxModelOf(node, graph pb, name string) []byte {
	return onnxModelAt(node, graph, name, ONNXOpset)
}

// onnxModelAt is onnxModelOf importing another opset: the IR version is
// the one that opset arrived with (ONNX's versioning table), as a
// runtime may refuse an opset newer than its model's IR.
func onnxModelAt(node, graph pb, name string, opsetVersion int64) []byte {
	graph.msg(1, node)
	graph.str(2, name)
	var opset pb
	opset.str(1, "")
	opset.varint(2, opsetVersion)
	ir := int64(onnxIRVersion)
	if opsetVersion >= 19 {
		ir = 9
	}
	var model pb
	model.varint(1, ir)
	model.str(2, "stridescope")
	model.msg(7, graph)
	model.msg(8, opset)
	return model.b
}
