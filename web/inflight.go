package web

import (
	"context"
	"runtime"
	"sync"
)

// inflight caps how many budgeted requests one client address has being
// worked on at once. The work budget bounds what requests allocate, but
// a picture that is cheap in memory still costs CPU: a hundred of them
// at once from one address kept both cores busy and another address's
// page waited its turn behind them (p90 1.8 s). Beyond the cap an
// address's requests wait, using no CPU, while other addresses go on.
type inflight struct {
	per int
	mu  sync.Mutex
	m   map[string]*slots
}

type slots struct {
	ch    chan struct{}
	users int // requests holding or waiting for a slot: the entry goes at 0
}

// newInflight allows per requests at once an address; per <= 0: twice
// the processors the server runs on, at least 4.
func newInflight(per int) *inflight {
	if per <= 0 {
		per = max(4, 2*runtime.GOMAXPROCS(0))
	}
	return &inflight{per: per, m: map[string]*slots{}}
}

// acquire waits for one of addr's slots, or for ctx to end; release gives
// the slot back.
func (f *inflight) acquire(ctx context.Context, addr string) (release func(), err error) {
	f.mu.Lock()
	s := f.m[addr]
	if s == nil {
		s = &slots{ch: make(chan struct{}, f.per)}
		f.m[addr] = s
	}
	s.users++
	f.mu.Unlock()
	done := func() {
		f.mu.Lock()
		if s.users--; s.users == 0 {
			delete(f.m, addr)
		}
		f.mu.Unlock()
	}
	select {
	case s.ch <- struct{}{}:
		return func() { <-s.ch; done() }, nil
	case <-ctx.Done():
		done()
		return nil, ctx.Err()
	}
}
