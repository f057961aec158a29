package slice1

import (
	"context"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// Detailed reports whether s's picture is drawn element by element,
// labelled with values (Diagram): its input and output within
// views.MaxSVGDetail elements, and the input buffer whose values it shows
// within MaxSliceBytes. Any other slice is drawn binned (Binned).
func Detailed(s *core.Slice1) bool {
	in := s.Input
	n, m := in.LogicalElementCount(), s.OutputElementCount()
	e := in.DataType.Bits() / 8
	return n <= views.MaxSVGDetail && m <= views.MaxSVGDetail && (in.IndexOfLastElement()+1)*e <= MaxSliceBytes
}

// BinnedCost is what Binned allocates for s: three walks (the input's
// elements, the slice's reads, the copied elements' input indices) and
// three rasters.
func BinnedCost(s *core.Slice1) int64 {
	return picture.BinnedCost(max(s.Input.LogicalElementCount(), s.OutputElementCount()), s.Input.Rank(), 3, 3)
}

// The classes of the input's squares, by the elements the slice copies.
const (
	copiedNone = iota
	copiedSome
	copiedAll
)

// The classes of the input buffer's squares, by the slice's reads.
const (
	readTail   = iota // past the input's last element
	readNone          // no element: padding
	readHeld          // elements, none read
	readFewer         // fewer reads than elements
	readAsMany        // as many reads as elements
	readMore          // more reads than elements: cells read more than once
)

// Binned is the picture of s drawn binned: the input in squares coloured
// by how many of their elements the slice copies (a walk of the slice over
// the packed input, compute.SliceWalk), the window and CopyStart outlined;
// the input buffer in squares coloured by the slice's reads against the
// elements held there (two walks); the output in squares coloured by the
// input element that the first of theirs copies (core's InputCoordinate).
func Binned(ctx context.Context, s *core.Slice1, id string) (views.SVG, error) {
	t := func(key i18n.Key, args i18n.Args) string { return i18n.T(ctx, key, args) }
	in := s.Input
	n, m := in.LogicalElementCount(), s.OutputElementCount()
	labels := core.DimensionLabels(in.Rank())
	title := Title(s.WindowOffsets, s.WindowSizes, s.WindowStrides)
	meta := views.Meta{Sizes: in.Sizes, Strides: in.Strides, Labels: labels, Bits: in.ElementSizeInBits(), LogicalCount: n,
		Cells: in.BufferElementCount(), Over: picture.BytesOver(in), Last: in.IndexOfLastElement()}
	b := views.NewSVGBuilder(id, title, t("svg.binned.slice.desc", i18n.Args{
		"sizes": views.Braces(in.Sizes), "start": views.Braces(s.CopyStart), "max": views.Braces(s.MaxCopied), "out": views.Braces(s.OutputSizes),
		"buffer": views.BufferSubIn(ctx, meta)}))
	b.Text(title, 17, true, false, "")
	b.Text(t("svg.slice.copy", i18n.Args{"start": views.Braces(s.CopyStart), "max": views.Braces(s.MaxCopied), "out": views.Braces(s.OutputSizes)}), 13, false, true, views.SVGMuted)
	b.Y += 6
	walked := n <= picture.MaxBinnedWalk && m <= picture.MaxBinnedWalk
	nocount := t("svg.binned.nocount", i18n.Args{"n": i18n.Grouped(ctx, max(n, m)), "max": i18n.Grouped(ctx, int64(picture.MaxBinnedWalk))})

	// The input: how many elements of each square the slice copies.
	g := picture.GridOf(in.Sizes)
	ir := views.SVGRaster{Class: "ibins", Cols: g.NC, Rows: g.NR, Classes: make([]uint8, g.NR*g.NC),
		Palette: []string{views.BinNone, views.BinFewer, views.SVGSoft}, Tip: t("svg.binned.input.tip", nil)}
	ir.RowHeads, ir.ColHeads = picture.GridHeads(ctx, g, ir.Cell())
	var present [3]bool
	if walked {
		packed, err := core.NewLayout(core.TensorDesc{DataType: in.DataType, Sizes: in.Sizes})
		if err != nil {
			return views.SVG{}, err
		}
		ps := *s
		ps.Input = packed // the same slice over a packed input reads each copied element's row-major index
		copied, err := picture.CountBins(ctx, compute.SliceWalk(&ps), len(ir.Classes), g.Bin)
		if err != nil {
			return views.SVG{}, err
		}
		for k, c := range copied {
			cl := uint8(copiedSome)
			switch c {
			case 0:
				cl = copiedNone
			case g.Size(k):
				cl = copiedAll
			}
			ir.Classes[k], present[cl] = cl, true
		}
	}
	f, framed := windowFrame(s, g)
	if framed {
		ir.Frames = append(ir.Frames, f)
	}
	k := g.Bin(picture.RowMajorIndex(in.Sizes, s.CopyStart))
	ir.Frames = append(ir.Frames, views.SVGBinFrame{C0: k % g.NC, R0: k / g.NC, C1: k % g.NC, R1: k / g.NC, Stroke: views.SVGAccent, Width: 3})
	b.Text(t("svg.binned.slice.input", i18n.Args{"type": in.DataType.String(), "sizes": views.Braces(in.Sizes), "strides": views.Braces(in.Strides)}), 15, true, false, "")
	b.Wrapped(t("svg.binned.copied", gridArgs(ctx, g, labels)), 13, views.SVGMuted)
	if !walked {
		b.Wrapped(nocount, 13, views.SVGMuted)
	}
	if err := b.Raster(ir); err != nil {
		return views.SVG{}, err
	}
	legend := []views.SVGCell{}
	for cl, it := range []views.SVGCell{
		{Fill: views.BinNone, Stroke: views.SVGPadLine, Tip: t("svg.binned.copied.none", nil)},
		{Fill: views.BinFewer, Stroke: views.SVGSoftInk, Tip: t("svg.binned.copied.some", nil)},
		{Fill: views.SVGSoft, Stroke: views.SVGSoftInk, Tip: t("svg.binned.copied.all", nil)},
	} {
		if present[cl] {
			legend = append(legend, it)
		}
	}
	if framed {
		legend = append(legend, views.SVGCell{Fill: "#ffffff", Stroke: views.SVGInk, Dashed: true, Tip: t("legend.inwin", nil)})
	}
	legend = append(legend, views.SVGCell{Fill: "#ffffff", Stroke: views.SVGAccent, StrokeWidth: 4, Tip: "CopyStart"})
	b.Legend(legend)
	b.Y += 6

	// The input buffer: the slice's reads against the elements held.
	b.Text(t("svg.buffer", i18n.Args{"sub": views.BufferSubIn(ctx, meta)}), 15, true, false, "")
	if walked {
		st := picture.StripOf(in.BufferElementCount())
		bin := func(o int64) int { return int(o / st.W) }
		held, err := picture.CountBins(ctx, compute.LayoutWalk(in), st.N, bin)
		if err != nil {
			return views.SVG{}, err
		}
		reads, err := picture.CountBins(ctx, compute.SliceWalk(s), st.N, bin)
		if err != nil {
			return views.SVG{}, err
		}
		br := views.SVGRaster{Class: "rbins", Cols: st.NC, Rows: st.Rows(), Classes: make([]uint8, st.N), Tip: t("svg.binned.reads.tip", nil),
			Palette: []string{views.BinTail, views.ClassHatched, views.BinHeld, views.BinFewer, views.SVGSoft, views.BinShared}}
		var present [6]bool
		last := in.IndexOfLastElement()
		for k := range br.Classes {
			var cl uint8
			switch h, r := held[k], reads[k]; {
			case h == 0 && int64(k)*st.W > last:
				cl = readTail
			case h == 0:
				cl = readNone
			case r == 0:
				cl = readHeld
			case r < h:
				cl = readFewer
			case r == h:
				cl = readAsMany
			default:
				cl = readMore
			}
			br.Classes[k], present[cl] = cl, true
		}
		br.RowHeads = picture.StripHeads(ctx, st, br.Cell())
		b.Wrapped(picture.BufferNote(ctx, "svg.binned.reads", st, in.ElementSizeInBits()), 13, views.SVGMuted)
		if err := b.Raster(br); err != nil {
			return views.SVG{}, err
		}
		legend := []views.SVGCell{}
		for cl, it := range []views.SVGCell{
			{Fill: views.BinTail, Stroke: views.SVGPadLine, Dashed: true, Tip: t("legend.tail", nil)},
			{Hatched: true, Stroke: views.SVGPadLine, Tip: t("legend.padding", nil)},
			{Fill: views.BinHeld, Stroke: views.SVGPadLine, Tip: t("legend.heldnr", nil)},
			{Fill: views.BinFewer, Stroke: views.SVGSoftInk, Tip: t("svg.binned.reads.fewer", nil)},
			{Fill: views.SVGSoft, Stroke: views.SVGSoftInk, Tip: t("svg.binned.reads.asmany", nil)},
			{Fill: views.BinShared, Stroke: views.SVGSoftInk, Tip: t("svg.binned.reads.more", nil)},
		} {
			if present[cl] {
				legend = append(legend, it)
			}
		}
		b.Legend(legend)
	} else {
		b.Wrapped(nocount, 13, views.SVGMuted)
	}
	b.Y += 6

	// The output: the input element each square's first element copies.
	og := picture.GridOf(s.OutputSizes)
	ramp := picture.RampOf(n)
	or := views.SVGRaster{Class: "obins", Cols: og.NC, Rows: og.NR, Classes: make([]uint8, og.NR*og.NC), Palette: ramp.Palette(), Tip: t("svg.binned.output.tip", nil)}
	for k := range or.Classes {
		or.Classes[k] = ramp.Level(picture.RowMajorIndex(in.Sizes, s.InputCoordinate(og.First(k))))
	}
	or.RowHeads, or.ColHeads = picture.GridHeads(ctx, og, or.Cell())
	b.Text(t("svg.slice.output", i18n.Args{"sizes": views.Braces(s.OutputSizes)}), 15, true, false, "")
	b.Wrapped(t("svg.binned.source", gridArgs(ctx, og, labels)), 13, views.SVGMuted)
	if err := b.Raster(or); err != nil {
		return views.SVG{}, err
	}
	b.Legend(ramp.Legend(ctx))
	return b.Done(), nil
}

// windowFrame outlines the window's squares when the input is one grid
// (its dimensions before the last two are 1), so that the window is one
// block of rows and columns of it.
func windowFrame(s *core.Slice1, g picture.Grid) (views.SVGBinFrame, bool) {
	r := len(s.Input.Sizes)
	if r >= 2 && g.Split != r-1 {
		return views.SVGBinFrame{}, false
	}
	for _, sz := range s.Input.Sizes[:max(r-2, 0)] {
		if sz != 1 {
			return views.SVGBinFrame{}, false
		}
	}
	r0, r1 := int64(0), int64(0)
	if r >= 2 {
		r0, r1 = s.WindowOffsets[r-2], s.WindowOffsets[r-2]+s.WindowSizes[r-2]-1
	}
	c0, c1 := s.WindowOffsets[r-1], s.WindowOffsets[r-1]+s.WindowSizes[r-1]-1
	return views.SVGBinFrame{C0: int(c0 / g.BW), R0: int(r0 / g.BH), C1: int(c1 / g.BW), R1: int(r1 / g.BH), Stroke: views.SVGInk, Width: 2, Dashed: true}, true
}

// gridArgs are the words of a grid's binning (picture.GridOf).
func gridArgs(ctx context.Context, g picture.Grid, labels []string) i18n.Args {
	return picture.GridArgs(ctx, g, labels)
}
