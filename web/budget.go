package web

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/labstack/echo/v4"
	"golang.org/x/sync/semaphore"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/views"
)

// Defaults of the work budget (Config.WorkBudget, Config.WorkBudgetWait).
const (
	DefaultWorkBudget     = 512 << 20
	DefaultWorkBudgetWait = 2 * time.Second
)

// retryAfter is what a request refused for want of budget is told to
// wait, in seconds: heavy work is over within a few seconds.
const retryAfter = 2

// workBudget is the one server-wide budget of bytes that heavy work
// (pages, pictures, edits, the JSON API) takes before it allocates. Rate
// limits pace requests but not their size: 30 concurrent slice pages of
// 4096×4096 once took a replica from 13 MB to 4.9 GB.
type workBudget struct {
	sem   *semaphore.Weighted
	limit int64
	wait  time.Duration
}

func newWorkBudget(limit int64, wait time.Duration) *workBudget {
	return &workBudget{sem: semaphore.NewWeighted(limit), limit: limit, wait: wait}
}

// budgetError refuses work the budget cannot hold: now (busy, 503) or
// ever (a single request larger than the whole budget, 413).
type budgetError struct {
	need, limit int64
	busy        bool
}

func (e *budgetError) Error() string { return e.message() }

func (e *budgetError) status() int {
	if e.busy {
		return http.StatusServiceUnavailable
	}
	return http.StatusRequestEntityTooLarge
}

func (e *budgetError) code() string {
	if e.busy {
		return "busy"
	}
	return "too-large"
}

func (e *budgetError) message() string {
	if e.busy {
		return fmt.Sprintf("the server is busy with other heavy work: this needs %s of its %s work budget; try again in %d seconds",
			mib(e.need), mib(e.limit), retryAfter)
	}
	return fmt.Sprintf("this needs %s, more than the server's whole work budget of %s: ask for fewer elements", mib(e.need), mib(e.limit))
}

func mib(n int64) string {
	return strconv.FormatFloat(float64(n)/(1<<20), 'f', 1, 64) + " MiB"
}

// take reserves n bytes, waiting up to the budget's wait for them; the
// release it returns may be called more than once. A nil budget (none
// configured) grants everything.
func (b *workBudget) take(ctx context.Context, n int64) (release func(), err error) {
	if b == nil {
		return func() {}, nil
	}
	n = max(n, 1)
	if n > b.limit {
		return nil, &budgetError{need: n, limit: b.limit}
	}
	if !b.sem.TryAcquire(n) {
		wctx, cancel := context.WithTimeout(ctx, b.wait)
		err := b.sem.Acquire(wctx, n)
		cancel()
		if err != nil {
			if ctx.Err() != nil {
				return nil, fmt.Errorf("waiting for %d bytes of work budget: %w", n, ctx.Err())
			}
			return nil, &budgetError{need: n, limit: b.limit, busy: true}
		}
	}
	var once sync.Once
	return func() { once.Do(func() { b.sem.Release(n) }) }, nil
}

// grant is what one HTTP request holds of the budget; budgeted releases
// it once the handler has written the response.
type grant struct {
	b  *workBudget
	mu sync.Mutex
	rs []func()
}

type grantKey struct{}

// takeBudget reserves n bytes for the request whose context is ctx (see
// budgeted). Outside a budgeted request (a unit test calling a model
// function) it grants everything.
func takeBudget(ctx context.Context, n int64) error {
	g, _ := ctx.Value(grantKey{}).(*grant)
	if g == nil {
		return nil
	}
	release, err := g.b.take(ctx, n)
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

// How a refusal for want of budget is written: as a page or as the API's
// JSON errors.
const (
	asPage = iota
	asAPI
)

// budgeted runs h with a grant of the work budget in its request's
// context, released when h returns (the response written, or a panic on
// its way to the recover middleware), and answers a refusal as a page or
// as API JSON, with Retry-After when waiting may help.
func (s *Server) budgeted(as int, h echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if s.budget == nil {
			return h(c)
		}
		g := &grant{b: s.budget}
		defer g.release()
		r := c.Request()
		c.SetRequest(r.WithContext(context.WithValue(r.Context(), grantKey{}, g)))
		err := h(c)
		var be *budgetError
		if !errors.As(err, &be) {
			return err
		}
		if be.busy {
			c.Response().Header().Set("Retry-After", strconv.Itoa(retryAfter))
		}
		if as == asPage && r.Method != http.MethodHead {
			title := "Too large for this server"
			if be.busy {
				title = "The server is busy"
			}
			return render(c, be.status(), views.ErrorPage(title, upperFirst(be.message())+".", r.URL.RequestURI()))
		}
		return &apiError{status: be.status(), violations: []core.Violation{{Message: be.message()}}}
	}
}
