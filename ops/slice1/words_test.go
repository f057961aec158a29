package slice1

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
)

// wordedErrors are the errors a page shows for query, worded in l: the
// layout explorer's, or the slice explorer's when slice is set.
func wordedErrors(t *testing.T, l i18n.Locale, query string, slice bool) []core.Violation {
	t.Helper()
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	if slice {
		st, qvs := StateFromQuery(q)
		return picture.InWords(l, Validate(st, qvs).Errors, len(st.In.Sizes))
	}
	st, qvs := picture.LayoutStateFromQuery(q)
	return picture.InWords(l, picture.Validate(st, qvs).Errors, len(st.Sizes))
}

// TestInWords: each rule the forms break reads as words, then the rule
// after a dash; in English exactly as the pages have always written it.
func TestInWords(t *testing.T) {
	for _, c := range []struct {
		query string
		slice bool
		field string
		want  string
	}{
		{"sizes=2,0", false, "sizes[1]",
			"The size of dimension W is 0: no dimension may be empty — sizes[1] == 0: specifying a size of zero in any dimension is invalid"},
		{"sizes=2,3&strides=-3,1&mode=explicit", false, "strides[0]",
			"The stride of dimension H is negative (-3): a tensor's strides cannot be; a slice's window strides can reverse — strides[0] = -3: DML_BUFFER_TENSOR_DESC::Strides is const UINT*, so negative strides cannot be expressed (use DML_SLICE1 negative window strides to reverse)"},
		// A form entry that is not a number breaks no rule: said once.
		{"sizes=2,x", false, "sizes[1]",
			`The size of dimension W, "x", is not a whole number: give a size of at least 1`},
		{"sizes=2,", false, "sizes[1]",
			"The size of dimension W is empty: give a size of at least 1"},
		{"sizes=4,4&woff=0,0&wsize=4,4&wstride=1,abc", true, "inputWindowStrides[1]",
			`The window's stride on axis 1 (W), "abc", is not a whole number: give a signed window stride, not 0`},
		{"sizes=4294967296", false, "sizes[0]",
			"The size of dimension W is out of the range DirectML takes — sizes[0] = 4294967296 exceeds the UINT maximum 2^32-1"},
		{"sizes=4096,4096&total=8", false, "totalTensorSizeInBytes",
			"TotalTensorSizeInBytes is 8 bytes, fewer than the 67\u202f108\u202f864 the tensor's elements need — totalTensorSizeInBytes 8 < DMLCalcBufferTensorSize 67108864: the buffer must hold every element"},
		{"sizes=2,3&align=3", false, "guaranteedBaseOffsetAlignment",
			"The alignment must be 0 or a power of two (1, 2, 4, 8, 16, …) — guaranteedBaseOffsetAlignment 3 must be 0 or a power of two"},
		{"sizes=4,4&woff=0,0&wsize=4,4&wstride=1,0", true, "inputWindowStrides[1]",
			"The window's stride on axis 1 (W) is 0: the window must step forwards or backwards — axis 1: InputWindowStrides[1] == 0 (strides may not be 0)"},
		{"sizes=4,4&woff=0,-1&wsize=4,3&wstride=1,1", true, "inputWindowOffsets[1]",
			"The window's offset on axis 1 (W) is negative (-1) — InputWindowOffsets[1] = -1 is not a UINT (0 to 2^32-1)"},
		{"sizes=4,4&woff=0,0&wsize=4,4&wstride=1,-3000000000", true, "inputWindowStrides[1]",
			"The window's stride on axis 1 (W) is out of the range DirectML takes — InputWindowStrides[1] = -3000000000 is not an INT (-2^31 to 2^31-1)"},
		{"sizes=4,4&woff=0,2&wsize=4,4&wstride=1,1", true, "inputWindowOffsets[1]",
			"The window on axis 1 (W) runs past the input: offset + size = 6, but the input has 4 (indices 0 to 3) — axis 1: InputWindowOffsets[1] + InputWindowSizes[1] = 6 > InputTensor.Sizes[1] = 4"},
		{"sizes=4,4&woff=0,0&wsize=4,4&wstride=1,1&out=4,9", true, "outputSizes[1]",
			"The output size on axis 1 (W) is 9, but the window gives at most 4 — axis 1: OutputSizes[1] = 9 not in [1, MaxCopiedElements = 4] (1 + (4 - 1) / |1|)"},
		// Below the range: what is wrong is the 0, not the window.
		{"sizes=4,4&woff=0,0&wsize=4,4&wstride=1,1&out=4,0", true, "outputSizes[1]",
			"The output size on axis 1 (W) is 0, but an output has at least 1 element in every dimension — axis 1: OutputSizes[1] = 0 not in [1, MaxCopiedElements = 4] (1 + (4 - 1) / |1|)"},
	} {
		found := false
		for _, v := range wordedErrors(t, i18n.English, c.query, c.slice) {
			if v.Field != c.field {
				continue
			}
			found = true
			if v.Message != c.want {
				t.Errorf("%s: %q\nwant %q", c.query, v.Message, c.want)
			}
		}
		if !found {
			t.Errorf("%s: no error at %s", c.query, c.field)
		}
	}
}

// TestInWordsInEveryLocale: a translated page words its errors in its
// language, both the words and the rule after the dash, and groups a
// prose number its own way.
func TestInWordsInEveryLocale(t *testing.T) {
	for _, c := range []struct {
		loc   i18n.Locale
		query string
		slice bool
		want  string
	}{
		{i18n.French, "sizes=2,0", false,
			"La taille de la dimension W vaut 0\u00a0: aucune dimension ne peut être vide — sizes[1] == 0\u00a0: une taille nulle, dans quelque dimension que ce soit, est invalide"},
		{i18n.BrazilianPortuguese, "sizes=2,0", false,
			"O tamanho da dimensão W é 0: nenhuma dimensão pode ser vazia — sizes[1] == 0: um tamanho zero em qualquer dimensão é inválido"},
		{i18n.TraditionalChinese, "sizes=2,0", false,
			"維度 W 的大小是 0：任何維度都不能是空的 — sizes[1] == 0：任何維度的大小都不能是零"},
		{i18n.French, "sizes=4096,4096&total=8", false,
			"TotalTensorSizeInBytes vaut 8 octets, moins que les 67\u202f108\u202f864 dont les éléments du tenseur ont besoin — totalTensorSizeInBytes 8 < DMLCalcBufferTensorSize 67108864\u00a0: le tampon doit contenir chaque élément"},
		{i18n.BrazilianPortuguese, "sizes=4096,4096&total=8", false,
			"TotalTensorSizeInBytes é 8 bytes, menos que os 67.108.864 de que os elementos do tensor precisam — totalTensorSizeInBytes 8 < DMLCalcBufferTensorSize 67108864: o buffer deve comportar todos os elementos"},
		{i18n.BrazilianPortuguese, "sizes=4,4&woff=0,0&wsize=4,4&wstride=1,1&out=4,0", true,
			"O tamanho da saída no eixo 1 (W) é 0, mas a saída tem pelo menos 1 elemento em cada dimensão — eixo 1: OutputSizes[1] = 0 fora de [1, MaxCopiedElements = 4] (1 + (4 - 1) / |1|)"},
		{i18n.TraditionalChinese, "sizes=4,4&woff=0,2&wsize=4,4&wstride=1,1", true,
			"軸 1（W）的視窗超出了輸入：偏移量 + 大小 = 6，但輸入只有 4 個（索引 0 到 3） — 軸 1：InputWindowOffsets[1] + InputWindowSizes[1] = 6 > InputTensor.Sizes[1] = 4"},
	} {
		vs := wordedErrors(t, c.loc, c.query, c.slice)
		if len(vs) == 0 {
			t.Fatalf("%s %s: no error", c.loc, c.query)
		}
		if vs[0].Message != c.want {
			t.Errorf("%s %s: %q\nwant %q", c.loc, c.query, vs[0].Message, c.want)
		}
	}
	// Every worded error of these forms, in every locale, has no English
	// words before its dash; an entry that is not a number is words alone,
	// said once.
	for _, l := range i18n.Locales {
		for _, q := range []string{"sizes=2,x", "sizes=2,"} {
			for _, v := range wordedErrors(t, l, q, false) {
				if strings.Contains(v.Message, " — ") || strings.Contains(v.Message, "sizes[1]") {
					t.Errorf("%s %s: says it twice: %q", l, q, v.Message)
				}
			}
		}
	}
	for _, l := range i18n.Locales[1:] {
		for _, q := range []string{"sizes=2,0", "sizes=2,x", "sizes=2,", "sizes=4294967296", "sizes=2,3&strides=-3,1&mode=explicit", "sizes=2,3&align=3"} {
			for _, v := range wordedErrors(t, l, q, false) {
				words, _, ok := strings.Cut(v.Message, " — ")
				if !ok && v.Code != "whole.invalid" && v.Code != "whole.empty" {
					t.Errorf("%s %s: not worded: %q", l, q, v.Message)
				}
				for _, en := range []string{"the size", "The size", "of dimension", "is 0", "negative", "whole number", "give"} {
					if strings.Contains(words, en) {
						t.Errorf("%s %s: %q has English %q", l, q, words, en)
					}
				}
			}
		}
	}
}
