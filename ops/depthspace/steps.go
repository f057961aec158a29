package depthspace

import "github.com/stridescope/stridescope/core"

// Steps is what the page's step-through (static/copy-steps.js) writes a
// step's channel formulas (DML_DEPTH_SPACE_ORDER's, one per order) from:
// the operator, the block size and both tensors' 4-D sizes.
type Steps struct {
	Op       string  `json:"op"` // depthToSpace or spaceToDepth
	Block    int64   `json:"block"`
	InSizes  []int64 `json:"inSizes"`
	OutSizes []int64 `json:"outSizes"`
}

// stepsOf is the step-through's numbers of a valid state, nil otherwise.
func stepsOf(v Validated) *Steps {
	if !v.OK() {
		return nil
	}
	s := v.DCR
	op := "spaceToDepth"
	if s.Op == core.DepthToSpace {
		op = "depthToSpace"
	}
	return &Steps{Op: op, Block: s.BlockSize, InSizes: s.Input.Sizes, OutSizes: s.Output.Sizes}
}
