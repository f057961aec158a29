package slice1

import (
	"context"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/views"
)

// DiagramModel is one valid DML_SLICE1 to draw: the input with its window
// and the order in which elements are copied, and the output.
type DiagramModel struct {
	DataType      string
	Labels        []string // dimension labels
	InputSizes    []int64
	InputStrides  []int64
	InputOffsets  []int64 // buffer offset of every input element, row-major
	WindowOffsets []int64
	WindowSizes   []int64
	WindowStrides []int64
	CopyStart     []int64
	MaxCopied     []int64
	OutputSizes   []int64
	// Values are the input's values, row-major; ValuesNote says where they
	// come from ("values 1, 2, 3 … in row-major order").
	Values     []string
	ValuesNote string
	// Order is, for every input element, the 1-based row-major index of
	// the output element that reads it, or 0.
	Order []int64
	// Output is the value every output element reads, row-major.
	Output []string
}

// Title names a slice by its window: the SVG picture's title, and
// the alt text of the snippet that shows it.
func Title(offsets, sizes, strides []int64) string {
	return "DML_SLICE1: InputWindowOffsets " + views.Braces(offsets) + ", InputWindowSizes " + views.Braces(sizes) + ", InputWindowStrides " + views.Braces(strides)
}

// Alt is the alt text of a slice's picture snippet, in ctx's
// locale: what it is, the input it reads (its data type, sizes and
// strides, and its buffer size when given: 0 is none) and
// the window (Title, title).
func Alt(ctx context.Context, title, dataType string, sizes, strides []int64, total int64) string {
	if title == "" {
		return ""
	}
	args := i18n.Args{"what": i18n.T(ctx, "embed.snippet.slice"), "type": dataType, "sizes": views.Braces(sizes), "strides": views.Braces(strides), "title": title}
	if total > 0 {
		args["total"] = strconv.FormatInt(total, 10)
		return i18n.T(ctx, "embed.slice.alt.total", args)
	}
	return i18n.T(ctx, "embed.snippet.slice.alt", args)
}

// SVG lays out the picture of a slice: the input grids with the
// window outlined, the copied elements numbered in copy order and
// CopyStart marked, then the output grids, in ctx's locale.
func SVG(ctx context.Context, p DiagramModel, id string) views.SVG {
	t := func(key i18n.Key, args i18n.Args) string { return i18n.T(ctx, key, args) }
	title := Title(p.WindowOffsets, p.WindowSizes, p.WindowStrides)
	b := views.NewSVGBuilder(id, title, sliceDesc(ctx, p))
	b.Text(title, 17, true, false, "")
	b.Text(t("svg.slice.copy", i18n.Args{"start": views.Braces(p.CopyStart), "max": views.Braces(p.MaxCopied), "out": views.Braces(p.OutputSizes)}), 13, false, true, views.SVGMuted)
	b.Y += 6

	b.Text(t("svg.slice.input", i18n.Args{"type": p.DataType, "sizes": views.Braces(p.InputSizes), "strides": views.Braces(p.InputStrides), "note": p.ValuesNote}), 15, true, false, "")
	b.Grids(gridBands(p.InputSizes, p.Labels, func(i int64, c []int64) views.SVGCell {
		s := views.SVGCell{Class: "scell", Fill: "#ffffff", Stroke: views.SVGPadLine, Ink: views.SVGPadInk, Label: p.Values[i], Corner: views.Itoa(p.InputOffsets[i])}
		in := p.inWindow(c)
		if in {
			s.Class, s.Fill, s.Stroke, s.Ink = "scell in", views.SVGWindow, views.SVGSoftInk, views.SVGInk
		}
		if k := p.Order[i]; k > 0 {
			s.Class, s.Fill, s.Badge = "scell in copied", views.SVGSoft, views.Itoa(k-1)
		}
		s.Tip = t("svg.slice.in", i18n.Args{"coord": views.JoinInts(c), "value": p.Values[i], "offset": p.InputOffsets[i]})
		if k := p.Order[i]; k > 0 {
			s.Tip += t("svg.slice.in.copied", i18n.Args{"ordinal": ordinalIn(ctx, k), "k": k - 1})
		} else if in {
			s.Tip += t("svg.slice.in.window", nil)
		}
		if p.Order[i] == 1 { // the first element read is at CopyStart
			s.Stroke, s.StrokeWidth = views.SVGAccent, 4
			s.Class += " start"
			s.Tip += " (CopyStart)"
		}
		return s
	}, p.window))

	b.Text(t("svg.slice.output", i18n.Args{"sizes": views.Braces(p.OutputSizes)}), 15, true, false, "")
	b.Grids(gridBands(p.OutputSizes, p.Labels, func(i int64, c []int64) views.SVGCell {
		return views.SVGCell{Class: "ocell", Fill: views.SVGSoft, Stroke: views.SVGSoftInk, Label: p.Output[i], Badge: views.Itoa(i),
			Tip: t("svg.slice.out", i18n.Args{"k": i, "coord": views.JoinInts(c), "value": p.Output[i], "ordinal": ordinalIn(ctx, i+1)})}
	}, nil))
	b.Legend([]views.SVGCell{
		{Fill: views.SVGWindow, Stroke: views.SVGSoftInk, Tip: t("legend.inwin", nil)},
		{Fill: views.SVGSoft, Stroke: views.SVGSoftInk, Tip: t("svg.slice.legend.copied", nil)},
		{Fill: "#ffffff", Stroke: views.SVGAccent, StrokeWidth: 4, Tip: "CopyStart"},
		{Fill: "#ffffff", Stroke: views.SVGPadLine, Tip: t("legend.outside", nil)},
	})
	return b.Done()
}

func (p DiagramModel) inWindow(c []int64) bool {
	for d, v := range c {
		if v < p.WindowOffsets[d] || v >= p.WindowOffsets[d]+p.WindowSizes[d] {
			return false
		}
	}
	return true
}

// window is the outline of the window in the panel whose first element
// has coordinate c: none when an outer coordinate is outside it.
func (p DiagramModel) window(c []int64) (rows, cols [2]int64, ok bool) {
	r := len(c)
	for d := 0; d < r-2; d++ {
		if c[d] < p.WindowOffsets[d] || c[d] >= p.WindowOffsets[d]+p.WindowSizes[d] {
			return rows, cols, false
		}
	}
	cols = [2]int64{p.WindowOffsets[r-1], p.WindowOffsets[r-1] + p.WindowSizes[r-1] - 1}
	if r >= 2 {
		rows = [2]int64{p.WindowOffsets[r-2], p.WindowOffsets[r-2] + p.WindowSizes[r-2] - 1}
	}
	return rows, cols, true
}

// gridBands arranges a tensor as the explorer's logical view does: the
// last two dimensions as a grid, the third innermost as panels side by
// side, the rest as bands. cell draws element i at coordinate c; frame,
// if not nil, outlines part of a panel given its first coordinate.
func gridBands(sizes []int64, labels []string, cell func(i int64, c []int64) views.SVGCell, frame func(c []int64) (rows, cols [2]int64, ok bool)) []views.SVGBand {
	r := len(sizes)
	rows, cols := int64(1), sizes[r-1]
	rowLabel := ""
	if r >= 2 {
		rows, rowLabel = sizes[r-2], labels[r-2]
	}
	perBand, panels := int64(1), int64(1)
	if r >= 3 {
		perBand = sizes[r-3]
	}
	for _, s := range sizes {
		panels *= s
	}
	panels /= rows * cols
	heads := func(n int64) []int64 {
		out := make([]int64, n)
		for i := range out {
			out[i] = int64(i)
		}
		return out
	}
	var bands []views.SVGBand
	var i int64
	c := make([]int64, r) // the coordinate of element i
	for k := range panels {
		first := append([]int64(nil), c...)
		if k%perBand == 0 {
			var parts []string
			for d := 0; d < r-3; d++ {
				if sizes[d] > 1 {
					parts = append(parts, labels[d]+"="+views.Itoa(first[d]))
				}
			}
			bands = append(bands, views.SVGBand{Heading: strings.Join(parts, ", ")})
		}
		p := views.SVGPanel{RowLabel: rowLabel, ColLabel: labels[r-1], ColHeads: heads(cols)}
		if rowLabel != "" {
			p.RowHeads = heads(rows)
		}
		if r >= 3 && sizes[r-3] > 1 {
			p.Caption = labels[r-3] + "=" + views.Itoa(first[r-3])
		}
		if frame != nil {
			p.WindowRows, p.WindowCols, p.Window = frame(first)
		}
		for range rows {
			row := make([]views.SVGCell, cols)
			for j := range row {
				row[j] = cell(i, append([]int64(nil), c...))
				i++
				next(c, sizes)
			}
			p.Cells = append(p.Cells, row)
		}
		bands[len(bands)-1].Panels = append(bands[len(bands)-1].Panels, p)
	}
	return bands
}

// next moves the coordinate c on to the next element in row-major order.
func next(c, sizes []int64) {
	for d := len(c) - 1; d >= 0; d-- {
		if c[d]++; c[d] < sizes[d] {
			return
		}
		c[d] = 0
	}
}

// ordinalIn is n as an ordinal in ctx's locale: English's suffixes, or
// the catalog's form (第 n 個, nº, nᵉ).
func ordinalIn(ctx context.Context, n int64) string {
	switch {
	case i18n.LocaleOf(ctx) == i18n.English:
		return ordinal(n)
	case n == 1:
		return i18n.T(ctx, "svg.ordinal.first")
	}
	return i18n.T(ctx, "svg.ordinal", i18n.Args{"n": n})
}

func ordinal(n int64) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return views.Itoa(n) + suffix
}

// sliceDesc says in words what the picture shows.
func sliceDesc(ctx context.Context, p DiagramModel) string {
	var reads []string
	c := make([]int64, len(p.OutputSizes))
	for _, v := range p.Output {
		reads = append(reads, i18n.T(ctx, "svg.slice.read", i18n.Args{"coord": views.JoinInts(c), "value": v}))
		next(c, p.OutputSizes)
	}
	return i18n.T(ctx, "svg.slice.desc", i18n.Args{"sizes": views.Braces(p.InputSizes), "note": p.ValuesNote, "start": views.Braces(p.CopyStart),
		"max": views.Braces(p.MaxCopied), "out": views.Braces(p.OutputSizes), "reads": views.ListText(ctx, reads, 64)})
}
