package rooms

import (
	"strconv"
	"strings"
)

// PagePath is the path of a page a room can show. A State's page (and, for the tour, its
// step) names a path; PageAt maps a path back. A page here gets the
// "Present this" button, its presenter's ?room=CODE and its viewers'
// /r/CODE; its script shares and applies the state with static/rooms.js.
// A tour state's step is 1 to TourSteps (0 stands for 1); another page
// has no steps and ignores one, but never takes a negative one.
func PagePath(page string, step int) (string, bool) {
	switch page {
	case "layout":
		return "/", step >= 0
	case "slice":
		return "/slice", step >= 0
	case "tour":
		return "/tour/" + strconv.Itoa(max(step, 1)), step >= 0 && step <= TourSteps
	}
	return "", false
}

// TourSteps is how many steps the guided tour has (/tour/1 to /tour/11;
// web's tests hold it to the tour's own list).
const TourSteps = 11

func PageAt(path string) (page string, step int, ok bool) {
	switch path {
	case "/":
		return "layout", 0, true
	case "/slice":
		return "slice", 0, true
	}
	if n, ok := strings.CutPrefix(path, "/tour/"); ok {
		if step, err := strconv.Atoi(n); err == nil && step >= 1 && step <= TourSteps && strconv.Itoa(step) == n {
			return "tour", step, true
		}
	}
	return "", 0, false
}
