package padding1

import (
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
)

// Cost is what the padding explorer allocates for p, as a page or as an
// edit (whose fragments are also encoded and kept by the answers cache):
// the description and, when the grids are drawn, each input and output
// cell, and the output's sources in the meta.
func Cost(p *core.Padding1, edit bool) int64 {
	c := int64(picture.CostBase) + axesCost(p)
	if edit {
		c += editFragments
	}
	if !domDrawn(p) {
		// A canvas's answer carries each output axis's table (8 bytes
		// and its JSON text an entry), and the typed values.
		return c + axesLen(p.Output.Sizes)*32 + MaxValues*32
	}
	per := int64(picture.DomCellPage)
	if edit {
		per = picture.DomCellEdit
	}
	cells := p.Input.LogicalElementCount() + p.Output.LogicalElementCount()
	// Per output cell: its source in the meta (8 bytes, and its JSON).
	return c + cells*per + p.Output.LogicalElementCount()*32
}

// editFragments is an edit's picture and form fragments beyond its
// cells (as the conversion's: under 64 KiB).
const editFragments = 128 << 10

// axesCost is the per-axis maps the facts print: at most maxAxisShown
// entries of each axis, in text.
func axesCost(p *core.Padding1) int64 {
	return int64(p.Output.Rank()) * maxAxisShown * 48
}

// APICost is what POST /api/v1/padding1 allocates for p: each listed
// output element's coordinate and offset, and their JSON text.
func APICost(p *core.Padding1) int64 {
	n := min(p.Output.LogicalElementCount(), picture.MaxListedElements)
	perCoord := int64(picture.ApiPerCoordinate) + int64(p.Output.Rank())*picture.ApiPerDim
	return picture.CostBase + n*(perCoord+picture.ApiPerOffset)
}

// SVGCost is what padding1.svg allocates for p: the binned picture's
// squares and rasters (two views), and, for a padding whose grids the
// page draws, the page's picture of it and each cell's drawing.
func SVGCost(p *core.Padding1) int64 {
	c := picture.MapCost(p.Output.Rank(), 2)
	if domDrawn(p) {
		cells := p.Input.LogicalElementCount() + p.Output.LogicalElementCount()
		c += Cost(p, false) + cells*svgPerCell
	}
	return c
}

// svgPerCell is a cell of the picture: its drawing, its tip and its text
// in the document (as the conversion's: under 6 KiB).
const svgPerCell = 8 << 10
