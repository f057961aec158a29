package rooms

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
)

// State is what a presenter shares with the class: which page, its
// URL query (the whole explorer state), and what the presenter points at.
// It is small on purpose; every replica renders it itself.
type State struct {
	Page  string `json:"page"`            // "layout", "slice" or "tour"
	Query string `json:"query"`           // the page's URL query
	Focus string `json:"focus,omitempty"` // the cell the presenter hovers or focuses
	Step  int    `json:"step,omitempty"`  // tour step or slice step-through position
	// Version grows with every change, so replicas and viewers can drop
	// anything older than what they have. It is a time in microseconds
	// (or one more than the last), so no state can be ahead of the clock
	// by more than maxVersionAhead.
	Version int64 `json:"version"`
}

// Room limits and timings.
const (
	CodeLen      = 8
	CodeAlphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ" // no 0/O, 1/I/L: read aloud and typed
	// maxRoomStateBytes holds a slice state with typed values (a query
	// of up to 12 KiB, picture.MaxSliceQuery) and its focus.
	maxRoomStateBytes = 16 << 10
	// JoinTimeout is how long a replica waits for the others to answer a
	// question about a room (who presents it, its newest state).
	JoinTimeout    = 750 * time.Millisecond
	roomCountEvery = 5 * time.Second
	roomCountTTL   = 3 * roomCountEvery
	// presenterGrace is how long a room stays presented after its last
	// presenter connection closes: a presenter reloading the page comes
	// back within it, and the class sees no "stopped".
	presenterGrace = 2 * time.Second
	// Lifetime is how long a room and its presenter's token live
	// from the room's creation: a school day, not forever.
	Lifetime = 12 * time.Hour
	// storeTimeout bounds one read or write of the room store, so that a
	// stalled bus turns into a quick 503, not a hung request.
	storeTimeout = 1500 * time.Millisecond
	// maxVersionAhead is how far past this replica's clock a state's
	// version may be: a version from further ahead would freeze the room.
	maxVersionAhead = time.Minute
	// DefaultMax is how many rooms one replica keeps; past it the
	// oldest room nobody is in gives way to a new one.
	DefaultMax = 10000
)

// Room errors a client sees.
var (
	ErrNoRoom       = errors.New("no such room: the code is wrong, or the room has ended")
	ErrNotPresenter = errors.New("only the presenter can change the room")
	// ErrMoved: a newer presenter connection of the room (another tab)
	// presents it now.
	ErrMoved     = errors.New("another tab presents this room now")
	ErrRoomState = errors.New("room state is too large or malformed")
	ErrRoomsFull = errors.New("every room on this server is in use; try again later")
	// ErrBusDown: the rooms' bus or store does not answer now; the room
	// may well exist.
	ErrBusDown = errors.New("the room service is reconnecting; try again in a moment")
)

// Replica is this replica's view of the classrooms. A room's record (code,
// creation, expiry, latest state) lives in the bus's store, so rooms
// survive a restart or a replica dying; live traffic (states, viewer
// counts, presence) travels on the bus, every message sealed with a key
// derived from the shared room secret. The replica keeps an index of the
// rooms it created or serves; it subscribes to a room's subjects only
// while someone here presents or follows it.
type Replica struct {
	bus       Bus
	tokenKey  []byte
	ticketKey []byte
	busKey    []byte
	replica   string
	log       *slog.Logger
	emptyTTL  time.Duration
	maxRooms  int
	// clock is this replica's clock (time.Now; tests skew it). Whatever
	// crosses replicas (versions, stamps, expiries) is read on the bus's
	// clock instead, now: clock plus offset, the bus's time minus this
	// clock's as the store probe measured it (see clock.go).
	clock       func() time.Time
	offset      atomic.Int64 // nanoseconds
	offsetKnown atomic.Bool

	out     chan busMsg   // publishes, sent by the sender goroutine so no lock is held across bus I/O
	persist chan struct{} // capacity 1: "some record is dirty"
	quit    chan struct{}
	closed  sync.Once

	// persistMu is held by the persister over each round of writes and
	// by End over its delete, so that no write of a room's record in
	// flight brings an ended room back.
	persistMu sync.Mutex

	mu     sync.Mutex
	ends   func()        // stops the subscription to every room's end; nil until made
	grace  time.Duration // presenterGrace; tests shorten it
	rooms  map[string]*room
	dirty  map[string]struct{} // records to write to the store
	busUp  bool
	lastAt int64 // the stamp of this replica's last count or presence message

	// The store as the prober last found it (see clock.go).
	storeErr     error // nil: the last probe wrote to the store
	storeChecked bool  // a probe has answered
	probeRev     uint64
	skewed       bool // the offset was past clockTolerance at the last probe
}

// room is one room in this replica's index. The record fields are always
// set; the rest only matter while the room is attached.
type room struct {
	code       string
	created    int64 // unix microseconds
	expires    int64 // unix microseconds
	state      State
	presenters int
	conns      map[*Presenter]struct{} // this replica's presenter connections
	newestID   string                  // the newest presenter connection this replica knows of
	newestAt   int64
	viewers    map[*Viewer]struct{}
	counts     map[string]replicaCount // viewers per replica, for the presenter
	emptySince time.Time
	issued     int64 // the last version this replica's presenter issued

	attached  bool
	attaching chan struct{} // closed when an attach in flight ends
	ended     bool          // its presenter ended it: nothing attaches to it again
	touched   time.Time     // when this replica last told the store it has someone in the room
	stop      []func()

	// Presence: whether a presenter connection is open on any replica.
	// live is what this replica announces on .presence (set on the first
	// present, cleared grace after its last presenter leaves); presence is
	// what the other replicas announce; known is false while this replica
	// has not yet asked them (viewers are not told "stopped" meanwhile);
	// presenting is what local viewers were last told.
	live       bool
	graceTimer *time.Timer
	presence   map[string]replicaCount
	known      bool
	presenting bool
}

type replicaCount struct {
	n    int
	seen time.Time
	at   int64 // the sender's time of its latest message (µs): an older one is a replay
}

// NewReplica shares rooms over bus. secret signs presenter tokens and seals
// every message on the bus: replicas that serve the same rooms must share
// it. Close stops the goroutines it starts.
func NewReplica(bus Bus, secret []byte, log *slog.Logger) *Replica {
	return newReplica(bus, secret, log, time.Now)
}

// newReplica is NewReplica on the given clock.
func newReplica(bus Bus, secret []byte, log *slog.Logger, clock func() time.Time) *Replica {
	if log == nil {
		log = slog.Default()
	}
	r := &Replica{bus: bus, clock: clock, tokenKey: deriveKey(secret, "stridescope presenter token v2"), ticketKey: deriveKey(secret, "stridescope join ticket v1"), busKey: deriveKey(secret, "stridescope bus v1"),
		replica: randomString(12, "abcdefghijklmnopqrstuvwxyz0123456789"), log: log,
		emptyTTL: 10 * time.Minute, maxRooms: DefaultMax, grace: presenterGrace, rooms: map[string]*room{},
		dirty: map[string]struct{}{}, out: make(chan busMsg, 4096), persist: make(chan struct{}, 1), quit: make(chan struct{}),
		busUp: bus.Up()}
	go r.sender()
	go r.persister()
	go r.prober()
	bus.Watch(r.busChanged)
	r.listenForEnds()
	return r
}

// SetMaxRooms changes how many rooms the replica keeps (n > 0).
func (r *Replica) SetMaxRooms(n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n > 0 {
		r.maxRooms = n
	}
}

// SetPresenterGrace changes how long a room stays presented after its
// last presenter connection closes (tests shorten it).
func (r *Replica) SetPresenterGrace(d time.Duration) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.grace = d
}

// Close stops the sender and the persister; the bus stays open.
func (r *Replica) Close() {
	r.closed.Do(func() {
		close(r.quit)
		r.mu.Lock()
		stop := r.ends
		r.ends = nil
		r.mu.Unlock()
		if stop != nil {
			stop()
		}
	})
}

func subject(code, what string) string { return "stridescope.room." + code + "." + what }

func newRoom(code string, rec roomRecord) *room {
	return &room{code: code, created: rec.Created, expires: rec.Expires, state: rec.State, emptySince: time.Now(),
		conns: map[*Presenter]struct{}{}, viewers: map[*Viewer]struct{}{}, counts: map[string]replicaCount{}, presence: map[string]replicaCount{}, presenting: true}
}

// Create opens a room with an initial state and returns its join code and
// the presenter's token. When this replica holds maxRooms rooms, the one
// nobody has been in for longest gives way; ErrRoomsFull when every room
// has someone in it.
func (r *Replica) Create(initial State) (code, token string, err error) {
	if !r.bus.Up() {
		return "", "", ErrBusDown
	}
	now := r.now()
	initial.Version = 1
	if _, err := encodeState(initial); err != nil {
		return "", "", err
	}
	rec := roomRecord{Created: now.UnixMicro(), Expires: now.Add(Lifetime).UnixMicro(), State: initial}
	ended, err := r.makeRoom(now)
	if err != nil {
		return "", "", err
	}
	for range 3 {
		code = randomString(CodeLen, CodeAlphabet)
		rm := newRoom(code, rec)
		rm.known = true // a new room: nobody presents it until its presenter connects
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		err = r.bus.CreateRoom(ctx, code, r.sealRecord(code, rec))
		cancel()
		if errors.Is(err, ErrRoomExists) {
			continue
		}
		if err != nil {
			return "", "", fmt.Errorf("%w: %v", ErrBusDown, err)
		}
		r.mu.Lock()
		r.rooms[code] = rm
		r.mu.Unlock()
		if ended != "" {
			r.forget(ended) // only once the new room is stored: a stalled store fails the new room first
		}
		return code, r.token(code, rec.Created, rec.Expires), nil
	}
	return "", "", fmt.Errorf("%w: no free room code after 3 draws", ErrBusDown)
}

// makeRoom makes space for one more room: at the cap, the room that has
// been empty longest leaves the index, and it returns that room's code
// when nobody is in it on any replica either (the caller ends it in the
// store).
func (r *Replica) makeRoom(now time.Time) (ended string, err error) {
	r.mu.Lock()
	if len(r.rooms) < r.maxRooms {
		r.mu.Unlock()
		return "", nil
	}
	var oldest *room
	for _, rm := range r.rooms {
		if rm.presenters > 0 || len(rm.viewers) > 0 || rm.attaching != nil || rm.emptySince.IsZero() {
			continue
		}
		if oldest == nil || rm.emptySince.Before(oldest.emptySince) {
			oldest = rm
		}
	}
	if oldest == nil {
		r.mu.Unlock()
		return "", ErrRoomsFull
	}
	// A room whose class is on another replica only leaves this index;
	// one that nobody is in anywhere ends.
	end := !r.othersInLocked(oldest, now)
	code, empty := oldest.code, now.Sub(oldest.emptySince).Round(time.Second)
	unsubscribe := r.dropLocked(oldest)
	r.mu.Unlock()
	unsubscribe()
	if !end {
		return "", nil
	}
	r.log.Info("room: ending an empty room to make space", "room", code, "empty for", empty)
	return code, nil
}

// dropLocked removes a room from the index; the caller ends its
// subscriptions with the function it returns, after unlocking (an
// unsubscribe is bus I/O).
func (r *Replica) dropLocked(rm *room) (unsubscribe func()) {
	stops := rm.stop
	rm.stop, rm.attached = nil, false
	if rm.graceTimer != nil {
		rm.graceTimer.Stop()
	}
	delete(r.rooms, rm.code)
	delete(r.dirty, rm.code)
	return func() {
		for _, stop := range stops {
			stop()
		}
	}
}

// Watching is how many viewers the room with code has across replicas, as
// far as this replica has heard (0 for a room it does not hold).
func (r *Replica) Watching(code string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[code]
	if !ok {
		return 0
	}
	return r.watchingLocked(rm)
}

func (r *Replica) watchingLocked(rm *room) int {
	n := 0
	for id, c := range rm.counts {
		if time.Since(c.seen) > roomCountTTL && id != r.replica {
			continue
		}
		n += c.n
	}
	return n
}

// Run keeps the rooms healthy until ctx ends: it re-announces viewer
// counts and presence, and ends rooms that have been empty for longer
// than emptyTTL, or have expired.
//
// It also looks through the store, at once and then every
// storeSweepEvery, for rooms no replica holds (their replicas restarted,
// or died) and ends those nobody has been in for longer than emptyTTL:
// else a room whose class never came back would answer its code until its
// expiry.
func (r *Replica) Run(ctx context.Context) {
	t := time.NewTicker(roomCountEvery)
	defer t.Stop()
	st := time.NewTicker(storeSweepEvery)
	defer st.Stop()
	r.sweepStore(r.now())
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			r.sweep(time.Now())
		case <-st.C:
			r.sweepStore(r.now())
		}
	}
}

// touchEvery is how often a replica with someone in a room says so in the
// store (well within emptyTTL).
const touchEvery = time.Minute

func (r *Replica) sweep(now time.Time) {
	var ended, touch []string
	var unsubscribe []func()
	r.mu.Lock()
	// now is on time.Now's clock, as the local stamps (seen, emptySince)
	// are; what crosses replicas is read on the bus's.
	busNow := now.Add(r.now().Sub(time.Now()))
	for code, rm := range r.rooms {
		empty := rm.presenters <= 0 && len(rm.viewers) == 0 && rm.attaching == nil
		expired := busNow.UnixMicro() >= rm.expires
		if (empty && !rm.emptySince.IsZero() && now.Sub(rm.emptySince) >= r.emptyTTL) || (empty && expired) {
			// Another replica may still have members: then the room
			// stays in the store, and only this replica lets go of it.
			if expired || !r.othersInLocked(rm, now) {
				ended = append(ended, code)
			}
			unsubscribe = append(unsubscribe, r.dropLocked(rm))
			continue
		}
		for id, c := range rm.counts {
			if id != r.replica && now.Sub(c.seen) > roomCountTTL {
				delete(rm.counts, id) // a replica gone (restarted ones get new ids)
			}
		}
		if len(rm.viewers) > 0 {
			r.publishCountLocked(rm)
		}
		if rm.live {
			r.announceLocked(rm) // a heartbeat: a replica that dies stops being counted after roomCountTTL
		}
		if (rm.presenters > 0 || len(rm.viewers) > 0) && now.Sub(rm.touched) >= touchEvery {
			rm.touched = now
			touch = append(touch, code)
		}
		r.presenceChangedLocked(rm, now)
	}
	up := r.busUp
	r.mu.Unlock()
	for _, f := range unsubscribe {
		f()
	}
	if up {
		for _, code := range touch {
			r.touch(code, busNow)
		}
		for _, code := range ended {
			r.forget(code)
		}
	}
}

// othersInLocked reports whether another replica has lately said it has
// viewers or a presenter in the room.
func (r *Replica) othersInLocked(rm *room, now time.Time) bool {
	for id, c := range rm.counts {
		if id != r.replica && c.n > 0 && now.Sub(c.seen) <= roomCountTTL {
			return true
		}
	}
	for _, c := range rm.presence {
		if c.n > 0 && now.Sub(c.seen) <= roomCountTTL {
			return true
		}
	}
	return false
}

// Len is the number of rooms in this replica's index.
func (r *Replica) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.rooms)
}
