package live

import (
	"context"
	"net/url"
	"slices"
	"time"

	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/rooms"
)

// Set questions and stale questions (docs/protocol.md, "Questions"): a
// set question's answer is the cells a student tapped ("set"); a question
// goes stale when the presenter's edit changes its answer.

// setQuestion carries a posed set question's parts into the room's.
func setQuestion(q *rooms.Question, p explorer.Posed) {
	q.Grid = p.Grid
	if !p.Set {
		return
	}
	q.Set, q.Correct, q.CorrectSet = true, nil, slices.Clone(p.CorrectSet)
	for _, w := range p.WrongSets {
		q.WrongSets = append(q.WrongSets, rooms.NamedSet{Values: w.Values, Name: w.Name})
	}
}

// answerOf is a viewer's answer message as the room takes it: a value, or
// a set (an empty one is a set: "it reads nothing").
func answerOf(m roomClientMsg) (rooms.Answer, bool) {
	a := rooms.Answer{Question: m.Question, Nick: m.Nick, Student: m.Student}
	switch {
	case m.Set != nil:
		a.Set = *m.Set
		if a.Set == nil {
			a.Set = []int64{}
		}
	case m.Value != nil:
		a.Value = *m.Value
	default:
		return a, false
	}
	return a, true
}

// answeredOf tells a viewer its answer is taken, a set as the room keeps
// it (sorted, each cell once).
func answeredOf(code string, a rooms.Answer) answeredMsg {
	m := answeredMsg{V: ProtocolVersion, Type: "answered", Room: code, Question: a.Question, Value: a.Value}
	if a.Set != nil {
		m.Set = slices.Compact(slices.Sorted(slices.Values(a.Set)))
	}
	return m
}

// staleEvery bounds the time the explorer takes to tell whether an edit
// changed the room's question.
const staleEvery = time.Second

// staleCheck returns, for the presenter's states, the id of the room's
// question a state makes stale ("" none): a question is stale once the
// state on screen answers it otherwise (another page, a state with
// errors, another answer or another range of answers), so that a
// presenter's edit that leaves it alone (the focus, the step-through, an
// unrelated stride) keeps it open. The check for one page and query is
// remembered: a presenter's states mostly move the focus.
func (ss *session) staleCheck(p *rooms.Presenter) func(st rooms.State) string {
	type checked struct {
		id, page, query string
		stale           bool
	}
	var last checked
	return func(st rooms.State) string {
		q := p.Question()
		if q == nil || q.Stale {
			return ""
		}
		if last.id == q.ID && last.page == st.Page && last.query == st.Query {
			return staleID(last.stale, q.ID)
		}
		last = checked{id: q.ID, page: st.Page, query: st.Query, stale: !ss.answersAlike(q, st)}
		return staleID(last.stale, q.ID)
	}
}

func staleID(stale bool, id string) string {
	if stale {
		return id
	}
	return ""
}

// answersAlike says whether st's page answers q as it was answered.
func (ss *session) answersAlike(q *rooms.Question, st rooms.State) bool {
	k, ok := ss.h.kinds().Find(st.Page)
	qr, asks := k.(explorer.Questioner)
	if !ok || !asks {
		return false
	}
	query, err := url.ParseQuery(st.Query)
	if err != nil {
		return false
	}
	ctx, cancel := context.WithTimeout(ss.ctx, staleEvery)
	defer cancel()
	posed, err := qr.Question(ctx, query, explorer.Ask{Kind: q.Kind, Element: q.Element, Cell: q.Cell})
	if err != nil {
		return false
	}
	now := roomQuestion(posed)
	return now.Kind == q.Kind && now.Min == q.Min && now.Max == q.Max && now.Cells == q.Cells && now.Elements == q.Elements &&
		now.Set == q.Set && now.Grid == q.Grid && equalPtr(now.Correct, q.Correct) && slices.Equal(now.CorrectSet, q.CorrectSet)
}

func equalPtr(a, b *int64) bool {
	return (a == nil) == (b == nil) && (a == nil || *a == *b)
}
