package rooms

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
)

// TestRoomCapLeavesAClassOnAnotherReplica: at the cap, a replica lets go
// of a room it holds no one in, but does not end it while another
// replica's class is in it.
func TestRoomCapLeavesAClassOnAnotherReplica(t *testing.T) {
	a, b, _ := twoReplicas(t)
	code, _, err := a.Create(context.Background(), State{Page: "layout", Query: "q=0"})
	if err != nil {
		t.Fatal(err)
	}
	va, err := a.Join(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	vb, err := b.Join(context.Background(), code) // the class is on B
	if err != nil {
		t.Fatal(err)
	}
	defer vb.Close()
	now := time.Now()
	b.sweep(context.Background(), now) // B marks .active = B
	a.sweep(context.Background(), now) // A, with its one viewer, marks .active = A a moment later
	time.Sleep(200 * time.Millisecond)
	va.Close() // A's viewer leaves; B's class stays
	a.mu.Lock()
	others := a.othersInLocked(a.rooms[code], time.Now())
	a.maxRooms = 1
	a.mu.Unlock()
	t.Logf("A knows others are in the room: %v", others)
	if _, _, err := a.Create(context.Background(), State{Page: "layout"}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.load(context.Background(), code); err != nil {
		t.Errorf("the room B's class is in was deleted from the store by A: %v", err)
	}
}

// TestRoomBusDropsReplayedPresence: a sealed "presenters: 0" captured
// earlier and replayed by a client on NATS without the secret does not
// tell viewers that the presenter has stopped while the presenter
// presents.
func TestRoomBusDropsReplayedPresence(t *testing.T) {
	a, b, url := twoReplicas(t)
	a.SetPresenterGrace(50 * time.Millisecond)
	code, token, err := a.Create(context.Background(), State{Page: "layout"})
	if err != nil {
		t.Fatal(err)
	}
	// The attacker: a plain NATS client, no secret.
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	var mu sync.Mutex
	var captured []byte
	subj := subject(code, "presence")
	sub, _ := nc.Subscribe(subj, func(m *nats.Msg) {
		mu.Lock()
		captured = append([]byte(nil), m.Data...)
		mu.Unlock()
	})
	defer sub.Unsubscribe()
	_ = nc.Flush()

	p, _, err := a.Present(context.Background(), code, token)
	if err != nil {
		t.Fatal(err)
	}
	p.Close() // a reload: A announces 0 after the grace
	time.Sleep(300 * time.Millisecond)
	mu.Lock()
	zero := captured
	mu.Unlock()
	p, _, err = a.Present(context.Background(), code, token) // back, presenting
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()

	v, err := b.Join(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	time.Sleep(time.Second) // B knows A presents
	if !b.Presenting(code) {
		t.Fatal("B should know the room is presented")
	}
	if err := nc.Publish(subj, zero); err != nil { // the replay
		t.Fatal(err)
	}
	_ = nc.Flush()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	for {
		ev, err := v.NextEvent(ctx)
		if err != nil {
			return // nothing: the replay was dropped
		}
		if ev.Presence && !ev.Presenting {
			t.Errorf("a replayed sealed presence told B's viewer the presenter stopped (A still presents)")
			return
		}
	}
}

// lossyBus drops state publishes while lossy is set: the messages a
// client wrote to a stalled NATS before it noticed, lost with the socket.
type lossyBus struct {
	Bus
	mu    sync.Mutex
	lossy bool
}

func (l *lossyBus) Publish(ctx context.Context, subj string, data []byte) error {
	l.mu.Lock()
	drop := l.lossy
	l.mu.Unlock()
	if drop {
		return nil
	}
	return l.Bus.Publish(ctx, subj, data)
}

// TestPresenterStateSurvivesALossyBus: a presenter's state that the bus
// loses (written to a stalled connection before the client noticed) still
// reaches the viewers on another replica once the bus is back.
func TestPresenterStateSurvivesALossyBus(t *testing.T) {
	url := "" // shared loopback NATS
	_, _, url = twoReplicas(t)
	mk := func(lossy bool) (*Replica, *lossyBus) {
		nb, err := DialBus(url)
		if err != nil {
			t.Fatal(err)
		}
		lb := &lossyBus{Bus: nb}
		return newTestRooms(t, lb), lb
	}
	a, la := mk(true)
	b, _ := mk(false)
	code, token, err := a.Create(context.Background(), State{Page: "layout", Query: "q=0"})
	if err != nil {
		t.Fatal(err)
	}
	la.mu.Lock()
	la.lossy = false
	la.mu.Unlock()
	p, _, err := a.Present(context.Background(), code, token)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	v, err := b.Join(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	nextState(t, v)
	// The bus stalls; the presenter's last change is written into the dead
	// socket; then the client notices, reconnects, and the bus is back.
	la.mu.Lock()
	la.lossy = true
	la.mu.Unlock()
	_ = p.Update(State{Page: "layout", Query: "q=LAST"})
	time.Sleep(100 * time.Millisecond)
	a.busChanged(false)
	b.busChanged(false)
	la.mu.Lock()
	la.lossy = false
	la.mu.Unlock()
	a.busChanged(true)
	b.busChanged(true)
	// (the page does not re-send either: rooms.js share() skips a state
	// equal to `shared`, which rejoin() does not reset)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	for {
		st, err := v.Next(ctx)
		if err != nil {
			t.Errorf("the presenter's last state never reached the viewer after the bus came back")
			return
		}
		if st.Query == "q=LAST" {
			return
		}
	}
}

// slowUnsubBus: unsubscribing takes a while (nats.go's Unsubscribe takes
// nc.mu, which the flusher holds across a socket write to a stalled server
// for up to FlusherTimeout, 1 minute by default).
type slowUnsubBus struct{ Bus }

func (s slowUnsubBus) Subscribe(ctx context.Context, subj string, fn func(string, []byte)) (func(), error) {
	stop, err := s.Bus.Subscribe(ctx, subj, fn)
	if err != nil {
		return nil, err
	}
	return func() { time.Sleep(500 * time.Millisecond); stop() }, nil
}

// TestSweepUnsubscribesOutsideTheLock: letting go of a room unsubscribes
// (bus I/O that can stall) without holding the lock every room operation
// needs.
func TestSweepUnsubscribesOutsideTheLock(t *testing.T) {
	nb, err := EmbeddedBus("")
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRooms(t, slowUnsubBus{nb})
	code, _, err := r.Create(context.Background(), State{Page: "layout"})
	if err != nil {
		t.Fatal(err)
	}
	v, err := r.Join(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	v.Close()
	r.mu.Lock()
	r.rooms[code].emptySince = time.Now().Add(-time.Hour)
	r.mu.Unlock()
	go r.sweep(context.Background(), time.Now())
	time.Sleep(50 * time.Millisecond)
	start := time.Now()
	r.BusUp()
	if d := time.Since(start); d > 200*time.Millisecond {
		t.Errorf("BusUp waited %v behind a sweep's unsubscribe (3 subs + 2 serves)", d.Round(time.Millisecond))
	}
}

var _ = errors.Is
