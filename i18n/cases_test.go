package i18n_test

import (
	"encoding/json"
	"net/url"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/interop"
	"github.com/stridescope/stridescope/ops/slice1"
	"github.com/stridescope/stridescope/picture"
)

func i64(v int64) *int64 { return &v }

// violationCases produces violations through the public entry points of
// core and picture, one input per rule, so the English catalog can be
// checked against the messages those packages write.
func violationCases() []core.Violation {
	var out []core.Violation
	add := func(err error) { out = append(out, picture.CoreViolations(err)...) }
	layout := func(d core.TensorDesc) {
		l, err := core.NewLayout(d)
		if err != nil {
			add(err)
			return
		}
		out = append(out, l.Warnings...)
	}
	f32 := core.Float32
	layout(core.TensorDesc{DataType: f32, Sizes: []int64{0, 3}})
	layout(core.TensorDesc{DataType: f32, Sizes: []int64{-1, 1 << 33}})
	layout(core.TensorDesc{DataType: f32, Sizes: []int64{}})
	layout(core.TensorDesc{DataType: f32, Sizes: []int64{1, 1, 1, 1, 1, 1, 1, 1, 1}})
	layout(core.TensorDesc{DataType: f32, Sizes: []int64{2, 2}, Strides: []int64{1}})
	layout(core.TensorDesc{DataType: f32, Sizes: []int64{2, 2}, Strides: []int64{-1, 1 << 33}})
	layout(core.TensorDesc{DataType: f32, Sizes: []int64{65536, 65537}})
	layout(core.TensorDesc{DataType: f32, Sizes: []int64{2, 2}, Strides: []int64{1<<32 - 1, 1<<32 - 1}})
	layout(core.TensorDesc{DataType: f32, Sizes: []int64{2}, TotalTensorSizeInBytes: i64(-4)})
	layout(core.TensorDesc{DataType: f32, Sizes: []int64{2}, TotalTensorSizeInBytes: i64(4)})
	layout(core.TensorDesc{DataType: f32, Sizes: []int64{1}, TotalTensorSizeInBytes: i64(6)})
	layout(core.TensorDesc{DataType: f32, Sizes: []int64{2}, GuaranteedBaseOffsetAlignment: 3})
	layout(core.TensorDesc{DataType: f32, Sizes: []int64{2}, GuaranteedBaseOffsetAlignment: 2})
	layout(core.TensorDesc{DataType: core.Unknown, Sizes: []int64{2}})
	layout(core.TensorDesc{DataType: core.DataType(99), Sizes: []int64{2}})

	slice := func(d core.Slice1Desc) {
		_, err := core.NewSlice1(d)
		add(err)
	}
	in := core.TensorDesc{DataType: f32, Sizes: []int64{4, 4}}
	fl := func(s string) core.FeatureLevel {
		f, err := core.ParseFeatureLevel(s)
		if err != nil {
			panic(err)
		}
		return f
	}
	newest := core.NewestFeatureLevel
	slice(core.Slice1Desc{Input: in, FeatureLevel: newest, WindowOffsets: []int64{0}, WindowSizes: []int64{1, 1}, WindowStrides: []int64{1, 1}})
	slice(core.Slice1Desc{Input: in, FeatureLevel: fl("2_0"), WindowOffsets: []int64{0, 0}, WindowSizes: []int64{1, 1}, WindowStrides: []int64{1, 1}})
	slice(core.Slice1Desc{Input: in, FeatureLevel: fl("2_1"), WindowOffsets: []int64{0, 0}, WindowSizes: []int64{1, 1}, WindowStrides: []int64{1, 1}})
	slice(core.Slice1Desc{Input: in, OutputDataType: core.Float16, FeatureLevel: newest, WindowOffsets: []int64{0, 0}, WindowSizes: []int64{1, 1}, WindowStrides: []int64{1, 1}})
	slice(core.Slice1Desc{Input: core.TensorDesc{DataType: core.Int64, Sizes: []int64{4, 4, 1, 1}}, FeatureLevel: fl("3_0"), WindowOffsets: []int64{0, 0, 0, 0}, WindowSizes: []int64{1, 1, 1, 1}, WindowStrides: []int64{1, 1, 1, 1}})
	slice(core.Slice1Desc{Input: in, FeatureLevel: newest, WindowOffsets: []int64{-1, 3}, WindowSizes: []int64{0, 2}, WindowStrides: []int64{0, 1}})
	slice(core.Slice1Desc{Input: in, FeatureLevel: newest, WindowOffsets: []int64{1 << 33, 0}, WindowSizes: []int64{-2, 1}, WindowStrides: []int64{1 << 33, 1}})
	slice(core.Slice1Desc{Input: in, FeatureLevel: newest, WindowOffsets: []int64{0, 0}, WindowSizes: []int64{4, 4}, WindowStrides: []int64{2, 1}, OutputSizes: []int64{3, 0}})
	for _, d := range []core.DataType{core.UInt4, core.Int64} {
		slice(core.Slice1Desc{Input: core.TensorDesc{DataType: d, Sizes: []int64{4, 4}}, FeatureLevel: fl("4_0"), WindowOffsets: []int64{0, 0}, WindowSizes: []int64{1, 1}, WindowStrides: []int64{1, 1}})
	}
	_, err := core.NewSliceV1(core.SliceDesc{Input: in, Offsets: []int64{0, 0}, Sizes: []int64{2, 2}, Strides: []int64{-1, 1}}, newest)
	add(err)
	_, err = core.NewSliceV1(core.SliceDesc{Input: core.TensorDesc{DataType: f32, Sizes: []int64{1 << 31, 4}}, Offsets: []int64{0, 0}, Sizes: []int64{1 << 31, 2}, Strides: []int64{4, 1}}, newest)
	add(err)

	numpy := func(sizes []int64, expr string) {
		_, err := core.ParseNumpy(sizes, expr)
		if err != nil {
			out = append(out, core.ViolationOf("expression", err))
		}
	}
	for _, e := range []string{"x[" + string(make([]byte, 300)) + "]", "x[..., ...]", "x[1, 2, 3]", "x[5]", "x[::0]", "x[::4294967296]", "x[2:1]",
		"[1]", "x[1", "x[[1]]", "x[]", "x[None]", "x[1,,2]", "x[1:2:3:4]", "x[a]", "x[01]", "x[1:a]"} {
		numpy([]int64{4, 4}, e)
	}
	numpy([]int64{0, 4}, "x[:]")

	onnx := func(sizes, starts, ends, axes, steps []int64) {
		_, vs := core.ONNXSliceWindow(sizes, starts, ends, axes, steps, "onnx.")
		out = append(out, vs...)
	}
	onnx([]int64{}, nil, nil, nil, nil)
	onnx([]int64{0, 4}, []int64{0}, []int64{1, 2}, []int64{0, 1}, []int64{1, 1})
	onnx([]int64{4, 4}, []int64{0, 0}, []int64{1, 1}, []int64{5, 0}, nil)
	onnx([]int64{4, 4}, []int64{0, 0}, []int64{1, 1}, []int64{0, 0}, nil)
	onnx([]int64{4}, []int64{0, 0}, []int64{1, 1}, nil, nil)
	onnx([]int64{4}, []int64{0}, []int64{1}, nil, []int64{0})
	onnx([]int64{4}, []int64{3}, []int64{1}, nil, nil)
	onnx([]int64{4}, []int64{0}, []int64{4}, nil, []int64{1 << 33})

	// picture: the pages' and the API's parsing of what people type.
	v := picture.Validate(picture.LayoutState{DT: "FLOAT32", Sizes: []string{"", "x", "99999999999999999999"}, Strides: []string{"q", "1", "1"}, Total: "a", Align: "b"}, nil)
	out = append(out, v.Errors...)
	v = picture.Validate(picture.LayoutState{DT: "NOPE", Sizes: []string{"2"}, Packed: true}, nil)
	out = append(out, v.Errors...)
	v = picture.Validate(picture.LayoutState{DT: "", Sizes: []string{"2"}, Packed: true}, nil)
	out = append(out, v.Errors...)
	_, qvs := picture.LayoutStateFromQuery(url.Values{"preset": {"nope"}, "rank": {"9"}})
	out = append(out, qvs...)
	_, qvs = slice1.StateFromQuery(url.Values{"preset": {"nope"}, "rank": {"0"}})
	out = append(out, qvs...)
	for _, vals := range []string{"1 2 x", "70000", "300", "-1", "1e400"} {
		for _, d := range []core.DataType{core.Float16, core.UInt8, core.Int8} {
			_, vs := slice1.ParseValues(vals, d)
			out = append(out, vs...)
		}
	}
	// Several bad values: one violation each, at most three.
	for _, vals := range []string{"x y", "a b c d"} {
		_, vs := slice1.ParseValues(vals, core.UInt8)
		out = append(out, vs...)
	}
	for _, body := range []string{
		`{}`,
		`{"torch": {"dtype": "torch.bool", "size": [2], "stride": [-1], "storage_offset": -1}}`,
		`{"torch": {"dtype": "torch.bfloat16", "size": [2], "stride": [1]}}`,
		`{"torch": {"dtype": "torch.nope", "size": [2], "stride": [1]}}`,
		`{"numpy": {"dtype": ">f4", "shape": [2], "strides": [4]}}`,
		`{"numpy": {"dtype": "nope", "shape": [2], "strides": [4]}}`,
		`{"numpy": {"dtype": "float32", "shape": [2, 2], "strides": [-4, 3], "offset": 2}}`,
		`{"onnx": {"inputShape": [4], "starts": [0], "ends": [2], "dataType": "nope"}}`,
		`{"text": "nothing here"}`,
		`{"text": "torch.Size([2, 3])"}`,
		`{"dxdispatch": {"resources": {}, "dispatchables": {}}}`,
	} {
		var req interop.ImportRequest
		if err := json.Unmarshal([]byte(body), &req); err != nil {
			panic(err)
		}
		if _, ierr := interop.Import(req); ierr != nil {
			out = append(out, ierr.Violations...)
		}
	}
	return out
}
