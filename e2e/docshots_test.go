package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestDocShots needs no browser: the screenshots README.md and docs/*.md
// show, the PNGs in docs/img and docShots (what -screenshots writes there)
// are the same names, so that no committed image goes unreferenced, no
// document points at a missing one, and a refresh rewrites exactly the
// images the documents show.
func TestDocShots(t *testing.T) {
	docs, err := filepath.Glob(filepath.Join("..", "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs = append(docs, filepath.Join("..", "README.md"))
	ref := regexp.MustCompile(`img/([A-Za-z0-9_.-]+)\.png`)
	shown := map[string]bool{}
	for _, d := range docs {
		b, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range ref.FindAllSubmatch(b, -1) {
			shown[string(m[1])] = true
		}
	}
	files, err := filepath.Glob(filepath.Join("..", "docs", "img", "*.png"))
	if err != nil {
		t.Fatal(err)
	}
	inDir := map[string]bool{}
	for _, f := range files {
		inDir[strings.TrimSuffix(filepath.Base(f), ".png")] = true
	}
	for _, c := range []struct {
		what  string
		a     map[string]bool
		notIn string
		b     map[string]bool
	}{
		{"shown by a document", shown, "in docs/img", inDir},
		{"in docs/img", inDir, "shown by any document", shown},
		{"shown by a document", shown, "in docShots (-screenshots would not refresh it)", docShots},
		{"in docShots", docShots, "shown by any document", shown},
	} {
		var missing []string
		for n := range c.a {
			if !c.b[n] {
				missing = append(missing, n+".png")
			}
		}
		slices.Sort(missing)
		if len(missing) > 0 {
			t.Errorf("%s but not %s: %s", c.what, c.notIn, strings.Join(missing, ", "))
		}
	}
}
