package padding1

import (
	"context"
	"net/url"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// SVG plans the picture of q's padding as an SVG file: every valid state
// has one. A padding whose grids the page draws in the HTML (up to
// views.MaxDOMCells cells each) is drawn as the page draws it, each cell
// labelled; a larger one, or a detailed picture more than
// views.MaxSVGAspect times as tall as wide or over views.MaxSVGBytes, is
// drawn binned (picture.MapBinned).
func (Kind) SVG(ctx context.Context, q url.Values) (explorer.SVGPlan, error) {
	v := Validate(StateFromQuery(q))
	if v.P == nil {
		return explorer.SVGPlan{}, &explorer.Invalid{Violations: v.Errors}
	}
	p := v.P
	return explorer.SVGPlan{
		Query: StateOf(v).CanonicalQuery(false),
		Cost:  SVGCost(p),
		Draw: func(ctx context.Context) (templ.Component, error) {
			if domDrawn(p) {
				if doc, ok, err := views.Bounded(ctx, detailedSVG(ctx, v)); ok || err != nil {
					return doc, err
				}
			}
			s, err := binnedSVG(ctx, p)
			if err != nil {
				return nil, err
			}
			return views.SVGDocument(s), nil
		},
	}, nil
}

// detailedSVG is the page's picture: both grids cell by cell.
func detailedSVG(ctx context.Context, v Validated) views.SVG {
	pv, _ := NewPicture(ctx, v)
	b := views.NewSVGBuilder("padding", pv.Alt, pv.Alt)
	b.Text(i18n.T(ctx, "padding.input.h")+" "+pv.InputSub, 16, true, false, "")
	b.Grids(views.LogicalSVGBands(ctx, pv.Input))
	b.Text(i18n.T(ctx, "padding.output.h")+" "+pv.OutputSub, 16, true, false, "")
	b.Grids(markPadding(views.LogicalSVGBands(ctx, pv.Output), pv.Output))
	b.Text(pv.Mode, 14, false, false, views.SVGMuted)
	return b.Done()
}

// binnedSVG is the picture of a padding of any size: both grids in
// squares, each output square coloured by the input element its first
// element reads (hatched where that is the padding value).
func binnedSVG(ctx context.Context, p *core.Padding1) (views.SVG, error) {
	in, out := p.Input, p.Output
	return picture.MapBinned(ctx, picture.MapPicture{
		ID: "padding", Title: alt(ctx, p), Lines: []string{modeText(ctx, p)}, Key: picture.GridKey(ctx, in.Sizes),
		Views: []picture.MapView{
			{Heading: i18n.T(ctx, "padding.input.h") + " " + sub(ctx, in), Sizes: in.Sizes, Source: func(i int64) int64 { return i }},
			{Heading: i18n.T(ctx, "padding.output.h") + " " + sub(ctx, out), Sizes: out.Sizes, Output: true,
				Source: func(i int64) int64 { return picture.SourceIndex(in.Sizes, p.InputCoordinate(i)) },
				Frame:  ownPlace(p), FrameTip: i18n.T(ctx, "svg.binned.map.own")},
		},
	})
}

// ownPlace is where the input sits in the output's grid (rows, then
// columns, inclusive), for a padding of one or two dimensions, whose
// grid is its own rows and columns; nil for more, whose flattened rows
// hold the place in pieces.
func ownPlace(p *core.Padding1) *[4]int64 {
	s, n := p.StartPadding, p.Input.Sizes
	switch len(n) {
	case 1:
		return &[4]int64{0, s[0], 0, s[0] + n[0] - 1}
	case 2:
		return &[4]int64{s[0], s[1], s[0] + n[0] - 1, s[1] + n[1] - 1}
	}
	return nil
}

// markPadding hatches the output cells that take the padding value and
// tints the ones read from the input in the padding, as the page does.
func markPadding(bands []views.SVGBand, l views.Logical) []views.SVGBand {
	for b := range bands {
		for p := range bands[b].Panels {
			for r, row := range bands[b].Panels[p].Cells {
				for c := range row {
					switch l.Bands[b].Panels[p].Rows[r].Cells[c].Class {
					case "pad":
						row[c].Hatched, row[c].Fill, row[c].Stroke, row[c].Ink = true, "", views.SVGPadLine, views.SVGPadInk
					case "mirror":
						row[c].Fill = views.SVGSoft
					}
				}
			}
		}
	}
	return bands
}
