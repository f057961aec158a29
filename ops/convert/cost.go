package convert

import (
	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
)

// Cost is what the conversion explorer allocates for id: the response
// it is drawn from (APICost), and, when its views are drawn, each
// logical cell and each cell of both buffers, as a page or as an edit
// (whose fragments are also encoded and kept by the answers cache).
func Cost(id *core.Identity, edit bool) int64 {
	c := APICost(id)
	if !drawn(id) {
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

// APICost is what POST /api/v1/identity allocates for id: the offsets
// it lists, and the in-place check's visit (two offsets per element, two
// int32 per input cell) when the tensor is small enough to visit.
func APICost(id *core.Identity) int64 {
	c := int64(picture.CostBase)
	n := id.Input.LogicalElementCount()
	if n <= picture.MaxListedElements {
		c += 2 * n * picture.ApiPerOffset
	}
	if cells := id.Input.IndexOfLastElement() + 1; n <= compute.InPlaceLimit && cells <= compute.InPlaceLimit {
		c += 16*n + compute.InPlaceCost(cells)
	}
	return c
}
