package rooms

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/stridescope/stridescope/rooms/natstest"
	"github.com/stridescope/stridescope/testkit"
)

// skewedReplicas is two replicas sharing a NATS server on loopback, each
// on its own clock: time.Now shifted by skewA and skewB.
func skewedReplicas(t *testing.T, skewA, skewB time.Duration) (a, b *Replica, url string) {
	t.Helper()
	url = natstest.Loopback(t)
	var rs [2]*Replica
	for i, skew := range []time.Duration{skewA, skewB} {
		bus, err := DialBus(url)
		if err != nil {
			t.Fatal(err)
		}
		r := newReplica(bus, []byte("shared test secret"), testkit.Quiet(),
			func() time.Time { return time.Now().Add(skew) })
		t.Cleanup(func() { bus.Close() })
		run(t, r)
		rs[i] = r
	}
	for _, r := range rs {
		waitOffset(t, r)
	}
	return rs[0], rs[1], url
}

// waitOffset waits until r has measured its clock's offset from the bus.
func waitOffset(t *testing.T, r *Replica) time.Duration {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		if off, ok := r.ClockOffset(); ok {
			return off
		}
		if time.Now().After(deadline) {
			t.Fatal("no clock offset measured within 10s")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestRoomsTolerateSkewedClocks (issue #35, finding 6): one replica's clock runs 20
// s behind or 2 minutes ahead, on the presenter's side or the viewers'.
// Every replica reads the room's times on the bus's clock, so the viewers
// are never told the presenter stopped while the presenter presents, and
// the presenter's states all reach them; the offset is measured (and
// reported by Health) within a second of the skew.
func TestRoomsTolerateSkewedClocks(t *testing.T) {
	for _, tc := range []struct {
		name                string
		presenter, watchers time.Duration // the skew of each side's replica
	}{
		{"presenter's replica 20 s behind", -20 * time.Second, 0},
		{"viewers' replica 20 s behind", 0, -20 * time.Second},
		{"presenter's replica 2 min ahead", 2 * time.Minute, 0},
		{"viewers' replica 2 min ahead", 0, 2 * time.Minute},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, b, _ := skewedReplicas(t, tc.presenter, tc.watchers)
			for _, c := range []struct {
				r    *Replica
				skew time.Duration
			}{{a, tc.presenter}, {b, tc.watchers}} {
				h := c.r.Health()
				if d := (h.ClockOffset + c.skew).Abs(); !h.ClockKnown || d > time.Second {
					t.Errorf("measured offset %v (known %v), want about %v", h.ClockOffset, h.ClockKnown, -c.skew)
				}
			}
			code, _, p := presentRoom(t, a, State{Page: "layout", Query: "q=0"})
			defer p.Close()
			v, err := b.Join(context.Background(), code)
			if err != nil {
				t.Fatal(err)
			}
			defer v.Close()

			// Two states and two rounds of heartbeats; the viewer must get
			// both states and never hear that the presenter stopped.
			ctx, cancel := context.WithTimeout(context.Background(), 8*time.Second)
			defer cancel()
			for i, q := range []string{"q=1", "q=2"} {
				a.sweep(context.Background(), time.Now())
				b.sweep(context.Background(), time.Now())
				if err := p.Update(State{Page: "layout", Query: q}); err != nil {
					t.Fatal(err)
				}
				for {
					ev, err := v.NextEvent(ctx)
					if err != nil {
						t.Fatalf("state %d (%s) never reached the viewer: %v", i+1, q, err)
					}
					if ev.Presence && !ev.Presenting {
						t.Fatalf("the viewer was told the presenter stopped while it presents")
					}
					if ev.Delivery != nil && ev.Delivery.State.Query == q {
						break
					}
				}
			}
			// What b tells its viewers' pages and new joiners.
			time.Sleep(500 * time.Millisecond)
			if !b.Presenting(code) || !b.PresentingNow(code) {
				t.Errorf("b says presented %v, now %v; want both", b.Presenting(code), b.PresentingNow(code))
			}
			short, cancel2 := context.WithTimeout(context.Background(), time.Second)
			defer cancel2()
			for {
				ev, err := v.NextEvent(short)
				if err != nil {
					break
				}
				if ev.Presence && !ev.Presenting {
					t.Fatalf("the viewer was told the presenter stopped while it presents")
				}
			}
		})
	}
}

// TestAnEndedRoomStaysEnded (issue #35, finding 8): a client on an open bus that
// captured a room's sealed record writes it back after the presenter
// ended the room, over its tombstone or in place of it: the room stays
// ended on every replica, for a replica that held it and one that never
// did, and its presenter token opens nothing.
func TestAnEndedRoomStaysEnded(t *testing.T) {
	for _, tc := range []struct {
		name   string
		replay func(ctx context.Context, kv jetstream.KeyValue, code string, captured []byte) error
	}{
		{"written over the tombstone", func(ctx context.Context, kv jetstream.KeyValue, code string, captured []byte) error {
			_, err := kv.Put(ctx, code, captured)
			return err
		}},
		{"tombstone purged, the record created again", func(ctx context.Context, kv jetstream.KeyValue, code string, captured []byte) error {
			if err := kv.Purge(ctx, code); err != nil {
				return err
			}
			_, err := kv.Create(ctx, code, captured)
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each waits out recordSkew
			a, b, url := twoReplicas(t)
			waitOffset(t, a)
			nc, err := nats.Connect(url) // the attacker: no secret
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			js, _ := jetstream.New(nc)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			kv, err := js.KeyValue(ctx, StoreBucket)
			if err != nil {
				t.Fatal(err)
			}

			code, token, p := presentRoom(t, a, State{Page: "layout", Query: "q=0"})
			defer p.Close()
			if err := p.Update(State{Page: "layout", Query: "q=captured"}); err != nil {
				t.Fatal(err)
			}
			var captured []byte
			for deadline := time.Now().Add(5 * time.Second); captured == nil; {
				if e, err := kv.Get(ctx, code); err == nil && bytesContain(e.Value(), "q=captured") {
					captured = e.Value()
				} else if time.Now().After(deadline) {
					t.Fatalf("the record with the last state was not written within 5s: %v", err)
				}
				time.Sleep(20 * time.Millisecond)
			}
			time.Sleep(recordSkew + time.Second) // the class goes on a while
			if err := a.End(context.Background(), code, token); err != nil {
				t.Fatal(err)
			}
			if err := tc.replay(ctx, kv, code, captured); err != nil {
				t.Fatal(err)
			}

			for name, r := range map[string]*Replica{"the replica that held it": a, "a replica that never did": b} {
				if st, err := r.Current(context.Background(), code); !errors.Is(err, ErrNoRoom) {
					t.Errorf("%s: Current = %+v, %v; want ErrNoRoom", name, st, err)
				}
				if _, err := r.Join(context.Background(), code); !errors.Is(err, ErrNoRoom) {
					t.Errorf("%s: Join = %v, want ErrNoRoom", name, err)
				}
				if _, _, err := r.Present(context.Background(), code, token); !errors.Is(err, ErrNotPresenter) {
					t.Errorf("%s: Present = %v, want ErrNotPresenter", name, err)
				}
			}
			// Nor does a replica's write bring it back: its record stays
			// refused, and no new room draws the code meanwhile.
			if _, err := b.load(context.Background(), code); !errors.Is(err, ErrNoRoom) {
				t.Errorf("load after the replay: %v, want ErrNoRoom", err)
			}
		})
	}
}

func bytesContain(b []byte, s string) bool { return strings.Contains(string(b), s) }
