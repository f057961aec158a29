package views

import (
	"context"
	"testing"

	"github.com/stridescope/stridescope/i18n"
)

// TestSubtitlesCountInTheSingular: one element is "1 element", one byte
// "1 byte", in each language's own way (a one-dimensional tensor's count
// said once: not "1 = 1 element").
func TestSubtitlesCountInTheSingular(t *testing.T) {
	for _, c := range []struct {
		locale          i18n.Locale
		m               Meta
		logical, buffer string
	}{
		{i18n.English, Meta{Sizes: []int64{1}, Labels: []string{"W"}, Bits: 32, LogicalCount: 1, Cells: 1},
			"1 element, {W}", "1 element of 32 bits = 4 bytes"},
		{i18n.English, Meta{Sizes: []int64{1}, Labels: []string{"W"}, Bits: 8, LogicalCount: 1, Cells: 1},
			"1 element, {W}", "1 element of 8 bits = 1 byte"},
		{i18n.English, Meta{Sizes: []int64{2}, Labels: []string{"W"}, Bits: 4, LogicalCount: 2, Cells: 2},
			"2 elements, {W}", "2 elements of 4 bits = 1 byte"},
		{i18n.English, Meta{Sizes: []int64{2, 3}, Labels: []string{"H", "W"}, Bits: 32, LogicalCount: 6, Cells: 6},
			"2×3 = 6 elements, {H,W}", "6 elements of 32 bits = 24 bytes"},
		{i18n.French, Meta{Sizes: []int64{1}, Labels: []string{"W"}, Bits: 8, LogicalCount: 1, Cells: 1},
			"1 élément, {W}", "1 élément de 8 bits = 1 octet"},
		{i18n.BrazilianPortuguese, Meta{Sizes: []int64{1}, Labels: []string{"W"}, Bits: 16, LogicalCount: 1, Cells: 1},
			"1 elemento, {W}", "1 elemento de 16 bits = 2 bytes"},
		{i18n.TraditionalChinese, Meta{Sizes: []int64{1}, Labels: []string{"W"}, Bits: 32, LogicalCount: 1, Cells: 1},
			"1 個元素，{W}", "1 個 32 位元的元素 = 4 位元組"},
	} {
		ctx := i18n.WithLocale(context.Background(), c.locale)
		if got := LogicalSubIn(ctx, c.m); got != c.logical {
			t.Errorf("%v %+v: logical %q, want %q", c.locale, c.m, got, c.logical)
		}
		if got := BufferSubIn(ctx, c.m); got != c.buffer {
			t.Errorf("%v %+v: buffer %q, want %q", c.locale, c.m, got, c.buffer)
		}
	}
}

// TestBufferSubCountsTheBytesLeftOver: a TotalTensorSizeInBytes that is
// not a whole number of elements keeps its extra bytes in the subtitle,
// so that it gives the buffer size the facts give.
func TestBufferSubCountsTheBytesLeftOver(t *testing.T) {
	float32s := Meta{Sizes: []int64{2, 3}, Labels: []string{"H", "W"}, Bits: 32, LogicalCount: 6, Cells: 11, Over: 2}
	float16s := Meta{Sizes: []int64{2, 3}, Labels: []string{"H", "W"}, Bits: 16, LogicalCount: 6, Cells: 17, Over: 1}
	for _, c := range []struct {
		locale i18n.Locale
		m      Meta
		want   string
	}{
		{i18n.English, float32s, "11 elements of 32 bits + 2 bytes left over = 46 bytes"},
		{i18n.English, float16s, "17 elements of 16 bits + 1 byte left over = 35 bytes"},
		{i18n.TraditionalChinese, float32s, "11 個 32 位元的元素 + 餘下 2 位元組 = 46 位元組"},
		{i18n.BrazilianPortuguese, float32s, "11 elementos de 32 bits + 2 bytes de sobra = 46 bytes"},
		{i18n.French, float16s, "17 éléments de 16 bits + 1 octet en trop = 35 octets"},
	} {
		ctx := i18n.WithLocale(context.Background(), c.locale)
		if got := BufferSubIn(ctx, c.m); got != c.want {
			t.Errorf("%v, %d elements of %d bits and %d bytes: %q, want %q", c.locale, c.m.Cells, c.m.Bits, c.m.Over, got, c.want)
		}
	}
}
