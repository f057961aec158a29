package rooms

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stridescope/stridescope/rooms/natstest"
	"github.com/stridescope/stridescope/testkit"
)

func newTestRooms(t testing.TB, bus Bus) *Replica {
	t.Helper()
	r := NewReplica(bus, []byte("shared test secret"), testkit.Quiet())
	t.Cleanup(func() { bus.Close() }) // after Run has returned (cleanups run last first)
	run(t, r)
	return r
}

// run runs r until the test ends, and waits for Run to return then.
func run(t testing.TB, r *Replica) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		r.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	<-r.Running()
}

// twoReplicas is two replicas' rooms sharing a NATS server on loopback,
// and its URL.
func twoReplicas(t testing.TB) (a, b *Replica, url string) {
	t.Helper()
	url = natstest.Loopback(t)
	var rs [2]*Replica
	for i := range rs {
		bus, err := DialBus(url)
		if err != nil {
			t.Fatal(err)
		}
		rs[i] = newTestRooms(t, bus)
	}
	return rs[0], rs[1], url
}

func nextState(t *testing.T, v *Viewer) State {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	st, err := v.Next(ctx)
	if err != nil {
		t.Fatalf("no state within 5s: %v", err)
	}
	return st
}

// TestRoomsAcrossReplicas: a presenter on one replica, viewers on another,
// sharing only a NATS server on loopback.
func TestRoomsAcrossReplicas(t *testing.T) {
	a, b, _ := twoReplicas(t)

	code, _, p := presentRoom(t, a, State{Page: "layout", Query: "sizes=2,3"})
	defer p.Close()

	// A late joiner on the other replica gets the current state at once.
	v, err := b.Join(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if st := nextState(t, v); st.Query != "sizes=2,3" {
		t.Fatalf("late joiner got %+v", st)
	}
	if err := p.Update(State{Page: "layout", Query: "sizes=2,3&strides=5,1", Focus: "e:1,0"}); err != nil {
		t.Fatal(err)
	}
	if st := nextState(t, v); st.Query != "sizes=2,3&strides=5,1" || st.Focus != "e:1,0" {
		t.Fatalf("viewer got %+v", st)
	}
	// The presenter sees the viewer on the other replica.
	deadline := time.Now().Add(5 * time.Second)
	for p.Watching() != 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := p.Watching(); n != 1 {
		t.Errorf("presenter sees %d viewers, want 1", n)
	}
}

func TestRoomsRejectStrangers(t *testing.T) {
	bus, err := EmbeddedBus("")
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRooms(t, bus)
	code, token, err := r.Create(context.Background(), State{Page: "layout"})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.Present(context.Background(), code, token+"x"); !errors.Is(err, ErrNotPresenter) {
		t.Errorf("wrong token: %v, want ErrNotPresenter", err)
	}
	if _, _, err := r.Present(context.Background(), code, ""); !errors.Is(err, ErrNotPresenter) {
		t.Errorf("no token: %v, want ErrNotPresenter", err)
	}
	for _, bad := range []string{"", "AAAA", "00000000", "ZZZZZZZZ", code + "2"} {
		if _, err := r.Join(context.Background(), bad); !errors.Is(err, ErrNoRoom) {
			t.Errorf("Join(%q) = %v, want ErrNoRoom", bad, err)
		}
	}
	if v, err := r.Join(context.Background(), code[:4]+"-"+code[4:]); err != nil {
		t.Errorf("a typed code with a dash should join: %v", err)
	} else {
		v.Close()
	}
}

func TestRoomCodesAreUnguessable(t *testing.T) {
	// 31 symbols, 8 of them: 31^8 ~ 8.5e11 codes. Check the draw is
	// uniform enough that no symbol is starved or favoured.
	counts := map[rune]int{}
	const n = 4000
	seen := map[string]bool{}
	for range n {
		c := randomString(CodeLen, CodeAlphabet)
		if seen[c] {
			t.Fatalf("code %s drawn twice in %d draws", c, n)
		}
		seen[c] = true
		for _, r := range c {
			counts[r]++
		}
	}
	if len(counts) != len(CodeAlphabet) {
		t.Fatalf("only %d of %d symbols drawn", len(counts), len(CodeAlphabet))
	}
	want := float64(n*CodeLen) / float64(len(CodeAlphabet))
	for r, c := range counts {
		if float64(c) < 0.8*want || float64(c) > 1.2*want {
			t.Errorf("symbol %c drawn %d times, expected about %.0f", r, c, want)
		}
	}
}

func TestRoomsExpireWhenEmpty(t *testing.T) {
	bus, err := EmbeddedBus("")
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRooms(t, bus)
	r.emptyTTL = time.Minute
	code, token, _ := r.Create(context.Background(), State{Page: "layout"})
	p, _, _ := r.Present(context.Background(), code, token)
	v, err := r.Join(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	r.sweep(context.Background(), time.Now().Add(time.Hour))
	if r.Len() != 1 {
		t.Fatal("a room with members must not expire")
	}
	v.Close()
	p.Close()
	r.sweep(context.Background(), time.Now().Add(30*time.Second))
	if r.Len() != 1 {
		t.Fatal("an empty room must survive its grace period (a presenter reloading the page)")
	}
	r.sweep(context.Background(), time.Now().Add(2*time.Minute))
	if r.Len() != 0 {
		t.Fatal("an empty room must expire after the grace period")
	}
	if _, err := r.Join(context.Background(), code); !errors.Is(err, ErrNoRoom) {
		t.Errorf("joining an expired room: %v, want ErrNoRoom", err)
	}
}

// TestSlowViewerGetsLatestOnly: a viewer that does not read while the
// presenter makes many changes gets the newest state, not a backlog, and
// does not hold up a viewer that reads.
func TestSlowViewerGetsLatestOnly(t *testing.T) {
	bus, err := EmbeddedBus("")
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRooms(t, bus)
	code, token, _ := r.Create(context.Background(), State{Page: "layout", Query: "q=0"})
	p, _, _ := r.Present(context.Background(), code, token)
	slow, _ := r.Join(context.Background(), code)
	fast, _ := r.Join(context.Background(), code)
	defer slow.Close()
	defer fast.Close()
	nextState(t, fast) // the initial state

	var wg sync.WaitGroup
	wg.Add(1)
	var got []string
	go func() {
		defer wg.Done()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		for {
			st, err := fast.Next(ctx)
			if err != nil {
				return
			}
			got = append(got, st.Query)
			if st.Query == "q=200" {
				return
			}
		}
	}()
	for i := 1; i <= 200; i++ {
		if err := p.Update(State{Page: "layout", Query: fmt.Sprintf("q=%d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
	if len(got) == 0 || got[len(got)-1] != "q=200" {
		t.Fatalf("fast viewer never got the last state: %v", got)
	}
	last := -1
	for _, q := range got {
		var n int
		fmt.Sscanf(q, "q=%d", &n)
		if n <= last {
			t.Fatalf("fast viewer got states out of order: %v", got)
		}
		last = n
	}
	// Every state reaches both viewers in the same bus callback, which holds
	// r.mu throughout; the fast viewer can read q=200 before that callback
	// has offered it to the slow one, so wait for the callback to finish.
	// Then the slow viewer's one read is the newest state, nothing queued.
	r.mu.Lock()
	r.mu.Unlock()
	if st := nextState(t, slow); st.Query != "q=200" {
		t.Fatalf("slow viewer got %q, want the latest", st.Query)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if st, err := slow.Next(ctx); err == nil {
		t.Fatalf("slow viewer had a backlog: %+v", st)
	}
}

// TestViewersShareOneDelivery: every local viewer of a room is handed the
// same delivery of a state, with the room's viewer count, and what is
// derived from it through Shared is derived once for all of them.
func TestViewersShareOneDelivery(t *testing.T) {
	bus, err := EmbeddedBus("")
	if err != nil {
		t.Fatal(err)
	}
	r := newTestRooms(t, bus)
	code, _, p := presentRoom(t, r, State{Page: "layout", Query: "q=0"})
	defer p.Close()
	const viewers = 5
	vs := make([]*Viewer, viewers)
	for i := range vs {
		if vs[i], err = r.Join(context.Background(), code); err != nil {
			t.Fatal(err)
		}
		defer vs[i].Close()
		nextState(t, vs[i]) // the initial state
	}
	if err := p.Update(State{Page: "layout", Query: "q=1", Step: 1}); err != nil {
		t.Fatal(err)
	}
	derived := 0
	var first *Delivery
	for i, v := range vs {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		ev, err := v.NextEvent(ctx)
		for err == nil && ev.Delivery == nil { // news about the presenter
			ev, err = v.NextEvent(ctx)
		}
		cancel()
		if err != nil {
			t.Fatalf("viewer %d: no state: %v", i, err)
		}
		d := ev.Delivery
		if d.State.Query != "q=1" || d.Watching != viewers {
			t.Fatalf("viewer %d got %+v, want q=1 with %d watching", i, d, viewers)
		}
		if first == nil {
			first = d
		} else if d != first {
			t.Fatalf("viewer %d got a delivery of its own", i)
		}
		if got := d.Shared(func(d *Delivery) any { derived++; return d.State.Query + "!" }); got != "q=1!" {
			t.Fatalf("viewer %d: Shared = %v", i, got)
		}
	}
	if derived != 1 {
		t.Fatalf("derived %d times for %d viewers, want once", derived, viewers)
	}
}

// TestDeliverySharedOnceUnderConcurrentAskers: followers asking for the
// shared value at once all get the one value derived, derived once.
func TestDeliverySharedOnceUnderConcurrentAskers(t *testing.T) {
	d := newDelivery(State{Query: "q=1", Version: 7}, 3)
	const askers = 64
	var derived atomic.Int64
	start := make(chan struct{})
	got := make([]any, askers)
	var wg sync.WaitGroup
	for i := range askers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			got[i] = d.Shared(func(d *Delivery) any {
				derived.Add(1)
				time.Sleep(5 * time.Millisecond) // let the others arrive meanwhile
				return fmt.Sprintf("%s@%d watched by %d", d.State.Query, d.State.Version, d.Watching)
			})
		}()
	}
	close(start)
	wg.Wait()
	if n := derived.Load(); n != 1 {
		t.Fatalf("derived %d times, want once", n)
	}
	for i, v := range got {
		if v != "q=1@7 watched by 3" {
			t.Fatalf("asker %d got %v", i, v)
		}
	}
}

func TestCodeStrangers(t *testing.T) {
	for _, tc := range []struct{ typed, want string }{
		{"ABCD-2345", ""},
		{"abcd 2345", ""},
		{"ZZZZ-1111", "1"},
		{"ABCD-234O", "O"},
		{"l0oi-ABCD", "L0OI"},
		{"AB#D-2É45", "#É"},
		{"", ""},
	} {
		if got := string(CodeStrangers(tc.typed)); got != tc.want {
			t.Errorf("CodeStrangers(%q) = %q, want %q", tc.typed, got, tc.want)
		}
	}
	// A "code" of thousands of distinct characters (a query of 64 KiB,
	// the server's header limit) is answered with the first five.
	var long strings.Builder
	for r := rune(0x4e00); long.Len() < 64<<10; r++ {
		long.WriteRune(r)
	}
	if got := CodeStrangers(long.String()); string(got) != "一丁丂七丄" {
		t.Errorf("a long code's strangers %q, want the first five", string(got))
	}
	// Every character a code can hold is no stranger.
	if got := CodeStrangers(CodeAlphabet); len(got) != 0 {
		t.Errorf("the code alphabet holds strangers %q", string(got))
	}
}

// presentRoom opens a room of st on r and presents it there.
func presentRoom(t *testing.T, r *Replica, st State) (code, token string, p *Presenter) {
	t.Helper()
	code, token, err := r.Create(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	p, _, err = r.Present(context.Background(), code, token)
	if err != nil {
		t.Fatal(err)
	}
	return code, token, p
}
