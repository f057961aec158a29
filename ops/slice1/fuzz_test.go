package slice1

import (
	"net/url"
	"slices"
	"testing"
)

// FuzzStateFromQuery: any query string (the page URL or an edit) yields
// a state and field errors, never a panic; a valid slice's canonical
// query reads back as the same slice, as a shared link must.
func FuzzStateFromQuery(f *testing.F) {
	for _, s := range []string{
		"dt=FLOAT32&sizes=1,1,4,4&woff=0,0,0,1&wsize=1,1,4,3&wstride=1,1,-2,2&t=3",
		"preset=example2", "preset=example1&fl=1_0", "sizes=2,3&np=x%5B..., ::-1%5D", "rank=8&sizes=2,3",
		"sizes=4,6&woff=0,1&wsize=4,5&wstride=2,-1&out=1,1&vals=1 2 3", "sizes=0&wsize=9", "%zz",
		"last=sizes%3D2%2C3&sizes=0", "sizes=4294967295&wstride=-4294967295",
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
		v := Validate(StateFromQuery(q))
		if v.Slice == nil {
			if len(v.Errors) == 0 {
				t.Fatalf("%q: no slice and no error", raw)
			}
			return
		}
		canon := StateOf(v).CanonicalQuery(false)
		cq, err := url.ParseQuery(canon)
		if err != nil {
			t.Fatalf("%q: canonical query %q does not parse: %v", raw, canon, err)
		}
		w := Validate(StateFromQuery(cq))
		if w.Slice == nil {
			t.Fatalf("%q: canonical query %q is not valid: %v", raw, canon, w.Errors)
		}
		a, b := v.Slice, w.Slice
		if !slices.Equal(a.Input.Sizes, b.Input.Sizes) || !slices.Equal(a.Input.Strides, b.Input.Strides) ||
			!slices.Equal(a.WindowOffsets, b.WindowOffsets) || !slices.Equal(a.WindowSizes, b.WindowSizes) ||
			!slices.Equal(a.WindowStrides, b.WindowStrides) || !slices.Equal(a.OutputSizes, b.OutputSizes) {
			t.Fatalf("%q: canonical query %q reads back as another slice", raw, canon)
		}
	})
}
