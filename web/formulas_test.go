package web

import (
	"strings"
	"testing"

	"github.com/stridescope/stridescope/i18n"
)

// TestFormulasInTheLocale: the formulas the facts and the slice page's
// table write (product(sizes), dot(sizes − 1, strides), 1 + (size − 1) /
// |stride|) say their words in the page's language and keep their
// symbols; the DirectML names in them stay as they are (issue #37,
// point 6.4).
func TestFormulasInTheLocale(t *testing.T) {
	ts := newTestServer(t)
	english := []string{"product(", "dot(", "(size", "|stride|", "sizes)"}
	for _, c := range []struct {
		loc                  i18n.Locale
		logical, last, maxcp string
	}{
		{i18n.English, "product(sizes) = 2 × 3", "dot(sizes − 1, strides)", "MaxCopiedElements = 1 + (size − 1) / |stride|"},
		{i18n.French, "produit(tailles) = 2 × 3", "produit scalaire(tailles − 1, pas)", "MaxCopiedElements = 1 + (taille − 1) / |pas|"},
		{i18n.BrazilianPortuguese, "produto(tamanhos) = 2 × 3", "produto escalar(tamanhos − 1, passos)", "MaxCopiedElements = 1 + (tamanho − 1) / |passo|"},
		{i18n.TraditionalChinese, "大小的乘積 = 2 × 3", "內積(大小 − 1, 步幅)", "MaxCopiedElements = 1 + (大小 − 1) / |步幅|"},
	} {
		_, d := getPage(t, ts.URL+"/?sizes=2,3&strides=4,1&mode=explicit&lang="+string(c.loc), nil)
		logical, last := d.Find(tid("fact-logical")+" dd.hint").Text(), d.Find(tid("fact-last")+" dd.hint").Text()
		if logical != c.logical || last != c.last {
			t.Errorf("%s: the facts' formulas %q and %q, want %q and %q", c.loc, logical, last, c.logical, c.last)
		}
		_, d = getPage(t, ts.URL+"/slice?preset=example2&lang="+string(c.loc), nil)
		table, hint := d.Find(tid("dimfacts")+" thead").Text(), d.Find(tid("fact-maxcopied")).Text()
		if !strings.Contains(table, c.maxcp) {
			t.Errorf("%s: the table's head %q lacks %q", c.loc, table, c.maxcp)
		}
		if c.loc == i18n.English {
			continue
		}
		for _, w := range english {
			for what, s := range map[string]string{"fact-logical": logical, "fact-last": last, "dimfacts": table, "fact-maxcopied": hint} {
				if strings.Contains(s, w) {
					t.Errorf("%s: %s %q says %q in English", c.loc, what, s, w)
				}
			}
		}
	}
}
