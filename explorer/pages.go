package explorer

import (
	"strconv"
	"strings"
)

// Pages are the pages a classroom room can show: every explorer's own
// page, and each step of the guided tour. A room's state names a page
// (and, for the tour, a step); PagePath maps it to a path and PageAt
// maps a path back. A page here gets the "Present this" button, its
// presenter's ?room=CODE and its viewers' /r/CODE; its script shares and
// applies the state with static/rooms.js.
type Pages struct {
	Kinds Kinds
	// TourSteps is how many steps the tour has (/tour/1 to /tour/N).
	TourSteps int
	// TourStep, when set, is the explorer tour step n (1 to TourSteps)
	// shows, its state before any edit, and the question it asks the
	// class, if one an explorer can check (nil: none).
	TourStep func(n int) (page, query string, ask *Ask)
}

// StateAt is the explorer that a room's page at step shows and the state
// query stands for there: a tour step's own state while the presenter
// has not edited it (query empty). ok is false for a page no explorer
// shows.
func (p Pages) StateAt(page string, step int, query string) (k Kind, q string, ok bool) {
	if page == TourPage {
		if p.TourStep == nil || step < 1 || step > p.TourSteps {
			return nil, "", false
		}
		name, own, _ := p.TourStep(step)
		if query == "" {
			query = own
		}
		page = name
	}
	k, ok = p.Kinds.Find(page)
	return k, query, ok
}

// TourPage is the name of the tour's pages in a room's state.
const TourPage = "tour"

// PagePath is the path of page at step. A tour state's step is 1 to
// TourSteps (0 stands for 1); an explorer's page has no steps and
// ignores one, but never takes a negative one.
func (p Pages) PagePath(page string, step int) (string, bool) {
	if page == TourPage {
		return "/tour/" + strconv.Itoa(max(step, 1)), step >= 0 && step <= p.TourSteps
	}
	if k, ok := p.Kinds.Find(page); ok {
		return k.Routes().Page, step >= 0
	}
	return "", false
}

// PageAt is the page (and the tour's step) at path.
func (p Pages) PageAt(path string) (page string, step int, ok bool) {
	for _, k := range p.Kinds {
		if k.Routes().Page == path {
			return k.Name(), 0, true
		}
	}
	if n, ok := strings.CutPrefix(path, "/tour/"); ok {
		if step, err := strconv.Atoi(n); err == nil && step >= 1 && step <= p.TourSteps && strconv.Itoa(step) == n {
			return TourPage, step, true
		}
	}
	return "", 0, false
}
