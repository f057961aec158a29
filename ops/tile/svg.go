package tile

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

// SVG plans the picture of q's tiling: every valid state has one. Both
// grids as the page draws them when they are in the HTML (and the
// picture within views.MaxSVGAspect and views.MaxSVGBytes), else binned
// (picture.MapBinned), each output square coloured by the input
// element its first element reads.
func (Kind) SVG(ctx context.Context, q url.Values) (explorer.SVGPlan, error) {
	v := Validate(StateFromQuery(q))
	if v.T == nil {
		return explorer.SVGPlan{}, &explorer.Invalid{Violations: v.Errors}
	}
	t := v.T
	return explorer.SVGPlan{
		Query: StateOf(v).CanonicalQuery(false),
		Cost:  SVGCost(t),
		Draw: func(ctx context.Context) (templ.Component, error) {
			if domDrawn(t) {
				if doc, ok, err := views.Bounded(ctx, detailedSVG(ctx, v)); ok || err != nil {
					return doc, err
				}
			}
			s, err := binnedSVG(ctx, t)
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
	b := views.NewSVGBuilder("tile", pv.Alt, pv.Alt)
	b.Text(i18n.T(ctx, "padding.input.h")+" "+pv.InputSub, 16, true, false, "")
	b.Grids(views.LogicalSVGBands(ctx, pv.Input))
	b.Text(i18n.T(ctx, "padding.output.h")+" "+pv.OutputSub, 16, true, false, "")
	b.Grids(views.LogicalSVGBands(ctx, pv.Output))
	return b.Done()
}

// binnedSVG is the picture of a tiling of any size, in squares: the
// output's repeat the input's colours, copy after copy.
func binnedSVG(ctx context.Context, t *core.Tile) (views.SVG, error) {
	in, out := t.Input, t.Output
	return picture.MapBinned(ctx, picture.MapPicture{
		ID: "tile", Title: alt(ctx, t), Key: picture.GridKey(ctx, in.Sizes),
		Views: []picture.MapView{
			{Heading: i18n.T(ctx, "padding.input.h") + " " + sub(ctx, in), Sizes: in.Sizes, Source: func(i int64) int64 { return i }},
			{Heading: i18n.T(ctx, "padding.output.h") + " " + sub(ctx, out), Sizes: out.Sizes, Output: true,
				Source: func(i int64) int64 { return picture.RowMajorIndex(in.Sizes, t.InputCoordinate(i)) }},
		},
	})
}
