package live

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"runtime/debug"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/ops"

	"github.com/gorilla/websocket"
	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
	"golang.org/x/time/rate"
)

// closeReason is why the server ends sessions itself: the session's
// context is cancelled with it as the cause, and the writer sends its
// close frame.
type closeReason struct {
	code int
	text string
}

func (r *closeReason) Error() string {
	return fmt.Sprintf("websocket closed with %d (%s)", r.code, r.text)
}

// The reasons the server ends sessions itself.
var (
	ErrShuttingDown = &closeReason{websocket.CloseGoingAway, "server shutting down"}
	ErrEvicted      = &closeReason{websocket.CloseTryAgainLater, "the server is full; an address holding fewer sockets took this one"}
)

// frame is one outgoing message. seq is the edit it belongs to (0 for
// none); the writer drops frames of superseded edits.
type frame struct {
	kind   int // websocket.TextMessage, BinaryMessage, PingMessage, PongMessage, CloseMessage
	data   []byte
	seq    int64
	pooled *[]byte // returned to framePool once written
}

var framePool = sync.Pool{New: func() any { b := make([]byte, 0, FrameHeaderLen+maxFramePayload); return &b }}

// frameBuf returns a pooled buffer of n bytes for a binary frame.
func frameBuf(n int) (*[]byte, []byte) {
	bp := framePool.Get().(*[]byte)
	if cap(*bp) < n {
		*bp = make([]byte, 0, n)
	}
	*bp = (*bp)[:n]
	return bp, *bp
}

// session is one websocket connection: the reader runs in the handler's
// goroutine, exactly one writer goroutine owns every write, and each edit
// is computed in its own goroutine whose context is cancelled when a newer
// edit arrives (latest wins).
type session struct {
	h      *Hub
	conn   *websocket.Conn
	peer   Peer
	t      Timings
	out    chan frame // data frames, in order
	ctrl   chan frame // control frames, written before data
	ctx    context.Context
	cancel context.CancelFunc
	end    context.CancelCauseFunc // cancels ctx with a closeReason
	latest atomic.Int64
	pace   *rate.Limiter // paces the peer's messages (Limits.MessagesPerSecond)
	tooBig bool          // the reader refused a message over the limit (reader's goroutine only)
	room   sessionRoom   // the room this connection presents or follows (rooms_ws.go; reader's goroutine only)

	mu       sync.Mutex
	editStop context.CancelFunc
	editDone chan struct{}
}

func (ss *session) run() {
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		ss.writer()
	}()
	ss.send(frame{kind: websocket.TextMessage, data: mustJSON(helloMsg{V: ProtocolVersion, Type: "hello",
		MaxDOMCells: views.MaxDOMCells, MaxInteractive: picture.MaxInteractive, ReadLimit: wsReadLimit})})
	ss.reader()
	ss.cancel()
	ss.room.leave()
	<-writerDone
	if ss.tooBig {
		// 1009 is sent. Read and discard the rest of what the peer sends,
		// the message it is still writing included, for a moment: closing
		// a socket with unread data resets it, and the peer would lose
		// the 1009 (and its write fail). The websocket reader is done
		// after a refused header, so the bytes are read below it.
		nc := ss.conn.NetConn()
		// Our side is done writing: half-closed, the peer, having read
		// the 1009 and answered it, sees the end and closes, so the
		// drain ends then rather than at its deadline.
		if cw, ok := nc.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		}
		_ = nc.SetReadDeadline(time.Now().Add(2 * time.Second))
		_, _ = io.Copy(io.Discard, nc)
	}
	ss.mu.Lock()
	done := ss.editDone
	ss.mu.Unlock()
	if done != nil {
		<-done
	}
	ss.conn.Close()
}

// reader reads edits until the peer goes away, is silent for pongWait, or
// breaks the protocol's size limit.
func (ss *session) reader() {
	defer ss.recoverPanic("reader")
	c := ss.conn
	// The library refuses a frame whose header claims more than the
	// limit as soon as it reads the header, closing with 1009 itself
	// (WriteControl may write beside the writer goroutine): reading the
	// payload up to the limit first let a peer that sent the header alone
	// hold the reader until its deadline.
	c.SetReadLimit(wsReadLimit)
	_ = c.SetReadDeadline(time.Now().Add(ss.t.PongWait))
	c.SetPongHandler(func(string) error {
		ss.peer.Heard()
		return c.SetReadDeadline(time.Now().Add(ss.t.PongWait))
	})
	// Control replies go through the writer, so that one goroutine writes.
	c.SetPingHandler(func(data string) error {
		ss.peer.Heard()
		_ = c.SetReadDeadline(time.Now().Add(ss.t.PongWait))
		ss.control(frame{kind: websocket.PongMessage, data: []byte(data)})
		return nil
	})
	c.SetCloseHandler(func(code int, _ string) error {
		ss.control(frame{kind: websocket.CloseMessage, data: websocket.FormatCloseMessage(code, "")})
		return nil
	})
	for {
		// A flood waits here: the server reads this peer no faster than
		// its limit, and TCP pushes back on it alone.
		if err := ss.pace.Wait(ss.ctx); err != nil {
			return
		}
		typ, r, err := c.NextReader()
		if err != nil {
			ss.tooBig = errors.Is(err, websocket.ErrReadLimit)
			return
		}
		ss.peer.Heard()            // in use: the last of its address's sockets to evict
		data, err := io.ReadAll(r) // at most wsReadLimit: the library's limit
		if err != nil {
			ss.tooBig = errors.Is(err, websocket.ErrReadLimit)
			return
		}
		if typ != websocket.TextMessage {
			ss.send(frame{kind: websocket.TextMessage, data: mustJSON(ErrorMsg{V: ProtocolVersion, Type: "error", Message: "send edits as JSON text frames"})})
			continue
		}
		if ss.roomMessage(data) {
			continue
		}
		msg, problem := decodeClientMsg(data)
		if problem != "" {
			ss.send(frame{kind: websocket.TextMessage, data: mustJSON(ErrorMsg{V: ProtocolVersion, Type: "error", Seq: msg.Seq, Message: problem})})
			continue
		}
		ss.startEdit(msg)
	}
}

// startEdit supersedes the edit being computed with msg. The new edit
// waits for the old one to stop, so one edit computes at a time.
func (ss *session) startEdit(msg clientMsg) {
	ss.latest.Store(msg.Seq)
	ctx, stop := context.WithCancel(ss.ctx)
	done := make(chan struct{})
	ss.mu.Lock()
	if ss.editStop != nil {
		ss.editStop()
	}
	prev := ss.editDone
	ss.editStop, ss.editDone = stop, done
	ss.mu.Unlock()
	go func() {
		defer close(done)
		defer stop()
		defer ss.recoverPanic("edit")
		if prev != nil {
			<-prev
		}
		if ctx.Err() != nil {
			return
		}
		if hook := ss.h.editHook; hook != nil {
			hook(msg)
		}
		err := ss.h.answerEdit(ctx, ss.peer.Locale, msg, func(f frame) error {
			select {
			case ss.out <- f:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
		if err != nil && !errors.Is(err, context.Canceled) {
			ss.h.log().Warn("websocket edit failed", "seq", msg.Seq, "err", err)
		}
	}()
}

// closeGrace is how long a closing session waits for the peer's reply.
const closeGrace = time.Second

// recoverPanic turns a panic while serving this connection into a close
// with 1011 (internal error) for this connection alone.
func (ss *session) recoverPanic(where string) {
	r := recover()
	if r == nil {
		return
	}
	ss.h.log().Error("panic in websocket session", "where", where, "panic", r, "stack", string(debug.Stack()))
	ss.control(frame{kind: websocket.CloseMessage, data: websocket.FormatCloseMessage(websocket.CloseInternalServerErr, "internal error")})
	// Unblock the reader soon if the peer does not answer the close.
	_ = ss.conn.SetReadDeadline(time.Now().Add(2 * time.Second))
}

// send queues a frame that no edit owns.
func (ss *session) send(f frame) {
	select {
	case ss.out <- f:
	case <-ss.ctx.Done():
	}
}

// control queues a control frame for the writer.
func (ss *session) control(f frame) {
	select {
	case ss.ctrl <- f:
	case <-ss.ctx.Done():
	}
}

// writer is the only goroutine that writes to the connection: data
// frames, pings, pongs and the close frame.
func (ss *session) writer() {
	c := ss.conn
	ping := time.NewTicker(ss.t.PingPeriod)
	defer ping.Stop()
	defer ss.cancel()
	write := func(f frame) bool {
		_ = c.SetWriteDeadline(time.Now().Add(ss.t.WriteWait))
		err := c.WriteMessage(f.kind, f.data)
		if f.pooled != nil {
			*f.pooled = (*f.pooled)[:0]
			framePool.Put(f.pooled)
		}
		// gorilla hides the deadline error behind a net.Error of its own.
		if ne := net.Error(nil); errors.As(err, &ne) && ne.Timeout() && ss.h.Base.Err() != nil {
			ss.h.cut.Add(1) // a peer that stopped reading: Serve reports it
		}
		return err == nil
	}
	for {
		// Control frames first.
		select {
		case f := <-ss.ctrl:
			if !write(f) || f.kind == websocket.CloseMessage {
				return
			}
			continue
		default:
		}
		select {
		case f := <-ss.ctrl:
			if !write(f) || f.kind == websocket.CloseMessage {
				return
			}
		case f := <-ss.out:
			if f.seq != 0 && f.seq < ss.latest.Load() {
				if f.pooled != nil {
					*f.pooled = (*f.pooled)[:0]
					framePool.Put(f.pooled)
				}
				continue // superseded: the page no longer wants it
			}
			if !write(f) {
				return
			}
		case <-ping.C:
			if !write(frame{kind: websocket.PingMessage}) {
				return
			}
		case <-ss.ctx.Done():
			// A close frame the reader owed (1009, or the reply to the
			// peer's close) may be queued as the session ends.
			for {
				select {
				case f := <-ss.ctrl:
					if f.kind == websocket.CloseMessage {
						write(f)
						return
					}
					continue
				default:
				}
				break
			}
			var why *closeReason // shutting down (1001) or evicted (1013)
			if errors.As(context.Cause(ss.ctx), &why) {
				write(frame{kind: websocket.CloseMessage, data: websocket.FormatCloseMessage(why.code, why.text)})
			}
			// The reader waits for the peer's close reply; a peer that
			// never sends one must not hold the session (or a shutdown).
			_ = c.SetReadDeadline(time.Now().Add(closeGrace))
			return
		}
	}
}

// answerEdit answers one edit, sharing the answer with every session
// that asks the same (answers.go).
//
// An edit the work budget cannot hold is answered with an error of code
// "busy" (or "too-large") and the session carries on. runEdit returns
// that refusal rather than emitting it, so that the answers cache never
// keeps it: its waiters take their own turn at the budget.
func (h *Hub) answerEdit(ctx context.Context, locale string, msg clientMsg, emit func(frame) error) error {
	var err error
	if h.Answers == nil || msg.Seq <= 0 {
		err = h.runEdit(ctx, msg, emit)
	} else {
		compute := func(emit func(frame) error) error { return h.runEdit(ctx, msg, emit) }
		page := msg.Page
		if page == "" {
			page = "layout"
		}
		err = h.Answers.answer(ctx, answerKey{page: page, query: msg.Query, locale: locale, frames: msg.Frames}, msg.Seq, compute, emit)
	}
	var be *budget.Error
	if !errors.As(err, &be) {
		return err
	}
	m := ErrorMsg{V: ProtocolVersion, Type: "error", Seq: msg.Seq, Code: be.Code(), Message: be.Error()}
	if be.Busy {
		m.RetryAfter = budget.RetryAfter
	}
	return emit(frame{kind: websocket.TextMessage, data: mustJSON(m), seq: msg.Seq})
}

// runEdit is the server side of one edit: its explorer's answer
// (explorer.Kind's Answer), sent as text, frames and done. emit queues
// one frame; it fails when the edit is superseded.
func (h *Hub) runEdit(ctx context.Context, msg clientMsg, emit func(frame) error) error {
	text := func(v any) frame { return frame{kind: websocket.TextMessage, data: mustJSON(v), seq: msg.Seq} }
	fail := func(m string) error {
		return emit(text(ErrorMsg{V: ProtocolVersion, Type: "error", Seq: msg.Seq, Message: m}))
	}
	k, ok := h.kind(msg.Page)
	if !ok {
		return fail("unknown page " + quote(msg.Page) + "; the pages are " + h.pageNames())
	}
	if len(msg.Query) > k.MaxQuery() {
		return fail("the query is too long")
	}
	q, err := url.ParseQuery(strings.TrimPrefix(msg.Query, "?"))
	if err != nil {
		return fail("the query is not valid: " + err.Error())
	}
	a, err := k.Answer(ctx, q, explorer.AnswerOptions{HTML: true, Take: h.take})
	if err != nil {
		return err
	}
	defer a.Release()
	explorer.SetSeq(a.Result, msg.Seq)
	if err := emit(text(a.Result)); err != nil || !a.Drawn {
		return err
	}
	if a.Stream != nil {
		if err := a.Stream(ctx, framesOut{ctx: ctx, seq: msg.Seq, emit: emit, runs: msg.Frames == "runs"}); err != nil {
			return err
		}
	}
	return emit(text(doneMsg{V: ProtocolVersion, Type: "done", Seq: msg.Seq}))
}

// take takes n from the edits' work budget (none: unbounded).
func (h *Hub) take(ctx context.Context, n int64) (func(), error) {
	return h.Budget.Take(ctx, n)
}

// framesOut sends an answer's binary frames (docs/protocol.md, "Binary
// frames"): a newer edit cancels ctx, and emit fails, between frames.
type framesOut struct {
	ctx  context.Context
	seq  int64
	emit func(frame) error
	runs bool // the page reads EncodingRuns
}

// asRuns is the frame with header hdr and the bitmap words as runs, when
// the page reads runs and they are smaller; it writes over hdr's array.
func (o framesOut) asRuns(hdr []byte, words []uint64) ([]byte, bool) {
	if !o.runs {
		return nil, false
	}
	return appendRuns(hdr, words, 8*len(words))
}

// Bits sends a bitmap as uint64 words, WordsPerFrame a frame; the first
// item of a frame is a word index.
func (o framesOut) Bits(kind byte, bm []uint64, frames int) error {
	for k := range frames {
		if err := o.ctx.Err(); err != nil {
			return err
		}
		first := int64(k) * WordsPerFrame
		words := bm[first:min(first+WordsPerFrame, int64(len(bm)))]
		bp, b := frameBuf(FrameHeaderLen + 8*len(words))
		putFrameHeader(b, kind, o.seq, k, frames, first)
		if r, ok := o.asRuns(b[:FrameHeaderLen], words); ok {
			b[2] = EncodingRuns
			*bp, b = r, r
		} else {
			for i, wd := range words {
				binary.LittleEndian.PutUint64(b[FrameHeaderLen+8*i:], wd)
			}
		}
		if err := o.emit(frame{kind: websocket.BinaryMessage, data: b, seq: o.seq, pooled: bp}); err != nil {
			return err
		}
	}
	return nil
}

// Counts sends a count per cell, saturated at 255, CountsPerFrame a
// frame.
func (o framesOut) Counts(kind byte, counts []uint32, frames int) error {
	for k := range frames {
		if err := o.ctx.Err(); err != nil {
			return err
		}
		first := int64(k) * CountsPerFrame
		cs := counts[first:min(first+CountsPerFrame, int64(len(counts)))]
		bp, b := frameBuf(FrameHeaderLen + len(cs))
		putFrameHeader(b, kind, o.seq, k, frames, first)
		p := b[FrameHeaderLen:]
		for i, c := range cs {
			p[i] = byte(min(c, 255))
		}
		if err := o.emit(frame{kind: websocket.BinaryMessage, data: b, seq: o.seq, pooled: bp}); err != nil {
			return err
		}
	}
	return nil
}

// kind is the explorer of an edit's page ("": the layout explorer, the
// protocol's default).
func (h *Hub) kind(page string) (explorer.Kind, bool) {
	if page == "" {
		page = "layout"
	}
	return h.kinds().Find(page)
}

func (h *Hub) kinds() explorer.Kinds {
	if h.Pages.Kinds != nil {
		return h.Pages.Kinds
	}
	return ops.All()
}

// pages is h.Pages with its explorers (kinds).
func (h *Hub) pages() explorer.Pages {
	p := h.Pages
	p.Kinds = h.kinds()
	return p
}

// pageNames lists the pages an edit may name, for an error.
func (h *Hub) pageNames() string { return pageList(h.kinds()) }

// pageList names the explorers' pages, for an error.
func pageList(ks explorer.Kinds) string {
	var b strings.Builder
	for i, k := range ks {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quote(k.Name()))
	}
	return b.String()
}
