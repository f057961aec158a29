package rooms

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"

	"github.com/stridescope/stridescope/rooms/natstest"
)

// nextNews waits for v's next event that is not a state.
func nextNews(t *testing.T, v *Viewer) ViewerEvent {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		ev, err := v.NextEvent(ctx)
		if err != nil {
			t.Fatalf("no news within 5s: %v", err)
		}
		if ev.Delivery == nil {
			return ev
		}
	}
}

// TestPresenterEndsTheRoomEverywhere: the presenter ends a room on one
// replica; viewers on both hear it, the presenter's connections see it,
// and the code, the link and the token open nothing any more, on either
// replica, while a stranger's token ends nothing.
func TestPresenterEndsTheRoomEverywhere(t *testing.T) {
	a, b, _ := twoReplicas(t)
	code, token, err := a.Create(context.Background(), State{Page: "layout", Query: "sizes=2,3"})
	if err != nil {
		t.Fatal(err)
	}
	other, otherToken, err := a.Create(context.Background(), State{Page: "slice"})
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := a.Present(context.Background(), code, token)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	pb, _, err := b.Present(context.Background(), code, token) // a second tab, on the other replica
	if err != nil {
		t.Fatal(err)
	}
	defer pb.Close()
	var viewers []*Viewer
	for _, r := range []*Replica{a, b} {
		v, err := r.Join(context.Background(), code)
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		nextState(t, v)
		viewers = append(viewers, v)
	}

	for _, tc := range []struct {
		name, token string
		want        error
	}{
		{"no token", "", ErrNotPresenter},
		{"another room's token", otherToken, ErrNotPresenter},
		{"a token cut short", token[:len(token)-1], ErrNotPresenter},
	} {
		if err := b.End(context.Background(), code, tc.token); !errors.Is(err, tc.want) {
			t.Errorf("%s: End = %v, want %v", tc.name, err, tc.want)
		}
	}
	if p.Ended() || pb.Ended() {
		t.Fatal("the room ended without its presenter's token")
	}

	if err := b.End(context.Background(), code, token); err != nil {
		t.Fatalf("End: %v", err)
	}
	for i, v := range viewers {
		if ev := nextNews(t, v); !ev.Ended {
			t.Errorf("viewer %d heard %+v, want the end", i, ev)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for !(p.Ended() && pb.Ended()) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !p.Ended() || !pb.Ended() {
		t.Errorf("presenters see the room ended: %v on a, %v on b", p.Ended(), pb.Ended())
	}
	if err := pb.Update(State{Page: "layout"}); !errors.Is(err, ErrNoRoom) {
		t.Errorf("an ended room's presenter shares a state: %v", err)
	}
	for name, r := range map[string]*Replica{"a": a, "b": b} {
		if _, err := r.Join(context.Background(), code); !errors.Is(err, ErrNoRoom) {
			t.Errorf("%s: Join after the end = %v, want ErrNoRoom", name, err)
		}
		if _, _, err := r.Present(context.Background(), code, token); !errors.Is(err, ErrNotPresenter) {
			t.Errorf("%s: Present after the end = %v, want ErrNotPresenter", name, err)
		}
		if _, err := r.load(context.Background(), code); !errors.Is(err, ErrNoRoom) {
			t.Errorf("%s: the store still holds the room: %v", name, err)
		}
		if err := r.End(context.Background(), code, token); !errors.Is(err, ErrNoRoom) {
			t.Errorf("%s: ending it again = %v, want ErrNoRoom", name, err)
		}
	}
	// The other room goes on.
	if _, err := b.Join(context.Background(), other); err != nil {
		t.Errorf("the other room: %v", err)
	}
}

// TestAnEndReplayedLaterEndsNothing: an end message names the room it
// ended by its creation, so one replayed on the bus does not end a later
// room that drew the same code.
func TestAnEndReplayedLaterEndsNothing(t *testing.T) {
	a, b, _ := twoReplicas(t)
	code, token, err := a.Create(context.Background(), State{Page: "layout"})
	if err != nil {
		t.Fatal(err)
	}
	v, err := b.Join(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	nextState(t, v)
	b.mu.Lock()
	created := b.rooms[code].created
	b.mu.Unlock()

	// The same code for a room made later than the one the end names.
	b.onEnd(code, subject(code, "end"), a.seal(subject(code, "end"), []byte(`{"created":`+strconv.FormatInt(created-1, 10)+`}`)))
	// And an end not sealed with the secret.
	b.onEnd(code, subject(code, "end"), []byte(`forged.{"created":`+strconv.FormatInt(created, 10)+`}`))
	time.Sleep(200 * time.Millisecond)
	if _, err := b.Join(context.Background(), code); err != nil {
		t.Fatalf("the room ended: %v", err)
	}
	if err := a.End(context.Background(), code, token); err != nil {
		t.Fatal(err)
	}
	if ev := nextNews(t, v); !ev.Ended {
		t.Errorf("the viewer heard %+v, want the end", ev)
	}
}

// TestEndingWithTheBusDownKeepsTheRoom: with the NATS server gone the
// other replicas would not hear of the end, so the room goes on and the
// presenter is told to try again.
func TestEndingWithTheBusDownKeepsTheRoom(t *testing.T) {
	ns := natstest.Start(t, natsserver.Options{})
	bus, err := DialBus(ns.ClientURL())
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRooms(t, bus)
	code, token, err := r.Create(context.Background(), State{Page: "layout"})
	if err != nil {
		t.Fatal(err)
	}
	ns.Shutdown()
	deadline := time.Now().Add(5 * time.Second)
	for r.BusUp() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if err := r.End(context.Background(), code, token); !errors.Is(err, ErrBusDown) {
		t.Fatalf("End with the bus down = %v, want ErrBusDown", err)
	}
	r.mu.Lock()
	_, held := r.rooms[code]
	r.mu.Unlock()
	if !held {
		t.Error("the replica let go of the room it could not end")
	}
}

// TestAnEndReachesAReplicaThatOnlyIndexedTheRoom: a replica that opened
// the room (or only looked it up) holds it without following its
// subjects; the end reaches it all the same, and neither a join nor the
// old token opens the room there afterwards.
func TestAnEndReachesAReplicaThatOnlyIndexedTheRoom(t *testing.T) {
	a, b, _ := twoReplicas(t)
	code, token, err := a.Create(context.Background(), State{Page: "layout", Query: "sizes=2,3"})
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := b.Present(context.Background(), code, token)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := b.End(context.Background(), code, token); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for a.Len() != 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if v, err := a.Join(context.Background(), code); !errors.Is(err, ErrNoRoom) {
		if v != nil {
			v.Close()
		}
		t.Errorf("a: Join after the end = %v, want ErrNoRoom", err)
	}
	if _, _, err := a.Present(context.Background(), code, token); !errors.Is(err, ErrNotPresenter) {
		t.Errorf("a: Present after the end = %v, want ErrNotPresenter", err)
	}
}

// TestJoinsRacingAnEndDoNotBringTheRoomBack: joins on the replica that
// ends the room, at the same moment, either fail or hear the end; none
// puts the room back in the replica's index.
func TestJoinsRacingAnEndDoNotBringTheRoomBack(t *testing.T) {
	a, b, _ := twoReplicas(t)
	for i := range 20 {
		code, token, err := a.Create(context.Background(), State{Page: "layout"})
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var untold atomic.Int32
		for range 8 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				v, err := b.Join(context.Background(), code)
				if err != nil {
					return
				}
				defer v.Close()
				ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				for {
					ev, err := v.NextEvent(ctx)
					if err != nil {
						untold.Add(1)
						return
					}
					if ev.Ended {
						return
					}
				}
			}()
		}
		time.Sleep(time.Duration(i%5) * time.Millisecond)
		if err := b.End(context.Background(), code, token); err != nil {
			t.Fatalf("round %d: End: %v", i, err)
		}
		wg.Wait()
		if n := untold.Load(); n > 0 {
			t.Errorf("round %d: %d viewers joined and never heard the end", i, n)
		}
		b.mu.Lock()
		_, held := b.rooms[code]
		b.mu.Unlock()
		if held {
			t.Errorf("round %d: the ended room is back in the index", i)
		}
	}
}

// missEnds makes r deaf to ends, as a replica whose bus lost the message.
func missEnds(r *Replica) {
	r.mu.Lock()
	stop := r.ends
	r.ends = func() {} // not nil: the bus coming back does not listen again
	r.mu.Unlock()
	if stop != nil {
		stop()
	}
}

// TestAReplicaThatMissedTheEndFindsItOut: a replica that did not hear the
// end (a lost message) does not bring the room back when its presenter's
// tab shares a state (its write finds the record gone), and a replica
// with only viewers finds it out when its bus comes back; both tell
// their people.
func TestAReplicaThatMissedTheEndFindsItOut(t *testing.T) {
	a, b, url := twoReplicas(t)
	bus, err := DialBus(url)
	if err != nil {
		t.Fatal(err)
	}
	c := newTestRooms(t, bus)
	code, token, err := a.Create(context.Background(), State{Page: "layout"})
	if err != nil {
		t.Fatal(err)
	}
	pb, _, err := b.Present(context.Background(), code, token) // a tab left open on b
	if err != nil {
		t.Fatal(err)
	}
	defer pb.Close()
	vb, err := b.Join(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	defer vb.Close()
	vc, err := c.Join(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	defer vc.Close()
	nextState(t, vb)
	nextState(t, vc)
	missEnds(b)
	missEnds(c)

	if err := a.End(context.Background(), code, token); err != nil {
		t.Fatal(err)
	}
	// The tab's state goes to b, which has not heard the end: its write
	// finds the record gone. On a busy machine b's own write of the
	// room's last state can find that out first; the state is refused
	// then (no such room), and brings nothing back either.
	if err := pb.Update(State{Page: "layout", Query: "sizes=9"}); err != nil && !errors.Is(err, ErrNoRoom) {
		t.Fatalf("the tab's state: %v", err)
	}
	if ev := nextNews(t, vb); !ev.Ended {
		t.Errorf("b's viewer heard %+v, want the end", ev)
	}
	if !pb.Ended() {
		t.Error("b's presenter does not see the end")
	}
	if _, err := a.load(context.Background(), code); !errors.Is(err, ErrNoRoom) {
		t.Errorf("the tab's state brought the room back to the store: %v", err)
	}
	c.busChanged(false)
	c.busChanged(true)
	for ev := nextNews(t, vc); !ev.Ended; ev = nextNews(t, vc) {
		if !ev.Link {
			t.Fatalf("c's viewer heard %+v, want the bus's coming and going, then the end", ev)
		}
	}
}
