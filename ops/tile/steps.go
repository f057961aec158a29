package tile

// Steps is what the page's step-through (static/copy-steps.js) writes a
// step's formula, Output[o] = Input[o mod InputSizes], from.
type Steps struct {
	Op       string  `json:"op"`
	InSizes  []int64 `json:"inSizes"`
	OutSizes []int64 `json:"outSizes"`
}

// stepsOf is the step-through's numbers of a valid state, nil otherwise.
func stepsOf(v Validated) *Steps {
	if v.T == nil {
		return nil
	}
	return &Steps{Op: "tile", InSizes: v.T.Input.Sizes, OutSizes: v.T.Output.Sizes}
}
