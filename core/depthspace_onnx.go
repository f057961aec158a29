package core

// ONNXModel is s as an ONNX model file (opset ONNXOpset), with the
// protobuf writer the conversion's model uses (identity_onnx.go): one
// node, DepthToSpace with its mode or SpaceToDepth, between a dense input
// "x" of the input's sizes and an output "y". ONNX tensors are dense, so
// the model is of the logical tensors: the input's strides are the
// layout it is read from, which ONNX does not describe. ok is false when
// no single ONNX node computes s (SPACE_TO_DEPTH1 in CRD order: ONNX's
// SpaceToDepth has no mode) or ONNX has no such type.
func (s *DepthSpace) ONNXModel() ([]byte, bool) {
	elem, typed := onnxTypes[s.Input.DataType]
	if !typed || s.Op == SpaceToDepth && s.Order == ColumnRowDepth {
		return nil, false
	}
	var block pb
	block.str(1, "blocksize")
	block.varint(3, s.BlockSize) // i
	block.varint(20, 2)          // type: INT
	var node pb
	node.str(1, "x")
	node.str(2, "y")
	node.str(3, "op")
	if s.Op == DepthToSpace {
		mode := "DCR"
		if s.Order == ColumnRowDepth {
			mode = "CRD"
		}
		node.str(4, "DepthToSpace")
		node.msg(5, block)
		var m pb
		m.str(1, "mode")
		m.str(4, mode)  // s
		m.varint(20, 3) // type: STRING
		node.msg(5, m)
	} else {
		node.str(4, "SpaceToDepth")
		node.msg(5, block)
	}
	var graph pb
	graph.msg(1, node)
	graph.str(2, "stridescope_depthspace")
	graph.msg(11, onnxValue("x", elem, s.Input.Sizes))
	graph.msg(12, onnxValue("y", elem, s.Output.Sizes))
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
