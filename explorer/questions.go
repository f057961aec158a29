package explorer

import (
	"context"
	"errors"
	"net/url"
	"slices"
)

// Questioner is a Kind that a classroom room can ask questions about: the
// presenter asks about the state on screen, and the Kind answers it
// exactly, on the server, so that no page ever tells the room what is
// right.
type Questioner interface {
	// QuestionKinds are the kinds of question it asks, in the order the
	// presenter's controls offer them.
	QuestionKinds() []string
	// Question poses ask about the state of q: its answer, the range of
	// answers taken, the working the reveal shows, and the common wrong
	// answers it can name. ErrNoQuestion (wrapped) for a kind it does not
	// ask, an element outside the tensor, or a state with errors.
	Question(ctx context.Context, q url.Values, ask Ask) (Posed, error)
}

// ErrNoQuestion: the state on screen cannot answer the question asked.
var ErrNoQuestion = errors.New("the state on screen cannot answer that question")

// Ask is a question as the presenter asks it.
type Ask struct {
	Kind string `json:"kind"`
	// Element is the logical element asked about, by the kinds that
	// name one.
	Element []int64 `json:"element,omitempty"`
	// Cell is the buffer cell asked about, by the kinds that name one.
	Cell *int64 `json:"cell,omitempty"`
	// Axis is the dimension asked about, by the kinds that name one
	// (the slice's MaxCopiedElements on an axis).
	Axis *int64 `json:"axis,omitempty"`
}

// Posed is a question with its exact answer.
type Posed struct {
	Kind    string
	Element []int64
	Cell    *int64
	Axis    *int64
	// Min and Max bound the answers a student may give.
	Min, Max int64
	// Cells says that the answer is a buffer cell, picked on the picture;
	// Elements that it is a logical element (its row-major index),
	// picked on the logical view.
	Cells, Elements bool
	// Sizes are the logical sizes, with Elements: a page without a
	// script reads an element typed as its coordinates with them.
	Sizes []int64
	// Set says that the answer is a set of cells of the view Grid names
	// (its cells' id prefix, "in"; "" the layout explorer's): CorrectSet,
	// sorted, each cell once, with the wrong sets it can name.
	Set        bool
	Grid       string
	CorrectSet []int64
	WrongSets  []NamedSet
	Correct    int64
	// Explain is the working, in numbers and symbols (every language
	// reads it): the dot product, the size's steps.
	Explain string
	// Wrong are the wrong answers it can name: a key of the pages'
	// words each ("question.wrong.packed").
	Wrong []Named
}

// Named is a wrong answer the explorer can name.
type Named struct {
	Value int64
	Name  string
}

// NameWrong adds v as the wrong answer name to p's, unless it is right,
// named already or outside the answers taken.
func (p *Posed) NameWrong(v int64, name string) {
	if v == p.Correct || v < p.Min || v > p.Max {
		return
	}
	for _, w := range p.Wrong {
		if w.Value == v {
			return
		}
	}
	p.Wrong = append(p.Wrong, Named{Value: v, Name: name})
}

// NamedSet is a wrong set the explorer can name.
type NamedSet struct {
	Values []int64
	Name   string
}

// NameWrongSet adds vs (sorted, each once) as the wrong set name to p's,
// unless it is empty, right or named already.
func (p *Posed) NameWrongSet(vs []int64, name string) {
	if len(vs) == 0 || slices.Equal(vs, p.CorrectSet) {
		return
	}
	for _, w := range p.WrongSets {
		if slices.Equal(w.Values, vs) {
			return
		}
	}
	p.WrongSets = append(p.WrongSets, NamedSet{Values: vs, Name: name})
}
