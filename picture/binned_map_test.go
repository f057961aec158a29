package picture

import (
	"context"
	"regexp"
	"testing"

	"github.com/stridescope/stridescope/views"
)

// TestGridKeyPlacesAnElementByItsRowAndColumn: a single input's key
// cell is its element's row (down) and column (across) of the input's
// grid, in eighths; a map along either axis therefore changes colour.
func TestGridKeyPlacesAnElementByItsRowAndColumn(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		sizes  []int64
		n      int64
		r, col int
		nr, nc int
	}{
		{[]int64{64, 64}, 0, 0, 0, 8, 8},
		{[]int64{64, 64}, 63, 0, 7, 8, 8},             // the first row's last column
		{[]int64{64, 64}, 64 * 63, 7, 0, 8, 8},        // the last row's first column
		{[]int64{64, 64}, 64*8 + 8, 1, 1, 8, 8},       // row 8, column 8
		{[]int64{300}, 299, 0, 7, 1, 8},               // one row
		{[]int64{3, 5}, 14, 2, 4, 3, 5},               // fewer rows and columns than levels
		{[]int64{1, 16, 64, 64}, 64 * 64, 0, 0, 8, 8}, // NCHW: rows N,C,H (1024), columns W
		{[]int64{1, 16, 64, 64}, 64*64*16 - 1, 7, 7, 8, 8},
	} {
		k := GridKey(ctx, c.sizes)
		r, col := k.At(c.n)
		if r != c.r || col != c.col || k.NR != c.nr || k.NC != c.nc || len(k.RowHeads) != k.NR || len(k.ColHeads) != k.NC {
			t.Errorf("%v element %d: key cell (%d,%d) of %dx%d, heads %d,%d; want (%d,%d) of %dx%d", c.sizes, c.n, r, col, k.NR, k.NC, len(k.RowHeads), len(k.ColHeads), c.r, c.col, c.nr, c.nc)
		}
	}
}

// TestJoinedKeyGivesEachInputItsHue: a join's inputs numbered on from
// one to the next: the key's column is the input, its row the quarter of
// the input the element is in.
func TestJoinedKeyGivesEachInputItsHue(t *testing.T) {
	k := JoinedKey(context.Background(), []string{"a", "b", "c"}, []int64{8, 4, 100})
	for _, c := range []struct {
		n      int64
		r, col int
	}{{0, 0, 0}, {7, 3, 0}, {8, 0, 1}, {11, 3, 1}, {12, 0, 2}, {12 + 49, 1, 2}, {12 + 99, 3, 2}} {
		if r, col := k.At(c.n); r != c.r || col != c.col {
			t.Errorf("element %d: key cell (%d,%d), want (%d,%d)", c.n, r, col, c.r, c.col)
		}
	}
	if k.NC != 3 || k.NR != 4 {
		t.Errorf("key %dx%d, want 4 rows by 3 inputs", k.NR, k.NC)
	}
}

// TestMapKeyColoursAreDistinct: every cell of a full key is its own
// colour, so that no two places of the input read the same.
func TestMapKeyColoursAreDistinct(t *testing.T) {
	p := GridKey(context.Background(), []int64{64, 64}).palette()
	seen := map[string]bool{}
	hex := regexp.MustCompile(`^#[0-9a-f]{6}$`)
	for _, c := range p {
		if !hex.MatchString(c) || seen[c] {
			t.Errorf("colour %q repeated or malformed in %v", c, p)
		}
		seen[c] = true
	}
	if len(p) != 64 {
		t.Errorf("%d colours, want 64", len(p))
	}
}

// TestMapBinnedStaysWithinTheAspect: nine narrow views with long lines
// (a join of eight inputs) keep the picture at most MaxSVGAspect times
// as tall as wide, some of the output's squares the padding value.
func TestMapBinnedStaysWithinTheAspect(t *testing.T) {
	ctx := context.Background()
	var vs []MapView
	var names []string
	var counts []int64
	for k := range 8 {
		vs = append(vs, MapView{Heading: "in", Sizes: []int64{4096, 2}, Source: func(i int64) int64 { return int64(k)*8192 + i }})
		names, counts = append(names, "x"), append(counts, 8192)
	}
	vs = append(vs, MapView{Heading: "out", Sizes: []int64{4096 * 8, 2}, Output: true, Source: func(i int64) int64 {
		if i%7 == 0 {
			return -1
		}
		return i
	}})
	lines := []string{"a long line of words that wraps at the picture's width, again and again, to make it taller"}
	s, err := MapBinned(ctx, MapPicture{ID: "t", Title: "t", Lines: append(lines, lines...), Key: JoinedKey(ctx, names, counts), Views: vs})
	if err != nil {
		t.Fatal(err)
	}
	if s.Height > views.MaxSVGAspect*s.Width {
		t.Errorf("%d x %d px: more than %d times as tall as wide", s.Width, s.Height, views.MaxSVGAspect)
	}
	if len(s.Images) != 10 {
		t.Errorf("%d rasters, want 9 views and the key", len(s.Images))
	}
}
