package web

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/stridescope/stridescope/rooms"
)

// joinGuard limits how fast one address may find room codes by trying
// them: freely until it has tried limit wrong codes in a window, then
// through a slow lane that looks up one new code per slowEvery, each
// lookup waiting at most maxWait for its turn. Guessing one room among
// 8.5·10^11 codes at one code per two seconds takes years.
//
// Every path that looks a code up goes through it (Admit before the
// lookup, Fail or Found after). Past the limit, what the address has
// already learnt costs no turn, since asking it again teaches nothing:
//
//   - a code it has found live (Found) is looked up at once: once one
//     student of a class behind one NAT address is in, the other 29 are
//     too, however many wrong codes come from that address;
//   - a code it has found wrong in the window is answered rooms.ErrNoRoom
//     at once, without a lookup (a loop sending one wrong code over and
//     over holds no turn).
//
// The slow lane's next turn goes to the waiting code asked most often in
// the window, so the code a class types (asked by every student) goes
// before a loop's new wrong codes, each asked once (issue #35, finding 7: four
// such loops let 1 of 30 students in within 60 s, when the lane took
// lookups in no order and refused the rest). All the waiters of a code
// share its turn: a turn still tests one code.
type joinGuard struct {
	limit     int
	window    time.Duration
	slowEvery time.Duration
	maxWait   time.Duration

	mu     sync.Mutex
	m      map[string]*joinWindow
	pruned time.Time // the last scan for finished windows
}

// maxRemembered bounds each address's memory of codes (found, wrong,
// asked): past it a new code found or found wrong is not remembered, and
// a new code asked makes the guard forget the code asked least often.
const maxRemembered = 256

type joinWindow struct {
	start time.Time
	n     int                 // distinct wrong codes in the window
	wrong map[string]struct{} // those codes
	found map[string]struct{} // codes found live from the address (kept across windows)
	asked map[string]int      // past the limit: how often each new code was asked
	waits map[string]*turn    // codes waiting for a turn
	next  time.Time           // when the slow lane's next turn is free
	timer *time.Timer         // grants the next turn while codes wait
}

// turn is a code waiting in the slow lane.
type turn struct {
	since   time.Time     // when its first waiter came
	granted chan struct{} // closed when the code may be looked up
	waiters int
}

var errTooManyJoins = errors.New("too many wrong room codes from this address")

func (g *joinGuard) windowLocked(key string, now time.Time) *joinWindow {
	if g.m == nil {
		g.m = map[string]*joinWindow{}
	}
	prune(g.m, func(w *joinWindow) time.Time { return w.start }, g.window, now, &g.pruned)
	w, ok := g.m[key]
	if ok && now.Sub(w.start) < g.window {
		return w
	}
	nw := &joinWindow{start: now, wrong: map[string]struct{}{}, found: map[string]struct{}{}, asked: map[string]int{}, waits: map[string]*turn{}}
	if ok {
		nw.found = w.found // what the address found is still found
	}
	g.m[key] = nw
	return nw
}

// slowLocked says whether key's lookups of code go through the slow lane,
// and returns its window if so.
func (g *joinGuard) slowLocked(key, code string, now time.Time) (*joinWindow, bool) {
	w, ok := g.m[key]
	if !ok || now.Sub(w.start) >= g.window || w.n < g.limit {
		return nil, false
	}
	if _, found := w.found[code]; found {
		return nil, false
	}
	return w, true
}

// Admit returns when key may look code up: at once below the limit or
// for a code key has found, after code's turn in the slow lane past it;
// rooms.ErrNoRoom for a code key has found wrong in the window (no
// lookup needed); errTooManyJoins when no turn came within maxWait.
func (g *joinGuard) Admit(ctx context.Context, key, code string) error {
	now := time.Now()
	g.mu.Lock()
	w, slow := g.slowLocked(key, code, now)
	if !slow {
		g.mu.Unlock()
		return nil
	}
	if _, wrong := w.wrong[code]; wrong {
		g.mu.Unlock()
		return rooms.ErrNoRoom
	}
	if _, ok := w.asked[code]; !ok && len(w.asked) >= maxRemembered && !w.forgetAskLocked() {
		g.mu.Unlock()
		return errTooManyJoins
	}
	w.asked[code]++
	tr := w.waits[code]
	if tr == nil {
		if len(w.waits) == 0 && !now.Before(w.next) {
			w.next = now.Add(g.slowEvery) // the lane is free: this is its turn
			g.mu.Unlock()
			return nil
		}
		tr = &turn{since: now, granted: make(chan struct{})}
		w.waits[code] = tr
		g.scheduleLocked(w, now)
	}
	tr.waiters++
	g.mu.Unlock()

	t := time.NewTimer(g.maxWait)
	defer t.Stop()
	var err error
	select {
	case <-tr.granted:
		return nil
	case <-t.C:
		err = errTooManyJoins
	case <-ctx.Done():
		err = ctx.Err()
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	select {
	case <-tr.granted:
		return nil // granted as it gave up: the turn is taken anyway
	default:
	}
	if tr.waiters--; tr.waiters == 0 && w.waits[code] == tr {
		delete(w.waits, code)
	}
	return err
}

// forgetAskLocked makes room in w.asked by forgetting the code asked least
// often that is not waiting: the many codes a guesser asks once each
// cannot keep the code a class asks out.
func (w *joinWindow) forgetAskLocked() bool {
	least, n := "", 0
	for c, k := range w.asked {
		if _, waiting := w.waits[c]; !waiting && (least == "" || k < n) {
			least, n = c, k
		}
	}
	if least == "" {
		return false
	}
	delete(w.asked, least)
	return true
}

// TryAdmit is Admit without waiting: whether key may look code up now
// (a turn of the slow lane free now is taken).
func (g *joinGuard) TryAdmit(key, code string) bool {
	now := time.Now()
	g.mu.Lock()
	defer g.mu.Unlock()
	w, slow := g.slowLocked(key, code, now)
	if !slow {
		return true
	}
	if _, wrong := w.wrong[code]; wrong || len(w.waits) > 0 || now.Before(w.next) {
		return false
	}
	w.next = now.Add(g.slowEvery)
	return true
}

// scheduleLocked arms the timer that grants w's next turn.
func (g *joinGuard) scheduleLocked(w *joinWindow, now time.Time) {
	if w.timer != nil || len(w.waits) == 0 {
		return
	}
	w.timer = time.AfterFunc(max(w.next.Sub(now), 0), func() { g.grant(w) })
}

// grant gives the slow lane's turn to the waiting code asked most often
// in the window (the longest waiting of those asked as often).
func (g *joinGuard) grant(w *joinWindow) {
	g.mu.Lock()
	defer g.mu.Unlock()
	w.timer = nil
	now := time.Now()
	if now.Before(w.next) {
		g.scheduleLocked(w, now) // TryAdmit took the turn meanwhile
		return
	}
	var code string
	var best *turn
	for c, tr := range w.waits {
		if best == nil || w.asked[c] > w.asked[code] || (w.asked[c] == w.asked[code] && tr.since.Before(best.since)) {
			code, best = c, tr
		}
	}
	if best == nil {
		return
	}
	delete(w.waits, code)
	close(best.granted)
	w.next = now.Add(g.slowEvery)
	g.scheduleLocked(w, now)
}

// Fail counts a wrong code from key (a code counts once per window).
func (g *joinGuard) Fail(key, code string, now time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	w := g.windowLocked(key, now)
	if _, seen := w.wrong[code]; seen {
		return
	}
	w.n++
	if len(w.wrong) < maxRemembered {
		w.wrong[code] = struct{}{}
	}
}

// Found records that key found code live: key looks it up freely from
// then on. Only an address that has tried wrong codes is remembered.
func (g *joinGuard) Found(key, code string, now time.Time) {
	g.mu.Lock()
	defer g.mu.Unlock()
	w, ok := g.m[key]
	if !ok || len(w.found) >= maxRemembered {
		return
	}
	if now.Sub(w.start) >= g.window {
		w = g.windowLocked(key, now)
	}
	w.found[code] = struct{}{}
}

// counted tells the guard what looking code up from key answered: a
// wrong code (rooms.ErrNoRoom), or a room (no error, or a refusal that
// needed the room: not its presenter). A bus down says nothing.
func (g *joinGuard) counted(key, code string, err error) {
	switch {
	case errors.Is(err, rooms.ErrNoRoom):
		g.Fail(key, code, time.Now())
	case err == nil || errors.Is(err, rooms.ErrNotPresenter):
		g.Found(key, code, time.Now())
	}
}

// wrongCodes is how many wrong codes key has tried in its window.
func (g *joinGuard) wrongCodes(key string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	if w, ok := g.m[key]; ok && time.Since(w.start) < g.window {
		return w.n
	}
	return 0
}
