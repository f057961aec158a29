package rooms

// Answers from pages without a socket: a student whose browser runs no
// JavaScript answers with a form. Its student token rides in a cookie, so
// that a reload or a second post changes the student's answer rather than
// adding one, and each student's posts are rate-limited as a socket's
// page is (answerBurst, then one per answerRefill).

import (
	"context"
	"sync"
	"time"
)

// maxFormStudents bounds the rate limits a replica keeps for students
// who answer with forms; past it, idle ones are dropped first, and while
// none is idle, new students are refused as a flood.
const maxFormStudents = 20000

// formLimits are the answer buckets of the students who answer by form,
// by student id.
type formLimits struct {
	mu      sync.Mutex
	buckets map[string]*formBucket
}

type formBucket struct {
	tokens   int
	lastFill time.Time
}

// take takes a token from student's bucket.
func (f *formLimits) take(student string, now time.Time) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.buckets == nil {
		f.buckets = map[string]*formBucket{}
	}
	b, ok := f.buckets[student]
	if !ok {
		if len(f.buckets) >= maxFormStudents {
			f.pruneLocked(now)
		}
		if len(f.buckets) >= maxFormStudents {
			return false
		}
		b = &formBucket{}
		f.buckets[student] = b
	}
	return takeToken(&b.tokens, &b.lastFill, now)
}

// pruneLocked drops the buckets that have refilled: a student idle that
// long starts from a full bucket anyway.
func (f *formLimits) pruneLocked(now time.Time) {
	for id, b := range f.buckets {
		if now.Sub(b.lastFill) >= answerBurst*answerRefill {
			delete(f.buckets, id)
		}
	}
}

// StudentToken is the token of the student a page's token names in room
// code: token itself when it is the room's, else a new student's. A page
// without a socket keeps it in a cookie and posts it with its answers.
func (r *Replica) StudentToken(code, token string) string {
	_, tok := r.student(code, token)
	return tok
}

// AnswerAs gives the answer of the student token names (a page without a
// socket: a form) to room code's open question, or changes it, as
// Viewer.Answer does: stored before it is counted, refused with the same
// errors. A token that is not the room's is ErrNotYours: the page must
// take its token from StudentToken first, so that a post nobody can
// repeat as the same student is never counted.
func (r *Replica) AnswerAs(ctx context.Context, code, token string, a Answer) error {
	code, ok := NormalizeCode(code)
	if !ok {
		return ErrNoRoom
	}
	id, tok := r.student(code, token)
	if tok != token {
		r.refused.notYours.Add(1)
		return ErrNotYours
	}
	if !r.forms.take(id, time.Now()) {
		r.refused.flood.Add(1)
		return ErrAnswerFlood
	}
	// The room is attached (its answers heard) before the answer is
	// checked against its question.
	if _, err := r.CurrentAttached(ctx, code); err != nil {
		return err
	}
	return r.answer(ctx, code, id, a)
}

// CurrentAttached is the room's state as Current, with the room attached
// here (its states, questions and answers heard from now on): a replica
// that did not hold the room catches up first, so that a page without a
// socket is shown, and answers, the question the room asks now, not the
// one of a record the store wrote a moment behind the bus.
func (r *Replica) CurrentAttached(ctx context.Context, code string) (State, error) {
	code, ok := NormalizeCode(code)
	if !ok {
		return State{}, ErrNoRoom
	}
	r.mu.Lock()
	rm, held := r.rooms[code]
	attached := held && rm.attached
	r.mu.Unlock()
	// A page waits for this: a bus that does not answer (paused) must
	// not hold it longer than a store read and a catch-up would take.
	ctx, cancel := context.WithTimeout(ctx, 2*storeTimeout)
	defer cancel()
	if _, err := r.attach(ctx, code); err != nil {
		return State{}, err
	}
	if !attached {
		r.refresh(ctx, code)
	}
	return r.Current(ctx, code)
}

// AnswerOf is the answer the student token names has given to the room's
// question now, as this replica counts it.
func (r *Replica) AnswerOf(code, token string) (value int64, ok bool) {
	code, okc := NormalizeCode(code)
	id, tok := r.student(code, token)
	if !okc || tok != token {
		return 0, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, held := r.rooms[code]
	if !held || rm.state.Question == nil {
		return 0, false
	}
	m, ok := rm.answers[rm.state.Question.ID][id]
	return m.Value, ok
}

// TallyOf is how room code's question has been answered, as this replica
// counts it: every replica's count is the same once the bus has carried
// the answers (a presenter's Tally, for a room presented elsewhere).
func (r *Replica) TallyOf(code string) (Tally, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[code]
	if !ok || rm.state.Question == nil {
		return Tally{}, false
	}
	q := *rm.state.Question
	return tallyLocked(rm, &q), true
}
