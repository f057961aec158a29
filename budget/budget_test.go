package budget

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

func TestBudget(t *testing.T) {
	b := New(100, 20*time.Millisecond)
	ctx := context.Background()
	var be *Error
	if _, err := b.Take(ctx, 101); !errors.As(err, &be) || be.Busy || be.Code() != "too-large" {
		t.Errorf("more than the whole budget: %v, want too-large at once", err)
	}
	release, err := b.Take(ctx, 60)
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if _, err := b.Take(ctx, 50); !errors.As(err, &be) || !be.Busy || be.Code() != "busy" {
		t.Errorf("past what is free: %v, want busy", err)
	}
	if d := time.Since(start); d < 20*time.Millisecond || d > time.Second {
		t.Errorf("waited %v for a busy budget, want its 20ms", d)
	}
	release()
	release() // a second release gives nothing back twice
	r2, err := b.Take(ctx, 100)
	if err != nil {
		t.Fatalf("the whole budget once free: %v", err)
	}
	r2()
	var none *Budget
	if r, err := none.Take(ctx, 1<<60); err != nil {
		t.Errorf("a nil budget grants everything: %v", err)
	} else {
		r()
	}
}

func TestGrantReleasesEverythingItTook(t *testing.T) {
	b := New(120, time.Millisecond)
	if err := Take(context.Background(), 1<<40); err != nil {
		t.Errorf("without a grant: %v, want everything granted", err)
	}
	ctx, release := WithGrant(context.Background(), b)
	for range 4 {
		if err := Take(ctx, 30); err != nil {
			t.Fatal(err) // one request may take the whole budget, in steps
		}
	}
	if err := Take(ctx, 30); err == nil {
		t.Error("a fifth 30, past the whole budget of 120, was granted")
	}
	release()
	if r, err := b.Take(context.Background(), 120); err != nil {
		t.Errorf("after the grant's release: %v", err)
	} else {
		r()
	}
}

// TestWithoutWaitRefusesWhatIsNotFree: optional work takes the budget only
// when its share is free at once; with a wait of an hour, a Take that
// waited would hang the test.
func TestWithoutWaitRefusesWhatIsNotFree(t *testing.T) {
	b := New(100, time.Hour)
	ctx := context.Background()
	hold, err := b.Take(WithClient(ctx, "another"), 80)
	if err != nil {
		t.Fatal(err)
	}
	var be *Error
	if _, err := b.Take(WithoutWait(ctx), 30); !errors.As(err, &be) || !be.Busy {
		t.Errorf("30 of 20 free, without waiting: %v, want busy at once", err)
	}
	release, err := b.Take(WithoutWait(ctx), 20)
	if err != nil {
		t.Errorf("20 of 20 free, without waiting: %v", err)
	} else {
		release()
	}
	hold()
}

// TestOneClientLeavesTheRestToOthers: a client that holds anything gets
// no more than its share (three quarters), so the last quarter is there
// for other clients at once, whatever the first one asks for; a client
// holding nothing may take the whole budget with one piece of work.
func TestOneClientLeavesTheRestToOthers(t *testing.T) {
	b := New(100, 30*time.Millisecond)
	a, other := WithClient(context.Background(), "192.0.2.1"), WithClient(context.Background(), "192.0.2.2")
	var rs []func()
	for range 3 {
		r, err := b.Take(a, 25)
		if err != nil {
			t.Fatalf("A's share: %v", err)
		}
		rs = append(rs, r)
	}
	var be *Error
	if _, err := b.Take(a, 25); !errors.As(err, &be) || !be.Busy {
		t.Errorf("A past its share of 75: %v, want busy", err)
	}
	start := time.Now()
	r, err := b.Take(other, 25)
	if err != nil {
		t.Fatalf("another client, with A at its share: %v", err)
	}
	if d := time.Since(start); d > 20*time.Millisecond {
		t.Errorf("another client waited %v for what was free", d)
	}
	r()
	for _, r := range rs {
		r()
	}
	whole, err := b.Take(a, 100)
	if err != nil {
		t.Fatalf("one piece of work the size of the budget, its client holding nothing: %v", err)
	}
	whole()
}

// TestSmallWorkDoesNotWaitBehindAnotherClientsLarge: a client's large
// Take waiting for room does not hold back another client's small one
// that fits; and when room is freed, the clients waiting are served in
// turns, not all of one client's work first.
func TestSmallWorkDoesNotWaitBehindAnotherClientsLarge(t *testing.T) {
	b := New(100, 5*time.Second)
	heavy := WithClient(context.Background(), "heavy")
	hold, err := b.Take(heavy, 70)
	if err != nil {
		t.Fatal(err)
	}
	// The heavy client queues more large work: it waits (past its share).
	bigDone := make(chan error, 1)
	go func() {
		r, err := b.Take(heavy, 70)
		if err == nil {
			r()
		}
		bigDone <- err
	}()
	waitQueued(t, b, "heavy", 1)
	small := WithClient(context.Background(), "small")
	start := time.Now()
	r, err := b.Take(small, 10)
	if err != nil {
		t.Fatalf("small work beside a waiting large one: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("small work waited %v behind another client's large work", d)
	}
	r()
	hold()
	if err := <-bigDone; err != nil {
		t.Errorf("the large work, once room was freed: %v", err)
	}

	// Turns: A queues three, B one; B's is served second, not fourth.
	hold, err = b.Take(WithClient(context.Background(), "holder"), 100)
	if err != nil {
		t.Fatal(err)
	}
	order := make(chan string, 4)
	var started sync.WaitGroup
	take := func(client string) {
		defer started.Done()
		r, err := b.Take(WithClient(context.Background(), client), 60)
		if err != nil {
			order <- "error " + err.Error()
			return
		}
		order <- client
		time.Sleep(time.Millisecond)
		r()
	}
	for i := range 3 {
		started.Add(1)
		go take("A")
		waitQueued(t, b, "A", i+1)
	}
	started.Add(1)
	go take("B")
	waitQueued(t, b, "B", 1)
	hold()
	started.Wait()
	close(order)
	var got []string
	for c := range order {
		got = append(got, c)
	}
	if want := []string{"A", "B", "A", "A"}; !slices.Equal(got, want) {
		t.Errorf("served %v, want %v", got, want)
	}
}

// TestAbandonedWaitGivesWayAtOnce: work whose request went away stops
// waiting at once, and its place in its client's queue goes to the work
// behind it.
func TestAbandonedWaitGivesWayAtOnce(t *testing.T) {
	b := New(100, time.Hour)
	a := WithClient(context.Background(), "A")
	hold, err := b.Take(WithClient(context.Background(), "B"), 50)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(a)
	gone := make(chan error, 1)
	go func() { _, err := b.Take(ctx, 60); gone <- err }()
	waitQueued(t, b, "A", 1)
	next := make(chan error, 1)
	go func() {
		r, err := b.Take(a, 40)
		if err == nil {
			r()
		}
		next <- err
	}()
	waitQueued(t, b, "A", 2)
	cancel()
	select {
	case err := <-gone:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("abandoned wait: %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("an abandoned wait went on")
	}
	select {
	case err := <-next:
		if err != nil {
			t.Errorf("the work behind the abandoned one: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the work behind the abandoned one still waits, though 40 of 50 free fit")
	}
	hold()
}

// waitQueued waits until client has n Takes waiting.
func waitQueued(t *testing.T, b *Budget, client string, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		b.mu.Lock()
		got := len(b.queues[client])
		b.mu.Unlock()
		if got >= n {
			return
		}
	}
	t.Fatalf("%s never had %d Takes waiting", client, n)
}

// TestBudgetNeverOverCommits races many clients' Takes and releases and
// checks the sum held never passes the budget nor a client its share.
func TestBudgetNeverOverCommits(t *testing.T) {
	b := New(1000, 50*time.Millisecond)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var bad []string
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx := WithClient(context.Background(), string(rune('a'+i%5)))
			for j := range 50 {
				n := int64(1 + (i*37+j*101)%400)
				r, err := b.Take(ctx, n)
				if err != nil {
					continue
				}
				b.mu.Lock()
				if b.used > b.limit {
					mu.Lock()
					bad = append(bad, fmt.Sprintf("used %d of %d", b.used, b.limit))
					mu.Unlock()
				}
				// Every piece is under the share (750), so no client ever
				// holds more than it.
				for c, h := range b.held {
					if h > b.share {
						mu.Lock()
						bad = append(bad, fmt.Sprintf("%s holds %d, share %d", c, h, b.share))
						mu.Unlock()
					}
				}
				b.mu.Unlock()
				r()
			}
		}()
	}
	wg.Wait()
	if len(bad) > 0 {
		t.Errorf("over-committed %d times, e.g. %s", len(bad), bad[0])
	}
	if b.used != 0 || len(b.held) != 0 || len(b.queues) != 0 || len(b.turns) != 0 {
		t.Errorf("after everything was released: used %d, held %v, queues %d, turns %v", b.used, b.held, len(b.queues), b.turns)
	}
}

// TestARequestMayTakeItsShareInSteps: what a request's grant holds counts
// as that request's, so taking the whole budget in two steps (an import:
// its body, then its decoding) is granted as taking it at once is, while
// another request of the same client still stops at the share.
func TestARequestMayTakeItsShareInSteps(t *testing.T) {
	b := New(100, 20*time.Millisecond)
	client := WithClient(context.Background(), "A")
	ctx, release := WithGrant(client, b)
	if err := Take(ctx, 2); err != nil {
		t.Fatal(err)
	}
	if err := Take(ctx, 79); err != nil {
		t.Errorf("the rest of one request's 81 of 100, in a second step: %v", err)
	}
	other, releaseOther := WithGrant(client, b)
	var be *Error
	if err := Take(other, 10); !errors.As(err, &be) || !be.Busy {
		t.Errorf("another request of the client past its share: %v, want busy", err)
	}
	releaseOther()
	release()
	if r, err := b.Take(context.Background(), 100); err != nil {
		t.Errorf("after the request's release: %v", err)
	} else {
		r()
	}
}
