package tile

import (
	"fmt"
	"net/url"
	"strconv"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

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

// pageStep is the step a page opened at t= shows without JavaScript,
// its cells marked in pic: copy-formulas.js's tileLines, from core.
func pageStep(q url.Values, tl *core.Tile, pic *PictureView) *views.CopyStep {
	if pic.Output.Mode != views.ModeDOM {
		return nil
	}
	s := views.StepOf("/tile", q, tl.Output.LogicalElementCount())
	if s == nil {
		return nil
	}
	c := tl.Output.Coordinate(s.K)
	from, ts := make([]int64, len(c)), make([]string, len(c))
	for d, o := range c {
		from[d] = o % tl.Input.Sizes[d]
		ts[d] = fmt.Sprintf("%d mod %d", o, tl.Input.Sizes[d])
	}
	views.MarkCells(&pic.Output, "step-out", "out-"+strconv.FormatInt(s.K, 10))
	views.MarkCells(&pic.Input, "step-src", "in-"+strconv.FormatInt(picture.RowMajorIndex(tl.Input.Sizes, from), 10))
	s.Lines = []string{"Output[" + picture.StepAt(c) + "] = Input[" + picture.StepTerms(ts) + "] = Input[" + picture.StepAt(from) + "]"}
	return s
}
