package views

import (
	"context"
	"strconv"
	"strings"
	"unicode"

	"github.com/stridescope/stridescope/i18n"
)

// SVG is a picture laid out for svg.templ: the standalone pictures of
// GET /api/v1/layout.svg and /api/v1/slice1.svg, and the slice diagrams of
// the tour. Geometry is computed here in Go; the components only write it.
// Colours are presentation attributes, never style, so that the picture
// needs no inline CSS under a strict Content-Security-Policy.
type SVG struct {
	// ID prefixes the ids inside the picture (title, desc, the hatch
	// pattern), which must be unique in a page that inlines several.
	ID            string
	Width, Height int
	Title, Desc   string
	Cells         []SVGCell
	Texts         []SVGText
	Lines         []SVGLine
	Frames        []SVGFrame
	Images        []SVGImage // binned views (svg_binned.go)
}

// SVGCell is one square: a logical element, a buffer cell, an input or an
// output element of a slice.
type SVGCell struct {
	X, Y, Size int
	// Class names what the cell is, for tests and stylesheets of the host
	// page: "lcell", "bcell used", "bcell hole", "scell in", "ocell" ...
	Class        string
	Fill, Stroke string
	Ink          string // colour of the label
	StrokeWidth  int
	Dashed       bool
	Hatched      bool   // padding: the hatch pattern instead of Fill
	Label        string // centred
	Corner       string // small, top right (or top left when CornerLeft)
	CornerLeft   bool
	Badge        string // small, bold, bottom right: "×2", a copy order
	Tip          string // the cell's <title>: its accessible name and tooltip
}

// SVGText is one line of text.
type SVGText struct {
	X, Y   int
	Text   string
	Size   int
	Anchor string // start (default), middle or end
	Bold   bool
	Mono   bool
	Fill   string
}

// SVGLine is a straight line: rulers and their ticks.
type SVGLine struct {
	X1, Y1, X2, Y2 int
	Stroke         string
	Width          int
}

// SVGFrame is an outline: the input window of a slice.
type SVGFrame struct {
	X, Y, W, H int
	Stroke     string
	Width      int
	Dashed     bool
}

// Colours of the pictures, the same as app.css.
const (
	SVGInk       = "#1d3557"
	SVGMuted     = "#5c677d"
	SVGAccent    = "#e63946"
	SVGSoft      = "#a8dadc"
	SVGSoftInk   = "#0b525b"
	svgShared    = "#f4a261"
	svgSharedInk = "#a0521d"
	SVGPadInk    = "#8a94a3"
	SVGPadLine   = "#b8c1cc"
	svgTail      = "#fafbfc"
	SVGWindow    = "#e8f4f5"
)

// Geometry of the pictures, in pixels.
const (
	svgMargin = 16
	svgCell   = 44
	svgGap    = 6
	svgHead   = 30 // the column of row heads left of a grid
	svgLine   = 22 // one line of text

	svgLegendWidth = 560 // a legend wraps only past this or the picture's width
	svgLegendRow   = 26  // from one row of the legend to the next
)

func (s SVG) viewBox() string { return "0 0 " + Itoa(int64(s.Width)) + " " + Itoa(int64(s.Height)) }

func (s SVG) labelledBy() string { return s.ID + "-title " + s.ID + "-desc" }

func (s SVG) hatch() string { return "url(#" + s.ID + "-hatch)" }

func (c SVGCell) fill(s SVG) string {
	if c.Hatched {
		return s.hatch()
	}
	return c.Fill
}

func (c SVGCell) strokeWidth() string { return Itoa(int64(max(c.StrokeWidth, 2))) }

func (c SVGCell) ink() string {
	if c.Ink == "" {
		return SVGInk
	}
	return c.Ink
}

func (c SVGCell) cornerX() int {
	if c.CornerLeft {
		return c.X + 4
	}
	return c.X + c.Size - 4
}

func (c SVGCell) cornerAnchor() string {
	if c.CornerLeft {
		return "start"
	}
	return "end"
}

// labelSize shrinks long labels to fit the cell.
func (c SVGCell) labelSize() int {
	switch n := len([]rune(c.Label)); {
	case n <= 2:
		return 18
	case n <= 3:
		return 15
	case n <= 4:
		return 12
	}
	return 10
}

func (t SVGText) anchor() string {
	if t.Anchor == "" {
		return "start"
	}
	return t.Anchor
}

func (t SVGText) weight() string {
	if t.Bold {
		return "bold"
	}
	return "normal"
}

func (t SVGText) family() string {
	if t.Mono {
		return "ui-monospace, 'DejaVu Sans Mono', monospace"
	}
	return "system-ui, 'DejaVu Sans', sans-serif"
}

func (t SVGText) fill() string {
	if t.Fill == "" {
		return SVGInk
	}
	return t.Fill
}

func (t SVGText) size() string { return Itoa(int64(max(t.Size, 10))) }

func dash(d bool) string {
	if d {
		return "5 3"
	}
	return "none"
}

func px(v int) string { return strconv.Itoa(v) }

// SVGBuilder stacks blocks of a picture from top to bottom.
type SVGBuilder struct {
	s SVG
	Y int // top of the next block
	w int // right edge of the widest block
}

func NewSVGBuilder(id, title, desc string) *SVGBuilder {
	return &SVGBuilder{s: SVG{ID: id, Title: title, Desc: desc}, Y: svgMargin, w: svgMargin}
}

// text adds a line of text at the left margin and moves down.
func (b *SVGBuilder) Text(t string, size int, bold, mono bool, fill string) {
	b.s.Texts = append(b.s.Texts, SVGText{X: svgMargin, Y: b.Y + size, Text: t, Size: size, Bold: bold, Mono: mono, Fill: fill})
	b.grow(svgMargin + TextWidth(t, size, mono || bold))
	b.Y += size + 8
}

func (b *SVGBuilder) grow(right int) { b.w = max(b.w, right) }

func (b *SVGBuilder) Done() SVG {
	b.s.Width = b.w + svgMargin
	b.s.Height = b.Y + svgMargin
	return b.s
}

// textWidth estimates the width of a line of text; wide is for bold or
// monospaced text. Latin letters are about 0.6 em wide, but Chinese
// characters and fullwidth punctuation a whole em, so each counts as one.
func TextWidth(t string, size int, wide bool) int {
	narrow := 0.56
	if wide {
		narrow = 0.64
	}
	em := 0.0
	for _, r := range t {
		if fullWidth(r) {
			em++
		} else {
			em += narrow
		}
	}
	return int(em*float64(size)) + 1
}

// fullWidth reports whether r is drawn a whole em wide: East Asian
// ideographs, kana, hangul and the CJK and fullwidth punctuation that goes
// with them (，。：（）).
func fullWidth(r rune) bool {
	switch {
	case r >= 0x3000 && r <= 0x303f, // CJK symbols and punctuation
		r >= 0xff01 && r <= 0xff60, // fullwidth forms
		r >= 0xffe0 && r <= 0xffe6:
		return true
	}
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul, unicode.Bopomofo)
}

// SVGPanel is one grid of the last two dimensions, its cells filled in
// except for their position.
type SVGPanel struct {
	Caption    string
	RowLabel   string
	ColLabel   string
	RowHeads   []int64
	ColHeads   []int64
	Cells      [][]SVGCell
	Window     bool     // outline the input window of a slice:
	WindowRows [2]int64 // its first and last row
	WindowCols [2]int64 // and column in this panel
}

type SVGBand struct {
	Heading string
	Panels  []SVGPanel
}

// grids lays out bands of panels at the left margin: panels side by side,
// bands one under the other, as the explorer's logical view.
func (b *SVGBuilder) Grids(bands []SVGBand) {
	for _, band := range bands {
		if band.Heading != "" {
			b.Text(band.Heading, 14, true, false, SVGMuted)
		}
		x, bottom := svgMargin, b.Y
		for _, p := range band.Panels {
			right, low := b.panel(p, x, b.Y)
			x = right + 28
			bottom = max(bottom, low)
		}
		b.Y = bottom + 12
	}
}

// svgWrap is the most cells a line of a picture holds: a wider grid (a
// long vector, a wide row) is drawn in bands of columns, one under the
// other, so that the picture keeps a page's proportions.
const svgWrap = 32

// panel draws one grid with its top left corner at x, y and returns its
// right and bottom edges. A grid wider than svgWrap columns is drawn in
// bands of svgWrap columns, each with its column heads and row heads.
func (b *SVGBuilder) panel(p SVGPanel, x, y int) (int, int) {
	if p.Caption != "" {
		b.s.Texts = append(b.s.Texts, SVGText{X: x, Y: y + 15, Text: p.Caption, Size: 15, Bold: true})
		y += svgLine
	}
	corner := p.ColLabel + "→"
	if p.RowLabel != "" {
		corner = p.RowLabel + "↓ " + corner
	}
	b.s.Texts = append(b.s.Texts, SVGText{X: x, Y: y + 13, Text: corner, Size: 13, Bold: true, Fill: SVGMuted})
	y += 18
	gx := x + svgHead + 8
	cols := 0
	if len(p.Cells) > 0 {
		cols = len(p.Cells[0])
	}
	for c0 := 0; c0 < max(cols, 1); c0 += svgWrap {
		c1 := min(c0+svgWrap, cols) // this band's columns: [c0, c1)
		if c0 > 0 {
			y += 10
		}
		for j := c0; j < c1 && j < len(p.ColHeads); j++ {
			b.s.Texts = append(b.s.Texts, SVGText{X: gx + (j-c0)*(svgCell+svgGap) + svgCell/2, Y: y + 13, Text: Itoa(p.ColHeads[j]), Size: 13, Anchor: "middle", Fill: SVGMuted})
		}
		y += 18
		for i, row := range p.Cells {
			cy := y + i*(svgCell+svgGap)
			if i < len(p.RowHeads) {
				b.s.Texts = append(b.s.Texts, SVGText{X: x + svgHead, Y: cy + svgCell/2 + 5, Text: Itoa(p.RowHeads[i]), Size: 13, Anchor: "end", Fill: SVGMuted})
			}
			for j := c0; j < c1 && j < len(row); j++ {
				c := row[j]
				c.X, c.Y, c.Size = gx+(j-c0)*(svgCell+svgGap), cy, svgCell
				b.s.Cells = append(b.s.Cells, c)
			}
		}
		// The window's part in this band.
		if w0, w1 := max(int(p.WindowCols[0]), c0), min(int(p.WindowCols[1]), c1-1); p.Window && w0 <= w1 {
			r0, r1 := int(p.WindowRows[0]), int(p.WindowRows[1])
			b.s.Frames = append(b.s.Frames, SVGFrame{
				X: gx + (w0-c0)*(svgCell+svgGap) - svgGap/2, Y: y + r0*(svgCell+svgGap) - svgGap/2,
				W: (w1 - w0 + 1) * (svgCell + svgGap), H: (r1 - r0 + 1) * (svgCell + svgGap),
				Stroke: SVGInk, Width: 2, Dashed: true,
			})
		}
		y += len(p.Cells)*(svgCell+svgGap) - svgGap
	}
	right := gx + min(cols, svgWrap)*(svgCell+svgGap) - svgGap
	right = max(right, x+TextWidth(p.Caption, 15, true), x+TextWidth(corner, 13, true))
	b.grow(right + 6)
	return right, y + 6
}

// legend draws swatches with their meaning in rows no wider than the
// picture so far (or svgLegendWidth, if that is wider), starting a row
// where the next item would not fit.
func (b *SVGBuilder) Legend(items []SVGCell) {
	right := max(b.w, svgMargin+svgLegendWidth)
	x := svgMargin
	for _, it := range items {
		w := 24 + TextWidth(it.Tip, 13, false)
		if x > svgMargin && x+w > right {
			x, b.Y = svgMargin, b.Y+svgLegendRow
		}
		it.X, it.Y, it.Size, it.Class = x, b.Y, 18, "legend"
		b.s.Cells = append(b.s.Cells, it)
		b.s.Texts = append(b.s.Texts, SVGText{X: x + 24, Y: b.Y + 14, Text: it.Tip, Size: 13, Fill: SVGMuted})
		b.grow(x + w)
		x += w + 18
	}
	b.Y += 18 + 14
}

func Braces(vs []int64) string { return "{" + JoinInts(vs) + "}" }

// ListText joins the first max items and says how many more there are.
func ListText(ctx context.Context, items []string, max int) string {
	sep := i18n.T(ctx, "svg.sep")
	if len(items) <= max {
		return strings.Join(items, sep)
	}
	return strings.Join(items[:max], sep) + i18n.T(ctx, "svg.more", i18n.Args{"n": len(items) - max})
}

func (c SVGCell) cx() string      { return px(c.X + c.Size/2) }
func (c SVGCell) labelY() string  { return px(c.Y + c.Size/2 + c.labelSize()*7/20) }
func (c SVGCell) cornerY() string { return px(c.Y + 12) }
func (c SVGCell) badgeX() string  { return px(c.X + c.Size - 4) }
func (c SVGCell) badgeY() string  { return px(c.Y + c.Size - 5) }

// The refusal picture's frame: its width, and the height of a line.
const (
	refusalWidth = 720
	refusalLine  = 22
	// RefusalPerLine is how many columns a line of RefusalSVG holds (a
	// full-width character takes two).
	RefusalPerLine = 84
)

func refusalHeight(lines []string) int { return 24 + refusalLine*len(lines) }

// RefusalLines wraps reasons to the refusal picture's width: at spaces
// where a text has them, a character at a time where it has none (Chinese),
// a full-width character taking two columns of RefusalPerLine.
func RefusalLines(reasons []string) []string {
	var lines []string
	for _, r := range reasons {
		lines = append(lines, wrapColumns(r, RefusalPerLine)...)
	}
	return lines
}

// wrapColumns breaks s into lines of at most n columns.
func wrapColumns(s string, n int) []string {
	cols := func(rs []rune) int {
		c := 0
		for _, r := range rs {
			c++
			if fullWidth(r) {
				c++
			}
		}
		return c
	}
	var lines []string
	var cur []rune
	for _, w := range strings.Fields(s) {
		word := []rune(w)
		if len(cur) > 0 && cols(cur)+1+cols(word) <= n {
			cur = append(append(cur, ' '), word...)
			continue
		}
		if len(cur) > 0 {
			lines, cur = append(lines, string(cur)), nil
		}
		// A word wider than a line is cut where the line is full.
		for cols(word) > n {
			k, c := 0, 0
			for k < len(word) {
				w := 1
				if fullWidth(word[k]) {
					w = 2
				}
				if c+w > n {
					break
				}
				c += w
				k++
			}
			lines, word = append(lines, string(word[:k])), word[k:]
		}
		cur = word
	}
	if len(cur) > 0 {
		lines = append(lines, string(cur))
	}
	return lines
}
