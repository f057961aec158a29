package tile

import (
	"net/url"
	"slices"
	"testing"
)

func TestPresetsRoundTrip(t *testing.T) {
	for _, p := range Presets {
		q0, _ := url.ParseQuery("preset=" + p.name)
		v := Validate(StateFromQuery(q0))
		if v.T == nil {
			t.Fatalf("%s: %v", p.name, v.Errors)
		}
		q := StateOf(v).CanonicalQuery(false)
		q1, _ := url.ParseQuery(q)
		again := Validate(StateFromQuery(q1))
		if again.T == nil || StateOf(again).CanonicalQuery(false) != q {
			t.Errorf("%s: %q reads back differently", p.name, q)
		}
	}
	q, _ := url.ParseQuery("sizes=2,3&repeats=2,2&rank=4")
	st, _ := StateFromQuery(q)
	if !slices.Equal(st.Repeats, []string{"1", "1", "2", "2"}) {
		t.Errorf("rank 4 repeats %v", st.Repeats)
	}
}
