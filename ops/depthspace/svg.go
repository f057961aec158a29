package depthspace

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

// SVG plans the picture of q's state: every valid state has one. Up to
// views.MaxDOMCells elements, the input and both orders' outputs cell by
// cell as the page draws them (when that picture is within
// views.MaxSVGAspect and views.MaxSVGBytes); else binned
// (picture.MapBinned), each output square coloured by the input element
// its first element reads in that order.
func (Kind) SVG(ctx context.Context, q url.Values) (explorer.SVGPlan, error) {
	v := Validate(StateFromQuery(q))
	if !v.OK() {
		return explorer.SVGPlan{}, &explorer.Invalid{Violations: v.Errors}
	}
	return explorer.SVGPlan{
		Query: StateOf(v).CanonicalQuery(false),
		Cost:  SVGCost(v.DCR),
		Draw: func(ctx context.Context) (templ.Component, error) {
			if domDrawn(v.DCR) {
				if doc, ok, err := views.Bounded(ctx, detailedSVG(ctx, v)); ok || err != nil {
					return doc, err
				}
			}
			s, err := binnedSVG(ctx, v)
			if err != nil {
				return nil, err
			}
			return views.SVGDocument(s), nil
		},
	}, nil
}

// detailedSVG is the page's picture: the three views cell by cell.
func detailedSVG(ctx context.Context, v Validated) views.SVG {
	pv, _ := NewPicture(ctx, v)
	b := views.NewSVGBuilder("depthspace", pv.Alt, pv.Lesson)
	b.Text(pv.Alt, 16, true, false, views.SVGInk)
	b.Text(i18n.T(ctx, "depthspace.input.h")+": "+pv.InputSub, 14, true, false, views.SVGMuted)
	b.Grids(views.LogicalSVGBands(ctx, pv.Input))
	for i, l := range []views.Logical{pv.DCR, pv.CRD} {
		o := pv.Orders[i]
		b.Text(i18n.T(ctx, "depthspace.output.h", i18n.Args{"order": o.Order, "short": o.Short})+": "+pv.OutSub, 14, true, false, views.SVGMuted)
		b.Text(o.Formula, 13, false, true, views.SVGInk)
		b.Grids(views.LogicalSVGBands(ctx, l))
	}
	return b.Done()
}

// binnedSVG is the picture at any size: the input and both orders'
// outputs in squares, side by side in colour as the page's canvases
// are: where DCR and CRD differ, their squares' colours do.
func binnedSVG(ctx context.Context, v Validated) (views.SVG, error) {
	in := v.DCR.Input
	labels := core.DimensionLabels(4)
	outSub := views.LogicalSubIn(ctx, views.Meta{Sizes: v.DCR.Output.Sizes, Labels: labels, LogicalCount: in.LogicalElementCount()})
	vs := []picture.MapView{{Heading: i18n.T(ctx, "depthspace.input.h") + ": " + views.LogicalSubIn(ctx, views.Meta{Sizes: in.Sizes, Labels: labels, LogicalCount: in.LogicalElementCount()}),
		Sizes: in.Sizes, Source: func(i int64) int64 { return i }}}
	for _, s := range []*core.DepthSpace{v.DCR, v.CRD} {
		f := orderFacts(s)
		vs = append(vs, picture.MapView{Heading: i18n.T(ctx, "depthspace.output.h", i18n.Args{"order": f.Order, "short": f.Short}) + ": " + outSub,
			Line: f.Formula, Sizes: s.Output.Sizes, Output: true,
			Source: func(i int64) int64 { return picture.RowMajorIndex(in.Sizes, s.InputCoordinate(i)) }})
	}
	return picture.MapBinned(ctx, picture.MapPicture{ID: "depthspace", Title: alt(ctx, v.DCR), Lines: []string{lesson(ctx, v.DCR)}, Key: picture.GridKey(ctx, in.Sizes), Views: vs})
}

// svgURL is the address of v's SVG picture, in ctx's language: what the
// canvases show without JavaScript, and views too large for them always.
func svgURL(ctx context.Context, v Validated) string {
	return Kind{}.Routes().SVG + "?" + StateOf(v).CanonicalQuery(false) + picture.LangParam(ctx)
}
