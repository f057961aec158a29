package padding1

import (
	"context"
	"fmt"
	"net/url"
	"strconv"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

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

// padTerm is axis d's input coordinate for output coordinate o, written
// as the mode computes it (core.PadSource; copy-formulas.js's padTerm).
func padTerm(m core.PaddingMode, o, start, size int64) string {
	x := "(" + picture.StepDiff(o, start) + ")"
	mod := func(a, n int64) int64 { return ((a % n) + n) % n }
	switch m {
	case core.PadEdge:
		return fmt.Sprintf("min(max(%s, 0), %d)", picture.StepDiff(o, start), size-1)
	case core.PadReflection:
		if size == 1 {
			return "0"
		}
		p := 2 * (size - 1)
		if mod(o-start, p) < size {
			return fmt.Sprintf("%s mod %d", x, p)
		}
		return fmt.Sprintf("%d %s %s mod %d", p, picture.StepMinus, x, p)
	case core.PadSymmetric:
		p := 2 * size
		if mod(o-start, p) < size {
			return fmt.Sprintf("%s mod %d", x, p)
		}
		return fmt.Sprintf("%d %s %s mod %d", p-1, picture.StepMinus, x, p)
	case core.PadWrap:
		return fmt.Sprintf("%s mod %d", x, size)
	}
	return picture.StepDiff(o, start)
}

// pageStep is the step a page opened at t= shows without JavaScript,
// its cells marked in pic: the lines copy-formulas.js's paddingLines
// writes, from core.
func pageStep(ctx context.Context, q url.Values, p *core.Padding1, pic *PictureView) *views.CopyStep {
	if pic.Output.Mode != views.ModeDOM {
		return nil
	}
	s := views.StepOf("/padding", q, p.Output.LogicalElementCount())
	if s == nil {
		return nil
	}
	c, out := p.Output.Coordinate(s.K), "out-"+strconv.FormatInt(s.K, 10)
	labels := views.MarkCells(&pic.Output, "step-out", out)
	from, ts, ds, ks := make([]int64, len(c)), make([]string, len(c)), make([]string, len(c)), make([]int64, len(c))
	pad := false
	for d, o := range c {
		from[d] = core.PadSource(p.Mode, p.Input.Sizes[d], p.StartPadding[d], o)
		pad = pad || from[d] < 0
		ts[d] = padTerm(p.Mode, o, p.StartPadding[d], p.Input.Sizes[d])
		ds[d], ks[d] = picture.StepDiff(o, p.StartPadding[d]), o-p.StartPadding[d]
	}
	head := "Output[" + picture.StepAt(c) + "]"
	if pad {
		s.Lines = []string{i18n.T(ctx, "js.copysteps.pad", i18n.Args{"out": head, "expr": picture.StepTerms(ds) + " = " + picture.StepAt(ks), "value": labels[out]})}
		return s
	}
	views.MarkCells(&pic.Input, "step-src", "in-"+strconv.FormatInt(picture.RowMajorIndex(p.Input.Sizes, from), 10))
	s.Lines = []string{head + " = Input[" + picture.StepTerms(ts) + "]", "= Input[" + picture.StepAt(from) + "]"}
	return s
}
