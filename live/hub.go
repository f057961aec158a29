package live

import (
	"context"
	"io"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/stridescope/stridescope/explorer"

	"github.com/gorilla/websocket"
	"golang.org/x/time/rate"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/rooms"
)

// Timings are a websocket's deadlines; tests shorten them.
type Timings struct {
	WriteWait  time.Duration // one frame must be written within this
	PongWait   time.Duration // a peer silent for this long is dead
	PingPeriod time.Duration // how often the server pings (< PongWait)
}

// DefaultTimings are the deadlines of a server.
var DefaultTimings = Timings{WriteWait: 10 * time.Second, PongWait: 60 * time.Second, PingPeriod: 25 * time.Second}

// JoinGuard limits how fast one client address may look up room codes
// (web's slow lane); key is the address's key. Every lookup of a code
// goes through it: Admit before (rooms.ErrNoRoom: the address found the
// code wrong already, answer so without a lookup; another error: refused
// for now), then Fail for a code with no room, Found for one with a room.
type JoinGuard interface {
	Admit(ctx context.Context, key, code string) error
	Fail(key, code string, now time.Time)
	Found(key, code string, now time.Time)
}

// Hub is what every session of a server shares. Set its fields before
// the first session; they are not changed afterwards.
type Hub struct {
	Log     *slog.Logger
	Timings Timings
	// MessagesPerSecond and MessageBurst pace one connection's messages.
	MessagesPerSecond float64
	MessageBurst      int
	// Answers shares edits' answers between sessions that ask the same;
	// nil computes every edit.
	Answers *Answers
	// Rooms returns the server's rooms, starting them on first use.
	Rooms func() (*rooms.Replica, error)
	// Joins guards the room codes a session looks up (follows, or
	// presents with a presenter cookie); nil guards nothing.
	Joins JoinGuard
	// Pages are the explorers an edit may name (Pages.Kinds) and the
	// pages a room may show. New fills in a hub whose Kinds are nil with
	// every explorer (ops.All).
	Pages explorer.Pages
	// Budget is what edits take from before they draw; nil: unbounded.
	Budget *budget.Budget
	// Base is the parent of every session's context: cancelling it with
	// ErrShuttingDown as the cause closes every session with 1001.
	Base context.Context

	cut         atomic.Int64 // sessions whose writes a shutdown cut
	roomEncodes atomic.Int64 // room states encoded for viewers (roomStateFrame), for tests

	// editHook, when set by a test before the first session, runs before
	// each edit is computed.
	editHook func(clientMsg)
}

// Cut is how many sessions ended because the shutdown cut a write that
// a peer that stopped reading had blocked.
func (h *Hub) Cut() int64 { return h.cut.Load() }

func (h *Hub) log() *slog.Logger {
	if h.Log == nil {
		return slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return h.Log
}

// Peer is what the upgrade request says about a connection.
type Peer struct {
	// AddrKey is the client address as per-address limits count it.
	AddrKey string
	// Tokens are the presenter tokens the request's cookies carry, by
	// room code.
	Tokens map[string]string
	// Tickets are the join tickets the request's cookies carry, by room
	// code: following one of those rooms skips the wrong-code guard.
	Tickets map[string]string
	// Heard, if set, is called whenever the peer sends anything (the
	// connection is in use).
	Heard func()
	// Locale names the language the peer's page reads (the server's
	// locale middleware chose it for the upgrade request), and WithLocale
	// puts it in the session's context, so that what an edit renders
	// speaks the page's language. Answers are shared only between peers
	// of the same Locale, which also tells apart the pages whose links
	// keep ?lang= (web's "+url" key). Zero: the views' default, English.
	Locale     string
	WithLocale func(context.Context) context.Context
}

// Session is one websocket connection (see session).
type Session struct{ ss *session }

// NewSession starts nothing yet: Run serves the connection.
func (h *Hub) NewSession(conn *websocket.Conn, peer Peer) *Session {
	// Edits share the work budget fairly by client address, as pages do.
	base := budget.WithClient(h.Base, peer.AddrKey)
	if peer.WithLocale != nil {
		base = peer.WithLocale(base)
	}
	ctx, end := context.WithCancelCause(base)
	if peer.Heard == nil {
		peer.Heard = func() {}
	}
	ss := &session{h: h, conn: conn, peer: peer, t: h.Timings, out: make(chan frame, 4), ctrl: make(chan frame, 4),
		ctx: ctx, cancel: func() { end(nil) }, end: end,
		pace: rate.NewLimiter(rate.Limit(h.MessagesPerSecond), h.MessageBurst)}
	ss.room.addr, ss.room.tokens, ss.room.tickets = peer.AddrKey, peer.Tokens, peer.Tickets
	return &Session{ss: ss}
}

// Run serves the connection until it ends, and closes it.
func (s *Session) Run() { s.ss.run() }

// End closes the session with reason's close code (ErrEvicted, for one).
// The caller cuts the connection's I/O if the peer may not read.
func (s *Session) End(reason error) { s.ss.end(reason) }
