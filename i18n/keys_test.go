package i18n

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

var keyUse = regexp.MustCompile(`i18n\.T\(ctx, "([^"]+)"`)

// TestUsedKeysExist: every key the templates and handlers ask for has an
// English entry (and so, by TestEveryLocaleHasEveryKey, one in every
// locale); a misspelt key would show itself on the page.
func TestUsedKeysExist(t *testing.T) {
	files, err := filepath.Glob("../views/*.templ")
	if err != nil {
		t.Fatal(err)
	}
	more, _ := filepath.Glob("../web/*.go")
	pics, _ := filepath.Glob("../picture/*.go")
	interop, _ := filepath.Glob("../interop/*.go")
	files = append(append(append(files, more...), pics...), interop...)
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range keyUse.FindAllSubmatch(b, -1) {
			n++
			found := false
			for _, c := range catalogs[English] {
				_, ok := c[Key(m[1])]
				found = found || ok
			}
			if !found {
				t.Errorf("%s: key %q has no English entry", f, m[1])
			}
		}
	}
	if n < 20 {
		t.Fatalf("found only %d uses of i18n.T", n)
	}
}
