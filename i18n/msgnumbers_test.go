package i18n_test

import (
	"strings"
	"testing"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
)

// TestMessageNumbersInTheLocale: the numbers a message says in prose are
// grouped its language's way (French with a narrow no-break space,
// Portuguese with a dot, Chinese with a comma), its own literal numbers
// too, and English's stay the plain digits core writes; a number in the
// message's code or formula (sizes[{axis}] = {value}, {field} {value} <
// DMLCalcBufferTensorSize {min}, ... = {end} > ...) stays plain
// everywhere, as DirectML values in code are (issue #37, point 6.5).
func TestMessageNumbersInTheLocale(t *testing.T) {
	const nb = "\u202f"
	countErr := func() core.Violation {
		_, err := core.NewLayout(core.TensorDesc{DataType: core.Float32, Sizes: []int64{65536, 65537}})
		return err.(*core.ValidationError).Violations[0]
	}()
	cases := []struct {
		name string
		v    core.Violation
		want map[i18n.Locale][]string // texts the message holds
		not  []string                 // texts no locale's message holds
	}{
		{"an int in prose", core.NewMsg("body.large", "the body is larger than {limit} bytes", core.Args{"limit": 2 << 20}).At(""),
			map[i18n.Locale][]string{
				i18n.English:             {"larger than 2097152 bytes"},
				i18n.French:              {"dépasse 2" + nb + "097" + nb + "152 octets"},
				i18n.BrazilianPortuguese: {"passa de 2.097.152 bytes"},
				i18n.TraditionalChinese:  {"超過 2,097,152 位元組"},
			}, nil},
		{"int64s in prose, the axis small", core.NewMsg("numpy.index.bounds", "index {index} is out of bounds for axis {axis} with size {size}", core.Args{"index": int64(12345), "axis": 3, "size": int64(10000)}).At("expression"),
			map[i18n.Locale][]string{
				i18n.English:             {"index 12345 is out of bounds for axis 3 with size 10000"},
				i18n.French:              {"12" + nb + "345", "10" + nb + "000", "l'axe 3 "},
				i18n.BrazilianPortuguese: {"12.345", "10.000"},
				i18n.TraditionalChinese:  {"12,345", "10,000"},
			}, nil},
		{"a count and an int", core.NewMsg("numpy.indices", "too many indices for array: the array has {rank}, but {count} were indexed", core.Args{"rank": core.Count{N: 1000, Unit: "dimensions"}, "count": 2500}).At("expression"),
			map[i18n.Locale][]string{
				i18n.English:             {"has 1000 dimensions, but 2500 were"},
				i18n.French:              {"1" + nb + "000 dimensions", "2" + nb + "500 sont"},
				i18n.BrazilianPortuguese: {"1.000 dimensões", "2.500 foram"},
				i18n.TraditionalChinese:  {"1,000 維", "2,500 個索引"},
			}, nil},
		{"a product written as digits, and a literal", countErr,
			map[i18n.Locale][]string{
				i18n.English:             {"count 4295032832 > 2^32-1", "at most 4294967295 elements"},
				i18n.French:              {"logiques 4" + nb + "295" + nb + "032" + nb + "832 dépasse", "au plus 4" + nb + "294" + nb + "967" + nb + "295 éléments"},
				i18n.BrazilianPortuguese: {"lógicos 4.295.032.832 passa", "no máximo 4.294.967.295 elementos"},
				i18n.TraditionalChinese:  {"4295032832 > 2^32-1", "最多有 4,294,967,295 個元素"}, // Chinese says it as the formula
			}, nil},
		{"numbers in a comparison", core.NewMsg("tensor.total.small", "{field} {value} < DMLCalcBufferTensorSize {min}: the buffer must hold every element", core.Args{"field": "totalTensorSizeInBytes", "value": int64(40000), "min": int64(262144)}).At("totalTensorSizeInBytes"),
			map[i18n.Locale][]string{
				i18n.English: {"totalTensorSizeInBytes 40000 < DMLCalcBufferTensorSize 262144"},
				i18n.French:  {"totalTensorSizeInBytes 40000 < DMLCalcBufferTensorSize 262144"},
			}, []string{"40" + nb, "40.000", "40,000", "262.144", "262,144"}},
		{"numbers in code", core.NewMsg("slice1.window.outside", "axis {axis}: InputWindowOffsets[{axis}] + InputWindowSizes[{axis}] = {end} > InputTensor.Sizes[{axis}] = {size}", core.Args{"axis": 0, "end": int64(70000), "size": int64(65536)}).At("inputWindowSizes[0]"),
			map[i18n.Locale][]string{
				i18n.English:            {"= 70000 > InputTensor.Sizes[0] = 65536"},
				i18n.TraditionalChinese: {"= 70000 > InputTensor.Sizes[0] = 65536"},
			}, []string{"70" + nb, "70.000", "70,000", "65.536", "65,536"}},
	}
	for _, c := range cases {
		for _, l := range i18n.Locales {
			got := l.Violation(c.v).Message
			for _, w := range c.want[l] {
				if !strings.Contains(got, w) {
					t.Errorf("%s, %s: %q lacks %q", c.name, l, got, w)
				}
			}
			for _, w := range c.not {
				if strings.Contains(got, w) {
					t.Errorf("%s, %s: %q groups a number of code (%q)", c.name, l, got, w)
				}
			}
		}
	}
}
