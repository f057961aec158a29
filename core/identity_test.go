package core

import (
	"errors"
	"math"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// unfilled finds a placeholder left in a message ({field}); a
// coordinate's braces ({0,2}) are the message's own.
var unfilled = regexp.MustCompile(`\{[a-z]+(:q)?\}`)

func ptr(v int64) *int64 { return &v }

// identityOf is the desc of a copy between two strides of the same sizes
// (nil: packed), as the API builds it.
func identityOf(dt DataType, sizes, in, out []int64) IdentityDesc {
	return IdentityDesc{
		Input:  TensorDesc{DataType: dt, Sizes: sizes, Strides: in},
		Output: TensorDesc{DataType: dt, Sizes: sizes, Strides: out},
	}
}

type fieldCode struct{ field, code string }

func violationsOf(t *testing.T, err error) []fieldCode {
	t.Helper()
	if err == nil {
		return nil
	}
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("error %v is not a *ValidationError", err)
	}
	var out []fieldCode
	for _, v := range ve.Violations {
		if v.Message == "" || unfilled.MatchString(v.Message) {
			t.Errorf("%s: message %q is empty or unfilled", v.Field, v.Message)
		}
		out = append(out, fieldCode{v.Field, v.Code})
	}
	return out
}

// TestIdentityRules holds each rule of DML_ELEMENT_WISE_IDENTITY to its
// field and code, every violation at once.
func TestIdentityRules(t *testing.T) {
	nhwc := []int64{24, 1, 12, 3} // 1x3x2x4 stored NHWC
	big := func(d IdentityDesc) IdentityDesc { d.Output.TotalTensorSizeInBytes = ptr(8); return d }
	cases := []struct {
		name string
		desc IdentityDesc
		want []fieldCode
	}{
		{"NHWC to NCHW", identityOf(Float32, []int64{1, 3, 2, 4}, nhwc, nil), nil},
		{"input broadcast is allowed", identityOf(Float16, []int64{3, 4}, []int64{0, 1}, nil), nil},
		{"input overlap is allowed", identityOf(Float32, []int64{2, 3}, []int64{2, 1}, nil), nil},
		{"output broadcast is a write race", identityOf(Float32, []int64{3, 4}, nil, []int64{0, 1}),
			[]fieldCode{{"outputStrides[0]", "identity.output.broadcast"}}},
		{"two broadcast axes, each at its stride", identityOf(Float32, []int64{3, 4}, nil, []int64{0, 0}),
			[]fieldCode{{"outputStrides[0]", "identity.output.broadcast"}, {"outputStrides[1]", "identity.output.broadcast"}}},
		{"size-1 axis with stride 0 is no broadcast", identityOf(Float32, []int64{1, 4}, nil, []int64{0, 1}), nil},
		{"output overlap names two elements", identityOf(Float32, []int64{2, 3}, nil, []int64{2, 1}),
			[]fieldCode{{"outputStrides", "identity.output.overlap.at"}}},
		{"overlap too large to visit is unproven", identityOf(UInt8, []int64{3000, 3000}, nil, []int64{3, 2}),
			[]fieldCode{{"outputStrides", "identity.output.unproven"}}},
		{"mismatched ranks: output strides count", identityOf(Float32, []int64{2, 3}, nil, []int64{3, 1, 1}),
			[]fieldCode{{"outputStrides", "tensor.strides.count"}}},
		{"nine dimensions, reported once", identityOf(Float32, []int64{1, 1, 1, 1, 1, 1, 1, 1, 2}, nil, nil),
			[]fieldCode{{"sizes", "tensor.rank.max"}}},
		{"output total too small", big(identityOf(Float32, []int64{2, 3}, nil, nil)),
			[]fieldCode{{"outputTotalTensorSizeInBytes", "tensor.total.small"}}},
		{"4-bit types are never supported", identityOf(UInt4, []int64{2, 4}, nil, nil),
			[]fieldCode{{"dataType", "identity.datatype.4bit"}}},
		{"negative input stride", identityOf(Float32, []int64{2, 3}, []int64{3, -1}, nil),
			[]fieldCode{{"inputStrides[1]", "tensor.stride.negative"}}},
		{"all at once", IdentityDesc{
			Input:     TensorDesc{DataType: Float32, Sizes: []int64{2, 3}, Strides: []int64{3, 1}, GuaranteedBaseOffsetAlignment: 3},
			Output:    TensorDesc{DataType: Float32, Sizes: []int64{2, 3}, Strides: []int64{0, 1}, TotalTensorSizeInBytes: ptr(4)},
			ScaleBias: &ScaleBias{Scale: math.NaN(), Bias: 1e39},
		}, []fieldCode{
			{"inputGuaranteedBaseOffsetAlignment", "tensor.alignment.pow2"},
			{"outputTotalTensorSizeInBytes", "tensor.total.small"},
			{"outputStrides[0]", "identity.output.broadcast"},
			{"scaleBias.scale", "identity.scalebias.float"},
			{"scaleBias.bias", "identity.scalebias.float"},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			id, err := NewIdentity(c.desc)
			got := violationsOf(t, err)
			if !slices.Equal(got, c.want) {
				t.Fatalf("violations %v, want %v", got, c.want)
			}
			if c.want == nil && id == nil {
				t.Fatal("valid desc gave no identity")
			}
		})
	}
}

// TestIdentityFullDescsMustAgree: with two full DML_BUFFER_TENSOR_DESCs
// (as a DxDispatch model gives them) the data type, the DimensionCount
// and every size must agree.
func TestIdentityFullDescsMustAgree(t *testing.T) {
	cases := []struct {
		name string
		out  TensorDesc
		want []fieldCode
	}{
		{"data type", TensorDesc{DataType: Float16, Sizes: []int64{2, 3}}, []fieldCode{{"outputDataType", "identity.datatype.same"}}},
		{"rank", TensorDesc{DataType: Float32, Sizes: []int64{6}}, []fieldCode{{"outputSizes", "identity.rank.same"}}},
		{"size", TensorDesc{DataType: Float32, Sizes: []int64{2, 4}}, []fieldCode{{"outputSizes[1]", "identity.size.same"}}},
		{"the output's own size rule too", TensorDesc{DataType: Float32, Sizes: []int64{2, 0}},
			[]fieldCode{{"outputSizes[1]", "tensor.size.zero"}, {"outputSizes[1]", "identity.size.same"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewIdentity(IdentityDesc{Input: TensorDesc{DataType: Float32, Sizes: []int64{2, 3}}, Output: c.out})
			if got := violationsOf(t, err); !slices.Equal(got, c.want) {
				t.Fatalf("violations %v, want %v", got, c.want)
			}
		})
	}
}

func TestIdentityDataTypesAndFeatureLevels(t *testing.T) {
	cases := []struct {
		dt    DataType
		sizes []int64
		want  string
	}{
		{Float32, []int64{1, 3, 2, 4}, "1_0"},
		{Float16, []int64{1, 1, 3, 2, 4}, "1_0"},
		{Int8, []int64{1, 3, 2, 4}, "2_1"},
		{UInt32, []int64{1, 3, 2, 4}, "2_1"},
		{Float32, []int64{3, 4}, "3_0"},
		{Int16, []int64{1, 1, 1, 1, 1, 1, 2, 2}, "3_0"},
		{Float64, []int64{1, 3, 2, 4}, "4_1"},
		{Int64, []int64{7}, "4_1"},
	}
	for _, c := range cases {
		id, err := NewIdentity(identityOf(c.dt, c.sizes, nil, nil))
		if err != nil {
			t.Fatalf("%v %v: %v", c.dt, c.sizes, err)
		}
		if got := id.MinFeatureLevel().String(); got != c.want {
			t.Errorf("%v %v: needs %s, want %s", c.dt, c.sizes, got, c.want)
		}
	}
	if n := len(IdentityDataTypes(NewestFeatureLevel)); n != 11 {
		t.Errorf("%d data types at the newest level, want 11 (all but the 4-bit)", n)
	}
}

func TestIdentityRunsAndPermutation(t *testing.T) {
	cases := []struct {
		name         string
		sizes, in    []int64
		out          []int64
		inRuns, outR Runs
		perm         []int // nil: not a packed transpose
		same         bool
	}{
		{"NHWC to NCHW", []int64{1, 3, 2, 4}, []int64{24, 1, 12, 3}, nil,
			Runs{24, 1, 3}, Runs{1, 24, 1}, []int{0, 1, 2, 3}, false},
		{"NCHW to NHWC", []int64{1, 3, 5, 2}, nil, []int64{30, 1, 6, 3},
			Runs{1, 30, 1}, Runs{30, 1, 3}, []int{0, 2, 3, 1}, false},
		{"a size-1 axis stays in place", []int64{1, 3, 5, 1}, nil, []int64{15, 1, 3, 15},
			Runs{1, 15, 1}, Runs{15, 1, 3}, []int{0, 2, 1, 3}, false},
		{"2-D transpose", []int64{3, 5}, nil, []int64{1, 3},
			Runs{1, 15, 1}, Runs{15, 1, 3}, []int{1, 0}, false},
		{"padded rows", []int64{3, 5}, nil, []int64{8, 1},
			Runs{1, 15, 1}, Runs{3, 5, 1}, nil, false},
		{"broadcast input", []int64{3, 4}, []int64{0, 1}, nil,
			Runs{3, 4, 1}, Runs{1, 12, 1}, []int{0, 1}, false},
		{"reshape is free: size-1 strides differ", []int64{2, 1, 6}, []int64{6, 6, 1}, []int64{6, 1, 1},
			Runs{1, 12, 1}, Runs{1, 12, 1}, []int{0, 1, 2}, true},
		{"one element", []int64{1, 1}, nil, nil, Runs{1, 1, 0}, Runs{1, 1, 0}, []int{0, 1}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			id, err := NewIdentity(identityOf(Float32, c.sizes, c.in, c.out))
			if err != nil {
				t.Fatal(err)
			}
			if r := RunsOf(id.Input); r != c.inRuns {
				t.Errorf("input runs %+v, want %+v", r, c.inRuns)
			}
			if r := RunsOf(id.Output); r != c.outR {
				t.Errorf("output runs %+v, want %+v", r, c.outR)
			}
			p, ok := id.Permutation()
			if ok != (c.perm != nil) || !slices.Equal(p, c.perm) {
				t.Errorf("permutation %v %v, want %v", p, ok, c.perm)
			}
			if id.SameMemory() != c.same || id.NoCopyNeeded() != c.same {
				t.Errorf("same memory %v, want %v", id.SameMemory(), c.same)
			}
		})
	}
}

// TestIdentityLargestTensorIsInstant: a copy of 2^32-1 elements is
// validated and described from its strides alone.
func TestIdentityLargestTensorIsInstant(t *testing.T) {
	start := time.Now()
	sizes := []int64{65535, 65537} // 2^32-1
	id, err := NewIdentity(identityOf(UInt8, sizes, nil, []int64{1, 65535}))
	if err != nil {
		t.Fatal(err)
	}
	if n := id.Input.LogicalElementCount(); n != 1<<32-1 {
		t.Fatalf("%d elements", n)
	}
	if r := RunsOf(id.Output); r != (Runs{1<<32 - 1, 1, 65535}) {
		t.Errorf("output runs %+v", r)
	}
	if p, ok := id.Permutation(); !ok || !slices.Equal(p, []int{1, 0}) {
		t.Errorf("permutation %v %v", p, ok)
	}
	_ = id.CPP() + id.NumPy()
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v", d)
	}
}

func TestIdentityExports(t *testing.T) {
	id, err := NewIdentity(IdentityDesc{
		Input:     TensorDesc{DataType: Float32, Sizes: []int64{1, 3, 2, 4}, Strides: []int64{24, 1, 12, 3}},
		Output:    TensorDesc{DataType: Float32, Sizes: []int64{1, 3, 2, 4}},
		ScaleBias: &ScaleBias{Scale: 0.5, Bias: 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	cpp := id.CPP()
	for _, want := range []string{
		"UINT inputStrides[4] = {24, 1, 12, 3};",
		"outputBufferDesc.Strides = nullptr; // packed",
		"DML_SCALE_BIAS scaleBias = { 0.5f, 2.0f };",
		"identityDesc.ScaleBias = &scaleBias;",
		"DML_OPERATOR_ELEMENT_WISE_IDENTITY, &identityDesc }; // needs DML_FEATURE_LEVEL_1_0",
	} {
		if !strings.Contains(cpp, want) {
			t.Errorf("C++ lacks %q:\n%s", want, cpp)
		}
	}
	np := id.NumPy()
	for _, want := range []string{
		"x = np.lib.stride_tricks.as_strided(input_buffer, shape=(1, 3, 2, 4), strides=(24*e, 1*e, 12*e, 3*e))",
		"y[...] = (x * np.float32(0.5) + np.float32(2)).astype(np.float32)",
	} {
		if !strings.Contains(np, want) {
			t.Errorf("NumPy lacks %q:\n%s", want, np)
		}
	}
	if _, ok := id.ONNX(); ok {
		t.Error("an NHWC input is not an ONNX tensor: no Transpose")
	}
	tr, _ := NewIdentity(identityOf(Float16, []int64{3, 5}, nil, []int64{1, 3}))
	if np := tr.NumPy(); !strings.Contains(np, "output_buffer[:15] = np.ascontiguousarray(x.transpose((1, 0))).ravel()") {
		t.Errorf("transpose NumPy:\n%s", np)
	}
	if p, ok := tr.ONNX(); !ok || !slices.Equal(p, []int{1, 0}) {
		t.Errorf("ONNX perm %v %v", p, ok)
	}
}

func TestCheckWritten(t *testing.T) {
	small := int64(8)
	for _, tc := range []struct {
		name  string
		d     TensorDesc
		field string
		code  string
	}{
		{"packed", TensorDesc{DataType: Float32, Sizes: []int64{2, 3}}, "", ""},
		{"padded rows", TensorDesc{DataType: Float32, Sizes: []int64{2, 3}, Strides: []int64{4, 1}}, "", ""},
		{"broadcast", TensorDesc{DataType: Float32, Sizes: []int64{2, 3}, Strides: []int64{3, 0}}, "outputStrides[1]", "identity.output.broadcast"},
		{"overlap", TensorDesc{DataType: Float32, Sizes: []int64{2, 3}, Strides: []int64{1, 1}}, "outputStrides", "identity.output.overlap.at"},
		{"strides count", TensorDesc{DataType: Float32, Sizes: []int64{2, 3}, Strides: []int64{1}}, "outputStrides", "tensor.strides.count"},
		{"buffer too small", TensorDesc{DataType: Float32, Sizes: []int64{2, 3}, TotalTensorSizeInBytes: &small}, "outputTotalTensorSizeInBytes", "tensor.total.small"},
	} {
		vs := CheckWritten(tc.d)
		if tc.code == "" {
			if len(vs) != 0 {
				t.Errorf("%s: %v, want none", tc.name, vs)
			}
			continue
		}
		if len(vs) != 1 || vs[0].Field != tc.field || vs[0].Code != tc.code {
			t.Errorf("%s: %v, want %s at %s", tc.name, vs, tc.code, tc.field)
		}
	}
}
