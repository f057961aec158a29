package views

import (
	"context"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/i18n"
)

// LayoutTitle names the layout p draws, in ctx's locale: the SVG
// picture's title, and the alt text of the snippet that shows it.
func LayoutTitle(ctx context.Context, p Picture) string {
	args := i18n.Args{"type": p.Facts.DataType, "sizes": Braces(p.Meta.Sizes), "strides": Braces(p.Meta.Strides)}
	if p.Total > 0 {
		args["total"] = strconv.FormatInt(p.Total, 10)
		return i18n.T(ctx, "svg.layout.title.total", args)
	}
	return i18n.T(ctx, "svg.layout.title", args)
}

// LayoutSVG lays out the standalone picture of one layout: the logical
// view and the physical buffer as the explorer draws them (the same
// labels, states and byte ruler), with the classification and the buffer
// size, in ctx's locale. p must be drawn in DOM mode (at most
// MaxSVGCells in each view).
func LayoutSVG(ctx context.Context, p Picture, id string) SVG {
	m, f := p.Meta, p.Facts
	t := func(key i18n.Key, args i18n.Args) string { return i18n.T(ctx, key, args) }
	title := LayoutTitle(ctx, p)
	b := NewSVGBuilder(id, title, layoutDesc(ctx, p))
	b.Text(title, 17, true, false, "")
	var badges []string
	for _, bd := range f.Badges {
		badges = append(badges, t("svg.badge", i18n.Args{"name": t(i18n.Key("badge."+bd.Name), nil), "state": t(i18n.Key("state."+bd.State), nil)}))
	}
	strides := t("svg.strides.given", nil)
	if f.StridesImplicit {
		strides = t("svg.strides.packed", nil)
	}
	b.Text(strides+" · "+strings.Join(badges, " · "), 13, false, false, SVGMuted)
	b.Y += 6

	b.Text(t("svg.logical", i18n.Args{"sub": LogicalSubIn(ctx, m)}), 15, true, false, "")
	bands := LogicalSVGBands(ctx, p.Logical)
	b.Grids(bands)
	if line := firstNonEmpty(p.Dot, p.Linked); line != "" {
		b.Text(line, 15, false, true, SVGAccent)
	}
	b.Y += 6

	b.Text(t("svg.buffer", i18n.Args{"sub": BufferSubIn(ctx, m)}), 15, true, false, "")
	b.BufferRows(ctx, p.Buffer)
	legend := BufferSVGLegend(ctx)
	if p.Dot != "" || p.Linked != "" {
		legend = append(legend, SVGCell{Fill: SVGAccent, Stroke: "#9d1c26", Tip: t("svg.legend.linked", nil)})
	}
	// The note under the legend widens the picture anyway: let the legend
	// use that width before it wraps.
	b.grow(svgMargin + TextWidth(f.TotalNote, 13, false))
	b.Legend(legend)
	b.Text(f.TotalNote, 13, false, false, SVGMuted)
	return b.Done()
}

// LogicalSVGBands are a logical view drawn in the HTML (l.Mode is
// ModeDOM) as the picture's grids: the same labels, offsets and marks.
func LogicalSVGBands(ctx context.Context, l Logical) []SVGBand {
	bands := make([]SVGBand, len(l.Bands))
	for i, band := range l.Bands {
		bands[i].Heading = band.Heading
		for _, pn := range band.Panels {
			sp := SVGPanel{Caption: pn.Caption, RowLabel: pn.RowLabel, ColLabel: pn.ColLabel, ColHeads: pn.ColHeads}
			for _, r := range pn.Rows {
				if pn.RowLabel != "" {
					sp.RowHeads = append(sp.RowHeads, r.Head)
				}
				row := make([]SVGCell, len(r.Cells))
				for j, c := range r.Cells {
					row[j] = logicalSVGCell(ctx, c)
				}
				sp.Cells = append(sp.Cells, row)
			}
			bands[i].Panels = append(bands[i].Panels, sp)
		}
	}
	return bands
}

// BufferSVGLegend names the states of the buffer's cells as the
// detailed pictures draw them.
func BufferSVGLegend(ctx context.Context) []SVGCell {
	t := func(key i18n.Key) string { return i18n.T(ctx, key) }
	return []SVGCell{
		{Fill: SVGSoft, Stroke: SVGSoftInk, Tip: t("legend.used")},
		{Fill: svgShared, Stroke: svgSharedInk, Tip: t("legend.shared")},
		{Hatched: true, Stroke: SVGPadLine, Tip: t("legend.padding")},
		{Fill: svgTail, Stroke: SVGPadLine, Dashed: true, Tip: t("legend.tail")},
	}
}

func logicalSVGCell(ctx context.Context, c LogicalCell) SVGCell {
	s := SVGCell{Class: "lcell", Fill: "#ffffff", Stroke: SVGSoftInk, Label: c.Label, Corner: Itoa(c.Offset), Badge: c.Badge, Tip: c.AriaLabelIn(ctx)}
	switch {
	case c.Linked:
		s.Class, s.Fill, s.Stroke, s.Ink = "lcell linked", SVGAccent, "#9d1c26", "#ffffff"
	case c.Selected:
		s.Class, s.Fill, s.Stroke, s.StrokeWidth = "lcell sel", "#fde2e4", SVGAccent, 3
	}
	return s
}

func bufferSVGCell(ctx context.Context, c BufferCell) SVGCell {
	// A shared cell's badge is its count; another's, the mark it carries
	// (the conversion's copy order).
	s := SVGCell{Class: "bcell " + c.State, Label: c.Label, Corner: Itoa(c.Offset), CornerLeft: true, Badge: c.Badge, Tip: c.AriaLabelIn(ctx)}
	switch c.State {
	case CellUsed:
		s.Fill, s.Stroke = SVGSoft, SVGSoftInk
	case CellShared:
		s.Fill, s.Stroke, s.Badge = svgShared, svgSharedInk, c.CountText()
	case CellHole:
		s.Hatched, s.Stroke, s.Ink = true, SVGPadLine, SVGPadInk
	default:
		s.Fill, s.Stroke, s.Ink, s.Dashed = svgTail, SVGPadLine, SVGPadInk, true
	}
	if c.Linked {
		s.Fill, s.Hatched, s.Stroke, s.Ink = SVGAccent, false, "#9d1c26", "#ffffff"
		s.Class += " linked"
	}
	if c.Selected {
		s.Stroke, s.StrokeWidth = SVGAccent, 3
		s.Class += " sel"
	}
	return s
}

// BufferRows draws the buffer rows with their byte rulers, a row longer
// than svgWrap cells in lines of svgWrap (a ruler mark stays with the
// line of its first cell).
func (b *SVGBuilder) BufferRows(ctx context.Context, buf Buffer) {
	gx := svgMargin + svgHead + 8
	for _, r := range buf.Rows {
		marks, at := r.Ruler, 0 // the next mark, and the cell it starts at
		for c0 := 0; c0 < max(len(r.Cells), 1); c0 += svgWrap {
			c1 := min(c0+svgWrap, len(r.Cells))
			y := b.Y
			b.s.Texts = append(b.s.Texts, SVGText{X: svgMargin + svgHead, Y: y + svgCell/2 + 5, Text: Itoa(r.Start + int64(c0)), Size: 12, Anchor: "end", Fill: SVGMuted})
			for j := c0; j < c1; j++ {
				sc := bufferSVGCell(ctx, r.Cells[j])
				sc.X, sc.Y, sc.Size = gx+(j-c0)*(svgCell+svgGap), y, svgCell
				b.s.Cells = append(b.s.Cells, sc)
			}
			ry := y + svgCell + 5
			b.s.Texts = append(b.s.Texts, SVGText{X: svgMargin + svgHead, Y: ry + 11, Text: i18n.T(ctx, "svg.byte"), Size: 11, Anchor: "end", Fill: SVGMuted})
			x := gx
			for len(marks) > 0 && (at < c1 || c1 == len(r.Cells)) {
				mk := marks[0]
				w := mk.Span*(svgCell+svgGap) - svgGap
				b.s.Lines = append(b.s.Lines, SVGLine{X1: x, Y1: ry, X2: x + w, Y2: ry, Stroke: SVGPadInk, Width: 2})
				for t := range mk.Ticks {
					tx := x + t*w/mk.Ticks
					b.s.Lines = append(b.s.Lines, SVGLine{X1: tx, Y1: ry, X2: tx, Y2: ry + 5, Stroke: SVGPadInk, Width: 1})
				}
				b.s.Texts = append(b.s.Texts, SVGText{X: x + 2, Y: ry + 15, Text: mk.Text, Size: 11, Fill: SVGMuted})
				x += w + svgGap
				at += mk.Span
				marks = marks[1:]
			}
			b.grow(max(x, gx+(c1-c0)*(svgCell+svgGap)))
			b.Y = ry + 26
		}
	}
}

// layoutDesc says in words what the picture shows, for screen readers.
func layoutDesc(ctx context.Context, p Picture) string {
	var items []string
	for _, band := range p.Logical.Bands {
		for _, pn := range band.Panels {
			for _, r := range pn.Rows {
				for _, c := range r.Cells {
					items = append(items, i18n.T(ctx, "svg.layout.item", i18n.Args{"coord": c.Coord, "label": c.Label, "offset": c.Offset}))
				}
			}
		}
	}
	return i18n.T(ctx, "svg.layout.desc", i18n.Args{"logical": LogicalSubIn(ctx, p.Meta), "buffer": BufferSubIn(ctx, p.Meta), "items": ListText(ctx, items, 64), "note": p.Facts.TotalNote})
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
