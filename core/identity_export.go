package core

import (
	"fmt"
	"strconv"
	"strings"
)

// CPP writes C++ for the DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC with
// both tensor descriptions, its DML_SCALE_BIAS when it has one, and the
// DML_OPERATOR_DESC that wraps it.
func (id *Identity) CPP() string {
	var b strings.Builder
	b.WriteString(CPPTensorDesc(id.Input, "input"))
	b.WriteString("\n")
	b.WriteString(CPPTensorDesc(id.Output, "output"))
	b.WriteString("\n")
	scaleBias := "nullptr; // f(x) = x"
	if sb := id.ScaleBias; sb != nil {
		fmt.Fprintf(&b, "DML_SCALE_BIAS scaleBias = { %s, %s }; // g(x) = x * Scale + Bias, before the identity\n", cppFloat(sb.Scale), cppFloat(sb.Bias))
		scaleBias = "&scaleBias;"
	}
	b.WriteString("DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identityDesc = {};\n")
	b.WriteString("identityDesc.InputTensor = &inputDesc;\n")
	b.WriteString("identityDesc.OutputTensor = &outputDesc;\n")
	fmt.Fprintf(&b, "identityDesc.ScaleBias = %s\n", scaleBias)
	fmt.Fprintf(&b, "DML_OPERATOR_DESC opDesc = { DML_OPERATOR_ELEMENT_WISE_IDENTITY, &identityDesc }; // needs DML_FEATURE_LEVEL_%s or later\n", id.MinFeatureLevel())
	return b.String()
}

// cppFloat is v as a C++ float literal that round-trips through FLOAT.
func cppFloat(v float64) string {
	s := strconv.FormatFloat(float64(float32(v)), 'g', -1, 32)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s + "f"
}

// numpyTypes are NumPy's names of the data types the identity accepts.
var numpyTypes = map[DataType]string{
	Float32: "float32", Float16: "float16", Float64: "float64",
	Int8: "int8", Int16: "int16", Int32: "int32", Int64: "int64",
	UInt8: "uint8", UInt16: "uint16", UInt32: "uint32", UInt64: "uint64",
}

// NumpyDType is dt's NumPy dtype name ("float32"), "" for the 4-bit
// types, which NumPy has no dtype for.
func NumpyDType(dt DataType) string { return numpyTypes[dt] }

// NumPy writes the same copy in NumPy over two 1-D arrays that are the
// buffers (input_buffer and output_buffer, one array element a tensor
// element): as_strided views of both sides and one assignment, or, when
// the input is packed and the output its packed transpose, transpose and
// ascontiguousarray (what the conversion is).
func (id *Identity) NumPy() string {
	in, out := id.Input, id.Output
	var b strings.Builder
	dt := NumpyDType(in.DataType)
	b.WriteString("import numpy as np\n")
	fmt.Fprintf(&b, "input_buffer = np.zeros(%d, np.%s)  # InputTensor's buffer, %d bytes\n", in.BufferElementCount(), dt, in.BufferSizeInBytes())
	fmt.Fprintf(&b, "output_buffer = np.zeros(%d, np.%s)  # OutputTensor's buffer, %d bytes\n", out.BufferElementCount(), dt, out.BufferSizeInBytes())
	value := "x"
	if sb := id.ScaleBias; sb != nil {
		x := "x"
		if in.DataType == Float16 {
			// Computed in float32 and rounded once to a half, as
			// compute.IdentityOf does; without the astype NumPy 1.x
			// would compute in float16, and NumPy 2 in float32.
			x = "x.astype(np.float32)"
		}
		value = fmt.Sprintf("(%s * np.float32(%s) + np.float32(%s)).astype(np.%s)", x, pyFloat(sb.Scale), pyFloat(sb.Bias), dt)
	}
	n := in.LogicalElementCount()
	if p, ok := id.Permutation(); ok && rowMajor(in) {
		fmt.Fprintf(&b, "x = input_buffer[:%d].reshape(%s)\n", n, pyTuple(in.Sizes))
		if value != "x" {
			fmt.Fprintf(&b, "x = %s\n", value)
		}
		if isIdentityPerm(p) {
			fmt.Fprintf(&b, "output_buffer[:%d] = x.ravel()\n", n)
		} else {
			fmt.Fprintf(&b, "output_buffer[:%d] = np.ascontiguousarray(x.transpose(%s)).ravel()\n", n, pyTupleInts(p))
		}
		return b.String()
	}
	b.WriteString("e = input_buffer.itemsize\n")
	fmt.Fprintf(&b, "x = np.lib.stride_tricks.as_strided(input_buffer, shape=%s, strides=%s)\n", pyTuple(in.Sizes), pyStrides(in.Strides))
	fmt.Fprintf(&b, "y = np.lib.stride_tricks.as_strided(output_buffer, shape=%s, strides=%s)\n", pyTuple(out.Sizes), pyStrides(out.Strides))
	fmt.Fprintf(&b, "y[...] = %s\n", value)
	return b.String()
}

// ONNX is the ONNX node of the conversion when it is one, Transpose with
// its perm, and ok false otherwise: a padded or broadcast side has no
// ONNX tensor (ONNX tensors are dense), and a ScaleBias that changes the
// values is not a Transpose's.
func (id *Identity) ONNX() (perm []int, ok bool) {
	if !rowMajor(id.Input) {
		return nil, false
	}
	if sb := id.ScaleBias; sb != nil && (sb.Scale != 1 || sb.Bias != 0) {
		return nil, false
	}
	return id.Permutation()
}

// rowMajor reports a layout whose strides are the packed ones wherever a
// size exceeds 1 (a size-1 dimension's stride moves nothing): the
// tensor NumPy's reshape and ONNX's dense tensors hold.
func rowMajor(l *Layout) bool {
	packed := PackedStrides(l.Sizes)
	for i, s := range l.Sizes {
		if s > 1 && l.Strides[i] != packed[i] {
			return false
		}
	}
	return true
}

func isIdentityPerm(p []int) bool {
	for i, d := range p {
		if i != d {
			return false
		}
	}
	return true
}

func pyFloat(v float64) string { return strconv.FormatFloat(float64(float32(v)), 'g', -1, 32) }

func pyTuple(xs []int64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatInt(x, 10)
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func pyTupleInts(xs []int) string {
	ys := make([]int64, len(xs))
	for i, x := range xs {
		ys[i] = int64(x)
	}
	return pyTuple(ys)
}

// pyStrides is the strides in bytes, as NumPy counts them.
func pyStrides(xs []int64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatInt(x, 10) + "*e"
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}
