package rooms

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
	"strconv"
	"strings"
	"sync"
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
	CodeLen           = 8
	CodeAlphabet      = "23456789ABCDEFGHJKMNPQRSTUVWXYZ" // no 0/O, 1/I/L: read aloud and typed
	maxRoomStateBytes = 4 << 10
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
	ErrNoRoom       = errors.New("no such room: the code is wrong or the room has expired")
	ErrNotPresenter = errors.New("only the presenter can change the room")
	ErrRoomState    = errors.New("room state is too large or malformed")
	ErrRoomsFull    = errors.New("every room on this server is in use; try again later")
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
	bus      Bus
	tokenKey []byte
	busKey   []byte
	replica  string
	log      *slog.Logger
	emptyTTL time.Duration
	maxRooms int

	out     chan busMsg   // publishes, sent by the sender goroutine so no lock is held across bus I/O
	persist chan struct{} // capacity 1: "some record is dirty"
	quit    chan struct{}
	closed  sync.Once

	mu    sync.Mutex
	grace time.Duration // presenterGrace; tests shorten it
	rooms map[string]*room
	dirty map[string]struct{} // records to write to the store
	busUp bool
}

// room is one room in this replica's index. The record fields are always
// set; the rest only matter while the room is attached.
type room struct {
	code       string
	created    int64 // unix microseconds
	expires    int64 // unix microseconds
	state      State
	presenters int
	viewers    map[*Viewer]struct{}
	counts     map[string]replicaCount // viewers per replica, for the presenter
	emptySince time.Time
	issued     int64 // the last version this replica's presenter issued

	attached  bool
	attaching chan struct{} // closed when an attach in flight ends
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
}

type busMsg struct {
	subject string
	data    []byte
}

// roomRecord is a room as the store keeps it.
type roomRecord struct {
	Created int64 `json:"created"`
	Expires int64 `json:"expires"`
	State   State `json:"state"`
}

// NewReplica shares rooms over bus. secret signs presenter tokens and seals
// every message on the bus: replicas that serve the same rooms must share
// it. Close stops the goroutines it starts.
func NewReplica(bus Bus, secret []byte, log *slog.Logger) *Replica {
	if log == nil {
		log = slog.Default()
	}
	r := &Replica{bus: bus, tokenKey: deriveKey(secret, "stridescope presenter token v2"), busKey: deriveKey(secret, "stridescope bus v1"),
		replica: randomString(12, "abcdefghijklmnopqrstuvwxyz0123456789"), log: log,
		emptyTTL: 10 * time.Minute, maxRooms: DefaultMax, grace: presenterGrace, rooms: map[string]*room{},
		dirty: map[string]struct{}{}, out: make(chan busMsg, 4096), persist: make(chan struct{}, 1), quit: make(chan struct{}),
		busUp: bus.Up()}
	go r.sender()
	go r.persister()
	bus.Watch(r.busChanged)
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
	r.closed.Do(func() { close(r.quit) })
}

func deriveKey(secret []byte, purpose string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(purpose))
	return m.Sum(nil)
}

func subject(code, what string) string { return "stridescope.room." + code + "." + what }

// seal prefixes data with its MAC, bound to the subject it travels on, so
// a message cannot be forged, nor replayed into another room.
func (r *Replica) seal(subj string, data []byte) []byte {
	m := hmac.New(sha256.New, r.busKey)
	m.Write([]byte(subj))
	m.Write([]byte{0})
	m.Write(data)
	mac := base64.RawURLEncoding.EncodeToString(m.Sum(nil))
	return append([]byte(mac+"."), data...)
}

// unseal returns the data of a sealed message, or false when its MAC is
// missing or wrong.
func (r *Replica) unseal(subj string, sealed []byte) ([]byte, bool) {
	mac, data, ok := strings.Cut(string(sealed), ".")
	if !ok {
		return nil, false
	}
	got, err := base64.RawURLEncoding.DecodeString(mac)
	if err != nil {
		return nil, false
	}
	m := hmac.New(sha256.New, r.busKey)
	m.Write([]byte(subj))
	m.Write([]byte{0})
	m.Write([]byte(data))
	return []byte(data), hmac.Equal(got, m.Sum(nil))
}

// publish queues a sealed message for the bus; it never blocks. A full
// queue (a bus stalled for long) drops the message: every kind of message
// is repeated or superseded soon.
func (r *Replica) publish(subj string, data []byte) {
	select {
	case r.out <- busMsg{subject: subj, data: r.seal(subj, data)}:
	default:
		r.log.Warn("room: bus queue full, dropped a message", "subject", subj)
	}
}

func (r *Replica) sender() {
	for {
		select {
		case <-r.quit:
			return
		case m := <-r.out:
			if err := r.bus.Publish(m.subject, m.data); err != nil && !errors.Is(err, ErrBusClosed) {
				r.log.Warn("room: publish", "subject", m.subject, "err", err)
			}
		}
	}
}

// markDirtyLocked queues the room's record for the store.
func (r *Replica) markDirtyLocked(code string) {
	r.dirty[code] = struct{}{}
	select {
	case r.persist <- struct{}{}:
	default:
	}
}

// persister writes dirty records to the store, newest state only, so a
// presenter's many states cost a few writes and a slow store slows no one.
func (r *Replica) persister() {
	for {
		select {
		case <-r.quit:
			return
		case <-r.persist:
		}
		r.mu.Lock()
		recs := make(map[string][]byte, len(r.dirty))
		for code := range r.dirty {
			if rm, ok := r.rooms[code]; ok {
				recs[code] = r.recordLocked(rm)
			}
		}
		clear(r.dirty)
		r.mu.Unlock()
		for code, rec := range recs {
			ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
			err := r.bus.PutRoom(ctx, code, rec)
			cancel()
			if err != nil {
				r.log.Warn("room: store", "room", code, "err", err)
				r.mu.Lock()
				if _, ok := r.rooms[code]; ok {
					r.dirty[code] = struct{}{} // try again with the next write
				}
				r.mu.Unlock()
			}
		}
	}
}

func (r *Replica) recordLocked(rm *room) []byte {
	b, _ := json.Marshal(roomRecord{Created: rm.created, Expires: rm.expires, State: rm.state})
	return r.seal("store."+rm.code, b)
}

// load reads a room's record from the store: ErrNoRoom when there is
// none (or it has expired, or is not sealed with our secret), ErrBusDown
// when the store does not answer.
func (r *Replica) load(code string) (roomRecord, error) {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	sealed, err := r.bus.GetRoom(ctx, code)
	if errors.Is(err, ErrNoRoom) {
		return roomRecord{}, ErrNoRoom
	}
	if err != nil {
		return roomRecord{}, fmt.Errorf("%w: %v", ErrBusDown, err)
	}
	data, ok := r.unseal("store."+code, sealed)
	var rec roomRecord
	if !ok || json.Unmarshal(data, &rec) != nil {
		r.log.Warn("room: the store holds a record not sealed with this secret", "room", code)
		return roomRecord{}, ErrNoRoom
	}
	if time.Now().UnixMicro() >= rec.Expires {
		return roomRecord{}, ErrNoRoom
	}
	return rec, nil
}

// lookup returns the room's record from the index, or from the store
// (indexing it) when this replica does not hold it.
func (r *Replica) lookup(code string) (*room, error) {
	now := time.Now().UnixMicro()
	r.mu.Lock()
	rm, ok := r.rooms[code]
	r.mu.Unlock()
	if ok {
		if now >= rm.expires {
			return nil, ErrNoRoom
		}
		return rm, nil
	}
	rec, err := r.load(code)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if rm, ok := r.rooms[code]; ok {
		return rm, nil
	}
	rm = newRoom(code, rec)
	r.rooms[code] = rm
	return rm, nil
}

func newRoom(code string, rec roomRecord) *room {
	return &room{code: code, created: rec.Created, expires: rec.Expires, state: rec.State, emptySince: time.Now(),
		viewers: map[*Viewer]struct{}{}, counts: map[string]replicaCount{}, presence: map[string]replicaCount{}, presenting: true}
}

// Create opens a room with an initial state and returns its join code and
// the presenter's token. When this replica holds maxRooms rooms, the one
// nobody has been in for longest gives way; ErrRoomsFull when every room
// has someone in it.
func (r *Replica) Create(initial State) (code, token string, err error) {
	if !r.bus.Up() {
		return "", "", ErrBusDown
	}
	now := time.Now()
	initial.Version = 1
	if _, err := encodeState(initial); err != nil {
		return "", "", err
	}
	rec := roomRecord{Created: now.UnixMicro(), Expires: now.Add(Lifetime).UnixMicro(), State: initial}
	if err := r.makeRoom(now); err != nil {
		return "", "", err
	}
	for range 3 {
		code = randomString(CodeLen, CodeAlphabet)
		rm := newRoom(code, rec)
		rm.known = true // a new room: nobody presents it until its presenter connects
		b, _ := json.Marshal(rec)
		ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
		err = r.bus.CreateRoom(ctx, code, r.seal("store."+code, b))
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
		return code, r.token(code, rec.Created, rec.Expires), nil
	}
	return "", "", fmt.Errorf("%w: no free room code after 3 draws", ErrBusDown)
}

// makeRoom makes space for one more room: at the cap, the room that has
// been empty longest is ended (here and in the store).
func (r *Replica) makeRoom(now time.Time) error {
	r.mu.Lock()
	if len(r.rooms) < r.maxRooms {
		r.mu.Unlock()
		return nil
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
		return ErrRoomsFull
	}
	r.dropLocked(oldest)
	r.mu.Unlock()
	r.log.Info("room: ended an empty room to make space", "room", oldest.code, "empty for", now.Sub(oldest.emptySince).Round(time.Second))
	r.forget(oldest.code)
	return nil
}

// forget ends a room this replica has let go of: it deletes the room from
// the store unless another replica has said lately that it has someone in
// it (then the room lives on there).
func (r *Replica) forget(code string) {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	key := code + ".active"
	if sealed, err := r.bus.GetRoom(ctx, key); err == nil {
		if data, ok := r.unseal("store."+key, sealed); ok {
			replica, at, _ := strings.Cut(string(data), ":")
			t, err := strconv.ParseInt(at, 10, 64)
			if err == nil && replica != r.replica && time.Since(time.UnixMicro(t)) < r.emptyTTL {
				return
			}
		}
	} else if !errors.Is(err, ErrNoRoom) {
		return // cannot tell: keep it; it expires with the bucket's TTL
	}
	for _, k := range []string{code, key} {
		if err := r.bus.DeleteRoom(ctx, k); err != nil {
			r.log.Warn("room: delete from the store", "room", code, "err", err)
		}
	}
}

// touch records in the store that this replica has someone in the room,
// so that no other replica that has let go of the room ends it meanwhile.
func (r *Replica) touch(code string, now time.Time) {
	key := code + ".active"
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	if err := r.bus.PutRoom(ctx, key, r.seal("store."+key, []byte(r.replica+":"+strconv.FormatInt(now.UnixMicro(), 10)))); err != nil {
		r.log.Warn("room: store", "room", code, "err", err)
	}
}

// dropLocked removes a room from the index and its subscriptions.
func (r *Replica) dropLocked(rm *room) {
	for _, stop := range rm.stop {
		stop()
	}
	rm.stop, rm.attached = nil, false
	if rm.graceTimer != nil {
		rm.graceTimer.Stop()
	}
	delete(r.rooms, rm.code)
	delete(r.dirty, rm.code)
}

// token is the presenter's credential for a room: its expiry and an HMAC
// of the code, the room's creation and that expiry. Any replica with the
// secret checks it against the room's record; it cannot outlive the room
// nor open a later room that happens to get the same code.
func (r *Replica) token(code string, created, expires int64) string {
	exp := strconv.FormatInt(expires/1e6, 10)
	m := hmac.New(sha256.New, r.tokenKey)
	m.Write([]byte("presenter:" + code + ":" + strconv.FormatInt(created, 10) + ":" + exp))
	return exp + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))[:24]
}

// Token is the presenter's token of the room with code, which must be in
// this replica's index ("" when it is not).
func (r *Replica) Token(code string) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[code]
	if !ok {
		return ""
	}
	return r.token(code, rm.created, rm.expires)
}

// authorized checks a token against a room's record.
func (r *Replica) authorized(rm *room, token string, now time.Time) bool {
	exp, _, ok := strings.Cut(token, ".")
	if !ok {
		return false
	}
	e, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || now.Unix() >= e {
		return false
	}
	return hmac.Equal([]byte(token), []byte(r.token(rm.code, rm.created, rm.expires)))
}

// Authorize reports whether token is the presenter's token of the room
// with code: nil, ErrNotPresenter, ErrNoRoom, or ErrBusDown when the
// room's record cannot be read now.
func (r *Replica) Authorize(code, token string) error {
	if token == "" {
		return ErrNotPresenter
	}
	rm, err := r.lookup(code)
	if err != nil {
		return err
	}
	if !r.authorized(rm, token, time.Now()) {
		return ErrNotPresenter
	}
	return nil
}

// Authorized reports whether token is the presenter's token of code.
func (r *Replica) Authorized(code, token string) bool { return r.Authorize(code, token) == nil }

// TokenExpiry is when a token says it expires (zero for a malformed one).
func TokenExpiry(token string) time.Time {
	exp, _, _ := strings.Cut(token, ".")
	e, err := strconv.ParseInt(exp, 10, 64)
	if err != nil {
		return time.Time{}
	}
	return time.Unix(e, 0)
}

// NormalizeCode upper-cases a typed code and drops spaces and dashes.
func NormalizeCode(s string) (string, bool) {
	s = strings.ToUpper(strings.NewReplacer(" ", "", "-", "").Replace(s))
	if len(s) != CodeLen {
		return "", false
	}
	for _, c := range s {
		if !strings.ContainsRune(CodeAlphabet, c) {
			return "", false
		}
	}
	return s, true
}

// attach subscribes this replica to a room's subjects, once; the bus I/O
// happens outside the lock, and callers that arrive meanwhile wait for it.
// Then it reads the room's newest state from the store and, for a room it
// did not create, asks the other replicas whether one has the presenter.
func (r *Replica) attach(code string) (*room, error) {
	rm, err := r.lookup(code)
	if err != nil {
		return nil, err
	}
	for {
		r.mu.Lock()
		if cur, ok := r.rooms[code]; !ok {
			r.rooms[code] = rm // swept meanwhile: index it again
		} else {
			rm = cur
		}
		if rm.attached {
			r.mu.Unlock()
			return rm, nil
		}
		if ch := rm.attaching; ch != nil {
			r.mu.Unlock()
			select {
			case <-ch:
				continue
			case <-time.After(2 * storeTimeout):
				return nil, ErrBusDown
			}
		}
		ch := make(chan struct{})
		rm.attaching = ch
		r.mu.Unlock()

		stop, err := r.subscribe(code)
		r.mu.Lock()
		rm.attaching = nil
		close(ch)
		if err != nil {
			r.mu.Unlock()
			return nil, fmt.Errorf("%w: %v", ErrBusDown, err)
		}
		rm.stop, rm.attached = stop, true
		ask := !rm.known
		r.mu.Unlock()
		if ask {
			go r.askPresence(code, rm)
		}
		go r.refresh(code)
		return rm, nil
	}
}

// attachHeld attaches the room and returns it with r.mu held, attached
// and in the index (a sweep may let go of it between attach and the lock).
func (r *Replica) attachHeld(code string) (*room, error) {
	for {
		rm, err := r.attach(code)
		if err != nil {
			return nil, err
		}
		r.mu.Lock()
		if r.rooms[code] == rm && rm.attached {
			return rm, nil
		}
		r.mu.Unlock()
	}
}

// subscribe listens to a room's subjects and answers its presence
// questions; it undoes what it did when one step fails.
func (r *Replica) subscribe(code string) ([]func(), error) {
	var stop []func()
	undo := func() {
		for _, f := range stop {
			f()
		}
	}
	for _, sub := range []struct {
		what string
		fn   func(string, []byte)
	}{
		{"state", func(subj string, data []byte) { r.onState(code, subj, data) }},
		{"count", func(subj string, data []byte) { r.onCount(code, subj, data) }},
		{"presence", func(subj string, data []byte) { r.onPresence(code, subj, data) }},
	} {
		f, err := r.bus.Subscribe(subject(code, sub.what), sub.fn)
		if err != nil {
			undo()
			return nil, err
		}
		stop = append(stop, f)
	}
	ask := subject(code, "presenter")
	f, err := r.bus.Serve(ask, func([]byte) []byte {
		r.mu.Lock()
		defer r.mu.Unlock()
		if rm, ok := r.rooms[code]; ok && rm.live {
			return r.seal(ask, r.presenceMsgLocked(rm))
		}
		return nil // silent: a replica with the presenter answers
	})
	if err != nil {
		undo()
		return nil, err
	}
	stop = append(stop, f)
	cur := subject(code, "current")
	f, err = r.bus.Serve(cur, func(asker []byte) []byte {
		r.mu.Lock()
		defer r.mu.Unlock()
		rm, ok := r.rooms[code]
		if !ok || !rm.attached || string(asker) == r.replica {
			return nil
		}
		b, err := encodeState(rm.state)
		if err != nil {
			return nil
		}
		return r.seal(cur, b)
	})
	if err != nil {
		undo()
		return nil, err
	}
	return append(stop, f), nil
}

// refresh catches up on states a replica missed before it subscribed, or
// while the bus was down: from the store, and from the replicas that hold
// the room (the store is written just behind the bus, so a state
// published a moment ago may be only there).
func (r *Replica) refresh(code string) {
	if rec, err := r.load(code); err == nil {
		r.applyState(code, rec.State)
	}
	cur := subject(code, "current")
	sealed, err := r.bus.Request(cur, []byte(r.replica), JoinTimeout)
	if err != nil {
		return
	}
	if data, ok := r.unseal(cur, sealed); ok {
		if st, err := decodeState(data); err == nil && st.Version <= time.Now().Add(maxVersionAhead).UnixMicro() {
			r.applyState(code, st)
		}
	}
}

func (r *Replica) onState(code, subj string, sealed []byte) {
	data, ok := r.unseal(subj, sealed)
	if !ok {
		r.log.Warn("room: dropped a state that is not sealed with the room secret", "room", code)
		return
	}
	st, err := decodeState(data)
	if err != nil {
		r.log.Warn("room: dropped a malformed state", "room", code, "err", err)
		return
	}
	if st.Version > time.Now().Add(maxVersionAhead).UnixMicro() {
		r.log.Warn("room: dropped a state from the future", "room", code, "version", st.Version)
		return
	}
	r.applyState(code, st)
}

// applyState takes a state newer than the room's and offers it to the
// local viewers.
func (r *Replica) applyState(code string, st State) {
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[code]
	if !ok || st.Version <= rm.state.Version {
		return
	}
	rm.state = st
	if rm.live {
		r.markDirtyLocked(code) // the presenter's replica keeps the store up to date
	}
	for v := range rm.viewers {
		v.offer(st)
	}
}

type countMsg struct {
	Replica string `json:"replica"`
	Viewers int    `json:"viewers"`
}

func (r *Replica) onCount(code, subj string, sealed []byte) {
	data, ok := r.unseal(subj, sealed)
	var m countMsg
	if !ok || json.Unmarshal(data, &m) != nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if rm, ok := r.rooms[code]; ok {
		rm.counts[m.Replica] = replicaCount{n: m.Viewers, seen: time.Now()}
	}
}

// publishCountLocked tells every replica how many viewers this one has.
func (r *Replica) publishCountLocked(rm *room) {
	b, _ := json.Marshal(countMsg{Replica: r.replica, Viewers: len(rm.viewers)})
	rm.counts[r.replica] = replicaCount{n: len(rm.viewers), seen: time.Now()}
	if rm.attached {
		r.publish(subject(rm.code, "count"), b)
	}
}

// presenceMsg announces how many presenter connections of a room a replica
// holds (0: none since the grace period).
type presenceMsg struct {
	Replica    string `json:"replica"`
	Presenters int    `json:"presenters"`
}

func (r *Replica) presenceMsgLocked(rm *room) []byte {
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
func (r *Replica) announceLocked(rm *room) {
	if rm.attached {
		r.publish(subject(rm.code, "presence"), r.presenceMsgLocked(rm))
	}
}

func (r *Replica) onPresence(code, subj string, sealed []byte) {
	data, ok := r.unseal(subj, sealed)
	var m presenceMsg
	if !ok || json.Unmarshal(data, &m) != nil {
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
func (r *Replica) askPresence(code string, rm *room) {
	ask := subject(code, "presenter")
	sealed, err := r.bus.Request(ask, nil, JoinTimeout)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.rooms[code] != rm {
		return
	}
	var m presenceMsg
	if err == nil {
		if data, ok := r.unseal(ask, sealed); ok && json.Unmarshal(data, &m) == nil && m.Replica != r.replica {
			rm.presence[m.Replica] = replicaCount{n: m.Presenters, seen: time.Now()}
		}
	}
	if err != nil && !errors.Is(err, ErrNoAnswer) {
		return // the bus failed: stay unknown until it is back (busChanged asks again)
	}
	rm.known = true
	r.presenceChangedLocked(rm, time.Now())
}

// presentedLocked reports whether a presenter connection of the room is
// open on some replica, as far as this one knows.
func (r *Replica) presentedLocked(rm *room, now time.Time) bool {
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
// comes back. While the bus is down nobody's heartbeat arrives, which
// says nothing about the presenter: viewers hear "reconnecting" instead.
func (r *Replica) presenceChangedLocked(rm *room, now time.Time) {
	if !r.busUp {
		return
	}
	p := r.presentedLocked(rm, now)
	if p == rm.presenting {
		return
	}
	rm.presenting = p
	for v := range rm.viewers {
		v.offerPresence(p)
	}
}

// busChanged hears the bus going down or coming back. Down: viewers are
// told the room is reconnecting. Back: the replica catches up on states
// it missed, asks again who presents, and re-announces itself.
func (r *Replica) busChanged(up bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.busUp == up {
		return
	}
	r.busUp = up
	r.log.Info("room: bus", "up", up)
	for code, rm := range r.rooms {
		if !rm.attached {
			continue
		}
		for v := range rm.viewers {
			v.offerLink(up)
		}
		if !up {
			continue
		}
		clear(rm.presence)
		rm.known = rm.live
		if !rm.known {
			go r.askPresence(code, rm)
		}
		go r.refresh(code)
		r.announceLocked(rm)
		r.publishCountLocked(rm)
		if rm.live {
			r.markDirtyLocked(code)
		}
	}
}

// BusUp reports whether the rooms' bus is connected.
func (r *Replica) BusUp() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.busUp
}

// endPresence runs grace after a room's last local presenter left: if none
// came back, this replica stops announcing one.
func (r *Replica) endPresence(code string, rm *room) {
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
func (r *Replica) Presenting(code string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[code]
	return ok && r.presentedLocked(rm, time.Now())
}

// Presenter is a connection allowed to change a room.
type Presenter struct {
	rooms *Replica
	code  string
	once  sync.Once
}

// Present checks token against the room's record and registers a
// presenter connection for code, on whichever replica the presenter
// reaches: after a restart or a failover too, as long as the room lives.
func (r *Replica) Present(code, token string) (*Presenter, State, error) {
	if err := r.Authorize(code, token); err != nil {
		if errors.Is(err, ErrNoRoom) {
			return nil, State{}, ErrNotPresenter // say nothing of whether the room exists
		}
		return nil, State{}, err
	}
	rm, err := r.attachHeld(code)
	if err != nil {
		return nil, State{}, err
	}
	defer r.mu.Unlock()
	rm.presenters++
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
	return &Presenter{rooms: r, code: code}, rm.state, nil
}

// Code is the room's join code.
func (p *Presenter) Code() string { return p.code }

// Update shares a new state with every viewer on every replica.
func (p *Presenter) Update(st State) error {
	r := p.rooms
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[p.code]
	if !ok {
		return ErrNoRoom
	}
	// Versions must grow even for updates issued faster than the bus
	// echoes them back, and across a presenter moving replicas.
	st.Version = max(rm.state.Version, rm.issued, time.Now().UnixMicro()) + 1
	raw, err := encodeState(st)
	if err != nil {
		return err
	}
	rm.issued = st.Version
	// Local viewers hear it back from the bus like everyone else, so
	// ordering is the bus's.
	r.publish(subject(p.code, "state"), raw)
	return nil
}

// Watching is how many viewers the room has across replicas.
func (p *Presenter) Watching() int { return p.rooms.Watching(p.code) }

// BusUp reports whether the bus between the replicas is connected.
func (p *Presenter) BusUp() bool { return p.rooms.BusUp() }

// Watching is how many viewers the room with code has across replicas, as
// far as this replica has heard (0 for a room it does not hold).
func (r *Replica) Watching(code string) int {
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
	rooms *Replica
	code  string
	ready chan struct{} // capacity 1: "a newer state is waiting"

	mu       sync.Mutex
	pending  State
	has      bool
	lastSent int64
	// presenting is whether the room has a presenter, told whether the
	// viewer was last told so; both start true (a viewer assumes the
	// presenter is there), so only a change is news. linked and
	// linkTold are the same for the bus.
	presenting, told bool
	linked, linkTold bool
	once             sync.Once
}

// ViewerEvent is what a viewer hears next: a newer state of the room,
// that its presenter has left or come back (Presence), or that the bus
// between the replicas went down or came back (Link).
type ViewerEvent struct {
	State      State
	Presence   bool // the event is about the presenter, not a state
	Presenting bool // with Presence: whether a presenter is connected now
	Link       bool // the event is about the bus
	Connected  bool // with Link: whether the bus is connected now
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

func (v *Viewer) offerLink(up bool) {
	v.mu.Lock()
	v.linked = up
	v.mu.Unlock()
	v.wake()
}

func (v *Viewer) offer(st State) {
	v.mu.Lock()
	if st.Version > v.lastSent && (!v.has || st.Version > v.pending.Version) {
		v.pending, v.has = st, true
	}
	v.mu.Unlock()
	v.wake()
}

// Next blocks until a state newer than the last one returned arrives; it
// skips news about the presenter and the bus.
func (v *Viewer) Next(ctx context.Context) (State, error) {
	for {
		ev, err := v.NextEvent(ctx)
		if err != nil || (!ev.Presence && !ev.Link) {
			return ev.State, err
		}
	}
}

// NextEvent blocks until a state newer than the last one returned arrives,
// or the presenter or the bus goes or comes back (a change since the last
// event: going and coming back between two calls is no news). The bus
// comes first, then a waiting state.
func (v *Viewer) NextEvent(ctx context.Context) (ViewerEvent, error) {
	for {
		v.mu.Lock()
		if v.linked != v.linkTold {
			v.linkTold = v.linked
			v.mu.Unlock()
			return ViewerEvent{Link: true, Connected: v.linkTold}, nil
		}
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
// delivered first. ErrNoRoom when the room does not exist, ErrBusDown
// when that cannot be told now.
func (r *Replica) Join(code string) (*Viewer, error) {
	code, ok := NormalizeCode(code)
	if !ok {
		return nil, ErrNoRoom
	}
	rm, err := r.attachHeld(code)
	if err != nil {
		return nil, err
	}
	defer r.mu.Unlock()
	v := &Viewer{rooms: r, code: code, ready: make(chan struct{}, 1), presenting: rm.presenting, told: true,
		linked: r.busUp, linkTold: true}
	rm.viewers[v] = struct{}{}
	rm.emptySince = time.Time{}
	r.publishCountLocked(rm)
	v.offer(rm.state)
	return v, nil
}

// Current returns the room's state without joining it: ErrNoRoom when the
// room does not exist, ErrBusDown when that cannot be told now.
func (r *Replica) Current(code string) (State, error) {
	code, ok := NormalizeCode(code)
	if !ok {
		return State{}, ErrNoRoom
	}
	rm, err := r.lookup(code)
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

// Run keeps the rooms healthy until ctx ends: it re-announces viewer
// counts and presence, and ends rooms that have been empty for longer
// than emptyTTL, or have expired.
func (r *Replica) Run(ctx context.Context) {
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

// touchEvery is how often a replica with someone in a room says so in the
// store (well within emptyTTL).
const touchEvery = time.Minute

func (r *Replica) sweep(now time.Time) {
	var ended, touch []string
	r.mu.Lock()
	for code, rm := range r.rooms {
		empty := rm.presenters <= 0 && len(rm.viewers) == 0 && rm.attaching == nil
		expired := now.UnixMicro() >= rm.expires
		if (empty && !rm.emptySince.IsZero() && now.Sub(rm.emptySince) >= r.emptyTTL) || (empty && expired) {
			// Another replica may still have members: then the room
			// stays in the store, and only this replica lets go of it.
			if expired || !r.othersInLocked(rm, now) {
				ended = append(ended, code)
			}
			r.dropLocked(rm)
			continue
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
	if up {
		for _, code := range touch {
			r.touch(code, now)
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

func encodeState(st State) ([]byte, error) {
	b, err := json.Marshal(st)
	if err != nil || len(b) > maxRoomStateBytes {
		return nil, fmt.Errorf("%w (%d bytes, at most %d)", ErrRoomState, len(b), maxRoomStateBytes)
	}
	return b, nil
}

func decodeState(b []byte) (State, error) {
	var st State
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
