package web

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"mime"
	"net/http"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/interop"
)

// fetchModel posts body to /api/v1/dxdispatch and returns the model file.
func fetchModel(t *testing.T, base, body string) (int, []byte) {
	t.Helper()
	res, err := http.Post(base+"/api/v1/dxdispatch", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, b
}

// checkDxSchema checks a model against what DxDispatch's models/_schema.json
// requires, written out from the schema: the required members and their
// JSON types, the data type and command enums, initializers of one of the
// three shapes, and every name a command uses defined. It also checks the
// conventions of DxDispatch's model parser for tensor descs.
func checkDxSchema(t *testing.T, raw []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("the model is not JSON: %v\n%s", err, raw)
	}
	dataTypes := []string{"FLOAT16", "FLOAT32", "FLOAT64", "UINT8", "UINT16", "UINT32", "UINT64", "INT8", "INT16", "INT32", "INT64"}
	isInt := func(v any) bool { f, ok := v.(float64); return ok && f == float64(int64(f)) }
	for _, k := range []string{"resources", "dispatchables", "commands"} {
		if _, ok := m[k]; !ok {
			t.Fatalf("the model lacks required %q", k)
		}
	}
	resources, ok := m["resources"].(map[string]any)
	if !ok {
		t.Fatal("resources is not an object")
	}
	for name, r := range resources {
		res := r.(map[string]any)
		if dt, _ := res["initialValuesDataType"].(string); !slices.Contains(dataTypes, strings.TrimPrefix(dt, "DML_TENSOR_DATA_TYPE_")) {
			t.Errorf("resource %s: initialValuesDataType %q is not in the schema's enum", name, dt)
		}
		switch iv := res["initialValues"].(type) {
		case []any:
			if len(iv) == 0 {
				t.Errorf("resource %s: empty array initializer", name)
			}
			for _, v := range iv {
				if _, num := v.(float64); !num && !slices.Contains([]any{"inf", "-inf", "nan"}, v) {
					t.Errorf("resource %s: initial value %v is neither a number nor inf/-inf/nan", name, v)
				}
			}
		case map[string]any:
			if c, ok := iv["valueCount"]; !ok || !isInt(c) || c.(float64) <= 0 {
				t.Errorf("resource %s: valueCount %v must be an integer > 0", name, c)
			}
			_, constant := iv["value"]
			_, start := iv["valueStart"]
			_, delta := iv["valueDelta"]
			if constant == (start && delta) || start != delta {
				t.Errorf("resource %s: %v is neither a constant nor a sequence initializer", name, iv)
			}
		default:
			t.Errorf("resource %s: initialValues %T", name, iv)
		}
		if s, ok := res["sizeInBytes"]; ok && (!isInt(s) || s.(float64) <= 0) {
			t.Errorf("resource %s: sizeInBytes %v", name, s)
		}
	}
	dispatchables, ok := m["dispatchables"].(map[string]any)
	if !ok {
		t.Fatal("dispatchables is not an object")
	}
	for name, d := range dispatchables {
		disp := d.(map[string]any)
		typ, _ := disp["type"].(string)
		if !strings.HasPrefix(typ, "DML_OPERATOR_") {
			t.Errorf("dispatchable %s: type %q is not a DML operator", name, typ)
		}
		desc, ok := disp["desc"].(map[string]any)
		if !ok {
			t.Fatalf("dispatchable %s: a DML dispatchable requires an object desc", name)
		}
		for _, tn := range []string{"InputTensor", "OutputTensor"} {
			tensor, ok := desc[tn].(map[string]any)
			if !ok {
				t.Fatalf("dispatchable %s: no %s", name, tn)
			}
			if dt, _ := tensor["DataType"].(string); !slices.Contains(dataTypes, dt) {
				t.Errorf("%s.%s.DataType %q", name, tn, dt)
			}
			sizes, ok := tensor["Sizes"].([]any)
			if !ok || len(sizes) == 0 {
				t.Errorf("%s.%s.Sizes %v: required", name, tn, tensor["Sizes"])
			}
			if st, ok := tensor["Strides"].([]any); ok && len(st) != len(sizes) {
				t.Errorf("%s.%s: %d strides for %d sizes", name, tn, len(st), len(sizes))
			}
		}
		if dc, ok := desc["DimensionCount"]; ok && int(dc.(float64)) != len(desc["InputTensor"].(map[string]any)["Sizes"].([]any)) {
			t.Errorf("%s: DimensionCount %v", name, dc)
		}
	}
	commands, ok := m["commands"].([]any)
	if !ok || len(commands) == 0 {
		t.Fatal("commands is not a non-empty array")
	}
	for i, c := range commands {
		cmd := c.(map[string]any)
		switch cmd["type"] {
		case "dispatch":
			if _, ok := dispatchables[cmd["dispatchable"].(string)]; !ok {
				t.Errorf("command %d dispatches undefined %v", i, cmd["dispatchable"])
			}
			bindings, ok := cmd["bindings"].(map[string]any)
			if !ok {
				t.Fatalf("command %d: bindings required", i)
			}
			for k, v := range bindings {
				if _, ok := resources[v.(string)]; !ok {
					t.Errorf("command %d binds %s to undefined resource %v", i, k, v)
				}
			}
		case "print":
			if _, ok := resources[cmd["resource"].(string)]; !ok {
				t.Errorf("command %d prints undefined %v", i, cmd["resource"])
			}
		default:
			t.Errorf("command %d: type %v is not dispatch or print", i, cmd["type"])
		}
	}
	return m
}

// importModel sends a model to /api/v1/import and returns the answer.
func importBody(t *testing.T, base, body string) (int, map[string]any) {
	t.Helper()
	res, err := http.Post(base+"/api/v1/import", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatalf("import: the answer is not JSON: %v", err)
	}
	return res.StatusCode, out
}

// TestDxDispatchRoundTrip: a slice or a layout exported as a DxDispatch
// model (which the schema checks accept) imports as the same slice or
// layout: the DirectML pages' examples and random 1-8-D cases, padded,
// broadcast and reversed.
func TestDxDispatchRoundTrip(t *testing.T) {
	ts := newTestServer(t)
	// want is the import's slice1 or layout body, as the export's input.
	type slice struct {
		name, body, page string
		want             map[string]any
	}
	var cases []slice
	var examples struct {
		Cases []struct {
			Name                                                                 string
			InputSizes, InputWindowOffsets, InputWindowSizes, InputWindowStrides []int64
		}
	}
	b, err := os.ReadFile("testdata/slice1_page_examples.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &examples); err != nil {
		t.Fatal(err)
	}
	list := func(xs []int64) string {
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = fmt.Sprint(x)
		}
		return strings.Join(s, ",")
	}
	for _, e := range examples.Cases {
		body := fmt.Sprintf(`{"dataType":"FLOAT32","inputSizes":[%s],"inputWindowOffsets":[%s],"inputWindowSizes":[%s],"inputWindowStrides":[%s]}`,
			list(e.InputSizes), list(e.InputWindowOffsets), list(e.InputWindowSizes), list(e.InputWindowStrides))
		cases = append(cases, slice{e.Name, body, "slice", map[string]any{"dataType": "FLOAT32", "inputSizes": e.InputSizes, "inputStrides": nil,
			"inputWindowOffsets": e.InputWindowOffsets, "inputWindowSizes": e.InputWindowSizes, "inputWindowStrides": e.InputWindowStrides}})
	}
	rng := rand.New(rand.NewPCG(6, 4))
	types := []string{"FLOAT32", "FLOAT16", "INT8", "UINT16", "INT32", "FLOAT64"}
	for k := range 40 {
		r := 1 + rng.IntN(8)
		sizes, strides := make([]int64, r), make([]int64, r)
		off, win, step := make([]int64, r), make([]int64, r), make([]int64, r)
		pitch := int64(1)
		for d := r - 1; d >= 0; d-- {
			sizes[d] = 1 + rng.Int64N(4)
			switch rng.IntN(4) {
			case 0: // broadcast
				strides[d] = 0
			case 1: // padded
				strides[d] = pitch + rng.Int64N(3)
			default:
				strides[d] = pitch
			}
			pitch = max(pitch, strides[d]*sizes[d])
			off[d] = rng.Int64N(sizes[d])
			s := 1 + rng.Int64N(2)
			n := 1 + rng.Int64N((sizes[d]-off[d]-1)/s+1)
			win[d] = (n-1)*s + 1
			if rng.IntN(2) == 0 {
				s = -s // reversed
			}
			step[d] = s
		}
		dt := types[k%len(types)]
		cases = append(cases, slice{fmt.Sprintf("random-%d", k),
			fmt.Sprintf(`{"dataType":%q,"inputSizes":[%s],"inputStrides":[%s],"inputWindowOffsets":[%s],"inputWindowSizes":[%s],"inputWindowStrides":[%s]}`,
				dt, list(sizes), list(strides), list(off), list(win), list(step)),
			"slice", map[string]any{"dataType": dt, "inputSizes": sizes, "inputStrides": strides, "inputWindowOffsets": off, "inputWindowSizes": win, "inputWindowStrides": step}})
		// The same tensor as a layout.
		cases = append(cases, slice{fmt.Sprintf("layout-%d", k),
			fmt.Sprintf(`{"dataType":%q,"sizes":[%s],"strides":[%s]}`, dt, list(sizes), list(strides)),
			// The layout's model is an identity into a packed output:
			// it comes back as that conversion.
			"convert", map[string]any{"dataType": dt, "sizes": sizes, "inputStrides": strides}})
	}
	for _, tc := range cases {
		status, model := fetchModel(t, ts.URL, tc.body)
		if status != http.StatusOK {
			t.Fatalf("%s: export %d %s", tc.name, status, model)
		}
		checkDxSchema(t, model)
		status, got := importBody(t, ts.URL, `{"dxdispatch":`+string(model)+`}`)
		if status != http.StatusOK {
			t.Fatalf("%s: import %d %v\n%s", tc.name, status, got, model)
		}
		if got["page"] != tc.page {
			t.Fatalf("%s: imported as page %v", tc.name, got["page"])
		}
		key := map[string]string{"slice": "slice1", "convert": "identity"}[tc.page]
		imported := got[key].(map[string]any)
		for k, v := range tc.want {
			if jsonOf(imported[k]) != jsonOf(v) {
				t.Errorf("%s: %s exported as %s, imported as %s", tc.name, k, jsonOf(v), jsonOf(imported[k]))
			}
		}
	}
}

func jsonOf(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestDxDispatchInitialValues: the input resource holds what the explorer
// shows: 1..N at each element's offset, padding 0, a shared cell the first
// element's value, the typed values repeated; a sequence when that is
// exactly it; a clear 422 when neither fits a model.
func TestDxDispatchInitialValues(t *testing.T) {
	ts := newTestServer(t)
	get := func(path string) (int, []byte) {
		res, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, b
	}
	for _, tc := range []struct {
		name, post, get string
		status          int
		values          string // the input's initialValues, compact JSON
		size            int64  // the input's sizeInBytes; 0: none
		op              string
		errField        string
		errCode         string // the refusal's code
		errText         string // part of its message
	}{
		{name: "padded layout", post: `{"dataType":"FLOAT16","sizes":[2,3],"strides":[5,1]}`, status: 200, values: `[1,2,3,0,0,4,5,6]`, op: "DML_OPERATOR_ELEMENT_WISE_IDENTITY"},
		{name: "broadcast layout", post: `{"dataType":"FLOAT32","sizes":[2,3],"strides":[0,1]}`, status: 200, values: `[1,2,3]`, op: "DML_OPERATOR_ELEMENT_WISE_IDENTITY"},
		{name: "packed slice", post: `{"dataType":"FLOAT32","inputSizes":[1,1,4,4],"inputWindowOffsets":[0,0,0,1],"inputWindowSizes":[1,1,4,3],"inputWindowStrides":[1,1,-2,2]}`, status: 200, values: `{"valueCount":16,"valueStart":1,"valueDelta":1}`, op: "DML_OPERATOR_SLICE1"},
		{name: "typed values from the page", get: "/api/v1/dxdispatch/slice.json?dt=INT8&sizes=2,3&vals=1,-2,3", status: 200, values: `[1,-2,3,1,-2,3,0,0]`, op: "DML_OPERATOR_SLICE1"},
		{name: "FLOAT16 1..N past 65504", get: "/api/v1/dxdispatch/layout.json?dt=FLOAT16&sizes=65536", status: 200, op: "DML_OPERATOR_ELEMENT_WISE_IDENTITY"},
		{name: "UINT8 1..300 wraps", get: "/api/v1/dxdispatch/layout.json?dt=UINT8&sizes=300", status: 200, op: "DML_OPERATOR_ELEMENT_WISE_IDENTITY"},
		{name: "a large packed input is a sequence", post: `{"dataType":"FLOAT32","sizes":[4096,4096]}`, status: 200, values: `{"valueCount":16777216,"valueStart":1,"valueDelta":1}`, op: "DML_OPERATOR_ELEMENT_WISE_IDENTITY"},
		// A buffer longer than its elements is bound at its size, a
		// sequence's too: DxDispatch would bind 8 bytes of a 10-byte tensor.
		{name: "a sequence in a longer buffer", post: `{"dataType":"FLOAT32","sizes":[2],"totalTensorSizeInBytes":10}`, status: 200, values: `{"valueCount":2,"valueStart":1,"valueDelta":1}`, size: 10, op: "DML_OPERATOR_ELEMENT_WISE_IDENTITY"},
		{name: "a slice's sequence in a longer buffer", post: `{"dataType":"FLOAT32","inputSizes":[1,1,4,4],"inputTotalTensorSizeInBytes":66,"inputWindowOffsets":[0,0,0,1],"inputWindowSizes":[1,1,4,3],"inputWindowStrides":[1,1,-2,2]}`, status: 200, values: `{"valueCount":16,"valueStart":1,"valueDelta":1}`, size: 66, op: "DML_OPERATOR_SLICE1"},
		{name: "values in a longer buffer", post: `{"dataType":"FLOAT32","sizes":[2,3],"strides":[5,1],"totalTensorSizeInBytes":34}`, status: 200, values: `[1,2,3,0,0,4,5,6]`, size: 34, op: "DML_OPERATOR_ELEMENT_WISE_IDENTITY"},
		// Cells past the elements are the tail no element reads: the
		// sequence is the elements', the tail sizeInBytes's.
		{name: "a large sequence with a tail", post: `{"dataType":"FLOAT32","sizes":[70001],"totalTensorSizeInBytes":280008}`, status: 200, values: `{"valueCount":70001,"valueStart":1,"valueDelta":1}`, size: 280008, op: "DML_OPERATOR_ELEMENT_WISE_IDENTITY"},
		// Packed, but column-major: its cells hold 1 4 2 5 3 6, not 1..6.
		{name: "packed in another order", post: `{"dataType":"FLOAT32","sizes":[2,3],"strides":[1,2]}`, status: 200, values: `[1,4,2,5,3,6]`, op: "DML_OPERATOR_ELEMENT_WISE_IDENTITY"},
		{name: "a byte tensor's DWORD rounding", post: `{"dataType":"INT8","sizes":[2,3]}`, status: 200, values: `{"valueCount":6,"valueStart":1,"valueDelta":1}`, size: 8, op: "DML_OPERATOR_ELEMENT_WISE_IDENTITY"},
		{name: "UINT8 past 255, rounded up", post: `{"dataType":"UINT8","sizes":[70001]}`, status: 422, errField: "sizes", errCode: "dxdispatch.values.exact", errText: "UINT8 holds the integers exactly only up to 255"},
		{name: "a large padded input", post: `{"dataType":"FLOAT32","sizes":[300,300],"strides":[301,1]}`, status: 422, errField: "sizes", errCode: "dxdispatch.values"},
		// Packed 1..N, but past what FLOAT16 holds exactly: the reason is the type.
		{name: "a large FLOAT16 input", post: `{"dataType":"FLOAT16","sizes":[70000]}`, status: 422, errField: "sizes", errCode: "dxdispatch.values.exact", errText: "FLOAT16 holds the integers exactly only up to 2048"},
		{name: "4-bit", post: `{"dataType":"UINT4","sizes":[2,3]}`, status: 422, errField: "dataType"},
		{name: "neither", post: `{"dataType":"FLOAT32"}`, status: 400},
	} {
		var status int
		var b []byte
		if tc.post != "" {
			status, b = fetchModel(t, ts.URL, tc.post)
		} else {
			status, b = get(tc.get)
		}
		if status != tc.status {
			t.Fatalf("%s: status %d, want %d: %s", tc.name, status, tc.status, b)
		}
		if status != 200 {
			if tc.errField != "" && !strings.Contains(string(b), `"field":"`+tc.errField+`"`) {
				t.Errorf("%s: %s does not name %s", tc.name, b, tc.errField)
			}
			if tc.errCode != "" && !strings.Contains(string(b), `"code":"`+tc.errCode+`"`) {
				t.Errorf("%s: %s, want code %s", tc.name, b, tc.errCode)
			}
			if !strings.Contains(string(b), tc.errText) {
				t.Errorf("%s: %s does not say %q", tc.name, b, tc.errText)
			}
			continue
		}
		m := checkDxSchema(t, b)
		in := m["resources"].(map[string]any)["input"].(map[string]any)["initialValues"]
		var want any
		if tc.values != "" {
			if err := json.Unmarshal([]byte(tc.values), &want); err != nil {
				t.Fatal(err)
			}
		}
		if tc.values != "" && jsonOf(in) != jsonOf(want) {
			t.Errorf("%s: input %s, want %s", tc.name, jsonOf(in), tc.values)
		}
		if got, _ := m["resources"].(map[string]any)["input"].(map[string]any)["sizeInBytes"].(float64); int64(got) != tc.size {
			t.Errorf("%s: the input's sizeInBytes %v, want %d", tc.name, got, tc.size)
		}
		if tc.name == "FLOAT16 1..N past 65504" {
			vals := in.([]any)
			if len(vals) != 65536 || vals[2047] != 2048.0 || vals[2048] != 2048.0 || vals[2049] != 2050.0 || vals[65518] != 65504.0 || vals[65519] != "inf" {
				t.Errorf("%s: %d values, 2048..2050 -> %v %v %v, 65519 -> %v, 65520 -> %v", tc.name, len(vals), vals[2047], vals[2048], vals[2049], vals[65518], vals[65519])
			}
		}
		if tc.name == "UINT8 1..300 wraps" {
			vals := in.([]any)
			if len(vals) != 300 || vals[254].(float64) != 255 || vals[255].(float64) != 0 || vals[299].(float64) != 44 {
				t.Errorf("%s: %d values, 255th..256th %v %v", tc.name, len(vals), vals[254], vals[255])
			}
		}
		if op := m["dispatchables"].(map[string]any); !strings.Contains(jsonOf(op), `"type":"`+tc.op+`"`) {
			t.Errorf("%s: dispatchables %s, want %s", tc.name, jsonOf(op), tc.op)
		}
	}
}

// TestImportRefusals: what DirectML cannot express, or what is not the
// format, is a 400 naming the field, every violation at once.
func TestImportRefusals(t *testing.T) {
	ts := newTestServer(t)
	for _, tc := range []struct {
		name, body string
		fields     []string
	}{
		{"numpy negative and uneven strides, odd offset", `{"numpy":{"dtype":"<f4","shape":[2,3],"strides":[6,-4],"offset":2}}`, []string{"numpy.strides[0]", "numpy.strides[1]", "numpy.offset"}},
		{"numpy big-endian", `{"numpy":{"dtype":">f4","shape":[2,3]}}`, []string{"numpy.dtype"}},
		// Its element size still judges the strides and the offset.
		{"numpy big-endian, uneven stride and offset", `{"numpy":{"dtype":">f4","shape":[2,3],"strides":[3,4],"offset":2}}`, []string{"numpy.dtype", "numpy.strides[0]", "numpy.offset"}},
		{"numpy unknown dtype", `{"numpy":{"dtype":"complex64","shape":[2,3]}}`, []string{"numpy.dtype"}},
		{"numpy zero size", `{"numpy":{"dtype":"float32","shape":[2,0]}}`, []string{"numpy.shape[1]"}},
		{"torch bool", `{"torch":{"dtype":"torch.bool","size":[2],"stride":[1]}}`, []string{"torch.dtype"}},
		{"torch bfloat16 and a negative stride", `{"torch":{"dtype":"torch.bfloat16","size":[2,2],"stride":[-2,1]}}`, []string{"torch.dtype", "torch.stride[0]"}},
		{"torch bool, a negative stride and offset, and an empty size", `{"torch":{"dtype":"torch.bool","size":[2,0],"stride":[-1,1],"storage_offset":-1}}`, []string{"torch.dtype", "torch.stride[0]", "torch.storage_offset", "torch.size[1]"}},
		{"torch stride count", `{"torch":{"dtype":"torch.float32","size":[2,2],"stride":[1]}}`, []string{"torch.stride"}},
		{"torch wrong JSON type", `{"torch":{"dtype":"torch.float32","size":[2,1.5],"stride":[1,1]}}`, []string{"torch.size[1]"}},
		{"text without a size", `{"text":"(3, 1)"}`, []string{"text"}},
		{"text without strides", `{"text":"torch.Size([2, 3])"}`, []string{"text"}},
		{"onnx empty selection and zero step", `{"onnx":{"inputShape":[4,4],"starts":[3,0],"ends":[1,4],"steps":[1,0]}}`, []string{"onnx.starts[0]", "onnx.steps[1]"}},
		// A size out of range and each axis's own faults, at once.
		{"onnx zero size and zero step", `{"onnx":{"inputShape":[4,0],"starts":[0,0],"ends":[4,4],"steps":[0,1]}}`, []string{"onnx.inputShape[1]", "onnx.steps[0]"}},
		{"onnx zero size and a repeated axis", `{"onnx":{"inputShape":[0,4],"starts":[0,0],"ends":[4,4],"axes":[1,-1]}}`, []string{"onnx.inputShape[0]", "onnx.axes[1]"}},
		{"onnx repeated axis", `{"onnx":{"inputShape":[4,4],"starts":[0,0],"ends":[2,2],"axes":[1,-1]}}`, []string{"onnx.axes[1]"}},
		{"dxdispatch without a slice", `{"dxdispatch":{"resources":{},"dispatchables":{"gemm":{"type":"DML_OPERATOR_GEMM","desc":{}}},"commands":[]}}`, []string{"dxdispatch.dispatchables"}},
		{"dxdispatch window out of the input", `{"dxdispatch":{"resources":{},"dispatchables":{"s":{"type":"DML_OPERATOR_SLICE1","desc":{"InputTensor":{"DataType":"FLOAT32","Sizes":[4]},"OutputTensor":{"DataType":"FLOAT32","Sizes":[2]},"DimensionCount":1,"InputWindowOffsets":[3],"InputWindowSizes":[3],"InputWindowStrides":[1]}}},"commands":[]}}`,
			[]string{"dxdispatch.dispatchables.s.desc.InputWindowOffsets[0]"}},
		{"dxdispatch fraction", `{"dxdispatch":{"resources":{},"dispatchables":{"s":{"type":"SLICE1","desc":{"InputTensor":{"DataType":"FLOAT32","Sizes":[4]},"OutputTensor":{"DataType":"FLOAT32","Sizes":[2]},"InputWindowOffsets":[1.5],"InputWindowSizes":[3],"InputWindowStrides":[1]}}},"commands":[]}}`,
			[]string{"dxdispatch.dispatchables.s.desc.InputWindowOffsets[0]"}},
		{"dxdispatch Desc in a Desc", `{"dxdispatch":{"resources":{},"dispatchables":{"s":{"type":"SLICE1","desc":{"InputTensor":{"Type":"BUFFER","Desc":{"DataType":"FLOAT32","Sizes":[4],"Desc":{}}},"OutputTensor":{"DataType":"FLOAT32","Sizes":[2]},"InputWindowOffsets":[0],"InputWindowSizes":[3],"InputWindowStrides":[2]}}},"commands":[]}}`,
			[]string{"dxdispatch.dispatchables.s.desc.InputTensor.Desc.Desc"}},
		{"dxdispatch model as a string", `{"dxdispatch":"{\"a\":1}"}`, []string{"dxdispatch"}},
		// Both tensors of a SLICE1 are judged, and its rank.
		{"dxdispatch two bad tensors", `{"dxdispatch":{"resources":{},"dispatchables":{"s":{"type":"SLICE1","desc":{"InputTensor":{"DataType":"FLOAT32","DimensionCount":3,"Sizes":[4]},"OutputTensor":{"Type":"TEXTURE","Desc":{"DataType":"FLOAT32","Sizes":[2]}},"InputWindowOffsets":[0],"InputWindowSizes":[3],"InputWindowStrides":[2]}}},"commands":[]}}`,
			[]string{"dxdispatch.dispatchables.s.desc.InputTensor.DimensionCount", "dxdispatch.dispatchables.s.desc.OutputTensor.Type"}},
		{"dxdispatch no output, wrong rank", `{"dxdispatch":{"resources":{},"dispatchables":{"s":{"type":"SLICE1","desc":{"InputTensor":{"DataType":"FLOAT32","Sizes":[4]},"DimensionCount":2,"InputWindowOffsets":[0],"InputWindowSizes":[3],"InputWindowStrides":[2]}}},"commands":[]}}`,
			[]string{"dxdispatch.dispatchables.s.desc.OutputTensor", "dxdispatch.dispatchables.s.desc.DimensionCount"}},
		// A DML_SLICE or an identity writes its output: one of other sizes
		// or another type breaks DirectML's rules, even though the
		// explorers draw no output tensor of theirs.
		{"dxdispatch SLICE output of another rank and type", `{"dxdispatch":{"dispatchables":{"s":{"type":"DML_OPERATOR_SLICE","desc":{"InputTensor":{"DataType":"FLOAT32","Sizes":[4,4]},"OutputTensor":{"DataType":"FLOAT16","Sizes":[2,2,1]},"DimensionCount":2,"Offsets":[0,1],"Sizes":[2,2],"Strides":[2,2]}}}}}`,
			[]string{"dxdispatch.dispatchables.s.desc.OutputTensor.Sizes", "dxdispatch.dispatchables.s.desc.OutputTensor.DataType"}},
		{"dxdispatch SLICE output larger, and a window out of the input", `{"dxdispatch":{"dispatchables":{"s":{"type":"DML_OPERATOR_SLICE","desc":{"InputTensor":{"DataType":"FLOAT32","Sizes":[4,4]},"OutputTensor":{"DataType":"FLOAT32","Sizes":[3,3]},"DimensionCount":2,"Offsets":[0,3],"Sizes":[2,2],"Strides":[2,2]}}}}}`,
			[]string{"dxdispatch.dispatchables.s.desc.Offsets[1]", "dxdispatch.dispatchables.s.desc.OutputTensor.Sizes"}},
		{"dxdispatch identity output of another shape and type", `{"dxdispatch":{"dispatchables":{"i":{"type":"DML_OPERATOR_ELEMENT_WISE_IDENTITY","desc":{"InputTensor":{"DataType":"FLOAT32","Sizes":[2,3]},"OutputTensor":{"DataType":"FLOAT16","Sizes":[3,2]}}}}}}`,
			[]string{"dxdispatch.dispatchables.i.desc.OutputTensor.Sizes", "dxdispatch.dispatchables.i.desc.OutputTensor.DataType"}},
		// A key given twice, in any case, at any depth: one value would be dropped.
		{"torch stride twice", `{"torch":{"dtype":"torch.float16","size":[2,3],"stride":[3,1],"STRIDE":[1,2]}}`, []string{"torch.STRIDE"}},
		{"dxdispatch window strides twice", `{"dxdispatch":{"resources":{},"dispatchables":{"s":{"type":"SLICE1","desc":{"InputTensor":{"DataType":"FLOAT32","Sizes":[4]},"OutputTensor":{"DataType":"FLOAT32","Sizes":[4]},"InputWindowOffsets":[0],"InputWindowSizes":[4],"InputWindowStrides":[1],"InputWindowStrides":[-1]}}},"commands":[]}}`,
			[]string{"dxdispatch.dispatchables.s.desc.InputWindowStrides"}},
		{"text with a size past 64 bits", `{"text":"torch.Size([18446744073709551616, 3]) (3, 1)"}`, []string{"text"}},
		{"text of a scalar", `{"text":"torch.Size([]) ()"}`, []string{"text"}},
		// The byte offset the note would give wraps past 2^63-1: 2^62
		// float32 elements are 0 bytes, 2^63-1 are -4.
		{"torch offset past 64 bits in bytes", `{"torch":{"dtype":"torch.float32","size":[2,3],"stride":[3,1],"storage_offset":4611686018427387904}}`, []string{"torch.storage_offset"}},
		{"torch offset of 2^63-1 elements", `{"torch":{"dtype":"torch.float32","size":[2,3],"stride":[3,1],"storage_offset":9223372036854775807}}`, []string{"torch.storage_offset"}},
		{"torch float64 offset wrapping to 16 bytes", `{"torch":{"dtype":"torch.float64","size":[2],"stride":[1],"storage_offset":2305843009213693954}}`, []string{"torch.storage_offset"}},
		{"text with an offset past 64 bits", `{"text":"torch.Size([2, 3]) (3, 1) storage_offset=99999999999999999999"}`, []string{"text"}},
		{"text with nine sizes", `{"text":"torch.Size([1, 1, 1, 1, 1, 1, 1, 1, 2]) (1, 1, 1, 1, 1, 1, 1, 1, 1)"}`, []string{"text"}},
		{"two formats", `{"text":"x","torch":{}}`, []string{""}},
	} {
		status, body := importBody(t, ts.URL, tc.body)
		if status != http.StatusBadRequest {
			t.Errorf("%s: status %d, want 400: %v", tc.name, status, body)
			continue
		}
		var fields []string
		for _, e := range body["errors"].([]any) {
			fields = append(fields, e.(map[string]any)["field"].(string))
		}
		if !slices.Equal(fields, tc.fields) {
			t.Errorf("%s: fields %q, want %q (%v)", tc.name, fields, tc.fields, body["errors"])
		}
	}
	// What is wrong with a pasted text is said as it is: a number too
	// large is not "not a whole number", a scalar has no stride tuple to miss.
	for text, want := range map[string]string{
		"torch.Size([18446744073709551616, 3]) (3, 1)":                   "past the 64-bit range",
		"torch.Size([]) ()":                                              "is a scalar",
		"torch.Size([2, 3]) (3, 1) storage_offset=99999999999999999999":  "storage_offset: \"99999999999999999999\" is past the 64-bit range",
		"torch.Size([2, 3]) (3, 1) storage_offset=-99999999999999999999": "storage_offset = -99999999999999999999: an offset into the storage is never negative",
	} {
		b, _ := json.Marshal(map[string]string{"text": text})
		_, body := importBody(t, ts.URL, string(b))
		if got, _ := body["errors"].([]any)[0].(map[string]any)["message"].(string); !strings.Contains(got, want) {
			t.Errorf("%s: %q, want it to say %q", text, got, want)
		}
	}
	// A value of the wrong kind is named in words, with the number it is,
	// at its index.
	_, body := importBody(t, ts.URL, `{"torch":{"dtype":"torch.float32","size":[2,1.5],"stride":[1,1]}}`)
	if msg := body["errors"].([]any)[0].(map[string]any)["message"]; msg != "torch.size[1] must be a whole number; got 1.5" {
		t.Errorf("torch.size: %q", msg)
	}
}

// TestImportViews: PyTorch and NumPy views and PyTorch's printed text
// open the layout explorer on the same tensor; offsets become notes on the
// buffer binding.
func TestImportViews(t *testing.T) {
	ts := newTestServer(t)
	for _, tc := range []struct {
		name, body, url, note string
	}{
		{"torch transposed", `{"torch":{"dtype":"torch.float16","size":[2,3],"stride":[1,2],"storage_offset":8}}`, "/?dt=FLOAT16&sizes=2,3&strides=1,2", "DML_BUFFER_BINDING::Offset = 16"},
		{"torch text", `{"text":">>> t.size(), t.stride(), t.dtype, t.storage_offset()\n(torch.Size([2, 3]), (1, 2), torch.int8, storage_offset=3)"}`, "/?dt=INT8&sizes=2,3&strides=1,2", "multiples of DML_MINIMUM_BUFFER_TENSOR_ALIGNMENT"},
		{"torch text, two lines", `{"text":"torch.Size([4, 5])\n(0, 1)"}`, "/?dt=FLOAT32&sizes=4,5&strides=0,1", "torch.float32 assumed"},
		{"numpy bytes to elements", `{"numpy":{"dtype":"<f4","shape":[2,3],"strides":[20,4],"offset":32}}`, "/?dt=FLOAT32&sizes=2,3&strides=5,1", "divided by the element size, 4 bytes"},
		{"numpy packed", `{"numpy":{"dtype":"uint8","shape":[2,3]}}`, "/?dt=UINT8&sizes=2,3", ""},
		{"onnx reversed with INT64_MIN end", `{"onnx":{"inputShape":[5,6],"starts":[-1],"ends":[-9223372036854775808],"axes":[-1],"steps":[-2],"dataType":"float16"}}`, "/slice?dt=FLOAT16&sizes=5,6&woff=0,1&wsize=5,5&wstride=1,-2", "tight"},
	} {
		status, body := importBody(t, ts.URL, tc.body)
		if status != http.StatusOK {
			t.Fatalf("%s: %d %v", tc.name, status, body)
		}
		if got := body["url"].(string); got != tc.url {
			t.Errorf("%s: url %s, want %s", tc.name, got, tc.url)
		}
		if notes := jsonOf(body["notes"]); !strings.Contains(notes, tc.note) {
			t.Errorf("%s: notes %s lack %q", tc.name, notes, tc.note)
		}
		// The URL opens the page on it.
		res, err := http.Get(ts.URL + body["url"].(string))
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("%s: GET %s: %d", tc.name, body["url"], res.StatusCode)
		}
	}
}

// TestImportPage: the import box without JavaScript posts to /import: a
// result without notes is a 303 to its page, notes are shown with a link,
// errors at their fields with a 400.
func TestImportPage(t *testing.T) {
	ts := newTestServer(t)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range []struct {
		name, text string
		status     int
		location   string
		contains   []string
	}{
		{"torch text with a dtype", "torch.Size([2, 3])\n(1, 2)\ntorch.float16", http.StatusSeeOther, "/?dt=FLOAT16&sizes=2,3&strides=1,2", nil},
		{"a DxDispatch model, unwrapped", `{"resources":{},"dispatchables":{"s":{"type":"DML_OPERATOR_SLICE1","desc":{"InputTensor":{"DataType":"FLOAT32","Sizes":[4]},"OutputTensor":{"DataType":"FLOAT32","Sizes":[2]},"InputWindowOffsets":[0],"InputWindowSizes":[3],"InputWindowStrides":[-2]}}},"commands":[]}`,
			http.StatusOK, "", []string{`data-testid="import-open"`, `href="/slice?dt=FLOAT32&amp;sizes=4&amp;woff=0&amp;wsize=3&amp;wstride=-2"`, "initial values are not imported"}},
		{"a negative stride", `{"torch":{"size":[2],"stride":[-1]}}`, http.StatusBadRequest, "", []string{`data-testid="import-errors"`, "<code>torch.stride[0]</code>", "DirectML strides are UINT"}},
	} {
		res, err := client.PostForm(ts.URL+"/import", map[string][]string{"text": {tc.text}})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != tc.status {
			t.Fatalf("%s: status %d, want %d\n%s", tc.name, res.StatusCode, tc.status, b)
		}
		if got := res.Header.Get("Location"); got != tc.location {
			t.Errorf("%s: Location %q, want %q", tc.name, got, tc.location)
		}
		for _, c := range tc.contains {
			if !strings.Contains(string(b), c) {
				t.Errorf("%s: the page lacks %s", tc.name, c)
			}
		}
	}
}

// TestToolsHintNamesTheDownloadedFile: the command the tools panel shows
// runs the file its link downloads.
func TestToolsHintNamesTheDownloadedFile(t *testing.T) {
	ts := newTestServer(t)
	for _, page := range []string{"/?sizes=2,3", "/slice?preset=example2"} {
		_, doc := getPage(t, ts.URL+page, nil)
		href := doc.Find(tid("dx-download")).AttrOr("href", "")
		res, _ := fetchAs(t, ts, http.MethodGet, href, "", "")
		_, params, err := mime.ParseMediaType(res.Header.Get("Content-Disposition"))
		if err != nil {
			t.Fatalf("%s: %s: Content-Disposition %q: %v", page, href, res.Header.Get("Content-Disposition"), err)
		}
		if got, want := doc.Find(tid("tools")+" .hint code").Text(), "dxdispatch.exe "+params["filename"]; got != want {
			t.Errorf("%s: the hint says %q, want %q", page, got, want)
		}
	}
}

// TestImportDxOutputStrides: a SLICE1 model whose output is laid out other
// than packed is imported (the explorer's output is packed) and the note
// says what was left out; packed output strides need no note.
func TestImportDxOutputStrides(t *testing.T) {
	ts := newTestServer(t)
	model := func(outStrides string) string {
		return `{"dxdispatch":{"resources":{},"dispatchables":{"s":{"type":"DML_OPERATOR_SLICE1","desc":{"InputTensor":{"DataType":"FLOAT32","Sizes":[4,4]},"OutputTensor":{"DataType":"FLOAT32","Sizes":[2,2]` + outStrides + `},"DimensionCount":2,"InputWindowOffsets":[0,0],"InputWindowSizes":[2,2],"InputWindowStrides":[1,1]}}},"commands":[]}}`
	}
	for _, tc := range []struct {
		name, strides string
		note          bool
	}{
		{"column-major output", `,"Strides":[1,2]`, true},
		{"packed strides written out", `,"Strides":[2,1]`, false},
		{"no strides", ``, false},
	} {
		status, body := importBody(t, ts.URL, model(tc.strides))
		if status != http.StatusOK {
			t.Fatalf("%s: status %d: %v", tc.name, status, body)
		}
		notes := jsonOf(body["notes"])
		got := strings.Contains(notes, "OutputTensor.Strides {1,2} are not packed: the explorer writes the output packed ({2,1})")
		if got != tc.note {
			t.Errorf("%s: notes %s, want the output strides note: %v", tc.name, notes, tc.note)
		}
	}
}

// TestImportDxNamesTheModelsFields: a rule that compares two fields names
// both as the model writes them, in the asked language too: the output's
// data type was "outputDataType FLOAT16 != dataType FLOAT32", the API's
// names, in a model that has neither.
func TestImportDxNamesTheModelsFields(t *testing.T) {
	ts := newTestServer(t)
	const model = `{"dxdispatch":{"dispatchables":{"s":{"type":"DML_OPERATOR_SLICE1","desc":{"InputTensor":{"DataType":"FLOAT32","Sizes":[4]},"OutputTensor":{"DataType":"FLOAT16","Sizes":[2]},"DimensionCount":1,"InputWindowOffsets":[0],"InputWindowSizes":[2],"InputWindowStrides":[1]}}}}}`
	const at = "dxdispatch.dispatchables.s.desc."
	for lang, want := range map[string]string{
		"en": at + "OutputTensor.DataType FLOAT16 != " + at + "InputTensor.DataType FLOAT32: InputTensor and OutputTensor must have the same DataType",
		"fr": at + "OutputTensor.DataType FLOAT16\u202f!= " + at + "InputTensor.DataType FLOAT32\u00a0: InputTensor et OutputTensor doivent avoir le même DataType",
	} {
		res, err := http.Post(ts.URL+"/api/v1/import?lang="+lang, "application/json", strings.NewReader(model))
		if err != nil {
			t.Fatal(err)
		}
		var body map[string]any
		err = json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		errs, _ := body["errors"].([]any)
		if status := res.StatusCode; err != nil || status != http.StatusBadRequest || len(errs) != 1 || errs[0].(map[string]any)["message"] != want {
			t.Errorf("%s: %d %q, want %q", lang, status, errs, want)
		}
	}
}

// TestDxDispatchNegativeZero: a float's negative zero typed in the slice
// explorer's values is written -0.0 in the exported model, which
// DxDispatch's JSON parser reads as a float (it reads -0 as the integer
// 0, losing the sign); other values are written as before, an integer
// type's "-0" is 0; and the model still imports as the same slice.
func TestDxDispatchNegativeZero(t *testing.T) {
	ts := newTestServer(t)
	initial := regexp.MustCompile(`"input": \{[^}]*"initialValues": (\[[^\]]*\])`)
	for _, c := range []struct {
		dt, vals string
		want     string // the input's initialValues as the file writes them
	}{
		{"FLOAT32", "-0,1.5,0", "[-0.0 1.5 0 -0.0 1.5 0]"},
		{"FLOAT16", "-0,-2", "[-0.0 -2 -0.0 -2 -0.0 -2]"},
		{"FLOAT64", "-0.0,-1e-300,-0", "[-0.0 -1e-300 -0.0 -0.0 -1e-300 -0.0]"},
		{"INT16", "-0,-1,2", "[0 -1 2 0 -1 2]"},
	} {
		q := "dt=" + c.dt + "&sizes=2,3&woff=0,0&wsize=2,3&wstride=1,-1&vals=" + url.QueryEscape(c.vals)
		res, err := http.Get(ts.URL + "/api/v1/dxdispatch/slice.json?" + q)
		if err != nil {
			t.Fatal(err)
		}
		model, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", q, res.StatusCode, model)
		}
		checkDxSchema(t, model)
		m := initial.FindSubmatch(model)
		if m == nil {
			t.Fatalf("%s: no input values in\n%s", q, model)
		}
		if got := strings.ReplaceAll(string(m[1]), ",", ""); got != c.want {
			t.Errorf("%s: initialValues %s, want %s", q, m[1], c.want)
		}
		// The exported model imports as the slice it was made of.
		status, got := importBody(t, ts.URL, `{"dxdispatch":`+string(model)+`}`)
		if status != http.StatusOK {
			t.Fatalf("%s: import %d %v", q, status, got)
		}
		s1 := got["slice1"].(map[string]any)
		if s1["dataType"] != c.dt || jsonOf(s1["inputSizes"]) != "[2,3]" || jsonOf(s1["inputWindowStrides"]) != "[1,-1]" || jsonOf(s1["inputWindowSizes"]) != "[2,3]" {
			t.Errorf("%s: imported as %s", q, jsonOf(s1))
		}
	}
}

// TestEveryDxExporterIsNamedInTheToolsPanel: the tools panel says what
// each explorer's DxDispatch model runs (tools.runs.<kind>, views/tools.templ)
// in every language; a kind added to interop.DxExporters without its
// words showed the raw key (the conversion's did).
func TestEveryDxExporterIsNamedInTheToolsPanel(t *testing.T) {
	if len(interop.DxExporters) < 3 {
		t.Fatalf("only %d DxDispatch exporters", len(interop.DxExporters))
	}
	for name := range interop.DxExporters {
		for _, l := range i18n.Locales {
			key := i18n.Key("tools.runs." + name)
			if got := i18n.T(i18n.WithLocale(context.Background(), l), key); got == "" || got == string(key) {
				t.Errorf("%s: %s is %q", l, key, got)
			}
		}
	}
}
