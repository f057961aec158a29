package join

import (
	"context"
	"net/url"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/views"
)

// SVG plans the picture of q's join or split: each tensor's grid as the
// page draws it (the values, each output cell holding its source's), the
// copies and the NumPy. A state past views.MaxDOMCells output elements,
// whose grids the page does not draw either, has none: a violation says
// so, and the share bar (NoSVG).
func (Kind) SVG(ctx context.Context, q url.Values) (explorer.SVGPlan, error) {
	v := Validate(StateFromQuery(q))
	if !v.Valid() {
		return explorer.SVGPlan{}, &explorer.Invalid{Violations: v.Errors}
	}
	if !Drawn(v) {
		return explorer.SVGPlan{}, &explorer.Invalid{Violations: []core.Violation{tooLargeForSVG(elementCount(v))}}
	}
	return explorer.SVGPlan{
		Query: StateOf(v).CanonicalQuery(false),
		Cost:  SVGCost(v),
		Draw: func(ctx context.Context) (templ.Component, error) {
			return views.SVGDocument(pictureSVG(ctx, NewPicture(ctx, v))), nil
		},
	}, nil
}

func tooLargeForSVG(n int64) core.Violation {
	return core.NewMsg("joinsplit.svg.large", "{n} output elements: the SVG picture draws every cell, up to {max}", core.Args{"n": n, "max": views.MaxDOMCells}).At("query")
}

// noSVG is what the share bar says of a state without a picture ("" when
// it has one).
func noSVG(ctx context.Context, v Validated) string {
	if !v.Valid() || Drawn(v) {
		return ""
	}
	return i18n.T(ctx, "joinsplit.nosvg", i18n.Args{"max": i18n.Grouped(ctx, int64(views.MaxDOMCells))})
}

// SVGCost is what drawing the picture allocates: the page's picture of
// it and each cell's drawing (8 KiB, as the conversion's).
func SVGCost(v Validated) int64 { return Cost(v, false) + 2*elementCount(v)*svgPerCell }

const svgPerCell = 8 << 10

// pictureSVG lays the picture out: the title, each input's grid, each
// output's, then the copies, one a line.
func pictureSVG(ctx context.Context, p PictureView) views.SVG {
	b := views.NewSVGBuilder("joinsplit", p.Alt, p.Level)
	b.Text(p.Alt, 17, true, false, "")
	for _, side := range [][]TensorView{p.Inputs, p.Outputs} {
		for _, t := range side {
			b.Y += 6
			b.Text(t.Heading+"  "+t.Sub, 15, true, true, "")
			b.Grids(views.LogicalSVGBands(ctx, t.Logical))
		}
	}
	b.Y += 6
	for _, c := range p.Copies {
		b.Text(c.Name+": "+c.Text, 13, false, false, views.SVGMuted)
	}
	b.Text(p.Level, 13, false, false, views.SVGMuted)
	return b.Done()
}
