package i18n

import (
	"regexp"
	"testing"
)

// TestFormulasSayTheLocalesWords: a formula in a translated catalog keeps
// its symbols and DirectML's names but says its words in the locale:
// no English size, stride, product, dot or sum inside one (issue #37,
// point 6.4). The glossary's pages (their titles) are not formulas.
func TestFormulasSayTheLocalesWords(t *testing.T) {
	english := regexp.MustCompile(`\((sizes?|strides?)\b|\|strides?\||\b(product|dot|sum)\(|\((size|stride)\s*[−-]`)
	for _, l := range Locales[1:] {
		n := 0
		for _, m := range catalogs[l] {
			for k, v := range m {
				n++
				if s := english.FindString(v); s != "" {
					t.Errorf("%s %s: %q is English in a formula: %s", l, k, s, v)
				}
			}
		}
		if n < 500 {
			t.Fatalf("%s: only %d values scanned", l, n)
		}
	}
	// The formulas the pages write from Go are catalog entries, in words.
	for _, c := range []struct {
		key  Key
		want map[Locale]string
	}{
		{"fact.logical.hint", map[Locale]string{English: "product(sizes) = 2 × 3", French: "produit(tailles) = 2 × 3", BrazilianPortuguese: "produto(tamanhos) = 2 × 3", TraditionalChinese: "大小的乘積 = 2 × 3"}},
		{"dims.maxcopied", map[Locale]string{English: "MaxCopiedElements = 1 + (size − 1) / |stride|", French: "MaxCopiedElements = 1 + (taille − 1) / |pas|", BrazilianPortuguese: "MaxCopiedElements = 1 + (tamanho − 1) / |passo|", TraditionalChinese: "MaxCopiedElements = 1 + (大小 − 1) / |步幅|"}},
	} {
		for l, want := range c.want {
			if got := l.T(c.key, Args{"product": "2 × 3"}); got != want {
				t.Errorf("%s in %s: %q, want %q", c.key, l, got, want)
			}
		}
	}
}
