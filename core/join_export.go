package core

import (
	"fmt"
	"strings"
)

// CPP writes C++ for the DML_JOIN_OPERATOR_DESC: each input's tensor
// description (input0Desc, input1Desc...), the array InputTensors points
// to, the output's, and the DML_OPERATOR_DESC that wraps it.
func (j *Join) CPP() string {
	var b strings.Builder
	names := make([]string, len(j.Inputs))
	for k, in := range j.Inputs {
		name := fmt.Sprintf("input%d", k)
		b.WriteString(CPPTensorDesc(in, name))
		b.WriteString("\n")
		names[k] = name + "Desc"
	}
	b.WriteString(CPPTensorDesc(j.Output, "output"))
	b.WriteString("\n")
	fmt.Fprintf(&b, "DML_TENSOR_DESC inputDescs[%d] = { %s };\n", len(names), strings.Join(names, ", "))
	b.WriteString("DML_JOIN_OPERATOR_DESC joinDesc = {};\n")
	fmt.Fprintf(&b, "joinDesc.InputCount = %d;\n", len(names))
	b.WriteString("joinDesc.InputTensors = inputDescs;\n")
	b.WriteString("joinDesc.OutputTensor = &outputDesc;\n")
	fmt.Fprintf(&b, "joinDesc.Axis = %d;\n", j.Axis)
	fmt.Fprintf(&b, "DML_OPERATOR_DESC opDesc = { DML_OPERATOR_JOIN, &joinDesc }; // needs DML_FEATURE_LEVEL_%s or later\n", j.MinFeatureLevel())
	return b.String()
}

// CPP writes C++ for the DML_SPLIT_OPERATOR_DESC: the input's tensor
// description, each output's (output0Desc...), the array OutputTensors
// points to, and the DML_OPERATOR_DESC that wraps it.
func (s *Split) CPP() string {
	var b strings.Builder
	b.WriteString(CPPTensorDesc(s.Input, "input"))
	b.WriteString("\n")
	names := make([]string, len(s.Outputs))
	for k, out := range s.Outputs {
		name := fmt.Sprintf("output%d", k)
		b.WriteString(CPPTensorDesc(out, name))
		b.WriteString("\n")
		names[k] = name + "Desc"
	}
	fmt.Fprintf(&b, "DML_TENSOR_DESC outputDescs[%d] = { %s };\n", len(names), strings.Join(names, ", "))
	b.WriteString("DML_SPLIT_OPERATOR_DESC splitDesc = {};\n")
	b.WriteString("splitDesc.InputTensor = &inputDesc;\n")
	fmt.Fprintf(&b, "splitDesc.OutputCount = %d;\n", len(names))
	b.WriteString("splitDesc.OutputTensors = outputDescs;\n")
	fmt.Fprintf(&b, "splitDesc.Axis = %d;\n", s.Axis)
	fmt.Fprintf(&b, "DML_OPERATOR_DESC opDesc = { DML_OPERATOR_SPLIT, &splitDesc }; // needs DML_FEATURE_LEVEL_%s or later\n", s.MinFeatureLevel())
	return b.String()
}
