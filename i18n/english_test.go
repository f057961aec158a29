package i18n_test

import (
	"encoding/json"
	"os"
	"regexp"
	"testing"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
)

var unfilled = regexp.MustCompile(`\{[a-z0-9]+(:q)?\}`)

// TestEnglishMatchesCore renders every violation core and picture produce
// for a table of bad inputs from its code and arguments in English and
// compares it with the message they wrote; the messages themselves are
// compared with the ones written before codes existed
// (testdata/messages.golden.json), so adding codes changed no English.
func TestEnglishMatchesCore(t *testing.T) {
	vs := violationCases()
	b, err := os.ReadFile("testdata/messages.golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden []core.Violation
	if err := json.Unmarshal(b, &golden); err != nil {
		t.Fatal(err)
	}
	if len(vs) != len(golden) {
		t.Fatalf("%d violations, golden file has %d", len(vs), len(golden))
	}
	codes := map[string]bool{}
	for i, v := range vs {
		if v.Field != golden[i].Field || v.Message != golden[i].Message {
			t.Errorf("case %d: got %s: %q\nbefore codes: %s: %q", i, v.Field, v.Message, golden[i].Field, golden[i].Message)
		}
		if v.Code == "" {
			t.Errorf("case %d (%s: %q) has no code", i, v.Field, v.Message)
			continue
		}
		if !i18n.Known(v.Code) {
			t.Errorf("case %d: code %q has no English entry", i, v.Code)
			continue
		}
		codes[v.Code] = true
		if got := i18n.English.Violation(v).Message; got != v.Message {
			t.Errorf("%s: catalog renders %q, core wrote %q", v.Code, got, v.Message)
		}
		for _, l := range i18n.Locales[1:] {
			m := l.Violation(v).Message
			if unfilled.MatchString(m) || m == v.Message {
				t.Errorf("%s in %s: %q is untranslated or has an unfilled placeholder", v.Code, l, m)
			}
		}
	}
	t.Logf("%d violations cover %d of %d codes", len(vs), len(codes), i18n.CodeCount())
}
