package tile

import (
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
)

// Cost is what the tile explorer allocates for t, as a page or an edit:
// as the padding explorer's, each cell of both grids when they are drawn.
func Cost(t *core.Tile, edit bool) int64 {
	c := int64(picture.CostBase)
	if edit {
		c += 128 << 10
	}
	if !domDrawn(t) {
		return c + axesLen(t.Output.Sizes)*32 + MaxValues*32
	}
	per := int64(picture.DomCellPage)
	if edit {
		per = picture.DomCellEdit
	}
	return c + (t.Input.LogicalElementCount()+t.Output.LogicalElementCount())*per + t.Output.LogicalElementCount()*32
}

// APICost is what POST /api/v1/tile allocates for t.
func APICost(t *core.Tile) int64 {
	n := min(t.Output.LogicalElementCount(), picture.MaxListedElements)
	perCoord := int64(picture.ApiPerCoordinate) + int64(t.Output.Rank())*picture.ApiPerDim
	return picture.CostBase + n*(perCoord+picture.ApiPerOffset)
}

// SVGCost is what tile.svg allocates for t: the binned picture's
// squares and rasters (two views), and, for a tiling whose grids the
// page draws, the page's picture and each cell's drawing (8 KiB).
func SVGCost(t *core.Tile) int64 {
	c := picture.MapCost(t.Output.Rank(), 2)
	if domDrawn(t) {
		c += Cost(t, false) + (t.Input.LogicalElementCount()+t.Output.LogicalElementCount())*(8<<10)
	}
	return c
}
