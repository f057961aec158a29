package convert

import (
	"context"
	"net/url"
	"slices"
	"testing"
)

// TestPresetsAreValidAndCanonical: every example is a valid copy whose
// canonical query reads back as itself, and says what it promises.
func TestPresetsAreValidAndCanonical(t *testing.T) {
	want := map[string]struct {
		scattered string
		noCopy    bool
	}{
		"nhwc-nchw": {"input", false}, "nchw-nhwc": {"output", false}, "transpose": {"output", false},
		"broadcast": {"input", false}, "padded": {"output", false}, "reshape": {"neither", true}, "scalebias": {"neither", false},
	}
	for _, p := range Presets {
		v := Validate(StateFromQuery(url.Values{"preset": {p.name}}))
		if v.ID == nil {
			t.Fatalf("%s: %v", p.name, v.Errors)
		}
		q := StateOf(v).CanonicalQuery(false)
		pq, _ := url.ParseQuery(q)
		again := Validate(StateFromQuery(pq))
		if again.ID == nil || StateOf(again).CanonicalQuery(false) != q {
			t.Errorf("%s: %q does not read back", p.name, q)
		}
		r, err := NewResponse(context.Background(), v.ID)
		if err != nil {
			t.Fatal(err)
		}
		if w := want[p.name]; r.Scattered != w.scattered || r.NoCopyNeeded != w.noCopy {
			t.Errorf("%s: scattered %s, no copy %v; want %+v", p.name, r.Scattered, r.NoCopyNeeded, w)
		}
	}
}

// TestPageStateErrorsAtTheirFields: what the form can get wrong is
// reported at the field it stands beside, all at once.
func TestPageStateErrorsAtTheirFields(t *testing.T) {
	cases := []struct {
		query  string
		fields []string
	}{
		{"dt=FLOAT32&sizes=2,3&imode=NHWC&omode=packed", []string{"inputLayout"}},
		{"dt=FLOAT32&sizes=2,x&imode=packed&omode=explicit&ostrides=0,1", []string{"sizes[1]"}},
		{"dt=FLOAT32&sizes=3,4&imode=packed&omode=explicit&ostrides=0,1&ototal=8", []string{"outputTotalTensorSizeInBytes", "outputStrides[0]"}},
		{"dt=FLOAT32&sizes=2,3&imode=sideways&omode=packed&scale=abc", []string{"inputLayout", "scaleBias.scale"}},
		{"dt=FLOAT32&sizes=2,3&rank=9", []string{"rank"}},
		{"dt=INT4&sizes=2,3&imode=packed&omode=packed", []string{"dataType"}},
	}
	for _, c := range cases {
		q, _ := url.ParseQuery(c.query)
		v := Validate(StateFromQuery(q))
		var got []string
		for _, e := range v.Errors {
			got = append(got, e.Field)
		}
		if !slices.Equal(got, c.fields) || v.ID != nil {
			t.Errorf("%s: errors at %v, want %v", c.query, got, c.fields)
		}
	}
}

// TestRankChangeKeepsBothSides: a rank change pads both sides, and a
// named layout that no longer fits falls back to packed.
func TestRankChangeKeepsBothSides(t *testing.T) {
	q, _ := url.ParseQuery("dt=FLOAT32&sizes=2,3&imode=explicit&istrides=4,1&omode=HW&rank=3")
	st, vs := StateFromQuery(q)
	if len(vs) > 0 || !slices.Equal(st.Sizes, []string{"1", "2", "3"}) || !slices.Equal(st.In.Strides, []string{"8", "4", "1"}) || st.Out.Mode != ModePacked {
		t.Errorf("%+v %v", st, vs)
	}
}
