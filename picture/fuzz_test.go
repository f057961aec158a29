package picture

import (
	"net/url"
	"slices"
	"testing"
)

// FuzzStateFromQuery: any query string (the page URL or an edit) yields
// a state and field errors, never a panic, and a valid layout obeys the
// DirectML limits.
func FuzzStateFromQuery(f *testing.F) {
	for _, s := range []string{
		"dt=FLOAT32&sizes=2,3&strides=5,1&total=40&align=16&labels=index&sel=1,0&cell=7",
		"preset=NHWC", "preset=padded&dt=UINT4", "rank=8&sizes=2,3", "rank=-1", "rank=99999999999",
		"sizes=1048576,1048576", "sizes=2&sizes=3&strides=&strides=1&mode=explicit",
		"sel=1,2,3,4,5,6,7,8,9&cell=-1", "last=sizes%3D2%2C3&sizes=0", "%zz",
		"sizes=1,3,2,5&mode=rows&order=NHWC&pitch=8", "sizes=2,3&mode=rows&order=WH&pitch=4",
		"sizes=9,9,9,9,9,9,9,9,9&mode=rows&pitch=4294967295&rank=3", "mode=rows&pitch=-1&sizes=x,3",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if len(raw) > MaxQueryLen {
			return // the handlers refuse these before decoding
		}
		q, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		st, qvs := LayoutStateFromQuery(q)
		v := Validate(st, qvs)
		if v.Layout == nil {
			if len(v.Errors) == 0 {
				t.Fatalf("%q: no layout and no error", raw)
			}
			return
		}
		if n := v.Layout.LogicalElementCount(); n < 1 || n > 1<<32-1 {
			t.Fatalf("%q: a valid layout with %d elements", raw, n)
		}
		if v.Cell >= v.Layout.BufferElementCount() {
			t.Fatalf("%q: selected cell %d outside the buffer", raw, v.Cell)
		}
		// A state's canonical query reads back as the same layout: padded
		// rows keep their mode, and their strides come out the same.
		cq, _ := url.ParseQuery(CanonicalState(v).CanonicalQuery(false))
		back := Validate(LayoutStateFromQuery(cq))
		if back.Layout == nil || back.State.Rows != v.State.Rows || !slices.Equal(back.Layout.Strides, v.Layout.Strides) || !slices.Equal(back.Layout.Sizes, v.Layout.Sizes) {
			t.Fatalf("%q: canonical %q reads back as %+v", raw, cq.Encode(), back.Errors)
		}
	})
}
