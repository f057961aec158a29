package join

import (
	"context"
	"net/url"
	"strconv"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// SVG plans the picture of q's join or split: every valid state has one.
// Up to views.MaxDOMCells output elements each tensor's grid as the page
// draws it (the values, each output cell holding its source's), the
// copies and the NumPy, when that picture is within views.MaxSVGAspect
// and views.MaxSVGBytes; else binned (picture.MapBinned): each tensor in
// squares, an output square in the colour of the input element its
// first element comes from.
func (Kind) SVG(ctx context.Context, q url.Values) (explorer.SVGPlan, error) {
	v := Validate(StateFromQuery(q))
	if !v.Valid() {
		return explorer.SVGPlan{}, &explorer.Invalid{Violations: v.Errors}
	}
	return explorer.SVGPlan{
		Query: StateOf(v).CanonicalQuery(false),
		Cost:  SVGCost(v),
		Draw: func(ctx context.Context) (templ.Component, error) {
			p := NewPicture(ctx, v)
			if Drawn(v) {
				if doc, ok, err := views.Bounded(ctx, pictureSVG(ctx, p)); ok || err != nil {
					return doc, err
				}
			}
			s, err := binnedSVG(ctx, v, p)
			if err != nil {
				return nil, err
			}
			return views.SVGDocument(s), nil
		},
	}, nil
}

// SVGCost is what drawing the picture allocates: the binned picture's
// squares and rasters (a view a tensor), the description, and, for a
// state drawn cell by cell, the page's picture of it and each cell's
// drawing (8 KiB, as the conversion's).
func SVGCost(v Validated) int64 {
	rank, tensors := tensorsOf(v)
	c := picture.MapCost(rank, tensors) + Cost(v, false)
	if Drawn(v) {
		c += 2 * elementCount(v) * svgPerCell
	}
	return c
}

const svgPerCell = 8 << 10

// tensorsOf is v's rank and how many tensors it draws.
func tensorsOf(v Validated) (rank, tensors int) {
	if v.Join != nil {
		return v.Join.Output.Rank(), len(v.Join.Inputs) + 1
	}
	return v.Split.Input.Rank(), len(v.Split.Outputs) + 1
}

// svgURL is the address of v's SVG picture in ctx's language: what the
// page shows where its grids are too large for the HTML.
func svgURL(ctx context.Context, v Validated) string {
	return Kind{}.Routes().SVG + "?" + StateOf(v).CanonicalQuery(false) + picture.LangParam(ctx)
}

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

// binnedSVG is the picture of a join or split of any size: the copies
// and the level, then each tensor in squares. A join's inputs are
// coloured each in its own hue (picture.JoinedKey), so that the output
// shows which input each block of it comes from; a split's input by its
// grid (picture.GridKey), each output the part of it it copies.
func binnedSVG(ctx context.Context, v Validated, p PictureView) (views.SVG, error) {
	m := picture.MapPicture{ID: "joinsplit", Title: p.Alt}
	for _, c := range p.Copies {
		m.Lines = append(m.Lines, c.Name+": "+c.Text)
	}
	m.Lines = append(m.Lines, p.Level)
	if j := v.Join; j != nil {
		names, counts := make([]string, len(j.Inputs)), make([]int64, len(j.Inputs))
		first := make([]int64, len(j.Inputs))
		var at int64
		for k, in := range j.Inputs {
			names[k], counts[k], first[k] = tensorName(k), in.LogicalElementCount(), at
			at += counts[k]
			m.Views = append(m.Views, picture.MapView{Heading: "InputTensors[" + strconv.Itoa(k) + "] (" + names[k] + ")  " + tensorSub(ctx, in), Sizes: in.Sizes,
				Source: func(i int64) int64 { return first[k] + i }})
		}
		m.Key = picture.JoinedKey(ctx, names, counts)
		m.Views = append(m.Views, picture.MapView{Heading: "OutputTensor  " + tensorSub(ctx, j.Output), Sizes: j.Output.Sizes, Output: true,
			Source: func(i int64) int64 {
				k, c := j.Source(i)
				return first[k] + picture.RowMajorIndex(j.Inputs[k].Sizes, c)
			}})
		return picture.MapBinned(ctx, m)
	}
	s := v.Split
	m.Key = picture.GridKey(ctx, s.Input.Sizes)
	m.Views = append(m.Views, picture.MapView{Heading: "InputTensor (x)  " + tensorSub(ctx, s.Input), Sizes: s.Input.Sizes, Source: func(i int64) int64 { return i }})
	for k, o := range s.Outputs {
		m.Views = append(m.Views, picture.MapView{Heading: "OutputTensors[" + strconv.Itoa(k) + "] (y" + strconv.Itoa(k) + ")  " + tensorSub(ctx, o), Sizes: o.Sizes, Output: true,
			Source: func(i int64) int64 { return picture.RowMajorIndex(s.Input.Sizes, splitSource(s, k, o, i)) }})
	}
	return picture.MapBinned(ctx, m)
}

// splitSource is the input coordinate output k's element i copies: its
// own coordinate, moved along the axis to where output k starts.
func splitSource(s *core.Split, k int, o *core.Layout, i int64) []int64 {
	c := o.Coordinate(i)
	c[s.Axis] += s.Starts[k]
	return c
}
