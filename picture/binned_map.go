package picture

import (
	"context"
	"fmt"
	"math"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/views"
)

// The binned pictures of the index-map operators (PADDING1, TILE, the
// depth-space pair, JOIN and SPLIT). Every output element of these is a
// copy of one input element or the padding value, so one colour key
// serves every view: an input square has its first element's colour, an
// output square the colour of the input element its first element
// reads. The key is two-dimensional (a hue across, a lightness down), so
// that a map along either axis shows (a ramp over row-major numbers
// shows only the outer rows: a tiling along W looked like its input).
// Each colour is read off core's index map for that one element: nothing
// is walked, so a picture of a tensor of any size costs the same.

// MapView is one tensor of an index map's binned picture.
type MapView struct {
	Heading string // the view's heading line
	Line    string // a line under it (a formula), or ""
	Sizes   []int64
	// Output is true for a view whose elements read input elements,
	// false for an input.
	Output bool
	// Source is the number (as the Key numbers them) of the input
	// element that the view's element i (row-major) holds, or -1 for
	// the padding value.
	Source func(i int64) int64
	// Frame, when set, outlines the squares of the rows Frame[0] to
	// Frame[2] and the columns Frame[1] to Frame[3] (inclusive) of the
	// view's grid (GridOf): a padding's input in its own place.
	Frame *[4]int64
	// FrameTip names what Frame outlines, in the legend.
	FrameTip string
}

// MapKey is the colours of the input elements: element number n has
// colour At(n), a cell of a key of NR rows (lighter to darker) by NC
// columns (hues). The key is drawn as a raster with its heads and Text.
type MapKey struct {
	NR, NC             int
	At                 func(n int64) (r, c int)
	RowHeads, ColHeads []string
	Text               string
}

// GridKey colours the elements of one input of sizes, numbered in
// row-major order, by their place in its grid (GridOf): its row down,
// its column across.
func GridKey(ctx context.Context, sizes []int64) MapKey {
	g := GridOf(sizes)
	rr, cr := RampOf(g.Rows), RampOf(g.Cols)
	k := MapKey{NR: int(rr.Levels), NC: int(cr.Levels),
		At:   func(n int64) (int, int) { return int(rr.Level(n / g.Cols)), int(cr.Level(n % g.Cols)) },
		Text: i18n.T(ctx, "svg.binned.map.key", i18n.Args{"grid": GridArgs(ctx, g, core.DimensionLabels(len(sizes)))["grid"]}),
	}
	for l := range rr.Levels {
		k.RowHeads = append(k.RowHeads, i18n.Grouped(ctx, rr.From(l)))
	}
	for l := range cr.Levels {
		k.ColHeads = append(k.ColHeads, i18n.Grouped(ctx, cr.From(l)))
	}
	return k
}

// JoinedKey colours the elements of several inputs (counts elements
// each, named names), numbered on from one input to the next: its input
// across (a hue each), how far into that input it is down (in quarters
// of its row-major order).
func JoinedKey(ctx context.Context, names []string, counts []int64) MapKey {
	first := make([]int64, len(counts)+1)
	for i, c := range counts {
		first[i+1] = first[i] + c
	}
	k := MapKey{NR: 4, NC: len(counts), ColHeads: names, RowHeads: []string{"0", "¼", "½", "¾"},
		Text: i18n.T(ctx, "svg.binned.map.key.joined", nil)}
	k.At = func(n int64) (int, int) {
		c := 0
		for c+1 < len(counts) && n >= first[c+1] {
			c++
		}
		return int(Ramp{N: counts[c], Levels: 4}.Level(n - first[c])), c
	}
	return k
}

// palette is the key's colours, row-major: hue by column, lightness by
// row.
func (k MapKey) palette() []string {
	p := make([]string, 0, k.NR*k.NC)
	for r := range k.NR {
		light := 0.6
		if k.NR > 1 {
			light = 0.88 - 0.6*float64(r)/float64(k.NR-1)
		}
		for c := range k.NC {
			hue := 190.0
			if k.NC > 1 {
				hue = 20 + 300*float64(c)/float64(k.NC-1)
			}
			p = append(p, hsl(hue, 0.6, light))
		}
	}
	return p
}

// hsl is a colour as "#rrggbb".
func hsl(h, s, l float64) string {
	c := (1 - math.Abs(2*l-1)) * s
	x := c * (1 - math.Abs(math.Mod(h/60, 2)-1))
	m := l - c/2
	var r, g, b float64
	switch {
	case h < 60:
		r, g = c, x
	case h < 120:
		r, g = x, c
	case h < 180:
		g, b = c, x
	case h < 240:
		g, b = x, c
	case h < 300:
		r, b = x, c
	default:
		r, b = c, x
	}
	v := func(f float64) int { return int(math.Round((f + m) * 255)) }
	return fmt.Sprintf("#%02x%02x%02x", v(r), v(g), v(b))
}

// MapPicture is an index map's binned picture: its title, the lines
// under it, the colour key and the views in order.
type MapPicture struct {
	ID, Title string
	Lines     []string
	Key       MapKey
	Views     []MapView
}

// MapCost is what MapBinned allocates for views views of rank rank:
// their squares' first elements and their rasters, and the key's.
func MapCost(rank, views int) int64 { return BinnedCost(0, rank, 0, views+1) }

// MapBinned draws m: each view as at most views.MaxBinsPerSide squares a
// side (GridOf), coloured by m.Key, a square whose first element takes
// the padding value hatched; then the key.
func MapBinned(ctx context.Context, m MapPicture) (views.SVG, error) {
	t := func(key i18n.Key, args i18n.Args) string { return i18n.T(ctx, key, args) }
	b := views.NewSVGBuilder(m.ID, m.Title, t("svg.binned.map.desc", i18n.Args{"title": m.Title}))
	b.Text(m.Title, 17, true, false, "")
	for _, l := range m.Lines {
		b.Wrapped(l, 13, views.SVGMuted)
	}
	b.Y += 6
	key := m.Key
	palette := append(key.palette(), views.ClassHatched)
	hatch := uint8(key.NR * key.NC)
	side := mapSide(len(m.Views))
	padded, framed := false, []string(nil)
	for _, v := range m.Views {
		if err := ctx.Err(); err != nil {
			return views.SVG{}, err
		}
		g := GridOf(v.Sizes)
		r := views.SVGRaster{Class: "ibins", Cols: g.NC, Rows: g.NR, Classes: make([]uint8, g.NR*g.NC), Palette: palette, Side: side}
		text, tip := i18n.Key("svg.binned.map.input"), i18n.Key("svg.binned.map.input.tip")
		if v.Output {
			r.Class, text, tip = "obins", "svg.binned.map.output", "svg.binned.output.tip"
		}
		for k := range r.Classes {
			src := v.Source(g.First(k))
			if src < 0 {
				r.Classes[k], padded = hatch, true
				continue
			}
			kr, kc := key.At(src)
			r.Classes[k] = uint8(kr*key.NC + kc)
		}
		r.RowHeads, r.ColHeads = GridHeads(ctx, g, r.Cell())
		r.Tip = t(tip, nil)
		if f := v.Frame; f != nil {
			r.Frames = append(r.Frames, views.SVGBinFrame{R0: int(f[0] / g.BH), C0: int(f[1] / g.BW), R1: int(f[2] / g.BH), C1: int(f[3] / g.BW), Stroke: views.SVGAccent, Width: 2})
			framed = append(framed, v.FrameTip)
		}
		b.Text(v.Heading, 15, true, false, "")
		if v.Line != "" {
			b.Text(v.Line, 13, false, true, views.SVGInk)
		}
		b.Wrapped(t(text, GridArgs(ctx, g, core.DimensionLabels(len(v.Sizes)))), 13, views.SVGMuted)
		if err := b.Raster(r); err != nil {
			return views.SVG{}, err
		}
		b.Y += 6
	}
	b.Wrapped(key.Text, 13, views.SVGMuted)
	if err := b.Raster(key.raster(palette[:hatch], t("svg.binned.map.key.tip", nil))); err != nil {
		return views.SVG{}, err
	}
	var items []views.SVGCell
	if padded {
		items = append(items, views.SVGCell{Hatched: true, Stroke: views.SVGPadLine, Tip: t("padding.legend.pad", nil)})
	}
	for _, tip := range framed {
		items = append(items, views.SVGCell{Fill: "#ffffff", Stroke: views.SVGAccent, StrokeWidth: 2, Tip: tip})
	}
	b.Legend(items)
	// Many views of narrow tensors with many lines could still pass the
	// aspect an embed can show: the canvas is widened, never the views.
	svg := b.Done()
	svg.Width = max(svg.Width, (svg.Height+views.MaxSVGAspect-1)/views.MaxSVGAspect)
	return svg, nil
}

// raster is the key drawn: every colour in its row and column, headed.
func (k MapKey) raster(palette []string, tip string) views.SVGRaster {
	r := views.SVGRaster{Class: "key", Cols: k.NC, Rows: k.NR, Classes: make([]uint8, k.NR*k.NC), Palette: palette, Tip: tip, Side: 24 * max(k.NR, k.NC)}
	for i := range r.Classes {
		r.Classes[i] = uint8(i)
	}
	cell, apart := r.Cell(), 0
	for _, h := range k.ColHeads {
		apart = max(apart, views.TextWidth(h, 11, false)+8)
	}
	r.RowHeads = views.Heads(k.NR, cell, 14, func(i int) string { return k.RowHeads[i] })
	r.ColHeads = views.Heads(k.NC, cell, apart, func(i int) string { return k.ColHeads[i] })
	return r
}

// mapSide is the most pixels a view's raster spans when a picture has n
// views: the full side for up to two (an input and its output), less for
// more (the depth-space pair's three, a join of eight inputs), so that
// the picture stays within views.MaxSVGAspect times as tall as wide.
func mapSide(n int) int {
	if n <= 2 {
		return 0
	}
	return max(96, 1280/n)
}

// SourceIndex is the row-major index in sizes of coord, or -1 for a nil
// coord (the padding value): a MapView's Source from core's
// InputCoordinate.
func SourceIndex(sizes, coord []int64) int64 {
	if coord == nil {
		return -1
	}
	return RowMajorIndex(sizes, coord)
}
