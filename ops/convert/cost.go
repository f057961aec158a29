package convert

import (
	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
)

// Cost is what the conversion explorer allocates for id, as a page or
// as an edit (whose fragments are also encoded and kept by the answers
// cache): the description it is drawn from, and, when its views are in
// the HTML, each logical cell and each cell of both buffers. Views drawn
// on canvases cost the server nothing per cell: the page draws them from
// the meta.
func Cost(id *core.Identity, edit bool) int64 {
	dom := domDrawn(id)
	c := describeCost(id, dom)
	if edit {
		c += editFragments
	}
	if !dom {
		return c
	}
	per := int64(picture.DomCellPage)
	if edit {
		per = picture.DomCellEdit
	}
	n := id.Input.LogicalElementCount()
	cells := n + id.Input.BufferElementCount() + id.Output.BufferElementCount()
	// Per buffer cell: its count, first element and writer (20 bytes).
	return c + cells*(per+20)
}

// editFragments is an edit's picture and form fragments beyond its
// cells, rendered, encoded in its JSON and kept by the answers cache
// (measured: under 64 KiB).
const editFragments = 128 << 10

// APICost is what POST /api/v1/identity allocates for id.
func APICost(id *core.Identity) int64 {
	return describeCost(id, id.Input.LogicalElementCount() <= picture.MaxListedElements)
}

// describeCost is what describe allocates: the offsets it lists (when
// list), and the in-place check's visit (two offsets per element, two
// int32 per input cell) when the tensor is small enough to visit.
func describeCost(id *core.Identity, list bool) int64 {
	c := int64(picture.CostBase)
	n := id.Input.LogicalElementCount()
	if list {
		c += 2 * n * picture.ApiPerOffset
	}
	if cells := id.Input.IndexOfLastElement() + 1; n <= compute.InPlaceLimit && cells <= compute.InPlaceLimit {
		c += 16*n + compute.InPlaceCost(cells)
	}
	return c
}
