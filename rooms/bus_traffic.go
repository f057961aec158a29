package rooms

// Live traffic: a replica subscribes to a room's subjects while someone
// on it presents or follows; states, viewer counts and presence travel
// sealed, published by one sender so that no lock is held across bus I/O.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

type busMsg struct {
	subject string
	data    []byte
}

// publish queues a sealed message for the bus; it never blocks. A full
// queue (a bus stalled for long) drops the message: every kind of message
// is repeated or superseded soon.
func (r *Replica) publish(subj string, data []byte) {
	select {
	case r.out <- busMsg{subject: subj, data: r.seal(subj, data)}:
	default:
		r.log.Warn("room: bus queue full, dropped a message", "subject", subj)
	}
}

func (r *Replica) sender(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case m := <-r.out:
			if err := r.bus.Publish(ctx, m.subject, m.data); err != nil && !errors.Is(err, ErrBusClosed) && ctx.Err() == nil {
				r.log.Warn("room: publish", "subject", m.subject, "err", err)
			}
		}
	}
}

// attach subscribes this replica to a room's subjects, once; the bus I/O
// happens outside the lock, and callers that arrive meanwhile wait for it.
// Then it reads the room's newest state from the store and, for a room it
// did not create, asks the other replicas whether one has the presenter.
// A caller that goes (ctx) stops waiting.
func (r *Replica) attach(ctx context.Context, code string) (*room, error) {
	rm, err := r.lookup(ctx, code)
	if err != nil {
		return nil, err
	}
	for {
		r.mu.Lock()
		if cur, ok := r.rooms[code]; !ok {
			if rm.ended {
				r.mu.Unlock()
				return nil, ErrNoRoom
			}
			r.indexLocked(rm) // swept meanwhile: index it again
		} else {
			rm = cur
		}
		if rm.attached {
			r.mu.Unlock()
			return rm, nil
		}
		if ch := rm.attaching; ch != nil {
			r.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-time.After(2 * storeTimeout):
				return nil, ErrBusDown
			case <-ctx.Done():
				return nil, fmt.Errorf("%w: %v", ErrBusDown, ctx.Err())
			}
		}
		ch := make(chan struct{})
		rm.attaching = ch
		r.mu.Unlock()

		stop, err := r.subscribe(ctx, code)
		r.mu.Lock()
		rm.attaching = nil
		close(ch)
		if err != nil {
			r.mu.Unlock()
			return nil, fmt.Errorf("%w: %v", ErrBusDown, err)
		}
		if rm.ended {
			// Ended while subscribing: let go of what was just made.
			r.mu.Unlock()
			for _, f := range stop {
				f()
			}
			return nil, ErrNoRoom
		}
		rm.stop, rm.attached = stop, true
		ask := !rm.known
		r.mu.Unlock()
		if ask {
			r.spawn(func(ctx context.Context) { r.askPresence(ctx, code, rm) })
		}
		r.spawn(func(ctx context.Context) { r.refresh(ctx, code) })
		return rm, nil
	}
}

// attachHeld attaches the room and returns it with r.mu held, attached
// and in the index (a sweep may let go of it between attach and the lock).
func (r *Replica) attachHeld(ctx context.Context, code string) (*room, error) {
	for {
		rm, err := r.attach(ctx, code)
		if err != nil {
			return nil, err
		}
		r.mu.Lock()
		if r.rooms[code] == rm && rm.attached {
			return rm, nil
		}
		r.mu.Unlock()
	}
}

// subscribe listens to a room's subjects and answers its presence
// questions; it undoes what it did when one step fails.
func (r *Replica) subscribe(ctx context.Context, code string) ([]func(), error) {
	var stop []func()
	undo := func() {
		for _, f := range stop {
			f()
		}
	}
	for _, sub := range []struct {
		what string
		fn   func(string, []byte)
	}{
		{"state", func(subj string, data []byte) { r.onState(code, subj, data) }},
		{"count", func(subj string, data []byte) { r.onCount(code, subj, data) }},
		{"presence", func(subj string, data []byte) { r.onPresence(code, subj, data) }},
		{"takeover", func(subj string, data []byte) { r.onTakeover(code, subj, data) }},
		{"answer", func(subj string, data []byte) { r.onAnswer(code, subj, data) }},
		{"where", func(subj string, data []byte) { r.onWhere(code, subj, data) }},
	} {
		f, err := r.bus.Subscribe(ctx, subject(code, sub.what), sub.fn)
		if err != nil {
			undo()
			return nil, err
		}
		stop = append(stop, f)
	}
	ask := subject(code, "presenter")
	f, err := r.bus.Serve(ctx, ask, func([]byte) []byte {
		r.mu.Lock()
		defer r.mu.Unlock()
		if rm, ok := r.rooms[code]; ok && rm.live {
			return r.seal(ask, r.presenceMsgLocked(rm))
		}
		return nil // silent: a replica with the presenter answers
	})
	if err != nil {
		undo()
		return nil, err
	}
	stop = append(stop, f)
	cur := subject(code, "current")
	f, err = r.bus.Serve(ctx, cur, func(asker []byte) []byte {
		r.mu.Lock()
		defer r.mu.Unlock()
		rm, ok := r.rooms[code]
		if !ok || !rm.attached || string(asker) == r.replica {
			return nil
		}
		b, err := encodeState(rm.state)
		if err != nil {
			return nil
		}
		return r.seal(cur, b)
	})
	if err != nil {
		undo()
		return nil, err
	}
	return append(stop, f), nil
}

func (r *Replica) onState(code, subj string, sealed []byte) {
	data, ok := r.unseal(subj, sealed)
	if !ok {
		r.log.Warn("room: dropped a state that is not sealed with the room secret", "room", code)
		return
	}
	st, err := decodeState(data)
	if err != nil {
		r.log.Warn("room: dropped a malformed state", "room", code, "err", err)
		return
	}
	r.applyState(code, st)
}

// applyState takes a state newer than the room's and offers it to the
// local viewers.
func (r *Replica) applyState(code string, st State) {
	if st.Version > r.now().Add(maxVersionAhead).UnixMicro() {
		// From the bus, the store or another replica: a version this far
		// ahead (a forged one, or a fast clock's) would freeze the room.
		r.log.Warn("room: dropped a state from the future", "room", code, "version", st.Version)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if rm, ok := r.rooms[code]; ok {
		r.applyStateLocked(rm, st)
	}
}

// applyStateLocked takes st if it is newer than the room's state, and
// offers it to the local viewers.
func (r *Replica) applyStateLocked(rm *room, st State) {
	if st.Version <= rm.state.Version {
		return
	}
	prev := rm.state.Question
	rm.state = st
	if prev != st.Question {
		questionChangedLocked(rm, prev, st.Question)
	}
	if st.Pace == "" && len(rm.where) > 0 {
		clear(rm.where) // everyone is back on the presenter's step
		wakeAnswersLocked(rm)
	}
	if rm.live {
		r.markDirtyLocked(rm.code) // the presenter's replica keeps the store up to date
	}
	if len(rm.viewers) == 0 {
		return
	}
	d := newDelivery(st, r.watchingLocked(rm))
	for v := range rm.viewers {
		v.offer(d)
	}
}

type countMsg struct {
	Replica string `json:"replica"`
	Viewers int    `json:"viewers"`
	At      int64  `json:"at"` // the sender's clock (µs), growing: see fresh
}

func (r *Replica) onCount(code, subj string, sealed []byte) {
	data, ok := r.unseal(subj, sealed)
	var m countMsg
	if !ok || json.Unmarshal(data, &m) != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	if rm, ok := r.rooms[code]; ok && fresh(rm.counts[m.Replica], m.At, r.now()) {
		rm.counts[m.Replica] = replicaCount{n: m.Viewers, seen: now, at: m.At}
	}
}

// publishCountLocked tells every replica how many viewers this one has.
func (r *Replica) publishCountLocked(rm *room) {
	b, _ := json.Marshal(countMsg{Replica: r.replica, Viewers: len(rm.viewers), At: r.nextAtLocked()})
	rm.counts[r.replica] = replicaCount{n: len(rm.viewers), seen: time.Now()}
	if rm.attached {
		r.publish(subject(rm.code, "count"), b)
	}
}

// presenceMsg announces how many presenter connections of a room a replica
// holds (0: none since the grace period).
type presenceMsg struct {
	Replica    string `json:"replica"`
	Presenters int    `json:"presenters"`
	At         int64  `json:"at"` // the sender's clock (µs), growing: see fresh
}

// nextAtLocked is the time to stamp a count or presence message with:
// the bus's clock in µs, one more than the last stamp if the clock has not
// moved, so that every message of this replica is newer than the last.
func (r *Replica) nextAtLocked() int64 {
	r.lastAt = max(r.now().UnixMicro(), r.lastAt+1)
	return r.lastAt
}

// fresh reports whether a count or presence message stamped at is news
// after prev, the last one taken from the same replica: newer than it,
// not older than roomCountTTL, not ahead of the clock. now is the bus's
// clock (Replica.now), as the sender's stamp is: a replica whose own
// clock runs 20 s behind would otherwise look silent to the others. A sealed message
// replayed later, by a client on the bus without the secret, is not: it
// could otherwise tell a class that its presenter has stopped, or keep a
// room alive by its counts.
func fresh(prev replicaCount, at int64, now time.Time) bool {
	return at > prev.at && at >= now.Add(-roomCountTTL).UnixMicro() && at <= now.Add(maxVersionAhead).UnixMicro()
}

func (r *Replica) presenceMsgLocked(rm *room) []byte {
	n := rm.presenters
	if rm.live {
		n = max(n, 1) // within the grace period the room is still presented
	} else {
		n = 0
	}
	b, _ := json.Marshal(presenceMsg{Replica: r.replica, Presenters: n, At: r.nextAtLocked()})
	return b
}

// announceLocked tells every replica whether this one holds a presenter.
func (r *Replica) announceLocked(rm *room) {
	if rm.attached {
		r.publish(subject(rm.code, "presence"), r.presenceMsgLocked(rm))
	}
}

func (r *Replica) onPresence(code, subj string, sealed []byte) {
	data, ok := r.unseal(subj, sealed)
	var m presenceMsg
	if !ok || json.Unmarshal(data, &m) != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[code]
	now := time.Now()
	if !ok || m.Replica == r.replica || !fresh(rm.presence[m.Replica], m.At, r.now()) {
		return
	}
	rm.presence[m.Replica] = replicaCount{n: m.Presenters, seen: now, at: m.At}
	if m.Presenters == 0 && rm.live {
		// A replica lost its presenter: make sure everyone knows this one
		// still has one, not only those that have heard its heartbeat.
		r.announceLocked(rm)
	}
	r.presenceChangedLocked(rm, time.Now())
}

// askPresence asks the other replicas whether one holds the presenter of
// a room this replica has just attached; only those that do answer.
func (r *Replica) askPresence(ctx context.Context, code string, rm *room) {
	ask := subject(code, "presenter")
	ctx, cancel := context.WithTimeout(ctx, JoinTimeout)
	sealed, err := r.bus.Request(ctx, ask, nil)
	cancel()
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.rooms[code] != rm {
		return
	}
	var m presenceMsg
	if err == nil {
		now := time.Now()
		if data, ok := r.unseal(ask, sealed); ok && json.Unmarshal(data, &m) == nil && m.Replica != r.replica && fresh(rm.presence[m.Replica], m.At, r.now()) {
			rm.presence[m.Replica] = replicaCount{n: m.Presenters, seen: now, at: m.At}
		}
	}
	if err != nil && !errors.Is(err, ErrNoAnswer) {
		return // the bus failed: stay unknown until it is back (busChanged asks again)
	}
	rm.known = true
	r.presenceChangedLocked(rm, time.Now())
}

// presentedLocked reports whether a presenter connection of the room is
// open on some replica, as far as this one knows.
func (r *Replica) presentedLocked(rm *room, now time.Time) bool {
	return rm.live || rm.presenters > 0 || !rm.known || othersPresentLocked(rm, now)
}

// othersPresentLocked reports whether another replica's fresh count has a
// presenter connection of the room.
func othersPresentLocked(rm *room, now time.Time) bool {
	for _, c := range rm.presence {
		if c.n > 0 && now.Sub(c.seen) <= roomCountTTL {
			return true
		}
	}
	return false
}

// presenceChangedLocked tells local viewers when the presenter leaves or
// comes back. While the bus is down nobody's heartbeat arrives, which
// says nothing about the presenter: viewers hear "reconnecting" instead.
func (r *Replica) presenceChangedLocked(rm *room, now time.Time) {
	if !r.busUp {
		return
	}
	p := r.presentedLocked(rm, now)
	if p == rm.presenting {
		return
	}
	rm.presenting = p
	for v := range rm.viewers {
		v.offerPresence(p)
	}
}

// busChanged hears the bus going down or coming back. Down: viewers are
// told the room is reconnecting. Back: the replica catches up on states
// it missed, asks again who presents, and re-announces itself.
func (r *Replica) busChanged(up bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.busUp == up {
		return
	}
	r.busUp = up
	r.log.Info("room: bus", "up", up)
	if up && r.ends == nil {
		r.spawn(r.listenForEnds)
	}
	for code, rm := range r.rooms {
		if !rm.attached {
			continue
		}
		for v := range rm.viewers {
			v.offerLink(up)
		}
		if !up {
			continue
		}
		clear(rm.presence)
		rm.known = rm.live
		if !rm.known {
			r.spawn(func(ctx context.Context) { r.askPresence(ctx, code, rm) })
		}
		r.spawn(func(ctx context.Context) { r.refresh(ctx, code) })
		r.announceLocked(rm)
		r.publishCountLocked(rm)
		if rm.live {
			// States published while the bus was failing may be lost:
			// the presenter's replica says the newest one again.
			r.markDirtyLocked(code)
			if raw, err := encodeState(rm.state); err == nil {
				r.publish(subject(code, "state"), raw)
			}
		}
	}
}

// BusUp reports whether the rooms' bus is connected.
func (r *Replica) BusUp() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.busUp
}

// endPresence runs grace after a room's last local presenter left: if none
// came back, this replica stops announcing one.
func (r *Replica) endPresence(code string, rm *room) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.rooms[code] != rm || rm.presenters > 0 || !rm.live {
		return
	}
	rm.live = false
	r.announceLocked(rm)
	r.presenceChangedLocked(rm, time.Now())
}

// Presenting reports whether the room with code has a presenter connected
// on some replica, as far as this replica knows.
func (r *Replica) Presenting(code string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[code]
	return ok && r.presentedLocked(rm, time.Now())
}

// PresentingNow reports whether a presenter connection of the room with
// code is open right now, as far as this replica knows for sure: one of
// its own, or another replica's fresh count. Unlike Presenting it says no
// when presence is not yet known (a room loaded from the store) and
// during the grace after the last presenter connection closed, so that a
// presenter who comes back is not taken for a second one.
func (r *Replica) PresentingNow(code string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[code]
	return ok && (rm.presenters > 0 || othersPresentLocked(rm, time.Now()))
}

func encodeState(st State) ([]byte, error) {
	// Without HTML escaping a query's every & stays one byte, not six.
	var w bytes.Buffer
	enc := json.NewEncoder(&w)
	enc.SetEscapeHTML(false)
	err := enc.Encode(st)
	b := bytes.TrimSuffix(w.Bytes(), []byte("\n"))
	if err != nil || len(b) > maxRoomStateBytes {
		return nil, fmt.Errorf("%w (%d bytes, at most %d)", ErrRoomState, len(b), maxRoomStateBytes)
	}
	return b, nil
}

func decodeState(b []byte) (State, error) {
	var st State
	if len(b) > maxRoomStateBytes {
		return st, ErrRoomState
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, fmt.Errorf("%w: %v", ErrRoomState, err)
	}
	return st, nil
}
