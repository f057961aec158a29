package views

import "strings"

// LayoutSVG lays out the standalone picture of one layout: the logical
// view and the physical buffer as the explorer draws them (the same
// labels, states and byte ruler), with the classification and the buffer
// size. p must be drawn in DOM mode (at most MaxSVGCells in each view).
func LayoutSVG(p Picture, id string) SVG {
	m, f := p.Meta, p.Facts
	title := "DirectML tensor layout: " + f.DataType + ", sizes " + braces(m.Sizes) + ", strides " + braces(m.Strides)
	b := newSVGBuilder(id, title, layoutDesc(p))
	b.text(title, 17, true, false, "")
	var badges []string
	for _, bd := range f.Badges {
		badges = append(badges, bd.Name+": "+bd.State)
	}
	strides := "strides given"
	if f.StridesImplicit {
		strides = "packed strides (Strides = nullptr)"
	}
	b.text(strides+" · "+strings.Join(badges, " · "), 13, false, false, svgMuted)
	b.y += 6

	b.text("Logical view: "+LogicalSub(m), 15, true, false, "")
	bands := make([]svgBand, len(p.Logical.Bands))
	for i, band := range p.Logical.Bands {
		bands[i].Heading = band.Heading
		for _, pn := range band.Panels {
			sp := svgPanel{Caption: pn.Caption, RowLabel: pn.RowLabel, ColLabel: pn.ColLabel, ColHeads: pn.ColHeads}
			for _, r := range pn.Rows {
				if pn.RowLabel != "" {
					sp.RowHeads = append(sp.RowHeads, r.Head)
				}
				row := make([]SVGCell, len(r.Cells))
				for j, c := range r.Cells {
					row[j] = logicalSVGCell(c)
				}
				sp.Cells = append(sp.Cells, row)
			}
			bands[i].Panels = append(bands[i].Panels, sp)
		}
	}
	b.grids(bands)
	if line := firstNonEmpty(p.Dot, p.Linked); line != "" {
		b.text(line, 15, false, true, svgAccent)
	}
	b.y += 6

	b.text("Physical buffer: "+BufferSub(m), 15, true, false, "")
	b.bufferRows(p.Buffer)
	legend := []SVGCell{
		{Fill: svgSoft, Stroke: svgSoftInk, Tip: "holds one element"},
		{Fill: svgShared, Stroke: svgSharedInk, Tip: "shared by several"},
		{Hatched: true, Stroke: svgPadLine, Tip: "padding"},
		{Fill: svgTail, Stroke: svgPadLine, Dashed: true, Tip: "unused tail"},
	}
	if p.Dot != "" || p.Linked != "" {
		legend = append(legend, SVGCell{Fill: svgAccent, Stroke: "#9d1c26", Tip: "linked to the selection"})
	}
	b.legend(legend)
	b.text(f.TotalNote, 13, false, false, svgMuted)
	return b.done()
}

func logicalSVGCell(c LogicalCell) SVGCell {
	s := SVGCell{Class: "lcell", Fill: "#ffffff", Stroke: svgSoftInk, Label: c.Label, Corner: itoa(c.Offset), Tip: c.AriaLabel()}
	switch {
	case c.Linked:
		s.Class, s.Fill, s.Stroke, s.Ink = "lcell linked", svgAccent, "#9d1c26", "#ffffff"
	case c.Selected:
		s.Class, s.Fill, s.Stroke, s.StrokeWidth = "lcell sel", "#fde2e4", svgAccent, 3
	}
	return s
}

func bufferSVGCell(c BufferCell) SVGCell {
	s := SVGCell{Class: "bcell " + c.State, Label: c.Label, Corner: itoa(c.Offset), CornerLeft: true, Tip: c.AriaLabel()}
	switch c.State {
	case CellUsed:
		s.Fill, s.Stroke = svgSoft, svgSoftInk
	case CellShared:
		s.Fill, s.Stroke, s.Badge = svgShared, svgSharedInk, "×"+utoa(c.Count)
	case CellHole:
		s.Hatched, s.Stroke, s.Ink = true, svgPadLine, svgPadInk
	default:
		s.Fill, s.Stroke, s.Ink, s.Dashed = svgTail, svgPadLine, svgPadInk, true
	}
	if c.Linked {
		s.Fill, s.Hatched, s.Stroke, s.Ink = svgAccent, false, "#9d1c26", "#ffffff"
		s.Class += " linked"
	}
	if c.Selected {
		s.Stroke, s.StrokeWidth = svgAccent, 3
		s.Class += " sel"
	}
	return s
}

// bufferRows draws the buffer rows with their byte rulers.
func (b *svgBuilder) bufferRows(buf Buffer) {
	gx := svgMargin + svgHead + 8
	for _, r := range buf.Rows {
		y := b.y
		b.s.Texts = append(b.s.Texts, SVGText{X: svgMargin + svgHead, Y: y + svgCell/2 + 5, Text: itoa(r.Start), Size: 12, Anchor: "end", Fill: svgMuted})
		for j, c := range r.Cells {
			sc := bufferSVGCell(c)
			sc.X, sc.Y, sc.Size = gx+j*(svgCell+svgGap), y, svgCell
			b.s.Cells = append(b.s.Cells, sc)
		}
		ry := y + svgCell + 5
		b.s.Texts = append(b.s.Texts, SVGText{X: svgMargin + svgHead, Y: ry + 11, Text: "byte", Size: 11, Anchor: "end", Fill: svgMuted})
		x := gx
		for _, mk := range r.Ruler {
			w := mk.Span*(svgCell+svgGap) - svgGap
			b.s.Lines = append(b.s.Lines, SVGLine{X1: x, Y1: ry, X2: x + w, Y2: ry, Stroke: svgPadInk, Width: 2})
			for t := range mk.Ticks {
				tx := x + t*w/mk.Ticks
				b.s.Lines = append(b.s.Lines, SVGLine{X1: tx, Y1: ry, X2: tx, Y2: ry + 5, Stroke: svgPadInk, Width: 1})
			}
			b.s.Texts = append(b.s.Texts, SVGText{X: x + 2, Y: ry + 15, Text: mk.Text, Size: 11, Fill: svgMuted})
			x += w + svgGap
		}
		b.grow(max(x, gx+len(r.Cells)*(svgCell+svgGap)))
		b.y = ry + 26
	}
}

// layoutDesc says in words what the picture shows, for screen readers.
func layoutDesc(p Picture) string {
	var items []string
	for _, band := range p.Logical.Bands {
		for _, pn := range band.Panels {
			for _, r := range pn.Rows {
				for _, c := range r.Cells {
					items = append(items, "("+c.Coord+") "+c.Label+" at offset "+itoa(c.Offset))
				}
			}
		}
	}
	return "Logical view " + LogicalSub(p.Meta) + "; physical buffer " + BufferSub(p.Meta) + ". " + listText(items, 64) + ". " + p.Facts.TotalNote
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
