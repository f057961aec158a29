package slice1

import (
	"net/url"
	"testing"
)

// TestSliceOutputSizesKeepTheirBlanks: the canonical query of a slice (the
// URL the page writes, the form it draws) keeps an output size left blank
// blank, so it goes on following the window (MaxCopiedElements), and one
// typed as a number, even the most; an import's gives the sizes that
// differ from the most.
func TestSliceOutputSizesKeepTheirBlanks(t *testing.T) {
	const base = "dt=INT8&sizes=5,7&woff=1,0&wsize=4,7&wstride=-3,-1"
	for _, tc := range []struct{ out, want string }{
		{"", ""},
		{"&out=1,", "1,"},
		{"&out=,1", ",1"},
		{"&out=2,7", "2,7"},
		{"&out=,", ""},
	} {
		q, err := url.ParseQuery(base + tc.out)
		if err != nil {
			t.Fatal(err)
		}
		st, qerrs := StateFromQuery(q)
		v := Validate(st, qerrs)
		if len(v.Errors) > 0 {
			t.Fatalf("%s: %v", tc.out, v.Errors)
		}
		got, _ := url.ParseQuery(StateOf(v).CanonicalQuery(false))
		if got.Get("out") != tc.want {
			t.Errorf("out %q: canonical out %q, want %q", tc.out, got.Get("out"), tc.want)
		}
		// Not typed, as an import gives it: the sizes that differ from the most.
		v.State = State{}
		got, _ = url.ParseQuery(StateOf(v).CanonicalQuery(false))
		if want := map[string]string{"&out=1,": "1,", "&out=,1": ",1", "&out=2,7": ""}[tc.out]; got.Get("out") != want {
			t.Errorf("out %q, not typed: canonical out %q, want %q", tc.out, got.Get("out"), want)
		}
	}
}
