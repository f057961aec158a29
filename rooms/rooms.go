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
	// Question is the question the presenter has asked about this
	// state, if any (questions.go); a page's states keep it.
	Question *Question `json:"question,omitempty"`
	// Pace is "student" while the presenter lets the class move through
	// the tour alone (pace.go); "" (teacher-paced): everyone follows.
	Pace string `json:"pace,omitempty"`
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
	// of up to 12 KiB, slice1.MaxQueryLen) and its focus.
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
	// DefaultMax is how many rooms one replica keeps; past it a room
	// nobody is in gives way to a new one (see makeRoom for which).
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

	// life is the context of the replica's own work: it ends when Run's
	// does. Every goroutine the replica starts is one of tasks (spawn),
	// and Run returns only once they have all ended.
	life     context.Context
	endLife  context.CancelFunc
	ran      atomic.Bool
	running  chan struct{} // closed once Run listens for ends and its goroutines run
	tasksMu  sync.Mutex
	tasks    sync.WaitGroup
	stopping bool // Run is ending: no task starts any more

	// persistMu is held by the persister over each round of writes and
	// by End over its delete, so that no write of a room's record in
	// flight brings an ended room back.
	persistMu sync.Mutex

	mu    sync.Mutex
	ends  func()        // stops the subscription to every room's end; nil until made
	grace time.Duration // presenterGrace; tests shorten it
	rooms map[string]*room
	owned map[string]int // rooms in the index by owner (Create's owner; "" is not counted)
	// opening counts the rooms being created (their store write in
	// flight): they count towards the cap, or concurrent creations each
	// saw room for one more and the index grew past it.
	opening int
	dirty   map[string]struct{} // records to write to the store
	busUp   bool
	lastAt  int64 // the stamp of this replica's last count or presence message

	// The store as the prober last found it (see clock.go).
	storeErr     error // nil: the last probe wrote to the store
	storeChecked bool  // a probe has answered
	probeRev     uint64
	skewed       bool // the offset was past clockTolerance at the last probe

	refused refusals   // answers refused, by kind (questions.go)
	forms   formLimits // the answer rate limits of pages without a socket (formanswers.go)
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
	// owner is who opened the room on this replica (Create's owner: a
	// client address), "" for a room it found in the store. presented and
	// followed say whether a presenter, and a viewer, have ever been in it
	// here: a room that had both is a class, and gives way at the cap only
	// once no room that never had one is left.
	owner     string
	presented bool
	followed  bool

	attached  bool
	attaching chan struct{} // closed when an attach in flight ends
	ended     bool          // its presenter ended it: nothing attaches to it again
	touched   time.Time     // when this replica last told the store it has someone in the room
	stop      []func()

	// answers are the students' answers by question and student, as this
	// replica has heard them (questions.go).
	answers map[string]map[string]answerMsg
	// where is each student's step while the class goes at its own pace
	// (pace.go).
	where map[string]whereMsg

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
// it. It starts nothing: the replica serves rooms while Run runs.
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
		owned: map[string]int{}, dirty: map[string]struct{}{}, out: make(chan busMsg, 4096), persist: make(chan struct{}, 1),
		running: make(chan struct{}), busUp: bus.Up()}
	r.life, r.endLife = context.WithCancel(context.Background())
	bus.Watch(r.busChanged)
	return r
}

// Run runs the replica until ctx is done, and returns once everything it
// started has ended. It listens for every room's end, then starts the
// goroutines the replica owns: the sender (publishes), the persister
// (records), the prober (the store and the clock, clock.go) and the
// sweeper (see sweeper); the replica starts its other work (asking who
// presents a room, catching up on its state, ending a room another
// replica ended) as tasks of the same lifetime. Call it once; the bus
// stays open (its owner closes it, after Run has returned).
func (r *Replica) Run(ctx context.Context) {
	if !r.ran.CompareAndSwap(false, true) {
		panic("rooms: Replica.Run called twice")
	}
	stop := context.AfterFunc(ctx, r.endLife)
	defer stop()
	if r.life.Err() == nil {
		r.listenForEnds(r.life)
	}
	r.spawn(r.sender)
	r.spawn(r.persister)
	r.spawn(r.prober)
	r.spawn(r.sweeper)
	close(r.running)
	<-r.life.Done()

	r.tasksMu.Lock()
	r.stopping = true
	r.tasksMu.Unlock()
	r.tasks.Wait()
	r.mu.Lock()
	ends := r.ends
	r.ends = nil
	r.mu.Unlock()
	if ends != nil {
		ends()
	}
}

// Running is closed once Run has begun: the replica listens for the
// rooms' ends, and its goroutines run.
func (r *Replica) Running() <-chan struct{} { return r.running }

// spawn runs fn as one of the replica's tasks, on its lifetime's context,
// unless Run is ending.
func (r *Replica) spawn(fn func(ctx context.Context)) {
	r.tasksMu.Lock()
	defer r.tasksMu.Unlock()
	if r.stopping {
		return
	}
	r.tasks.Add(1)
	go func() {
		defer r.tasks.Done()
		fn(r.life)
	}()
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

func subject(code, what string) string { return "stridescope.room." + code + "." + what }

func newRoom(code string, rec roomRecord) *room {
	return &room{code: code, created: rec.Created, expires: rec.Expires, state: rec.State, emptySince: time.Now(),
		conns: map[*Presenter]struct{}{}, viewers: map[*Viewer]struct{}{}, counts: map[string]replicaCount{}, presence: map[string]replicaCount{}, presenting: true}
}

// Create opens a room with an initial state and returns its join code and
// the presenter's token. When this replica holds maxRooms rooms, a room
// nobody is in gives way (see makeRoom); ErrRoomsFull when every room has
// someone in it.
func (r *Replica) Create(ctx context.Context, initial State) (code, token string, err error) {
	return r.CreateFor(ctx, "", initial)
}

// CreateFor is Create for a room opened by owner (web/ passes the client
// address's key): at the cap, the rooms of the owner holding the most give
// way first, so that many rooms from few owners end their own rooms, not
// a class's. A caller that goes (ctx) stops waiting for the store.
func (r *Replica) CreateFor(ctx context.Context, owner string, initial State) (code, token string, err error) {
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
	indexed := false
	defer func() {
		if !indexed {
			r.mu.Lock()
			r.opening--
			r.mu.Unlock()
		}
	}()
	for range 3 {
		code = randomString(CodeLen, CodeAlphabet)
		rm := newRoom(code, rec)
		rm.known = true // a new room: nobody presents it until its presenter connects
		rm.owner = owner
		cctx, cancel := context.WithTimeout(ctx, storeTimeout)
		err = r.bus.CreateRoom(cctx, code, r.sealRecord(code, rec))
		cancel()
		if errors.Is(err, ErrRoomExists) {
			continue
		}
		if err != nil {
			return "", "", fmt.Errorf("%w: %v", ErrBusDown, err)
		}
		r.mu.Lock()
		r.indexLocked(rm)
		r.opening--
		indexed = true
		r.mu.Unlock()
		if ended != "" {
			r.forget(ctx, ended) // only once the new room is stored: a stalled store fails the new room first
		}
		return code, r.token(code, rec.Created, rec.Expires), nil
	}
	return "", "", fmt.Errorf("%w: no free room code after 3 draws", ErrBusDown)
}

// makeRoom makes space for one more room and counts it as opening (the
// caller uncounts it once the room is indexed, or not made): at the cap,
// one room nobody is in leaves the index, and it returns that room's code
// when nobody is in it on any replica either (the caller ends it in the
// store).
//
// Which room: one that never had both a presenter and a viewer before
// any class (a class whose laptop and phones have gone quiet is older
// than any room opened since, so the oldest alone would end it: issue
// #35, 10,500 rooms from 356 addresses in 3.3 s ended a class quiet for
// 4 s); among those, one of the owner holding the most rooms (an address
// opening many rooms ends its own first); then the one empty for longest.
func (r *Replica) makeRoom(now time.Time) (ended string, err error) {
	r.mu.Lock()
	if len(r.rooms)+r.opening < r.maxRooms {
		r.opening++
		r.mu.Unlock()
		return "", nil
	}
	var victim *room
	for _, rm := range r.rooms {
		if rm.presenters > 0 || len(rm.viewers) > 0 || rm.attaching != nil || rm.emptySince.IsZero() {
			continue
		}
		if victim == nil || r.givesWayBeforeLocked(rm, victim) {
			victim = rm
		}
	}
	if victim == nil {
		r.mu.Unlock()
		return "", ErrRoomsFull
	}
	// A room whose class is on another replica only leaves this index;
	// one that nobody is in anywhere ends.
	end := !r.othersInLocked(victim, now)
	code, empty, class := victim.code, now.Sub(victim.emptySince).Round(time.Second), victim.class()
	unsubscribe := r.dropLocked(victim)
	r.opening++
	r.mu.Unlock()
	unsubscribe()
	if !end {
		return "", nil
	}
	r.log.Info("room: ending an empty room to make space", "room", code, "empty for", empty, "had a class", class)
	return code, nil
}

// class says whether a presenter and a viewer have both been in the room.
func (rm *room) class() bool { return rm.presented && rm.followed }

// givesWayBeforeLocked says whether empty room a gives way at the cap
// before empty room b (makeRoom's order).
func (r *Replica) givesWayBeforeLocked(a, b *room) bool {
	if a.class() != b.class() {
		return !a.class()
	}
	if na, nb := r.owned[a.owner], r.owned[b.owner]; na != nb {
		return na > nb
	}
	return a.emptySince.Before(b.emptySince)
}

// indexLocked adds a room to the index.
func (r *Replica) indexLocked(rm *room) {
	r.rooms[rm.code] = rm
	if rm.owner != "" {
		r.owned[rm.owner]++
	}
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
	if r.rooms[rm.code] == rm {
		delete(r.rooms, rm.code)
		if rm.owner != "" {
			if r.owned[rm.owner]--; r.owned[rm.owner] <= 0 {
				delete(r.owned, rm.owner)
			}
		}
	}
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

// sweeper keeps the rooms healthy until ctx ends: it re-announces viewer
// counts and presence, and ends rooms that have been empty for longer
// than emptyTTL, or have expired.
//
// It also looks through the store, at once and then every
// storeSweepEvery, for rooms no replica holds (their replicas restarted,
// or died) and ends those nobody has been in for longer than emptyTTL:
// else a room whose class never came back would answer its code until its
// expiry.
func (r *Replica) sweeper(ctx context.Context) {
	t := time.NewTicker(roomCountEvery)
	defer t.Stop()
	st := time.NewTicker(storeSweepEvery)
	defer st.Stop()
	r.sweepStore(ctx, r.now())
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			r.sweep(ctx, time.Now())
		case <-st.C:
			r.sweepStore(ctx, r.now())
		}
	}
}

// touchEvery is how often a replica with someone in a room says so in the
// store (well within emptyTTL).
const touchEvery = time.Minute

func (r *Replica) sweep(ctx context.Context, now time.Time) {
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
			r.touch(ctx, code, busNow)
		}
		for _, code := range ended {
			r.forget(ctx, code)
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
