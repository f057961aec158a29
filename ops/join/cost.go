package join

import (
	"github.com/stridescope/stridescope/picture"
)

// Cost is what the join and split explorer allocates for a valid state,
// as a page or as an edit (whose fragments are also encoded and kept by
// the answers cache): the description, and each grid cell when the
// grids are drawn (the inputs' and the outputs', as many each). A state
// too large for the grids is described by its copies alone.
func Cost(v Validated, edit bool) int64 {
	c := int64(picture.CostBase) + tensorsCost(v)
	if edit {
		c += editFragments
	}
	if !Drawn(v) {
		return c
	}
	per := int64(picture.DomCellPage)
	if edit {
		per = picture.DomCellEdit
	}
	// Per element: its cell on each side, and the maps that link them
	// (value, source, destination: 40 bytes).
	return c + elementCount(v)*(2*per+40)
}

// editFragments is an edit's form fragment beyond its cells, rendered,
// encoded in its JSON and kept by the answers cache.
const editFragments = 64 << 10

// tensorsCost is each tensor's layout, its copy's line and its C++
// declaration (measured: 7 KiB each at rank 2; 16 KiB).
func tensorsCost(v Validated) int64 {
	n := int64(1)
	if v.Join != nil {
		n += int64(len(v.Join.Inputs))
	}
	if v.Split != nil {
		n += int64(len(v.Split.Outputs))
	}
	return n << 14
}

// JoinAPICost is what POST /api/v1/join allocates: each source listed
// (an input index and a coordinate of up to 8 dimensions, and its JSON
// in a growing buffer: measured 270 bytes at rank 8, web/budget_test.go),
// and each input's window and C++ (16 KiB).
func JoinAPICost(outputElements int64, inputs int) int64 {
	return picture.CostBase + min(outputElements, picture.MaxListedElements)*384 + int64(inputs)<<14
}

// SplitAPICost is what POST /api/v1/split allocates: each output's
// window and its C++ (measured: 7 KiB each at rank 2; 16 KiB).
func SplitAPICost(outputs int) int64 { return picture.CostBase + int64(outputs)<<14 }
