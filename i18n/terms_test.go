package i18n

import (
	"regexp"
	"testing"
)

// forbidden are, per locale, the words a translation must not use for a
// concept the glossary names with another: the machine translations'
// mistakes (tensors as "tens", strides as "progress", slice as "ration")
// and the synonyms that would give one concept two names (zh-TW's
// layout is 記憶體配置, never 佈局; pt-BR's slice is fatia, never recorte).
// The glossary's own list of misleading words (glossary.go) is not a
// catalog and quotes them on purpose.
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
