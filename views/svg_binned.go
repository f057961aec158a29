package views

import (
	"bytes"
	"context"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
	"io"

	"github.com/a-h/templ"
)

// A picture of any size: above MaxSVGDetail cells a view is drawn binned,
// as a raster of squares each standing for a block of elements or cells
// and coloured by a class that the picture's legend names exactly (the
// counts behind each class come from compute). A raster is one PNG image
// in the SVG, so that a picture of 16 million cells is as small as one of
// a thousand.

// MaxSVGDetail is the most cells a view of the standalone picture draws
// one by one, labelled; a larger view is binned. 256 cells a view keep the
// picture under a few hundred kilobytes.
const MaxSVGDetail = 256

// MaxBinsPerSide is the most squares a binned view has across or down.
const MaxBinsPerSide = 64

// rasterSide is the most pixels a raster spans across or down.
const rasterSide = 512

// SVGImage is a raster drawn in the picture: a binned view.
type SVGImage struct {
	X, Y, W, H int
	Class      string
	Href       templ.SafeURL // a data: URL of a PNG
	Tip        string
}

// Classes of a binned square that are painted with a pattern rather than
// a flat colour (the hatch of padding).
const ClassHatched = "hatch"

// SVGRaster is a binned view: Cols × Rows squares, each one of the
// Palette's colours (an index in Classes, row-major). A square whose
// colour is ClassHatched is painted with the padding's hatch.
type SVGRaster struct {
	Class      string // "lbins", "bbins", ...
	Cols, Rows int
	Classes    []uint8
	Palette    []string // "#rrggbb" or ClassHatched
	// RowHeads label rows of squares at their left, ColHeads columns
	// above: at the square Bin, Text.
	RowHeads, ColHeads []SVGHead
	// Frames outline runs of squares: [c0, r0, c1, r1], inclusive.
	Frames []SVGBinFrame
	Tip    string
	// Side is the most pixels the raster spans across or down, below
	// rasterSide (0: rasterSide), for a picture of many views that must
	// stay within MaxSVGAspect.
	Side int
}

// SVGHead is a label at a row or column of squares.
type SVGHead struct {
	Bin  int
	Text string
}

// SVGBinFrame outlines squares c0..c1 × r0..r1 of a raster.
type SVGBinFrame struct {
	C0, R0, C1, R1 int
	Stroke         string
	Width          int
	Dashed         bool
}

// Cell is the side of a square of r, in pixels: the raster spans at most
// rasterSide (or Side), a square at most 24 px and at least 2.
func (r SVGRaster) Cell() int {
	side := rasterSide
	if r.Side > 0 {
		side = min(r.Side, rasterSide)
	}
	return min(24, max(2, side/max(r.Cols, r.Rows, 1)))
}

// gap is the white line between squares, when they are large enough.
func (r SVGRaster) gap() int {
	if r.Cell() >= 6 {
		return 1
	}
	return 0
}

// PNG paints r as a paletted PNG, each square Cell() pixels wide.
func (r SVGRaster) PNG() ([]byte, error) {
	c, g := r.Cell(), r.gap()
	pal := color.Palette{color.RGBA{255, 255, 255, 255}}
	hatchA, hatchB := uint8(0), uint8(0)
	idx := make([]uint8, len(r.Palette))
	for i, h := range r.Palette {
		if h == ClassHatched {
			pal = append(pal, hexColour("#eef1f4"), hexColour("#dde2e8"))
			hatchA, hatchB = uint8(len(pal)-2), uint8(len(pal)-1)
			idx[i] = hatchA
			continue
		}
		pal = append(pal, hexColour(h))
		idx[i] = uint8(len(pal) - 1)
	}
	img := image.NewPaletted(image.Rect(0, 0, r.Cols*c, r.Rows*c), pal)
	for k, cl := range r.Classes {
		x0, y0 := (k%r.Cols)*c, (k/r.Cols)*c
		p := idx[cl]
		for y := y0; y < y0+c-g; y++ {
			row := img.Pix[y*img.Stride:]
			for x := x0; x < x0+c-g; x++ {
				if p == hatchA && hatchA != 0 && (x+y)%6 < 3 {
					row[x] = hatchB
				} else {
					row[x] = p
				}
			}
		}
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

func hexColour(h string) color.RGBA {
	v := func(i int) uint8 {
		var n uint8
		for _, ch := range h[i : i+2] {
			n <<= 4
			switch {
			case ch >= '0' && ch <= '9':
				n |= uint8(ch - '0')
			case ch >= 'a' && ch <= 'f':
				n |= uint8(ch-'a') + 10
			case ch >= 'A' && ch <= 'F':
				n |= uint8(ch-'A') + 10
			}
		}
		return n
	}
	return color.RGBA{v(1), v(3), v(5), 255}
}

// Raster draws r at the left margin, its row heads left of it and its
// column heads above, and moves down.
func (b *SVGBuilder) Raster(r SVGRaster) error {
	data, err := r.PNG()
	if err != nil {
		return err
	}
	c := r.Cell()
	gx := svgMargin + b.rasterHead(r)
	y := b.Y
	if len(r.ColHeads) > 0 {
		for _, h := range r.ColHeads {
			b.s.Texts = append(b.s.Texts, SVGText{X: gx + h.Bin*c, Y: y + 12, Text: h.Text, Size: 11, Fill: SVGMuted})
			b.grow(gx + h.Bin*c + TextWidth(h.Text, 11, false))
		}
		y += 18
	}
	for _, h := range r.RowHeads {
		b.s.Texts = append(b.s.Texts, SVGText{X: gx - 6, Y: y + h.Bin*c + min(c, 12) - 1, Text: h.Text, Size: 11, Anchor: "end", Fill: SVGMuted})
	}
	w, h := r.Cols*c, r.Rows*c
	b.s.Images = append(b.s.Images, SVGImage{X: gx, Y: y, W: w, H: h, Class: "raster " + r.Class, Tip: r.Tip,
		Href: templ.SafeURL("data:image/png;base64," + base64.StdEncoding.EncodeToString(data))})
	b.s.Frames = append(b.s.Frames, SVGFrame{X: gx - 1, Y: y - 1, W: w + 2, H: h + 2, Stroke: SVGPadLine, Width: 1})
	for _, f := range r.Frames {
		b.s.Frames = append(b.s.Frames, SVGFrame{X: gx + f.C0*c - 2, Y: y + f.R0*c - 2, W: (f.C1-f.C0+1)*c + 3, H: (f.R1-f.R0+1)*c + 3,
			Stroke: f.Stroke, Width: f.Width, Dashed: f.Dashed})
	}
	b.grow(gx + w + 8)
	b.Y = y + h + 14
	return nil
}

// rasterHead is the width of the column of row heads.
func (b *SVGBuilder) rasterHead(r SVGRaster) int {
	w := 0
	for _, h := range r.RowHeads {
		w = max(w, TextWidth(h.Text, 11, false))
	}
	if w == 0 {
		return 0
	}
	return w + 10
}

// Heads are labels every so many squares of n, at least apart pixels
// apart for squares cell px wide, the last square always labelled
// (unless too close to the one before): text(i) labels square i.
func Heads(n, cell, apart int, text func(i int) string) []SVGHead {
	step := max(1, (apart+cell-1)/cell)
	var hs []SVGHead
	for i := 0; i < n; i += step {
		hs = append(hs, SVGHead{Bin: i, Text: text(i)})
	}
	if last := n - 1; last > 0 && hs[len(hs)-1].Bin != last && (last-hs[len(hs)-1].Bin)*cell >= apart {
		hs = append(hs, SVGHead{Bin: last, Text: text(last)})
	}
	return hs
}

// Wrapped adds a paragraph of text at the left margin, wrapped to the
// picture's width so far (at least svgLegendWidth), and moves down.
func (b *SVGBuilder) Wrapped(t string, size int, fill string) {
	right := max(b.w, svgMargin+svgLegendWidth)
	cols := max(20, (right-svgMargin)*100/(size*58)) // wrapColumns counts a Latin letter as one column, a wide one as two
	for _, l := range wrapColumns(t, cols) {
		b.Text(l, size, false, false, fill)
	}
}

// Colours of the binned views.
const (
	BinTail   = "#fafbfc" // past the last element
	BinFewer  = "#dcf0f1" // fewer elements (or reads) than cells
	BinShared = svgShared // more elements than cells
	BinNone   = "#ffffff" // no element copied
	BinHeld   = "#e9edf1" // elements, none read
)

// binRamp runs from the window's pale teal to the ink's dark blue.
var binRamp = [...]string{"#e3f2f3", "#c2e3e6", "#9fd2d6", "#78bcc3", "#549fab", "#3a8093", "#2a5f7a", "#1d3557"}

// BinRamp is colour k of a ramp of levels colours, spread over the
// whole ramp.
func BinRamp(k, levels int) string {
	if levels <= 1 {
		return binRamp[len(binRamp)/2]
	}
	return binRamp[k*(len(binRamp)-1)/(levels-1)]
}

// MaxSVGAspect is the most times a picture is as tall as it is wide: a
// detailed picture taller than that (a long column of cells) is drawn
// binned instead.
const MaxSVGAspect = 4

// MaxSVGBytes is the most bytes a detailed picture may take: a larger
// one (long tips in a wordy language) is drawn binned instead.
const MaxSVGBytes = 400_000

// Bounded is s as a standalone SVG document when it is within
// MaxSVGAspect and MaxSVGBytes, rendered once; ok is false otherwise.
func Bounded(ctx context.Context, s SVG) (doc templ.Component, ok bool, err error) {
	if s.Height > MaxSVGAspect*s.Width {
		return nil, false, nil
	}
	var buf bytes.Buffer
	if err := SVGDocument(s).Render(ctx, &buf); err != nil {
		return nil, false, err
	}
	if buf.Len() > MaxSVGBytes {
		return nil, false, nil
	}
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		_, err := w.Write(buf.Bytes())
		return err
	}), true, nil
}
