package rooms

// Questions: the presenter asks the class a question about the state on
// screen, the students answer on their own devices, the presenter sees the
// answers come in and reveals them. The question travels in the room's
// State (so it is versioned, stored and carried to every replica as the
// page is); each student's answer is a record of its own in the store
// (so none is lost with a replica) and a sealed message on the bus (so
// every replica counts it, once: answers are kept by student).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unicode"
)

// Question is a question the presenter asks about the state on screen.
// Its correct answer comes from the explorer on the server (live asks
// it), never from a page. Until the reveal, the class is sent the
// question without its answer (ForClass).
type Question struct {
	ID   string `json:"id"`
	Kind string `json:"kind"` // the explorer's kind of question ("cell", "bytes")
	// Element is the logical element asked about (kinds "cell",
	// "offset"); Cell the buffer cell (kind "element").
	Element []int64 `json:"element,omitempty"`
	Cell    *int64  `json:"cell,omitempty"`
	// Axis is the dimension asked about (kind "maxcopied").
	Axis *int64 `json:"axis,omitempty"`
	// Min and Max bound the answers taken: a buffer cell, a size.
	Min int64 `json:"min"`
	Max int64 `json:"max"`
	// Cells says that the answer is a buffer cell, picked on the picture.
	Cells bool `json:"cells,omitempty"`
	// Elements says that the answer is a logical element (its row-major
	// index), picked on the logical view.
	Elements bool `json:"elements,omitempty"`
	// Sizes are the logical sizes, with Elements: a page without a
	// script reads an element typed as its coordinates with them.
	Sizes []int64 `json:"sizes,omitempty"`
	// Set says that the answer is a set of cells, tapped one by one on
	// the view Grid names (questionset.go); Grid is the id prefix of the
	// view the answer is picked on ("in": the slice's input), "" for the
	// layout explorer's own views.
	Set  bool   `json:"set,omitempty"`
	Grid string `json:"grid,omitempty"`
	// Stale says that the presenter changed the picture under the
	// question: it closed then, and its answers are of a picture no
	// longer on screen.
	Stale    bool `json:"stale,omitempty"`
	Open     bool `json:"open"`
	Revealed bool `json:"revealed,omitempty"`
	// ClosedAt is when it closed, µs on the bus's clock: a replica that
	// reads the answers back from the store takes none stamped later
	// (closeSkew aside).
	ClosedAt int64 `json:"closedAt,omitempty"`

	// Hidden from the class until the reveal.
	Correct *int64        `json:"correct,omitempty"`
	Explain string        `json:"explain,omitempty"` // the explorer's working (the dot product)
	Wrong   []NamedAnswer `json:"wrong,omitempty"`   // the common wrong answers the explorer can name
	Result  *Tally        `json:"result,omitempty"`  // the class's answers, set at the reveal
	// A set question's answer and the wrong sets it can name.
	CorrectSet []int64    `json:"correctSet,omitempty"`
	WrongSets  []NamedSet `json:"wrongSets,omitempty"`
}

// NamedAnswer is a wrong answer the explorer can name: Name is a key of
// the pages' words ("question.wrong.packed").
type NamedAnswer struct {
	Value int64  `json:"value"`
	Name  string `json:"name"`
}

// Tally is how a question was answered: every distinct answer with how
// many gave it, most given first.
type Tally struct {
	Question string       `json:"question"`
	Answered int          `json:"answered"`
	Counts   []ValueCount `json:"counts"`
	// A set question's answers, grouped against the right set, and how
	// many picked each cell (the heat).
	Groups []SetGroup   `json:"groups,omitempty"`
	Picks  []ValueCount `json:"picks,omitempty"`
}

// ValueCount is one answer of a Tally.
type ValueCount struct {
	Value int64  `json:"value"`
	N     int    `json:"n"`
	Right bool   `json:"right,omitempty"`
	Name  string `json:"name,omitempty"` // the wrong answer's name, if the explorer knows it
}

// ForClass is the question as a student may see it now: without its
// answer, its working and the class's answers until the reveal.
func (q *Question) ForClass() *Question {
	if q == nil || q.Revealed {
		return q
	}
	c := *q
	c.Correct, c.Explain, c.Wrong, c.Result = nil, "", nil, nil
	c.CorrectSet, c.WrongSets = nil, nil
	return &c
}

// Answer refusals: each is counted (Replica.Refused) under its name.
var (
	ErrQuestionClosed = errors.New("the question is closed, or is not the room's question now")
	ErrNotYours       = errors.New("an answer can only be given for oneself")
	ErrAnswerFlood    = errors.New("too many answers from this page; wait a moment")
	ErrAnswerInvalid  = errors.New("the answer is out of the question's range")
	ErrNoQuestion     = errors.New("the question is not one the state on screen can answer")
	ErrAnswerTooMany  = errors.New("the answer picks more cells than the picture has")
)

// Refusal names, as Refused counts them.
const (
	RefusedClosed  = "closed"
	RefusedNotYour = "not-yours"
	RefusedFlood   = "flood"
	RefusedForged  = "forged"
	RefusedInvalid = "invalid"
	RefusedTooMany = "too-many"
)

// answer limits
const (
	maxNickRunes = 24
	// A page may answer answerBurst times at once, then one more per
	// answerRefill: enough to change one's mind, not to flood the bus
	// and the store.
	answerBurst  = 5
	answerRefill = time.Second
	// maxAnswersKept bounds the answers a replica keeps for one
	// question: a class, not a crowd.
	maxAnswersKept = 5000
)

// refusals counts the refused answers by kind.
type refusals struct {
	closed, notYours, flood, forged, invalid, tooMany atomic.Int64
}

// Refused is how many answers this replica has refused, by kind
// (RefusedClosed, ...): a forged one is a message on the bus not sealed
// with the room secret.
func (r *Replica) Refused() map[string]int64 {
	return map[string]int64{
		RefusedClosed: r.refused.closed.Load(), RefusedNotYour: r.refused.notYours.Load(), RefusedFlood: r.refused.flood.Load(),
		RefusedForged: r.refused.forged.Load(), RefusedInvalid: r.refused.invalid.Load(), RefusedTooMany: r.refused.tooMany.Load(),
	}
}

// answerMsg is a student's answer on the bus and in the store.
type answerMsg struct {
	Question string `json:"q"`
	Student  string `json:"s"`
	Value    int64  `json:"v"`
	Nick     string `json:"n,omitempty"`
	At       int64  `json:"at"` // µs on the bus's clock: the newer answer of a student wins

	// Set is a set question's cells, sorted, each once.
	Set []int64 `json:"set,omitempty"`
}

// answerKey is the store's key of a student's answer to a question.
func answerKey(code, question, student string) string {
	return code + ".q." + question + "." + student
}

// Ask opens a question about the room's state for the class: the
// question the presenter had open before is dropped with its answers.
// q's answer (Correct, or a set question's CorrectSet) must be set, by
// the explorer.
func (p *Presenter) Ask(q Question) (Question, error) {
	if !q.answerable() {
		return Question{}, ErrNoQuestion
	}
	q.ID = randomString(10, "abcdefghijklmnopqrstuvwxyz0123456789")
	q.Open, q.Revealed, q.ClosedAt, q.Result, q.Stale = true, false, 0, nil, false
	return q, p.changeQuestion(func(*Question, *room) (*Question, error) { return &q, nil })
}

// CloseQuestion stops taking answers: the tally stays the presenter's.
func (p *Presenter) CloseQuestion() error {
	return p.changeQuestion(func(cur *Question, rm *room) (*Question, error) {
		if cur == nil || !cur.Open {
			return nil, ErrQuestionClosed
		}
		c := *cur
		c.Open, c.ClosedAt = false, p.rooms.now().UnixMicro()
		return &c, nil
	})
}

// Reveal closes the question (if open) and shows its answer, its working
// and the class's answers on every screen.
func (p *Presenter) Reveal() error {
	return p.changeQuestion(func(cur *Question, rm *room) (*Question, error) {
		if cur == nil {
			return nil, ErrQuestionClosed
		}
		c := *cur
		if c.Open {
			c.Open, c.ClosedAt = false, p.rooms.now().UnixMicro()
		}
		c.Revealed = true
		t := tallyLocked(rm, &c)
		c.Result = &t
		return &c, nil
	})
}

// Dismiss takes the question off every screen.
func (p *Presenter) Dismiss() error {
	return p.changeQuestion(func(*Question, *room) (*Question, error) { return nil, nil })
}

// changeQuestion issues a new state of the room with the question change
// makes of the current one, as Update issues the page's.
func (p *Presenter) changeQuestion(change func(cur *Question, rm *room) (*Question, error)) error {
	return p.changeState(func(st *State, rm *room) error {
		q, err := change(st.Question, rm)
		st.Question = q
		return err
	})
}

// changeState issues a new state of the room, the current one as change
// makes it: the room's own parts of it (the question, the pace), which a
// page's states keep.
func (p *Presenter) changeState(change func(st *State, rm *room) error) error {
	if p.Moved() {
		return ErrMoved
	}
	r := p.rooms
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[p.code]
	if !ok || r.now().UnixMicro() >= rm.expires {
		return ErrNoRoom
	}
	st := rm.state
	if err := change(&st, rm); err != nil {
		return err
	}
	st.Version = max(rm.state.Version, rm.issued, r.now().UnixMicro()) + 1
	raw, err := encodeState(st)
	if err != nil {
		return err
	}
	rm.issued = st.Version
	r.applyStateLocked(rm, st)
	r.publish(subject(p.code, "state"), raw)
	return nil
}

// Tally is how the room's question has been answered so far, as this
// replica has heard (every replica hears every answer).
func (p *Presenter) Tally() (Tally, *Question) {
	r := p.rooms
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[p.code]
	if !ok || rm.state.Question == nil {
		return Tally{}, nil
	}
	q := *rm.state.Question
	return tallyLocked(rm, &q), &q
}

// Answers is woken (capacity 1) when the room's answers change.
func (p *Presenter) Answers() <-chan struct{} { return p.answers }

func tallyLocked(rm *room, q *Question) Tally {
	if q.Set {
		return setTally(rm.answers[q.ID], q)
	}
	t := Tally{Question: q.ID, Counts: []ValueCount{}}
	by := map[int64]int{}
	for _, a := range rm.answers[q.ID] {
		by[a.Value]++
		t.Answered++
	}
	for v, n := range by {
		c := ValueCount{Value: v, N: n, Right: q.Correct != nil && *q.Correct == v}
		for _, w := range q.Wrong {
			if w.Value == v && !c.Right {
				c.Name = w.Name
				break
			}
		}
		t.Counts = append(t.Counts, c)
	}
	slices.SortFunc(t.Counts, func(a, b ValueCount) int {
		if a.N != b.N {
			return b.N - a.N
		}
		return int(min(max(a.Value-b.Value, -1), 1))
	})
	return t
}

// Answer is a student's answer as a page sends it.
type Answer struct {
	Question string
	Value    int64
	Nick     string
	// Student, when a page names one, must be the page's own.
	Student string
	// Set is a set question's answer: the cells picked (nil for any other).
	Set []int64
}

// Answer gives the viewer's student's answer to the room's open question,
// or changes it. It is written to the store before it is counted, so
// that an answer the class was told is taken survives any replica.
func (v *Viewer) Answer(ctx context.Context, a Answer) error {
	r := v.rooms
	if a.Student != "" && a.Student != v.student && a.Student != v.studentToken {
		r.refused.notYours.Add(1)
		return ErrNotYours
	}
	v.mu.Lock()
	ok := takeToken(&v.tokens, &v.lastFill, time.Now())
	v.mu.Unlock()
	if !ok {
		r.refused.flood.Add(1)
		return ErrAnswerFlood
	}
	return r.answer(ctx, v.code, v.student, a)
}

// answer stores and counts student's answer a to the room's open question.
func (r *Replica) answer(ctx context.Context, code, student string, a Answer) error {
	r.mu.Lock()
	rm, ok := r.rooms[code]
	if !ok || rm.state.Question == nil || rm.state.Question.ID != a.Question || !rm.state.Question.Open {
		r.mu.Unlock()
		r.refused.closed.Add(1)
		return ErrQuestionClosed
	}
	q := rm.state.Question
	set, bad := q.check(a)
	if bad != nil {
		r.mu.Unlock()
		if errors.Is(bad, ErrAnswerTooMany) {
			r.refused.tooMany.Add(1)
		} else {
			r.refused.invalid.Add(1)
		}
		return bad
	}
	m := answerMsg{Question: q.ID, Student: student, Value: a.Value, Set: set, Nick: cleanNick(a.Nick), At: r.nextAtLocked()}
	r.mu.Unlock()
	data, _ := json.Marshal(m)
	key := answerKey(code, m.Question, m.Student)
	sctx, cancel := context.WithTimeout(ctx, storeTimeout)
	err := r.bus.PutRoom(sctx, key, r.seal("store."+key, data))
	cancel()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrBusDown, err)
	}
	r.takeAnswer(code, m, false)
	r.publish(subject(code, "answer"), data)
	return nil
}

// takeToken is an answer rate limit: a bucket of answerBurst, refilled
// one per answerRefill. The caller holds the lock that guards the bucket.
func takeToken(tokens *int, lastFill *time.Time, now time.Time) bool {
	if lastFill.IsZero() {
		*tokens, *lastFill = answerBurst, now
	}
	if refill := int(now.Sub(*lastFill) / answerRefill); refill > 0 {
		*tokens = min(answerBurst, *tokens+refill)
		*lastFill = lastFill.Add(time.Duration(refill) * answerRefill)
	}
	if *tokens == 0 {
		return false
	}
	*tokens--
	return true
}

// cleanNick keeps a nickname short and printable.
func cleanNick(s string) string {
	var b strings.Builder
	n := 0
	for _, c := range strings.TrimSpace(s) {
		if !unicode.IsPrint(c) {
			continue
		}
		if n == maxNickRunes {
			break
		}
		b.WriteRune(c)
		n++
	}
	return b.String()
}

// onAnswer takes an answer another replica stored and published.
func (r *Replica) onAnswer(code, subj string, sealed []byte) {
	data, ok := r.unseal(subj, sealed)
	var m answerMsg
	if !ok || json.Unmarshal(data, &m) != nil {
		r.refused.forged.Add(1)
		r.log.Warn("room: dropped an answer that is not sealed with the room secret", "room", code)
		return
	}
	if m.At > r.now().Add(maxVersionAhead).UnixMicro() {
		r.refused.forged.Add(1)
		return
	}
	r.takeAnswer(code, m, false)
}

// closeSkew is how much later than its question's close an answer read
// back from the store may be stamped and still count: the stamps of two
// replicas' clocks differ by their offsets' error.
const closeSkew = time.Second

// takeAnswer counts an answer, keeping a student's newest only, and wakes
// the room's presenter connections here. Once the question is closed here,
// answers still arriving are not counted (the class's replicas refused
// any answered after they heard the close); one read back from the store
// counts if it was stamped before the close.
func (r *Replica) takeAnswer(code string, m answerMsg, stored bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[code]
	if !ok {
		return
	}
	if q := rm.state.Question; q != nil && q.ID == m.Question && !q.Open && (!stored || m.At > q.ClosedAt+closeSkew.Microseconds()) {
		return
	}
	if rm.answers == nil {
		rm.answers = map[string]map[string]answerMsg{}
	}
	byStudent := rm.answers[m.Question]
	if byStudent == nil {
		byStudent = map[string]answerMsg{}
		rm.answers[m.Question] = byStudent
	}
	if prev, ok := byStudent[m.Student]; ok && prev.At >= m.At {
		return
	}
	if _, ok := byStudent[m.Student]; !ok && len(byStudent) >= maxAnswersKept {
		return
	}
	byStudent[m.Student] = m
	wakeAnswersLocked(rm)
}

func wakeAnswersLocked(rm *room) {
	for p := range rm.conns {
		select {
		case p.answers <- struct{}{}:
		default:
		}
	}
}

// questionChangedLocked drops the answers of questions the room no longer
// asks when its state changes question, keeping any newer one's (heard
// before its state).
func questionChangedLocked(rm *room, prev, next *Question) {
	if next == nil || prev == nil || prev.ID == next.ID {
		if next == nil {
			clear(rm.answers)
		}
		wakeAnswersLocked(rm)
		return
	}
	delete(rm.answers, prev.ID)
	wakeAnswersLocked(rm)
}

// loadAnswers reads the answers to the room's question from the store:
// after a restart, or on a replica that attaches a room whose question
// was asked elsewhere.
func (r *Replica) loadAnswers(ctx context.Context, code string) {
	r.mu.Lock()
	rm, ok := r.rooms[code]
	var qid string
	if ok && rm.state.Question != nil {
		qid = rm.state.Question.ID
	}
	r.mu.Unlock()
	if qid == "" {
		return
	}
	lctx, cancel := context.WithTimeout(ctx, 2*storeTimeout)
	keys, err := r.bus.ListRooms(lctx)
	cancel()
	if err != nil {
		r.log.Warn("room: list the answers", "room", code, "err", err)
		return
	}
	prefix := answerKey(code, qid, "")
	for _, k := range keys {
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		gctx, cancel := context.WithTimeout(ctx, storeTimeout)
		e, err := r.bus.GetRoom(gctx, k)
		cancel()
		if err != nil {
			continue
		}
		data, ok := r.unseal("store."+k, e.Value)
		var m answerMsg
		if !ok || json.Unmarshal(data, &m) != nil || answerKey(code, m.Question, m.Student) != k {
			r.refused.forged.Add(1)
			continue
		}
		if landedLate(e, m) {
			continue
		}
		r.takeAnswer(code, m, true)
	}
}

// landedLate says that a stored answer reached the store after the
// replica that sent it had given up waiting (storeTimeout) and told the
// student it was not received: a put that a paused NATS server held and
// wrote when it resumed. Counted, it would be an answer the student
// believes lost, and counted only by the replicas that read the store
// after it landed. closeSkew allows for the replicas' clock error.
func landedLate(e RoomEntry, m answerMsg) bool {
	return !e.Stored.IsZero() && e.Stored.UnixMicro() > m.At+(storeTimeout+closeSkew).Microseconds()
}

// deleteAnswers deletes every answer of the room from the store: an
// ended room keeps a tombstone for its lifetime, and the store sweep
// deletes a room's answers only once its record is gone.
func (r *Replica) deleteAnswers(ctx context.Context, code string) {
	lctx, cancel := context.WithTimeout(ctx, 2*storeTimeout)
	keys, err := r.bus.ListRooms(lctx)
	cancel()
	if err != nil {
		r.log.Warn("room: list the answers to delete", "room", code, "err", err)
		return
	}
	for _, k := range keys {
		if room, ok := answerRoom(k); ok && room == code {
			r.deleteKey(ctx, k)
		}
	}
}

// answerRoom is the room code of a store key that is an answer's, if it is
// one.
func answerRoom(key string) (code string, ok bool) {
	code, rest, ok := strings.Cut(key, ".q.")
	return code, ok && rest != ""
}

// Student names a student in a room: an id, and a MAC of it and the
// room's code that the page keeps, so that a student who reloads or
// reconnects changes their answer rather than adding one, and a page
// cannot answer as someone else.
func (r *Replica) studentToken(code, id string) string {
	return id + "." + r.Ticket("student:"+code+":"+id)
}

// student is the id a page's student token names, minting a new one when
// the token is not this room's.
func (r *Replica) student(code, token string) (id, tok string) {
	if id, _, ok := strings.Cut(token, "."); ok && len(id) == 16 && token == r.studentToken(code, id) {
		return id, token
	}
	id = randomString(16, "abcdefghijklmnopqrstuvwxyz0123456789")
	return id, r.studentToken(code, id)
}
