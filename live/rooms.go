package live

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/rooms"
)

// The room messages of the websocket protocol (docs/protocol.md, "Rooms").
// A connection presents one room or follows one, or neither.

// roomClientMsg is a page's room message: present, unpresent, publish,
// follow or unfollow.
type roomClientMsg struct {
	V     int          `json:"v"`
	Type  string       `json:"type"`
	Room  string       `json:"room,omitempty"`
	State *rooms.State `json:"state,omitempty"`
	// Resume, on a present: the id the page was given as presenter before
	// its socket dropped (it then takes the room back from no newer tab).
	Resume string `json:"resume,omitempty"`

	// Questions (questions.go). Student, on a follow: the token the
	// page was given ("student"); on an answer: whom it is for (the
	// page's own student, or it is refused).
	Student  string        `json:"student,omitempty"`
	Action   string        `json:"action,omitempty"`   // question: ask, close, reveal, dismiss
	Ask      *explorer.Ask `json:"ask,omitempty"`      // question, ask
	Question string        `json:"question,omitempty"` // answer: the question's id
	Value    *int64        `json:"value,omitempty"`    // answer
	Set      *[]int64      `json:"set,omitempty"`      // answer to a set question: the cells picked
	Nick     string        `json:"nick,omitempty"`     // answer: an optional nickname
	Pace     string        `json:"pace,omitempty"`     // pace: "student" or "" (everyone back)
	Step     *int          `json:"step,omitempty"`     // where: the tour step the page is on
}

// roomServerMsg tells the presenter it presents ("presenting") and how
// many watch ("watching"), and a viewer the room's state ("room").
type roomServerMsg struct {
	V        int          `json:"v"`
	Type     string       `json:"type"`
	Room     string       `json:"room"`
	State    *rooms.State `json:"state,omitempty"`
	Watching int          `json:"watching"`
	ID       string       `json:"id,omitempty"` // "presenting": the connection's, for a later resume
}

// roomPresenceMsg tells a viewer that the presenter has left (no presenter
// connection on any replica) or is back ("presence").
type roomPresenceMsg struct {
	V          int    `json:"v"`
	Type       string `json:"type"`
	Room       string `json:"room"`
	Presenting bool   `json:"presenting"`
}

// roomLinkMsg tells a viewer or the presenter that the bus between the
// replicas went down (Connected false: "reconnecting to the room") or
// came back ("link"). Down says nothing about the presenter.
type roomLinkMsg struct {
	V         int    `json:"v"`
	Type      string `json:"type"`
	Room      string `json:"room"`
	Connected bool   `json:"connected"`
}

// roomNewsMsg tells a viewer or a presenter's other tab that the
// presenter ended the room ("ended"): nothing more comes of it; or a
// presenter's tab that a newer one presents the room now ("moved").
type roomNewsMsg struct {
	V    int    `json:"v"`
	Type string `json:"type"`
	Room string `json:"room"`
}

// roomErrorMsg is an error about rooms, with a code the page acts on.
type roomErrorMsg struct {
	V       int    `json:"v"`
	Type    string `json:"type"`
	Code    string `json:"code"`
	Room    string `json:"room,omitempty"`
	Message string `json:"message"`
}

// Room error codes.
const (
	roomErrBadMessage   = "bad-room-message"
	roomErrUnavailable  = "rooms-unavailable"
	roomErrNotPresenter = "not-presenter"
	roomErrNoRoom       = "no-room"
	roomErrTooMany      = "too-many-attempts"
	roomErrBadState     = "bad-room-state"
	roomErrReconnecting = "reconnecting" // the bus is down; the page tries again
)

const (
	maxFocusLen         = 64
	watchingEvery       = 500 * time.Millisecond // how often the presenter's count is checked
	viewerWatchingEvery = time.Second            // and a viewer's
	publishEvery        = 20 * time.Millisecond  // at most 50 shared states a second per presenter
)

// sessionRoom is the room side of one connection. Only the session's
// reader goroutine touches it (and run, after the reader has returned).
type sessionRoom struct {
	addr    string            // the client address's key, for the failed-join guard
	tokens  map[string]string // presenter tokens by room code, from the upgrade's cookies
	tickets map[string]string // join tickets by room code, from the upgrade's cookies

	presenter *rooms.Presenter
	viewer    *rooms.Viewer
	code      string             // the room followed
	pub       *stateSlot         // the presenter's next state to share
	stop      context.CancelFunc // stops the goroutine of the present or follow
	done      chan struct{}
}

// leave ends the connection's present or follow.
func (sr *sessionRoom) leave() {
	if sr.stop != nil {
		sr.stop()
		<-sr.done
	}
	if sr.presenter != nil {
		sr.presenter.Close()
	}
	if sr.viewer != nil {
		sr.viewer.Close()
	}
	sr.presenter, sr.viewer, sr.pub, sr.stop, sr.done, sr.code = nil, nil, nil, nil, nil, ""
}

// roomMessage handles data if it is a room message, and says so.
func (ss *session) roomMessage(data []byte) bool {
	var head struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(data, &head) != nil {
		return false
	}
	switch head.Type {
	case "present", "unpresent", "publish", "follow", "unfollow", "question", "answer", "pace", "where":
	default:
		return false
	}
	var m roomClientMsg
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil || dec.More() {
		ss.roomError(roomErrBadMessage, "", "the room message is not a JSON object of the protocol")
		return true
	}
	if m.V != ProtocolVersion {
		ss.roomError(roomErrBadMessage, "", fmt.Sprintf("unsupported protocol version %d; this server speaks v=%d (reload the page)", m.V, ProtocolVersion))
		return true
	}
	switch m.Type {
	case "present":
		ss.present(m.Room, m.Resume)
	case "publish":
		ss.publish(m)
	case "follow":
		ss.follow(m.Room, m.Student)
	case "question":
		ss.question(m)
	case "answer":
		ss.answer(m)
	case "pace":
		ss.setPace(m)
	case "where":
		ss.where(m)
	case "unfollow":
		if ss.room.viewer != nil {
			ss.room.leave()
		}
	case "unpresent":
		// The presenter's page goes away (it may stay open in the
		// browser's back/forward cache, its socket with it).
		if ss.room.presenter != nil {
			ss.room.leave()
		}
	}
	return true
}

func (ss *session) roomError(code, room, message string) {
	ss.send(frame{kind: websocket.TextMessage, data: mustJSON(roomErrorMsg{V: ProtocolVersion, Type: "error", Code: code, Room: room, Message: message})})
}

// present makes this connection the room's presenter if the upgrade
// request carried the room's presenter cookie. Checking the cookie looks
// the code up: through the guard on wrong codes, as a follow is.
func (ss *session) present(raw, resume string) {
	replica, err := ss.h.Rooms()
	if err != nil {
		ss.roomError(roomErrUnavailable, "", "rooms are not available on this server")
		return
	}
	code, ok := rooms.NormalizeCode(raw)
	token := ss.room.tokens[code]
	if !ok || token == "" {
		ss.roomError(roomErrNotPresenter, raw, rooms.ErrNotPresenter.Error()) // nothing to look up
		return
	}
	guard, key := ss.h.joins(), ss.room.addr
	switch err := guard.Admit(ss.ctx, key, code); {
	case errors.Is(err, rooms.ErrNoRoom):
		ss.roomError(roomErrNotPresenter, code, rooms.ErrNotPresenter.Error()) // as a lookup would say
		return
	case err != nil:
		ss.roomError(roomErrTooMany, code, "too many wrong room codes from this address; wait a moment")
		return
	}
	p, _, err := replica.Resume(ss.ctx, code, token, resume)
	switch {
	case errors.Is(err, rooms.ErrNoRoom):
		guard.Fail(key, code, time.Now())
	case err == nil || errors.Is(err, rooms.ErrNotPresenter) || errors.Is(err, rooms.ErrMoved):
		guard.Found(key, code, time.Now())
	}
	switch {
	case errors.Is(err, rooms.ErrMoved):
		// A newer tab took the room over while this page was away.
		ss.send(textFrame(roomNewsMsg{V: ProtocolVersion, Type: "moved", Room: code}))
		return
	case errors.Is(err, rooms.ErrBusDown):
		ss.roomError(roomErrReconnecting, code, err.Error())
		return
	case err != nil:
		ss.roomError(roomErrNotPresenter, code, err.Error())
		return
	}
	ss.room.leave()
	ctx, stop := context.WithCancel(ss.ctx)
	done := make(chan struct{})
	pub := &stateSlot{ready: make(chan struct{}, 1)}
	ss.room.presenter, ss.room.pub, ss.room.stop, ss.room.done = p, pub, stop, done
	go func() {
		defer close(done)
		ss.presentLoop(ctx, p, pub)
	}()
}

// presentLoop shares the presenter's states, at most one per
// publishEvery (a faster presenter's intermediate states are skipped),
// tells the presenter how many watch whenever that changes, and says
// "ended" and stops once the room has ended (from another tab), or
// "moved" once another tab or device presents it.
func (ss *session) presentLoop(ctx context.Context, p *rooms.Presenter, pub *stateSlot) {
	tick := time.NewTicker(watchingEvery)
	defer tick.Stop()
	watching, linked := p.Watching(), p.BusUp()
	if !ss.sendCtx(ctx, roomServerMsg{V: ProtocolVersion, Type: "presenting", Room: p.Code(), Watching: watching, ID: p.ID()}) {
		return
	}
	if t := tallyOf(p); (t.Question != nil || t.Where != nil) && !ss.sendCtx(ctx, t) {
		return // a presenter back after a reload or a restart sees its question
	}
	moved := false
	stale := ss.staleCheck(p)
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			if p.Ended() {
				ss.sendCtx(ctx, roomNewsMsg{V: ProtocolVersion, Type: "ended", Room: p.Code()})
				return
			}
			if moved {
				continue // only the end is news to a tab taken over
			}
			if p.Moved() {
				// Another tab or device presents now: this one stops
				// counting as a presenter and says so, and hears of the
				// end still; "present" takes the room back.
				moved = true
				p.Close()
				if !ss.sendCtx(ctx, roomNewsMsg{V: ProtocolVersion, Type: "moved", Room: p.Code()}) {
					return
				}
				continue
			}
			if up := p.BusUp(); up != linked {
				linked = up
				if !ss.sendCtx(ctx, roomLinkMsg{V: ProtocolVersion, Type: "link", Room: p.Code(), Connected: up}) {
					return
				}
			}
			if n := p.Watching(); n != watching {
				watching = n
				if !ss.sendCtx(ctx, roomServerMsg{V: ProtocolVersion, Type: "watching", Room: p.Code(), Watching: n}) {
					return
				}
			}
		case <-p.Answers():
			if moved {
				continue
			}
			if !ss.sendCtx(ctx, tallyOf(p)) {
				return
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(tallyEvery):
			}
		case <-pub.ready:
			pub.sharing.Lock()
			st, ok := pub.take()
			if !ok || moved {
				pub.sharing.Unlock()
				continue
			}
			err := p.UpdateStale(st, stale(st))
			pub.sharing.Unlock()
			if errors.Is(err, rooms.ErrMoved) {
				continue // the next tick says "moved"
			} else if err != nil {
				code := roomErrBadState
				if errors.Is(err, rooms.ErrNoRoom) {
					code = roomErrNoRoom
				}
				if !ss.sendCtx(ctx, roomErrorMsg{V: ProtocolVersion, Type: "error", Code: code, Room: p.Code(), Message: err.Error()}) {
					return
				}
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(publishEvery):
			}
		}
	}
}

// publish queues a state for the room this connection presents.
func (ss *session) publish(m roomClientMsg) {
	p := ss.room.presenter
	if p == nil || (m.Room != "" && m.Room != p.Code()) {
		ss.roomError(roomErrNotPresenter, m.Room, rooms.ErrNotPresenter.Error()+": present the room first, with its presenter cookie")
		return
	}
	if m.State == nil {
		ss.roomError(roomErrBadState, p.Code(), "publish needs a state")
		return
	}
	st := *m.State
	st.Version = 0 // the room assigns versions
	pages := ss.h.pages()
	if _, ok := pages.PagePath(st.Page, st.Step); !ok || len(st.Query) > pages.Kinds.MaxQuery(st.Page) || len(st.Focus) > maxFocusLen || st.Step < 0 {
		ss.roomError(roomErrBadState, p.Code(), fmt.Sprintf("the state needs a known page (%s or %q), a step of 0 or more (of the tour: 1 to %d), a query no longer than its page takes (%d bytes at most) and a focus of at most %d",
			pageList(pages.Kinds), explorer.TourPage, pages.TourSteps, pages.Kinds.MaxQuery(explorer.TourPage), maxFocusLen))
		return
	}
	ss.room.pub.put(st)
}

// follow makes this connection a viewer of the room: the room's current
// state first, then every state the presenter shares, latest only,
// "presence" when the presenter leaves or comes back, and "ended" last
// when the presenter ends the room.
func (ss *session) follow(raw, student string) {
	replica, err := ss.h.Rooms()
	if err != nil {
		ss.roomError(roomErrUnavailable, "", "rooms are not available on this server")
		return
	}
	guard, key := ss.h.joins(), ss.room.addr
	code, ok := rooms.NormalizeCode(raw)
	if !ok {
		ss.roomError(roomErrNoRoom, raw, rooms.ErrNoRoom.Error()) // no code: nothing to look up
		return
	}
	// A browser that has found the room before (its join ticket) is not
	// guessing: the guard is for codes it has not found.
	if !replica.ValidTicket(code, ss.room.tickets[code]) {
		switch err := guard.Admit(ss.ctx, key, code); {
		case errors.Is(err, rooms.ErrNoRoom):
			ss.roomError(roomErrNoRoom, raw, rooms.ErrNoRoom.Error())
			return
		case err != nil:
			ss.roomError(roomErrTooMany, "", "too many wrong room codes from this address; wait a moment")
			return
		}
	}
	v, err := replica.JoinAs(ss.ctx, code, student)
	if err == nil {
		guard.Found(key, code, time.Now())
	}
	if err != nil {
		switch {
		case errors.Is(err, rooms.ErrNoRoom):
			guard.Fail(key, code, time.Now())
			ss.roomError(roomErrNoRoom, raw, rooms.ErrNoRoom.Error())
		case errors.Is(err, rooms.ErrBusDown):
			ss.roomError(roomErrReconnecting, code, rooms.ErrBusDown.Error())
		default:
			ss.roomError(roomErrUnavailable, code, "cannot join the room now; try again")
		}
		return
	}
	ss.room.leave()
	ctx, stop := context.WithCancel(ss.ctx)
	done := make(chan struct{})
	ss.room.viewer, ss.room.stop, ss.room.done, ss.room.code = v, stop, done, code
	ss.send(textFrame(studentMsg{V: ProtocolVersion, Type: "student", Room: code, Student: v.StudentToken()}))
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { wg.Wait(); close(done) }()
	// The viewer's count of watchers follows the room's as the
	// presenter's does, not only when a state comes (a student joining
	// or leaving changes it too), checked less often: a room has many
	// viewers.
	go func() {
		defer wg.Done()
		tick := time.NewTicker(viewerWatchingEvery)
		defer tick.Stop()
		watching := -1 // what the page shows came with it; send the count once
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				if n := replica.Watching(code); n != watching {
					watching = n
					if !ss.sendCtx(ctx, roomServerMsg{V: ProtocolVersion, Type: "watching", Room: code, Watching: n}) {
						return
					}
				}
			}
		}
	}()
	go func() {
		defer wg.Done()
		defer stop()
		for {
			ev, err := v.NextEvent(ctx)
			if err != nil {
				return
			}
			// While the writer is busy this waits, and the viewer keeps
			// only the newest state: a slow connection skips states.
			var f frame
			switch {
			case ev.Ended:
				ss.sendFrameCtx(ctx, textFrame(roomNewsMsg{V: ProtocolVersion, Type: "ended", Room: code}))
				return
			case ev.Link:
				f = textFrame(roomLinkMsg{V: ProtocolVersion, Type: "link", Room: code, Connected: ev.Connected})
			case ev.Presence:
				f = textFrame(roomPresenceMsg{V: ProtocolVersion, Type: "presence", Room: code, Presenting: ev.Presenting})
			default:
				f = ss.h.roomStateFrame(code, ev.Delivery)
			}
			if !ss.sendFrameCtx(ctx, f) {
				return
			}
		}
	}()
}

// roomStateFrame is the "room" message of a state as the replica handed
// it to its viewers of the room. Every viewer of the room on this replica
// is handed the same delivery, so the message is encoded once per state
// however many follow it, and every follower's writer sends the same
// bytes (read only: a server's frames are not masked). Not a
// websocket.PreparedMessage: its frame is built under a sync.Once and a
// mutex that every writer takes, and 1000 writers asking at once queued on
// them; the header it would save is two bytes.
func (h *Hub) roomStateFrame(code string, d *rooms.Delivery) frame {
	encode := func(d *rooms.Delivery) any {
		h.roomEncodes.Add(1)
		st := d.State
		st.Question = st.Question.ForClass() // its answer only once revealed
		return mustJSON(roomServerMsg{V: ProtocolVersion, Type: "room", Room: code, State: &st, Watching: d.Watching})
	}
	data, ok := d.Shared(encode).([]byte)
	if !ok { // the first follower's encoding panicked
		data = encode(d).([]byte)
	}
	return frame{kind: websocket.TextMessage, data: data}
}

// joins is the hub's guard on room codes; without one, nothing is
// guarded.
func (h *Hub) joins() JoinGuard {
	if h.Joins == nil {
		return noGuard{}
	}
	return h.Joins
}

type noGuard struct{}

func (noGuard) Admit(context.Context, string, string) error { return nil }
func (noGuard) Fail(string, string, time.Time)              {}
func (noGuard) Found(string, string, time.Time)             {}

func textFrame(v any) frame { return frame{kind: websocket.TextMessage, data: mustJSON(v)} }

// sendCtx queues a message for the writer unless ctx ends first.
func (ss *session) sendCtx(ctx context.Context, v any) bool {
	return ss.sendFrameCtx(ctx, textFrame(v))
}

// sendFrameCtx queues a frame for the writer unless ctx ends first.
func (ss *session) sendFrameCtx(ctx context.Context, f frame) bool {
	select {
	case ss.out <- f:
		return true
	case <-ctx.Done():
		return false
	}
}

// stateSlot holds the newest state not yet taken: put replaces it.
type stateSlot struct {
	mu    sync.Mutex
	st    rooms.State
	has   bool
	ready chan struct{} // capacity 1
	// sharing is held from a state's take to its sharing, and through a
	// question's asking: a question asked while the loop shares the
	// presenter's last edit is about that edit, and the loop's stale
	// check sees the new question.
	sharing sync.Mutex
}

func (s *stateSlot) put(st rooms.State) {
	s.mu.Lock()
	s.st, s.has = st, true
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

func (s *stateSlot) take() (rooms.State, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st, ok := s.st, s.has
	s.has = false
	return st, ok
}
