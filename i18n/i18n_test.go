package i18n

import (
	"encoding/json"
	"os"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/core"
)

// TestEveryLocaleHasEveryKey fails when a locale lacks a key English has,
// has a key English lacks, or leaves an entry empty.
func TestEveryLocaleHasEveryKey(t *testing.T) {
	for _, l := range Locales[1:] {
		for i, en := range catalogs[English] {
			other := catalogs[l][i]
			for k := range en {
				if strings.TrimSpace(other[k]) == "" {
					t.Errorf("%s: key %q missing or empty", l, k)
				}
			}
			for k := range other {
				if _, ok := en[k]; !ok {
					t.Errorf("%s: key %q is not an English key", l, k)
				}
			}
		}
	}
}

var placeholder = regexp.MustCompile(`\{[a-z0-9]+(:q)?\}`)

// TestTranslationsUseTheSamePlaceholders: a translation that drops or
// misspells {value} would print a raw brace or lose a number.
func TestTranslationsUseTheSamePlaceholders(t *testing.T) {
	set := func(s string) string {
		ps := placeholder.FindAllString(s, -1)
		m := map[string]bool{}
		for _, p := range ps {
			m[p] = true
		}
		ps = ps[:0]
		for p := range m {
			ps = append(ps, p)
		}
		sort.Strings(ps)
		return strings.Join(ps, " ")
	}
	for _, l := range Locales[1:] {
		for i, en := range catalogs[English] {
			for k, s := range en {
				if got, want := set(catalogs[l][i][k]), set(s); got != want {
					t.Errorf("%s %s: placeholders %q, English has %q", l, k, got, want)
				}
			}
		}
	}
}

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
		if _, ok := messagesEN[Key(v.Code)]; !ok {
			t.Errorf("case %d: code %q has no English entry", i, v.Code)
			continue
		}
		codes[v.Code] = true
		if got := English.Violation(v).Message; got != v.Message {
			t.Errorf("%s: catalog renders %q, core wrote %q", v.Code, got, v.Message)
		}
		for _, l := range Locales[1:] {
			m := l.Violation(v).Message
			if placeholder.MatchString(m) || m == v.Message {
				t.Errorf("%s in %s: %q is untranslated or has an unfilled placeholder", v.Code, l, m)
			}
		}
	}
	t.Logf("%d violations cover %d of %d codes", len(vs), len(codes), len(messagesEN))
}
