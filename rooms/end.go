package rooms

// Ending a room: its presenter ends it for everyone at once, on every
// replica, instead of leaving it open until it has been empty a while.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// endMsg is the bus's word that a room has ended. Created names the room
// (a later room may draw the same code), so that an end message replayed
// later ends nothing.
type endMsg struct {
	Created int64 `json:"created"`
}

// End ends the room for everyone: its record in the store becomes a
// sealed tombstone (kept until the room would have expired), so that its
// code, its links and its presenter tokens open nothing any more, and no
// write of an older record, late or replayed, brings it back;
// every replica hears it on the bus and tells its viewers
// (ViewerEvent.Ended) and presenters (Presenter.Ended), and lets go of
// the room. ErrNotPresenter when token is not the room's presenter
// token, ErrNoRoom when there is no such room (it has ended already),
// ErrBusDown when the bus or the store cannot be reached now: then the
// room goes on. A caller that goes (ctx) stops waiting for the store;
// once the room's tombstone is written, the end is said all the same.
func (r *Replica) End(ctx context.Context, code, token string) error {
	code, ok := NormalizeCode(code)
	if !ok {
		return ErrNoRoom
	}
	rm, err := r.presentedBy(ctx, code, token)
	if err != nil {
		return err
	}
	if !r.BusUp() {
		return ErrBusDown // the other replicas would not hear of it
	}
	created, expires := rm.created, rm.expires // a room's record fields never change
	// This replica's persister cannot be writing the record meanwhile,
	// and after endLocal it has nothing of the room left to write. A
	// round of writes to a stalled store can hold the lock for long: the
	// presenter hears so, rather than waiting for it.
	if !r.lockPersist(2 * storeTimeout) {
		return fmt.Errorf("%w: the store is slow to answer", ErrBusDown)
	}
	defer r.persistMu.Unlock()
	if err := r.endRecord(ctx, code, created, expires); err != nil {
		return fmt.Errorf("%w: %v", ErrBusDown, err)
	}
	b, err := json.Marshal(endMsg{Created: created})
	if err != nil {
		return err
	}
	// Straight to the bus, not through the sender's queue, which drops
	// what it cannot hold: an end is said once. (A replica that misses
	// it all the same finds the record gone when it next writes or comes
	// back to the bus.)
	subj := subject(code, "end")
	if err := r.bus.Publish(context.WithoutCancel(ctx), subj, r.seal(subj, b)); err != nil {
		r.log.Warn("room: publish an end", "room", code, "err", err)
	}
	r.endLocal(code, created)
	r.spawn(func(ctx context.Context) { r.deleteAnswers(ctx, code) }) // the class's answers go with the room
	r.log.Info("room: ended by its presenter", "room", code)
	return nil
}

// lockPersist takes persistMu within wait, or reports that it could not.
func (r *Replica) lockPersist(wait time.Duration) bool {
	deadline := time.Now().Add(wait)
	for !r.persistMu.TryLock() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(5 * time.Millisecond)
	}
	return true
}

// endRecord writes the room's tombstone over its record, and removes its
// "someone is in it" stamp. A tombstone, not a deletion: a record missing
// from the store is one the store lost, which the replicas holding the
// room write again (storeRecord), where a tombstone refuses every write;
// and Create draws another code while it stays. The bucket's TTL (the
// room's lifetime) takes it.
func (r *Replica) endRecord(ctx context.Context, code string, created, expires int64) error {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	if err := r.bus.PutRoom(ctx, code, r.sealRecord(code, roomRecord{Created: created, Expires: expires, Ended: true})); err != nil {
		return err
	}
	if err := r.bus.DeleteRoom(ctx, code+activeSuffix); err != nil && !errors.Is(err, ErrNoRoom) {
		return err
	}
	return nil
}

// endLocal tells this replica's viewers of the room, created at created,
// that it has ended, and lets go of it (its presenters see that in
// Presenter.Ended).
func (r *Replica) endLocal(code string, created int64) {
	r.mu.Lock()
	rm, ok := r.rooms[code]
	if !ok || rm.created != created {
		r.mu.Unlock()
		return
	}
	rm.ended = true
	for v := range rm.viewers {
		v.offerEnded()
	}
	unsubscribe := r.dropLocked(rm)
	r.mu.Unlock()
	unsubscribe()
}

// endsSubject is every room's end: a replica hears all of them, so that
// a room it holds without following it (opened here, or only looked up)
// ends here too.
const endsSubject = "stridescope.room.*.end"

// listenForEnds subscribes to every room's end, once; while the bus is
// down it cannot, and busChanged tries again when the bus is back.
func (r *Replica) listenForEnds(ctx context.Context) {
	stop, err := r.bus.Subscribe(ctx, endsSubject, func(subj string, data []byte) {
		code := strings.TrimSuffix(strings.TrimPrefix(subj, "stridescope.room."), ".end")
		r.onEnd(code, subj, data)
	})
	if err != nil {
		r.log.Warn("room: listen for ends", "err", err)
		return
	}
	r.mu.Lock()
	already := r.ends != nil
	if !already {
		r.ends = stop
	}
	r.mu.Unlock()
	if already {
		stop()
	}
}

// onEnd is a replica's word that a room has ended.
func (r *Replica) onEnd(code, subj string, sealed []byte) {
	data, ok := r.unseal(subj, sealed)
	var m endMsg
	if !ok || json.Unmarshal(data, &m) != nil {
		r.log.Warn("room: dropped an end that is not sealed with the room secret", "room", code)
		return
	}
	// Unsubscribing and the store are bus I/O: not on the bus's callback.
	r.spawn(func(ctx context.Context) {
		r.mu.Lock()
		rm, held := r.rooms[code]
		live := held && rm.created == m.Created && rm.live
		var expires int64
		if held {
			expires = rm.expires
		}
		r.mu.Unlock()
		if !live {
			r.endLocal(code, m.Created)
			return
		}
		// A presenter here: this replica's persister may have a write of
		// the record in flight, read before the tombstone was written. It
		// cannot land (it writes against the revision it read), but the
		// tombstone is written again once it is done all the same: it
		// costs one write, and an older replica may share the bus.
		r.persistMu.Lock()
		defer r.persistMu.Unlock()
		r.endLocal(code, m.Created)
		if err := r.endRecord(ctx, code, m.Created, expires); err != nil {
			r.log.Warn("room: delete an ended room from the store", "room", code, "err", err)
		}
	})
}
