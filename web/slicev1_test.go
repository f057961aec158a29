package web

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestSliceV1SaysEachFieldOnce: a DML_SLICE size is both the window's size
// and the output's, and a 0 breaks a rule of each: it is said once, at
// the size; a stride past a UINT is said at the stride, not as a window
// too long at the size. The docs' example (docs/api.md) is this answer.
func TestSliceV1SaysEachFieldOnce(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct {
		body  string
		codes []string // field: code, in order
	}{
		{`{"dataType":"FLOAT32","inputSizes":[4,4],"offsets":[2,0],"sizes":[3,0],"strides":[1,-1]}`,
			[]string{"strides[1]: slice.stride.negative", "sizes[1]: slice.as.slice1", "offsets[0]: slice.as.slice1"}},
		{`{"dataType":"FLOAT32","inputSizes":[4],"offsets":[0],"sizes":[2],"strides":[4294967296]}`,
			[]string{"strides[0]: slice.stride.uint"}},
	} {
		status, body := post(t, ts, "/api/v1/slice", c.body)
		if status != 422 {
			t.Fatalf("%s: status %d: %v", c.body, status, body)
		}
		var got []string
		for _, e := range body["errors"].([]any) {
			m := e.(map[string]any)
			got = append(got, m["field"].(string)+": "+m["code"].(string))
		}
		if !slices.Equal(got, c.codes) {
			t.Errorf("%s: %q, want %q", c.body, got, c.codes)
		}
	}
}

// TestSliceV1FeatureLevels: DML_SLICE exists from DML_FEATURE_LEVEL_1_0
// (DML_SLICE1 from 2_1), so /api/v1/slice takes 1_0 and 2_0 and judges
// them by DML_SLICE's rules there: 4 or 5 dimensions, and the 16- and
// 32-bit types (INT8 and UINT8 from 2_1); /api/v1/slice1 still refuses
// them.
func TestSliceV1FeatureLevels(t *testing.T) {
	ts := newTestServer(t)
	const slice = `{"dataType":%q,"featureLevel":%q,"inputSizes":%s,"offsets":%s,"sizes":%s,"strides":%s}`
	four := []string{"[1,1,4,4]", "[0,0,0,1]", "[1,1,2,2]", "[1,1,2,2]"}
	two := []string{"[4,4]", "[0,1]", "[2,2]", "[2,2]"}
	for _, c := range []struct {
		dt, level string
		dims      []string
		status    int
		codes     []string // field: code
	}{
		{"FLOAT32", "1_0", four, 200, nil},
		{"FLOAT16", "DML_FEATURE_LEVEL_1_0", four, 200, nil},
		{"UINT16", "2_0", four, 200, nil},
		{"INT32", "2_0", four, 200, nil},
		{"INT8", "1_0", four, 422, []string{"dataType: slice.datatype.level"}},
		{"UINT8", "2_0", four, 422, []string{"dataType: slice.datatype.level"}},
		{"UINT8", "2_1", four, 200, nil},
		{"FLOAT64", "2_0", four, 422, []string{"dataType: slice.datatype.level"}},
		{"FLOAT32", "1_0", two, 422, []string{"inputSizes: slice1.rank.level"}},
		{"INT8", "2_0", two, 422, []string{"inputSizes: slice1.rank.level", "dataType: slice.datatype.level"}},
		{"FLOAT32", "3_0", two, 200, nil},
	} {
		body := fmt.Sprintf(slice, c.dt, c.level, c.dims[0], c.dims[1], c.dims[2], c.dims[3])
		status, out := post(t, ts, "/api/v1/slice", body)
		var got []string
		errs, _ := out["errors"].([]any)
		for _, e := range errs {
			m := e.(map[string]any)
			got = append(got, m["field"].(string)+": "+m["code"].(string))
		}
		if status != c.status || !slices.Equal(got, c.codes) {
			t.Errorf("%s: %d %q, want %d %q", body, status, got, c.status, c.codes)
			continue
		}
		if status != 200 {
			continue
		}
		// The answer names the level asked for, and the copy is DML_SLICE's.
		if want := strings.TrimPrefix(c.level, "DML_FEATURE_LEVEL_"); out["featureLevel"] != want {
			t.Errorf("%s: featureLevel %v, want %s", body, out["featureLevel"], want)
		}
		if c.dims[0] == four[0] && !slices.Equal(ints(out["inputOffsets"]), []int64{1, 3, 9, 11}) {
			t.Errorf("%s: inputOffsets %v", body, out["inputOffsets"])
		}
	}
	// DML_SLICE1 itself still begins at 2_1.
	status, out := post(t, ts, "/api/v1/slice1", `{"dataType":"FLOAT32","featureLevel":"1_0","inputSizes":[1,1,4,4],"inputWindowOffsets":[0,0,0,1],"inputWindowSizes":[1,1,3,3],"inputWindowStrides":[1,1,2,2]}`)
	if fields := errorFields(out); status != 422 || len(fields) != 1 || !strings.HasPrefix(fields[0], "featureLevel: DML_SLICE1 was introduced in DML_FEATURE_LEVEL_2_1") {
		t.Errorf("slice1 at 1_0: %d %q", status, fields)
	}
}
