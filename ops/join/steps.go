package join

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"

	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

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

// pageStep is the step a page opened at t= shows without JavaScript,
// its cells marked in pic: copy-formulas.js's joinLines, from core. A
// split's steps are its outputs' elements, one output after another.
// Past the grids, up to the canvases' limit, the page without JavaScript
// shows the picture as SVG: the bar still writes the step's formula (and
// links the steps on either side), with no cell to mark.
func pageStep(q url.Values, v Validated, pic *PictureView) *views.CopyStep {
	if !Drawn(v) && !canvasDrawn(v) {
		return nil
	}
	var s *views.CopyStep
	switch {
	case v.Join != nil:
		j := v.Join
		if s = views.StepOf("/joinsplit", q, j.Output.LogicalElementCount()); s == nil {
			return nil
		}
		c := j.Output.Coordinate(s.K)
		k, from := j.SourceOf(slices.Clone(c))
		markIn(pic.Outputs, "step-out", "o0-"+strconv.FormatInt(s.K, 10))
		markIn(pic.Inputs, "step-src", fmt.Sprintf("i%d-%d", k, picture.RowMajorIndex(j.Inputs[k].Sizes, from)))
		s.Lines = []string{fmt.Sprintf("OutputTensor[%s] = InputTensors[%d][%s] = InputTensors[%d][%s]", picture.StepAt(c), k, shifted(c, j.Axis, picture.StepMinus, j.Starts[k]), k, picture.StepAt(from))}
	case v.Split != nil:
		sp := v.Split
		var total int64
		for _, o := range sp.Outputs {
			total += o.LogicalElementCount()
		}
		if s = views.StepOf("/joinsplit", q, total); s == nil {
			return nil
		}
		k, i := 0, s.K
		for i >= sp.Outputs[k].LogicalElementCount() {
			i -= sp.Outputs[k].LogicalElementCount()
			k++
		}
		c := sp.Outputs[k].Coordinate(i)
		from := slices.Clone(c)
		from[sp.Axis] += sp.Starts[k]
		markIn(pic.Outputs, "step-out", fmt.Sprintf("o%d-%d", k, i))
		markIn(pic.Inputs, "step-src", "i0-"+strconv.FormatInt(picture.RowMajorIndex(sp.Input.Sizes, from), 10))
		s.Lines = []string{fmt.Sprintf("OutputTensors[%d][%s] = InputTensor[%s] = InputTensor[%s]", k, picture.StepAt(c), shifted(c, sp.Axis, "+", sp.Starts[k]), picture.StepAt(from))}
	}
	return s
}

// shifted writes c with its axis coordinate and the start: {0, 1, 3 − 2}.
func shifted(c []int64, axis int, sign string, start int64) string {
	ts := make([]string, len(c))
	for d, v := range c {
		ts[d] = picture.StepInt(v)
		if d == axis {
			ts[d] += " " + sign + " " + picture.StepInt(start)
		}
	}
	return picture.StepTerms(ts)
}

// markIn marks the cell id of whichever grid of ts holds it.
func markIn(ts []TensorView, class, id string) {
	for i := range ts {
		views.MarkCells(&ts[i].Logical, class, id)
	}
}
