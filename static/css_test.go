package static

import (
	"regexp"
	"strings"
	"testing"
)

// hasAnchor is a compound selector that ends in :has(...) and is followed
// by more of the selector: the :has() is not its subject but an ancestor
// (or earlier sibling) of it.
var hasAnchor = regexp.MustCompile(`([#.]?[\w-]+)(?:\[[^\]]*\]|[.#][\w-]+)*:has\(`)

// TestNoHasOnWhatHoldsTheCells: a :has() on an element that holds the
// picture's cells (its views, the picture, the page) makes Chromium
// restyle every cell under it whenever anything in it changes: the
// caption under the pointer cost 3.5 ms a hover on a 16x16 slice, every
// cell of three views. Such rules key on an attribute the page sets
// instead (.view[data-canvas], #picture[data-canvas]).
func TestNoHasOnWhatHoldsTheCells(t *testing.T) {
	holders := map[string]bool{"html": true, "body": true, "main": true, "#main": true, ".explorer": true, ".slice": true,
		".stage": true, "#picture": true, ".views": true, ".view": true, ".io": true}
	for _, name := range siteBundles["site.css"] {
		body := string(byName[name].body)
		for _, line := range strings.Split(body, "\n") {
			for _, m := range hasAnchor.FindAllStringSubmatch(line, -1) {
				if holders[m[1]] {
					t.Errorf("%s: %q: a :has() on %s, which holds the picture's cells", name, strings.TrimSpace(line), m[1])
				}
			}
		}
	}
	// The rule finds what it is for.
	for _, bad := range []string{".view:has([data-mode=canvas]) .legend { }", "body:has(.room-bar.viewer) #picture { }", ".slice #picture:has([data-mode=canvas]) #dot { }"} {
		m := hasAnchor.FindStringSubmatch(bad)
		if m == nil || !holders[m[1]] {
			t.Errorf("%q is not found", bad)
		}
	}
}
