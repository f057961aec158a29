package tile

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
)

// TestOutputTooLargeSaysWhichTensor: the output's sizes are worked out
// from the repeats, so a page's error that it is too large says it is
// the output's, in each language, before the rule.
func TestOutputTooLargeSaysWhichTensor(t *testing.T) {
	q, _ := url.ParseQuery("dt=FLOAT32&sizes=1000,1000&repeats=100,100")
	st, qvs := StateFromQuery(q)
	v := Validate(st, qvs)
	for l, want := range map[i18n.Locale]string{
		i18n.English: "The output tensor — ", i18n.French: "Le tenseur de sortie — ",
		i18n.BrazilianPortuguese: "O tensor de saída — ", i18n.TraditionalChinese: "輸出張量 — ",
	} {
		vs := picture.InWords(l, v.Errors, 2)
		if len(vs) != 1 || vs[0].Field != "outputSizes" || !strings.HasPrefix(vs[0].Message, want) || !strings.Contains(digits(vs[0].Message), "10000000000") {
			t.Errorf("%s: %+v, want one outputSizes error starting %q", l, vs, want)
		}
	}
}

// digits is s's digits alone (counts are grouped by locale).
func digits(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}
