package join

// Steps is what the page's step-through (static/copy-steps.js) writes a
// step's formula from: the axis and where each input starts along it in
// the output (a join), or each output in the input (a split), as core
// has them (Join.Starts, Split.Starts).
type Steps struct {
	Op     string  `json:"op"` // join or split
	Axis   int     `json:"axis"`
	Starts []int64 `json:"starts"`
}

// stepsOf is the step-through's numbers of a valid state, nil otherwise.
func stepsOf(v Validated) *Steps {
	switch {
	case v.Join != nil:
		return &Steps{Op: "join", Axis: v.Join.Axis, Starts: v.Join.Starts}
	case v.Split != nil:
		return &Steps{Op: "split", Axis: v.Split.Axis, Starts: v.Split.Starts}
	}
	return nil
}
