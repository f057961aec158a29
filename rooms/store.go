package rooms

// The room store: each room's record in the bus's key-value storage,
// written behind the live traffic by one persister, read when a replica
// first serves a room or comes back from a bus fault.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// roomRecord is a room as the store keeps it.
type roomRecord struct {
	Created int64 `json:"created"`
	Expires int64 `json:"expires"`
	State   State `json:"state"`
	// Ended: the room's presenter ended it. Its record stays, sealed, as
	// a tombstone until the bucket's TTL (the room's lifetime) takes it,
	// so that a record missing from the store means lost (a store
	// recreated empty) or let go of (nobody in it), never ended, and the
	// code is not drawn again meanwhile.
	Ended bool `json:"ended,omitempty"`
	// Written is when it was written, on the bus's clock (µs): a record
	// whose store time (RoomEntry.Stored, set by the store) is further
	// from it than recordSkew has been written back later, a capture
	// replayed by a client on the bus, and is not taken. Zero (a record
	// of an older version, or written before this replica knew its
	// offset from the bus) binds nothing.
	Written int64 `json:"written,omitempty"`
}

// recordSkew is how far a record's Written may be from the time the store
// wrote it: the measurement's error and the write's own time, with room.
const recordSkew = 10 * time.Second

// errEnded: the store holds the room's tombstone.
var errEnded = fmt.Errorf("%w (its presenter ended it)", ErrNoRoom)

// markDirtyLocked queues the room's record for the store.
func (r *Replica) markDirtyLocked(code string) {
	r.dirty[code] = struct{}{}
	select {
	case r.persist <- struct{}{}:
	default:
	}
}

// persister writes dirty records to the store, newest state only, so a
// presenter's many states cost a few writes and a slow store slows no one.
// A round that could not write a record tries again a second later even
// if no other write comes: the last state of a room must reach the store.
func (r *Replica) persister(ctx context.Context) {
	var retry <-chan time.Time
	for {
		select {
		case <-ctx.Done():
			// A state issued just before the replica stops (a question
			// asked, an answer's room) is written before it goes, with a
			// context of its own: the replica that comes back, or another
			// one the presenter reconnects to, reads it from the store.
			fctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
			r.persistRound(fctx)
			cancel()
			return
		case <-r.persist:
		case <-retry:
		}
		retry = nil
		if r.persistRound(ctx) {
			retry = time.After(time.Second)
		}
	}
}

// persistRound writes the records dirty now, under persistMu; failed says
// that some could not be, and are dirty again.
func (r *Replica) persistRound(ctx context.Context) (failed bool) {
	r.persistMu.Lock()
	defer r.persistMu.Unlock()
	type write struct {
		rec              []byte
		created, version int64
	}
	r.mu.Lock()
	recs := make(map[string]write, len(r.dirty))
	now := r.now().UnixMicro()
	for code := range r.dirty {
		if rm, ok := r.rooms[code]; ok && !rm.ended && now < rm.expires {
			recs[code] = write{r.recordLocked(rm), rm.created, rm.state.Version}
		}
	}
	clear(r.dirty)
	r.mu.Unlock()
	for code, w := range recs {
		ctx, cancel := context.WithTimeout(ctx, storeTimeout)
		err := r.storeRecord(ctx, code, w.rec, w.version)
		cancel()
		if errors.Is(err, errEnded) {
			// Ended on another replica, and this one missed the word.
			r.log.Info("room: the store says a room held here has ended", "room", code)
			r.endLocal(code, w.created)
			continue
		}
		if err != nil {
			if ctx.Err() == nil {
				r.log.Warn("room: store", "room", code, "err", err)
			}
			r.mu.Lock()
			if _, ok := r.rooms[code]; ok {
				r.dirty[code] = struct{}{}
				failed = true
			}
			r.mu.Unlock()
		}
	}
	return failed
}

func (r *Replica) recordLocked(rm *room) []byte {
	return r.sealRecord(rm.code, roomRecord{Created: rm.created, Expires: rm.expires, State: rm.state})
}

// sealRecord stamps a record with the time it is written (once this
// replica knows its clock's offset from the bus) and seals it.
func (r *Replica) sealRecord(code string, rec roomRecord) []byte {
	if _, known := r.ClockOffset(); known {
		rec.Written = r.now().UnixMicro()
	}
	b, _ := json.Marshal(rec)
	return r.seal("store."+code, b)
}

// storeRecord writes a room's sealed record at state version unless the
// store holds the room's tombstone (errEnded) or a state as new. A record
// missing from the store is written again: it was lost with the store,
// or let go of by a replica that had nobody in it, and this replica
// holds the room. Every write is against the revision read, so two
// replicas writing at once, or an end in between, decide again.
func (r *Replica) storeRecord(ctx context.Context, code string, sealed []byte, version int64) error {
	for range 4 {
		e, err := r.bus.GetRoom(ctx, code)
		if errors.Is(err, ErrNoRoom) {
			if err = r.bus.CreateRoom(ctx, code, sealed); errors.Is(err, ErrRoomExists) {
				continue
			}
			return err
		}
		if err != nil {
			return err
		}
		if rec, err := r.decodeRecord(code, e); err == nil || errors.Is(err, errEnded) {
			if rec.Ended {
				return errEnded
			}
			if rec.State.Version >= version {
				return nil
			}
		} // else not ours, or written back later: ours replaces it
		if err = r.bus.UpdateRoom(ctx, code, sealed, e.Revision); errors.Is(err, ErrRoomChanged) {
			continue
		}
		return err
	}
	return fmt.Errorf("store %s: the record kept changing under the write", code)
}

// decodeRecord unseals a stored record: errEnded for a tombstone (with the
// record), ErrNoRoom for one not sealed with this secret or written back
// later than it was written.
func (r *Replica) decodeRecord(code string, e RoomEntry) (roomRecord, error) {
	data, ok := r.unseal("store."+code, e.Value)
	var rec roomRecord
	if !ok || json.Unmarshal(data, &rec) != nil {
		r.log.Warn("room: the store holds a record not sealed with this secret", "room", code)
		return roomRecord{}, ErrNoRoom
	}
	if rec.Written != 0 && !e.Stored.IsZero() {
		if d := e.Stored.Sub(time.UnixMicro(rec.Written)).Abs(); d > recordSkew {
			r.log.Warn("room: the store holds a record written back later than it was made (a replay): not taken",
				"room", code, "apart", d.Round(time.Second))
			return roomRecord{}, ErrNoRoom
		}
	}
	if rec.Ended {
		return rec, errEnded
	}
	return rec, nil
}

// load reads a room's record from the store: errEnded (an ErrNoRoom) when
// its presenter ended it, ErrNoRoom when there is none (or it has
// expired, is not sealed with our secret, or was written back later),
// ErrBusDown when the store does not answer.
func (r *Replica) load(ctx context.Context, code string) (roomRecord, error) {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	e, err := r.bus.GetRoom(ctx, code)
	if errors.Is(err, ErrNoRoom) {
		return roomRecord{}, ErrNoRoom
	}
	if err != nil {
		return roomRecord{}, fmt.Errorf("%w: %v", ErrBusDown, err)
	}
	rec, err := r.decodeRecord(code, e)
	if err != nil {
		return roomRecord{}, err
	}
	if r.now().UnixMicro() >= rec.Expires {
		return roomRecord{}, ErrNoRoom
	}
	return rec, nil
}

// lookup returns the room's record from the index, or from the store
// (indexing it) when this replica does not hold it.
func (r *Replica) lookup(ctx context.Context, code string) (*room, error) {
	now := r.now().UnixMicro()
	r.mu.Lock()
	rm, ok := r.rooms[code]
	r.mu.Unlock()
	if ok {
		if now >= rm.expires {
			return nil, ErrNoRoom
		}
		return rm, nil
	}
	rec, err := r.load(ctx, code)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if rm, ok := r.rooms[code]; ok {
		return rm, nil
	}
	rm = newRoom(code, rec)
	r.indexLocked(rm)
	return rm, nil
}

// forget ends a room this replica has let go of: it deletes the room from
// the store unless another replica has said lately that it has someone in
// it (then the room lives on there).
func (r *Replica) forget(ctx context.Context, code string) {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	key := code + activeSuffix
	if e, err := r.bus.GetRoom(ctx, key); err == nil {
		if data, ok := r.unseal("store."+key, e.Value); ok {
			replica, at, _ := strings.Cut(string(data), ":")
			t, err := strconv.ParseInt(at, 10, 64)
			if err == nil && replica != r.replica && r.now().Sub(time.UnixMicro(t)) < r.emptyTTL {
				return
			}
		}
	} else if !errors.Is(err, ErrNoRoom) {
		return // cannot tell: keep it; it expires with the bucket's TTL
	}
	for _, k := range []string{code, key} {
		if err := r.bus.DeleteRoom(ctx, k); err != nil {
			r.log.Warn("room: delete from the store", "room", code, "err", err)
		}
	}
}

// touch records in the store that this replica has someone in the room,
// so that no other replica that has let go of the room ends it meanwhile.
func (r *Replica) touch(ctx context.Context, code string, now time.Time) {
	key := code + activeSuffix
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	if err := r.bus.PutRoom(ctx, key, r.seal("store."+key, []byte(r.replica+":"+strconv.FormatInt(now.UnixMicro(), 10)))); err != nil {
		r.log.Warn("room: store", "room", code, "err", err)
	}
}

// refresh catches up on states a replica missed before it subscribed, or
// while the bus was down: from the store, and from the replicas that hold
// the room (the store is written just behind the bus, so a state
// published a moment ago may be only there).
func (r *Replica) refresh(ctx context.Context, code string) {
	rec, err := r.load(ctx, code)
	switch {
	case err == nil:
		r.applyState(code, rec.State)
	case errors.Is(err, errEnded):
		// Ended while this replica was away from the bus (no write
		// replaces a tombstone: storeRecord).
		r.mu.Lock()
		rm, ok := r.rooms[code]
		r.mu.Unlock()
		if ok {
			r.endLocal(code, rm.created)
		}
		return
	case errors.Is(err, ErrNoRoom):
		// Missing: lost with the store, or let go of elsewhere while
		// someone here is in it. This replica holds it: it is written
		// again from what the replicas hold.
		r.mu.Lock()
		if _, ok := r.rooms[code]; ok {
			r.markDirtyLocked(code)
		}
		r.mu.Unlock()
	}
	defer r.loadAnswers(ctx, code) // of the question the newest state asks
	cur := subject(code, "current")
	rctx, cancel := context.WithTimeout(ctx, JoinTimeout)
	defer cancel()
	sealed, err := r.bus.Request(rctx, cur, []byte(r.replica))
	if err != nil {
		return
	}
	if data, ok := r.unseal(cur, sealed); ok {
		if st, err := decodeState(data); err == nil && st.Version <= r.now().Add(maxVersionAhead).UnixMicro() {
			r.applyState(code, st)
		}
	}
}

// storeSweepEvery is how often a replica looks through the store for rooms
// nobody holds.
const storeSweepEvery = 5 * time.Minute

// activeSuffix marks the key of a room's "someone is in it" stamp (touch).
const activeSuffix = ".active"

// sweepStore ends the stored rooms that no replica has had anyone in for
// longer than emptyTTL and that this replica does not hold (a room it holds
// is its own sweep's to end). Who was last in a room is its .active stamp,
// which every replica with someone in the room renews each touchEvery; a
// room never stamped counts from its creation. A stamp a touch behind is
// allowed for, so a room in use elsewhere is never ended here. Records
// this replica cannot unseal are left alone (the bucket's TTL takes them).
func (r *Replica) sweepStore(ctx context.Context, now time.Time) {
	r.mu.Lock()
	up := r.busUp
	r.mu.Unlock()
	if !up {
		return
	}
	lctx, cancel := context.WithTimeout(ctx, 2*storeTimeout)
	keys, err := r.bus.ListRooms(lctx)
	cancel()
	if err != nil {
		r.log.Warn("room: list the store", "err", err)
		return
	}
	stored := make(map[string]bool, len(keys))
	for _, k := range keys {
		stored[k] = true
	}
	ended := 0
	for _, k := range keys {
		if room, ok := answerRoom(k); ok {
			// An answer goes with its room: it is judged with it, and
			// deleted once the room's record is gone.
			if !stored[room] {
				r.deleteKey(ctx, k)
			}
			continue
		}
		code, stamp := strings.CutSuffix(k, activeSuffix)
		if stamp && stored[code] {
			continue // judged with its record
		}
		r.mu.Lock()
		_, held := r.rooms[code]
		r.mu.Unlock()
		if held {
			continue
		}
		last, ok := r.lastIn(ctx, code, stamp)
		if !ok || now.Sub(last) < r.emptyTTL+touchEvery {
			continue
		}
		dctx, cancel := context.WithTimeout(ctx, storeTimeout)
		for _, key := range []string{code, code + activeSuffix} {
			if err := r.bus.DeleteRoom(dctx, key); err != nil {
				r.log.Warn("room: delete from the store", "room", code, "err", err)
			}
		}
		cancel()
		if !stamp {
			ended++
		}
	}
	if ended > 0 {
		r.log.Info("room: ended rooms nobody has been in", "rooms", ended, "empty for at least", r.emptyTTL)
	}
}

// lastIn is when someone was last in the stored room, as its record and
// its stamp tell: ok is false when neither can be read (not ours, or the
// store did not answer). onlyStamp: the room has a stamp and no record.
func (r *Replica) lastIn(ctx context.Context, code string, onlyStamp bool) (time.Time, bool) {
	var last time.Time
	if !onlyStamp {
		rec, err := r.load(ctx, code)
		if err != nil {
			return time.Time{}, false // gone meanwhile, expired (the bucket's TTL takes it), not ours, or no answer
		}
		last = time.UnixMicro(rec.Created)
	}
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	key := code + activeSuffix
	e, err := r.bus.GetRoom(ctx, key)
	switch {
	case errors.Is(err, ErrNoRoom):
		return last, !onlyStamp
	case err != nil:
		return time.Time{}, false
	}
	data, ok := r.unseal("store."+key, e.Value)
	if !ok {
		return last, !onlyStamp
	}
	_, at, _ := strings.Cut(string(data), ":")
	t, err := strconv.ParseInt(at, 10, 64)
	if err != nil {
		return last, !onlyStamp
	}
	if stamped := time.UnixMicro(t); stamped.After(last) {
		last = stamped
	}
	return last, true
}

// deleteKey deletes one key from the store.
func (r *Replica) deleteKey(ctx context.Context, key string) {
	ctx, cancel := context.WithTimeout(ctx, storeTimeout)
	defer cancel()
	if err := r.bus.DeleteRoom(ctx, key); err != nil {
		r.log.Warn("room: delete from the store", "key", key, "err", err)
	}
}
