package views

import "github.com/a-h/templ"

// Tour is one step of the guided tour (/tour/N): a title, a few
// sentences, a question to try, and a live explorer state (or, for the
// DML_SLICE1 steps, the slice worked out).
type Tour struct {
	N, Total int // this step, from 1
	Steps    []TourLink
	Title    string
	Text     []string
	Question string
	Answer   string
	// Prev and Next are the neighbours' links ("" for none);
	// NextTitle names the next step.
	Prev, Next, NextTitle string
	// Reset is the step's own link, without an edited state.
	Reset string
	// Slice is a DML_SLICE1 step: the page's example worked out.
	Slice *TourSlice
	// Explorer is the step's live explorer, on the step's state.
	Explorer templ.Component
}

// TourLink is one entry of the list of steps.
type TourLink struct {
	N       int
	Title   string
	Href    string
	Current bool
}

// TourSlice is a DML_SLICE1 step: the page's example computed by core and
// the slice engine, with the errata of the page it touches.
type TourSlice struct {
	Href    string // the slice explorer on this example
	Numbers []Fact // the window, CopyStart, MaxCopiedElements, the output
	Errata  []Fact // Name "E1", Value the note
}

func ariaCurrent(b bool) string {
	if b {
		return "step"
	}
	return "false"
}
