package padding1

import (
	"context"
	"net/url"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/views"
)

// SVG plans the picture of q's padding as an SVG file: the input and the
// output grids as the page draws them, each cell labelled. A padding
// whose grids the page does not draw (more than views.MaxDOMCells cells)
// has no picture: it is refused with a violation, and its share bar
// says why (NoSVG).
func (Kind) SVG(ctx context.Context, q url.Values) (explorer.SVGPlan, error) {
	v := Validate(StateFromQuery(q))
	if v.P == nil {
		return explorer.SVGPlan{}, &explorer.Invalid{Violations: v.Errors}
	}
	p := v.P
	if !domDrawn(p) {
		return explorer.SVGPlan{}, &explorer.Invalid{Violations: []core.Violation{core.NewMsg("padding.svg.large",
			"the input has {n} elements and the output {k}: the picture is drawn up to {max} cells a grid", core.Args{"n": p.Input.LogicalElementCount(), "k": p.Output.LogicalElementCount(), "max": views.MaxDOMCells}).At("inputSizes")}}
	}
	query := StateOf(v).CanonicalQuery(false)
	return explorer.SVGPlan{
		Query: query,
		Cost:  SVGCost(p),
		Draw: func(ctx context.Context) (templ.Component, error) {
			pv, _ := NewPicture(ctx, v)
			b := views.NewSVGBuilder("padding", pv.Alt, pv.Alt)
			b.Text(i18n.T(ctx, "padding.input.h")+" "+pv.InputSub, 16, true, false, "")
			b.Grids(views.LogicalSVGBands(ctx, pv.Input))
			b.Text(i18n.T(ctx, "padding.output.h")+" "+pv.OutputSub, 16, true, false, "")
			b.Grids(markPadding(views.LogicalSVGBands(ctx, pv.Output), pv.Output))
			b.Text(pv.Mode, 14, false, false, views.SVGMuted)
			doc, ok, err := views.Bounded(ctx, b.Done())
			if err != nil || ok {
				return doc, err
			}
			return views.SVGDocument(b.Done()), nil
		},
	}, nil
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
