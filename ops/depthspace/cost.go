package depthspace

import (
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
)

// Cost is what the explorer allocates to draw s in both orders, as a
// page or as an edit (whose fragments are also encoded and kept by the
// answers cache): when the views are in the HTML, per input element its
// two output cells and its own, each with its offsets, value and
// coordinates as text. A state drawn in no view costs its description.
func Cost(s *core.DepthSpace, edit bool) int64 {
	c := int64(picture.CostBase)
	if edit {
		c += editFragments
	}
	if !domDrawn(s) {
		return c
	}
	per := int64(picture.DomCellPage)
	if edit {
		per = picture.DomCellEdit
	}
	n := s.Input.LogicalElementCount()
	// Three views of n cells; per element its input offset and both
	// orders' sources (meta), and its value as text.
	return c + 3*n*per + n*(3*8+64)
}

// editFragments is an edit's picture and form fragments beyond its
// cells, rendered, encoded in its JSON and kept by the answers cache.
const editFragments = 128 << 10

// APICost is what the JSON endpoints allocate for s: per listed element
// its offset and its input coordinate, as the slice's answers do.
func APICost(s *core.DepthSpace) int64 {
	c := int64(picture.CostBase)
	if m := s.OutputElementCount(); m <= picture.MaxListedElements {
		c += m * (picture.ApiPerOffset + picture.ApiPerCoordinate + 4*picture.ApiPerDim)
	}
	return c
}

// SVGCost is what depthspace.svg allocates for s: the binned picture's
// squares and rasters (three views), and, for a state drawn cell by cell
// as the page draws it, the page's picture and each cell's drawing.
func SVGCost(s *core.DepthSpace) int64 {
	c := picture.MapCost(4, 3)
	if domDrawn(s) {
		c += Cost(s, false) + 3*s.Input.LogicalElementCount()*svgPerCell
	}
	return c
}

// svgPerCell is a cell of the picture: its drawing and its text.
const svgPerCell = 2 << 10
