package live

import (
	"context"
	"errors"
	"net/url"
	"time"

	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/rooms"
)

// The room questions of the websocket protocol (docs/protocol.md,
// "Questions"): the presenter asks, closes, reveals and dismisses
// ("question"), a viewer answers ("answer"); the presenter hears every
// change of the answers ("tally"), a viewer hears its answer taken
// ("answered") and the question in the room's state, without its answer
// until the reveal.

// tallyMsg is the presenter's view of the room's question: the question
// with its answer, and the class's answers so far (nil question: none).
type tallyMsg struct {
	V        int             `json:"v"`
	Type     string          `json:"type"`
	Room     string          `json:"room"`
	Question *rooms.Question `json:"question"`
	Tally    *rooms.Tally    `json:"tally,omitempty"`
	// Pace is the room's ("student", or "" for teacher-paced) and Where
	// how many students are on each step while it is "student".
	Pace  string      `json:"pace,omitempty"`
	Where map[int]int `json:"where,omitempty"`
}

// studentMsg gives a viewer its student token, which the page sends back
// with its next follow so that a reload answers as the same student.
type studentMsg struct {
	V       int    `json:"v"`
	Type    string `json:"type"`
	Room    string `json:"room"`
	Student string `json:"student"`
}

// answeredMsg tells a viewer its answer is taken.
type answeredMsg struct {
	V        int    `json:"v"`
	Type     string `json:"type"`
	Room     string `json:"room"`
	Question string `json:"question"`
	Value    int64  `json:"value"`
	// Set is a set question's answer as taken: sorted, each cell once.
	Set []int64 `json:"set,omitempty"`
}

// Answer refusal codes, after rooms' refusal names.
const roomErrAnswer = "answer-refused"

// answerRefusedMsg is a refused answer: Reason is one of rooms' refusal
// names, or "reconnecting".
type answerRefusedMsg struct {
	V       int    `json:"v"`
	Type    string `json:"type"`
	Code    string `json:"code"`
	Room    string `json:"room"`
	Reason  string `json:"reason"`
	Message string `json:"message"`
}

// tallyEvery is the least time between two tallies to one presenter: a
// class answering at once is shown ten times a second, not once per
// answer.
const tallyEvery = 100 * time.Millisecond

// question handles a presenter's "question": ask, close, reveal, dismiss.
func (ss *session) question(m roomClientMsg) {
	p := ss.room.presenter
	if p == nil || (m.Room != "" && m.Room != p.Code()) {
		ss.roomError(roomErrNotPresenter, m.Room, rooms.ErrNotPresenter.Error()+": present the room first, with its presenter cookie")
		return
	}
	var err error
	switch m.Action {
	case "ask":
		err = ss.ask(p, m.Ask)
	case "close":
		err = p.CloseQuestion()
	case "reveal":
		err = p.Reveal()
	case "dismiss":
		err = p.Dismiss()
	default:
		ss.roomError(roomErrBadMessage, p.Code(), `a question's action is "ask", "close", "reveal" or "dismiss"`)
		return
	}
	if err != nil {
		ss.roomError(roomErrNoQuestion, p.Code(), err.Error())
		return
	}
	ss.sendTally(p)
}

const roomErrNoQuestion = "no-question"

// ask poses a question about the room's state with its explorer.
func (ss *session) ask(p *rooms.Presenter, a *explorer.Ask) error {
	if a == nil {
		return errors.New("ask needs a question: {\"kind\": ..., \"element\": [...]}")
	}
	replica, err := ss.h.Rooms()
	if err != nil {
		return err
	}
	// A state the presenter published just before asking may still wait
	// for its turn (publishEvery), or be on its way: it is the state the
	// question is about.
	ss.room.pub.sharing.Lock()
	defer ss.room.pub.sharing.Unlock()
	if pending, ok := ss.room.pub.take(); ok {
		if err := p.Update(pending); err != nil {
			return err
		}
	}
	st, err := replica.Current(ss.ctx, p.Code())
	if err != nil {
		return err
	}
	// On a tour step, its explorer answers, about the step's own state
	// until the presenter edits it.
	k, query, ok := ss.h.pages().StateAt(st.Page, st.Step, st.Query)
	qr, asks := k.(explorer.Questioner)
	if !ok || !asks {
		return explorer.ErrNoQuestion
	}
	q, err := url.ParseQuery(query)
	if err != nil {
		return explorer.ErrNoQuestion
	}
	ctx, cancel := context.WithTimeout(ss.ctx, time.Second)
	defer cancel()
	posed, err := qr.Question(ctx, q, *a)
	if err != nil {
		return err
	}
	_, err = p.Ask(roomQuestion(posed))
	return err
}

// roomQuestion is a posed question as the room carries it.
func roomQuestion(p explorer.Posed) rooms.Question {
	q := rooms.Question{Kind: p.Kind, Element: p.Element, Cell: p.Cell, Axis: p.Axis, Min: p.Min, Max: p.Max, Cells: p.Cells, Elements: p.Elements, Sizes: p.Sizes, Correct: &p.Correct, Explain: p.Explain}
	for _, w := range p.Wrong {
		q.Wrong = append(q.Wrong, rooms.NamedAnswer{Value: w.Value, Name: w.Name})
	}
	setQuestion(&q, p)
	return q
}

// sendTally tells the presenter the room's question and its answers.
func (ss *session) sendTally(p *rooms.Presenter) {
	ss.send(textFrame(tallyOf(p)))
}

func tallyOf(p *rooms.Presenter) tallyMsg {
	t, q := p.Tally()
	m := tallyMsg{V: ProtocolVersion, Type: "tally", Room: p.Code(), Question: q, Where: p.Where()}
	if m.Where != nil {
		m.Pace = rooms.PaceStudent
	}
	if q != nil {
		m.Tally = &t
	}
	return m
}

// answer handles a viewer's "answer".
func (ss *session) answer(m roomClientMsg) {
	v := ss.room.viewer
	if v == nil || (m.Room != "" && m.Room != ss.room.code) {
		ss.roomError(roomErrNoRoom, m.Room, "follow the room first")
		return
	}
	a, ok := answerOf(m)
	if !ok {
		ss.roomError(roomErrBadMessage, m.Room, "an answer needs a value, or a set question's set")
		return
	}
	err := v.Answer(ss.ctx, a)
	if err == nil {
		ss.send(textFrame(answeredOf(ss.room.code, a)))
		return
	}
	reason := "reconnecting"
	switch {
	case errors.Is(err, rooms.ErrQuestionClosed):
		reason = rooms.RefusedClosed
	case errors.Is(err, rooms.ErrNotYours):
		reason = rooms.RefusedNotYour
	case errors.Is(err, rooms.ErrAnswerFlood):
		reason = rooms.RefusedFlood
	case errors.Is(err, rooms.ErrAnswerInvalid):
		reason = rooms.RefusedInvalid
	case errors.Is(err, rooms.ErrAnswerTooMany):
		reason = rooms.RefusedTooMany
	}
	ss.send(textFrame(answerRefusedMsg{V: ProtocolVersion, Type: "error", Code: roomErrAnswer, Room: ss.room.code, Reason: reason, Message: err.Error()}))
}

// setPace handles a presenter's "pace": "student" lets the class go at its
// own pace, "" brings everyone back to the presenter's step.
func (ss *session) setPace(m roomClientMsg) {
	p := ss.room.presenter
	if p == nil || (m.Room != "" && m.Room != p.Code()) {
		ss.roomError(roomErrNotPresenter, m.Room, rooms.ErrNotPresenter.Error()+": present the room first, with its presenter cookie")
		return
	}
	if err := p.SetPace(m.Pace); err != nil {
		ss.roomError(roomErrBadMessage, p.Code(), err.Error())
		return
	}
	ss.sendTally(p)
}

// where handles a viewer's "where": the tour step it is on, while the
// class goes at its own pace. A page says it on each step it opens; one
// said too soon or while teacher-paced is dropped silently (the next
// step says it again).
func (ss *session) where(m roomClientMsg) {
	if v := ss.room.viewer; v != nil && m.Step != nil {
		_ = v.Where(*m.Step)
	}
}
