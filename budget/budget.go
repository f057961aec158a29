// Package budget is the one server-wide budget of bytes that heavy work
// (pages, pictures, websocket edits, imports, the JSON API) takes before
// it allocates. Rate limits pace requests but not their size: 30
// concurrent slice pages of 4096×4096 once took a replica from 13 MB to
// 4.9 GB. Each path estimates what it will allocate (picture's *Cost
// functions) and takes that much first, waiting a bounded time; the sum
// of what work in flight holds never passes the budget.
//
// The budget is shared fairly between clients (WithClient: the client
// address, as the rate limits count it). Each client waits in a queue of
// its own and the queues are served in turn, so a small request never
// waits behind another client's large one; and no client holds more than
// its share (three quarters of the budget) while it holds anything, so
// one address's heavy requests slow that address first and the rest is
// always there for everyone else.
//
// A request carries its grant in its context (WithGrant), so that code
// deep in the page models takes from it (Take) without knowing who
// serves the request, and everything it took is released at once when
// the request ends.
package budget

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"
)

// Defaults of a server's budget.
const (
	DefaultBytes = 512 << 20
	DefaultWait  = 2 * time.Second
)

// RetryAfter is what work refused for want of budget is told to wait, in
// seconds: heavy work is over within a few seconds.
const RetryAfter = 2

// Budget is a number of bytes that work in flight may hold at once. A nil
// *Budget grants everything.
type Budget struct {
	limit int64
	share int64 // what one client may hold while it holds anything
	wait  time.Duration

	mu     sync.Mutex
	used   int64               // under mu
	held   map[string]int64    // by client; under mu
	queues map[string][]*taker // each client's waiting work, first come first; under mu
	turns  []string            // the clients with a queue, in the order they are served; under mu
}

// taker is one Take waiting for its bytes.
type taker struct {
	client string
	n      int64
	own    int64         // what the same request holds already (its grant)
	ready  chan struct{} // closed when granted
	done   bool          // granted; under mu
}

// New is a budget of limit bytes; work waits up to wait for its share.
func New(limit int64, wait time.Duration) *Budget {
	return &Budget{limit: limit, share: limit - limit/4, wait: wait,
		held: map[string]int64{}, queues: map[string][]*taker{}}
}

// Error refuses work the budget cannot hold: now (Busy) or ever (a
// single piece of work larger than the whole budget).
type Error struct {
	Need, Limit int64
	Busy        bool
}

func (e *Error) Error() string {
	if e.Busy {
		return fmt.Sprintf("the server is busy with other heavy work: this needs %s of its %s work budget; try again in %d seconds",
			MiB(e.Need), MiB(e.Limit), RetryAfter)
	}
	return fmt.Sprintf("this needs %s, more than the server's whole work budget of %s: ask for fewer elements", MiB(e.Need), MiB(e.Limit))
}

// Code names the refusal as the websocket protocol does: "busy" or
// "too-large".
func (e *Error) Code() string {
	if e.Busy {
		return "busy"
	}
	return "too-large"
}

// MiB writes a byte count as the refusals do ("1.5 MiB").
func MiB(n int64) string {
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}

type clientKey struct{}

// WithClient names the client whose work ctx is: Take shares the budget
// fairly between clients. Work without a client is one client's.
func WithClient(ctx context.Context, client string) context.Context {
	return context.WithValue(ctx, clientKey{}, client)
}

func clientOf(ctx context.Context) string {
	c, _ := ctx.Value(clientKey{}).(string)
	return c
}

// Take reserves n bytes for ctx's client (WithClient), waiting up to the
// budget's wait for them; the release it returns may be called more than
// once.
func (b *Budget) Take(ctx context.Context, n int64) (release func(), err error) {
	return b.take(ctx, n, 0)
}

// take is Take for a request that holds own bytes already (a grant's
// earlier Takes): those count as the request's, not as other work of its
// client, so a request that takes its share in steps may take as much as
// one that takes it at once.
func (b *Budget) take(ctx context.Context, n, own int64) (release func(), err error) {
	if b == nil {
		return func() {}, nil
	}
	n = max(n, 1)
	if n > b.limit {
		return nil, &Error{Need: n, Limit: b.limit}
	}
	client := clientOf(ctx)
	b.mu.Lock()
	// Work of a client that has none waiting goes at once if it fits:
	// whatever waits does not fit (serve leaves nothing that does).
	if len(b.queues[client]) == 0 && b.fits(client, n, own) {
		b.grantLocked(client, n)
		b.mu.Unlock()
		return b.releaser(client, n), nil
	}
	if ctx.Value(noWaitKey{}) != nil {
		b.mu.Unlock()
		return nil, &Error{Need: n, Limit: b.limit, Busy: true}
	}
	t := &taker{client: client, n: n, own: own, ready: make(chan struct{})}
	if len(b.queues[client]) == 0 {
		b.turns = append(b.turns, client)
	}
	b.queues[client] = append(b.queues[client], t)
	b.mu.Unlock()

	timer := time.NewTimer(b.wait)
	defer timer.Stop()
	select {
	case <-t.ready:
		return b.releaser(client, n), nil
	case <-ctx.Done():
		err = fmt.Errorf("waiting for %d bytes of work budget: %w", n, ctx.Err())
	case <-timer.C:
		err = &Error{Need: n, Limit: b.limit, Busy: true}
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if t.done { // granted as the wait ran out: the work may as well go
		return b.releaser(client, n), nil
	}
	b.dropLocked(t)
	// Work queued behind t in its client's queue may fit where t did not.
	b.serveLocked()
	return nil, err
}

// fits says whether client may take n bytes now for a request that holds
// own: they are free, and the client stays within its share, or holds
// nothing but that request's (a single request may take the whole
// budget, as long as it is its client's only).
func (b *Budget) fits(client string, n, own int64) bool {
	if b.used+n > b.limit {
		return false
	}
	h := b.held[client]
	return h == own || h+n <= b.share
}

func (b *Budget) grantLocked(client string, n int64) {
	b.used += n
	b.held[client] += n
}

func (b *Budget) releaser(client string, n int64) func() {
	var once sync.Once
	return func() {
		once.Do(func() {
			b.mu.Lock()
			b.used -= n
			if b.held[client] -= n; b.held[client] == 0 {
				delete(b.held, client)
			}
			b.serveLocked()
			b.mu.Unlock()
		})
	}
}

// serveLocked grants waiting work in turns: each client's first waiting
// Take in the order the clients first waited, a client served going to
// the back, until a round grants nothing. A client's first Take that
// does not fit holds back that client's later ones (its own work waits
// in order), never another client's.
func (b *Budget) serveLocked() {
	for {
		served := false
		for i := 0; i < len(b.turns); {
			client := b.turns[i]
			q := b.queues[client]
			if !b.fits(client, q[0].n, q[0].own) {
				i++
				continue
			}
			t := q[0]
			b.grantLocked(client, t.n)
			t.done = true
			close(t.ready)
			served = true
			b.turns = append(b.turns[:i], b.turns[i+1:]...)
			if len(q) == 1 {
				delete(b.queues, client)
			} else {
				b.queues[client] = q[1:]
				b.turns = append(b.turns, client) // its next turn is after the others'
			}
		}
		if !served {
			return
		}
	}
}

// dropLocked takes t, which gave up waiting, out of its client's queue.
func (b *Budget) dropLocked(t *taker) {
	q := b.queues[t.client]
	for i, w := range q {
		if w == t {
			q = append(q[:i:i], q[i+1:]...)
			break
		}
	}
	if len(q) > 0 {
		b.queues[t.client] = q
		return
	}
	delete(b.queues, t.client)
	for i, c := range b.turns {
		if c == t.client {
			b.turns = append(b.turns[:i], b.turns[i+1:]...)
			break
		}
	}
}

type noWaitKey struct{}

// WithoutWait marks ctx's work as optional: Take with it takes only what
// is free at once, and refuses as busy rather than wait.
func WithoutWait(ctx context.Context) context.Context {
	return context.WithValue(ctx, noWaitKey{}, true)
}

// grant is what one request holds of a budget.
type grant struct {
	b    *Budget
	mu   sync.Mutex
	rs   []func()
	held int64 // the sum of what rs give back
}

type grantKey struct{}

// WithGrant gives ctx a grant of b: Take with the returned context takes
// from b, and release gives back all it took.
func WithGrant(ctx context.Context, b *Budget) (_ context.Context, release func()) {
	g := &grant{b: b}
	return context.WithValue(ctx, grantKey{}, g), g.release
}

// Take reserves n bytes of the budget whose grant ctx carries, until the
// grant is released. Without a grant (a unit test calling a page model)
// it grants everything.
func Take(ctx context.Context, n int64) error {
	g, _ := ctx.Value(grantKey{}).(*grant)
	if g == nil {
		return nil
	}
	g.mu.Lock()
	own := g.held
	g.mu.Unlock()
	release, err := g.b.take(ctx, n, own)
	if err != nil {
		return err
	}
	g.mu.Lock()
	g.rs = append(g.rs, release)
	g.held += max(n, 1)
	g.mu.Unlock()
	return nil
}

// Hold is Take for work that ends before the request does (an answer
// computed, marshalled and dropped while the page renders): it takes n
// from the budget of ctx's grant, counting what the grant holds as the
// request's own, and release gives n back at once.
func Hold(ctx context.Context, n int64) (release func(), err error) {
	g, _ := ctx.Value(grantKey{}).(*grant)
	if g == nil {
		return func() {}, nil
	}
	g.mu.Lock()
	own := g.held
	g.mu.Unlock()
	return g.b.take(ctx, n, own)
}

func (g *grant) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, r := range g.rs {
		r()
	}
	g.rs, g.held = nil, 0
}
