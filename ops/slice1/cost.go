package slice1

import (
	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// Cost is what the slice explorer allocates to draw s: as a page,
// the values of the cells it shows; as an edit, also the whole buffer
// and output its canvases are drawn from, and the frames that carry them.
func Cost(s *core.Slice1, edit bool) int64 {
	in := s.Input
	e := in.DataType.Bits() / 8
	n, cells, outN := in.LogicalElementCount(), in.BufferElementCount(), s.OutputElementCount()
	used := in.IndexOfLastElement() + 1
	im, bm, om := Mode(n), bufferMode(cells, n), Mode(outN)
	perCell := int64(picture.DomCellPage)
	if edit {
		perCell = picture.DomCellEdit
	}
	c := int64(picture.CostBase)
	var shown int64 // cells whose values a view shows
	if im == views.ModeDOM {
		c += n * (8 + perCell) // the offsets, and the cell
		shown += n
	}
	if om == views.ModeDOM {
		c += outN * (3*8 + 64 + perCell) // reads, source, copy order, and the cell
		shown += outN
	}
	if bm == views.ModeDOM {
		c += cells * (4 + 64 + perCell) // the counts, first read and reads per cell, and the cell
		shown += cells
	}
	if cells <= picture.MaxInteractive {
		c += (used + 63) / 64 * 8 // the bitmap of the cells read
	}
	m := min(outN, MaxListedValues)
	valuesOK := e > 0 && used*e <= MaxSliceBytes && n*e <= MaxSliceBytes && outN*e <= MaxSliceBytes
	if valuesOK {
		// The output's first values as text (and in the page's JSON), and
		// the first element of each cell shown, found a chunk at a time.
		c += m*(8+192) + (m+shown)*64 + picture.ChunkOf(n)
	}
	if !edit {
		return c
	}
	c += m * 64 // the values once more, in the answer's JSON
	if valuesOK && (im == views.ModeCanvas || bm == views.ModeCanvas || om == views.ModeCanvas) {
		c += used*e + picture.ChunkOf(n) // the filled buffer; FillInput's chunk
		if om == views.ModeCanvas {
			c += outN * e // the output copied from it
		}
	}
	if im == views.ModeCanvas {
		c += (n + 63) / 64 * 8 // the elements copied (streamOffsets writes into the frames)
	}
	if bm == views.ModeCanvas {
		c += 4 * used // a count per cell up to the last element
	}
	if im == views.ModeCanvas || bm == views.ModeCanvas || om == views.ModeCanvas {
		c += picture.StreamFrames + picture.StreamAnswerRecord
	}
	return c
}

// SVGCost is what slice1.svg allocates for s (SVGLimits bounds
// its counts): per input and output element, an offset, the first
// element of its cell, its value as text and its drawing.
func SVGCost(s *core.Slice1) int64 {
	n, m := s.Input.LogicalElementCount(), s.OutputElementCount()
	return picture.CostBase + picture.ChunkOf(n) + (n+m)*(8+2*64+picture.DomCellPage)
}

// APICost is what the slice answers of the JSON API allocate for s.
func APICost(s *core.Slice1) int64 {
	c := int64(picture.CostBase)
	if m := s.OutputElementCount(); m <= picture.MaxListedElements {
		c += m * (picture.ApiPerOffset + picture.ApiPerCoordinate + int64(s.Input.Rank())*picture.ApiPerDim)
	}
	return c
}

func Offsets(s *core.Slice1) []int64 {
	w := compute.SliceWalk(s)
	o := make([]int64, w.Len())
	compute.Offsets(w, 0, o)
	return o
}
