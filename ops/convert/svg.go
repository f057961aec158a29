package convert

import (
	"context"
	"net/url"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// SVG plans the picture of q's conversion as an SVG file: every valid
// state has one. A conversion whose views are all within
// views.MaxDOMCells cells is drawn cell by cell as the page draws it
// (each cell labelled, badged with its copy step); a larger one, or a
// detailed picture more than views.MaxSVGAspect times as tall as wide
// or over views.MaxSVGBytes, is drawn binned (binnedSVG).
func (Kind) SVG(ctx context.Context, q url.Values) (explorer.SVGPlan, error) {
	v := Validate(StateFromQuery(q))
	if v.ID == nil {
		return explorer.SVGPlan{}, &explorer.Invalid{Violations: v.Errors}
	}
	id := v.ID
	query := StateOf(v).CanonicalQuery(false)
	detailed := domDrawn(id)
	cost := SVGCost(id)
	return explorer.SVGPlan{
		Query: query,
		Cost:  cost,
		Draw: func(ctx context.Context) (templ.Component, error) {
			if detailed {
				resp, err := describe(ctx, id, true)
				if err != nil {
					return nil, err
				}
				pv, _ := NewPicture(ctx, id, resp, query)
				if doc, ok, err := views.Bounded(ctx, detailedSVG(ctx, id, pv)); ok || err != nil {
					return doc, err
				}
			}
			s, err := binnedSVG(ctx, id)
			if err != nil {
				return nil, err
			}
			return views.SVGDocument(s), nil
		},
	}, nil
}

// SVGCost is what identity.svg allocates for id: the binned picture's
// walks and rasters (two walks, three rasters), and, for a picture drawn
// cell by cell, the page's picture of it and each cell's drawing.
func SVGCost(id *core.Identity) int64 {
	n := id.Input.LogicalElementCount()
	c := picture.BinnedCost(n, id.Input.Rank(), 2, 3) + describeCost(id, false)
	if domDrawn(id) {
		cells := n + id.Input.BufferElementCount() + id.Output.BufferElementCount()
		c += Cost(id, false) + cells*svgPerCell
	}
	return c
}

// svgPerCell is a cell of the detailed picture: its drawing, its tip and
// its text in the document (measured: under 6 KiB).
const svgPerCell = 8 << 10

// title is the picture's title: the conversion it draws.
func title(ctx context.Context, id *core.Identity) string {
	in, out := id.Input, id.Output
	return i18n.T(ctx, "convert.alt", i18n.Args{"dt": in.DataType.String(), "sizes": views.JoinInts(in.Sizes),
		"in": views.JoinInts(in.Strides), "out": views.JoinInts(out.Strides)})
}

// detailedSVG is the page's picture as an SVG: the logical tensor and
// both buffers cell by cell, each used cell badged with its copy step,
// and the access pattern.
func detailedSVG(ctx context.Context, id *core.Identity, pv PictureView) views.SVG {
	t := func(key i18n.Key, args i18n.Args) string { return i18n.T(ctx, key, args) }
	var items []string
	for _, band := range pv.Logical.Bands {
		for _, p := range band.Panels {
			for _, r := range p.Rows {
				for _, c := range r.Cells {
					items = append(items, c.Aria)
				}
			}
		}
	}
	desc := t("svg.convert.desc", i18n.Args{"logical": pv.LogicalSub, "in": pv.InputSub, "out": pv.OutputSub, "access": pv.Access, "items": views.ListText(ctx, items, 64)})
	b := views.NewSVGBuilder("convert", title(ctx, id), desc)
	header(b, ctx, id, pv.Access)
	b.Text(t("svg.logical", i18n.Args{"sub": pv.LogicalSub}), 15, true, false, "")
	b.Grids(views.LogicalSVGBands(ctx, pv.Logical))
	b.Y += 6
	b.Text(t("svg.convert.input", i18n.Args{"sub": pv.InputSub}), 15, true, false, "")
	b.BufferRows(ctx, pv.Input)
	b.Text(t("svg.convert.output", i18n.Args{"sub": pv.OutputSub}), 15, true, false, "")
	b.BufferRows(ctx, pv.Output)
	b.Legend(views.BufferSVGLegend(ctx))
	b.Wrapped(t("convert.badge.legend", nil), 13, views.SVGMuted)
	b.Wrapped(pv.Scattered, 13, views.SVGMuted)
	return b.Done()
}

// header is both pictures' title and access-pattern line.
func header(b *views.SVGBuilder, ctx context.Context, id *core.Identity, access string) {
	b.Text(title(ctx, id), 17, true, false, "")
	b.Wrapped(access, 13, views.SVGMuted)
	b.Y += 6
}

// binnedSVG is the picture of a conversion of any size, in squares
// coloured by copy step: the logical tensor's squares by the step of
// their first element (worked out, not walked), each buffer's squares by
// the first step that reads (or writes) one of its cells, found by a
// walk of every element (compute.Offsets, a chunk at a time) up to
// picture.MaxBinnedWalk elements; the squares no element reaches are
// padding or the unused tail.
func binnedSVG(ctx context.Context, id *core.Identity) (views.SVG, error) {
	t := func(key i18n.Key, args i18n.Args) string { return i18n.T(ctx, key, args) }
	in, out := id.Input, id.Output
	n := in.LogicalElementCount()
	resp, err := describe(ctx, id, false)
	if err != nil {
		return views.SVG{}, err
	}
	logicalSub := views.LogicalSubIn(ctx, views.Meta{Sizes: in.Sizes, Labels: core.DimensionLabels(in.Rank()), LogicalCount: n})
	inSub, outSub := views.BufferSubIn(ctx, bufferMeta(in)), views.BufferSubIn(ctx, bufferMeta(out))
	var pv PictureView
	pv.accessLines(ctx, resp)
	desc := t("svg.convert.binned.desc", i18n.Args{"logical": logicalSub, "in": inSub, "out": outSub, "access": pv.Access})
	b := views.NewSVGBuilder("convert", title(ctx, id), desc)
	header(b, ctx, id, pv.Access)

	ramp := picture.RampOf(n)
	palette := append(ramp.Palette(), views.ClassHatched, views.BinTail)
	hatch, tail := uint8(ramp.Levels), uint8(ramp.Levels+1)
	var present [2]bool // padding, tail

	g := picture.GridOf(in.Sizes)
	lr := views.SVGRaster{Class: "lbins", Cols: g.NC, Rows: g.NR, Classes: make([]uint8, g.NR*g.NC), Palette: palette}
	for k := range lr.Classes {
		lr.Classes[k] = ramp.Level(g.First(k))
	}
	lr.RowHeads, lr.ColHeads = picture.GridHeads(ctx, g, lr.Cell())
	lr.Tip = t("svg.convert.binned.logical.tip", nil)
	b.Text(t("svg.logical", i18n.Args{"sub": logicalSub}), 15, true, false, "")
	b.Wrapped(t("svg.convert.binned.logical", picture.GridArgs(ctx, g, core.DimensionLabels(in.Rank()))), 13, views.SVGMuted)
	if err := b.Raster(lr); err != nil {
		return views.SVG{}, err
	}
	b.Y += 6

	iw, ow := compute.IdentityWalks(id)
	for _, side := range []struct {
		l         *core.Layout
		w         compute.Walk
		head, tip i18n.Key
		sub       string
	}{{in, iw, "svg.convert.input", "svg.convert.binned.input.tip", inSub}, {out, ow, "svg.convert.output", "svg.convert.binned.output.tip", outSub}} {
		b.Text(t(side.head, i18n.Args{"sub": side.sub}), 15, true, false, "")
		if n > picture.MaxBinnedWalk {
			b.Wrapped(t("svg.binned.nocount", i18n.Args{"n": i18n.Grouped(ctx, n), "max": i18n.Grouped(ctx, int64(picture.MaxBinnedWalk))}), 13, views.SVGMuted)
			continue
		}
		s := picture.StripOf(side.l.BufferElementCount())
		first, err := firstSteps(ctx, side.w, s)
		if err != nil {
			return views.SVG{}, err
		}
		last := side.l.IndexOfLastElement()
		r := views.SVGRaster{Class: "bbins", Cols: s.NC, Rows: s.Rows(), Classes: make([]uint8, s.N), Palette: palette}
		for k, f := range first {
			switch {
			case f >= 0:
				r.Classes[k] = ramp.Level(f)
			case int64(k)*s.W > last:
				r.Classes[k], present[1] = tail, true
			default:
				r.Classes[k], present[0] = hatch, true
			}
		}
		r.RowHeads = picture.StripHeads(ctx, s, r.Cell())
		r.Tip = t(side.tip, nil)
		b.Wrapped(picture.BufferNote(ctx, "svg.convert.binned.buffer", s, side.l.ElementSizeInBits()), 13, views.SVGMuted)
		if err := b.Raster(r); err != nil {
			return views.SVG{}, err
		}
	}
	legend := stepLegend(ctx, ramp)
	if present[0] {
		legend = append(legend, views.SVGCell{Hatched: true, Stroke: views.SVGPadLine, Tip: t("legend.padding", nil)})
	}
	if present[1] {
		legend = append(legend, views.SVGCell{Fill: views.BinTail, Stroke: views.SVGPadLine, Dashed: true, Tip: t("legend.tail", nil)})
	}
	b.Wrapped(t("svg.convert.binned.legend", nil), 13, views.SVGMuted)
	b.Legend(legend)
	b.Wrapped(pv.Scattered, 13, views.SVGMuted)
	return b.Done(), nil
}

// firstSteps is, for each square of s, the first copy step (the
// row-major index of the element) whose offset in w falls in it, or -1.
func firstSteps(ctx context.Context, w compute.Walk, s picture.Strip) ([]int64, error) {
	first := make([]int64, s.N)
	for k := range first {
		first[k] = -1
	}
	n := w.Len()
	buf := make([]int64, min(n, picture.OffsetChunk))
	for i0 := int64(0); i0 < n; i0 += int64(len(buf)) {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		chunk := buf[:min(int64(len(buf)), n-i0)]
		compute.Offsets(w, i0, chunk)
		for j, o := range chunk {
			if k := o / s.W; first[k] < 0 {
				first[k] = i0 + int64(j)
			}
		}
	}
	return first, nil
}

// stepLegend is the ramp's swatches labelled with the copy steps they
// stand for, counted from 1 as the page's badges are (the ramp's values
// are the steps less one).
func stepLegend(ctx context.Context, r picture.Ramp) []views.SVGCell {
	items := r.Legend(ctx)
	for k := range items {
		from, to := r.From(int64(k))+1, r.From(int64(k)+1)
		items[k].Tip = i18n.Grouped(ctx, from)
		if to != from {
			items[k].Tip += "–" + i18n.Grouped(ctx, to)
		}
	}
	return items
}
