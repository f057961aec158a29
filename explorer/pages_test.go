package explorer_test

import (
	"testing"

	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/ops"
)

// TestPagesARoomCanShow: a room shows the layout and slice explorers
// (steps ignored, never negative) and the tour's steps 1 to TourSteps;
// PageAt finds the same pages by path and no others.
func TestPagesARoomCanShow(t *testing.T) {
	pages := explorer.Pages{Kinds: ops.All(), TourSteps: 11}
	for _, c := range []struct {
		page string
		step int
		path string
		ok   bool
	}{
		{"layout", 0, "/", true}, {"slice", 0, "/slice", true}, {"layout", 3, "/", true}, {"layout", -1, "/", false},
		{"tour", 0, "/tour/1", true}, {"tour", 1, "/tour/1", true}, {"tour", pages.TourSteps, "/tour/11", true},
		{"tour", pages.TourSteps + 1, "", false}, {"tour", -5, "", false}, {"glossary", 0, "", false},
	} {
		path, ok := pages.PagePath(c.page, c.step)
		if ok != c.ok || ok && path != c.path {
			t.Errorf("PagePath(%q, %d) = %q, %v; want %q, %v", c.page, c.step, path, ok, c.path, c.ok)
		}
	}
	for path, want := range map[string]bool{"/": true, "/slice": true, "/tour/1": true, "/tour/11": true, "/tour/12": false, "/tour/0": false, "/tour/01": false, "/glossary": false} {
		if _, _, ok := pages.PageAt(path); ok != want {
			t.Errorf("PageAt(%q) ok %v, want %v", path, ok, want)
		}
	}
}
