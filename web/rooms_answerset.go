package web

// A set question ("tap every cell the slice reads") answered without
// JavaScript: the cells are typed, each as its coordinates, separated by
// semicolons ("3,1; 3,3"); the reveal lists the class's answers by group.

import (
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/rooms"
	"github.com/stridescope/stridescope/views"
)

// maxTypedSet bounds a typed set's text: 256 cells of five coordinates.
const maxTypedSet = 8 << 10

// setAnswerForm fills a set question's panel: what became of the
// student's set, and at the reveal the right set and the class's groups.
func setAnswerForm(c echo.Context, a *views.AnswerForm, replica *rooms.Replica, code string, q *rooms.Question, token string) {
	ctx := c.Request().Context()
	mine, answered := replica.AnswerSetOf(code, token)
	switch {
	case q.Revealed:
		a.Explain = i18n.T(ctx, "js.question.answerSet", i18n.Args{"n": i18n.Grouped(ctx, int64(len(q.CorrectSet))), "why": q.Explain})
		if r := q.Result; r != nil {
			a.Answered = i18n.T(ctx, "js.question.answered", i18n.Args{"n": i18n.Grouped(ctx, r.Answered)})
			for _, g := range r.Groups {
				text := i18n.T(ctx, "js.question.count", i18n.Args{"v": i18n.T(ctx, i18n.Key("js.question.group."+g.Group)), "n": i18n.Grouped(ctx, g.N)})
				switch {
				case g.Group == rooms.GroupExact:
					text += " ✓ " + i18n.T(ctx, "js.question.right")
				case g.Name != "":
					text += " · " + i18n.T(ctx, i18n.Key("js."+g.Name))
				}
				a.Counts = append(a.Counts, views.AnswerCount{Text: text, Right: g.Group == rooms.GroupExact})
			}
		}
		if answered && !q.Stale {
			a.Status = i18n.T(ctx, i18n.Key("js.question.yours."+rooms.GroupOf(q, mine)))
		}
	case q.Stale:
		a.Status = i18n.T(ctx, "js.question.stale")
	case !q.Open:
		a.Status = i18n.T(ctx, "js.question.closed")
	case answered:
		a.Status = i18n.T(ctx, "room.q.received", i18n.Args{"v": shownSet(c, q, mine)})
	}
}

// shownSet is a set as the page writes it: each cell's coordinates.
func shownSet(c echo.Context, q *rooms.Question, set []int64) string {
	parts := make([]string, len(set))
	for i, v := range set {
		parts[i] = shownAnswer(c, q, v)
	}
	return strings.Join(parts, "; ")
}

// typedSet reads a typed set: cells separated by semicolons, each its
// coordinates ("3,1") or its row-major index. ok is false when a cell is
// neither; the room judges the range and the count.
func typedSet(q *rooms.Question, text string) ([]int64, bool) {
	text = strings.TrimSpace(text)
	if text == "" || len(text) > maxTypedSet {
		return nil, false
	}
	var set []int64
	for _, cell := range strings.Split(text, ";") {
		if strings.TrimSpace(cell) == "" {
			continue
		}
		v, ok := typedCell(q, cell)
		if !ok {
			return nil, false
		}
		set = append(set, v)
	}
	return set, len(set) > 0
}

// typedCell is one typed cell of a set: its coordinates, as typedAnswer
// reads an element's, or a whole number.
func typedCell(q *rooms.Question, text string) (int64, bool) {
	asElement := *q
	asElement.Elements = true
	return typedAnswer(&asElement, text)
}
