package core

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func t4(dt DataType, sizes ...int64) TensorDesc { return TensorDesc{DataType: dt, Sizes: sizes} }

func strided(d TensorDesc, strides ...int64) TensorDesc { d.Strides = strides; return d }

// TestJoinRules holds each rule of DML_JOIN_OPERATOR_DESC to its field
// and code, every violation at once.
func TestJoinRules(t *testing.T) {
	f := Float32
	fl := func(major, minor int) FeatureLevel { return FeatureLevel{major, minor} }
	out := func(d TensorDesc) *TensorDesc { return &d }
	cases := []struct {
		name string
		desc JoinDesc
		want []fieldCode
	}{
		{"page example 1", JoinDesc{Inputs: []TensorDesc{t4(f, 1, 1, 2, 3), t4(f, 1, 1, 2, 4)}, Axis: 3}, nil},
		{"one input is a copy", JoinDesc{Inputs: []TensorDesc{t4(f, 2, 3)}, Axis: 0}, nil},
		{"strided, padded and broadcast inputs", JoinDesc{Inputs: []TensorDesc{strided(t4(f, 2, 3), 8, 1), strided(t4(f, 2, 1), 0, 0)}, Axis: 1}, nil},
		{"no inputs", JoinDesc{Axis: 0}, []fieldCode{{"inputs", "axisop.count.zero"}}},
		{"example 1 on axis 2: the W sizes differ", JoinDesc{Inputs: []TensorDesc{t4(f, 1, 1, 2, 3), t4(f, 1, 1, 2, 4)}, Axis: 2},
			[]fieldCode{{"inputs[1].sizes[3]", "axisop.size.same"}}},
		{"rank differs", JoinDesc{Inputs: []TensorDesc{t4(f, 2, 3), t4(f, 1, 2, 3)}, Axis: 1},
			[]fieldCode{{"inputs[1].sizes", "axisop.rank.same"}}},
		{"axis past the rank", JoinDesc{Inputs: []TensorDesc{t4(f, 2, 3), t4(f, 2, 3)}, Axis: 2},
			[]fieldCode{{"axis", "axisop.axis.range"}}},
		{"negative axis", JoinDesc{Inputs: []TensorDesc{t4(f, 2, 3)}, Axis: -1},
			[]fieldCode{{"axis", "axisop.axis.range"}}},
		{"data types differ", JoinDesc{Inputs: []TensorDesc{t4(f, 2, 3), t4(Float16, 2, 3)}, Axis: 0},
			[]fieldCode{{"inputs[1].dataType", "axisop.datatype.same"}}},
		{"4-bit never", JoinDesc{Inputs: []TensorDesc{t4(UInt4, 2, 4)}, Axis: 0},
			[]fieldCode{{"dataType", "axisop.datatype.4bit"}}},
		{"INT8 before 2_1", JoinDesc{Inputs: []TensorDesc{t4(Int8, 1, 1, 2, 2)}, Axis: 0, FeatureLevel: fl(2, 0)},
			[]fieldCode{{"dataType", "axisop.datatype.level"}}},
		{"INT8 at 2_1", JoinDesc{Inputs: []TensorDesc{t4(Int8, 1, 1, 2, 2)}, Axis: 0, FeatureLevel: fl(2, 1)}, nil},
		{"FLOAT64 before 4_1", JoinDesc{Inputs: []TensorDesc{t4(Float64, 2, 2)}, Axis: 0, FeatureLevel: fl(4, 0)},
			[]fieldCode{{"dataType", "axisop.datatype.level"}}},
		{"rank 2 before 3_0", JoinDesc{Inputs: []TensorDesc{t4(f, 2, 2)}, Axis: 0, FeatureLevel: fl(2, 1)},
			[]fieldCode{{"inputs[0].sizes", "axisop.rank.level.one"}}},
		{"rank 5 at 3_0", JoinDesc{Inputs: []TensorDesc{t4(f, 1, 1, 1, 2, 2)}, Axis: 0, FeatureLevel: fl(3, 0)}, nil},
		{"rank 6 at 3_0", JoinDesc{Inputs: []TensorDesc{t4(f, 1, 1, 1, 1, 2, 2)}, Axis: 0, FeatureLevel: fl(3, 0)},
			[]fieldCode{{"inputs[0].sizes", "axisop.rank.level"}}},
		{"rank 6 at 3_1 (the history page)", JoinDesc{Inputs: []TensorDesc{t4(f, 1, 1, 1, 1, 2, 2)}, Axis: 0, FeatureLevel: fl(3, 1)}, nil},
		{"an input's own rules at its fields", JoinDesc{Inputs: []TensorDesc{t4(f, 2, 3), t4(f, 2, 3), strided(t4(f, 2, 0), 1)}, Axis: 1},
			[]fieldCode{{"inputs[2].strides", "tensor.strides.count"}, {"inputs[2].sizes[1]", "tensor.size.zero"}}},
		{"an input's buffer too small", JoinDesc{Inputs: []TensorDesc{t4(f, 2, 3), {DataType: f, Sizes: []int64{2, 3}, TotalTensorSizeInBytes: ptr(8)}}, Axis: 0},
			[]fieldCode{{"inputs[1].totalTensorSizeInBytes", "tensor.total.small"}}},
		{"the sum past a UINT", JoinDesc{Inputs: []TensorDesc{t4(Int8, 1<<31), t4(Int8, 1<<31)}, Axis: 0},
			[]fieldCode{{"inputs[1].sizes[0]", "join.sum.uint"}}},
		{"the output's count past 2^32-1", JoinDesc{Inputs: []TensorDesc{t4(Int8, 2, 1<<31-1), t4(Int8, 2, 2)}, Axis: 1},
			[]fieldCode{{"inputs", "join.count.logical"}}},
		{"an output typed that agrees", JoinDesc{Inputs: []TensorDesc{t4(f, 2, 3), t4(f, 2, 1)}, Output: out(strided(t4(f, 2, 4), 1, 2)), Axis: 1}, nil},
		{"an output typed whose axis is not the sum", JoinDesc{Inputs: []TensorDesc{t4(f, 2, 3), t4(f, 2, 1)}, Output: out(t4(f, 2, 5)), Axis: 1},
			[]fieldCode{{"outputSizes[1]", "axisop.sum"}}},
		{"an output typed that overlaps", JoinDesc{Inputs: []TensorDesc{t4(f, 2, 3), t4(f, 2, 1)}, Output: out(strided(t4(f, 2, 4), 0, 1)), Axis: 1},
			[]fieldCode{{"outputStrides[0]", "identity.output.broadcast"}}},
		{"every violation at once", JoinDesc{Inputs: []TensorDesc{t4(Float16, 0, 3), t4(f, 2, 3, 1), t4(f, 4, 4)}, Axis: 5},
			[]fieldCode{{"inputs[0].sizes[0]", "tensor.size.zero"}, {"inputs[1].dataType", "axisop.datatype.same"}, {"inputs[2].dataType", "axisop.datatype.same"},
				{"inputs[1].sizes", "axisop.rank.same"}, {"axis", "axisop.axis.range"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewJoin(c.desc)
			if got := violationsOf(t, err); !slices.Equal(got, c.want) {
				t.Errorf("violations\n got  %v\n want %v", got, c.want)
			}
		})
	}
}

// TestSplitRules holds each rule of DML_SPLIT_OPERATOR_DESC to its
// field and code, every violation at once.
func TestSplitRules(t *testing.T) {
	f := Float32
	in := t4(f, 1, 1, 6, 2)
	cases := []struct {
		name string
		desc SplitDesc
		want []fieldCode
	}{
		{"page example 1", SplitDesc{Input: in, Outputs: SplitOutputs(f, in.Sizes, 2, []int64{2, 1, 3}), Axis: 2}, nil},
		{"page example 2", SplitDesc{Input: in, Outputs: SplitOutputs(f, in.Sizes, 3, []int64{1, 1}), Axis: 3}, nil},
		{"no outputs", SplitDesc{Input: in, Axis: 2}, []fieldCode{{"outputs", "axisop.count.zero"}}},
		{"sizes that do not sum", SplitDesc{Input: in, Outputs: SplitOutputs(f, in.Sizes, 2, []int64{2, 2}), Axis: 2},
			[]fieldCode{{"outputs", "axisop.sum"}}},
		{"an output of size 0", SplitDesc{Input: in, Outputs: SplitOutputs(f, in.Sizes, 2, []int64{6, 0}), Axis: 2},
			[]fieldCode{{"outputs[1].sizes[2]", "tensor.size.zero"}}},
		{"a non-axis size differs", SplitDesc{Input: in, Outputs: []TensorDesc{t4(f, 1, 1, 6, 1), t4(f, 1, 2, 6, 1)}, Axis: 3},
			[]fieldCode{{"outputs[1].sizes[1]", "axisop.size.same"}}},
		{"a strided input", SplitDesc{Input: strided(t4(f, 3, 4), 8, 2), Outputs: SplitOutputs(f, []int64{3, 4}, 1, []int64{1, 3}), Axis: 1}, nil},
		{"rank 3 at 3_0", SplitDesc{Input: t4(f, 2, 2, 2), Outputs: SplitOutputs(f, []int64{2, 2, 2}, 0, []int64{1, 1}), Axis: 0, FeatureLevel: FeatureLevel{3, 0}}, nil},
		{"rank 3 at 2_1", SplitDesc{Input: t4(f, 2, 2, 2), Outputs: SplitOutputs(f, []int64{2, 2, 2}, 0, []int64{1, 1}), Axis: 0, FeatureLevel: FeatureLevel{2, 1}},
			[]fieldCode{{"inputSizes", "axisop.rank.level.one"}}},
		{"an overlapping output", SplitDesc{Input: t4(f, 2, 4), Outputs: []TensorDesc{strided(t4(f, 2, 2), 1, 1), t4(f, 2, 2)}, Axis: 1},
			[]fieldCode{{"outputs[0].strides", "identity.output.overlap.at"}}},
		{"the input's own rules at its fields", SplitDesc{Input: strided(t4(f, 2, 4), 4, -1), Outputs: SplitOutputs(f, []int64{2, 4}, 1, []int64{4}), Axis: 1},
			[]fieldCode{{"inputStrides[1]", "tensor.stride.negative"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewSplit(c.desc)
			if got := violationsOf(t, err); !slices.Equal(got, c.want) {
				t.Errorf("violations\n got  %v\n want %v", got, c.want)
			}
		})
	}
}

// arange is 1..n, the values the pages' examples print.
func arange(n int64) []int64 {
	v := make([]int64, n)
	for i := range v {
		v[i] = int64(i) + 1
	}
	return v
}

// TestJoinPageExamples reproduces every output the DML_JOIN page prints
// from its inputs, through Source.
func TestJoinPageExamples(t *testing.T) {
	f := Float32
	cases := []struct {
		name   string
		inputs [][]int64 // sizes
		values [][]int64
		axis   int64
		sizes  []int64
		want   []int64
	}{
		{"example 1", [][]int64{{1, 1, 2, 3}, {1, 1, 2, 4}}, [][]int64{{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10, 11, 12, 13, 14}}, 3,
			[]int64{1, 1, 2, 7}, []int64{1, 2, 3, 7, 8, 9, 10, 4, 5, 6, 11, 12, 13, 14}},
		{"example 2 axis 1", [][]int64{{1, 1, 2, 2}, {1, 1, 2, 2}, {1, 1, 2, 2}}, [][]int64{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}, 1,
			[]int64{1, 3, 2, 2}, arange(12)},
		{"example 2 axis 2", [][]int64{{1, 1, 2, 2}, {1, 1, 2, 2}, {1, 1, 2, 2}}, [][]int64{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}, 2,
			[]int64{1, 1, 6, 2}, arange(12)},
		{"example 2 axis 3", [][]int64{{1, 1, 2, 2}, {1, 1, 2, 2}, {1, 1, 2, 2}}, [][]int64{{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}}, 3,
			[]int64{1, 1, 2, 6}, []int64{1, 2, 5, 6, 9, 10, 3, 4, 7, 8, 11, 12}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var d JoinDesc
			for _, s := range c.inputs {
				d.Inputs = append(d.Inputs, t4(f, s...))
			}
			d.Axis = c.axis
			j, err := NewJoin(d)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(j.Output.Sizes, c.sizes) {
				t.Fatalf("output sizes %v, want %v", j.Output.Sizes, c.sizes)
			}
			var got []int64
			for i := range j.Output.LogicalElementCount() {
				k, coord := j.Source(i)
				off, err := j.Inputs[k].Offset(coord)
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, c.values[k][off])
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("output %v, want %v", got, c.want)
			}
		})
	}
}

// TestSplitPageExamples reproduces every output the DML_SPLIT page
// prints, each through the DML_SLICE1 Split gives for it.
func TestSplitPageExamples(t *testing.T) {
	in := t4(Float32, 1, 1, 6, 2)
	cases := []struct {
		name  string
		axis  int64
		along []int64
		want  [][]int64
	}{
		{"example 1", 2, []int64{2, 1, 3}, [][]int64{{1, 2, 3, 4}, {5, 6}, {7, 8, 9, 10, 11, 12}}},
		{"example 2", 3, []int64{1, 1}, [][]int64{{1, 3, 5, 7, 9, 11}, {2, 4, 6, 8, 10, 12}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := NewSplit(SplitDesc{Input: in, Outputs: SplitOutputs(Float32, in.Sizes, c.axis, c.along), Axis: c.axis})
			if err != nil {
				t.Fatal(err)
			}
			for k := range s.Outputs {
				sl, err := s.Slice1(k)
				if err != nil {
					t.Fatalf("output %d's DML_SLICE1: %v", k, err)
				}
				if !slices.Equal(sl.OutputSizes, s.Outputs[k].Sizes) {
					t.Errorf("output %d: slice sizes %v, output %v", k, sl.OutputSizes, s.Outputs[k].Sizes)
				}
				offs, err := sl.InputOffsets(1 << 10)
				if err != nil {
					t.Fatal(err)
				}
				var got []int64
				for _, o := range offs {
					got = append(got, o+1)
				}
				if !slices.Equal(got, c.want[k]) {
					t.Errorf("output %d: %v, want %v", k, got, c.want[k])
				}
			}
		})
	}
}

// TestJoinMinFeatureLevel: the oldest level is the later of the data
// type's and the rank's.
func TestJoinMinFeatureLevel(t *testing.T) {
	cases := []struct {
		dt        DataType
		rank      int
		join, spl string
	}{
		{Float32, 4, "1_0", "1_0"},
		{Int8, 4, "2_1", "2_1"},
		{Float32, 5, "3_0", "3_0"},
		{Float32, 2, "3_1", "3_0"},
		{Int64, 4, "4_1", "4_1"},
	}
	for _, c := range cases {
		sizes := make([]int64, c.rank)
		for i := range sizes {
			sizes[i] = 2
		}
		t.Run(fmt.Sprint(c.dt, c.rank), func(t *testing.T) {
			j, err := NewJoin(JoinDesc{Inputs: []TensorDesc{t4(c.dt, sizes...)}})
			if err != nil {
				t.Fatal(err)
			}
			s, err := NewSplit(SplitDesc{Input: t4(c.dt, sizes...), Outputs: []TensorDesc{t4(c.dt, sizes...)}})
			if err != nil {
				t.Fatal(err)
			}
			if got := j.MinFeatureLevel().String(); got != c.join {
				t.Errorf("join: %s, want %s", got, c.join)
			}
			if got := s.MinFeatureLevel().String(); got != c.spl {
				t.Errorf("split: %s, want %s", got, c.spl)
			}
		})
	}
}

// TestJoinSplitCPP: the C++ declares every tensor and the desc as
// DirectML.h names its fields, Example 1 of each page.
func TestJoinSplitCPP(t *testing.T) {
	j, err := NewJoin(JoinDesc{Inputs: []TensorDesc{t4(Float32, 1, 1, 2, 3), strided(t4(Float32, 1, 1, 2, 4), 16, 16, 8, 1)}, Axis: 3})
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSplit(SplitDesc{Input: t4(Float16, 1, 1, 6, 2), Outputs: SplitOutputs(Float16, []int64{1, 1, 6, 2}, 2, []int64{2, 1, 3}), Axis: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		got  string
		want []string
	}{
		{j.CPP(), []string{"UINT input0Sizes[4] = {1, 1, 2, 3};", "UINT input1Strides[4] = {16, 16, 8, 1};", "input0BufferDesc.Strides = nullptr; // packed",
			"UINT outputSizes[4] = {1, 1, 2, 7};", "DML_TENSOR_DESC inputDescs[2] = { input0Desc, input1Desc };", "joinDesc.InputCount = 2;",
			"joinDesc.InputTensors = inputDescs;", "joinDesc.OutputTensor = &outputDesc;", "joinDesc.Axis = 3;", "{ DML_OPERATOR_JOIN, &joinDesc }; // needs DML_FEATURE_LEVEL_1_0"}},
		{s.CPP(), []string{"UINT inputSizes[4] = {1, 1, 6, 2};", "UINT output1Sizes[4] = {1, 1, 1, 2};", "output2BufferDesc.DataType = DML_TENSOR_DATA_TYPE_FLOAT16;",
			"DML_TENSOR_DESC outputDescs[3] = { output0Desc, output1Desc, output2Desc };", "splitDesc.InputTensor = &inputDesc;", "splitDesc.OutputCount = 3;",
			"splitDesc.OutputTensors = outputDescs;", "splitDesc.Axis = 2;", "{ DML_OPERATOR_SPLIT, &splitDesc };"}},
	} {
		for _, w := range c.want {
			if !strings.Contains(c.got, w) {
				t.Errorf("no %q in\n%s", w, c.got)
			}
		}
	}
}
