package web

import (
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
)

// TestStrictJSONOnEveryEndpoint: every body of every endpoint, the
// import's formats and the DxDispatch model's fields among them, is read
// by the same rules (strictjson): a null where a number is wanted, inside
// a list too, is a 400 at its index, never a 0; so is a fraction, a
// string or a number past 64 bits; every fault at once. A null scalar that
// the docs say is optional still means "not given".
func TestStrictJSONOnEveryEndpoint(t *testing.T) {
	ts := newTestServer(t)
	const dx = `{"dxdispatch":{"dispatchables":{"s":{"type":"DML_OPERATOR_SLICE1","desc":%s}}}}`
	desc := func(in, rest string) string {
		return strings.Replace(dx, "%s", `{"InputTensor":`+in+`,"OutputTensor":{"DataType":"FLOAT32","Sizes":[2]}`+rest+`}`, 1)
	}
	const window = `,"InputWindowOffsets":[0],"InputWindowSizes":[3],"InputWindowStrides":[2]`
	for _, c := range []struct {
		name, path, body string
		status           int
		want             []string // field: code, in order
	}{
		{"numpy null stride", "/api/v1/import", `{"numpy":{"dtype":"float32","shape":[2,3],"strides":[12,null]}}`, 400,
			[]string{"numpy.strides[1]: json.whole"}},
		{"numpy null offset is not given", "/api/v1/import", `{"numpy":{"dtype":"float32","shape":[2,3],"strides":[12,4],"offset":null}}`, 200, nil},
		{"numpy every fault at once", "/api/v1/import", `{"numpy":{"dtype":5,"shape":[2,null],"strides":"12,4","offset":1.5,"order":"C"}}`, 400,
			[]string{"numpy.dtype: json.type", "numpy.shape[1]: json.whole", "numpy.strides: json.whole.list", "numpy.offset: json.whole", "numpy.order: json.field.unknown"}},
		{"onnx wrong type in a list", "/api/v1/import", `{"onnx":{"inputShape":[4,4],"starts":[0,"1"],"ends":[2,2]}}`, 400,
			[]string{"onnx.starts[1]: json.whole"}},
		{"onnx past 64 bits in a list", "/api/v1/import", `{"onnx":{"inputShape":[4,4],"starts":[0,0],"ends":[2,9223372036854775808]}}`, 400,
			[]string{"onnx.ends[1]: json.whole.range"}},
		{"onnx null axis", "/api/v1/import", `{"onnx":{"inputShape":[4,4],"starts":[0],"ends":[2],"axes":[null]}}`, 400,
			[]string{"onnx.axes[0]: json.whole"}},
		{"torch null stride, null offset", "/api/v1/import", `{"torch":{"size":[2,3],"stride":[null,1],"storage_offset":null}}`, 400,
			[]string{"torch.stride[0]: json.whole"}},
		{"torch a list for a number", "/api/v1/import", `{"torch":{"size":[2,3],"stride":[3,1],"storage_offset":[1]}}`, 400,
			[]string{"torch.storage_offset: json.whole"}},
		{"text of the wrong kind", "/api/v1/import", `{"text":5}`, 400, []string{"text: json.type"}},
		{"dxdispatch null size", "/api/v1/import", desc(`{"DataType":"FLOAT32","Sizes":[4,null]}`, window), 400,
			[]string{"dxdispatch.dispatchables.s.desc.InputTensor.Sizes[1]: json.whole"}},
		{"dxdispatch null window stride, a string offset", "/api/v1/import", desc(`{"DataType":"FLOAT32","Sizes":[4]}`, `,"InputWindowOffsets":["0"],"InputWindowSizes":[3],"InputWindowStrides":[null]`), 400,
			[]string{"dxdispatch.dispatchables.s.desc.InputWindowOffsets[0]: json.whole", "dxdispatch.dispatchables.s.desc.InputWindowStrides[0]: json.whole"}},
		{"dxdispatch long form's fraction", "/api/v1/import", desc(`{"Type":"DML_TENSOR_TYPE_BUFFER","Desc":{"DataType":"FLOAT32","Sizes":[4],"Strides":[1.5]}}`, window), 400,
			[]string{"dxdispatch.dispatchables.s.desc.InputTensor.Desc.Strides[0]: json.whole"}},
		{"dxdispatch total of the wrong kind", "/api/v1/import", desc(`{"DataType":"FLOAT32","Sizes":[4],"TotalTensorSizeInBytes":"16"}`, window), 400,
			[]string{"dxdispatch.dispatchables.s.desc.InputTensor.TotalTensorSizeInBytes: json.whole"}},
		// What the importer does not read in an operator desc is passed over.
		{"dxdispatch desc with fields not read", "/api/v1/import", desc(`{"DataType":"FLOAT32","Sizes":[4]}`, window+`,"FusedActivation":null`), 200, nil},
		// A dispatchable's and a command's fields the importer reads; the
		// others are passed over.
		{"dxdispatch type and dispatchable of the wrong kind", "/api/v1/import", `{"dxdispatch":{"dispatchables":{"s":{"type":5,"desc":{}}},"commands":[{"type":"dispatch","dispatchable":7},{"type":"print","resource":"output"}]}}`, 400,
			[]string{"dxdispatch.dispatchables.s.type: json.type", "dxdispatch.commands[0].dispatchable: json.type"}},
		{"dxdispatch fields not read beside a dispatchable's and a command's", "/api/v1/import", `{"dxdispatch":{"dispatchables":{"s":{"type":"DML_OPERATOR_SLICE1","executionFlags":"NONE","desc":{"InputTensor":{"DataType":"FLOAT32","Sizes":[4]},"OutputTensor":{"DataType":"FLOAT32","Sizes":[2]}` + window + `}}},"commands":[{"type":"dispatch","dispatchable":"s","bindings":{}}]}}`, 200, nil},
		{"layout null size", "/api/v1/layout", `{"dataType":"FLOAT32","sizes":[2,null],"guaranteedBaseOffsetAlignment":null}`, 400,
			[]string{"sizes[1]: json.whole"}},
		{"slice null offset", "/api/v1/slice", `{"dataType":"FLOAT32","inputSizes":[4],"offsets":[null],"sizes":[2],"strides":[1]}`, 400,
			[]string{"offsets[0]: json.whole"}},
		{"slice1 past 64 bits", "/api/v1/slice1", `{"dataType":"FLOAT32","inputSizes":[4],"inputWindowOffsets":[0],"inputWindowSizes":[4],"inputWindowStrides":[-9223372036854775809]}`, 400,
			[]string{"inputWindowStrides[0]: json.whole.range"}},
		{"numpy expression's null size", "/api/v1/slice1/numpy", `{"inputSizes":[4,null],"expression":"x[1:]"}`, 400,
			[]string{"inputSizes[1]: json.whole"}},
		{"dxdispatch export of a layout", "/api/v1/dxdispatch", `{"dataType":"FLOAT32","sizes":[2,3],"strides":[3,null]}`, 400,
			[]string{"strides[1]: json.whole"}},
		{"dxdispatch export of a slice", "/api/v1/dxdispatch", `{"dataType":"FLOAT32","inputSizes":[4],"inputWindowOffsets":[0],"inputWindowSizes":[null],"inputWindowStrides":[1]}`, 400,
			[]string{"inputWindowSizes[0]: json.whole"}},
		{"dxdispatch export, a key twice and a null", "/api/v1/dxdispatch", `{"dataType":"FLOAT32","sizes":[2,null],"Sizes":[2]}`, 400,
			[]string{`Sizes: json.field.duplicate`, "sizes[1]: json.whole"}},
		{"dxdispatch export of a list", "/api/v1/dxdispatch", `[1]`, 400, []string{": json.type"}},
	} {
		status, out := post(t, ts, c.path, c.body)
		var got []string
		errs, _ := out["errors"].([]any)
		for _, e := range errs {
			m := e.(map[string]any)
			got = append(got, m["field"].(string)+": "+m["code"].(string))
		}
		if status != c.status || !slices.Equal(got, c.want) {
			t.Errorf("%s: %d %q, want %d %q (%v)", c.name, status, got, c.status, c.want, out)
		}
	}
	// The import box without JavaScript reads what was pasted by the same
	// rules, keys and all.
	for _, c := range []struct {
		name, pasted string
		fields       []string
	}{
		{"a null stride", `{"numpy":{"dtype":"float32","shape":[2,3],"strides":[12,null]}}`, []string{"numpy.strides[1]"}},
		{"an unknown key beside the format", `{"numpy":{"dtype":"float32","shape":[2,3]},"note":"x"}`, []string{"note"}},
		{"a key twice", `{"torch":{"size":[2],"stride":[1],"Stride":[2]}}`, []string{"torch.Stride"}},
		{"a bare model's null size", `{"dispatchables":{"s":{"type":"SLICE1","desc":{"InputTensor":{"DataType":"FLOAT32","Sizes":[4,null]},"OutputTensor":{"DataType":"FLOAT32","Sizes":[2]}` + window + `}}}}`,
			[]string{"dxdispatch.dispatchables.s.desc.InputTensor.Sizes[1]"}},
		{"a bare model's key twice", `{"dispatchables":{"s":{"type":"SLICE1","desc":{"InputTensor":{"DataType":"FLOAT32","Sizes":[4],"sizes":[4]},"OutputTensor":{"DataType":"FLOAT32","Sizes":[2]}` + window + `}}}}`,
			[]string{"dxdispatch.dispatchables.s.desc.InputTensor.sizes"}},
	} {
		res, err := http.PostForm(ts.URL+"/import", map[string][]string{"text": {c.pasted}})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusBadRequest {
			t.Errorf("import box, %s: status %d", c.name, res.StatusCode)
			continue
		}
		if n := strings.Count(string(b), "<code>"); n != len(c.fields) {
			t.Errorf("import box, %s: %d fields named, want %d", c.name, n, len(c.fields))
		}
		for _, f := range c.fields {
			if !strings.Contains(string(b), "<code>"+f+"</code>") {
				t.Errorf("import box, %s: the page does not name %s", c.name, f)
			}
		}
	}
}
