package slice1

import (
	"context"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
)

// The slice explorer's SVG picture (GET /api/v1/slice1.svg, and the
// tour's diagrams), built here beside the layout's (New's View), not by
// the transport.

// Diagram computes what the slice picture shows with core and
// compute: the buffer offset of every input element, the values their
// cells hold once filled (1..N when none are given) and the output the
// slice engine's walk reads from them. Only the cells shown are read
// (CellValues): strides can spread a few elements over a buffer of
// millions of cells. The caller bounds the element counts.
func Diagram(ctx context.Context, s *core.Slice1, vals []Value) (DiagramModel, error) {
	in := s.Input
	dt := in.DataType
	n, m := in.LogicalElementCount(), s.OutputElementCount()
	offsets := make([]int64, n)
	compute.Offsets(compute.LayoutWalk(in), 0, offsets)
	reads := make([]int64, m)
	compute.Offsets(compute.SliceWalk(s), 0, reads)
	cv, err := SparseCellValues(ctx, in, vals, append(append([]int64(nil), offsets...), reads...))
	if err != nil {
		return DiagramModel{}, err
	}
	p := DiagramModel{
		DataType: dt.String(), Labels: core.DimensionLabels(in.Rank()),
		InputSizes: in.Sizes, InputStrides: in.Strides, InputOffsets: offsets,
		WindowOffsets: s.WindowOffsets, WindowSizes: s.WindowSizes, WindowStrides: s.WindowStrides,
		CopyStart: s.CopyStart, MaxCopied: s.MaxCopied, OutputSizes: s.OutputSizes,
		ValuesNote: i18n.T(ctx, "svg.slice.values"),
		Values:     make([]string, n), Order: make([]int64, n), Output: make([]string, m),
	}
	if vals != nil {
		p.ValuesNote = i18n.T(ctx, "svg.slice.given")
	}
	if note := ValuesNoteIn(ctx, dt, n, vals != nil); note != "" {
		p.ValuesNote += " (" + note + ")"
	}
	for i, o := range offsets {
		p.Values[i] = cv.Text(o)
	}
	for k := range m {
		p.Output[k] = cv.Text(reads[k])
		p.Order[picture.RowMajorIndex(in.Sizes, s.InputCoordinate(k))] = k + 1
	}
	return p, nil
}
