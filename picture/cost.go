package picture

import (
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/views"
)

// What heavy work takes from the work budget, estimated up front from the
// element and cell counts it will materialise. The figures are measured
// (TestBudgetCostsCoverAllocations allocates every path's worst cases
// and checks that the estimate covers all it allocated, garbage
// included) and rounded up.
const (
	// costBase is every request's share: the form, facts, presets, the
	// page's frame and the strings its modules read, the query and its
	// validation.
	costBase = 288 << 10
	// domCellPage is a DOM cell drawn on a page: its view model (index,
	// coordinate, label, classes, aria text) and its HTML as written
	// (measured: up to 3.2 KiB).
	domCellPage = 4 << 10
	// domCellSVG is a cell of the layout's SVG picture, whose drawing
	// holds more text than a page's cell (measured: 5.4 KiB).
	domCellSVG = 6 << 10
	// domCellEdit is a DOM cell sent by an edit: the view model, the
	// rendered HTML fragment (grown, then copied into a string), its JSON
	// encoding (HTML escapes included) and the answers cache's copy
	// (measured: up to 8.1 KiB).
	domCellEdit = 10 << 10
	// streamFrames is the binary frames of one streaming edit alive at
	// once: queued to the writer (4), being written and being built, of
	// up to 1 MiB each, and a margin for the pool's refills.
	streamFrames = 8 * (StreamFrameHeaderLen + 1<<20)
)

// What a websocket edit's stream holds, as live sends it: live's tests
// check that these match its own constants.
const (
	StreamFrameHeaderLen = 24      // live.FrameHeaderLen
	StreamAnswerRecord   = 8 << 20 // the largest answer live keeps to share
)

// chunkOf is the chunk of offsets a walk of n elements is enumerated in
// (compute.Offsets, offsetChunk at a time).
func chunkOf(n int64) int64 { return 8 * min(n, offsetChunk) }

// DrawnAs is where work is drawn: each costs differently per DOM cell.
type DrawnAs int

const (
	OnPage DrawnAs = iota
	InSVG
	InEdit // a websocket edit, with its stream of frames
)

func (d DrawnAs) perCell() int64 {
	switch d {
	case InSVG:
		return domCellSVG
	case InEdit:
		return domCellEdit
	}
	return domCellPage
}

// LayoutCost is what the layout explorer allocates to draw l.
func LayoutCost(l *core.Layout, as DrawnAs) int64 {
	n, cells := l.LogicalElementCount(), l.BufferElementCount()
	domMax := int64(views.MaxDOMCells)
	if as == InSVG {
		domMax = views.MaxSVGCells
	}
	lm, bm := viewMode(n, n, domMax), viewMode(cells, n, domMax)
	perCell, edit := as.perCell(), as == InEdit
	c := int64(costBase) + chunkOf(n) // linkedText walks a chunk at a time
	if lm == views.ModeDOM {
		c += n * (8 + perCell) // the offsets, and the cell
	}
	if bm == views.ModeDOM {
		c += cells * (4 + 8 + perCell) // the counts, the first elements, the cell
		if lm != views.ModeDOM {
			c += chunkOf(n) // firstElements walks a chunk at a time
		}
	}
	if !edit || lm != views.ModeCanvas && bm != views.ModeCanvas {
		return c
	}
	c += streamFrames + StreamAnswerRecord // the frames, and the cache's record of the first of them
	if bm == views.ModeCanvas {
		if l.HasOverlap() == core.TriFalse {
			c += (cells + 63) / 64 * 8 // the bitmap of the cells in use
		} else {
			c += 4 * cells // a count per cell
		}
	}
	return c
}

// SliceCost is what the slice explorer allocates to draw s: as a page,
// the values of the cells it shows; as an edit, also the whole buffer
// and output its canvases are drawn from, and the frames that carry them.
func SliceCost(s *core.Slice1, edit bool) int64 {
	in := s.Input
	e := in.DataType.Bits() / 8
	n, cells, outN := in.LogicalElementCount(), in.BufferElementCount(), s.OutputElementCount()
	used := in.IndexOfLastElement() + 1
	im, bm, om := SliceMode(n), sliceBufferMode(cells, n), SliceMode(outN)
	perCell := int64(domCellPage)
	if edit {
		perCell = domCellEdit
	}
	c := int64(costBase)
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
	if cells <= MaxInteractive {
		c += (used + 63) / 64 * 8 // the bitmap of the cells read
	}
	m := min(outN, MaxListedValues)
	valuesOK := e > 0 && used*e <= MaxSliceBytes && n*e <= MaxSliceBytes && outN*e <= MaxSliceBytes
	if valuesOK {
		// The output's first values as text (and in the page's JSON), and
		// the first element of each cell shown, found a chunk at a time.
		c += m*(8+192) + (m+shown)*64 + chunkOf(n)
	}
	if !edit {
		return c
	}
	c += m * 64 // the values once more, in the answer's JSON
	if valuesOK && (im == views.ModeCanvas || bm == views.ModeCanvas || om == views.ModeCanvas) {
		c += used*e + chunkOf(n) // the filled buffer; FillInput's chunk
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
		c += streamFrames + StreamAnswerRecord
	}
	return c
}

// SliceSVGCost is what slice1.svg allocates for s (SliceSVGLimits bounds
// its counts): per input and output element, an offset, the first
// element of its cell, its value as text and its drawing.
func SliceSVGCost(s *core.Slice1) int64 {
	n, m := s.Input.LogicalElementCount(), s.OutputElementCount()
	return costBase + chunkOf(n) + (n+m)*(8+2*64+domCellPage)
}

// Per listed element of the JSON API: the offset (and, for a slice, the
// input coordinate) and its JSON text, which the encoder grows and
// copies before writing.
const (
	apiPerOffset     = 8 + 3*24
	apiPerCoordinate = 24 + 3*24 // per coordinate, plus apiPerDim per dimension
	apiPerDim        = 8 + 3*12
)

// LayoutAPICost is what POST /api/v1/layout allocates for l.
func LayoutAPICost(l *core.Layout) int64 {
	c := int64(costBase)
	if n := l.LogicalElementCount(); n <= MaxListedElements {
		c += n * apiPerOffset
	}
	return c
}

// SliceAPICost is what the slice answers of the JSON API allocate for s.
func SliceAPICost(s *core.Slice1) int64 {
	c := int64(costBase)
	if m := s.OutputElementCount(); m <= MaxListedElements {
		c += m * (apiPerOffset + apiPerCoordinate + int64(s.Input.Rank())*apiPerDim)
	}
	return c
}
