package rooms

// The newest presenter presents: a second tab, or the teacher's phone,
// that presents a room takes it over from the connections that presented
// it before, on every replica, so that two presenters never fight over
// the class. The one taken over says so and can take it back.

import (
	"encoding/json"
)

// takeoverMsg says that presenter connection ID began presenting the room
// (created names it) at At, on its replica's clock (µs).
type takeoverMsg struct {
	Created int64  `json:"created"`
	ID      string `json:"id"`
	At      int64  `json:"at"`
}

// Moved reports whether a newer presenter connection of the room, in
// another tab or on another device, has taken over: this one presents no
// more, and presents again by calling Present.
func (p *Presenter) Moved() bool { return p.moved.Load() }

// takeOverLocked moves every other presenter connection of rm on this
// replica aside for p, and tells the other replicas.
func (r *Replica) takeOverLocked(rm *room, p *Presenter) {
	rm.newestID, rm.newestAt = p.id, p.at
	for q := range rm.conns {
		if q != p {
			q.moved.Store(true)
		}
	}
	if !rm.attached {
		return
	}
	b, err := json.Marshal(takeoverMsg{Created: rm.created, ID: p.id, At: p.at})
	if err == nil {
		r.publish(subject(rm.code, "takeover"), b)
	}
}

// onTakeover moves this replica's presenter connections of the room that
// began before the one the message names. Comparing when they began, not
// when the message came, decides two tabs that present at once the same
// way on every replica, and a takeover replayed later moves nobody who
// presented after it.
func (r *Replica) onTakeover(code, subj string, sealed []byte) {
	data, ok := r.unseal(subj, sealed)
	var m takeoverMsg
	if !ok || json.Unmarshal(data, &m) != nil || m.At > r.now().Add(maxVersionAhead).UnixMicro() {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	// Any connection that begins after this message was heard begins
	// later than it, whatever this replica's clock says (a Lamport
	// clock): a presenter that opens a tab after seeing another present
	// takes over even from a replica whose clock runs ahead.
	r.lastAt = max(r.lastAt, m.At)
	rm, ok := r.rooms[code]
	if !ok || rm.created != m.Created {
		return
	}
	if m.At > rm.newestAt || (m.At == rm.newestAt && m.ID > rm.newestID) {
		rm.newestID, rm.newestAt = m.ID, m.At
	}
	for q := range rm.conns {
		if q.at < m.At || (q.at == m.At && q.id < m.ID) {
			q.moved.Store(true)
		}
	}
}
