package web

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"
)

// RoomState is what a presenter shares with the class: which page, its
// URL query (the whole explorer state), and what the presenter points at.
// It is small on purpose; every replica renders it itself.
type RoomState struct {
	Page  string `json:"page"`            // "layout", "slice" or "tour"
	Query string `json:"query"`           // the page's URL query
	Focus string `json:"focus,omitempty"` // the cell the presenter hovers or focuses
	Step  int    `json:"step,omitempty"`  // tour step or slice step-through position
	// Version grows with every change, so replicas and viewers can drop
	// anything older than what they have.
	Version int64 `json:"version"`
}

// Room limits and timings.
const (
	roomCodeLen       = 8
	roomCodeAlphabet  = "23456789ABCDEFGHJKMNPQRSTUVWXYZ" // no 0/O, 1/I/L: read aloud and typed
	maxRoomStateBytes = 4 << 10
	roomJoinTimeout   = 750 * time.Millisecond
	roomCountEvery    = 5 * time.Second
	roomCountTTL      = 3 * roomCountEvery
	// presenterGrace is how long a room stays presented after its last
	// presenter connection closes: a presenter reloading the page comes
	// back within it, and the class sees no "stopped".
	presenterGrace = 2 * time.Second
)

// Room errors a client sees.
var (
	ErrNoRoom       = errors.New("no such room: the code is wrong or the room has expired")
	ErrNotPresenter = errors.New("only the presenter can change the room")
	ErrRoomState    = errors.New("room state is too large or malformed")
)

// Rooms is this replica's view of the classrooms: the rooms some local
// connection presents or watches. Rooms are shared with other replicas
// over the bus; a room lives while any replica has a member in it, plus
// EmptyTTL so that a presenter's page reload does not end it.
type Rooms struct {
	bus      Bus
	secret   []byte
	replica  string
	log      *slog.Logger
	emptyTTL time.Duration

	mu    sync.Mutex
	grace time.Duration // presenterGrace; tests shorten it
	rooms map[string]*room
}

type room struct {
	code       string
	state      RoomState
	raw        []byte // state as JSON, nil until the first state arrives
	presenters int
	viewers    map[*Viewer]struct{}
	counts     map[string]replicaCount // viewers per replica, for the presenter
	emptySince time.Time
	issued     int64 // the last version this replica's presenter issued
	stop       []func()

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
}

// NewRooms shares rooms over bus. secret signs presenter tokens: replicas
// that serve the same rooms must share it.
func NewRooms(bus Bus, secret []byte, log *slog.Logger) *Rooms {
	if log == nil {
		log = slog.Default()
	}
	return &Rooms{bus: bus, secret: secret, replica: randomString(12, "abcdefghijklmnopqrstuvwxyz0123456789"), log: log,
		emptyTTL: 10 * time.Minute, grace: presenterGrace, rooms: map[string]*room{}}
}

func subject(code, what string) string { return "stridescope.room." + code + "." + what }

// Create opens a room with an initial state and returns its join code and
// the presenter's token.
func (r *Rooms) Create(initial RoomState) (code, token string, err error) {
	code = randomString(roomCodeLen, roomCodeAlphabet)
	initial.Version = 1
	raw, err := encodeState(initial)
	if err != nil {
		return "", "", err
	}
	r.mu.Lock()
	rm, err := r.attachLocked(code, false)
	if err == nil {
		rm.state, rm.raw = initial, raw
		rm.emptySince = time.Now()
		rm.known = true // a new room: nobody presents it until its presenter connects
	}
	r.mu.Unlock()
	if err != nil {
		return "", "", err
	}
	return code, r.Token(code), nil
}

// Token is the presenter's credential for a room: an HMAC of its code, so
// any replica with the same secret can check it without shared storage.
func (r *Rooms) Token(code string) string {
	m := hmac.New(sha256.New, r.secret)
	m.Write([]byte("presenter:" + code))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))[:24]
}

// Authorized reports whether token is the presenter's token of code.
func (r *Rooms) Authorized(code, token string) bool {
	return token != "" && hmac.Equal([]byte(token), []byte(r.Token(code)))
}

// NormalizeCode upper-cases a typed code and drops spaces and dashes.
func NormalizeCode(s string) (string, bool) {
	s = strings.ToUpper(strings.NewReplacer(" ", "", "-", "").Replace(s))
	if len(s) != roomCodeLen {
		return "", false
	}
	for _, c := range s {
		if !strings.ContainsRune(roomCodeAlphabet, c) {
			return "", false
		}
	}
	return s, true
}

// attachLocked returns the local room, subscribing to its subjects the
// first time this replica needs it; then, with ask, it asks the other
// replicas whether one of them has the room's presenter.
func (r *Rooms) attachLocked(code string, ask bool) (*room, error) {
	if rm, ok := r.rooms[code]; ok {
		return rm, nil
	}
	rm := &room{code: code, viewers: map[*Viewer]struct{}{}, counts: map[string]replicaCount{},
		presence: map[string]replicaCount{}, presenting: true}
	unsubState, err := r.bus.Subscribe(subject(code, "state"), func(_ string, data []byte) { r.onState(code, data) })
	if err != nil {
		return nil, err
	}
	unsubCount, err := r.bus.Subscribe(subject(code, "count"), func(_ string, data []byte) { r.onCount(code, data) })
	if err != nil {
		unsubState()
		return nil, err
	}
	stopServe, err := r.bus.Serve(subject(code, "current"), func([]byte) []byte {
		r.mu.Lock()
		defer r.mu.Unlock()
		if rm, ok := r.rooms[code]; ok && rm.raw != nil {
			return rm.raw
		}
		return nil
	})
	if err != nil {
		unsubState()
		unsubCount()
		return nil, err
	}
	unsubPresence, err := r.bus.Subscribe(subject(code, "presence"), func(_ string, data []byte) { r.onPresence(code, data) })
	if err != nil {
		unsubState()
		unsubCount()
		stopServe()
		return nil, err
	}
	stopAsk, err := r.bus.Serve(subject(code, "presenter"), func([]byte) []byte {
		r.mu.Lock()
		defer r.mu.Unlock()
		if rm, ok := r.rooms[code]; ok && rm.live {
			return r.presenceMsgLocked(rm)
		}
		return nil // silent: a replica with the presenter answers
	})
	if err != nil {
		unsubState()
		unsubCount()
		stopServe()
		unsubPresence()
		return nil, err
	}
	rm.stop = []func(){unsubState, unsubCount, stopServe, unsubPresence, stopAsk}
	r.rooms[code] = rm
	if ask {
		go r.askPresence(code, rm)
	} else {
		rm.known = true
	}
	return rm, nil
}

func (r *Rooms) onState(code string, data []byte) {
	st, err := decodeState(data)
	if err != nil {
		r.log.Warn("room: dropped a malformed state", "room", code, "err", err)
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[code]
	if !ok || st.Version <= rm.state.Version {
		return
	}
	rm.state, rm.raw = st, data
	for v := range rm.viewers {
		v.offer(st)
	}
}

type countMsg struct {
	Replica string `json:"replica"`
	Viewers int    `json:"viewers"`
}

func (r *Rooms) onCount(code string, data []byte) {
	var m countMsg
	if json.Unmarshal(data, &m) != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if rm, ok := r.rooms[code]; ok {
		rm.counts[m.Replica] = replicaCount{n: m.Viewers, seen: time.Now()}
	}
}

// publishCountLocked tells every replica how many viewers this one has.
func (r *Rooms) publishCountLocked(rm *room) {
	b, _ := json.Marshal(countMsg{Replica: r.replica, Viewers: len(rm.viewers)})
	rm.counts[r.replica] = replicaCount{n: len(rm.viewers), seen: time.Now()}
	if err := r.bus.Publish(subject(rm.code, "count"), b); err != nil && !errors.Is(err, ErrBusClosed) {
		r.log.Warn("room: publish count", "room", rm.code, "err", err)
	}
}

// presenceMsg announces how many presenter connections of a room a replica
// holds (0: none since the grace period).
type presenceMsg struct {
	Replica    string `json:"replica"`
	Presenters int    `json:"presenters"`
}

func (r *Rooms) presenceMsgLocked(rm *room) []byte {
	n := rm.presenters
	if rm.live {
		n = max(n, 1) // within the grace period the room is still presented
	} else {
		n = 0
	}
	b, _ := json.Marshal(presenceMsg{Replica: r.replica, Presenters: n})
	return b
}

// announceLocked tells every replica whether this one holds a presenter.
func (r *Rooms) announceLocked(rm *room) {
	if err := r.bus.Publish(subject(rm.code, "presence"), r.presenceMsgLocked(rm)); err != nil && !errors.Is(err, ErrBusClosed) {
		r.log.Warn("room: publish presence", "room", rm.code, "err", err)
	}
}

func (r *Rooms) onPresence(code string, data []byte) {
	var m presenceMsg
	if json.Unmarshal(data, &m) != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[code]
	if !ok || m.Replica == r.replica {
		return
	}
	rm.presence[m.Replica] = replicaCount{n: m.Presenters, seen: time.Now()}
	if m.Presenters == 0 && rm.live {
		// A replica lost its presenter: make sure everyone knows this one
		// still has one, not only those that have heard its heartbeat.
		r.announceLocked(rm)
	}
	r.presenceChangedLocked(rm, time.Now())
}

// askPresence asks the other replicas whether one holds the presenter of
// a room this replica has just attached; only those that do answer.
func (r *Rooms) askPresence(code string, rm *room) {
	data, err := r.bus.Request(subject(code, "presenter"), nil, roomJoinTimeout)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.rooms[code] != rm {
		return
	}
	var m presenceMsg
	if err == nil && json.Unmarshal(data, &m) == nil && m.Replica != r.replica {
		rm.presence[m.Replica] = replicaCount{n: m.Presenters, seen: time.Now()}
	}
	rm.known = true
	r.presenceChangedLocked(rm, time.Now())
}

// presentedLocked reports whether a presenter connection of the room is
// open on some replica, as far as this one knows.
func (r *Rooms) presentedLocked(rm *room, now time.Time) bool {
	if rm.live || rm.presenters > 0 || !rm.known {
		return true
	}
	for _, c := range rm.presence {
		if c.n > 0 && now.Sub(c.seen) <= roomCountTTL {
			return true
		}
	}
	return false
}

// presenceChangedLocked tells local viewers when the presenter leaves or
// comes back.
func (r *Rooms) presenceChangedLocked(rm *room, now time.Time) {
	p := r.presentedLocked(rm, now)
	if p == rm.presenting {
		return
	}
	rm.presenting = p
	for v := range rm.viewers {
		v.offerPresence(p)
	}
}

// endPresence runs grace after a room's last local presenter left: if none
// came back, this replica stops announcing one.
func (r *Rooms) endPresence(code string, rm *room) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.rooms[code] != rm || rm.presenters > 0 || !rm.live {
		return
	}
	rm.live = false
	r.announceLocked(rm)
	r.presenceChangedLocked(rm, time.Now())
}

// Presenting reports whether the room with code has a presenter connected
// on some replica, as far as this replica knows.
func (r *Rooms) Presenting(code string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[code]
	return ok && r.presentedLocked(rm, time.Now())
}

// Presenter is a connection allowed to change a room.
type Presenter struct {
	rooms *Rooms
	code  string
	once  sync.Once
}

// Present checks token and registers a presenter connection for code. The
// room is re-opened on this replica if it lives elsewhere or has expired
// here: the token proves the right to it.
func (r *Rooms) Present(code, token string) (*Presenter, RoomState, error) {
	if !r.Authorized(code, token) {
		return nil, RoomState{}, ErrNotPresenter
	}
	r.mu.Lock()
	rm, err := r.attachLocked(code, true)
	if err != nil {
		r.mu.Unlock()
		return nil, RoomState{}, err
	}
	rm.presenters++
	if rm.graceTimer != nil {
		rm.graceTimer.Stop()
		rm.graceTimer = nil
	}
	if !rm.live {
		rm.live = true
		r.announceLocked(rm)
	}
	r.presenceChangedLocked(rm, time.Now())
	known := rm.raw != nil
	r.mu.Unlock()
	if !known {
		r.fetchCurrent(code)
	}
	r.mu.Lock()
	st := rm.state
	r.mu.Unlock()
	return &Presenter{rooms: r, code: code}, st, nil
}

// Code is the room's join code.
func (p *Presenter) Code() string { return p.code }

// Update shares a new state with every viewer on every replica.
func (p *Presenter) Update(st RoomState) error {
	r := p.rooms
	r.mu.Lock()
	rm, ok := r.rooms[p.code]
	if !ok {
		r.mu.Unlock()
		return ErrNoRoom
	}
	// Versions must grow even for updates issued faster than the bus
	// echoes them back, and across a presenter moving replicas.
	st.Version = max(rm.state.Version, rm.issued, time.Now().UnixMicro()) + 1
	rm.issued = st.Version
	raw, err := encodeState(st)
	r.mu.Unlock()
	if err != nil {
		return err
	}
	// Local viewers hear it back from the bus like everyone else, so
	// ordering is the bus's.
	return r.bus.Publish(subject(p.code, "state"), raw)
}

// Watching is how many viewers the room has across replicas.
func (p *Presenter) Watching() int { return p.rooms.Watching(p.code) }

// Watching is how many viewers the room with code has across replicas, as
// far as this replica has heard (0 for a room it does not hold).
func (r *Rooms) Watching(code string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[code]
	if !ok {
		return 0
	}
	n := 0
	for id, c := range rm.counts {
		if time.Since(c.seen) > roomCountTTL && id != r.replica {
			continue
		}
		n += c.n
	}
	return n
}

// Close unregisters the presenter connection. When it was the room's last
// one on this replica, the replica stops announcing a presenter after the
// grace period, unless one presents again meanwhile.
func (p *Presenter) Close() {
	r := p.rooms
	p.once.Do(func() {
		r.leave(p.code, func(rm *room) {
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
	rooms *Rooms
	code  string
	ready chan struct{} // capacity 1: "a newer state is waiting"

	mu       sync.Mutex
	pending  RoomState
	has      bool
	lastSent int64
	// presenting is whether the room has a presenter, told whether the
	// viewer was last told so; both start true (a viewer assumes the
	// presenter is there), so only a change is news.
	presenting, told bool
	once             sync.Once
}

// ViewerEvent is what a viewer hears next: a newer state of the room, or
// (Presence) that its presenter has left or come back.
type ViewerEvent struct {
	State      RoomState
	Presence   bool // the event is about the presenter, not a state
	Presenting bool // with Presence: whether a presenter is connected now
}

func (v *Viewer) offerPresence(p bool) {
	v.mu.Lock()
	v.presenting = p
	v.mu.Unlock()
	select {
	case v.ready <- struct{}{}:
	default:
	}
}

func (v *Viewer) offer(st RoomState) {
	v.mu.Lock()
	if st.Version > v.lastSent && (!v.has || st.Version > v.pending.Version) {
		v.pending, v.has = st, true
	}
	v.mu.Unlock()
	select {
	case v.ready <- struct{}{}:
	default:
	}
}

// Next blocks until a state newer than the last one returned arrives; it
// skips news about the presenter.
func (v *Viewer) Next(ctx context.Context) (RoomState, error) {
	for {
		ev, err := v.NextEvent(ctx)
		if err != nil || !ev.Presence {
			return ev.State, err
		}
	}
}

// NextEvent blocks until a state newer than the last one returned arrives,
// or the presenter leaves or comes back (a change since the last event:
// leaving and coming back between two calls is no news). A waiting state
// comes first.
func (v *Viewer) NextEvent(ctx context.Context) (ViewerEvent, error) {
	for {
		v.mu.Lock()
		if v.has {
			st := v.pending
			v.has, v.lastSent = false, st.Version
			v.mu.Unlock()
			return ViewerEvent{State: st}, nil
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

// Close leaves the room.
func (v *Viewer) Close() {
	v.once.Do(func() {
		v.rooms.leave(v.code, func(rm *room) {
			delete(rm.viewers, v)
			v.rooms.publishCountLocked(rm)
		})
	})
}

// Join follows the room with the given code; the current state is
// delivered first. ErrNoRoom when no replica knows the room.
func (r *Rooms) Join(code string) (*Viewer, error) {
	code, ok := NormalizeCode(code)
	if !ok {
		return nil, ErrNoRoom
	}
	r.mu.Lock()
	_, known := r.rooms[code]
	r.mu.Unlock()
	if !known && !r.roomExists(code) {
		return nil, ErrNoRoom
	}
	r.mu.Lock()
	rm, err := r.attachLocked(code, true)
	if err != nil {
		r.mu.Unlock()
		return nil, err
	}
	v := &Viewer{rooms: r, code: code, ready: make(chan struct{}, 1), presenting: rm.presenting, told: true}
	rm.viewers[v] = struct{}{}
	rm.emptySince = time.Time{}
	r.publishCountLocked(rm)
	known = rm.raw != nil
	if known {
		v.offer(rm.state)
	}
	r.mu.Unlock()
	if !known {
		r.fetchCurrent(code)
	}
	return v, nil
}

// Current returns the room's state without joining it: from this replica
// when it holds the room, else from whichever replica answers. ErrNoRoom
// when nobody does.
func (r *Rooms) Current(code string) (RoomState, error) {
	code, ok := NormalizeCode(code)
	if !ok {
		return RoomState{}, ErrNoRoom
	}
	r.mu.Lock()
	rm, known := r.rooms[code]
	var st RoomState
	if known {
		st = rm.state
	}
	r.mu.Unlock()
	if known {
		return st, nil
	}
	data, err := r.bus.Request(subject(code, "current"), nil, roomJoinTimeout)
	if err != nil || data == nil {
		return RoomState{}, ErrNoRoom
	}
	return decodeState(data)
}

// roomExists asks the other replicas whether anyone holds the room.
func (r *Rooms) roomExists(code string) bool {
	data, err := r.bus.Request(subject(code, "current"), nil, roomJoinTimeout)
	return err == nil && data != nil
}

// fetchCurrent asks the other replicas for the room's state and delivers
// it like a published one.
func (r *Rooms) fetchCurrent(code string) {
	data, err := r.bus.Request(subject(code, "current"), nil, roomJoinTimeout)
	if err != nil {
		return
	}
	r.onState(code, data)
}

func (r *Rooms) leave(code string, f func(*room)) {
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

// Run keeps the rooms healthy until ctx ends: it re-announces viewer
// counts and forgets rooms that have been empty for longer than EmptyTTL.
func (r *Rooms) Run(ctx context.Context) {
	t := time.NewTicker(roomCountEvery)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			r.sweep(time.Now())
		}
	}
}

func (r *Rooms) sweep(now time.Time) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for code, rm := range r.rooms {
		if rm.presenters <= 0 && len(rm.viewers) == 0 && !rm.emptySince.IsZero() && now.Sub(rm.emptySince) >= r.emptyTTL {
			for _, stop := range rm.stop {
				stop()
			}
			if rm.graceTimer != nil {
				rm.graceTimer.Stop()
			}
			delete(r.rooms, code)
			continue
		}
		if len(rm.viewers) > 0 {
			r.publishCountLocked(rm)
		}
		if rm.live {
			r.announceLocked(rm) // a heartbeat: a replica that dies stops being counted after roomCountTTL
		}
		r.presenceChangedLocked(rm, now)
	}
}

// Len is the number of rooms this replica holds.
func (r *Rooms) Len() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.rooms)
}

func encodeState(st RoomState) ([]byte, error) {
	b, err := json.Marshal(st)
	if err != nil || len(b) > maxRoomStateBytes {
		return nil, fmt.Errorf("%w (%d bytes, at most %d)", ErrRoomState, len(b), maxRoomStateBytes)
	}
	return b, nil
}

func decodeState(b []byte) (RoomState, error) {
	var st RoomState
	if len(b) > maxRoomStateBytes {
		return st, ErrRoomState
	}
	if err := json.Unmarshal(b, &st); err != nil {
		return st, fmt.Errorf("%w: %v", ErrRoomState, err)
	}
	return st, nil
}

// randomString draws n symbols uniformly from alphabet with crypto/rand.
func randomString(n int, alphabet string) string {
	out := make([]byte, n)
	limit := 256 - 256%len(alphabet) // reject bytes that would bias the draw
	var b [1]byte
	for i := 0; i < n; {
		if _, err := rand.Read(b[:]); err != nil {
			panic(err) // crypto/rand never fails on Linux
		}
		if int(b[0]) < limit {
			out[i] = alphabet[int(b[0])%len(alphabet)]
			i++
		}
	}
	return string(out)
}
