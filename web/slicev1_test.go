package web

import (
	"slices"
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
