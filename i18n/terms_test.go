package i18n

import (
	"regexp"
	"strings"
	"testing"
)

// forbidden are, per locale, the words a translation must not use for a
// concept the glossary names with another: the machine translations'
// mistakes (tensors as "tens", strides as "progress", slice as "ration")
// and the synonyms that would give one concept two names (zh-TW's
// layout is 記憶體配置, never 佈局; pt-BR's slice is fatia, never recorte).
// The glossary's own list of misleading words (glossary.go) is not a
// catalog and quotes them on purpose, and so do the glossary's names of
// Microsoft's pages (glossary.page.*), which are their titles as printed.
var forbidden = map[Locale][]string{
	TraditionalChinese: {
		"進展", "配量", "佈局", "布局", "版面配置", "跨距", "步長", "位移", "專案", "封裝", "解壓縮",
		"填充", "內存", "緩存", "緩衝器", "張量們", "切割", "視圖",
	},
	BrazilianPortuguese: {
		`(?i)\bdezenas`, `(?i)\bprogressos?\b`, `(?i)\bavanços\b`, `(?i)\bpassadas?\b`, `(?i)\bRides\b`,
		`(?i)\bembalad[oa]s?\b`, `(?i)\btransmiss(ão|ões)\b`, `(?i)\btransmitindo\b`, `(?i)\benchimento\b`,
		`(?i)\brecortes?\b`, `(?i)\bdisposição\b`, `(?i)\bleiaute\b`, `(?i)\bmemória intermediária\b`,
		`(?i)\bpasso largo\b`,
	},
	French: {
		`(?i)\bdizaines?\b`, `(?i)\bcapteurs?\b`, `(?i)\bfoulées?\b`, `(?i)\benjambées?\b`, `(?i)\bprogrès\b`,
		`(?i)\bprogression\b`, `(?i)\bintervalles?\b`, `(?i)\bcompressés?\b`, `(?i)\bemballés?\b`,
		`(?i)\brembourr`, `(?i)\bmémoire tampon\b`, `(?i)\bdécoupes?\b`, `(?i)\bdéplacements?\b`,
		`(?i)\bagencement\b`, `(?i)\bmise en page\b`,
	},
}

// TestOneWordPerConcept scans every catalog value of each translated
// locale for the words the table forbids.
func TestOneWordPerConcept(t *testing.T) {
	for l, words := range forbidden {
		res := make([]*regexp.Regexp, len(words))
		for i, w := range words {
			res[i] = regexp.MustCompile(w)
		}
		n := 0
		for _, m := range catalogs[l] {
			for k, v := range m {
				n++
				if strings.HasPrefix(string(k), "glossary.page.") {
					continue
				}
				for _, re := range res {
					if s := re.FindString(v); s != "" {
						t.Errorf("%s %s: %q uses %q: %s", l, k, s, re, v)
					}
				}
			}
		}
		if n < 500 {
			t.Fatalf("%s: only %d catalog values scanned", l, n)
		}
	}
}

// TestStepIsNotStride: where a word means a step (of the tour, of the
// copy the slice page plays), it is not the word the locale uses for a
// stride: pt-BR's "passo" is stride, so a step is an "etapa", as French
// has pas and étape (its "pas" is also "not", so French is not scanned)
// and Chinese 步幅 and 步. Not even in the idiom: "passo a passo" under a
// form whose column says "passo ±" read as "stride by stride", so the
// copy goes "etapa por etapa".
func TestStepIsNotStride(t *testing.T) {
	steps := []Key{"tour.nav.label", "tour.steps.label", "tour.count", "tour.keys", "js.step.of", "js.steps", "js.step.intro",
		"js.step.e1", "js.copysteps.h", "js.copysteps.intro", "slice.steps.h", "facts.steps", "embed.more.slice", "empty.steps", "step.back.label", "step.next.label", "step.speed.label", "room.step", "room.presenting",
		// The conversion's copy order: each cell's step, in every text that names it.
		"convert.badge.legend", "convert.aria.in", "convert.aria.out", "js.convert.element",
		"convert.canvas.logical", "convert.canvas.input", "convert.canvas.output", "convert.canvas.colour"}
	stride := map[Locale]*regexp.Regexp{
		BrazilianPortuguese: regexp.MustCompile(`(?i)\bpassos?\b`),
		TraditionalChinese:  regexp.MustCompile(`步幅`),
	}
	for l, re := range stride {
		for _, k := range steps {
			v, ok := "", false
			for _, m := range catalogs[l] {
				if w, found := m[k]; found {
					v, ok = w, true
				}
			}
			if !ok {
				t.Errorf("%s has no %s", l, k)
				continue
			}
			if s := re.FindString(v); s != "" {
				t.Errorf("%s %s uses the stride's word %q: %s", l, k, s, v)
			}
		}
	}
}

// TestFrenchSpacing: every French string, as served, has French
// typography's no-break space before a colon and a narrow one before
// ; ? and ! (set at startup: frenchSpacing), never a plain space that a
// narrow screen may break the line at, and no ; ? or ! glued to the word
// before it (a colon may be, in code and times: "nullptr:", "{x}:").
func TestFrenchSpacing(t *testing.T) {
	plain := regexp.MustCompile(` [:;?!]`)
	glued := regexp.MustCompile(`[^\s\x{a0}\x{202f}][;?!](\s|$)|^[;?!]`)
	check := func(where, v string) {
		if s := plain.FindString(v); s != "" {
			t.Errorf("%s: a plain space before %q: %s", where, s[1:], v)
		}
		if s := glued.FindString(v); s != "" {
			t.Errorf("%s: %q with no space before it: %s", where, s, v)
		}
	}
	n := 0
	for _, m := range catalogs[French] {
		for k, v := range m {
			check(string(k), v)
			n++
		}
	}
	for _, term := range Glossary {
		check("glossary "+term.ID, term.Word[French]+" "+term.Means[French])
		n++
	}
	if n < 500 {
		t.Fatalf("only %d French strings scanned", n)
	}
	if got, want := French.T("page.none", nil), "Introuvable\u00a0: aucune page ne porte cette adresse"; got != want {
		t.Errorf("page.none in French is %q, want %q", got, want)
	}
}

// TestPackedIsCompactAndAgrees: packed is compact in French (compacto in
// Portuguese), as the glossary and the catalogs' README say, agreeing
// with what it qualifies: the strides' radio reads "compacts" beside
// "explicites" (both plural, the strides), never "compact" beside a
// plural; and no other word (empaqueté, tassé) names it (issue #37,
// point 6.6).
func TestPackedIsCompactAndAgrees(t *testing.T) {
	word := map[Locale]string{French: "compact", BrazilianPortuguese: "compacto"}
	for l, w := range word {
		if g := glossaryWord(t, "packed", l); !strings.HasPrefix(g, w) {
			t.Errorf("%s: the glossary calls packed %q, want %s", l, g, w)
		}
		explicit := l.T("form.explicit", nil)
		for _, k := range []Key{"form.packed", "form.packed.short", "fact.strides.packed"} {
			first := strings.Fields(l.T(k, nil))[0]
			if !strings.HasPrefix(first, w) || strings.HasSuffix(first, "s") != strings.HasSuffix(explicit, "s") {
				t.Errorf("%s %s: %q, beside %q (form.explicit): want %s agreeing with it", l, k, first, explicit, w)
			}
		}
	}
	other := regexp.MustCompile(`(?i)\bempaquet|\btass[ée]`)
	for _, m := range catalogs[French] {
		for k, v := range m {
			if s := other.FindString(v); s != "" {
				t.Errorf("fr %s: %q names packed another way: %s", k, s, v)
			}
		}
	}
}

func glossaryWord(t *testing.T, id string, l Locale) string {
	t.Helper()
	for _, term := range Glossary {
		if term.ID == id {
			return term.Word[l]
		}
	}
	t.Fatalf("no glossary term %s", id)
	return ""
}

// TestTourStep1SaysWhereTheGridIs: the first step's card, above the
// explorer, says the grid is the logical view and the buffer's row is
// under it; no language says the grid is above the card (zh-TW said
// 上面的格子, issue #37, point 6.6).
func TestTourStep1SaysWhereTheGridIs(t *testing.T) {
	above := map[Locale]*regexp.Regexp{
		English:             regexp.MustCompile(`(?i)\babove\b`),
		TraditionalChinese:  regexp.MustCompile(`上面|上方`),
		BrazilianPortuguese: regexp.MustCompile(`(?i)\bacima\b`),
		French:              regexp.MustCompile(`(?i)au-dessus`),
	}
	under := map[Locale]string{English: "under", TraditionalChinese: "底下", BrazilianPortuguese: "embaixo", French: "en dessous"}
	for _, l := range Locales {
		p := l.T("tour.1.p2", nil)
		if s := above[l].FindString(p); s != "" {
			t.Errorf("%s: tour.1.p2 says %q: %s", l, s, p)
		}
		if !strings.Contains(p, under[l]) {
			t.Errorf("%s: tour.1.p2 does not put the buffer under the grid (%q): %s", l, under[l], p)
		}
	}
}
