package layout

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
)

var _ explorer.Questioner = Kind{}

// The layout explorer's questions.
const (
	// QuestionCell: which buffer cell holds element (i, j, ...)? Picked
	// on the buffer.
	QuestionCell = "cell"
	// QuestionOffset: the same, typed as a number.
	QuestionOffset = "offset"
	// QuestionBytes: what does DMLCalcBufferTensorSize return, in bytes?
	QuestionBytes = "bytes"
	// QuestionElement: which element does buffer cell n hold? Picked on
	// the logical view (the answer is its row-major index).
	QuestionElement = "element"
)

// maxElementSearch bounds the elements searched for a cell's holder: a
// picture that draws every cell has far fewer.
const maxElementSearch = 1 << 16

// maxTyped bounds a typed answer: every size the explorer draws is far
// below it, and JSON numbers are exact up to it.
const maxTyped = 1 << 53

// QuestionKinds are the layout explorer's questions.
func (Kind) QuestionKinds() []string {
	return []string{QuestionCell, QuestionOffset, QuestionElement, QuestionBytes}
}

// Question answers ask about q's tensor with core's exact rules.
func (Kind) Question(_ context.Context, q url.Values, ask explorer.Ask) (explorer.Posed, error) {
	st, qvs := picture.LayoutStateFromQuery(q)
	v := picture.Validate(st, qvs)
	if v.Layout == nil {
		return explorer.Posed{}, fmt.Errorf("%w: the tensor has errors", explorer.ErrNoQuestion)
	}
	l := v.Layout
	switch ask.Kind {
	case QuestionCell, QuestionOffset:
		return elementQuestion(l, ask)
	case QuestionBytes:
		return bytesQuestion(l), nil
	case QuestionElement:
		return holderQuestion(l, ask)
	}
	return explorer.Posed{}, fmt.Errorf("%w: the layout explorer asks %q", explorer.ErrNoQuestion, Kind{}.QuestionKinds())
}

// elementQuestion: the buffer offset of an element, and the offsets a
// student who mixes up the strides would give.
func elementQuestion(l *core.Layout, ask explorer.Ask) (explorer.Posed, error) {
	off, err := l.Offset(ask.Element)
	if err != nil {
		return explorer.Posed{}, fmt.Errorf("%w: %v", explorer.ErrNoQuestion, err)
	}
	p := explorer.Posed{Kind: ask.Kind, Element: slices.Clone(ask.Element), Correct: off, Max: maxTyped, Explain: dotProduct(ask.Element, l.Strides, off)}
	if ask.Kind == QuestionCell {
		p.Cells, p.Max = true, l.BufferElementCount()-1
	}
	p.NameWrong(dot(ask.Element, core.PackedStrides(l.Sizes)), "question.wrong.packed")
	p.NameWrong(dot(ask.Element, reversed(l.Strides)), "question.wrong.reversed")
	if bits := l.ElementSizeInBits(); bits >= 8 {
		p.NameWrong(off*bits/8, "question.wrong.bytes")
	}
	return p, nil
}

// holderQuestion: the element a buffer cell holds, when exactly one does,
// and the one a student who takes the buffer for packed would pick.
func holderQuestion(l *core.Layout, ask explorer.Ask) (explorer.Posed, error) {
	if ask.Cell == nil || *ask.Cell < 0 || *ask.Cell >= l.BufferElementCount() {
		return explorer.Posed{}, fmt.Errorf("%w: a cell of the buffer, 0 to %d", explorer.ErrNoQuestion, l.BufferElementCount()-1)
	}
	offs, err := l.Offsets(maxElementSearch)
	if err != nil {
		return explorer.Posed{}, fmt.Errorf("%w: %v", explorer.ErrNoQuestion, err)
	}
	cell, holder := *ask.Cell, int64(-1)
	for i, o := range offs {
		if o != cell {
			continue
		}
		if holder >= 0 {
			return explorer.Posed{}, fmt.Errorf("%w: cell %d holds several elements", explorer.ErrNoQuestion, cell)
		}
		holder = int64(i)
	}
	if holder < 0 {
		return explorer.Posed{}, fmt.Errorf("%w: cell %d holds no element", explorer.ErrNoQuestion, cell)
	}
	coord := coordOf(l.Sizes, holder)
	p := explorer.Posed{Kind: QuestionElement, Cell: &cell, Elements: true, Sizes: slices.Clone(l.Sizes), Correct: holder, Max: l.LogicalElementCount() - 1,
		Explain: dotProduct(coord, l.Strides, cell)}
	p.NameWrong(cell, "question.wrong.packedElement")
	return p, nil
}

// coordOf is the coordinate of row-major index i.
func coordOf(sizes []int64, i int64) []int64 {
	c := make([]int64, len(sizes))
	for d := len(sizes) - 1; d >= 0; d-- {
		c[d] = i % sizes[d]
		i /= sizes[d]
	}
	return c
}

// bytesQuestion: DMLCalcBufferTensorSize, and the sizes of its usual
// slips (elements for bytes, no rounding to 4, the packed size).
func bytesQuestion(l *core.Layout) explorer.Posed {
	s := l.BufferSizeSteps()
	p := explorer.Posed{Kind: QuestionBytes, Correct: s.Result, Max: maxTyped}
	if s.StridesGiven {
		p.Explain = fmt.Sprintf("(%d + 1) × %d bits = %d bits = %d B → %d B", s.IndexOfLastElement, s.ElementSizeInBits, s.SizeInBits, s.BytesBeforeRounding, s.Result)
	} else {
		p.Explain = fmt.Sprintf("%d × %d bits = %d bits = %d B → %d B", s.ElementCount, s.ElementSizeInBits, s.SizeInBits, s.BytesBeforeRounding, s.Result)
	}
	p.NameWrong(s.ElementCount, "question.wrong.elements")
	p.NameWrong(s.BytesBeforeRounding, "question.wrong.unrounded")
	packed := core.CalcBufferTensorSize(l.DataType, l.Sizes, nil)
	p.NameWrong(packed.Result, "question.wrong.packedSize")
	p.NameWrong(l.BufferSizeInBytes(), "question.wrong.total")
	return p
}

// dot is coord · strides (both within a validated layout: no overflow).
func dot(coord, strides []int64) int64 {
	var n int64
	for i, c := range coord {
		n += c * strides[i]
	}
	return n
}

func reversed(xs []int64) []int64 {
	out := slices.Clone(xs)
	slices.Reverse(out)
	return out
}

// dotProduct is the working of an element's offset: "1×5 + 2×1 = 7".
func dotProduct(coord, strides []int64, off int64) string {
	terms := make([]string, len(coord))
	for i, c := range coord {
		terms[i] = strconv.FormatInt(c, 10) + "×" + strconv.FormatInt(strides[i], 10)
	}
	return strings.Join(terms, " + ") + " = " + strconv.FormatInt(off, 10)
}
