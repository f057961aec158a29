package slice1

import (
	"context"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

var _ explorer.Questioner = Kind{}

// The slice explorer's questions, both answered on the input grid (its
// cells' ids are "in-N", N the input element's row-major index).
const (
	// QuestionReads: tap every cell the slice reads (a set).
	QuestionReads = "reads"
	// QuestionSource: which input element does output element (i, j, ...)
	// come from? One tap.
	QuestionSource = "source"
	// QuestionMaxCopied: MaxCopiedElements on an axis, typed.
	QuestionMaxCopied = "maxcopied"
)

// inputGrid is the id prefix of the input grid's cells.
const inputGrid = "in"

// QuestionKinds are the slice explorer's questions.
func (Kind) QuestionKinds() []string {
	return []string{QuestionReads, QuestionSource, QuestionMaxCopied}
}

// Question answers ask about q's slice with core's exact rules. The answer
// is picked on the input grid, so the input must be drawn as cells (up to
// views.MaxDOMCells).
func (Kind) Question(_ context.Context, q url.Values, ask explorer.Ask) (explorer.Posed, error) {
	st, qvs := StateFromQuery(q)
	v := Validate(st, qvs)
	if v.Slice == nil {
		return explorer.Posed{}, fmt.Errorf("%w: the slice has errors", explorer.ErrNoQuestion)
	}
	s := v.Slice
	if n := s.Input.LogicalElementCount(); n > views.MaxDOMCells {
		return explorer.Posed{}, fmt.Errorf("%w: the input has %d elements, more than the %d a class taps as cells", explorer.ErrNoQuestion, n, views.MaxDOMCells)
	}
	switch ask.Kind {
	case QuestionReads:
		return readsQuestion(s), nil
	case QuestionSource:
		return sourceQuestion(s, ask)
	case QuestionMaxCopied:
		return maxCopiedQuestion(s, ask)
	}
	return explorer.Posed{}, fmt.Errorf("%w: the slice explorer asks %q", explorer.ErrNoQuestion, Kind{}.QuestionKinds())
}

// readsQuestion: the set of input elements the slice reads, and the sets
// of the usual slips.
func readsQuestion(s *core.Slice1) explorer.Posed {
	axes := make([][]int64, len(s.OutputSizes))
	for d := range axes {
		axes[d] = walkAxis(s.CopyStart[d], s.WindowStrides[d], s.OutputSizes[d], s.Input.Sizes[d])
	}
	p := explorer.Posed{Kind: QuestionReads, Set: true, Grid: inputGrid, Max: s.Input.LogicalElementCount() - 1, Sizes: slices.Clone(s.Input.Sizes),
		CorrectSet: product(s.Input.Sizes, axes), Explain: axesWorking(axes)}
	p.NameWrongSet(slip(s, wrongEnd), "question.wrong.wrongEnd")
	p.NameWrongSet(slip(s, inclusiveEnd), "question.wrong.inclusiveEnd")
	p.NameWrongSet(slip(s, strideAsOffset), "question.wrong.strideOffset")
	p.NameWrongSet(slip(s, everyCell), "question.wrong.everyCell")
	return p
}

// An axisSlip is the coordinates a student who slips reads on axis d.
type axisSlip func(s *core.Slice1, d int) []int64

// inclusiveEnd takes the window's end, offset + size, as inclusive: one
// more element where the stride reaches it (MaxCopiedElements 1 +
// size/|stride|), counted from offset + size for a negative stride.
func inclusiveEnd(s *core.Slice1, d int) []int64 {
	off, size, stride := s.WindowOffsets[d], s.WindowSizes[d], s.WindowStrides[d]
	start := off
	if stride < 0 {
		start = off + size
	}
	n := s.OutputSizes[d] + 1 + size/abs(stride) - s.MaxCopied[d]
	return walkAxis(start, stride, n, s.Input.Sizes[d])
}

// wrongEnd reads a negative stride from the window's start (its offset)
// forward rather than from its end (CopyStart) backward.
func wrongEnd(s *core.Slice1, d int) []int64 {
	return walkAxis(s.WindowOffsets[d], abs(s.WindowStrides[d]), s.OutputSizes[d], s.Input.Sizes[d])
}

// strideAsOffset takes the window's stride for its offset: the walk
// starts |stride| in, and steps as the stride says.
func strideAsOffset(s *core.Slice1, d int) []int64 {
	stride := abs(s.WindowStrides[d])
	return walkAxis(stride, stride, s.OutputSizes[d], s.Input.Sizes[d])
}

// everyCell ignores the stride: every element of the window.
func everyCell(s *core.Slice1, d int) []int64 {
	return walkAxis(s.WindowOffsets[d], 1, s.WindowSizes[d], s.Input.Sizes[d])
}

// slip is the set of input elements a student who slips on every axis
// reads. An axis where the slip leaves no cell (a size-1 axis whose only
// element the slip walks past) keeps the slice's own: a student taps
// something on every axis.
func slip(s *core.Slice1, f axisSlip) []int64 {
	axes := make([][]int64, len(s.OutputSizes))
	for d := range axes {
		if axes[d] = f(s, d); len(axes[d]) == 0 {
			axes[d] = walkAxis(s.CopyStart[d], s.WindowStrides[d], s.OutputSizes[d], s.Input.Sizes[d])
		}
	}
	return product(s.Input.Sizes, axes)
}

// walkAxis is start, start+stride, ... (n of them), less those outside an
// axis of size: a student taps no cell that is not drawn.
func walkAxis(start, stride, n, size int64) []int64 {
	var out []int64
	for k := range max(n, 0) {
		if c := start + stride*k; c >= 0 && c < size {
			out = append(out, c)
		}
	}
	return out
}

// product is the sorted row-major indices of every coordinate whose axes
// take the values of axes (an input drawn as cells has at most 256).
func product(sizes []int64, axes [][]int64) []int64 {
	out := []int64{0}
	for d, cs := range axes {
		next := make([]int64, 0, len(out)*len(cs))
		for _, i := range out {
			for _, c := range cs {
				next = append(next, i*sizes[d]+c)
			}
		}
		out = next
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// axesWorking is the reads' working: each axis's coordinates read,
// "{0} × {3, 1} × {1, 3}".
func axesWorking(axes [][]int64) string {
	parts := make([]string, len(axes))
	for d, cs := range axes {
		parts[d] = "{" + joinCoord(cs, ", ") + "}"
	}
	return strings.Join(parts, " × ")
}

// sourceQuestion: the input element output element ask.Element comes
// from (CopyStart + strides × c), and the ones of the usual slips.
func sourceQuestion(s *core.Slice1, ask explorer.Ask) (explorer.Posed, error) {
	c := ask.Element
	if len(c) != len(s.OutputSizes) {
		return explorer.Posed{}, fmt.Errorf("%w: an output element has %d coordinates", explorer.ErrNoQuestion, len(s.OutputSizes))
	}
	for d, x := range c {
		if x < 0 || x >= s.OutputSizes[d] {
			return explorer.Posed{}, fmt.Errorf("%w: the output's sizes are %v", explorer.ErrNoQuestion, s.OutputSizes)
		}
	}
	from := make([]int64, len(c))
	for d, x := range c {
		from[d] = s.CopyStart[d] + s.WindowStrides[d]*x
	}
	p := explorer.Posed{Kind: QuestionSource, Element: slices.Clone(c), Elements: true, Grid: inputGrid, Sizes: slices.Clone(s.Input.Sizes),
		Max: s.Input.LogicalElementCount() - 1, Correct: picture.RowMajorIndex(s.Input.Sizes, from),
		Explain: "(" + joinCoord(s.CopyStart, ", ") + ") + (" + joinCoord(s.WindowStrides, ", ") + ") × (" + joinCoord(c, ", ") + ") = (" + joinCoord(from, ", ") + ")"}
	nameCoord := func(name string, f func(d int) int64) {
		wrong := make([]int64, len(c))
		for d := range c {
			if wrong[d] = f(d); wrong[d] < 0 || wrong[d] >= s.Input.Sizes[d] {
				return
			}
		}
		p.NameWrong(picture.RowMajorIndex(s.Input.Sizes, wrong), name)
	}
	nameCoord("question.wrong.wrongEnd", func(d int) int64 { return s.WindowOffsets[d] + abs(s.WindowStrides[d])*c[d] })
	nameCoord("question.wrong.noStride", func(d int) int64 { return s.CopyStart[d] + c[d] })
	nameCoord("question.wrong.sameCoord", func(d int) int64 { return c[d] })
	return p, nil
}

func joinCoord(xs []int64, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatInt(x, 10)
	}
	return strings.Join(parts, sep)
}

func abs(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// maxCopiedQuestion: MaxCopiedElements on an axis, 1 + (size - 1) /
// |stride|, and the counts of its usual slips: size / |stride| (the
// formula without its 1 and -1), the end taken as inclusive (1 + size /
// |stride|), and the window's size (the stride ignored).
func maxCopiedQuestion(s *core.Slice1, ask explorer.Ask) (explorer.Posed, error) {
	r := int64(len(s.WindowSizes))
	if ask.Axis == nil || *ask.Axis < 0 || *ask.Axis >= r {
		return explorer.Posed{}, fmt.Errorf("%w: an axis of the slice, 0 to %d", explorer.ErrNoQuestion, r-1)
	}
	d := *ask.Axis
	size, stride := s.WindowSizes[d], abs(s.WindowStrides[d])
	p := explorer.Posed{Kind: QuestionMaxCopied, Axis: &d, Correct: s.MaxCopied[d], Max: maxTypedCount,
		Explain: fmt.Sprintf("1 + (%d − 1) / |%d| = 1 + %d / %d = %d", size, s.WindowStrides[d], size-1, stride, s.MaxCopied[d])}
	p.NameWrong(size/stride, "question.wrong.noPlusOne")
	p.NameWrong(1+size/stride, "question.wrong.inclusiveEnd")
	p.NameWrong(size, "question.wrong.noStride")
	return p, nil
}

// maxTypedCount bounds a typed count: a window size is a UINT.
const maxTypedCount = core.MaxUINT
