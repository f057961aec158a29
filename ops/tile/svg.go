package tile

import (
	"context"
	"net/url"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/views"
)

// SVG plans the picture of q's tiling: both grids as the page draws
// them; a tiling whose grids the page does not draw has none (refused
// with a violation, the share bar says why).
func (Kind) SVG(ctx context.Context, q url.Values) (explorer.SVGPlan, error) {
	v := Validate(StateFromQuery(q))
	if v.T == nil {
		return explorer.SVGPlan{}, &explorer.Invalid{Violations: v.Errors}
	}
	t := v.T
	if !domDrawn(t) {
		return explorer.SVGPlan{}, &explorer.Invalid{Violations: []core.Violation{core.NewMsg("padding.svg.large",
			"the input has {n} elements and the output {k}: the picture is drawn up to {max} cells a grid", core.Args{"n": t.Input.LogicalElementCount(), "k": t.Output.LogicalElementCount(), "max": views.MaxDOMCells}).At("inputSizes")}}
	}
	return explorer.SVGPlan{
		Query: StateOf(v).CanonicalQuery(false),
		Cost:  SVGCost(t),
		Draw: func(ctx context.Context) (templ.Component, error) {
			pv, _ := NewPicture(ctx, v)
			b := views.NewSVGBuilder("tile", pv.Alt, pv.Alt)
			b.Text(i18n.T(ctx, "padding.input.h")+" "+pv.InputSub, 16, true, false, "")
			b.Grids(views.LogicalSVGBands(ctx, pv.Input))
			b.Text(i18n.T(ctx, "padding.output.h")+" "+pv.OutputSub, 16, true, false, "")
			b.Grids(views.LogicalSVGBands(ctx, pv.Output))
			doc, ok, err := views.Bounded(ctx, b.Done())
			if err != nil || ok {
				return doc, err
			}
			return views.SVGDocument(b.Done()), nil
		},
	}, nil
}
