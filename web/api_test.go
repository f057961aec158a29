package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stridescope/stridescope/testkit"
)

func newTestServer(t *testing.T) *httptest.Server {
	t.Helper()
	s := New(Config{Logger: testkit.Quiet()})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return ts
}

// post sends body to path and decodes the JSON answer into a map.
func post(t *testing.T, ts *httptest.Server, path, body string) (int, map[string]any) {
	t.Helper()
	res, err := http.Post(ts.URL+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatalf("%s: response is not JSON: %v", path, err)
	}
	return res.StatusCode, out
}

func ints(v any) []int64 {
	xs, _ := v.([]any)
	out := make([]int64, len(xs))
	for i, x := range xs {
		out[i] = int64(x.(float64))
	}
	return out
}

func errorFields(body map[string]any) []string {
	var fields []string
	errs, _ := body["errors"].([]any)
	for _, e := range errs {
		m := e.(map[string]any)
		fields = append(fields, m["field"].(string)+": "+m["message"].(string))
	}
	return fields
}

func TestLayoutAPI(t *testing.T) {
	ts := newTestServer(t)
	tests := []struct {
		name        string
		body        string
		wantStatus  int
		wantOffsets []int64
		wantSize    int64
		wantFacts   map[string]any
		wantFields  []string // prefixes of "field: message" that must appear
		wantOnly    bool     // and no other errors
	}{
		{
			name: "padded height stride 5", body: `{"dataType":"FLOAT32","sizes":[2,3],"strides":[5,1]}`,
			wantStatus: 200, wantOffsets: []int64{0, 1, 2, 5, 6, 7}, wantSize: 32,
			wantFacts: map[string]any{"isPadded": true, "isPacked": false, "minimumImpliedElementCount": 8.0, "distinctOffsetCount": 6.0},
		},
		{
			name: "packed implicit NCHW", body: `{"dataType":"FLOAT16","sizes":[1,1,3,5]}`,
			wantStatus: 200, wantSize: 32,
			wantFacts: map[string]any{"isPacked": true, "stridesImplicit": true},
		},
		{
			name: "broadcast", body: `{"dataType":"FLOAT32","sizes":[2,3],"strides":[0,1]}`,
			wantStatus: 200, wantOffsets: []int64{0, 1, 2, 0, 1, 2}, wantSize: 12,
			wantFacts: map[string]any{"hasBroadcast": true, "hasOverlap": true},
		},
		{
			name: "2^32-1 elements answered without offsets", body: `{"dataType":"FLOAT32","sizes":[65535,65537]}`,
			wantStatus: 200, wantSize: 17179869180,
			wantFacts: map[string]any{"logicalElementCount": 4294967295.0, "distinctOffsetCount": 4294967295.0, "isPacked": true},
		},
		{
			name: "dword warning", body: `{"dataType":"UINT8","sizes":[2,3],"strides":[5,1],"totalTensorSizeInBytes":10}`,
			wantStatus: 200, wantSize: 8,
		},
		{
			name: "2^40 elements", body: `{"dataType":"FLOAT32","sizes":[1048576,1048576]}`,
			wantStatus: 422, wantFields: []string{"sizes: the logical element count 1099511627776 > 2^32-1"},
		},
		{
			name: "nine dimensions", body: `{"dataType":"FLOAT32","sizes":[1,1,1,1,1,1,1,1,1]}`,
			wantStatus: 422, wantFields: []string{"sizes: DimensionCount 9 > 8"},
		},
		{
			name: "every violation at once", body: `{"dataType":"UNKNOWN","sizes":[2,0,-1],"strides":[1,-2,3],"totalTensorSizeInBytes":-4,"guaranteedBaseOffsetAlignment":24}`,
			wantStatus: 422, wantFields: []string{"dataType:", "sizes[1]:", "sizes[2]:", "strides[1]:", "totalTensorSizeInBytes:", "guaranteedBaseOffsetAlignment:"},
		},
		{
			name: "total size too small", body: `{"dataType":"FLOAT32","sizes":[2,3],"strides":[5,1],"totalTensorSizeInBytes":24}`,
			wantStatus: 422, wantFields: []string{"totalTensorSizeInBytes: totalTensorSizeInBytes 24 < DMLCalcBufferTensorSize 32"},
		},
		{
			name: "bad type does not invent a total-size error", body: `{"dataType":"FOO","sizes":[4],"totalTensorSizeInBytes":4,"guaranteedBaseOffsetAlignment":2}`,
			wantStatus: 422, wantFields: []string{"dataType: unknown data type"}, wantOnly: true,
		},
		{name: "missing data type", body: `{"sizes":[2]}`, wantStatus: 422, wantFields: []string{"dataType: dataType is required"}},
		{name: "malformed JSON", body: `{"dataType":`, wantStatus: 400, wantFields: []string{": the body is not valid JSON"}},
		{name: "unknown field", body: `{"dataType":"FLOAT32","sizes":[2],"stride":[1]}`, wantStatus: 400, wantFields: []string{"stride: unknown field"}},
		// Keys match fields in any case, and encoding/json keeps the last
		// of two: a key given twice, at any depth, is refused rather than
		// one of its values dropped.
		{
			name: "a key twice", body: `{"dataType":"FLOAT32","sizes":[2],"strides":[5,1],"strides":null}`,
			wantStatus: 400, wantFields: []string{`strides: "strides" is given more than once (also as "strides")`}, wantOnly: true,
		},
		{
			name: "a key twice in another case", body: `{"dataType":"FLOAT32","sizes":[2],"DATATYPE":"INT8"}`,
			wantStatus: 400, wantFields: []string{`DATATYPE: "DATATYPE" is given more than once (also as "dataType")`}, wantOnly: true,
		},
		{
			// encoding/json folds as strings.EqualFold does: U+017F, a
			// long s, is an s, and the Kelvin sign (U+212A) a k.
			name: "a key twice in Unicode's case folding", body: `{"dataType":"FLOAT32","sizes":[2,3],"strides":[3,1],"ſtrides":[0,0]}`,
			wantStatus: 400, wantFields: []string{`ſtrides: "ſtrides" is given more than once (also as "strides")`}, wantOnly: true,
		},
		{
			name: "a key twice in Unicode's case folding, sizes", body: `{"dataType":"FLOAT32","sizes":[2],"ſizes":[3]}`,
			wantStatus: 400, wantFields: []string{`ſizes: "ſizes" is given more than once (also as "sizes")`}, wantOnly: true,
		},
		{name: "a key in another case alone", body: `{"DataType":"FLOAT32","Sizes":[2,3]}`, wantStatus: 200, wantSize: 24},
		{
			name: "a key twice and a bad element", body: `{"dataType":"FLOAT32","sizes":[2,null],"Sizes":[3]}`,
			wantStatus: 400, wantFields: []string{`Sizes: "Sizes" is given more than once (also as "sizes")`, "sizes[1]: sizes[1] must be a whole number; got null"},
		},
		{name: "fractional size", body: `{"dataType":"FLOAT32","sizes":[2.5]}`, wantStatus: 400, wantFields: []string{"sizes[0]: sizes[0] must be a whole number; got 2.5"}},
		{name: "enormous size", body: `{"dataType":"FLOAT32","sizes":[1e40]}`, wantStatus: 400, wantFields: []string{"sizes[0]: sizes[0] must be a whole number; got 1e40"}},
		{name: "trailing garbage", body: `{"dataType":"FLOAT32","sizes":[2]} x`, wantStatus: 400, wantFields: []string{": the body must hold exactly one JSON object"}},
		{name: "empty body", body: ``, wantStatus: 400, wantFields: []string{": the body is empty"}},
		{name: "null body", body: `null`, wantStatus: 400, wantFields: []string{": the body must be an object; got null"}, wantOnly: true},
		{name: "a list for the body", body: `[]`, wantStatus: 400, wantFields: []string{": the body must be an object; got a list"}, wantOnly: true},
		{
			name: "every JSON violation at once", body: `{"dataType":5,"sizes":{}}`,
			wantStatus: 400, wantFields: []string{"dataType: dataType must be a string; got a number", "sizes: sizes must be a list of whole numbers; got an object"}, wantOnly: true,
		},
		{
			name: "unknown field beside a bad element", body: `{"dataType":"FLOAT32","sizes":[2],"x":1,"strides":[null]}`,
			wantStatus: 400, wantFields: []string{"strides[0]: strides[0] must be a whole number; got null", "x: unknown field"}, wantOnly: true,
		},
		{
			name: "keys in another case, as encoding/json reads them", body: `{"DataType":"FLOAT32","Sizes":[2,3],"STRIDES":[3,1]}`,
			wantStatus: 200, wantOffsets: []int64{0, 1, 2, 3, 4, 5},
		},
		{
			name: "a bad value under a key in another case", body: `{"DataType":5,"sizes":[2]}`,
			wantStatus: 400, wantFields: []string{"dataType: dataType must be a string; got a number"}, wantOnly: true,
		},
		{
			name: "unknown field and trailing data", body: `{"a":1}{}`,
			wantStatus: 400, wantFields: []string{"a: unknown field", ": the body must hold exactly one JSON object"}, wantOnly: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, ts, "/api/v1/layout", tt.body)
			if status != tt.wantStatus {
				t.Fatalf("status %d, want %d (%v)", status, tt.wantStatus, body)
			}
			if tt.wantOffsets != nil && !slices.Equal(ints(body["offsets"]), tt.wantOffsets) {
				t.Errorf("offsets %v, want %v", body["offsets"], tt.wantOffsets)
			}
			if tt.wantSize != 0 && int64(body["minimumBufferSizeInBytes"].(float64)) != tt.wantSize {
				t.Errorf("minimumBufferSizeInBytes %v, want %d", body["minimumBufferSizeInBytes"], tt.wantSize)
			}
			for k, v := range tt.wantFacts {
				if body[k] != v {
					t.Errorf("%s = %v, want %v", k, body[k], v)
				}
			}
			got := errorFields(body)
			for _, want := range tt.wantFields {
				if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, want) }) {
					t.Errorf("errors %q lack %q", got, want)
				}
			}
			if tt.wantOnly && len(got) != len(tt.wantFields) {
				t.Errorf("errors %q, want only %q", got, tt.wantFields)
			}
			if status == 200 {
				if _, ok := body["warnings"].([]any); !ok {
					t.Errorf("warnings must be a list, got %v", body["warnings"])
				}
			}
		})
	}
}

func TestLayoutAPIWarnsOnUnalignedTotal(t *testing.T) {
	ts := newTestServer(t)
	_, body := post(t, ts, "/api/v1/layout", `{"dataType":"UINT8","sizes":[2,3],"strides":[5,1],"totalTensorSizeInBytes":10}`)
	ws, _ := body["warnings"].([]any)
	if len(ws) != 1 || ws[0].(map[string]any)["field"] != "totalTensorSizeInBytes" {
		t.Fatalf("warnings = %v, want one on totalTensorSizeInBytes", body["warnings"])
	}
	if body["bufferSizeInBytes"].(float64) != 10 {
		t.Errorf("bufferSizeInBytes = %v, want the given 10", body["bufferSizeInBytes"])
	}
}

func TestLayoutAPIRefusesHugeQuickly(t *testing.T) {
	ts := newTestServer(t)
	for _, body := range []string{
		`{"dataType":"FLOAT32","sizes":[4294967295,4294967295,4294967295,4294967295,4294967295,4294967295,4294967295,4294967295]}`,
		`{"dataType":"FLOAT32","sizes":[4294967295],"strides":[4294967295]}`,
		`{"dataType":"FLOAT32","sizes":[65536,65536],"strides":[4294967295,4294967295]}`,
	} {
		start := time.Now()
		status, out := post(t, ts, "/api/v1/layout", body)
		if status != 422 {
			t.Errorf("%s: status %d, want 422 (%v)", body, status, out)
		}
		// Generous bound: the point is "no enumeration", which would take minutes.
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s took %v", body, d)
		}
	}
}

func TestSlice1API(t *testing.T) {
	ts := newTestServer(t)
	tests := []struct {
		name       string
		body       string
		wantStatus int
		wantOff    []int64
		wantNumpy  string
		wantFields []string
	}{
		{
			name:       "example 2",
			body:       `{"dataType":"FLOAT32","inputSizes":[1,1,4,4],"inputWindowOffsets":[0,0,0,1],"inputWindowSizes":[1,1,4,3],"inputWindowStrides":[1,1,-2,2],"outputSizes":[1,1,2,2]}`,
			wantStatus: 200, wantOff: []int64{13, 15, 5, 7}, wantNumpy: "x[0:1, 0:1, 3:0:-2, 1:4:2]",
		},
		{
			name:       "NHWC input reads other cells",
			body:       `{"dataType":"FLOAT32","inputSizes":[1,2,2,2],"inputStrides":[8,1,4,2],"inputWindowOffsets":[0,0,0,0],"inputWindowSizes":[1,2,2,2],"inputWindowStrides":[1,1,1,-1]}`,
			wantStatus: 200, wantOff: []int64{2, 0, 6, 4, 3, 1, 7, 5},
		},
		{
			name:       "all violations",
			body:       `{"dataType":"FLOAT32","outputDataType":"FLOAT16","featureLevel":"3_0","inputSizes":[4,4],"inputWindowOffsets":[2,0],"inputWindowSizes":[3,0],"inputWindowStrides":[1,0],"outputSizes":[9,1]}`,
			wantStatus: 422,
			wantFields: []string{"outputDataType:", "inputWindowOffsets[0]: axis 0: InputWindowOffsets[0] + InputWindowSizes[0] = 5 > InputTensor.Sizes[0] = 4", "inputWindowSizes[1]:", "inputWindowStrides[1]:", "outputSizes[0]: axis 0: OutputSizes[0] = 9 not in [1, MaxCopiedElements = 3]"},
		},
		{
			name:       "feature level 2_1 needs 4 or 5 dimensions",
			body:       `{"dataType":"FLOAT32","featureLevel":"2_1","inputSizes":[4],"inputWindowOffsets":[0],"inputWindowSizes":[4],"inputWindowStrides":[1]}`,
			wantStatus: 422, wantFields: []string{"inputSizes: DimensionCount 1: DimensionCount must be 4 or 5"},
		},
		{
			name:       "bad type and level",
			body:       `{"dataType":"FLOAT33","featureLevel":"9_9","inputSizes":[4],"inputWindowOffsets":[0],"inputWindowSizes":[5],"inputWindowStrides":[1]}`,
			wantStatus: 422, wantFields: []string{"dataType: unknown data type", "featureLevel: featureLevel \"9_9\" is not a feature level: give one of 1_0, ", "inputWindowOffsets[0]:"},
		},
		{
			name: "array length mismatch", body: `{"dataType":"FLOAT32","inputSizes":[4,4],"inputWindowOffsets":[0,0,0],"inputWindowSizes":[4,4,1],"inputWindowStrides":[1,1,1]}`,
			wantStatus: 422, wantFields: []string{"inputWindowOffsets: inputWindowOffsets has 3 entries", "inputWindowSizes:", "inputWindowStrides:"},
		},
		{name: "unknown field", body: `{"dataType":"FLOAT32","inputSize":[4]}`, wantStatus: 400, wantFields: []string{"inputSize: unknown field"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, ts, "/api/v1/slice1", tt.body)
			if status != tt.wantStatus {
				t.Fatalf("status %d, want %d (%v)", status, tt.wantStatus, body)
			}
			if tt.wantOff != nil && !slices.Equal(ints(body["inputOffsets"]), tt.wantOff) {
				t.Errorf("inputOffsets %v, want %v", body["inputOffsets"], tt.wantOff)
			}
			if tt.wantNumpy != "" && body["numpy"] != tt.wantNumpy {
				t.Errorf("numpy %v, want %s", body["numpy"], tt.wantNumpy)
			}
			got := errorFields(body)
			for _, want := range tt.wantFields {
				if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, want) }) {
					t.Errorf("errors %q lack %q", got, want)
				}
			}
		})
	}
}

func TestNumpyAPI(t *testing.T) {
	ts := newTestServer(t)
	status, body := post(t, ts, "/api/v1/slice1/numpy", `{"inputSizes":[5,6,7],"expression":"x[1:4, ::-2, 3]"}`)
	if status != 200 {
		t.Fatalf("status %d: %v", status, body)
	}
	for field, want := range map[string][]int64{
		"inputWindowOffsets": {1, 1, 3}, "inputWindowSizes": {3, 5, 1}, "inputWindowStrides": {1, -2, 1}, "outputSizes": {3, 3, 1}, "droppedAxes": {2},
	} {
		if got := ints(body[field]); !slices.Equal(got, want) {
			t.Errorf("%s = %v, want %v", field, got, want)
		}
	}
	// pythonSliceIndices is slice.indices exactly: a step past 64 bits
	// stays whole, in the JSON's text.
	res, err := http.Post(ts.URL+"/api/v1/slice1/numpy", "application/json", strings.NewReader(`{"inputSizes":[5,6],"expression":"x[1:4, ::-0x1_0000_0000_0000_0000]"}`))
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if want := `"pythonSliceIndices":[[1,4,1],[5,-1,-18446744073709551616]]`; res.StatusCode != 200 || !strings.Contains(string(raw), want) {
		t.Errorf("a step past 64 bits: %d %s, want %s", res.StatusCode, raw, want)
	}
	status, body = post(t, ts, "/api/v1/slice1/numpy", `{"inputSizes":[4],"expression":"x[2:-1:-1]"}`)
	if status != 422 || !strings.Contains(strings.Join(errorFields(body), "\n"), "expression: the selection is empty on axis 0") {
		t.Errorf("empty selection: %d %v", status, body)
	}
	status, body = post(t, ts, "/api/v1/slice1/numpy", `{"inputSizes":[0,1,1,1,1,1,1,1,1]}`)
	got := errorFields(body)
	if status != 422 || !slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "expression:") }) ||
		!slices.ContainsFunc(got, func(s string) bool { return strings.HasPrefix(s, "inputSizes:") }) {
		t.Errorf("want expression and inputSizes errors, got %d %q", status, got)
	}
}

func TestHealthAndIndex(t *testing.T) {
	ts := newTestServer(t)
	for path, want := range map[string]string{"/healthz": "ok", "/": "stridescope", "/static/app.css": "--ink"} {
		res, err := http.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || !bytes.Contains(b, []byte(want)) {
			t.Errorf("GET %s: %d, body lacks %q", path, res.StatusCode, want)
		}
		if res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("GET %s: no nosniff header", path)
		}
	}
	res, err := http.Get(ts.URL + "/api/v1/nothing")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 404 {
		t.Errorf("unknown API path: %d", res.StatusCode)
	}
}

func TestBodyLimit(t *testing.T) {
	ts := newTestServer(t)
	big := `{"dataType":"FLOAT32","sizes":[` + strings.Repeat("1,", 100000) + `1]}`
	status, body := post(t, ts, "/api/v1/layout", big)
	if status != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d, want 413 (%v)", status, body)
	}
}

// specCase is one worked example of core/testdata/spec-cases.json.
type specCase struct {
	Name     string         `json:"name"`
	Kind     string         `json:"kind"`
	Inputs   map[string]any `json:"inputs"`
	Expected map[string]any `json:"expected"`
}

func loadSpecCases(t *testing.T) []specCase {
	t.Helper()
	b, err := os.ReadFile("../core/testdata/spec-cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []specCase `json:"cases"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Cases
}

// TestSpecCasesThroughAPI sends every worked example of the specification
// through the HTTP API and checks the answers the case lists.
func TestSpecCasesThroughAPI(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range loadSpecCases(t) {
		t.Run(c.Name, func(t *testing.T) {
			in, want := c.Inputs, c.Expected
			switch c.Kind {
			case "layout", "buffer_size", "invalid_layout":
				req := map[string]any{"dataType": "FLOAT32", "sizes": in["sizes"], "strides": in["strides"]}
				if dt, ok := in["data_type"]; ok {
					req["dataType"] = dt
				}
				if v, ok := in["total_tensor_size_in_bytes"]; ok {
					req["totalTensorSizeInBytes"] = v
				}
				if v, ok := in["guaranteed_base_offset_alignment"]; ok {
					req["guaranteedBaseOffsetAlignment"] = v
				}
				b, _ := json.Marshal(req)
				status, body := post(t, ts, "/api/v1/layout", string(b))
				checkLayoutCase(t, c, status, body)
			case "slice1", "invalid_slice1":
				if expr, ok := in["numpy"].(string); ok {
					b, _ := json.Marshal(map[string]any{"inputSizes": in["input_sizes"], "expression": expr})
					status, body := post(t, ts, "/api/v1/slice1/numpy", string(b))
					if want["valid"] == false {
						if status != 422 || !strings.Contains(fmt.Sprint(body), "empty") {
							t.Fatalf("want 422 empty selection, got %d %v", status, body)
						}
						return
					}
					if status != 200 {
						t.Fatalf("numpy: %d %v", status, body)
					}
					tight := want["dml_slice1_tight"].(map[string]any)
					for k, f := range map[string]string{"input_window_offsets": "inputWindowOffsets", "input_window_sizes": "inputWindowSizes", "input_window_strides": "inputWindowStrides", "output_sizes": "outputSizes"} {
						if !slices.Equal(ints(body[f]), ints(tight[k])) {
							t.Errorf("%s = %v, want %v", f, body[f], tight[k])
						}
					}
					return
				}
				req := map[string]any{
					"dataType": firstOf(in, "data_type", "input_data_type"), "inputSizes": in["input_sizes"],
					"inputWindowOffsets": in["input_window_offsets"], "inputWindowSizes": in["input_window_sizes"],
					"inputWindowStrides": in["input_window_strides"], "outputSizes": in["output_sizes"],
				}
				if v, ok := in["output_data_type"]; ok {
					req["outputDataType"] = v
				}
				if v, ok := in["feature_level"]; ok {
					req["featureLevel"] = v
				}
				b, _ := json.Marshal(req)
				status, body := post(t, ts, "/api/v1/slice1", string(b))
				if want["valid"] == false {
					if status != 422 || len(errorFields(body)) == 0 {
						t.Fatalf("want 422 with errors, got %d %v", status, body)
					}
					return
				}
				if status != 200 {
					t.Fatalf("status %d: %v", status, body)
				}
				if !slices.Equal(ints(body["maxCopiedElements"]), ints(want["max_copied_elements"])) ||
					!slices.Equal(ints(body["copyStart"]), ints(want["copy_start"])) {
					t.Errorf("max %v start %v, want %v %v", body["maxCopiedElements"], body["copyStart"], want["max_copied_elements"], want["copy_start"])
				}
				values := ints(in["input_values_row_major"])
				offs := ints(body["inputOffsets"])
				got := make([]int64, len(offs))
				for i, o := range offs {
					got[i] = values[o]
				}
				if !slices.Equal(got, ints(want["output_values_row_major"])) {
					t.Errorf("output values %v, want %v", got, want["output_values_row_major"])
				}
				if body["numpy"] != want["numpy_equivalent"] {
					t.Errorf("numpy %v, want %v", body["numpy"], want["numpy_equivalent"])
				}
				if strings.HasPrefix(c.Name, "slice1_from_slice_v1_") {
					// The DML_SLICE these examples came from: its sizes are
					// the output sizes; the conversion must give the case's
					// DML_SLICE1 window and read the same values.
					b, _ := json.Marshal(map[string]any{"dataType": req["dataType"], "inputSizes": in["input_sizes"],
						"offsets": in["input_window_offsets"], "sizes": in["output_sizes"], "strides": in["input_window_strides"]})
					status, v1 := post(t, ts, "/api/v1/slice", string(b))
					if status != 200 {
						t.Fatalf("DML_SLICE: status %d: %v", status, v1)
					}
					w, _ := v1["slice1"].(map[string]any)
					for k, f := range map[string]string{"input_window_offsets": "inputWindowOffsets", "input_window_sizes": "inputWindowSizes", "input_window_strides": "inputWindowStrides", "output_sizes": "outputSizes"} {
						if !slices.Equal(ints(w[f]), ints(in[k])) {
							t.Errorf("DML_SLICE converted: %s = %v, want %v", f, w[f], in[k])
						}
					}
					if !slices.Equal(ints(v1["inputOffsets"]), offs) {
						t.Errorf("DML_SLICE reads %v, DML_SLICE1 %v", v1["inputOffsets"], offs)
					}
				}
			default:
				t.Fatalf("unknown kind %q", c.Kind)
			}
		})
	}
}

func firstOf(m map[string]any, keys ...string) any {
	for _, k := range keys {
		if v, ok := m[k]; ok {
			return v
		}
	}
	return nil
}

func checkLayoutCase(t *testing.T, c specCase, status int, body map[string]any) {
	t.Helper()
	want := c.Expected
	if c.Kind == "invalid_layout" || (c.Kind == "buffer_size" && c.Inputs["data_type"] == "UNKNOWN") {
		// The DWORD rule is a warning in this project (directml-rules.md section 2, rule 7).
		if strings.Contains(c.Name, "dword") {
			if status != 200 || len(body["warnings"].([]any)) != 1 {
				t.Fatalf("want 200 with one warning, got %d %v", status, body)
			}
			return
		}
		if status != 422 || len(errorFields(body)) == 0 {
			t.Fatalf("want 422 with errors, got %d %v", status, body)
		}
		return
	}
	if status != 200 {
		t.Fatalf("status %d: %v", status, body)
	}
	checks := map[string]string{
		"effective_strides": "strides", "logical_element_count": "logicalElementCount",
		"min_implied_element_count": "minimumImpliedElementCount", "distinct_offset_count": "distinctOffsetCount",
		"is_packed": "isPacked", "has_broadcast": "hasBroadcast", "has_overlap": "hasOverlap", "is_padded": "isPadded",
		"offsets_row_major": "offsets", "directmlx_result": "minimumBufferSizeInBytes", "element_size_bits": "elementSizeInBits",
	}
	for k, f := range checks {
		w, ok := want[k]
		if !ok {
			continue
		}
		if fmt.Sprint(body[f]) != fmt.Sprint(w) {
			t.Errorf("%s = %v, want %v", f, body[f], w)
		}
	}
	if v, ok := want["index_of_last_element"]; ok && v != nil {
		if fmt.Sprint(body["indexOfLastElement"]) != fmt.Sprint(v) {
			t.Errorf("indexOfLastElement = %v, want %v", body["indexOfLastElement"], v)
		}
	}
	// The published helpers' answers, as the C++ returns them (the
	// documentation page's is 0 for the 4-bit types).
	if c.Kind == "buffer_size" {
		if want["directmlx_result"] == nil || want["helper_doc_result"] == nil {
			t.Fatalf("buffer_size case lacks directmlx_result or helper_doc_result")
		}
		helpers, ok := body["publishedHelperResults"].(map[string]any)
		if !ok {
			t.Fatalf("no publishedHelperResults in %v", body)
		}
		if fmt.Sprint(helpers["directmlx"]) != fmt.Sprint(want["directmlx_result"]) ||
			fmt.Sprint(helpers["documentationPage"]) != fmt.Sprint(want["helper_doc_result"]) {
			t.Errorf("publishedHelperResults = %v, want directmlx %v documentationPage %v", helpers, want["directmlx_result"], want["helper_doc_result"])
		}
	}
	if v, ok := want["bytes_before_4_rounding"]; ok {
		steps := body["bufferSizeSteps"].(map[string]any)
		if fmt.Sprint(steps["bytesBeforeRounding"]) != fmt.Sprint(v) {
			t.Errorf("bytesBeforeRounding = %v, want %v", steps["bytesBeforeRounding"], v)
		}
	}
}

func TestSliceV1API(t *testing.T) {
	ts := newTestServer(t)
	tests := []struct {
		name       string
		body       string
		wantStatus int
		wantWindow string // inputWindowOffsets/Sizes/Strides/outputSizes
		wantOff    []int64
		wantFields []string
	}{
		{
			name:       "strided: the window spans (size-1)*stride+1",
			body:       `{"dataType":"FLOAT32","inputSizes":[1,1,4,4],"offsets":[0,0,0,1],"sizes":[1,1,2,2],"strides":[1,1,2,2]}`,
			wantStatus: 200, wantWindow: "[0 0 0 1] [1 1 3 3] [1 1 2 2] [1 1 2 2]", wantOff: []int64{1, 3, 9, 11},
		},
		{
			name:       "padded input reads its own cells",
			body:       `{"dataType":"UINT16","inputSizes":[2,3],"inputStrides":[5,1],"offsets":[1,0],"sizes":[1,2],"strides":[1,2]}`,
			wantStatus: 200, wantWindow: "[1 0] [1 3] [1 2] [1 2]", wantOff: []int64{5, 7},
		},
		{
			name:       "every violation, named by the DML_SLICE field",
			body:       `{"dataType":"FLOAT32","inputSizes":[4,4],"offsets":[3,0],"sizes":[2,0],"strides":[1,-1]}`,
			wantStatus: 422,
			wantFields: []string{"strides[1]: strides[1] = -1: DML_SLICE_OPERATOR_DESC::Strides is const UINT*", "offsets[0]: as DML_SLICE1: axis 0: InputWindowOffsets[0] + InputWindowSizes[0] = 5 > InputTensor.Sizes[0] = 4", "sizes[1]: as DML_SLICE1:"},
		},
		{
			name:       "feature level and type",
			body:       `{"dataType":"FLOAT33","featureLevel":"2_1","inputSizes":[4],"offsets":[0],"sizes":[4],"strides":[1]}`,
			wantStatus: 422, wantFields: []string{"dataType: unknown data type", "inputSizes: DimensionCount 1: DimensionCount must be 4 or 5"},
		},
		{name: "a DML_SLICE1 field is not DML_SLICE's", body: `{"dataType":"FLOAT32","inputSizes":[4],"inputWindowOffsets":[0]}`, wantStatus: 400, wantFields: []string{"inputWindowOffsets: unknown field"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, ts, "/api/v1/slice", tt.body)
			if status != tt.wantStatus {
				t.Fatalf("status %d, want %d (%v)", status, tt.wantStatus, body)
			}
			if tt.wantWindow != "" {
				w, _ := body["slice1"].(map[string]any)
				got := fmt.Sprint(ints(w["inputWindowOffsets"]), ints(w["inputWindowSizes"]), ints(w["inputWindowStrides"]), ints(w["outputSizes"]))
				if got != tt.wantWindow {
					t.Errorf("slice1 window %s, want %s", got, tt.wantWindow)
				}
			}
			if tt.wantOff != nil && !slices.Equal(ints(body["inputOffsets"]), tt.wantOff) {
				t.Errorf("inputOffsets %v, want %v", body["inputOffsets"], tt.wantOff)
			}
			got := errorFields(body)
			for _, want := range tt.wantFields {
				if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, want) }) {
					t.Errorf("errors %q lack %q", got, want)
				}
			}
		})
	}
}

func TestSliceAPIsInputTotalAndAlignment(t *testing.T) {
	ts := newTestServer(t)
	// Example 2 on /api/v1/slice1 and the same copy as a DML_SLICE on
	// /api/v1/slice, with the input's buffer fields added.
	const slice1 = `{"dataType":"FLOAT32","inputSizes":[1,1,4,4],"inputWindowOffsets":[0,0,0,1],"inputWindowSizes":[1,1,4,3],"inputWindowStrides":[1,1,-2,2]%s}`
	const slice = `{"dataType":"FLOAT32","inputSizes":[1,1,4,4],"offsets":[0,0,0,1],"sizes":[1,1,2,2],"strides":[1,1,2,2]%s}`
	tests := []struct {
		name, fields string
		status       int
		cpp          []string
		warnings     []string
		errors       []string // exactly these fields, each message starting so
	}{
		{
			name: "a total above the minimum and an alignment", fields: `"inputTotalTensorSizeInBytes":96,"inputGuaranteedBaseOffsetAlignment":16`, status: 200,
			cpp: []string{"inputBufferDesc.TotalTensorSizeInBytes = 96; // DMLCalcBufferTensorSize gives 64\n", "inputBufferDesc.GuaranteedBaseOffsetAlignment = 16;\n"},
		},
		{
			name: "not given: the minimum", fields: ``, status: 200,
			cpp: []string{"inputBufferDesc.TotalTensorSizeInBytes = 64; // DMLCalcBufferTensorSize\n", "inputBufferDesc.GuaranteedBaseOffsetAlignment = 0;\n"},
		},
		{
			name: "not a multiple of 4 only warns", fields: `"inputTotalTensorSizeInBytes":70`, status: 200,
			cpp:      []string{"inputBufferDesc.TotalTensorSizeInBytes = 70; // DMLCalcBufferTensorSize gives 64\n"},
			warnings: []string{"inputTotalTensorSizeInBytes: inputTotalTensorSizeInBytes 70 is not a multiple of 4"},
		},
		{
			name: "4 GiB, at once", fields: `"inputTotalTensorSizeInBytes":4294967296`, status: 200,
			cpp: []string{"inputBufferDesc.TotalTensorSizeInBytes = 4294967296; // DMLCalcBufferTensorSize gives 64\n"},
		},
		{
			// Rounding up to a multiple of 4 would wrap: the advice rounds down.
			name: "2^63-1 bytes, at once", fields: `"inputTotalTensorSizeInBytes":9223372036854775807`, status: 200,
			cpp:      []string{"inputBufferDesc.TotalTensorSizeInBytes = 9223372036854775807; // DMLCalcBufferTensorSize gives 64\n"},
			warnings: []string{"inputTotalTensorSizeInBytes: inputTotalTensorSizeInBytes 9223372036854775807 is not a multiple of 4: the DirectML helper functions page requires every bound buffer's total size to be DWORD-aligned (use 9223372036854775804)"},
		},
		{
			name: "below the minimum, an odd alignment, a bad level", fields: `"inputTotalTensorSizeInBytes":60,"inputGuaranteedBaseOffsetAlignment":3,"featureLevel":"9_9"`, status: 422,
			errors: []string{"inputTotalTensorSizeInBytes: inputTotalTensorSizeInBytes 60 < DMLCalcBufferTensorSize 64: the buffer must hold every element",
				"inputGuaranteedBaseOffsetAlignment: inputGuaranteedBaseOffsetAlignment 3 must be 0 or a power of two", "featureLevel: featureLevel \"9_9\" is not a feature level: give one of 1_0, "},
		},
		{
			name: "negative, and below the element size", fields: `"inputTotalTensorSizeInBytes":-1,"inputGuaranteedBaseOffsetAlignment":2`, status: 422,
			errors: []string{"inputTotalTensorSizeInBytes: inputTotalTensorSizeInBytes -1 is negative", "inputGuaranteedBaseOffsetAlignment: inputGuaranteedBaseOffsetAlignment 2 must be at least the element size (4 bytes)"},
		},
		{
			// The minimum depends on the element size: without a type only
			// what needs none is judged.
			name: "an unknown type", fields: `,"dataType":"FLOAT33","inputTotalTensorSizeInBytes":8,"inputGuaranteedBaseOffsetAlignment":6`, status: 422,
			errors: []string{"dataType: unknown data type", "inputGuaranteedBaseOffsetAlignment: inputGuaranteedBaseOffsetAlignment 6 must be 0 or a power of two"},
		},
		{name: "past 64 bits", fields: `"inputTotalTensorSizeInBytes":18446744073709551616`, status: 400},
		{name: "a fraction", fields: `"inputGuaranteedBaseOffsetAlignment":1.5`, status: 400},
	}
	for _, tt := range tests {
		for _, ep := range []struct{ path, body string }{{"/api/v1/slice1", slice1}, {"/api/v1/slice", slice}} {
			t.Run(tt.name+" "+ep.path, func(t *testing.T) {
				fields := tt.fields
				if fields != "" && fields[0] != ',' {
					fields = "," + fields
				}
				base := ep.body
				if strings.Contains(fields, `"dataType":`) {
					// A key given twice is refused (json.field.duplicate).
					base = strings.Replace(base, `"dataType":"FLOAT32",`, "", 1)
				}
				start := time.Now()
				status, body := post(t, ts, ep.path, fmt.Sprintf(base, fields))
				if d := time.Since(start); d > 2*time.Second {
					t.Errorf("took %v", d)
				}
				if status != tt.status {
					t.Fatalf("status %d, want %d (%v)", status, tt.status, body)
				}
				if status == 200 && !slices.Equal(ints(body["inputOffsets"]), []int64{13, 15, 5, 7}) && !slices.Equal(ints(body["inputOffsets"]), []int64{1, 3, 9, 11}) {
					t.Errorf("inputOffsets %v", body["inputOffsets"])
				}
				cpp, _ := body["cpp"].(string)
				for _, want := range tt.cpp {
					if !strings.Contains(cpp, want) {
						t.Errorf("the C++ lacks %q:\n%s", want, cpp)
					}
				}
				var warned []string
				ws, _ := body["warnings"].([]any)
				for _, w := range ws {
					m := w.(map[string]any)
					warned = append(warned, m["field"].(string)+": "+m["message"].(string))
				}
				if len(warned) != len(tt.warnings) {
					t.Errorf("warnings %q, want %q", warned, tt.warnings)
				}
				for i, want := range tt.warnings {
					if i < len(warned) && !strings.HasPrefix(warned[i], want) {
						t.Errorf("warning %q, want %q", warned[i], want)
					}
				}
				got := errorFields(body)
				if status == 422 && len(got) != len(tt.errors) {
					t.Errorf("errors %q, want %q", got, tt.errors)
				}
				for _, want := range tt.errors {
					if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, want) }) {
						t.Errorf("errors %q lack %q", got, want)
					}
				}
			})
		}
	}
}

// TestAPILooseEdges: the JSON API never reads what it was not given. A
// null inside an integer list was a 0 (strides [null,1] answered 200 with
// a broadcast); a fraction in an embedded struct's list named the Go
// struct and no index; DML_SLICE's messages gave the unconverted window
// size; an empty or dotted featureLevel was taken for 6_4; the NumPy route
// refused what NumPy accepts.
func TestAPILooseEdges(t *testing.T) {
	ts := newTestServer(t)
	tests := []struct {
		name, path, body string
		status           int
		want             []string // error "field: message" prefixes, every one reported
	}{
		{"null stride", "/api/v1/layout", `{"dataType":"FLOAT32","sizes":[2,3],"strides":[null,1]}`, 400,
			[]string{"strides[0]: strides[0] must be a whole number; got null"}},
		{"null window offset", "/api/v1/slice1", `{"dataType":"FLOAT32","inputSizes":[4,4],"inputWindowOffsets":[0,null],"inputWindowSizes":[4,4],"inputWindowStrides":[1,1]}`, 400,
			[]string{"inputWindowOffsets[1]: inputWindowOffsets[1] must be a whole number; got null"}},
		{"null input stride", "/api/v1/slice1", `{"dataType":"FLOAT32","inputSizes":[4,4],"inputStrides":[4,null],"inputWindowOffsets":[0,0],"inputWindowSizes":[4,4],"inputWindowStrides":[1,1]}`, 400,
			[]string{"inputStrides[1]: inputStrides[1] must be a whole number; got null"}},
		{"fractional window offset names its index", "/api/v1/slice1", `{"dataType":"FLOAT32","inputSizes":[4,4],"inputWindowOffsets":[0,1.5],"inputWindowSizes":[4,3],"inputWindowStrides":[1,1]}`, 400,
			[]string{"inputWindowOffsets[1]: inputWindowOffsets[1] must be a whole number; got 1.5"}},
		{"every wrong number at once", "/api/v1/layout", `{"dataType":"FLOAT32","sizes":[null,"3",2.0],"strides":"1,1","totalTensorSizeInBytes":1.5}`, 400,
			[]string{"sizes[0]: sizes[0] must be a whole number; got null", "sizes[1]: sizes[1] must be a whole number; got a string",
				"sizes[2]: sizes[2] must be a whole number; got 2.0: write it without a fraction or exponent (2)", "strides: strides must be a list of whole numbers; got a string",
				"totalTensorSizeInBytes: totalTensorSizeInBytes must be a whole number; got 1.5"}},
		{"past int64", "/api/v1/layout", `{"dataType":"FLOAT32","sizes":[9223372036854775808]}`, 400,
			[]string{"sizes[0]: sizes[0] = 9223372036854775808: a whole number, but outside the range the API reads (-2^63 to 2^63-1)"}},
		// A UINT64 total past 2^63-1 is a whole number too: said as one.
		{"a total past int64", "/api/v1/layout", `{"dataType":"FLOAT32","sizes":[2],"totalTensorSizeInBytes":18446744073709551612}`, 400,
			[]string{"totalTensorSizeInBytes: totalTensorSizeInBytes = 18446744073709551612: a whole number, but outside the range the API reads (-2^63 to 2^63-1)"}},
		{"DML_SLICE window past a UINT, converted", "/api/v1/slice", `{"dataType":"FLOAT32","inputSizes":[4294967295],"offsets":[0],"sizes":[2147483653],"strides":[2]}`, 422,
			[]string{"sizes[0]: sizes[0] = 2147483653 with strides[0] = 2: as DML_SLICE1 the input window spans (2147483653 - 1) × 2 + 1 = 4294967305 elements, more than a UINT holds (4294967295)"}},
		{"empty feature level", "/api/v1/slice1", `{"dataType":"FLOAT32","featureLevel":"","inputSizes":[4],"inputWindowOffsets":[0],"inputWindowSizes":[4],"inputWindowStrides":[1]}`, 422,
			[]string{`featureLevel: featureLevel "" is not a feature level: give one of 1_0, `}},
		{"dotted feature level", "/api/v1/slice", `{"dataType":"FLOAT32","featureLevel":"6.4","inputSizes":[4],"offsets":[0],"sizes":[4],"strides":[1]}`, 422,
			[]string{`featureLevel: featureLevel "6.4" is not a feature level`}},
		{"feature level by its DirectML name", "/api/v1/slice1", `{"dataType":"FLOAT32","featureLevel":"DML_FEATURE_LEVEL_3_0","inputSizes":[4],"inputWindowOffsets":[0],"inputWindowSizes":[4],"inputWindowStrides":[1]}`, 200, nil},
		{"null feature level is the newest", "/api/v1/slice1", `{"dataType":"FLOAT32","featureLevel":null,"inputSizes":[4],"inputWindowOffsets":[0],"inputWindowSizes":[4],"inputWindowStrides":[1]}`, 200, nil},
		{"NumPy's empty tuple", "/api/v1/slice1/numpy", `{"inputSizes":[4,5],"expression":"x[()]"}`, 200, nil},
		{"NumPy's double minus", "/api/v1/slice1/numpy", `{"inputSizes":[4,5],"expression":"x[--1]"}`, 200, nil},
		{"NumPy's new axis", "/api/v1/slice1/numpy", `{"inputSizes":[4,5],"expression":"x[None]"}`, 422,
			[]string{"expression: entry 0: None inserts a new axis of size 1, which DML_SLICE1 cannot"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, body := post(t, ts, tt.path, tt.body)
			if status != tt.status {
				t.Fatalf("status %d, want %d: %v", status, tt.status, body)
			}
			got := errorFields(body)
			for _, want := range tt.want {
				if !slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, want) }) {
					t.Errorf("errors %q lack %q", got, want)
				}
			}
			if len(got) != len(tt.want) {
				t.Errorf("errors %q, want exactly %d", got, len(tt.want))
			}
		})
	}
	// The window of x[()] is the whole tensor; of x[--1], row 1.
	for expr, want := range map[string]string{"x[()]": "[0 0] [4 5] [1 1]", "x[--1]": "[1 0] [1 5] [1 1]"} {
		_, body := post(t, ts, "/api/v1/slice1/numpy", `{"inputSizes":[4,5],"expression":"`+expr+`"}`)
		if got := fmt.Sprint(ints(body["inputWindowOffsets"]), " ", ints(body["inputWindowSizes"]), " ", ints(body["inputWindowStrides"])); got != want {
			t.Errorf("%s: window %s, want %s", expr, got, want)
		}
	}
}

// TestAPIWritesRulesAsTheyRead: a message quoting a rule keeps its "<"
// (encoding/json would write \u003c), as the websocket's do.
func TestAPIWritesRulesAsTheyRead(t *testing.T) {
	ts := newTestServer(t)
	res, err := http.Post(ts.URL+"/api/v1/layout", "application/json", strings.NewReader(`{"dataType":"FLOAT32","sizes":[2,3],"totalTensorSizeInBytes":20}`))
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if !strings.Contains(string(b), "20 < DMLCalcBufferTensorSize 24") || res.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("%s (nosniff: %q)", b, res.Header.Get("X-Content-Type-Options"))
	}
}

// TestAPIMissingListsAreRequired: a list left out is said to be missing,
// every one at once, not "has 0 entries"; an empty list is judged as
// DirectML would (a rank of 0).
func TestAPIMissingListsAreRequired(t *testing.T) {
	ts := newTestServer(t)
	for _, tc := range []struct {
		path, body string
		want       []string // field: code
	}{
		{"/api/v1/layout", `{"dataType":"FLOAT32"}`, []string{"sizes: api.required"}},
		{"/api/v1/layout", `{"dataType":"FLOAT32","sizes":null}`, []string{"sizes: api.required"}},
		{"/api/v1/layout", `{"dataType":"FLOAT32","sizes":[]}`, []string{"sizes: tensor.rank.zero"}},
		{"/api/v1/slice1", `{"dataType":"FLOAT32","inputSizes":[6]}`, []string{"inputWindowOffsets: api.required", "inputWindowSizes: api.required", "inputWindowStrides: api.required"}},
		// With the other fields' faults.
		{"/api/v1/slice1", `{"dataType":"FLOAT33","inputSizes":[0],"inputWindowOffsets":[0],"inputWindowSizes":[1],"inputWindowStrides":null}`,
			[]string{"dataType: datatype.unknown", "inputWindowStrides: api.required", "inputSizes[0]: tensor.size.zero"}},
		{"/api/v1/slice", `{"dataType":"FLOAT32","inputSizes":[4],"offsets":[0]}`, []string{"sizes: api.required", "strides: api.required"}},
		// Without the list that gives the DimensionCount, the others are
		// not also counted against 0.
		{"/api/v1/layout", `{"dataType":"FLOAT32","strides":[1,2]}`, []string{"sizes: api.required"}},
		{"/api/v1/slice1", `{"dataType":"FLOAT32","inputWindowOffsets":[0],"inputWindowSizes":[1],"inputWindowStrides":[1]}`, []string{"inputSizes: api.required"}},
	} {
		status, out := post(t, ts, tc.path, tc.body)
		var got []string
		for _, e := range out["errors"].([]any) {
			m := e.(map[string]any)
			got = append(got, m["field"].(string)+": "+m["code"].(string))
		}
		if status != http.StatusUnprocessableEntity || !slices.Equal(got, tc.want) {
			t.Errorf("%s %s: %d %q, want 422 %q", tc.path, tc.body, status, got, tc.want)
		}
	}
}
