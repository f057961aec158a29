package rooms

// Members: a presenter connection changes a room, viewers follow it,
// latest state only.

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"time"
)

// Presenter is a connection allowed to change a room.
type Presenter struct {
	rooms *Replica
	code  string
	rm    *room // read under rooms.mu
	id    string
	at    int64       // when it began presenting, on its replica's clock (µs)
	moved atomic.Bool // a newer presenter connection took over
	once  sync.Once
	// answers is woken when the room's answers change (capacity 1).
	answers chan struct{}
}

// Present checks token against the room's record and registers a
// presenter connection for code, on whichever replica the presenter
// reaches: after a restart or a failover too, as long as the room lives.
// It is the room's newest: the connections that presented before are
// moved aside (Presenter.Moved).
func (r *Replica) Present(ctx context.Context, code, token string) (*Presenter, State, error) {
	return r.present(ctx, code, token, "")
}

// Resume is Present for a page that presented as connection id and lost
// its socket (a laptop asleep, a network that dropped): if a newer
// connection has presented the room meanwhile, it does not take the room
// back but answers ErrMoved, as it would have heard.
func (r *Replica) Resume(ctx context.Context, code, token, id string) (*Presenter, State, error) {
	return r.present(ctx, code, token, id)
}

func (r *Replica) present(ctx context.Context, code, token, resume string) (*Presenter, State, error) {
	if err := r.Authorize(ctx, code, token); err != nil {
		if errors.Is(err, ErrNoRoom) {
			return nil, State{}, errNoRoomToPresent // say nothing of whether the room exists
		}
		return nil, State{}, err
	}
	rm, err := r.attachHeld(ctx, code)
	if err != nil {
		return nil, State{}, err
	}
	defer r.mu.Unlock()
	if resume != "" && rm.newestID != "" && rm.newestID != resume {
		return nil, State{}, ErrMoved
	}
	rm.presenters++
	rm.presented = true
	rm.emptySince = time.Time{}
	if rm.graceTimer != nil {
		rm.graceTimer.Stop()
		rm.graceTimer = nil
	}
	if !rm.live {
		rm.live = true
		r.announceLocked(rm)
	}
	r.presenceChangedLocked(rm, time.Now())
	p := &Presenter{rooms: r, code: code, rm: rm, id: randomString(12, "abcdefghijklmnopqrstuvwxyz0123456789"), at: r.nextAtLocked(), answers: make(chan struct{}, 1)}
	rm.conns[p] = struct{}{}
	r.takeOverLocked(rm, p)
	return p, rm.state, nil
}

// errNoRoomToPresent is what presenting a code that has no room answers:
// its message is ErrNotPresenter's, which tells the presenter nothing of
// whether the room exists, and it is ErrNoRoom too, so that the server
// counts the wrong code (errors.Is).
var errNoRoomToPresent error = noRoomToPresent{}

type noRoomToPresent struct{}

func (noRoomToPresent) Error() string { return ErrNotPresenter.Error() }

func (noRoomToPresent) Is(target error) bool { return target == ErrNotPresenter || target == ErrNoRoom }

// Code is the room's join code.
func (p *Presenter) Code() string { return p.code }

// ID names the connection, for Resume.
func (p *Presenter) ID() string { return p.id }

// Update shares a new state with every viewer on every replica.
func (p *Presenter) Update(st State) error { return p.UpdateStale(st, "") }

// UpdateStale is Update for a state that changes the picture under the
// room's question stale (its id; "" none): in the same state, the
// question is marked stale and closed if open, so that no student answers
// about a picture no longer on screen (questionset.go).
func (p *Presenter) UpdateStale(st State, stale string) error {
	if p.Moved() {
		return ErrMoved // a newer connection presents: its states are the room's
	}
	r := p.rooms
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[p.code]
	if !ok || r.now().UnixMicro() >= rm.expires {
		return ErrNoRoom
	}
	// Versions must grow even for updates issued faster than the bus
	// echoes them back, and across a presenter moving replicas. They are
	// times on the bus's clock, so that a replica whose own clock runs
	// ahead issues none that the others take for the future.
	st.Version = max(rm.state.Version, rm.issued, r.now().UnixMicro()) + 1
	st.Question, st.Pace = rm.state.Question, rm.state.Pace // the room's, changed by Ask, Reveal, SetPace...
	if q := st.Question; q != nil && stale != "" && q.ID == stale && !q.Stale {
		c := *q
		c.Stale = true
		if c.Open {
			c.Open, c.ClosedAt = false, r.now().UnixMicro()
		}
		st.Question = &c
	}
	raw, err := encodeState(st)
	if err != nil {
		return err
	}
	rm.issued = st.Version
	// The presenter's replica takes the state at once, so that a state
	// the bus loses (a fault before the client notices it, a full queue)
	// is still the room's: it is stored, and published again when the
	// bus is back. The bus's echo of it is no news.
	r.applyStateLocked(rm, st)
	r.publish(subject(p.code, "state"), raw)
	return nil
}

// Watching is how many viewers the room has across replicas.
func (p *Presenter) Watching() int { return p.rooms.Watching(p.code) }

// Ended reports whether the room has ended (its presenter ended it, here
// or on another replica). A room left empty and let go of by this replica
// has not: a connection moved aside (not counted) may outlast it.
func (p *Presenter) Ended() bool {
	r := p.rooms
	r.mu.Lock()
	defer r.mu.Unlock()
	return p.rm.ended
}

// BusUp reports whether the bus between the replicas is connected.
func (p *Presenter) BusUp() bool { return p.rooms.BusUp() }

// Close unregisters the presenter connection. When it was the room's last
// one on this replica, the replica stops announcing a presenter after the
// grace period, unless one presents again meanwhile.
func (p *Presenter) Close() {
	r := p.rooms
	p.once.Do(func() {
		r.leave(p.code, func(rm *room) {
			delete(rm.conns, p)
			rm.presenters--
			if rm.presenters > 0 {
				return
			}
			if rm.graceTimer != nil {
				rm.graceTimer.Stop()
			}
			rm.graceTimer = time.AfterFunc(r.grace, func() { r.endPresence(p.code, rm) })
		})
	})
}

// Viewer follows a room. It keeps only the newest state it has not yet
// delivered, so a slow viewer skips states instead of slowing anyone.
type Viewer struct {
	rooms *Replica
	code  string
	ready chan struct{} // capacity 1: "a newer state is waiting"

	mu       sync.Mutex
	pending  *Delivery // the newest state not yet returned, or nil
	lastSent int64
	// presenting is whether the room has a presenter, told whether the
	// viewer was last told so; both start true (a viewer assumes the
	// presenter is there), so only a change is news. linked and
	// linkTold are the same for the bus.
	presenting, told bool
	linked, linkTold bool
	ended, endTold   bool // the room has ended; the viewer was told so
	once             sync.Once

	// The student this viewer answers as (questions.go), and its answer
	// rate limit.
	student, studentToken string
	tokens                int
	lastFill              time.Time
	whereAt               time.Time // when it last said where it is (pace.go)
	placed                bool      // it has said where it is
	page                  string    // names it in what it says (whereMsg)
}

// ViewerEvent is what a viewer hears next: a newer state of the room,
// that its presenter has left or come back (Presence), that the bus
// between the replicas went down or came back (Link), or that the
// presenter ended the room (Ended: the last event).
type ViewerEvent struct {
	// Delivery is the state as this replica handed it to every local
	// viewer of the room (nil for news about the presenter or the bus).
	Delivery   *Delivery
	Presence   bool // the event is about the presenter, not a state
	Presenting bool // with Presence: whether a presenter is connected now
	Link       bool // the event is about the bus
	Connected  bool // with Link: whether the bus is connected now
	Ended      bool // the room has ended: nothing follows
}

func (v *Viewer) wake() {
	select {
	case v.ready <- struct{}{}:
	default:
	}
}

func (v *Viewer) offerPresence(p bool) {
	v.mu.Lock()
	v.presenting = p
	v.mu.Unlock()
	v.wake()
}

func (v *Viewer) offerEnded() {
	v.mu.Lock()
	v.ended = true
	v.mu.Unlock()
	v.wake()
}

func (v *Viewer) offerLink(up bool) {
	v.mu.Lock()
	v.linked = up
	v.mu.Unlock()
	v.wake()
}

// Delivery is a room's state as a replica hands it to its viewers, with
// the room's viewer count at that moment. Every local viewer of the room
// is handed the same *Delivery, so that what a server derives from it
// for its sockets (the encoded message) is derived once per state, not
// once per viewer: see Shared.
type Delivery struct {
	State    State
	Watching int // viewers on every replica, as this one has heard

	claimed atomic.Bool
	ready   chan struct{} // closed once shared is set
	shared  any
}

func newDelivery(st State, watching int) *Delivery {
	return &Delivery{State: st, Watching: watching, ready: make(chan struct{})}
}

// Shared returns derive(d), calling derive only for the first viewer that
// asks: the others wait for it and get the same value. derive must not
// call Shared.
//
// The others wait on a channel, not on a sync.Once: the followers of a
// room all ask at once, and a Once's mutex hands itself to its waiters
// one at a time (the mutex profile of 1000 followers showed that convoy),
// where closing the channel wakes them all together.
func (d *Delivery) Shared(derive func(*Delivery) any) any {
	if d.claimed.CompareAndSwap(false, true) {
		defer close(d.ready) // a derive that panics leaves nil, not waiters waiting
		d.shared = derive(d)
		return d.shared
	}
	<-d.ready
	return d.shared
}

func (v *Viewer) offer(d *Delivery) {
	v.mu.Lock()
	if d.State.Version > v.lastSent && (v.pending == nil || d.State.Version > v.pending.State.Version) {
		v.pending = d
	}
	v.mu.Unlock()
	v.wake()
}

// Next blocks until a state newer than the last one returned arrives; it
// skips news about the presenter and the bus.
func (v *Viewer) Next(ctx context.Context) (State, error) {
	for {
		ev, err := v.NextEvent(ctx)
		if err != nil {
			return State{}, err
		}
		if ev.Delivery != nil {
			return ev.Delivery.State, nil
		}
	}
}

// NextEvent blocks until a state newer than the last one returned arrives,
// or the presenter or the bus goes or comes back (a change since the last
// event: going and coming back between two calls is no news), or the room
// ends. The end comes first, then the bus, then a waiting state; after
// the end nothing comes.
func (v *Viewer) NextEvent(ctx context.Context) (ViewerEvent, error) {
	for {
		v.mu.Lock()
		if v.ended {
			told := v.endTold
			v.endTold = true
			v.mu.Unlock()
			if !told {
				return ViewerEvent{Ended: true}, nil
			}
			<-ctx.Done()
			return ViewerEvent{}, ctx.Err()
		}
		if v.linked != v.linkTold {
			v.linkTold = v.linked
			v.mu.Unlock()
			return ViewerEvent{Link: true, Connected: v.linkTold}, nil
		}
		if d := v.pending; d != nil {
			v.pending, v.lastSent = nil, d.State.Version
			v.mu.Unlock()
			return ViewerEvent{Delivery: d}, nil
		}
		if v.presenting != v.told {
			v.told = v.presenting
			v.mu.Unlock()
			return ViewerEvent{Presence: true, Presenting: v.told}, nil
		}
		v.mu.Unlock()
		select {
		case <-v.ready:
		case <-ctx.Done():
			return ViewerEvent{}, ctx.Err()
		}
	}
}

// StudentToken names the viewer's student to the page, which gives it
// back on its next join (JoinAs).
func (v *Viewer) StudentToken() string { return v.studentToken }

// Close leaves the room.
func (v *Viewer) Close() {
	v.once.Do(func() {
		v.leaveWhere()
		v.rooms.leave(v.code, func(rm *room) {
			delete(rm.viewers, v)
			v.rooms.publishCountLocked(rm)
		})
	})
}

// Join follows the room with the given code; the current state is
// delivered first. ErrNoRoom when the room does not exist, ErrBusDown
// when that cannot be told now.
func (r *Replica) Join(ctx context.Context, code string) (*Viewer, error) {
	return r.JoinAs(ctx, code, "")
}

// JoinAs is Join for the student a page's student token names (Viewer.
// StudentToken gave it): a token that is not the room's gets a new
// student.
func (r *Replica) JoinAs(ctx context.Context, code, student string) (*Viewer, error) {
	code, ok := NormalizeCode(code)
	if !ok {
		return nil, ErrNoRoom
	}
	rm, err := r.attachHeld(ctx, code)
	if err != nil {
		return nil, err
	}
	defer r.mu.Unlock()
	v := &Viewer{rooms: r, code: code, ready: make(chan struct{}, 1), presenting: rm.presenting, told: true,
		linked: r.busUp, linkTold: true}
	v.student, v.studentToken = r.student(code, student)
	v.page = randomString(8, "abcdefghijklmnopqrstuvwxyz0123456789")
	rm.viewers[v] = struct{}{}
	rm.followed = true
	rm.emptySince = time.Time{}
	r.publishCountLocked(rm)
	v.offer(newDelivery(rm.state, r.watchingLocked(rm)))
	return v, nil
}

// Current returns the room's state without joining it: ErrNoRoom when the
// room does not exist, ErrBusDown when that cannot be told now.
func (r *Replica) Current(ctx context.Context, code string) (State, error) {
	code, ok := NormalizeCode(code)
	if !ok {
		return State{}, ErrNoRoom
	}
	rm, err := r.lookup(ctx, code)
	if err != nil {
		return State{}, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return rm.state, nil
}

func (r *Replica) leave(code string, f func(*room)) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[code]
	if !ok {
		return
	}
	f(rm)
	if rm.presenters <= 0 && len(rm.viewers) == 0 {
		rm.emptySince = time.Now()
	}
}
