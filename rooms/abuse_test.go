package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// TestRoomBusDropsForgedStates (F3): a client that reaches NATS but lacks
// the room secret cannot push a state, not even one whose version would
// freeze the room; a sealed state replayed into another room, or replayed
// late, is dropped too; the presenter's next state still arrives.
func TestRoomBusDropsForgedStates(t *testing.T) {
	a, b, nurl := twoReplicas(t)
	code, token, err := a.Create(context.Background(), State{Page: "layout", Query: "q=0"})
	if err != nil {
		t.Fatal(err)
	}
	other, _, err := a.Create(context.Background(), State{Page: "layout", Query: "other"})
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := a.Present(context.Background(), code, token)
	if err != nil {
		t.Fatal(err)
	}
	v, err := b.Join(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if st := nextState(t, v); st.Query != "q=0" {
		t.Fatalf("first state %+v", st)
	}
	vo, err := b.Join(context.Background(), other)
	if err != nil {
		t.Fatal(err)
	}
	defer vo.Close()
	nextState(t, vo)

	// Capture a genuine sealed state of the room as it travels.
	raw, err := nats.Connect(nurl)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	captured := make(chan []byte, 4)
	sub, err := raw.Subscribe(subject(code, "state"), func(m *nats.Msg) { captured <- m.Data })
	if err != nil {
		t.Fatal(err)
	}
	raw.Flush()
	if err := p.Update(State{Page: "layout", Query: "q=1"}); err != nil {
		t.Fatal(err)
	}
	if st := nextState(t, v); st.Query != "q=1" {
		t.Fatalf("presenter's state: %+v", st)
	}
	var genuine []byte
	select {
	case genuine = <-captured:
	case <-time.After(5 * time.Second):
		t.Fatal("no state seen on the bus")
	}
	sub.Unsubscribe()

	forged := func(version int64, query string) []byte {
		b, _ := json.Marshal(State{Page: "layout", Query: query, Version: version})
		return b
	}
	wrongKey := NewReplica(a.bus, []byte("not the room secret"), nil)
	run(t, wrongKey)
	for _, tc := range []struct {
		name, subject string
		data          []byte
	}{
		{"unsigned, maximum version", subject(code, "state"), forged(math.MaxInt64, "forged-unsigned")},
		{"sealed with another secret", subject(code, "state"), wrongKey.seal(subject(code, "state"), forged(math.MaxInt64, "forged-key"))},
		{"a MAC glued to other data", subject(code, "state"), append([]byte(strings.SplitN(string(genuine), ".", 2)[0]+"."), forged(math.MaxInt64, "forged-glued")...)},
		{"genuine, replayed into another room", subject(other, "state"), genuine},
		{"genuine, replayed later", subject(code, "state"), genuine},
	} {
		if err := raw.Publish(tc.subject, tc.data); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
	}
	raw.Flush()
	if err := p.Update(State{Page: "layout", Query: "q=2"}); err != nil {
		t.Fatal(err)
	}
	if st := nextState(t, v); st.Query != "q=2" {
		t.Errorf("after forged states the viewer got %+v, want the presenter's q=2", st)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if st, err := vo.Next(ctx); err == nil {
		t.Errorf("the other room took a replayed state: %+v", st)
	}
	if st, _ := a.Current(context.Background(), code); st.Version > time.Now().Add(time.Minute).UnixMicro() {
		t.Errorf("the room's version was pushed to %d", st.Version)
	}
}

// TestRoomCapEndsEmptyRoomsFirst (F5): at the cap, the room empty for
// longest gives way to a teacher's new room; only when every room has
// someone in it is a new one refused.
func TestRoomCapEndsEmptyRoomsFirst(t *testing.T) {
	bus, err := EmbeddedBus("")
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRooms(t, bus)
	r.maxRooms = 4
	var codes, tokens []string
	for i := range 4 {
		code, token, err := r.Create(context.Background(), State{Page: "layout", Query: fmt.Sprint("q=", i)})
		if err != nil {
			t.Fatal(err)
		}
		codes, tokens = append(codes, code), append(tokens, token)
		time.Sleep(2 * time.Millisecond) // distinct emptySince
	}
	// Rooms 1 and 3 are in use; 0 and 2 are empty, 0 for longest.
	p, _, err := r.Present(context.Background(), codes[1], tokens[1])
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	v, err := r.Join(context.Background(), codes[3])
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	for _, want := range []int{0, 2} {
		if _, _, err := r.Create(context.Background(), State{Page: "layout"}); err != nil {
			t.Fatalf("a new room at the cap: %v", err)
		}
		if _, err := r.Current(context.Background(), codes[want]); !errors.Is(err, ErrNoRoom) {
			t.Errorf("empty room %d should have given way: %v", want, err)
		}
	}
	for _, kept := range []int{1, 3} {
		if _, err := r.Current(context.Background(), codes[kept]); err != nil {
			t.Errorf("room %d in use was ended: %v", kept, err)
		}
	}
	if r.Len() != 4 {
		t.Errorf("%d rooms, want the cap of 4", r.Len())
	}
	// Fill the two new rooms with viewers: now every room is in use.
	r.mu.Lock()
	var fresh []string
	for code, rm := range r.rooms {
		if code != codes[1] && code != codes[3] {
			fresh = append(fresh, rm.code)
		}
	}
	r.mu.Unlock()
	for _, code := range fresh {
		v, err := r.Join(context.Background(), code)
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
	}
	if _, _, err := r.Create(context.Background(), State{Page: "layout"}); !errors.Is(err, ErrRoomsFull) {
		t.Errorf("every room in use: %v, want ErrRoomsFull", err)
	}
}

// TestRoomCapOrder (issue #35, finding 3): at the cap, rooms that never had a
// class give way before a class that has gone quiet, however recently
// they were opened; among them, the rooms of the owner holding the most
// go first; a class gives way only when every empty room was one.
func TestRoomCapOrder(t *testing.T) {
	type opened struct {
		owner string
		class bool // a presenter and a viewer came and left
	}
	for _, tc := range []struct {
		name   string
		before []opened // in order, each empty from when it was opened or left
		by     string   // the owner of the new room
		ends   int      // which of before gives way
	}{
		{"a quiet class outlasts rooms opened after it", []opened{{"t", true}, {"x", false}, {"y", false}, {"x", false}}, "y", 1},
		{"the owner holding most gives way first", []opened{{"a", false}, {"b", false}, {"b", false}, {"b", false}}, "c", 1},
		{"between owners holding as many, the longest empty", []opened{{"a", false}, {"b", false}, {"a", true}, {"b", true}}, "c", 0},
		{"a class only when every room was one", []opened{{"t", true}, {"u", true}, {"v", true}, {"v", true}}, "x", 2},
		{"rooms found in the store have no owner", []opened{{"", false}, {"x", false}, {"y", true}, {"z", true}}, "x", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bus, err := EmbeddedBus("")
			if err != nil {
				t.Fatal(err)
			}
			r := newTestRooms(t, bus)
			r.maxRooms = len(tc.before)
			codes := make([]string, len(tc.before))
			for i, o := range tc.before {
				code, token, err := r.CreateFor(context.Background(), o.owner, State{Page: "layout"})
				if err != nil {
					t.Fatal(err)
				}
				codes[i] = code
				if o.class {
					p, _, err := r.Present(context.Background(), code, token)
					if err != nil {
						t.Fatal(err)
					}
					v, err := r.Join(context.Background(), code)
					if err != nil {
						t.Fatal(err)
					}
					v.Close()
					p.Close()
				}
				time.Sleep(2 * time.Millisecond) // distinct emptySince, in order
			}
			if _, _, err := r.CreateFor(context.Background(), tc.by, State{Page: "layout"}); err != nil {
				t.Fatalf("a new room at the cap: %v", err)
			}
			for i, code := range codes {
				_, err := r.Current(context.Background(), code)
				if gone := errors.Is(err, ErrNoRoom); gone != (i == tc.ends) {
					t.Errorf("room %d (%+v): ended %v (%v), want only room %d ended", i, tc.before[i], gone, err, tc.ends)
				}
			}
		})
	}
}

// TestPresenterTokenBoundToRoom (F6): a token expires with its room, names
// its expiry inside its MAC, and cannot re-open a room that has ended,
// nor a later room that happens to get the same code.
func TestPresenterTokenBoundToRoom(t *testing.T) {
	bus, err := EmbeddedBus("")
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRooms(t, bus)
	code, token, err := r.Create(context.Background(), State{Page: "layout"})
	if err != nil {
		t.Fatal(err)
	}
	if exp := TokenExpiry(token); exp.After(time.Now().Add(Lifetime)) || exp.Before(time.Now().Add(Lifetime-time.Minute)) {
		t.Errorf("token expires at %v, want about %v from now", exp, Lifetime)
	}
	exp, mac, _ := strings.Cut(token, ".")
	e, _ := time.Parse(time.RFC3339, "2100-01-01T00:00:00Z")
	for _, bad := range []string{
		fmt.Sprint(e.Unix()) + "." + mac, // a later expiry with the same MAC
		exp + "." + strings.Repeat("A", len(mac)),
		mac,
		"",
	} {
		if err := r.Authorize(context.Background(), code, bad); !errors.Is(err, ErrNotPresenter) {
			t.Errorf("token %q: %v, want ErrNotPresenter", bad, err)
		}
	}
	if err := r.Authorize(context.Background(), code, token); err != nil {
		t.Fatalf("the genuine token: %v", err)
	}

	// The room ends (expired, or given way at the cap): the token opens
	// nothing, and the room is not re-created.
	r.mu.Lock()
	rm := r.rooms[code]
	created := rm.created
	unsubscribe := r.dropLocked(rm)
	r.mu.Unlock()
	unsubscribe()
	r.forget(context.Background(), code)
	if _, _, err := r.Present(context.Background(), code, token); !errors.Is(err, ErrNotPresenter) {
		t.Errorf("presenting an ended room: %v, want ErrNotPresenter", err)
	}
	if _, err := r.Current(context.Background(), code); !errors.Is(err, ErrNoRoom) {
		t.Errorf("an ended room came back: %v", err)
	}

	// A later room with the same code: the old token is not its token.
	now := time.Now()
	rec, _ := json.Marshal(roomRecord{Created: created + 1, Expires: now.Add(Lifetime).UnixMicro(), State: State{Page: "layout", Version: 1}})
	if err := bus.CreateRoom(context.Background(), code, r.seal("store."+code, rec)); err != nil {
		t.Fatal(err)
	}
	if err := r.Authorize(context.Background(), code, token); !errors.Is(err, ErrNotPresenter) {
		t.Errorf("the old token on a new room with the same code: %v, want ErrNotPresenter", err)
	}

	// A room past its lifetime is gone, token or not.
	r.mu.Lock()
	r.rooms[code].expires = now.Add(-time.Second).UnixMicro()
	r.mu.Unlock()
	if _, err := r.Current(context.Background(), code); !errors.Is(err, ErrNoRoom) {
		t.Errorf("an expired room: %v, want ErrNoRoom", err)
	}
}

// TestRoomLivesWhereItsClassIs: a room opened on one replica and used on
// another is not ended by the first when it lets go of it; it ends when
// the replica with the class lets go too.
func TestRoomLivesWhereItsClassIs(t *testing.T) {
	a, b, _ := twoReplicas(t)
	code, token, err := a.Create(context.Background(), State{Page: "layout", Query: "q=0"})
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := b.Present(context.Background(), code, token)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	b.sweep(context.Background(), now) // B says it has someone in the room
	a.sweep(context.Background(), now.Add(a.emptyTTL+time.Minute))
	if a.Len() != 0 {
		t.Fatal("A should have let go of a room nobody uses there")
	}
	if _, err := a.Current(context.Background(), code); err != nil {
		t.Errorf("A ended a room whose class is on B: %v", err)
	}
	p.Close()
	b.mu.Lock()
	b.rooms[code].emptySince = now.Add(-2 * b.emptyTTL)
	b.mu.Unlock()
	a.mu.Lock()
	delete(a.rooms, code) // A's Current indexed it again
	a.mu.Unlock()
	b.sweep(context.Background(), now.Add(b.emptyTTL+time.Minute))
	if _, err := a.Current(context.Background(), code); !errors.Is(err, ErrNoRoom) {
		t.Errorf("the room outlived its class: %v, want ErrNoRoom", err)
	}
}

// TestStoreSweepEndsRoomsNobodyHolds: after every replica that held a room
// restarted (or died), the room is still in the store; a replica's store
// sweep ends it once nobody has been in it for longer than emptyTTL, and
// leaves alone rooms someone is in elsewhere and rooms it holds itself.
func TestStoreSweepEndsRoomsNobodyHolds(t *testing.T) {
	a, b, _ := twoReplicas(t)
	stored := func(code string) bool {
		t.Helper()
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		_, err := b.bus.GetRoom(ctx, code)
		if err != nil && !errors.Is(err, ErrNoRoom) {
			t.Fatal(err)
		}
		return err == nil
	}
	open := func(present bool) (string, time.Time) {
		t.Helper()
		code, token, err := a.Create(context.Background(), State{Page: "layout", Query: "sizes=2,3"})
		if err != nil {
			t.Fatal(err)
		}
		at := time.Now()
		if present {
			p, _, err := a.Present(context.Background(), code, token)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(p.Close)
		}
		return code, at
	}
	long := a.emptyTTL + touchEvery + time.Second

	// The class was in the room when its replica went away: the room
	// lives until nobody has been in it for emptyTTL (and a touch).
	gone, at := open(true)
	a.sweep(context.Background(), at) // A stamps the room
	b.sweepStore(context.Background(), at.Add(a.emptyTTL))
	if !stored(gone) {
		t.Fatal("a room whose class may still come back was ended")
	}
	b.sweepStore(context.Background(), at.Add(long))
	if stored(gone) || stored(gone+activeSuffix) {
		t.Error("a room nobody has been in for longer than emptyTTL is still in the store")
	}
	if _, err := b.Current(context.Background(), gone); !errors.Is(err, ErrNoRoom) {
		t.Errorf("its code still opens it: %v", err)
	}

	// A room someone is in on A (A stamps it each touchEvery) stays.
	used, at := open(true)
	a.sweep(context.Background(), at)
	a.sweep(context.Background(), at.Add(a.emptyTTL)) // still someone there ten minutes on
	b.sweepStore(context.Background(), at.Add(long))
	if !stored(used) {
		t.Error("a room in use on another replica was ended")
	}

	// A room never stamped (its presenter never came) counts from its
	// creation.
	unused, at := open(false)
	b.sweepStore(context.Background(), at.Add(a.emptyTTL))
	if !stored(unused) {
		t.Fatal("a room opened less than emptyTTL ago was ended")
	}
	b.sweepStore(context.Background(), at.Add(long))
	if stored(unused) {
		t.Error("a room nobody ever entered outlived emptyTTL")
	}

	// A room B holds is B's own sweep's to end, whatever the store says.
	held, at := open(false)
	if _, err := b.Current(context.Background(), held); err != nil { // B indexes it
		t.Fatal(err)
	}
	b.sweepStore(context.Background(), at.Add(long))
	if !stored(held) {
		t.Error("the store sweep ended a room this replica holds")
	}
}
