package picture

import (
	"context"
	"math"
	"math/bits"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/views"
)

// The binned pictures: a state whose views are larger than
// views.MaxSVGDetail cells is drawn as squares each standing for a block
// of elements or cells. What colours a square is counted (a walk over
// every element, with compute) or read off core, never estimated.

// MaxBinnedWalk is the most elements a binned picture walks to count
// them per square: the explorer's own limit. A larger tensor's logical
// view is still drawn (one element a square is enough for it), its buffer
// is not.
const MaxBinnedWalk = MaxInteractive

// Grid is a tensor laid out as the binned pictures draw it, Rows × Cols
// elements in row-major order (the dimensions from Split on across, the
// ones before it down), in squares of BH × BW elements, NR × NC of them.
type Grid struct {
	Rows, Cols int64
	Split      int
	BH, BW     int64
	NR, NC     int
}

// GridOf is sizes as a grid of at most views.MaxBinsPerSide squares a
// side: the split of the dimensions into rows and columns that makes it
// nearest a square (a rank-8 tensor of 4s is 256 × 256, not 16,384 × 4),
// in square blocks where the tensor allows.
func GridOf(sizes []int64) Grid {
	r := len(sizes)
	g := Grid{Rows: 1, Cols: 1, Split: r - 1}
	for _, s := range sizes[:r-1] {
		g.Rows *= s
	}
	g.Cols = sizes[r-1]
	rows, cols := g.Rows, g.Cols
	for k := r - 2; k >= 1; k-- { // move dimension k into the columns
		rows, cols = rows/sizes[k], cols*sizes[k]
		if skew(rows, cols) < skew(g.Rows, g.Cols) {
			g.Rows, g.Cols, g.Split = rows, cols, k
		}
	}
	most := int64(views.MaxBinsPerSide)
	b := (max(g.Rows, g.Cols) + most - 1) / most
	g.BH, g.BW = min(b, g.Rows), min(b, g.Cols)
	g.NR, g.NC = int((g.Rows+g.BH-1)/g.BH), int((g.Cols+g.BW-1)/g.BW)
	return g
}

// skew is how far from square a grid of rows × cols is.
func skew(rows, cols int64) float64 {
	return math.Abs(math.Log(float64(rows)) - math.Log(float64(cols)))
}

// Bin is the square of the element with row-major index i.
func (g Grid) Bin(i int64) int {
	return int(i/g.Cols/g.BH)*g.NC + int(i%g.Cols/g.BW)
}

// First is the row-major index of the first (top left) element of
// square k.
func (g Grid) First(k int) int64 {
	return int64(k/g.NC)*g.BH*g.Cols + int64(k%g.NC)*g.BW
}

// Size is how many elements square k holds (the last row and column of
// squares may be cut short).
func (g Grid) Size(k int) int64 {
	r0, c0 := int64(k/g.NC)*g.BH, int64(k%g.NC)*g.BW
	return (min(r0+g.BH, g.Rows) - r0) * (min(c0+g.BW, g.Cols) - c0)
}

// Strip is a buffer of Cells cells as the binned pictures draw it:
// squares of W cells, NC a row, N in all.
type Strip struct {
	Cells, W int64
	N, NC    int
}

// StripOf is a buffer of cells in at most views.MaxBinsPerSide rows of as
// many squares.
func StripOf(cells int64) Strip {
	most := int64(views.MaxBinsPerSide * views.MaxBinsPerSide)
	w := (cells + most - 1) / most
	n := int((cells + w - 1) / w)
	return Strip{Cells: cells, W: w, N: n, NC: min(n, views.MaxBinsPerSide)}
}

// Rows is how many rows of squares s has.
func (s Strip) Rows() int { return (s.N + s.NC - 1) / s.NC }

// Size is how many cells square k covers.
func (s Strip) Size(k int) int64 { return min(int64(k+1)*s.W, s.Cells) - int64(k)*s.W }

// CountBins walks w's offsets a chunk at a time and counts them in the
// square bin(offset) of nbins.
func CountBins(ctx context.Context, w compute.Walk, nbins int, bin func(off int64) int) ([]int64, error) {
	counts := make([]int64, nbins)
	n := w.Len()
	buf := make([]int64, min(n, OffsetChunk))
	for first := int64(0); first < n; first += int64(len(buf)) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		chunk := buf[:min(int64(len(buf)), n-first)]
		compute.Offsets(w, first, chunk)
		for _, o := range chunk {
			counts[bin(o)]++
		}
	}
	return counts, nil
}

// RampLevels is how many colours a ramp over values 0..n-1 has.
const RampLevels = 8

// Ramp is a colour ramp over the values 0..N-1 in Levels equal parts.
type Ramp struct{ N, Levels int64 }

// RampOf is the ramp over 0..n-1.
func RampOf(n int64) Ramp { return Ramp{N: n, Levels: min(n, RampLevels)} }

// Level is v's part of the ramp: floor(v × Levels / N), exact.
func (r Ramp) Level(v int64) uint8 {
	hi, lo := bits.Mul64(uint64(v), uint64(r.Levels))
	q, _ := bits.Div64(hi, lo, uint64(r.N))
	return uint8(q)
}

// From is the first value of level k: ceil(k × N / Levels).
func (r Ramp) From(k int64) int64 {
	hi, lo := bits.Mul64(uint64(k), uint64(r.N))
	q, rem := bits.Div64(hi, lo, uint64(r.Levels))
	if rem != 0 {
		q++
	}
	return int64(q)
}

// Legend is the ramp's swatches, each labelled with its range of
// values, numbers grouped as ctx's locale groups them.
func (r Ramp) Legend(ctx context.Context) []views.SVGCell {
	var items []views.SVGCell
	for k := range r.Levels {
		from, to := r.From(k), r.From(k+1)-1
		text := i18n.Grouped(ctx, from)
		if to != from {
			text += "–" + i18n.Grouped(ctx, to)
		}
		items = append(items, views.SVGCell{Fill: views.BinRamp(int(k), int(r.Levels)), Stroke: views.SVGPadLine, Tip: text})
	}
	return items
}

// Palette is the ramp's colours.
func (r Ramp) Palette() []string {
	p := make([]string, r.Levels)
	for k := range p {
		p[k] = views.BinRamp(k, int(r.Levels))
	}
	return p
}

// GridHeads labels a grid's squares: the first row and column of
// elements each labelled square starts at.
func GridHeads(ctx context.Context, g Grid, cell int) (rows, cols []views.SVGHead) {
	rows = views.Heads(g.NR, cell, 28, func(i int) string { return i18n.Grouped(ctx, int64(i)*g.BH) })
	cols = views.Heads(g.NC, cell, 56, func(i int) string { return i18n.Grouped(ctx, int64(i)*g.BW) })
	return rows, cols
}

// StripHeads labels a strip's rows with the first cell of each.
func StripHeads(ctx context.Context, s Strip, cell int) []views.SVGHead {
	return views.Heads(s.Rows(), cell, 28, func(i int) string { return i18n.Grouped(ctx, int64(i*s.NC)*s.W) })
}

// The classes of a buffer's squares, by the elements its cells hold.
const (
	BufTail   = iota // past the last element: the unused tail
	BufNone          // no element: padding
	BufFewer         // fewer elements than cells
	BufAsMany        // as many elements as cells
	BufMore          // more elements than cells: some are shared
)

// BufferPalette colours the buffer classes, as the explorer does.
var BufferPalette = []string{views.BinTail, views.ClassHatched, views.BinFewer, views.SVGSoft, views.BinShared}

// BufferClass is the class of a square of size cells starting at cell
// start holding count elements, last being the offset of the last element.
func BufferClass(start, size, count, last int64) uint8 {
	switch {
	case count == 0 && start > last:
		return BufTail
	case count == 0:
		return BufNone
	case count < size:
		return BufFewer
	case count == size:
		return BufAsMany
	}
	return BufMore
}

// BufferLegend names the classes present, in ctx's locale.
func BufferLegend(ctx context.Context, present [5]bool) []views.SVGCell {
	t := func(k i18n.Key) string { return i18n.T(ctx, k) }
	all := []views.SVGCell{
		{Fill: views.BinTail, Stroke: views.SVGPadLine, Dashed: true, Tip: t("legend.tail")},
		{Hatched: true, Stroke: views.SVGPadLine, Tip: t("legend.padding")},
		{Fill: views.BinFewer, Stroke: views.SVGSoftInk, Tip: t("svg.binned.fewer")},
		{Fill: views.SVGSoft, Stroke: views.SVGSoftInk, Tip: t("svg.binned.asmany")},
		{Fill: views.BinShared, Stroke: views.SVGSoftInk, Tip: t("svg.binned.more")},
	}
	var out []views.SVGCell
	for k, it := range all {
		if present[k] {
			out = append(out, it)
		}
	}
	return out
}

// BufferNote says what a square of s is, in ctx's locale: how many cells
// and bytes of elements of bits bits.
func BufferNote(ctx context.Context, key i18n.Key, s Strip, bits int64) string {
	return i18n.T(ctx, key, i18n.Args{"cells": i18n.Grouped(ctx, s.W), "bytes": i18n.Grouped(ctx, s.W*bits/8), "row": s.NC})
}

// LayoutBinned is the picture of v drawn binned: the logical view as
// squares coloured by the buffer offset of their first element (core's
// Offset), the buffer as squares coloured by how many elements their
// cells hold (counted by a walk of every element), with the facts the
// detailed picture gives.
func LayoutBinned(ctx context.Context, v Validated, query, id string) (views.SVG, error) {
	p, err := draw(ctx, v, query, 0) // the facts, subtitles and the focus's line; no view
	if err != nil {
		return views.SVG{}, err
	}
	l := v.Layout
	m, f := p.View.Meta, p.View.Facts
	t := func(key i18n.Key, args i18n.Args) string { return i18n.T(ctx, key, args) }
	title := views.LayoutTitle(ctx, p.View)
	g, s := GridOf(l.Sizes), StripOf(l.BufferElementCount())
	desc := t("svg.binned.layout.desc", i18n.Args{"logical": views.LogicalSubIn(ctx, m), "buffer": views.BufferSubIn(ctx, m), "note": f.TotalNote})
	b := views.NewSVGBuilder(id, title, desc)
	b.Text(title, 17, true, false, "")
	b.Text(layoutBadges(ctx, f), 13, false, false, views.SVGMuted)
	b.Y += 6

	// The logical view: the first element of each square, its offset.
	last := l.IndexOfLastElement()
	ramp := RampOf(last + 1)
	lr := views.SVGRaster{Class: "lbins", Cols: g.NC, Rows: g.NR, Classes: make([]uint8, g.NR*g.NC), Palette: ramp.Palette()}
	for k := range lr.Classes {
		off, err := l.Offset(l.Coordinate(g.First(k)))
		if err != nil {
			return views.SVG{}, err
		}
		lr.Classes[k] = ramp.Level(off)
	}
	lr.RowHeads, lr.ColHeads = GridHeads(ctx, g, lr.Cell())
	var selOff int64 = -1
	if v.Sel != nil {
		k := g.Bin(RowMajorIndex(l.Sizes, v.Sel))
		lr.Frames = append(lr.Frames, views.SVGBinFrame{C0: k % g.NC, R0: k / g.NC, C1: k % g.NC, R1: k / g.NC, Stroke: views.SVGAccent, Width: 3})
		selOff, _ = l.Offset(v.Sel)
	}
	b.Text(t("svg.logical", i18n.Args{"sub": views.LogicalSubIn(ctx, m)}), 15, true, false, "")
	b.Wrapped(t("svg.binned.logical", GridArgs(ctx, g, m.Labels)), 13, views.SVGMuted)
	lr.Tip = t("svg.binned.logical.tip", nil)
	if err := b.Raster(lr); err != nil {
		return views.SVG{}, err
	}
	b.Legend(ramp.Legend(ctx))
	if line := firstOf(p.View.Dot, p.View.Linked); line != "" {
		b.Text(line, 15, false, true, views.SVGAccent)
	}
	b.Y += 6

	// The buffer: how many elements each square's cells hold.
	b.Text(t("svg.buffer", i18n.Args{"sub": views.BufferSubIn(ctx, m)}), 15, true, false, "")
	if n := l.LogicalElementCount(); n > MaxBinnedWalk {
		b.Wrapped(t("svg.binned.nocount", i18n.Args{"n": i18n.Grouped(ctx, n), "max": i18n.Grouped(ctx, int64(MaxBinnedWalk))}), 13, views.SVGMuted)
	} else {
		counts, err := CountBins(ctx, p.Walk, s.N, func(o int64) int { return int(o / s.W) })
		if err != nil {
			return views.SVG{}, err
		}
		br := views.SVGRaster{Class: "bbins", Cols: s.NC, Rows: s.Rows(), Classes: make([]uint8, s.N), Palette: BufferPalette}
		var present [5]bool
		for k, c := range counts {
			cl := BufferClass(int64(k)*s.W, s.Size(k), c, last)
			br.Classes[k], present[cl] = cl, true
		}
		br.RowHeads = StripHeads(ctx, s, br.Cell())
		if selOff >= 0 || v.Cell >= 0 {
			off := selOff
			if off < 0 {
				off = v.Cell
			}
			if k := int(off / s.W); k < s.N {
				br.Frames = append(br.Frames, views.SVGBinFrame{C0: k % s.NC, R0: k / s.NC, C1: k % s.NC, R1: k / s.NC, Stroke: views.SVGAccent, Width: 3})
			}
		}
		b.Wrapped(BufferNote(ctx, "svg.binned.buffer", s, m.Bits), 13, views.SVGMuted)
		br.Tip = t("svg.binned.buffer.tip", nil)
		if err := b.Raster(br); err != nil {
			return views.SVG{}, err
		}
		b.Legend(BufferLegend(ctx, present))
	}
	b.Wrapped(f.TotalNote, 13, views.SVGMuted)
	return b.Done(), nil
}

// GridArgs are the words of a grid's binning: {grid}, its rows (the
// dimensions flattened into them) and columns, and {bh} × {bw}, a
// square's block.
func GridArgs(ctx context.Context, g Grid, labels []string) i18n.Args {
	r := len(labels)
	group := func(ls []string) string {
		if len(ls) == 1 {
			return ls[0]
		}
		return "{" + views.JoinStrings(ls) + "}"
	}
	args := i18n.Args{"rows": i18n.Grouped(ctx, g.Rows), "cols": i18n.Grouped(ctx, g.Cols), "dims": group(labels[:max(g.Split, 1)]), "dim": group(labels[g.Split:])}
	key := i18n.Key("svg.binned.grid.flat")
	switch {
	case r == 1:
		key = "svg.binned.grid.one"
	case r == 2:
		key = "svg.binned.grid"
	}
	return i18n.Args{"grid": i18n.T(ctx, key, args), "bh": i18n.Grouped(ctx, g.BH), "bw": i18n.Grouped(ctx, g.BW)}
}

// layoutBadges is the detailed picture's line of badges.
func layoutBadges(ctx context.Context, f views.Facts) string {
	t := func(key i18n.Key) string { return i18n.T(ctx, key) }
	line := t("svg.strides.given")
	if f.StridesImplicit {
		line = t("svg.strides.packed")
	}
	for _, bd := range f.Badges {
		line += " · " + i18n.T(ctx, "svg.badge", i18n.Args{"name": t(i18n.Key("badge." + bd.Name)), "state": t(i18n.Key("state." + bd.State))})
	}
	return line
}

func firstOf(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// DetailedLayout reports whether l's picture is drawn cell by cell: both
// views within views.MaxSVGDetail cells.
func DetailedLayout(l *core.Layout) bool {
	return l.LogicalElementCount() <= views.MaxSVGDetail && l.BufferElementCount() <= views.MaxSVGDetail
}
