package picture

import (
	"slices"
	"testing"
)

// TestParseElementValues: one number per element or none; a wrong count
// and the values that are not numbers (the first three) are all reported,
// at the field "values".
func TestParseElementValues(t *testing.T) {
	for _, tc := range []struct {
		text  string
		n     int64
		want  []string
		codes []string
	}{
		{"", 4, nil, nil},
		{" 1, 2.50 ,-3,4e2", 4, []string{"1", "2.5", "-3", "400"}, nil},
		{"1,2,x", 4, nil, []string{"padding.values.count", "padding.values.invalid"}},
		{"1,2,x,4", 4, nil, []string{"padding.values.invalid"}},
		{"a,b,c,d,e", 5, nil, []string{"padding.values.invalid", "padding.values.invalid", "padding.values.invalid"}},
		{"1,2,3", 4, nil, []string{"padding.values.count"}},
		{"1,2", 2000, nil, []string{"padding.values.count"}}, // more elements than the page may type
	} {
		got, errs := ParseElementValues(tc.text, tc.n, 1024)
		var codes []string
		for _, e := range errs {
			if e.Field != "values" {
				t.Errorf("%q: %s at %q, want the field values", tc.text, e.Code, e.Field)
			}
			codes = append(codes, e.Code)
		}
		if !slices.Equal(got, tc.want) || !slices.Equal(codes, tc.codes) {
			t.Errorf("%q (n=%d): %v %v, want %v %v", tc.text, tc.n, got, codes, tc.want, tc.codes)
		}
	}
}
