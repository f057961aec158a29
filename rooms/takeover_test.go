package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/stridescope/stridescope/rooms/natstest"
)

// TestTheNewestPresenterPresents: a presenter connection that presents a
// room moves aside the ones that presented it before, on its replica and
// on the others; a takeover replayed later moves nobody who presented
// after it.
func TestTheNewestPresenterPresents(t *testing.T) {
	a, b, _ := twoReplicas(t)
	code, token, err := a.Create(context.Background(), State{Page: "layout"})
	if err != nil {
		t.Fatal(err)
	}
	present := func(r *Replica) *Presenter {
		t.Helper()
		p, _, err := r.Present(context.Background(), code, token)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		return p
	}
	moved := func(want map[string]bool, ps map[string]*Presenter) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			ok := true
			for name, p := range ps {
				ok = ok && p.Moved() == want[name]
			}
			if ok {
				return
			}
			if time.Now().After(deadline) {
				for name, p := range ps {
					t.Errorf("%s: moved %v, want %v", name, p.Moved(), want[name])
				}
				t.FailNow()
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	// after waits until r's clock, the bus's as r measures it, is 10 ms
	// past when p began: a teacher picks up the phone after the laptop's
	// tab presented, not within the fraction of a millisecond by which two
	// replicas' measures of the bus's clock differ, or by which a
	// replica's measure moves when its first probe answers (more, under
	// the race detector, than the test's steps take).
	after := func(r *Replica, p *Presenter) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for r.now().UnixMicro() <= p.at+10_000 {
			if time.Now().After(deadline) {
				t.Fatalf("the clock stays at or before %d", p.at)
			}
			time.Sleep(time.Millisecond)
		}
	}
	for _, r := range []*Replica{a, b} {
		deadline := time.Now().Add(5 * time.Second)
		for _, known := r.ClockOffset(); !known; _, known = r.ClockOffset() {
			if time.Now().After(deadline) {
				t.Fatal("no replica's measure of the bus's clock")
			}
			time.Sleep(time.Millisecond)
		}
	}
	first := present(a)
	second := present(a) // a second tab on the same replica
	moved(map[string]bool{"first": true, "second": false}, map[string]*Presenter{"first": first, "second": second})
	after(b, second)
	third := present(b) // the teacher's phone, through another replica
	moved(map[string]bool{"first": true, "second": true, "third": false}, map[string]*Presenter{"first": first, "second": second, "third": third})
	after(a, third)
	fourth := present(a) // back on the laptop
	moved(map[string]bool{"third": true, "fourth": false}, map[string]*Presenter{"third": third, "fourth": fourth})

	// The first tab's takeover, sealed as it was, said again.
	subj := subject(code, "takeover")
	b.mu.Lock()
	created := b.rooms[code].created
	b.mu.Unlock()
	old, _ := json.Marshal(takeoverMsg{Created: created, ID: first.id, At: first.at})
	for _, r := range []*Replica{a, b} {
		r.onTakeover(code, subj, a.seal(subj, old))
	}
	time.Sleep(100 * time.Millisecond)
	if fourth.Moved() {
		t.Error("a replayed takeover moved the newest presenter")
	}
}

// TestAMovedConnectionSharesNothing: a connection moved aside cannot
// share a state over the newest one's, even before its page hears it
// was moved.
func TestAMovedConnectionSharesNothing(t *testing.T) {
	r := newTestRooms(t, mustLoopbackBus(t))
	code, token, err := r.Create(context.Background(), State{Page: "layout", Query: "q=0"})
	if err != nil {
		t.Fatal(err)
	}
	old, _, err := r.Present(context.Background(), code, token)
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	p, _, err := r.Present(context.Background(), code, token)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := old.Update(State{Page: "layout", Query: "q=old"}); !errors.Is(err, ErrMoved) {
		t.Errorf("the old tab's state: %v, want ErrMoved", err)
	}
	if st, _ := r.Current(context.Background(), code); st.Query != "q=0" {
		t.Errorf("the room's state is %q", st.Query)
	}
}

// TestAMovedConnectionOutlastsTheRoomsIndexEntry: a replica whose only
// presenter connection was moved aside (and so counts no more) lets go
// of the room after it has been empty a while; the connection is not
// told the room has ended, since it has not.
func TestAMovedConnectionOutlastsTheRoomsIndexEntry(t *testing.T) {
	a, b, _ := twoReplicas(t)
	code, token, err := a.Create(context.Background(), State{Page: "layout"})
	if err != nil {
		t.Fatal(err)
	}
	laptop, _, err := a.Present(context.Background(), code, token)
	if err != nil {
		t.Fatal(err)
	}
	tab, _, err := b.Present(context.Background(), code, token)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	deadline := time.Now().Add(5 * time.Second)
	for !laptop.Moved() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	laptop.Close() // as its page's session does once moved
	a.sweep(context.Background(), time.Now().Add(11*time.Minute))
	if a.Len() != 0 {
		t.Fatalf("a still holds the room")
	}
	if laptop.Ended() {
		t.Error("the moved tab is told the room has ended; it goes on on b")
	}
	if tab.Ended() {
		t.Error("the presenting tab is told the room has ended")
	}
}

// TestATakeoverFromAReplicaWhoseClockRunsAheadStillGivesWay: a replica
// whose clock runs half a minute ahead presents first; a connection that
// presents on another replica after hearing it still takes over (the
// stamps are a Lamport clock), so the two never both present.
func TestATakeoverFromAReplicaWhoseClockRunsAheadStillGivesWay(t *testing.T) {
	a, b, _ := twoReplicas(t)
	code, token, err := a.Create(context.Background(), State{Page: "layout"})
	if err != nil {
		t.Fatal(err)
	}
	if v, err := b.Join(context.Background(), code); err == nil { // b follows the room, and hears its takeovers
		defer v.Close()
	} else {
		t.Fatal(err)
	}
	a.mu.Lock()
	a.lastAt = time.Now().Add(30 * time.Second).UnixMicro() // a's clock, 30 s fast
	a.mu.Unlock()
	first, _, err := a.Present(context.Background(), code, token)
	if err != nil {
		t.Fatal(err)
	}
	defer first.Close()
	deadline := time.Now().Add(5 * time.Second)
	for {
		b.mu.Lock()
		heard := b.lastAt >= first.at
		b.mu.Unlock()
		if heard || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	second, _, err := b.Present(context.Background(), code, token)
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	deadline = time.Now().Add(5 * time.Second)
	for !first.Moved() && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !first.Moved() || second.Moved() {
		t.Errorf("moved: first %v, second %v; want the later one presenting", first.Moved(), second.Moved())
	}
}

func mustLoopbackBus(t *testing.T) Bus {
	t.Helper()
	bus, err := DialBus(natstest.Loopback(t))
	if err != nil {
		t.Fatal(err)
	}
	return bus
}

// TestAResumedConnectionDoesNotTakeTheRoomBack: a page whose socket
// dropped resumes as the connection it was; if a newer one presents the
// room meanwhile, on this replica or another, it is told it was moved
// instead of taking the room back. The newest resumes as ever.
func TestAResumedConnectionDoesNotTakeTheRoomBack(t *testing.T) {
	a, b, _ := twoReplicas(t)
	code, token, err := a.Create(context.Background(), State{Page: "layout"})
	if err != nil {
		t.Fatal(err)
	}
	v, err := b.Join(context.Background(), code) // b follows the room, and hears its takeovers
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	laptop, _, err := a.Present(context.Background(), code, token)
	if err != nil {
		t.Fatal(err)
	}
	laptop.Close() // its socket drops
	tab, _, err := a.Present(context.Background(), code, token)
	if err != nil {
		t.Fatal(err)
	}
	defer tab.Close()
	// b hears of the tab (a resume that reaches a replica before the
	// word of a newer tab does takes the room back: a race of a moment).
	deadline := time.Now().Add(5 * time.Second)
	for {
		b.mu.Lock()
		heard := b.rooms[code].newestID == tab.ID()
		b.mu.Unlock()
		if heard {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("b never heard of the newest tab")
		}
		time.Sleep(10 * time.Millisecond)
	}
	for name, r := range map[string]*Replica{"a": a, "b": b} {
		if p, _, err := r.Resume(context.Background(), code, token, laptop.ID()); !errors.Is(err, ErrMoved) {
			if err == nil {
				p.Close()
			}
			t.Errorf("%s: the laptop resumes: %v, want ErrMoved", name, err)
		}
	}
	if tab.Moved() {
		t.Error("a refused resume moved the newest tab aside")
	}
	again, _, err := a.Resume(context.Background(), code, token, tab.ID())
	if err != nil {
		t.Fatalf("the newest tab resumes: %v", err)
	}
	again.Close()
}
