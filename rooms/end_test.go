package rooms

import (
	"context"
	"errors"
	"strconv"
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
	code, token, err := a.Create(State{Page: "layout", Query: "sizes=2,3"})
	if err != nil {
		t.Fatal(err)
	}
	other, otherToken, err := a.Create(State{Page: "slice"})
	if err != nil {
		t.Fatal(err)
	}
	p, _, err := a.Present(code, token)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	pb, _, err := b.Present(code, token) // a second tab, on the other replica
	if err != nil {
		t.Fatal(err)
	}
	defer pb.Close()
	var viewers []*Viewer
	for _, r := range []*Replica{a, b} {
		v, err := r.Join(code)
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
		if err := b.End(code, tc.token); !errors.Is(err, tc.want) {
			t.Errorf("%s: End = %v, want %v", tc.name, err, tc.want)
		}
	}
	if p.Ended() || pb.Ended() {
		t.Fatal("the room ended without its presenter's token")
	}

	if err := b.End(code, token); err != nil {
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
	if err := p.Update(State{Page: "layout"}); !errors.Is(err, ErrNoRoom) {
		t.Errorf("an ended room's presenter shares a state: %v", err)
	}
	for name, r := range map[string]*Replica{"a": a, "b": b} {
		if _, err := r.Join(code); !errors.Is(err, ErrNoRoom) {
			t.Errorf("%s: Join after the end = %v, want ErrNoRoom", name, err)
		}
		if _, _, err := r.Present(code, token); !errors.Is(err, ErrNotPresenter) {
			t.Errorf("%s: Present after the end = %v, want ErrNotPresenter", name, err)
		}
		if _, err := r.load(code); !errors.Is(err, ErrNoRoom) {
			t.Errorf("%s: the store still holds the room: %v", name, err)
		}
		if err := r.End(code, token); !errors.Is(err, ErrNoRoom) {
			t.Errorf("%s: ending it again = %v, want ErrNoRoom", name, err)
		}
	}
	// The other room goes on.
	if _, err := b.Join(other); err != nil {
		t.Errorf("the other room: %v", err)
	}
}

// TestAnEndReplayedLaterEndsNothing: an end message names the room it
// ended by its creation, so one replayed on the bus does not end a later
// room that drew the same code.
func TestAnEndReplayedLaterEndsNothing(t *testing.T) {
	a, b, _ := twoReplicas(t)
	code, token, err := a.Create(State{Page: "layout"})
	if err != nil {
		t.Fatal(err)
	}
	v, err := b.Join(code)
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
	if _, err := b.Join(code); err != nil {
		t.Fatalf("the room ended: %v", err)
	}
	if err := a.End(code, token); err != nil {
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
	bus, err := NewNATSBus(BusOptions{URL: ns.ClientURL()})
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRooms(t, bus)
	code, token, err := r.Create(State{Page: "layout"})
	if err != nil {
		t.Fatal(err)
	}
	ns.Shutdown()
	deadline := time.Now().Add(5 * time.Second)
	for r.BusUp() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if err := r.End(code, token); !errors.Is(err, ErrBusDown) {
		t.Fatalf("End with the bus down = %v, want ErrBusDown", err)
	}
	r.mu.Lock()
	_, held := r.rooms[code]
	r.mu.Unlock()
	if !held {
		t.Error("the replica let go of the room it could not end")
	}
}
