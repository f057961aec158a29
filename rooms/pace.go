package rooms

// Pacing: the presenter lets the class move through the tour alone
// (State.Pace "student"), sees where each student is, and brings everyone
// back to their own step (Pace ""). Each viewer says which step it is on;
// the word travels sealed on stridescope.room.CODE.where, so that every
// replica's presenter hears every student's step. It is not stored: a
// student says it again when they follow again.

import (
	"encoding/json"
	"errors"
	"time"
)

// PaceStudent is the pace of a class that moves through the tour alone.
const PaceStudent = "student"

// whereEvery is the least time between two steps a page reports.
const whereEvery = 100 * time.Millisecond

// whereMsg is a student's step on the bus; a negative step: it left.
type whereMsg struct {
	Student string `json:"s"`
	// Page names the page (the viewer) that said it: a student's page
	// that closes after their next page has said where it is removes
	// nothing.
	Page string `json:"p"`
	Step int    `json:"step"`
	At   int64  `json:"at"`
}

// ErrPace is a pace that is neither "" (teacher-paced) nor "student".
var ErrPace = errors.New(`the pace is "student" or "" (everyone on the presenter's step)`)

// SetPace lets the class go at its own pace ("student") or brings everyone
// back to the presenter's step ("").
func (p *Presenter) SetPace(pace string) error {
	if pace != "" && pace != PaceStudent {
		return ErrPace
	}
	return p.changeState(func(st *State, _ *room) error {
		st.Pace = pace
		return nil
	})
}

// Where is how many students are on each step while the class goes at its
// own pace, as this replica has heard.
func (p *Presenter) Where() map[int]int {
	r := p.rooms
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[p.code]
	if !ok || rm.state.Pace != PaceStudent {
		return nil
	}
	out := map[int]int{}
	for _, w := range rm.where {
		out[w.Step]++
	}
	return out
}

// Where says which step the viewer's student is on, while the class goes
// at its own pace: ErrAnswerFlood when it said so less than whereEvery
// ago, ErrQuestionClosed when the class is not at its own pace.
func (v *Viewer) Where(step int) error {
	r := v.rooms
	r.mu.Lock()
	rm, ok := r.rooms[v.code]
	if !ok || rm.state.Pace != PaceStudent {
		r.mu.Unlock()
		return ErrQuestionClosed
	}
	now := time.Now()
	v.mu.Lock()
	if now.Sub(v.whereAt) < whereEvery {
		v.mu.Unlock()
		r.mu.Unlock()
		return ErrAnswerFlood
	}
	v.whereAt, v.placed = now, true
	v.mu.Unlock()
	m := whereMsg{Student: v.student, Page: v.page, Step: max(step, 0), At: r.nextAtLocked()}
	takeWhereLocked(rm, m)
	r.mu.Unlock()
	data, _ := json.Marshal(m)
	r.publish(subject(v.code, "where"), data)
	return nil
}

// leaveWhere tells the presenter the viewer's student has left (Close).
func (v *Viewer) leaveWhere() {
	v.mu.Lock()
	placed := v.placed
	v.mu.Unlock()
	if !placed {
		return
	}
	r := v.rooms
	r.mu.Lock()
	rm, ok := r.rooms[v.code]
	if !ok {
		r.mu.Unlock()
		return
	}
	m := whereMsg{Student: v.student, Page: v.page, Step: -1, At: r.nextAtLocked()}
	takeWhereLocked(rm, m)
	r.mu.Unlock()
	data, _ := json.Marshal(m)
	r.publish(subject(v.code, "where"), data)
}

func (r *Replica) onWhere(code, subj string, sealed []byte) {
	data, ok := r.unseal(subj, sealed)
	var m whereMsg
	if !ok || json.Unmarshal(data, &m) != nil || m.At > r.now().Add(maxVersionAhead).UnixMicro() {
		r.refused.forged.Add(1)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if rm, ok := r.rooms[code]; ok && rm.state.Pace == PaceStudent {
		takeWhereLocked(rm, m)
	}
}

// takeWhereLocked keeps a student's newest step and wakes the presenter.
// A page that leaves removes the student only if it is the page that
// said their newest step.
func takeWhereLocked(rm *room, m whereMsg) {
	prev, had := rm.where[m.Student]
	switch {
	case m.Step < 0:
		if !had || prev.Page != m.Page {
			return
		}
		delete(rm.where, m.Student)
	case had && prev.At >= m.At:
		return
	case !had && len(rm.where) >= maxAnswersKept:
		return
	default:
		if rm.where == nil {
			rm.where = map[string]whereMsg{}
		}
		rm.where[m.Student] = m
	}
	wakeAnswersLocked(rm)
}
