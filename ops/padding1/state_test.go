package padding1

import (
	"net/url"
	"slices"
	"testing"
)

func query(t *testing.T, q string) url.Values {
	t.Helper()
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestPresetsRoundTrip: every example is valid, and its canonical query
// reads back as the same state.
func TestPresetsRoundTrip(t *testing.T) {
	for _, p := range Presets {
		v := Validate(StateFromQuery(query(t, "preset="+p.name)))
		if v.P == nil {
			t.Fatalf("%s: %v", p.name, v.Errors)
		}
		q := StateOf(v).CanonicalQuery(false)
		again := Validate(StateFromQuery(query(t, q)))
		if again.P == nil || StateOf(again).CanonicalQuery(false) != q {
			t.Errorf("%s: %q reads back as %q", p.name, q, StateOf(again).CanonicalQuery(false))
		}
	}
}

func TestStateRankAndLast(t *testing.T) {
	st, _ := StateFromQuery(query(t, "sizes=3,4&start=1,2&end=0,3&mode=EDGE&rank=3"))
	if !slices.Equal(st.Sizes, []string{"1", "3", "4"}) || !slices.Equal(st.Start, []string{"0", "1", "2"}) || !slices.Equal(st.End, []string{"0", "0", "3"}) {
		t.Errorf("rank 3: sizes %v start %v end %v", st.Sizes, st.Start, st.End)
	}
	typed, shown, stale := Resolve(query(t, "sizes=3,x&start=1,1&end=1,1&mode=EDGE&last="+url.QueryEscape("dt=FLOAT32&sizes=2&mode=EDGE&start=1&end=1")))
	if typed.P != nil || shown.P == nil || stale == "" || !slices.Equal(shown.P.Output.Sizes, []int64{4}) {
		t.Errorf("an invalid state draws %v (%q)", shown.P, stale)
	}
	if (Kind{}).Canonical(query(t, "sizes=2&mode=wrap&start=1&end=0")) != "dt=FLOAT32&sizes=2&mode=WRAP&start=1&end=0" {
		t.Errorf("canonical %q", (Kind{}).Canonical(query(t, "sizes=2&mode=wrap&start=1&end=0")))
	}
}

// TestValuesReportEveryViolation: the values box gets every violation at
// once, each with its rule's code: a wrong count beside the values that
// are not numbers (the first three), not the count alone.
func TestValuesReportEveryViolation(t *testing.T) {
	const base = "dt=FLOAT32&sizes=2,2&start=0,1&end=0,1&mode=CONSTANT&values="
	for _, tc := range []struct {
		values string
		codes  []string // each at the field "values"
	}{
		{"1,2,3,4", nil},
		{"", nil},
		{"1,2,x", []string{"padding.values.count", "padding.values.invalid"}},
		{"1,2,x,4", []string{"padding.values.invalid"}},
		{"a,b,c,d", []string{"padding.values.invalid", "padding.values.invalid", "padding.values.invalid"}},
		{"1,2,3", []string{"padding.values.count"}},
		{"1,2,3,4,5,y", []string{"padding.values.count", "padding.values.invalid"}},
	} {
		v := Validate(StateFromQuery(query(t, base+url.QueryEscape(tc.values))))
		var codes []string
		for _, e := range v.Errors {
			if e.Field != "values" {
				t.Errorf("values %q: %s at %q, want the field values", tc.values, e.Code, e.Field)
			}
			codes = append(codes, e.Code)
		}
		if !slices.Equal(codes, tc.codes) {
			t.Errorf("values %q: %v, want %v", tc.values, codes, tc.codes)
		}
		if (v.P != nil) != (len(tc.codes) == 0) {
			t.Errorf("values %q: valid = %v with errors %v", tc.values, v.P != nil, codes)
		}
	}
}
