package live

import (
	"context"
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

	"github.com/a-h/templ"
	"github.com/gorilla/websocket"
	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
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
		page := "layout" // runEdit answers every page but the slice explorer's as the layout explorer
		if msg.Page == "slice" {
			page = msg.Page
		}
		err = h.Answers.answer(ctx, answerKey{page: page, query: msg.Query, locale: locale}, msg.Seq, compute, emit)
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

// editAnswer is the server's answer to one edit, before any of it is
// sent: the message sent first (a result, or an error), and for a
// picture drawn, the binary frames that follow it and its "done".
type editAnswer struct {
	first   any
	drawn   bool                               // a picture: "done" follows
	stream  func(emit func(frame) error) error // its binary frames; nil: none
	release func()                             // the work budget it holds until sent
}

// runEdit is the server side of one edit: its answer (answerLayout,
// answerSlice), sent as text, frames and done. emit queues one frame; it
// fails when the edit is superseded.
func (h *Hub) runEdit(ctx context.Context, msg clientMsg, emit func(frame) error) error {
	answer := h.answerLayout
	if msg.Page == "slice" {
		answer = h.answerSlice
	}
	a, err := answer(ctx, msg, true)
	if err != nil {
		return err
	}
	defer a.release()
	text := func(v any) frame { return frame{kind: websocket.TextMessage, data: mustJSON(v), seq: msg.Seq} }
	if err := emit(text(a.first)); err != nil || !a.drawn {
		return err
	}
	if a.stream != nil {
		if err := a.stream(emit); err != nil {
			return err
		}
	}
	return emit(text(doneMsg{V: ProtocolVersion, Type: "done", Seq: msg.Seq}))
}

// answerLayout answers an edit of the layout explorer (every page but
// the slice explorer's): decode the query, Validate with core, compute
// with compute. With html false the result carries no fragments: a page
// that embeds it (FirstAnswer) is those fragments.
func (h *Hub) answerLayout(ctx context.Context, msg clientMsg, html bool) (editAnswer, error) {
	a := editAnswer{release: func() {}}
	if len(msg.Query) > picture.MaxQueryLen {
		a.first = ErrorMsg{V: ProtocolVersion, Type: "error", Seq: msg.Seq, Message: "the query is too long"}
		return a, nil
	}
	q, err := url.ParseQuery(strings.TrimPrefix(msg.Query, "?"))
	if err != nil {
		a.first = ErrorMsg{V: ProtocolVersion, Type: "error", Seq: msg.Seq, Message: "the query is not valid: " + err.Error()}
		return a, nil
	}
	st, qvs := picture.LayoutStateFromQuery(q)
	v := picture.Validate(st, qvs)
	res := ResultMsg{V: ProtocolVersion, Type: "result", Seq: msg.Seq, OK: v.Layout != nil,
		Errors: picture.NonNil(picture.Worded(ctx, v.Errors, len(st.Sizes))), Warnings: picture.NonNil(picture.Localised(ctx, v.Warnings))}
	drawn := v
	if v.Layout == nil {
		res.Query = st.CanonicalQuery(false)
		res.Form = newFormMsg(st, nil)
		// A state with errors that carries its last valid one (an entry
		// of the page's history) is drawn as its page draws it: that
		// picture under these errors.
		lv, ok := picture.LastValid(st)
		if !ok {
			a.first = res
			return a, nil
		}
		drawn = lv
	}
	// The budget is held until the last frame is queued.
	release, err := h.Budget.Take(ctx, picture.LayoutCost(drawn.Layout, picture.InEdit))
	if err != nil {
		return a, err
	}
	// Given back by runEdit once sent; here if anything fails (or
	// panics, which the session recovers from) before the answer is.
	answered := false
	defer func() {
		if !answered {
			release()
		}
	}()
	a.release = release
	cst := picture.CanonicalState(drawn)
	drawn.State = cst
	query := cst.CanonicalQuery(false)
	if res.OK {
		res.Query = query
		res.Form = newFormMsg(cst, drawn.Layout)
	} else {
		res.Last = query
	}
	pic, err := picture.New(ctx, drawn, query)
	if err != nil {
		return editAnswer{}, err
	}
	res.Meta = newMetaMsg(pic.View.Meta, pic)
	res.Alt = views.LayoutTitle(ctx, pic.View)
	res.NoSVG = pic.View.NoSVG
	if html {
		keys := fragments{}
		res.HTML = &htmlMsg{
			Logical:    keys.render(ctx, "logical", views.LogicalView(pic.View.Logical)),
			Buffer:     keys.render(ctx, "buffer", views.BufferView(pic.View.Buffer)),
			Facts:      keys.render(ctx, "facts", views.FactsView(pic.View.Facts)),
			LogicalSub: views.LogicalSubIn(ctx, pic.View.Meta),
			BufferSub:  views.BufferSubIn(ctx, pic.View.Meta),
			Keys:       keys,
		}
	}
	res.Counts = pic.Counts
	l := pic.Layout
	cells := l.BufferElementCount()
	var stream streamMsg
	touched := l.HasOverlap() == core.TriFalse
	if pic.View.Buffer.Mode == views.ModeCanvas {
		if touched {
			stream.CountKind, stream.CountFrames = "touched", int(((cells+63)/64+WordsPerFrame-1)/WordsPerFrame)
		} else {
			stream.CountKind, stream.CountFrames = "counts", int((cells+CountsPerFrame-1)/CountsPerFrame)
		}
	}
	a.first, a.drawn = res, true
	if stream.CountFrames > 0 {
		res.Stream = &stream
		a.first = res
		a.stream = func(emit func(frame) error) error {
			return h.streamCounts(ctx, msg.Seq, pic.Walk, cells, touched, stream.CountFrames, emit)
		}
	}
	answered = true
	return a, nil
}

// Scratch that grows with the tensor, reused across edits rather than
// allocated per edit: every frame copies out of it into a frameBuf (and the
// answers cache clones frames), so it is free again once the stream
// function that took it returns. sync.Pool drops it when the heap is
// collected, so a 16M edit's counts are not kept for ever.
var (
	bitsPool   sync.Pool // *[]uint64, compute.TouchedInto's bitmap
	countsPool sync.Pool // *[]uint32, compute.CellCountsInto's counts
)

// touchedScratch is compute.Touched into a pooled bitmap; put returns it.
func touchedScratch(ctx context.Context, w compute.Walk, cells int64) (bm []uint64, put func(), err error) {
	bp, _ := bitsPool.Get().(*[]uint64)
	if bp == nil {
		bp = new([]uint64)
	}
	bm, err = compute.TouchedInto(ctx, w, cells, *bp)
	if err != nil {
		bitsPool.Put(bp)
		return nil, nil, err
	}
	*bp = bm
	return bm, func() { bitsPool.Put(bp) }, nil
}

// streamCounts sends the buffer view's highlight: a bitmap of the cells
// in use when no two elements share a cell, else a saturated count per
// cell.
func (h *Hub) streamCounts(ctx context.Context, seq int64, w compute.Walk, cells int64, touched bool, frames int, emit func(frame) error) error {
	if touched {
		bm, put, err := touchedScratch(ctx, w, cells)
		if err != nil {
			return err
		}
		defer put()
		return streamBits(ctx, seq, FrameTouched, bm, frames, emit)
	}
	cp, _ := countsPool.Get().(*[]uint32)
	if cp == nil {
		cp = new([]uint32)
	}
	defer countsPool.Put(cp)
	counts, err := compute.CellCountsInto(ctx, w, cells, *cp)
	if err != nil {
		return err
	}
	*cp = counts
	for k := range frames {
		first := int64(k) * CountsPerFrame
		cs := counts[first:min(first+CountsPerFrame, cells)]
		bp, b := frameBuf(FrameHeaderLen + len(cs))
		putFrameHeader(b, FrameCounts, seq, k, frames, first)
		p := b[FrameHeaderLen:]
		for i, c := range cs {
			p[i] = byte(min(c, 255))
		}
		if err := emit(frame{kind: websocket.BinaryMessage, data: b, seq: seq, pooled: bp}); err != nil {
			return err
		}
	}
	return nil
}

// fragments are the keys of an answer's fragments by name (html.keys).
type fragments map[string]string

// render renders c as the fragment name and keeps its key: a fragment that
// fails to render is sent empty and without a key, as before keys.
func (f fragments) render(ctx context.Context, name string, c templ.Component) string {
	fr, err := views.RenderFragment(ctx, c)
	if err != nil || fr.HTML == "" {
		return ""
	}
	f[name] = fr.Key
	return fr.HTML
}
