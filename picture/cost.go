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
	// CostBase is every request's share: the form, facts, presets, the
	// page's frame and the strings its modules read, the query and its
	// validation. A canvas page's share measured 0.31 MiB once the
	// header's operators index, the check and the room's questions came
	// (#40, #41): 0.34 MiB.
	CostBase = 352 << 10
	// DomCellPage is a DOM cell drawn on a page: its view model (index,
	// coordinate, label, classes, aria text) and its HTML as written
	// (measured: up to 3.2 KiB).
	DomCellPage = 4 << 10
	// domCellSVG is a cell of the layout's SVG picture, whose drawing
	// holds more text than a page's cell (measured: 5.4 KiB).
	domCellSVG = 6 << 10
	// DomCellEdit is a DOM cell sent by an edit: the view model, the
	// rendered HTML fragment (grown, then copied into a string), its JSON
	// encoding (HTML escapes included) and the answers cache's copy
	// (measured: up to 8.1 KiB).
	DomCellEdit = 10 << 10
	// StreamFrames is the binary frames of one streaming edit alive at
	// once: queued to the writer (4), being written and being built, of
	// up to 1 MiB each, and a margin for the pool's refills.
	StreamFrames = 8 * (StreamFrameHeaderLen + 1<<20)
)

// What a websocket edit's stream holds, as live sends it: live's tests
// check that these match its own constants.
const (
	StreamFrameHeaderLen = 24      // live.FrameHeaderLen
	StreamAnswerRecord   = 8 << 20 // the largest answer live keeps to share
)

// ChunkOf is the chunk of offsets a walk of n elements is enumerated in
// (compute.Offsets, offsetChunk at a time).
func ChunkOf(n int64) int64 { return 8 * min(n, OffsetChunk) }

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
		return DomCellEdit
	}
	return DomCellPage
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
	c := int64(CostBase) + ChunkOf(n) // linkedText walks a chunk at a time
	if lm == views.ModeDOM {
		c += n * (8 + perCell) // the offsets, and the cell
	}
	if bm == views.ModeDOM {
		c += cells * (4 + 8 + perCell) // the counts, the first elements, the cell
		if lm != views.ModeDOM {
			c += ChunkOf(n) // firstElements walks a chunk at a time
		}
	}
	if !edit || lm != views.ModeCanvas && bm != views.ModeCanvas {
		return c
	}
	c += StreamFrames + StreamAnswerRecord // the frames, and the cache's record of the first of them
	if bm == views.ModeCanvas {
		if l.HasOverlap() == core.TriFalse {
			c += (cells + 63) / 64 * 8 // the bitmap of the cells in use
		} else {
			c += 4 * cells // a count per cell
		}
	}
	return c
}

// Per listed element of the JSON API: the offset (and, for a slice, the
// input coordinate) and its JSON text, which the encoder grows and
// copies before writing.
const (
	ApiPerOffset     = 8 + 3*24
	ApiPerCoordinate = 24 + 3*24 // per coordinate, plus apiPerDim per dimension
	ApiPerDim        = 8 + 3*12
)

// RasterCost is a binned view's raster: the paletted image of up to
// 512 × 512 pixels, the PNG encoder's compressor and buffers, the PNG
// and its base64 text in the picture (measured: about 1.3 MiB).
const RasterCost = 2 << 20

// BinnedCost is what a binned picture allocates (picture.LayoutBinned,
// the slice's): its walks over n elements a chunk at a time, the counts
// of every square, the coordinates of the first element of each square
// of a tensor of rank dimensions, and its rasters.
func BinnedCost(n int64, rank, walks, rasters int) int64 {
	const squares = views.MaxBinsPerSide * views.MaxBinsPerSide
	return CostBase + int64(walks)*ChunkOf(min(n, MaxBinnedWalk)) + int64(walks+1)*squares*8 +
		int64(rasters)*squares*int64(64+16*rank) + int64(rasters)*RasterCost
}
