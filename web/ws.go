package web

import (
	"bufio"
	"context"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/live"
)

var upgrader = websocket.Upgrader{
	ReadBufferSize:    4 << 10,
	WriteBufferSize:   64 << 10,
	EnableCompression: false,
	// The origin is checked before Upgrade is called (originAllowed), so
	// that a refusal is a plain 403.
	CheckOrigin: func(*http.Request) bool { return true },
}

// originAllowed accepts the server's own origin (the Origin's host equals
// the Host the request was sent to) and the configured allow-list. A
// request without Origin is not from a browser page and cannot be a
// cross-site request; it is accepted.
func (s *Server) originAllowed(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return false
	}
	if (u.Scheme == "http" || u.Scheme == "https") && strings.EqualFold(u.Host, r.Host) {
		return true
	}
	for _, a := range s.cfg.AllowedOrigins {
		if strings.EqualFold(strings.TrimRight(a, "/"), origin) {
			return true
		}
	}
	return false
}

// getWS upgrades GET /ws to the explorer's live session.
func (s *Server) getWS(c echo.Context) error {
	r := c.Request()
	if !s.originAllowed(r) {
		return &apiError{status: http.StatusForbidden, violations: []core.Violation{core.NewMsg("ws.origin", "this origin may not open a websocket on this server", nil).At("Origin")}}
	}
	slot, status, msg := s.conns.acquire(c.RealIP())
	if slot == nil {
		return &apiError{status: status, violations: []core.Violation{msg.At("")}}
	}
	defer slot.release()
	s.sessions.Add(1)
	defer s.sessions.Done()
	w := &cutHijacker{ResponseWriter: c.Response(), h: c.Response()}
	conn, err := upgrader.Upgrade(w, r, nil)
	if err != nil {
		return nil // Upgrade has answered the request with the reason
	}
	loc := i18n.LocaleOf(r.Context())
	key, withLocale := string(loc), func(ctx context.Context) context.Context { return i18n.WithLocale(ctx, loc) }
	if _, ok := i18n.Parse(r.URL.Query().Get("urllang")); ok {
		// The page's own URL asks for its language (?lang=, sent as
		// urllang= and judged as the page's render judged it), so the
		// links in its answers keep it as the page's do; such answers are
		// shared only with pages that ask the same way.
		asked := &url.URL{Path: "/", RawQuery: "lang=" + url.QueryEscape(string(loc))}
		key, withLocale = key+"+url", func(ctx context.Context) context.Context {
			return i18n.WithURL(i18n.WithLocale(ctx, loc), asked)
		}
	}
	peer := live.Peer{AddrKey: addrKey(c.RealIP()), Tokens: cookiesByRoom(r, presenterCookie("")),
		Tickets: cookiesByRoom(r, joinCookie("")), Heard: slot.touch,
		Locale: key, WithLocale: withLocale}
	ws := &wsConn{sess: s.hub.NewSession(conn, peer), nc: w.conn}
	s.conns.attach(slot, ws)
	ws.sess.Run()
	return nil
}

// wsConn is an upgraded websocket: its session, and its connection, whose
// reads and writes the server can cut short.
type wsConn struct {
	sess *live.Session
	nc   *cutConn
}

// evictGrace is how long an evicted session has to end: a peer that
// neither reads nor answers the close is cut off then.
const evictGrace = time.Second

// evict ends the session for a newcomer (connCounter): its writer sends
// 1013, and it ends within evictGrace even if the peer neither reads nor
// answers. Its slot is already free.
func (w *wsConn) evict() {
	w.sess.End(live.ErrEvicted)
	w.nc.cut(time.Now().Add(evictGrace))
}

// cookiesByRoom are the values of the request's cookies named prefix +
// a room code, by code: presenter tokens, join tickets.
func cookiesByRoom(r *http.Request, prefix string) map[string]string {
	var byRoom map[string]string
	for _, ck := range r.Cookies() {
		if code, ok := strings.CutPrefix(ck.Name, prefix); ok {
			if byRoom == nil {
				byRoom = map[string]string{}
			}
			byRoom[code] = ck.Value
		}
	}
	return byRoom
}

// cutConn is the websocket's net.Conn. Once cut, no deadline set on it
// can extend past the cut, so a write blocked on a peer that does not read
// returns by then even though gorilla resets the deadline before each
// write. Deadlines may be set from any goroutine: cutting a session is not
// a second writer.
type cutConn struct {
	net.Conn
	mu     sync.Mutex
	end    time.Time // zero: not cut
	rd, wd time.Time // the deadlines asked for
}

func (c *cutConn) clamp(t time.Time) time.Time {
	if !c.end.IsZero() && (t.IsZero() || t.After(c.end)) {
		return c.end
	}
	return t
}

func (c *cutConn) SetDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rd, c.wd = t, t
	return c.Conn.SetDeadline(c.clamp(t))
}

func (c *cutConn) SetReadDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.rd = t
	return c.Conn.SetReadDeadline(c.clamp(t))
}

func (c *cutConn) SetWriteDeadline(t time.Time) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.wd = t
	return c.Conn.SetWriteDeadline(c.clamp(t))
}

// CloseWrite half-closes the connection (halfClose).
func (c *cutConn) CloseWrite() error { return halfClose(c.Conn) }

// cut makes every read and write end by t (an earlier cut stands).
func (c *cutConn) cut(t time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.end.IsZero() && !t.Before(c.end) {
		return
	}
	c.end = t
	_ = c.Conn.SetReadDeadline(c.clamp(c.rd))
	_ = c.Conn.SetWriteDeadline(c.clamp(c.wd))
}

// cutHijacker hands the upgrader a cutConn in place of the hijacked
// connection.
type cutHijacker struct {
	http.ResponseWriter
	h    http.Hijacker
	conn *cutConn
}

func (w *cutHijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	nc, brw, err := w.h.Hijack()
	if err != nil {
		return nil, nil, err
	}
	w.conn = &cutConn{Conn: nc}
	return w.conn, brw, nil
}
