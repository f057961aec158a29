package web

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/labstack/echo/v4"
	"rsc.io/qr"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/rooms"
	"github.com/stridescope/stridescope/rooms/natsbus"
	"github.com/stridescope/stridescope/views"
)

// Room limits of one replica.
const (
	joinFailLimit  = 30               // failed joins per client address per window, before the slow lane
	joinFailWindow = time.Minute      // the window of joinFailLimit
	joinSlowEvery  = 2 * time.Second  // past the limit: one lookup per this, per address
	joinSlowWait   = 3 * time.Second  // how long a lookup waits for its turn in the slow lane
	createLimit    = 30               // rooms one client address may open per window
	createWindow   = 10 * time.Minute // the window of createLimit
)

// errRoomsClosed: the server has been closed.
var errRoomsClosed = errors.New("rooms are closed")

// roomService is the server's rooms, started on first use so that a
// server that never opens a room starts no bus.
type roomService struct {
	mu     sync.Mutex
	rooms  *rooms.Replica
	bus    rooms.Bus
	ownBus bool
	stop   context.CancelFunc // ends the replica's Run
	ran    chan struct{}      // closed when Run has returned
	closed bool
	joins  joinGuard // failed joins
	opens  addrGuard // rooms opened
}

// roomsReady returns the rooms, starting them (and the embedded bus, when
// Config.Bus is nil) the first time.
func (s *Server) roomsReady() (*rooms.Replica, error) {
	rs := &s.rooms
	rs.mu.Lock()
	defer rs.mu.Unlock()
	switch {
	case rs.closed:
		return nil, errRoomsClosed
	case rs.rooms != nil:
		return rs.rooms, nil
	}
	rs.joins = joinGuard{limit: joinFailLimit, window: joinFailWindow, slowEvery: joinSlowEvery, maxWait: joinSlowWait}
	rs.opens.limit, rs.opens.window = createLimit, createWindow
	bus, own := s.cfg.Bus, false
	if bus == nil {
		b, err := natsbus.NewEmbedded(s.cfg.DataDir)
		if err != nil {
			s.log.Error("rooms: cannot start the embedded NATS server", "err", err)
			return nil, err
		}
		bus, own = b, true
	}
	secret := s.cfg.RoomSecret
	if len(secret) == 0 {
		secret = make([]byte, 32)
		_, _ = rand.Read(secret)
	}
	ctx, stop := context.WithCancel(context.Background())
	replica, ran := rooms.NewReplica(bus, secret, s.log), make(chan struct{})
	if s.cfg.MaxRooms > 0 {
		replica.SetMaxRooms(s.cfg.MaxRooms)
	}
	// Run owns the replica's goroutines; Close ends it and waits for it.
	go func() {
		defer close(ran)
		replica.Run(ctx)
	}()
	<-replica.Running() // it hears the rooms' ends before it serves a room
	rs.rooms, rs.bus, rs.ownBus, rs.stop, rs.ran = replica, bus, own, stop, ran
	return rs.rooms, nil
}

// Close stops the rooms, waiting for the replica's goroutines to end, and
// then closes the bus if the server started it (a Config.Bus stays open:
// its owner closes it). Serve calls it when it returns; a server used only
// through Handler should call it when done.
func (s *Server) Close() error {
	rs := &s.rooms
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if rs.closed {
		return nil
	}
	rs.closed = true
	if rs.stop != nil {
		rs.stop()
		<-rs.ran
	}
	if rs.ownBus {
		return rs.bus.Close()
	}
	return nil
}

// getReadyz says whether this replica can serve everything: 200 when the
// rooms' bus is connected (or not started yet: the embedded one starts on
// first use) and the room store can be written, 503 with the reason when
// either fails. /healthz stays 200 meanwhile: the explorers and the API
// do not need the bus. A clock off the bus's by more than the tolerance
// is said too, with 200: it is corrected (rooms.Replica.Health).
func (s *Server) getReadyz(c echo.Context) error {
	rs := &s.rooms
	rs.mu.Lock()
	bus, replica := rs.bus, rs.rooms
	rs.mu.Unlock()
	if bus == nil {
		bus = s.cfg.Bus
	}
	if bus == nil {
		return c.String(http.StatusOK, "ready\nbus: not started (embedded, starts with the first room)\n")
	}
	var b strings.Builder
	ready := bus.Up()
	if ready {
		b.WriteString("bus: connected\n")
	} else {
		b.WriteString("bus: down (rooms are reconnecting; the explorers and the API work)\n")
	}
	if replica != nil {
		h := replica.Health()
		switch {
		case !h.StoreChecked:
			b.WriteString("store: not checked yet\n")
		case h.Store != nil:
			ready = false
			fmt.Fprintf(&b, "store: cannot be written (new rooms fail until it is back; it is checked every second and its bucket made again if gone): %v\n", h.Store)
		default:
			b.WriteString("store: writable\n")
		}
		if h.ClockKnown && h.ClockOffset.Abs() > h.ClockTolerance {
			dir := "behind"
			if h.ClockOffset < 0 {
				dir = "ahead of"
			}
			fmt.Fprintf(&b, "clock: %v %s the bus's, more than the %v tolerance (corrected; run NTP)\n", h.ClockOffset.Abs().Round(time.Millisecond), dir, h.ClockTolerance)
		}
	}
	if ready {
		return c.String(http.StatusOK, "ready\n"+b.String())
	}
	c.Response().Header().Set("Retry-After", "2")
	return c.String(http.StatusServiceUnavailable, "not ready\n"+b.String())
}

func (s *Server) roomRoutes() {
	e := s.echo
	e.Use(s.roomPages)
	e.POST("/rooms", s.postRooms)
	e.GET("/join", s.getJoin)
	e.GET("/r/:code", s.getRoom)
	e.POST("/r/:code/end", s.postEndRoom)
	e.GET("/r/:code/answer", s.getAnswer)
	e.POST("/r/:code/answer", s.postAnswer)
}

// roomPages tells the page frame about rooms on every page that can be
// shared: the "Present this" button, or with ?room=CODE and the room's
// presenter cookie, the presenter's bar. Without the cookie ?room=CODE is
// a viewer's link: it goes to /r/CODE.
func (s *Server) roomPages(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		r := c.Request()
		page, step, ok := s.pages().PageAt(r.URL.Path)
		if !ok || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
			return next(c)
		}
		if _, set := views.RoomFrom(r.Context()); set {
			return next(c) // a viewer's page, from getRoom
		}
		query := withoutRoom(r.URL.RawQuery)
		rc := views.RoomContext{Present: &views.PresentForm{Page: page, Step: step, Query: query}}
		if ck, err := r.Cookie(endedCookie); err == nil {
			// The room this browser has just ended: said once.
			if code, ok := rooms.NormalizeCode(ck.Value); ok {
				rc.Ended = code
			}
			c.SetCookie(&http.Cookie{Name: endedCookie, Value: "", Path: "/", MaxAge: -1, HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: isHTTPS(r)})
		}
		if raw := r.URL.Query().Get("room"); raw != "" {
			code, ok := rooms.NormalizeCode(raw)
			if !ok {
				return next(c) // not a code: show the page as if it were absent
			}
			replica, err := s.roomsReady()
			if err != nil {
				return next(c)
			}
			// With a presenter cookie for the code, checking it looks the
			// code up: through the guard on wrong codes, as a join is
			// (without one, nothing is looked up here).
			token := presenterToken(r, code)
			authErr := rooms.ErrNotPresenter
			if token != "" {
				key := addrKey(c.RealIP())
				switch err := s.rooms.joins.Admit(r.Context(), key, code); {
				case errors.Is(err, rooms.ErrNoRoom):
					return redirectKeepingLang(c, http.StatusSeeOther, "/r/"+code) // which says so
				case err != nil:
					c.Response().Header().Set("Retry-After", "2")
					return renderJoin(c, http.StatusTooManyRequests, views.Join{Code: raw, Error: i18n.T(r.Context(), "join.err.guessing")})
				}
				authErr = replica.Authorize(r.Context(), code, token)
				s.rooms.joins.counted(key, code, authErr)
			}
			// A viewer exploring; the presenter's browser too, when another
			// of its tabs presents (it opened the join link to see what the
			// class sees): presenting here would take the room over.
			if r.URL.Query().Has("explore") && (authErr != nil || replica.PresentingNow(code)) {
				return s.exploring(c, next, replica, code, page, step)
			}
			switch err := authErr; {
			case errors.Is(err, rooms.ErrBusDown):
				return next(c) // cannot tell now: show the page; its socket presents once the bus is back
			case err != nil:
				return redirectKeepingLang(c, http.StatusSeeOther, "/r/"+code)
			}
			// The link and the QR code carry the room's join ticket: a
			// class behind one address that a hostile page has filled
			// with wrong codes still joins at once (the code typed on
			// /join goes through the guard).
			join := joinURL(r, code)
			link := withTicket(join, replica.Ticket(code))
			bar := &views.RoomBar{Role: views.RolePresenter, Code: code, Page: page, Step: step, Path: r.URL.Path, JoinURL: join, JoinLink: link, QR: qrCode(link), JoinPage: origin(r) + "/join",
				Watching: replica.Watching(code), LeaveURL: withQuery(r.URL.Path, query)}
			if k, _, ok := s.pages().StateAt(page, step, query); ok {
				if qr, ok := k.(explorer.Questioner); ok {
					bar.Questions = qr.QuestionKinds()
				}
			}
			if page == explorer.TourPage && step >= 1 && step <= len(tourSteps) && len(bar.Questions) > 0 {
				if a := tourSteps[step-1].ask; a != nil {
					raw, _ := json.Marshal(a)
					bar.TourAsk = string(raw)
				}
			}
			if isLoopback(r.Host) {
				bar.Hint = i18n.T(r.Context(), "room.hint.loopback", i18n.Args{"port": portOf(r.Host)})
			}
			rc = views.RoomContext{Bar: bar}
		}
		c.SetRequest(r.WithContext(views.WithRoom(r.Context(), rc)))
		return next(c)
	}
}

// exploring shows a page a viewer of room code went to on their own
// (?room=CODE&explore: another tour step, or an explorer's state kept
// across a reload) with a viewer's bar that offers to follow again. Only
// a browser that joined the room (its join ticket) is shown it; any other
// goes to /r/CODE, through the join guard.
func (s *Server) exploring(c echo.Context, next echo.HandlerFunc, replica *rooms.Replica, code, page string, step int) error {
	r := c.Request()
	ck, err := r.Cookie(joinCookie(code))
	if err != nil || !replica.ValidTicket(code, ck.Value) {
		return redirectKeepingLang(c, http.StatusSeeOther, "/r/"+code)
	}
	switch _, err := replica.Current(r.Context(), code); {
	case errors.Is(err, rooms.ErrBusDown):
		// Cannot tell now: the page, exploring; its socket says more.
	case err != nil:
		// The room has ended: the exploration goes on without it.
		return redirectKeepingLang(c, http.StatusSeeOther, withQuery(r.URL.Path, withoutRoom(r.URL.RawQuery)))
	}
	bar := &views.RoomBar{Role: views.RoleViewer, Code: code, Page: page, Step: step, Path: r.URL.Path, Watching: replica.Watching(code), Exploring: true}
	c.SetRequest(r.WithContext(views.WithRoom(r.Context(), views.RoomContext{Bar: bar})))
	return next(c)
}

// postRooms opens a room with the page's state and sends the presenter to
// the page in the room. The presenter's token travels only in a cookie:
// the URL they project holds the code, which anyone may see.
func (s *Server) postRooms(c echo.Context) error {
	r := c.Request()
	if !s.sameSitePost(r) {
		return &apiError{status: http.StatusForbidden, violations: []core.Violation{core.NewMsg("room.origin", "another site may not open a room on this server", nil).At("Origin")}}
	}
	if err := parseForm(c); err != nil {
		return err
	}
	page := c.FormValue("page")
	step, _ := strconv.Atoi(c.FormValue("step"))
	if page != "tour" {
		step = 0 // only the tour has steps
	}
	path, ok := s.pages().PagePath(page, step)
	if page == "tour" && !ok {
		return badRequest("step", "room.step", "the tour has steps 1 to {n}; {step} is not one of them", core.Args{"n": len(tourSteps), "step": c.FormValue("step")})
	}
	if !ok {
		return badRequest("page", "room.page", "page {page:q} cannot be presented", core.Args{"page": page})
	}
	query := withoutRoom(strings.TrimPrefix(c.FormValue("query"), "?"))
	if limit := s.kinds.MaxQuery(page); len(query) > limit {
		return badRequest("query", "query.long", "the query is longer than {limit} bytes", core.Args{"limit": limit})
	}
	replica, err := s.roomsReady()
	if err != nil {
		return unavailable(c, core.NewMsg("room.off", "rooms are not available on this server", nil))
	}
	// A presenter who stopped presenting and presses "Present this" again
	// presents the room their class is in, not a new one the class knows
	// nothing of.
	ip := addrKey(c.RealIP())
	if code := s.presentedRoom(r, replica, ip); code != "" {
		return c.Redirect(http.StatusSeeOther, withQuery(path, joinQuery(query, "room="+code)))
	}
	// The address's share is taken before the room is opened, and given
	// back if none is: checked and counted apart, concurrent requests from
	// one address all passed the check while the first was opening its
	// room, and opened as many rooms as they were.
	giveBack, ok := s.rooms.opens.take(ip, time.Now())
	if !ok {
		return &apiError{status: http.StatusTooManyRequests, violations: []core.Violation{core.NewMsg("room.many", "this address has opened many rooms lately; use one of them, or try again later", nil).At("")}}
	}
	code, token, err := replica.CreateFor(r.Context(), ip, rooms.State{Page: page, Query: query, Step: step})
	if err != nil {
		giveBack()
	}
	switch {
	case errors.Is(err, rooms.ErrRoomsFull):
		return unavailable(c, core.NewMsg("room.full", "every room on this server is in use; try again later", nil))
	case errors.Is(err, rooms.ErrRoomState):
		return badRequest("query", "query.long", "the query is longer than {limit} bytes", core.Args{"limit": s.kinds.MaxQuery(page)})
	case errors.Is(err, rooms.ErrBusDown):
		s.log.Warn("rooms: cannot open a room", "err", err)
		return unavailable(c, core.NewMsg("room.down", "the room service is not reachable right now; try again in a moment", nil))
	case err != nil:
		return err
	}
	c.SetCookie(&http.Cookie{
		Name: presenterCookie(code), Value: token, Path: "/", Expires: rooms.TokenExpiry(token),
		MaxAge:   int(time.Until(rooms.TokenExpiry(token)) / time.Second),
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: isHTTPS(r),
	})
	return c.Redirect(http.StatusSeeOther, withQuery(path, joinQuery(query, "room="+code)))
}

// presentedRoom is the newest room still open that this browser presents
// (its presenter cookies), or "": pressed in another tab while one
// presents, "Present this" takes the room over there (the newest tab
// presents), with the class. Only the newest few unexpired cookies are
// looked up: each is a store read, and each goes through the guard on
// wrong codes without waiting (past its limit, a cookie whose code the
// address has not found is passed over).
func (s *Server) presentedRoom(r *http.Request, replica *rooms.Replica, key string) string {
	type held struct {
		code, token string
		expires     time.Time
	}
	var cands []held
	now := time.Now()
	for c, token := range cookiesByRoom(r, presenterCookie("")) {
		code, ok := rooms.NormalizeCode(c)
		if exp := rooms.TokenExpiry(token); ok && code == c && exp.After(now) {
			cands = append(cands, held{code, token, exp})
		}
	}
	slices.SortFunc(cands, func(a, b held) int { return b.expires.Compare(a.expires) })
	for _, h := range cands[:min(len(cands), maxPresentedLookups)] {
		if !s.rooms.joins.TryAdmit(key, h.code) {
			continue
		}
		err := replica.Authorize(r.Context(), h.code, h.token)
		s.rooms.joins.counted(key, h.code, err)
		switch {
		case errors.Is(err, rooms.ErrBusDown):
			return "" // each lookup would wait for the store: the room's opening says so at once
		case err == nil:
			return h.code
		}
	}
	return ""
}

// maxPresentedLookups bounds the presenter cookies presentedRoom reads.
const maxPresentedLookups = 4

// getJoin is the form where a viewer types a code; with ?code= it sends
// them to the room.
func (s *Server) getJoin(c echo.Context) error {
	typed := strings.TrimSpace(c.QueryParam("code"))
	if typed == "" {
		return renderJoin(c, http.StatusOK, views.Join{})
	}
	code, status, msg := s.findRoom(c.Request().Context(), c.RealIP(), typed, c.Request())
	if status != http.StatusOK {
		return renderJoin(c, status, views.Join{Code: typed, Error: msg})
	}
	return redirectKeepingLang(c, http.StatusSeeOther, "/r/"+code)
}

// renderJoin answers with the join page, which is written in the
// request's language.
func renderJoin(c echo.Context, status int, j views.Join) error {
	return renderTranslated(c, status, views.JoinPage(j))
}

// getRoom is the join URL: the page the presenter shows, in its current
// state, with a viewer's bar; the page's script then follows the room.
func (s *Server) getRoom(c echo.Context) error {
	r := c.Request()
	code, status, msg := s.findRoom(r.Context(), c.RealIP(), c.Param("code"), r)
	if status != http.StatusOK {
		if status == http.StatusServiceUnavailable || status == http.StatusTooManyRequests {
			c.Response().Header().Set("Retry-After", "2")
		}
		return renderJoin(c, status, views.Join{Code: c.Param("code"), Error: msg})
	}
	replica, _ := s.roomsReady()
	// The presenter's own browser (its cookie) opening the join link, as
	// after losing their tab, goes back to presenting the room where it
	// is, not to watching it. While it presents in another tab, the link
	// shows what the class sees: presenting here would take the room over.
	if replica.Authorize(r.Context(), code, presenterToken(r, code)) == nil && !replica.PresentingNow(code) {
		if st, err := replica.Current(r.Context(), code); err == nil {
			if path, ok := s.pages().PagePath(st.Page, st.Step); ok {
				q := st.Query
				if q != "" {
					q += "&"
				}
				return redirectKeepingLang(c, http.StatusSeeOther, path+"?"+q+"room="+code)
			}
		}
	}
	c.SetCookie(&http.Cookie{Name: joinCookie(code), Value: replica.Ticket(code), Path: "/", MaxAge: int(rooms.Lifetime / time.Second),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: isHTTPS(r)})
	// Attached, the replica shows the question the room asks now, which
	// the page's form answers without JavaScript.
	st, err := replica.CurrentAttached(r.Context(), code)
	if err != nil {
		st, _ = replica.Current(r.Context(), code)
	}
	path, ok := s.pages().PagePath(st.Page, st.Step)
	if !ok {
		path, st = "/", rooms.State{Page: "layout"}
	}
	bar := &views.RoomBar{Role: views.RoleViewer, Code: code, Page: st.Page, Step: st.Step, Path: path, Watching: replica.Watching(code)}
	if st.Question != nil {
		bar.Answer = answerForm(c, replica, code, st, s.studentToken(c, replica, code))
	}
	r2 := r.Clone(views.WithRoom(r.Context(), views.RoomContext{Bar: bar}))
	r2.URL.Path, r2.URL.RawPath, r2.URL.RawQuery = path, "", st.Query
	c2 := s.echo.NewContext(r2, c.Response())
	s.echo.Router().Find(http.MethodGet, path, c2)
	return c2.Handler()(c2)
}

// postEndRoom ends the room for everyone ("End the room" in the
// presenter's bar) and takes the presenter to the page the room showed,
// without the room. A browser without the room's presenter cookie ends
// nothing and learns nothing; one with a cookie of a room that is gone
// (a second click, a room ended in another tab) goes on to the page, but
// past the guard on wrong codes, as a join does.
func (s *Server) postEndRoom(c echo.Context) error {
	r := c.Request()
	if !s.sameSitePost(r) {
		return &apiError{status: http.StatusForbidden, violations: []core.Violation{core.NewMsg("room.endOrigin", "another site may not end a room on this server", nil).At("Origin")}}
	}
	replica, err := s.roomsReady()
	if err != nil {
		return unavailable(c, core.NewMsg("room.off", "rooms are not available on this server", nil))
	}
	notPresenter := &apiError{status: http.StatusForbidden, violations: []core.Violation{core.NewMsg("room.notPresenter", "only the room's presenter can end it, from the browser that presents it", nil).At("")}}
	code, ok := rooms.NormalizeCode(c.Param("code"))
	token := presenterToken(r, code)
	if !ok || token == "" {
		return notPresenter
	}
	key := addrKey(c.RealIP())
	back, gone := "/", false
	switch err := s.rooms.joins.Admit(r.Context(), key, code); {
	case errors.Is(err, rooms.ErrNoRoom):
		gone = true // a code this address found wrong: nothing to look up
	case err != nil:
		c.Response().Header().Set("Retry-After", "2")
		return &apiError{status: http.StatusTooManyRequests, violations: []core.Violation{core.NewMsg("room.guessing", "too many wrong room codes from this address; wait a moment", nil).At("")}}
	default:
		st, err := replica.Current(r.Context(), code)
		if path, ok := s.pages().PagePath(st.Page, st.Step); err == nil && ok {
			back = withQuery(path, st.Query)
		}
		s.rooms.joins.counted(key, code, err)
		gone = errors.Is(err, rooms.ErrNoRoom)
	}
	err = rooms.ErrNoRoom
	if !gone {
		err = replica.End(r.Context(), code, token)
	}
	switch {
	case errors.Is(err, rooms.ErrNoRoom):
	case errors.Is(err, rooms.ErrNotPresenter):
		return notPresenter
	case errors.Is(err, rooms.ErrBusDown):
		s.log.Warn("rooms: cannot end a room", "room", code, "err", err)
		return unavailable(c, core.NewMsg("room.down", "the room service is not reachable right now; try again in a moment", nil))
	case err != nil:
		return err
	}
	c.SetCookie(&http.Cookie{Name: presenterCookie(code), Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: isHTTPS(r)})
	c.SetCookie(&http.Cookie{Name: endedCookie, Value: code, Path: "/", MaxAge: 60,
		HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: isHTTPS(r)})
	return redirectKeepingLang(c, http.StatusSeeOther, back)
}

// endedCookie tells the page a presenter lands on after ending a room
// that they did (a minute at most, read once): the address stays the
// page's own.
const endedCookie = "stridescope_ended"

// codeProblem says what is wrong with a typed code that no room can
// have: the characters no code holds (a student who read a 0 for an O
// learns that codes have neither), and its length when that is wrong too.
func codeProblem(ctx context.Context, typed string) string {
	strangers := rooms.CodeStrangers(typed)
	if len(strangers) == 0 {
		return i18n.T(ctx, "join.err.format")
	}
	quoted := make([]string, len(strangers))
	for i, c := range strangers {
		quoted[i] = strconv.Quote(string(c))
	}
	msg := i18n.T(ctx, "join.err.chars", i18n.Args{"chars": strings.Join(quoted, ", ")})
	if utf8.RuneCountInString(rooms.BareCode(typed)) != rooms.CodeLen {
		msg += " " + i18n.T(ctx, "join.err.format")
	}
	return msg
}

// findRoom checks a typed code: 200 and the code, or the status and the
// message to show. Wrong codes are counted per client address: past the
// limit, that address's lookups go through a slow lane (joinGuard), so
// nobody finds rooms by trying codes, yet the right code still gets in. A
// browser that has found the room before (its join ticket, in r's
// cookies) skips the guard.
func (s *Server) findRoom(ctx context.Context, ip, typed string, r *http.Request) (string, int, string) {
	replica, err := s.roomsReady()
	if err != nil {
		return "", http.StatusServiceUnavailable, i18n.T(ctx, "join.err.unavailable")
	}
	code, ok := rooms.NormalizeCode(typed)
	if !ok {
		return "", http.StatusBadRequest, codeProblem(ctx, typed)
	}
	key := addrKey(ip)
	ticket := ""
	if ck, err := r.Cookie(joinCookie(code)); err == nil {
		ticket = ck.Value
	}
	// A browser that has found the room before (its join ticket), or
	// that opens the presenter's join link or QR code (its ?k=), is not
	// guessing: the guard is for codes it has not found.
	if !replica.ValidTicket(code, ticket) && !replica.ValidTicket(code, r.URL.Query().Get("k")) {
		switch err := s.rooms.joins.Admit(ctx, key, code); {
		case errors.Is(err, rooms.ErrNoRoom):
			return "", http.StatusNotFound, i18n.T(ctx, "join.err.none", i18n.Args{"code": views.DisplayCode(code)})
		case err != nil:
			return "", http.StatusTooManyRequests, i18n.T(ctx, "join.err.guessing")
		}
	}
	_, err = replica.Current(ctx, code)
	s.rooms.joins.counted(key, code, err)
	switch {
	case errors.Is(err, rooms.ErrNoRoom):
		return "", http.StatusNotFound, i18n.T(ctx, "join.err.none", i18n.Args{"code": views.DisplayCode(code)})
	case err != nil:
		return "", http.StatusServiceUnavailable, i18n.T(ctx, "join.err.reconnecting")
	}
	return code, http.StatusOK, ""
}

// unavailable is a 503 that says when to try again.
func unavailable(c echo.Context, msg core.Msg) error {
	c.Response().Header().Set("Retry-After", "2")
	return &apiError{status: http.StatusServiceUnavailable, violations: []core.Violation{msg.At("")}}
}

// sameSitePost refuses a form posted from another site. Browsers say
// where a request comes from in Sec-Fetch-Site; the page's no-referrer
// policy makes their Origin "null" on a form post, so Origin only counts
// for older browsers that do not send Sec-Fetch-Site.
func (s *Server) sameSitePost(r *http.Request) bool {
	switch r.Header.Get("Sec-Fetch-Site") {
	case "same-origin", "none":
		return true
	case "":
		return r.Header.Get("Origin") == "null" || s.originAllowed(r)
	}
	return false
}

func presenterCookie(code string) string { return "stridescope_presenter_" + code }

// joinCookie holds a room's join ticket (rooms.Replica.Ticket).
func joinCookie(code string) string { return "stridescope_join_" + code }

func presenterToken(r *http.Request, code string) string {
	if c, err := r.Cookie(presenterCookie(code)); err == nil {
		return c.Value
	}
	return ""
}

// isHTTPS says whether the page was loaded over TLS, directly or through
// a proxy that says so.
func isHTTPS(r *http.Request) bool {
	return r.TLS != nil || strings.EqualFold(r.Header.Get("X-Forwarded-Proto"), "https")
}

// joinURL is the absolute URL of a room for viewers, on the host the
// presenter used.
func joinURL(r *http.Request, code string) string {
	u := origin(r) + "/r/" + code
	// A phone that scans the code has none of our cookies: the class opens
	// the room in the language the presenter's page is in (each viewer can
	// switch).
	if q := i18n.LangQuery(r.Context()); q != "" {
		u += "?" + q
	}
	return u
}

// origin is the scheme and host the request came to.
func origin(r *http.Request) string {
	if isHTTPS(r) {
		return "https://" + r.Host
	}
	return "http://" + r.Host
}

// withTicket is the join URL u with the room's join ticket.
func withTicket(u, ticket string) string {
	sep := "?"
	if strings.Contains(u, "?") {
		sep = "&"
	}
	return u + sep + "k=" + url.QueryEscape(ticket)
}

// isLoopback says whether a Host header names this computer only.
func isLoopback(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// withoutRoom is a query without its room: ?room= and a viewer's ?explore.
func withoutRoom(raw string) string {
	return withoutParam(withoutParam(raw, "room"), "explore")
}

// withoutParam drops every key=value pair of key from a raw query,
// keeping the rest as it is.
func withoutParam(raw, key string) string {
	parts := strings.Split(raw, "&")
	out := parts[:0]
	for _, p := range parts {
		if p == "" {
			continue
		}
		k, _, _ := strings.Cut(p, "=")
		if uk, err := url.QueryUnescape(k); k == key || (err == nil && uk == key) {
			continue
		}
		out = append(out, p)
	}
	return strings.Join(out, "&")
}

func joinQuery(a, b string) string {
	if a == "" {
		return b
	}
	return a + "&" + b
}

func withQuery(path, query string) string {
	if query == "" {
		return path
	}
	return path + "?" + query
}

// qrCode draws text as a QR code (error correction M) with a quiet zone
// of 4 modules, one SVG path of horizontal runs.
func qrCode(text string) views.QRCode {
	c, err := qr.Encode(text, qr.M)
	if err != nil {
		return views.QRCode{}
	}
	const quiet = 4
	var b strings.Builder
	for y := range c.Size {
		for x := 0; x < c.Size; {
			if !c.Black(x, y) {
				x++
				continue
			}
			run := 1
			for x+run < c.Size && c.Black(x+run, y) {
				run++
			}
			b.WriteString("M" + strconv.Itoa(x+quiet) + " " + strconv.Itoa(y+quiet) + "h" + strconv.Itoa(run) + "v1h-" + strconv.Itoa(run) + "z")
			x += run
		}
	}
	return views.QRCode{Size: c.Size + 2*quiet, Path: b.String()}
}

// addrGuard counts events per client address in fixed windows: rooms
// opened.
type addrGuard struct {
	limit  int
	window time.Duration

	mu     sync.Mutex
	m      map[string]*guardWindow
	pruned time.Time // the last scan for finished windows
}

type guardWindow struct {
	start time.Time
	n     int
}

// take counts one event from ip unless ip has had limit in its window;
// giveBack uncounts it (the event did not happen after all).
func (g *addrGuard) take(ip string, now time.Time) (giveBack func(), ok bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.m == nil {
		g.m = map[string]*guardWindow{}
	}
	prune(g.m, func(w *guardWindow) time.Time { return w.start }, g.window, now, &g.pruned)
	w, ok := g.m[ip]
	if !ok || now.Sub(w.start) >= g.window {
		w = &guardWindow{start: now}
		g.m[ip] = w
	}
	if w.n >= g.limit {
		return func() {}, false
	}
	w.n++
	return func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		if g.m[ip] == w && w.n > 0 {
			w.n--
		}
	}, true
}

// prune forgets a guard's finished windows once its map holds more than
// pruneAbove addresses, scanning at most once a second: a scan on every
// wrong code would cost each of them the whole map.
func prune[W any](m map[string]W, start func(W) time.Time, window time.Duration, now time.Time, last *time.Time) {
	const pruneAbove, pruneEvery = 10000, time.Second
	if len(m) <= pruneAbove || now.Sub(*last) < pruneEvery {
		return
	}
	*last = now
	for k, w := range m {
		if now.Sub(start(w)) >= window {
			delete(m, k)
		}
	}
}

// portOf is the port of a request's Host, the scheme's default when it
// names none: the server's hints name the port it was reached on.
func portOf(host string) string {
	if _, port, err := net.SplitHostPort(host); err == nil && port != "" {
		return port
	}
	return "80"
}
