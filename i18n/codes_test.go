package i18n

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/i18n/msggen"
)

// codeCall finds the code of every message the sources write: the first
// string of NewMsg, and the string after the field of the helpers that
// take one (vs.add, bad, importErr, badRequest).
var codeCall = regexp.MustCompile(`(?:NewMsg\(|(?:vs\.add|\bbad|importErr|badRequest)\((?:[^,()"]|\([^()]*\)|"[^"]*")+,\s*)"([a-z0-9]+(?:\.[a-z0-9-]+)+)"(?:,\s*("(?:[^"\\]|\\.)*"))?`)

// TestEveryCodeInTheSourcesHasAnEntry keeps the catalogs in step with
// core, picture, interop, web, strictjson and the operators (ops/...): a new code without an English entry fails here
// (TestEveryLocaleHasEveryKey then asks for the translations), and so does
// an English template edited at its call site but not in the catalog.
func TestEveryCodeInTheSourcesHasAnEntry(t *testing.T) {
	found, templates := 0, 0
	// Every operator's package too: an operator writes codes of its own.
	ops, err := filepath.Glob("../ops/*")
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range append([]string{"../core", "../picture", "../interop", "../web", "../strictjson"}, ops...) {
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
				en, ok := englishEntry(Key(m[1]))
				if !ok {
					t.Errorf("%s: code %q has no catalog entry", f, m[1])
					continue
				}
				// A literal template is the English entry, word for word:
				// the entry is generated from it (TestEnglishIsWrittenOnce).
				if m[2] != "" {
					tmpl, err := strconv.Unquote(m[2])
					if err != nil {
						t.Fatalf("%s: %s: %v", f, m[2], err)
					}
					templates++
					if tmpl != en {
						t.Errorf("%s: %s writes %q, the English catalog %q: run go generate ./i18n", f, m[1], tmpl, en)
					}
				}
			}
		}
	}
	t.Logf("%d codes, %d literal templates", found, templates)
	if found < 100 || templates < 100 {
		t.Fatalf("found only %d codes and %d templates in the sources: is the pattern stale?", found, templates)
	}
}

// englishEntry is key's English in any catalog: violation messages, and
// the import notes and page strings that picture builds as core.Msg too.
func englishEntry(key Key) (string, bool) {
	for _, m := range catalogs[English] {
		if s, ok := m[key]; ok {
			return s, true
		}
	}
	return "", false
}

// TestEnglishIsWrittenOnce: the English of every message is written at
// its call site only; the English catalog's "messages" section is
// generated from the sources (msggen, `go generate ./i18n`) and must be
// what they say now, entry for entry.
func TestEnglishIsWrittenOnce(t *testing.T) {
	msgs, err := msggen.Extract("..")
	if err != nil {
		t.Fatal(err)
	}
	en, err := os.ReadFile("catalog/en.json")
	if err != nil {
		t.Fatal(err)
	}
	want, err := msggen.Rewrite(en, msgs)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(en, want) {
		t.Errorf("catalog/en.json's messages are not what the sources write: run go generate ./i18n (%d messages in the sources)", len(msgs))
	}
	// Every message of the catalog is one the sources write.
	for code := range sections[English].Messages {
		if _, ok := msgs[string(code)]; !ok {
			t.Errorf("the English catalog has %q, which no source writes with its template", code)
		}
	}
	if len(msgs) < 200 {
		t.Fatalf("only %d messages found in the sources: is msggen's pattern stale?", len(msgs))
	}
}
