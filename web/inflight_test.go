package web

import (
	"context"
	"testing"
	"time"
)

// TestInflightCapsOneAddressOnly: an address past its cap waits, another
// address does not, a slot given back lets the waiter in, a waiter whose
// request goes away stops waiting, and an idle address leaves no entry.
func TestInflightCapsOneAddressOnly(t *testing.T) {
	f := newInflight(2)
	ctx := context.Background()
	var held []func()
	for range 2 {
		r, err := f.acquire(ctx, "10.0.0.1")
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, r)
	}
	got := make(chan func(), 1)
	go func() {
		r, err := f.acquire(ctx, "10.0.0.1")
		if err != nil {
			t.Error(err)
		}
		got <- r
	}()
	select {
	case <-got:
		t.Fatal("a third request of one address ran beside two")
	case <-time.After(50 * time.Millisecond):
	}
	other, err := f.acquire(ctx, "10.0.0.2")
	if err != nil {
		t.Fatalf("another address waited: %v", err)
	}
	other()
	held[0]()
	select {
	case r := <-got:
		r()
	case <-time.After(5 * time.Second):
		t.Fatal("a slot given back let no waiter in")
	}
	cctx, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	extra, _ := f.acquire(ctx, "10.0.0.1")
	if _, err := f.acquire(cctx, "10.0.0.1"); err == nil {
		t.Error("a request that went away still took a slot")
	}
	extra()
	held[1]()
	f.mu.Lock()
	n := len(f.m)
	f.mu.Unlock()
	if n != 0 {
		t.Errorf("%d addresses kept after every request ended", n)
	}
}
