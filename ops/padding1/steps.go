package padding1

// Steps is what the page's step-through (static/copy-steps.js) writes a
// step's formula from: the mode's rule per axis needs the start padding
// and the input's sizes, which the meta does not carry. The input
// coordinate itself is never worked out in the browser: it is the
// meta's sources, the server's.
type Steps struct {
	Op       string  `json:"op"`
	Mode     string  `json:"mode"`
	Start    []int64 `json:"start"`
	InSizes  []int64 `json:"inSizes"`
	OutSizes []int64 `json:"outSizes"`
}

// stepsOf is the step-through's numbers of a valid state, nil otherwise.
func stepsOf(v Validated) *Steps {
	if v.P == nil {
		return nil
	}
	p := v.P
	return &Steps{Op: "padding", Mode: p.Mode.String(), Start: p.StartPadding, InSizes: p.Input.Sizes, OutSizes: p.Output.Sizes}
}
