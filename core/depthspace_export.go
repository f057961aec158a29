package core

import (
	"fmt"
	"strings"
)

// CPP writes C++ for the operator's desc with both tensor descriptions
// and the DML_OPERATOR_DESC that wraps it.
func (s *DepthSpace) CPP() string {
	var b strings.Builder
	b.WriteString(CPPTensorDesc(s.Input, "input"))
	b.WriteString("\n")
	b.WriteString(CPPTensorDesc(s.Output, "output"))
	b.WriteString("\n")
	name := strings.TrimPrefix(s.Op.OperatorName(), "DML_")
	fmt.Fprintf(&b, "DML_%s_OPERATOR_DESC desc = {};\n", name)
	b.WriteString("desc.InputTensor = &inputDesc;\n")
	b.WriteString("desc.OutputTensor = &outputDesc;\n")
	fmt.Fprintf(&b, "desc.BlockSize = %d;\n", s.BlockSize)
	fmt.Fprintf(&b, "desc.Order = DML_DEPTH_SPACE_ORDER_%s;\n", s.Order)
	fmt.Fprintf(&b, "DML_OPERATOR_DESC opDesc = { DML_OPERATOR_%s, &desc }; // needs DML_FEATURE_LEVEL_%s or later\n", name, s.MinFeatureLevel())
	return b.String()
}

// MinFeatureLevel is the oldest feature level that runs s: 2_1, or 5_0
// for a 64-bit type.
func (s *DepthSpace) MinFeatureLevel() FeatureLevel {
	if s.Input.DataType.Bits() == 64 {
		return fl50
	}
	return fl21
}

// NumPy writes the operator in NumPy as ONNX documents it: the input
// viewed from its buffer (as_strided, in elements of its dtype), split
// into six dimensions, transposed, and reshaped into the output.
func (s *DepthSpace) NumPy() string {
	var b strings.Builder
	in := s.Input
	n, c, h, w := in.Sizes[0], in.Sizes[1], in.Sizes[2], in.Sizes[3]
	bs := s.BlockSize
	b.WriteString("import numpy as np\n")
	fmt.Fprintf(&b, "input_buffer = np.zeros(%d, np.%s)  # InputTensor's buffer, %d bytes\n", in.BufferElementCount(), NumpyDType(in.DataType), in.BufferSizeInBytes())
	if rowMajor(in) {
		fmt.Fprintf(&b, "x = input_buffer[:%d].reshape(%s)\n", in.LogicalElementCount(), pyTuple(in.Sizes))
	} else {
		b.WriteString("e = input_buffer.itemsize\n")
		fmt.Fprintf(&b, "x = np.lib.stride_tricks.as_strided(input_buffer, shape=%s, strides=%s)\n", pyTuple(in.Sizes), pyStrides(in.Strides))
	}
	var split []int64
	var perm string
	switch {
	case s.Op == DepthToSpace && s.Order == DepthColumnRow:
		split, perm = []int64{n, bs, bs, c / (bs * bs), h, w}, "(0, 3, 4, 1, 5, 2)"
	case s.Op == DepthToSpace:
		split, perm = []int64{n, c / (bs * bs), bs, bs, h, w}, "(0, 1, 4, 2, 5, 3)"
	case s.Order == DepthColumnRow:
		split, perm = []int64{n, c, h / bs, bs, w / bs, bs}, "(0, 3, 5, 1, 2, 4)"
	default:
		split, perm = []int64{n, c, h / bs, bs, w / bs, bs}, "(0, 1, 3, 5, 2, 4)"
	}
	fmt.Fprintf(&b, "y = x.reshape(%s).transpose%s.reshape(%s)  # %s, %s\n", pyTuple(split), perm, pyTuple(s.Output.Sizes), s.Op.OperatorName(), s.Order)
	return b.String()
}

// ONNX is the ONNX node that computes s on a dense tensor: DepthToSpace
// with its mode (DCR or CRD), or SpaceToDepth, which ONNX defines in the
// DCR order only; ok is false for SPACE_TO_DEPTH1 in CRD order.
func (s *DepthSpace) ONNX() (node string, ok bool) {
	if s.Op == DepthToSpace {
		mode := "DCR"
		if s.Order == ColumnRowDepth {
			mode = "CRD"
		}
		return fmt.Sprintf("DepthToSpace(blocksize=%d, mode=%q)", s.BlockSize, mode), true
	}
	if s.Order == ColumnRowDepth {
		return "", false
	}
	return fmt.Sprintf("SpaceToDepth(blocksize=%d)", s.BlockSize), true
}
