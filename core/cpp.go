package core

import (
	"fmt"
	"math"
	"strings"
)

func cppList(vals []int64) string {
	parts := make([]string, len(vals))
	for i, v := range vals {
		parts[i] = fmt.Sprint(v)
		if v == math.MinInt32 {
			// -2147483648 is the unary minus of 2147483648, which MSVC
			// types unsigned long (warning C4146, then error C2397 in a
			// brace initializer of INT).
			parts[i] = "-2147483647 - 1"
		}
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// CPPTensorDesc writes C++ that declares a DML_BUFFER_TENSOR_DESC named
// <name>BufferDesc and a DML_TENSOR_DESC named <name>Desc for l, ready to
// paste into a DirectML program.
func CPPTensorDesc(l *Layout, name string) string {
	var b strings.Builder
	n := l.Rank()
	fmt.Fprintf(&b, "UINT %sSizes[%d] = %s;\n", name, n, cppList(l.Sizes))
	strides := "nullptr; // packed"
	if !l.StridesImplicit {
		fmt.Fprintf(&b, "UINT %sStrides[%d] = %s;\n", name, n, cppList(l.Strides))
		strides = name + "Strides;"
	}
	total := l.TotalTensorSizeInBytes
	totalNote := "// DMLCalcBufferTensorSize"
	if total == 0 {
		total = l.MinimumBufferSizeInBytes()
	} else {
		totalNote = fmt.Sprintf("// DMLCalcBufferTensorSize gives %d", l.MinimumBufferSizeInBytes())
	}
	fmt.Fprintf(&b, "DML_BUFFER_TENSOR_DESC %sBufferDesc = {};\n", name)
	fmt.Fprintf(&b, "%sBufferDesc.DataType = %s;\n", name, l.DataType.CName())
	fmt.Fprintf(&b, "%sBufferDesc.Flags = DML_TENSOR_FLAG_NONE;\n", name)
	fmt.Fprintf(&b, "%sBufferDesc.DimensionCount = %d;\n", name, n)
	fmt.Fprintf(&b, "%sBufferDesc.Sizes = %sSizes;\n", name, name)
	fmt.Fprintf(&b, "%sBufferDesc.Strides = %s\n", name, strides)
	fmt.Fprintf(&b, "%sBufferDesc.TotalTensorSizeInBytes = %d; %s\n", name, total, totalNote)
	fmt.Fprintf(&b, "%sBufferDesc.GuaranteedBaseOffsetAlignment = %d;\n", name, l.GuaranteedBaseOffsetAlignment)
	fmt.Fprintf(&b, "DML_TENSOR_DESC %sDesc = { DML_TENSOR_TYPE_BUFFER, &%sBufferDesc };\n", name, name)
	return b.String()
}

// CPP writes C++ for the DML_SLICE1_OPERATOR_DESC with both tensor
// descriptions and the DML_OPERATOR_DESC that wraps it.
func (s *Slice1) CPP() string {
	var b strings.Builder
	n := len(s.WindowOffsets)
	b.WriteString(CPPTensorDesc(s.Input, "input"))
	b.WriteString("\n")
	b.WriteString(CPPTensorDesc(s.Output, "output"))
	b.WriteString("\n")
	fmt.Fprintf(&b, "UINT inputWindowOffsets[%d] = %s;\n", n, cppList(s.WindowOffsets))
	fmt.Fprintf(&b, "UINT inputWindowSizes[%d] = %s;\n", n, cppList(s.WindowSizes))
	fmt.Fprintf(&b, "INT inputWindowStrides[%d] = %s; // signed: INT, not UINT\n", n, cppList(s.WindowStrides))
	b.WriteString("DML_SLICE1_OPERATOR_DESC sliceDesc = {};\n")
	b.WriteString("sliceDesc.InputTensor = &inputDesc;\n")
	b.WriteString("sliceDesc.OutputTensor = &outputDesc;\n")
	fmt.Fprintf(&b, "sliceDesc.DimensionCount = %d;\n", n)
	b.WriteString("sliceDesc.InputWindowOffsets = inputWindowOffsets;\n")
	b.WriteString("sliceDesc.InputWindowSizes = inputWindowSizes;\n")
	b.WriteString("sliceDesc.InputWindowStrides = inputWindowStrides;\n")
	fmt.Fprintf(&b, "DML_OPERATOR_DESC opDesc = { DML_OPERATOR_SLICE1, &sliceDesc }; // needs DML_FEATURE_LEVEL_%s or later\n", minSlice1Level(s))
	return b.String()
}

// minSlice1Level is the oldest feature level that accepts s.
func minSlice1Level(s *Slice1) FeatureLevel {
	for _, f := range FeatureLevels {
		if !containsType(Slice1DataTypes(f), s.Input.DataType) {
			continue
		}
		if !f.AtLeast(fl30) && s.Input.Rank() != 4 && s.Input.Rank() != 5 {
			continue
		}
		return f
	}
	return NewestFeatureLevel
}
