// Package budget is the one server-wide budget of bytes that heavy work
// (pages, pictures, websocket edits, the JSON API) takes before it
// allocates. Rate limits pace requests but not their size: 30 concurrent
// slice pages of 4096×4096 once took a replica from 13 MB to 4.9 GB. Each
// path estimates what it will allocate (picture's *Cost functions) and
// takes that much first, waiting a bounded time; the sum of what work in
// flight holds never passes the budget.
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

	"golang.org/x/sync/semaphore"
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
	sem   *semaphore.Weighted
	limit int64
	wait  time.Duration
}

// New is a budget of limit bytes; work waits up to wait for its share.
func New(limit int64, wait time.Duration) *Budget {
	return &Budget{sem: semaphore.NewWeighted(limit), limit: limit, wait: wait}
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

// Take reserves n bytes, waiting up to the budget's wait for them; the
// release it returns may be called more than once.
func (b *Budget) Take(ctx context.Context, n int64) (release func(), err error) {
	if b == nil {
		return func() {}, nil
	}
	n = max(n, 1)
	if n > b.limit {
		return nil, &Error{Need: n, Limit: b.limit}
	}
	if !b.sem.TryAcquire(n) {
		if ctx.Value(noWaitKey{}) != nil {
			return nil, &Error{Need: n, Limit: b.limit, Busy: true}
		}
		wctx, cancel := context.WithTimeout(ctx, b.wait)
		err := b.sem.Acquire(wctx, n)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("waiting for %d bytes of work budget: %w", n, ctx.Err())
			}
			return nil, &Error{Need: n, Limit: b.limit, Busy: true}
		}
	}
	var once sync.Once
	return func() { once.Do(func() { b.sem.Release(n) }) }, nil
}

type noWaitKey struct{}

// WithoutWait marks ctx's work as optional: Take with it takes only what
// is free at once, and refuses as busy rather than wait.
func WithoutWait(ctx context.Context) context.Context {
	return context.WithValue(ctx, noWaitKey{}, true)
}

// grant is what one request holds of a budget.
type grant struct {
	b  *Budget
	mu sync.Mutex
	rs []func()
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
	release, err := g.b.Take(ctx, n)
	if err != nil {
		return err
	}
	g.mu.Lock()
	g.rs = append(g.rs, release)
	g.mu.Unlock()
	return nil
}

func (g *grant) release() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, r := range g.rs {
		r()
	}
	g.rs = nil
}
