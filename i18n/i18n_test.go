package i18n

import (
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

// TestGlossaryIsComplete: every term and every misleading word speaks all
// four languages, and every misleading word points at a term.
func TestGlossaryIsComplete(t *testing.T) {
	ids := map[string]bool{}
	for _, term := range Glossary {
		ids[term.ID] = true
		for _, l := range Locales {
			if strings.TrimSpace(term.Word[l]) == "" || strings.TrimSpace(term.Means[l]) == "" {
				t.Errorf("term %s: no word or meaning in %s", term.ID, l)
			}
		}
	}
	for _, p := range LocalizedPages {
		if _, ok := sections[English].Pages[p.Title]; !ok {
			t.Errorf("page %s: title key %q has no entry", p.URL, p.Title)
		}
		for _, w := range p.Words {
			if !ids[w.Term] {
				t.Errorf("%s %q: term %q is not in the glossary", p.URL, w.Word, w.Term)
			}
			for _, l := range Locales {
				if strings.TrimSpace(w.Literal[l]) == "" {
					t.Errorf("%s %q: no everyday meaning in %s", p.URL, w.Word, l)
				}
			}
		}
	}
}

// TestMatchAndParse: Accept-Language and ?lang= find the locale a reader
// of that language wants, and nothing else.
func TestMatchAndParse(t *testing.T) {
	for _, c := range []struct {
		accept string
		want   Locale
	}{
		{"", English}, {"fr", French}, {"fr-BE,fr;q=0.8", French}, {"pt-PT", BrazilianPortuguese}, {"pt-BR", BrazilianPortuguese},
		{"zh-TW", TraditionalChinese}, {"zh-Hant-HK", TraditionalChinese}, {"de-DE,fr;q=0.5", French}, {"de", English},
		{"en-GB,fr;q=0.9", English}, {"not a header", English},
	} {
		if got := Match(c.accept); got != c.want {
			t.Errorf("Match(%q) = %s, want %s", c.accept, got, c.want)
		}
	}
	for _, c := range []struct {
		lang string
		want Locale
		ok   bool
	}{
		{"fr", French, true}, {"pt-BR", BrazilianPortuguese, true}, {"pt", BrazilianPortuguese, true}, {"zh-TW", TraditionalChinese, true},
		{"en", English, true}, {"", English, false}, {"xx", English, false}, {"de", English, false}, {"fr\"><script>", English, false},
	} {
		if got, ok := Parse(c.lang); got != c.want || ok != c.ok {
			t.Errorf("Parse(%q) = %s, %v; want %s, %v", c.lang, got, ok, c.want, c.ok)
		}
	}
}

// TestPrinterFormatsProseNumbersPerLocale: prose numbers use the locale's
// grouping (numbers inside code and messages stay as DirectML writes them).
func TestPrinterFormatsProseNumbersPerLocale(t *testing.T) {
	for l, want := range map[Locale]string{
		English: "4,294,967,295", TraditionalChinese: "4,294,967,295", BrazilianPortuguese: "4.294.967.295", French: "4\u00a0294\u00a0967\u00a0295",
	} {
		if got := l.Printer().Sprint(4294967295); got != want {
			t.Errorf("%s: %q, want %q", l, got, want)
		}
	}
}

// TestButtonLabelsNameTheirVisibleText: where a control's aria-label
// replaces its visible text, the label contains that text in every
// locale, so that speech users can say what they see (WCAG 2.5.3, axe's
// label-content-name-mismatch).
func TestButtonLabelsNameTheirVisibleText(t *testing.T) {
	for _, key := range []Key{"step.back", "step.next"} {
		for _, l := range Locales {
			// Whole words, as axe compares them: "étape précédente" does
			// not name a button that reads "Précédent".
			visible := strings.ToLower(strings.TrimSpace(strings.Trim(l.T(key, nil), "◀▶ ")))
			label := strings.ToLower(l.T(key+".label", nil))
			if visible == "" || !strings.Contains(" "+label+" ", " "+visible+" ") {
				t.Errorf("%s in %s: aria-label %q does not contain the visible %q", key, l, label, visible)
			}
		}
	}
}

// TestCountsAgreeWithTheirNumber: a core.Count in a message, nested or
// not, is singular for one in English, for zero and one in French and
// Portuguese, and bare in Chinese (whose templates write the unit).
func TestCountsAgreeWithTheirNumber(t *testing.T) {
	for _, c := range []struct {
		l    Locale
		n    int64
		unit string
		want string
	}{
		{English, 0, "entries", "0 entries"}, {English, 1, "entries", "1 entry"}, {English, 2, "entries", "2 entries"},
		{English, 1, "values", "1 value"}, {English, 1, "dimensions", "1 dimension"}, {English, 1, "bytes", "1 byte"}, {English, -1, "bytes", "-1 bytes"},
		{French, 0, "entries", "0 entrée"}, {French, 1, "values", "1 valeur"}, {French, 2, "dimensions", "2 dimensions"}, {French, 1, "bytes", "1 octet"},
		{BrazilianPortuguese, 0, "dimensions", "0 dimensão"}, {BrazilianPortuguese, 1, "entries", "1 item"}, {BrazilianPortuguese, 2, "values", "2 valores"},
		{TraditionalChinese, 1, "entries", "1"}, {TraditionalChinese, 2, "values", "2"},
	} {
		cnt := core.Count{N: c.n, Unit: c.unit}
		if got := c.l.T("slice1.rank.mismatch", core.Args{"field": "f", "count": cnt, "rank": 2}); !strings.Contains(got, " "+c.want) && !strings.Contains(got, "有 "+c.want+" 項") {
			t.Errorf("%s %d %s: %q, want %q in it", c.l, c.n, c.unit, got, c.want)
		}
		// Nested in another message, and English as core writes it.
		nested := core.NewMsg("slice.as.slice1", "as DML_SLICE1: {cause}", core.Args{"cause": core.NewMsg("onnx.rank", "the input has {rank}; DML_SLICE1 takes 1 to {max}", core.Args{"rank": cnt, "max": 8})})
		if c.l == English && c.unit == "dimensions" {
			want := "as DML_SLICE1: the input has " + c.want + "; DML_SLICE1 takes 1 to 8"
			if got := c.l.T("slice.as.slice1", nested.Args); got != want {
				t.Errorf("nested: %q, want %q", got, want)
			}
			if got := nested.Error(); got != want {
				t.Errorf("core's English: %q, want %q", got, want)
			}
		}
		if c.l == English && cnt.String() != c.want {
			t.Errorf("core.Count%v = %q, want %q", cnt, cnt.String(), c.want)
		}
	}
}

func TestGrouped(t *testing.T) {
	for n, want := range map[int64]string{0: "0", 999: "999", 4096: "4096", 65536: "65\u202f536", 16777216: "16\u202f777\u202f216", -123456: "-123\u202f456"} {
		if got := Group(n); got != want {
			t.Errorf("Group(%d) = %q, want %q", n, got, want)
		}
		if got := English.Grouped(n); got != want {
			t.Errorf("English.Grouped(%d) = %q, want %q", n, got, want)
		}
	}
	for _, tc := range []struct {
		l    Locale
		n    int64
		want string
	}{
		{French, 65536, "65\u202f536"},
		{BrazilianPortuguese, 65536, "65.536"},
		{TraditionalChinese, 65536, "65,536"},
		{BrazilianPortuguese, 999, "999"},
	} {
		if got := tc.l.Grouped(tc.n); got != tc.want {
			t.Errorf("%v.Grouped(%d) = %q, want %q", tc.l, tc.n, got, tc.want)
		}
	}
}

// TestCatalogsLoad: every locale's catalog file holds every section, and
// no section is empty (a section's name misspelt in a file would load as
// an unknown field and stop the program at its start).
func TestCatalogsLoad(t *testing.T) {
	for _, l := range Locales {
		c := loadCatalog(l)
		for i, m := range c.all() {
			if len(m) == 0 {
				t.Errorf("%s: section %d is empty", l, i)
			}
		}
	}
}
