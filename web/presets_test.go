package web

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestPresetChipShowsTheCurrentExample: the example chip whose state the
// page shows is marked aria-current, however the state is shown (labels,
// a selection, a step); an edited state marks none.
func TestPresetChipShowsTheCurrentExample(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct{ path, want string }{
		{"/?preset=NHWC", "NHWC"},
		{"/?dt=FLOAT32&sizes=2,3&strides=3,1&labels=index&sel=1,2", "HW"},
		{"/?dt=FLOAT32&sizes=2,3&strides=3,1&total=40", ""},
		{"/slice?preset=example2&t=4", "example2"},
		{"/slice?dt=FLOAT32&sizes=1,1,4,4&woff=0,0,0,1&wsize=1,1,4,3&wstride=1,1,2,2", "example1"}, // typed, not named
		{"/slice?dt=FLOAT32&sizes=1,1,4,4&woff=0,0,0,1&wsize=1,1,4,3&wstride=1,1,1,2", ""},
		{"/embed/layout?preset=padded", "padded"},
		// The chips follow the data type: HW of FLOAT16 is HW.
		{"/?dt=FLOAT16&sizes=2,3&strides=3,1", "HW"},
		// An invalid state is no example, even one whose numbers it has
		// (feature level 1_0 has no negative window strides).
		{"/slice?dt=INT8&sizes=3,4&woff=0,0&wsize=3,4&wstride=-1,-1&fl=1_0", ""},
	} {
		_, d := getPage(t, ts.URL+c.path, nil)
		var current []string
		d.Find("a.preset").Each(func(_ int, a *goquery.Selection) {
			if v, _ := a.Attr("aria-current"); v == "true" {
				current = append(current, a.AttrOr("data-preset", "?"))
			} else if v != "false" {
				t.Errorf("%s: %s has aria-current %q", c.path, a.AttrOr("data-preset", "?"), v)
			}
		})
		if got := strings.Join(current, ","); got != c.want {
			t.Errorf("%s: current examples %q, want %q", c.path, got, c.want)
		}
	}
}
