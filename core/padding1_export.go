package core

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// CPP writes C++ for the DML_PADDING1_OPERATOR_DESC with both tensor
// descriptions and the DML_OPERATOR_DESC that wraps it. The padding
// value goes in the DML_SCALAR_UNION member of the output's type;
// DML_SCALAR_UNION has no FLOAT16 member, so a FLOAT16 value is written
// as its bits in UInt16.
func (p *Padding1) CPP() string {
	var b strings.Builder
	n := len(p.StartPadding)
	b.WriteString(CPPTensorDesc(p.Input, "input"))
	b.WriteString("\n")
	b.WriteString(CPPTensorDesc(p.Output, "output"))
	b.WriteString("\n")
	fmt.Fprintf(&b, "UINT startPadding[%d] = %s;\n", n, cppList(p.StartPadding))
	fmt.Fprintf(&b, "UINT endPadding[%d] = %s;\n", n, cppList(p.EndPadding))
	b.WriteString("DML_PADDING1_OPERATOR_DESC paddingDesc = {};\n")
	b.WriteString("paddingDesc.InputTensor = &inputDesc;\n")
	b.WriteString("paddingDesc.OutputTensor = &outputDesc;\n")
	fmt.Fprintf(&b, "paddingDesc.PaddingMode = %s;\n", p.Mode.CName())
	fmt.Fprintf(&b, "paddingDesc.PaddingValueDataType = %s;\n", p.Output.DataType.CName())
	member, value, comment := scalarMember(p.Output.DataType, p.PaddingValue)
	if p.Mode != PadConstant {
		comment = " // ignored: only DML_PADDING_MODE_CONSTANT reads it"
	}
	fmt.Fprintf(&b, "paddingDesc.PaddingValue.%s = %s;%s\n", member, value, comment)
	fmt.Fprintf(&b, "paddingDesc.DimensionCount = %d;\n", n)
	b.WriteString("paddingDesc.StartPadding = startPadding;\n")
	b.WriteString("paddingDesc.EndPadding = endPadding;\n")
	fmt.Fprintf(&b, "DML_OPERATOR_DESC opDesc = { DML_OPERATOR_PADDING1, &paddingDesc }; // needs DML_FEATURE_LEVEL_%s or later\n", Padding1Since(p.Mode))
	return b.String()
}

// scalarMember is the DML_SCALAR_UNION member that holds a value of dt,
// v written for it, and a comment on it.
func scalarMember(dt DataType, v float64) (member, value, comment string) {
	switch dt {
	case Float32:
		return "Float32", cppFloat(v), ""
	case Float64:
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eEn") {
			s += ".0"
		}
		return "Float64", s, ""
	case Float16:
		return "UInt16", fmt.Sprintf("0x%04X", Float16Bits(v)), " // FLOAT16 bits of " + strconv.FormatFloat(v, 'g', -1, 64)
	}
	name := map[DataType]string{Int8: "Int8", Int16: "Int16", Int32: "Int32", Int64: "Int64",
		UInt8: "UInt8", UInt16: "UInt16", UInt32: "UInt32", UInt64: "UInt64"}[dt]
	if v == math.Trunc(v) && math.Abs(v) < 1<<63 {
		s := strconv.FormatInt(int64(v), 10)
		if dt == Int64 || dt == UInt64 {
			s += map[bool]string{true: "LL", false: "ULL"}[dt == Int64]
		}
		return name, s, ""
	}
	return name, strconv.FormatFloat(v, 'f', -1, 64), ""
}

// NumPy writes the padding with np.pad over the input as NumPy sees it
// (the input buffer viewed through its strides). np.pad pads a side of
// an axis by at least the axis's size with its own chunking, which for
// reflect, symmetric and wrap is not DirectML's periodic map when only
// one side is that large (NumPy 1.24): the expression then pads each
// side of each axis from the unpadded array, which is.
func (p *Padding1) NumPy() string {
	in := p.Input
	var b strings.Builder
	dt := NumpyDType(in.DataType)
	b.WriteString("import numpy as np\n")
	fmt.Fprintf(&b, "input_buffer = np.zeros(%d, np.%s)  # InputTensor's buffer, %d bytes\n", in.BufferElementCount(), dt, in.BufferSizeInBytes())
	b.WriteString("e = input_buffer.itemsize\n")
	fmt.Fprintf(&b, "x = np.lib.stride_tricks.as_strided(input_buffer, shape=%s, strides=%s)\n", pyTuple(in.Sizes), pyStrides(in.Strides))
	kw := ""
	if p.Mode == PadConstant {
		kw = ", constant_values=" + strconv.FormatFloat(p.PaddingValue, 'g', -1, 64)
	}
	widths := make([]string, len(p.StartPadding))
	for i := range widths {
		widths[i] = fmt.Sprintf("(%d, %d)", p.StartPadding[i], p.EndPadding[i])
	}
	if !p.numpyChunks() {
		fmt.Fprintf(&b, "y = np.pad(x, (%s), mode=%q%s)\n", strings.Join(widths, ", ")+map[bool]string{true: ",", false: ""}[len(widths) == 1], p.Mode.NumPy(), kw)
		return b.String()
	}
	b.WriteString("# A padding at least the size on one side only: np.pad in one call would\n")
	b.WriteString("# fold it through the other side's padding. Each side from the unpadded axis:\n")
	b.WriteString("y = x\n")
	fmt.Fprintf(&b, "for axis, (s, t) in enumerate((%s)):\n", strings.Join(widths, ", ")+map[bool]string{true: ",", false: ""}[len(widths) == 1])
	b.WriteString("    n, w = y.shape[axis], [(0, 0)] * y.ndim\n")
	b.WriteString("    w[axis] = (s, 0)\n")
	fmt.Fprintf(&b, "    left = np.take(np.pad(y, w, mode=%q), range(s), axis=axis)\n", p.Mode.NumPy())
	b.WriteString("    w[axis] = (0, t)\n")
	fmt.Fprintf(&b, "    right = np.take(np.pad(y, w, mode=%q), range(n, n + t), axis=axis)\n", p.Mode.NumPy())
	b.WriteString("    y = np.concatenate([left, y, right], axis=axis)\n")
	return b.String()
}

// numpyChunks reports whether one np.pad call could differ from
// DirectML's map: a repeating mode with a padding at least the size.
func (p *Padding1) numpyChunks() bool {
	if p.Mode == PadConstant || p.Mode == PadEdge {
		return false
	}
	for i, s := range p.Input.Sizes {
		if p.StartPadding[i] >= s || p.EndPadding[i] >= s {
			return true
		}
	}
	return false
}

// ONNXPad is the padding as an ONNX Pad node (opset 19 for wrap,
// ONNXOpset for the others): its mode, and pads as ONNX orders them,
// every axis's start then every axis's end. Model is the one-node model
// file (ONNXModel; base64 in JSON), absent where ONNX computes another
// map.
type ONNXPad struct {
	Mode          string   `json:"mode"`
	Pads          []int64  `json:"pads"`
	ConstantValue *float64 `json:"constantValue,omitempty"`
	Opset         int      `json:"opset"`
	Model         []byte   `json:"model,omitempty"`
}

// ONNX is p as an ONNX Pad node, and false for SYMMETRIC, which ONNX
// has no mode for. A reflection padding of the size or more is written
// too (ONNX Runtime refuses it: p.Notes says so).
func (p *Padding1) ONNX() (ONNXPad, bool) {
	mode := map[PaddingMode]string{PadConstant: "constant", PadEdge: "edge", PadReflection: "reflect", PadWrap: "wrap"}[p.Mode]
	if mode == "" {
		return ONNXPad{}, false
	}
	o := ONNXPad{Mode: mode, Pads: append(append([]int64(nil), p.StartPadding...), p.EndPadding...), Opset: ONNXOpset}
	if p.Mode == PadWrap {
		o.Opset = ONNXPadWrapOpset
	}
	if p.Mode == PadConstant {
		v := p.PaddingValue
		o.ConstantValue = &v
	}
	return o, true
}
