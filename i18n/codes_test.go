package i18n

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// codeCall finds the code of every message the sources write: the first
// string of NewMsg, and the string after the field of the helpers that
// take one (vs.add, bad, importErr, badRequest).
var codeCall = regexp.MustCompile(`(?:NewMsg\(|(?:vs\.add|\bbad|importErr|badRequest)\((?:[^,()"]|\([^()]*\)|"[^"]*")+,\s*)"([a-z0-9]+(?:\.[a-z0-9-]+)+)"`)

// TestEveryCodeInTheSourcesHasAnEntry keeps the catalogs in step with
// core, picture and web: a new code without an English entry fails here
// (TestEveryLocaleHasEveryKey then asks for the translations).
func TestEveryCodeInTheSourcesHasAnEntry(t *testing.T) {
	found := 0
	for _, dir := range []string{"../core", "../picture", "../web"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range codeCall.FindAllStringSubmatch(string(b), -1) {
				found++
				if _, ok := messagesEN[Key(m[1])]; !ok {
					t.Errorf("%s: code %q has no catalog entry", f, m[1])
				}
			}
		}
	}
	if found < 100 {
		t.Fatalf("found only %d codes in the sources: is the pattern stale?", found)
	}
}
