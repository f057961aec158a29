package web

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/gorilla/websocket"
	"github.com/stridescope/stridescope/rooms"
	"github.com/stridescope/stridescope/rooms/natsbus"
	"github.com/stridescope/stridescope/rooms/natstest"
	"rsc.io/qr"
)

// roomServer is a real server on a loopback listener whose rooms close
// with the test.
func roomServer(t *testing.T, cfg Config) (*Server, *httptest.Server) {
	t.Helper()
	s, ts := wsServer(t, cfg, nil)
	t.Cleanup(func() { s.Close() })
	return s, ts
}

// noRedirect is a client that shows redirects instead of following them.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }, Timeout: 10 * time.Second}

// openRoom presses "Present this" on the layout page with query and
// returns the room's code, where the presenter is sent, and the cookie.
func openRoom(t *testing.T, ts *httptest.Server, query string) (code, location string, cookie *http.Cookie) {
	t.Helper()
	return openRoomWith(t, ts, url.Values{"page": {"layout"}, "query": {query}})
}

// openRoomWith posts the "Present this" form.
func openRoomWith(t *testing.T, ts *httptest.Server, form url.Values) (code, location string, cookie *http.Cookie) {
	t.Helper()
	res, err := noRedirect.PostForm(ts.URL+"/rooms", form)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		t.Fatalf("POST /rooms: %d, want 303", res.StatusCode)
	}
	location = res.Header.Get("Location")
	u, err := url.Parse(location)
	if err != nil {
		t.Fatal(err)
	}
	code = u.Query().Get("room")
	if _, ok := rooms.NormalizeCode(code); !ok {
		t.Fatalf("redirect %q holds no room code", location)
	}
	for _, c := range res.Cookies() {
		if c.Name == presenterCookie(code) {
			cookie = c
		}
	}
	if cookie == nil {
		t.Fatalf("no presenter cookie in %v", res.Header["Set-Cookie"])
	}
	return code, location, cookie
}

func cookieHeader(c *http.Cookie) http.Header {
	return http.Header{"Cookie": {c.Name + "=" + c.Value}}
}

// readType reads messages until one of type typ (skipping results and
// other traffic) and decodes it.
func readType(t *testing.T, c *websocket.Conn, typ string, v any) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_ = c.SetReadDeadline(deadline)
		kind, data, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("waiting for %q: %v", typ, err)
		}
		if kind != websocket.TextMessage {
			continue
		}
		var head struct{ Type string }
		if json.Unmarshal(data, &head) == nil && head.Type == typ {
			if err := json.Unmarshal(data, v); err != nil {
				t.Fatal(err)
			}
			return
		}
	}
}

func sendJSON(t *testing.T, c *websocket.Conn, v any) {
	t.Helper()
	if err := c.WriteJSON(v); err != nil {
		t.Fatal(err)
	}
}

type roomIn struct {
	Type       string      `json:"type"`
	Room       string      `json:"room"`
	State      rooms.State `json:"state"`
	Watching   int         `json:"watching"`
	Code       string      `json:"code"`
	Message    string      `json:"message"`
	Presenting bool        `json:"presenting"` // of "presence"
	Connected  bool        `json:"connected"`  // of "link"
}

// presentOn opens a presenter's socket on ts for code.
func presentOn(t *testing.T, ts *httptest.Server, code string, cookie *http.Cookie) *websocket.Conn {
	t.Helper()
	p := dial(t, ts, cookieHeader(cookie))
	sendJSON(t, p, map[string]any{"v": 2, "type": "present", "room": code})
	var m roomIn
	readType(t, p, "presenting", &m)
	if m.Room != code {
		t.Fatalf("presenting %+v", m)
	}
	return p
}

// followOn opens a viewer's socket on ts and reads the room's state.
func followOn(t *testing.T, ts *httptest.Server, code string) (*websocket.Conn, roomIn) {
	t.Helper()
	v := dial(t, ts, nil)
	sendJSON(t, v, map[string]any{"v": 2, "type": "follow", "room": code})
	var m roomIn
	readType(t, v, "room", &m)
	return v, m
}

func publish(t *testing.T, c *websocket.Conn, query, focus string) {
	t.Helper()
	sendJSON(t, c, map[string]any{"v": 2, "type": "publish", "state": map[string]any{"page": "layout", "query": query, "focus": focus}})
}

// readRoomUntil reads room states until one with query arrives.
func readRoomUntil(t *testing.T, c *websocket.Conn, query string) roomIn {
	t.Helper()
	for {
		var m roomIn
		readType(t, c, "room", &m)
		if m.State.Query == query {
			return m
		}
	}
}

func TestRoomPresentThisAndJoinPages(t *testing.T) {
	_, ts := roomServer(t, Config{})

	// The explorer offers "Present this" with its state.
	res, doc := getPage(t, ts.URL+"/?dt=FLOAT32&sizes=2,3&strides=5,1", nil)
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	form := doc.Find(tid("present-form"))
	if form.Length() != 1 || form.AttrOr("method", "") != "post" || form.AttrOr("action", "") != "/rooms" {
		t.Fatalf("no Present form")
	}
	if q := form.Find(`input[name=query]`).AttrOr("value", ""); q != "dt=FLOAT32&sizes=2,3&strides=5,1" {
		t.Errorf("the form shares %q", q)
	}

	code, loc, cookie := openRoom(t, ts, "dt=FLOAT32&sizes=2,3&strides=5,1")
	if loc != "/?dt=FLOAT32&sizes=2,3&strides=5,1&room="+code {
		t.Errorf("presenter sent to %q", loc)
	}
	if strings.Contains(loc, cookie.Value) {
		t.Error("the presenter's token is in the URL they project")
	}
	if !cookie.HttpOnly || cookie.SameSite != http.SameSiteStrictMode || cookie.Path != "/" || cookie.MaxAge <= 0 {
		t.Errorf("cookie %+v: want HttpOnly, SameSite=Strict, Path=/", cookie)
	}

	// The presenter's page: code, join URL, QR code, count; no Present button.
	_, doc = getPage(t, ts.URL+loc, cookieHeader(cookie))
	bar := doc.Find(tid("room-bar"))
	if bar.AttrOr("data-role", "") != "presenter" || bar.AttrOr("data-room", "") != code {
		t.Fatalf("presenter bar %v", bar.Nodes)
	}
	if got := doc.Find(tid("room-code")).Text(); got != code[:4]+"-"+code[4:] {
		t.Errorf("code shown as %q", got)
	}
	join := ts.URL + "/r/" + code
	if got := doc.Find(tid("room-join-url")).Text(); got != join {
		t.Errorf("join URL %q, want %q", got, join)
	}
	if d := doc.Find(tid("room-qr")+" path").AttrOr("d", ""); !strings.HasPrefix(d, "M4 4h7v1h-7z") {
		t.Errorf("the QR code does not start with a finder pattern: %.40q", d)
	}
	if doc.Find(tid("room-hint")).Length() != 1 {
		t.Error("no hint that 127.0.0.1 is out of the class's reach")
	}
	if doc.Find(tid("room-watching")).Text() != "0" || doc.Find(tid("present-form")).Length() != 0 {
		t.Error("presenter page: want 0 watching and no Present button")
	}
	if href := doc.Find(tid("room-leave")).AttrOr("href", ""); href != "/?dt=FLOAT32&sizes=2,3&strides=5,1" {
		t.Errorf("stop presenting goes to %q", href)
	}

	// The same URL without the cookie is a viewer's: it goes to the join URL.
	res2, err := noRedirect.Get(ts.URL + loc)
	if err != nil {
		t.Fatal(err)
	}
	res2.Body.Close()
	if res2.StatusCode != http.StatusSeeOther || res2.Header.Get("Location") != "/r/"+code {
		t.Errorf("without the cookie: %d %q, want 303 to /r/%s", res2.StatusCode, res2.Header.Get("Location"), code)
	}

	// The join URL: the presenter's state with a viewer's bar.
	res, doc = getPage(t, join, nil)
	if res.StatusCode != 200 {
		t.Fatalf("join URL: %d", res.StatusCode)
	}
	bar = doc.Find(tid("room-bar"))
	if bar.AttrOr("data-role", "") != "viewer" || bar.AttrOr("data-room", "") != code {
		t.Fatalf("viewer bar %v", bar.Nodes)
	}
	if got := doc.Find(tid("stride-0")).AttrOr("value", ""); got != "5" {
		t.Errorf("viewer page drawn with stride %q, want the room's 5", got)
	}
	if doc.Find(tid("present-form")).Length() != 0 {
		t.Error("a viewer's page offers Present this")
	}

	// /join: the form, a typed code (lower case, dash) goes to the room,
	// a wrong one is refused on the form.
	_, doc = getPage(t, ts.URL+"/join", nil)
	if doc.Find(tid("join-code")).Length() != 1 {
		t.Error("no code input on /join")
	}
	res3, err := noRedirect.Get(ts.URL + "/join?code=" + strings.ToLower(code[:4]+"-"+code[4:]))
	if err != nil {
		t.Fatal(err)
	}
	res3.Body.Close()
	if res3.StatusCode != http.StatusSeeOther || res3.Header.Get("Location") != "/r/"+code {
		t.Errorf("typed code: %d %q", res3.StatusCode, res3.Header.Get("Location"))
	}
	for path, want := range map[string]int{"/join?code=ZZZZ-ZZZZ": 404, "/join?code=abc": 400, "/r/ZZZZZZZZ": 404} {
		res, doc := getPage(t, ts.URL+path, nil)
		if res.StatusCode != want || doc.Find(tid("join-error")).Text() == "" {
			t.Errorf("%s: %d %q, want %d and the reason", path, res.StatusCode, doc.Find(tid("join-error")).Text(), want)
		}
	}
	// A code no room can have says what is wrong with it: the characters
	// no code holds (a 1 read for an I, an O for a 0), its length.
	for _, tc := range []struct{ typed, want string }{
		{"ZZZZ-1111", `A room code never holds "1": codes leave out 0, O, 1, I and L, which look alike. Check it with the presenter.`},
		{"abcd-234o", `A room code never holds "O": codes leave out 0, O, 1, I and L, which look alike. Check it with the presenter.`},
		{"AB1", `A room code never holds "1": codes leave out 0, O, 1, I and L, which look alike. Check it with the presenter. A room code has 8 letters and digits, like ABCD-2345.`},
		{"ABC", "A room code has 8 letters and digits, like ABCD-2345."},
		{"ABCD-234O&lang=fr", "Un code de salle ne contient jamais \"O\"\u00a0: les codes excluent 0, O, 1, I et L, qui se ressemblent. Vérifiez-le auprès de la personne qui présente."},
	} {
		res, doc := getPage(t, ts.URL+"/join?code="+tc.typed, nil)
		if got := doc.Find(tid("join-error")).Text(); res.StatusCode != http.StatusBadRequest || got != tc.want {
			t.Errorf("%s: %d %q\nwant 400 %q", tc.typed, res.StatusCode, got, tc.want)
		}
	}
}

func TestRoomCreateRefusals(t *testing.T) {
	_, ts := roomServer(t, Config{})
	res, err := noRedirect.PostForm(ts.URL+"/rooms", url.Values{"page": {"nowhere"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest {
		t.Errorf("unknown page: %d", res.StatusCode)
	}
	// The tour has steps 1 to 11: another is refused at its field, not
	// opened as a room whose page does not exist.
	for _, tc := range []struct {
		step string
		want int
		to   string
	}{{"99", 400, ""}, {"17", 400, ""}, {"-5", 400, ""}, {"16", 303, "/tour/16?room="}, {"1", 303, "/tour/1?room="}} {
		res, err := noRedirect.PostForm(ts.URL+"/rooms", url.Values{"page": {"tour"}, "step": {tc.step}})
		if err != nil {
			t.Fatal(err)
		}
		var body errorBody
		_ = json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		if res.StatusCode != tc.want || tc.want == 303 && !strings.HasPrefix(res.Header.Get("Location"), tc.to) ||
			tc.want == 400 && (len(body.Errors) != 1 || body.Errors[0].Code != "room.step" || body.Errors[0].Field != "step" || !strings.Contains(body.Errors[0].Message, tc.step)) {
			t.Errorf("tour step %s: %d %q %+v, want %d %s", tc.step, res.StatusCode, res.Header.Get("Location"), body, tc.want, tc.to)
		}
	}
	for _, tc := range []struct {
		header map[string]string
		want   int
	}{
		{map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		{map[string]string{"Origin": "null", "Sec-Fetch-Site": "cross-site"}, http.StatusForbidden},
		{map[string]string{"Origin": "null", "Sec-Fetch-Site": "same-site"}, http.StatusForbidden},
		{map[string]string{"Origin": "null", "Sec-Fetch-Site": "same-origin"}, http.StatusSeeOther}, // a browser, with no-referrer
		{map[string]string{"Origin": ts.URL}, http.StatusSeeOther},
	} {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/rooms", strings.NewReader("page=layout"))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		for k, v := range tc.header {
			req.Header.Set(k, v)
		}
		res, err = noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.want {
			t.Errorf("POST /rooms with %v: %d, want %d", tc.header, res.StatusCode, tc.want)
		}
	}
	// One address opens a few rooms, not thousands (four are open: the
	// two tour steps and the two same-origin posts above).
	opened := 4
	for ; opened < createLimit+5; opened++ {
		res, err := noRedirect.PostForm(ts.URL+"/rooms", url.Values{"page": {"layout"}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode == http.StatusTooManyRequests {
			break
		}
	}
	if opened != createLimit {
		t.Errorf("room %d was refused, want room %d", opened+1, createLimit+1)
	}
}

// getPage fetches a page with optional headers and parses it.
func getPage(t *testing.T, u string, h http.Header) (*http.Response, *goquery.Document) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, u, nil)
	for k, v := range h {
		req.Header[k] = v
	}
	return sendForPage(t, req)
}

// sendForPage sends req, following no redirect, and parses the answer as
// HTML.
func sendForPage(t *testing.T, req *http.Request) (*http.Response, *goquery.Document) {
	t.Helper()
	res, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	doc, err := goquery.NewDocumentFromReader(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, doc
}

func TestRoomWebsocketPresenterDrivesViewers(t *testing.T) {
	_, ts := roomServer(t, Config{})
	code, _, cookie := openRoom(t, ts, "dt=FLOAT32&sizes=2,3")
	p := presentOn(t, ts, code, cookie)

	// A viewer gets the room's state at once.
	v1, first := followOn(t, ts, code)
	if first.Room != code || first.State.Page != "layout" || first.State.Query != "dt=FLOAT32&sizes=2,3" {
		t.Fatalf("first state %+v", first)
	}
	// The presenter hears how many watch.
	var w roomIn
	readType(t, p, "watching", &w)
	if w.Watching != 1 {
		t.Errorf("watching %d, want 1", w.Watching)
	}

	// Edits and hovers reach the viewer, in order, with growing versions.
	publish(t, p, "dt=FLOAT32&sizes=2,3&strides=5,1", "")
	got := readRoomUntil(t, v1, "dt=FLOAT32&sizes=2,3&strides=5,1")
	publish(t, p, "dt=FLOAT32&sizes=2,3&strides=5,1", "l:3")
	var hov roomIn
	readType(t, v1, "room", &hov)
	if hov.State.Focus != "l:3" || hov.State.Version <= got.State.Version || hov.Watching != 1 {
		t.Errorf("hover %+v after %+v", hov, got)
	}

	// A late joiner gets the current state, not the first.
	v2, late := followOn(t, ts, code)
	if late.State.Query != "dt=FLOAT32&sizes=2,3&strides=5,1" || late.State.Focus != "l:3" {
		t.Errorf("late joiner got %+v", late.State)
	}

	// The viewer applies a state like its own edit: the server computes it.
	sendEdit(t, v2, 1, late.State.Query)
	if r := collect(t, v2, 1).result; !r.OK || csv32(pageOffsets(r.Meta.Sizes, r.Meta.Strides)) != "0,1,2,5,6,7" {
		t.Errorf("the viewer's edit of the room's state: %+v", r)
	}

	// Viewers cannot change the room.
	publish(t, v2, "dt=FLOAT32&sizes=9", "")
	var e roomIn
	readType(t, v2, "error", &e)
	if e.Code != "not-presenter" {
		t.Errorf("a viewer's publish: %+v", e)
	}

	// Detach: no more states; rejoin: the current one at once.
	// The unfollow and the publish travel on different connections; the
	// reply to an edit sent after the unfollow proves the server has
	// handled it (a connection's messages are handled in order).
	sendJSON(t, v2, map[string]any{"v": 2, "type": "unfollow"})
	sendEdit(t, v2, 2, "dt=FLOAT32&sizes=6")
	collect(t, v2, 2)
	publish(t, p, "dt=FLOAT32&sizes=4", "")
	readRoomUntil(t, v1, "dt=FLOAT32&sizes=4")
	sendEdit(t, v2, 3, "dt=FLOAT32&sizes=7") // a marker: everything before it has been sent
	_ = v2.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, data, err := v2.ReadMessage()
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), `"type":"room"`) {
			t.Fatalf("a detached viewer got %s", data)
		}
		if strings.Contains(string(data), `"type":"done"`) {
			break
		}
	}
	sendJSON(t, v2, map[string]any{"v": 2, "type": "follow", "room": code})
	var back roomIn
	readType(t, v2, "room", &back)
	if back.State.Query != "dt=FLOAT32&sizes=4" {
		t.Errorf("rejoined at %+v", back.State)
	}

	// The count follows viewers leaving.
	v1.Close()
	deadline := time.Now().Add(5 * time.Second)
	for w.Watching != 1 && time.Now().Before(deadline) {
		readType(t, p, "watching", &w)
	}
	if w.Watching != 1 {
		t.Errorf("after one viewer left: %d watching", w.Watching)
	}
}

func TestRoomWebsocketRefusals(t *testing.T) {
	_, ts := roomServer(t, Config{})
	code, _, cookie := openRoom(t, ts, "")
	c := dial(t, ts, nil)
	for _, tc := range []struct {
		msg  map[string]any
		code string
	}{
		{map[string]any{"v": 2, "type": "present", "room": code}, "not-presenter"}, // no cookie
		{map[string]any{"v": 2, "type": "publish", "state": map[string]any{"page": "layout"}}, "not-presenter"},
		{map[string]any{"v": 2, "type": "follow", "room": "ZZZZZZZZ"}, "no-room"},
		{map[string]any{"v": 2, "type": "follow", "room": "nope"}, "no-room"},
		{map[string]any{"v": 1, "type": "follow", "room": code}, "bad-room-message"}, // version 1
		{map[string]any{"v": 2, "type": "follow", "room": code, "extra": 1}, "bad-room-message"},
	} {
		sendJSON(t, c, tc.msg)
		var e roomIn
		readType(t, c, "error", &e)
		if e.Code != tc.code {
			t.Errorf("%v: %+v, want code %s", tc.msg, e, tc.code)
		}
	}
	// Another room's cookie is not this room's.
	other, _, otherCookie := openRoom(t, ts, "")
	w := dial(t, ts, cookieHeader(otherCookie))
	sendJSON(t, w, map[string]any{"v": 2, "type": "present", "room": code})
	var e roomIn
	readType(t, w, "error", &e)
	if e.Code != "not-presenter" {
		t.Errorf("presenting %s with %s's cookie: %+v", code, other, e)
	}
	// A presenter's state is checked.
	p := presentOn(t, ts, code, cookie)
	for _, st := range []map[string]any{
		{"page": "elsewhere", "query": ""},
		{"page": "layout", "query": strings.Repeat("x", 5000)},
		{"page": "slice", "query": strings.Repeat("x", 13000)},
		{"page": "layout", "focus": strings.Repeat("l", 100)},
		{"page": "tour", "step": 99},
		{"page": "tour", "step": -5},
	} {
		sendJSON(t, p, map[string]any{"v": 2, "type": "publish", "state": st})
		readType(t, p, "error", &e)
		if e.Code != "bad-room-state" {
			t.Errorf("state %.60v: %+v", st, e)
		}
	}
}

// TestRoomSliceStateWithTypedValues: a slice state longer than the layout
// explorer's 4 KiB (typed values; /slice takes 12 KiB) opens a room, on
// the slice page or a tour step that shows it, and is published to its
// followers; the layout explorer's limit stays.
func TestRoomSliceStateWithTypedValues(t *testing.T) {
	_, ts := roomServer(t, Config{})
	vals := make([]string, 1500)
	for i := range vals {
		vals[i] = strconv.Itoa(i % 100)
	}
	query := "dt=FLOAT32&sizes=1500&woff=0&wsize=1500&wstride=-1&vals=" + strings.Join(vals, ",")
	if len(query) <= 4096 {
		t.Fatalf("query of %d bytes: not past the layout limit", len(query))
	}
	for _, tc := range []struct {
		page, step string
		want       int
	}{{"slice", "", http.StatusSeeOther}, {"tour", "10", http.StatusSeeOther}, {"layout", "", http.StatusBadRequest}} {
		res, err := noRedirect.PostForm(ts.URL+"/rooms", url.Values{"page": {tc.page}, "step": {tc.step}, "query": {query}})
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != tc.want {
			t.Errorf("POST /rooms page=%s with a %d-byte query: %d, want %d", tc.page, len(query), res.StatusCode, tc.want)
		}
	}
	code, _, cookie := openRoom(t, ts, "")
	p := presentOn(t, ts, code, cookie)
	v := dial(t, ts, nil)
	sendJSON(t, v, map[string]any{"v": 2, "type": "follow", "room": code})
	sendJSON(t, p, map[string]any{"v": 2, "type": "publish", "state": map[string]any{"page": "slice", "query": query}})
	for {
		var m roomIn
		readType(t, v, "room", &m)
		if m.State.Query == query {
			break
		}
	}
}

// TestRoomJoinGuard: a stranger trying codes is slowed to one try per
// joinSlowEvery after joinFailLimit wrong ones, yet the right code still
// joins the room from that address (F4: a hostile page's image tags, or a
// class reconnecting, must not lock a class out of its live room).
func TestRoomJoinGuard(t *testing.T) {
	_, ts := roomServer(t, Config{})
	code, _, _ := openRoom(t, ts, "q=live")
	// A hostile page's image tags: wrong codes from the class's address.
	for i := range joinFailLimit {
		res, _ := getPage(t, ts.URL+"/r/"+wrongCode("ZZZZZZ", i), nil)
		if res.StatusCode != http.StatusNotFound {
			t.Fatalf("wrong code %d: %d, want 404", i, res.StatusCode)
		}
	}
	start := time.Now()
	if res, _ := getPage(t, ts.URL+"/r/"+code, nil); res.StatusCode != http.StatusOK {
		t.Errorf("the live room after %d wrong codes: %d, want 200", joinFailLimit, res.StatusCode)
	}
	// The websocket follow goes through the same guard and still gets in.
	c := dial(t, ts, nil)
	sendJSON(t, c, map[string]any{"v": 2, "type": "follow", "room": code})
	var m roomIn
	readType(t, c, "room", &m)
	if m.State.Query != "q=live" {
		t.Errorf("follow after the limit: %+v", m)
	}
	if d := time.Since(start); d > 2*joinSlowWait {
		t.Errorf("the right code took %v to get in past the limit", d)
	}
	t.Logf("past the limit: the live room's page and a websocket follow got in within %v", time.Since(start).Round(time.Millisecond))
	// Guessing is slowed: of many concurrent wrong codes, only those that
	// get a turn in the slow lane within joinSlowWait are looked up.
	const guesses = 12
	statuses := make(chan int, guesses)
	start = time.Now()
	for i := range guesses {
		go func() {
			res, err := http.Get(ts.URL + "/r/" + wrongCode("YYYYYY", i))
			if err != nil {
				statuses <- 0
				return
			}
			res.Body.Close()
			statuses <- res.StatusCode
		}()
	}
	looked := 0
	for range guesses {
		switch st := <-statuses; st {
		case http.StatusNotFound:
			looked++
		case http.StatusTooManyRequests:
		default:
			t.Errorf("a guess past the limit: %d, want 404 or 429", st)
		}
	}
	elapsed := time.Since(start)
	t.Logf("past the limit: %d of %d concurrent wrong guesses looked up in %v, the rest refused", looked, guesses, elapsed.Round(time.Millisecond))
	if most := int(elapsed/joinSlowEvery) + 2; looked > most || looked == 0 {
		t.Errorf("%d of %d guesses looked up in %v, want 1 to %d", looked, guesses, elapsed, most)
	}
}

// wrongCode is a well-formed code (prefix and two more symbols) that no
// test room has: codes are drawn at random, so one in 31^8 could clash.
func wrongCode(prefix string, i int) string {
	a := rooms.CodeAlphabet
	return prefix + string(a[i/len(a)%len(a)]) + string(a[i%len(a)])
}

// TestRoomSlowViewerDoesNotHoldUpOthers: a viewer that stops reading
// does not delay one that reads, and still ends on the final state.
func TestRoomSlowViewerDoesNotHoldUpOthers(t *testing.T) {
	_, ts := roomServer(t, Config{})
	code, _, cookie := openRoom(t, ts, "q=0")
	p := presentOn(t, ts, code, cookie)
	slow, _ := followOn(t, ts, code) // does not read until the end
	fast, _ := followOn(t, ts, code)
	pad := strings.Repeat("x", 3000) // fill the slow socket's buffers sooner
	start := time.Now()
	const n = 70 // within the connection's message burst
	for i := 1; i <= n; i++ {
		publish(t, p, fmt.Sprintf("q=%d&pad=%s", i, pad), "")
	}
	last := fmt.Sprintf("q=%d&pad=%s", n, pad)
	readRoomUntil(t, fast, last)
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the fast viewer got the last state after %v", d)
	}
	readRoomUntil(t, slow, last)
}

// TestRoomTwoInstances: two servers sharing only a NATS server on
// loopback; the presenter on one, viewers on the other.
// twoRoomServers is two replicas sharing a room secret and a NATS server
// on loopback, as behind a load balancer.
func twoRoomServers(t *testing.T) (a, b *httptest.Server) {
	t.Helper()
	nurl := natstest.Loopback(t)
	secret := []byte("replicas share this secret")
	newReplica := func() *httptest.Server {
		bus, err := natsbus.New(natsbus.Options{URL: nurl})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { bus.Close() })
		_, ts := roomServer(t, Config{Bus: bus, RoomSecret: secret})
		return ts
	}
	return newReplica(), newReplica()
}

func TestRoomTwoInstances(t *testing.T) {
	a, b := twoRoomServers(t)

	code, loc, cookie := openRoom(t, a, "dt=FLOAT32&sizes=2,3")
	// The join URL works on the other replica, with the room's state.
	res, doc := getPage(t, b.URL+"/r/"+code, nil)
	if res.StatusCode != 200 || doc.Find(tid("room-bar")).AttrOr("data-role", "") != "viewer" {
		t.Fatalf("join URL on B: %d", res.StatusCode)
	}
	// The presenter's page and token work on either replica.
	if _, doc := getPage(t, b.URL+loc, cookieHeader(cookie)); doc.Find(tid("room-bar")).AttrOr("data-role", "") != "presenter" {
		t.Error("B does not recognise A's presenter token")
	}

	p := presentOn(t, a, code, cookie)
	var viewers []*websocket.Conn
	for range 3 {
		v, first := followOn(t, b, code)
		if first.State.Query != "dt=FLOAT32&sizes=2,3" {
			t.Fatalf("viewer on B got %+v", first.State)
		}
		viewers = append(viewers, v)
	}
	publish(t, p, "dt=FLOAT16&sizes=4,4&strides=8,1", "b:9")
	for i, v := range viewers {
		m := readRoomUntil(t, v, "dt=FLOAT16&sizes=4,4&strides=8,1")
		if m.State.Focus != "b:9" || m.State.Page != "layout" {
			t.Errorf("viewer %d on B got %+v", i, m.State)
		}
	}
	// The presenter on A counts the viewers on B.
	var w roomIn
	deadline := time.Now().Add(5 * time.Second)
	for w.Watching != 3 && time.Now().Before(deadline) {
		readType(t, p, "watching", &w)
	}
	if w.Watching != 3 {
		t.Errorf("presenter on A sees %d watching, want 3", w.Watching)
	}
	// Only the presenter's connection changes the room, on any replica.
	publish(t, viewers[0], "dt=FLOAT32&sizes=1", "")
	var e roomIn
	readType(t, viewers[0], "error", &e)
	if e.Code != "not-presenter" {
		t.Errorf("viewer on B publishing: %+v", e)
	}
}

// TestRoomTourAndSlicePages: the slice explorer and the tour's steps can
// be presented too; the tour's step is in its path.
func TestRoomTourAndSlicePages(t *testing.T) {
	_, ts := roomServer(t, Config{})
	_, doc := getPage(t, ts.URL+"/slice", nil)
	if got := doc.Find(tid("present-form")+` input[name=page]`).AttrOr("value", ""); got != "slice" {
		t.Errorf("/slice presents page %q", got)
	}
	_, doc = getPage(t, ts.URL+"/tour/2", nil)
	form := doc.Find(tid("present-form"))
	if form.Find(`input[name=page]`).AttrOr("value", "") != "tour" || form.Find(`input[name=step]`).AttrOr("value", "") != "2" {
		t.Fatalf("tour step 2 presents %v", form.Nodes)
	}

	code, loc, cookie := openRoomWith(t, ts, url.Values{"page": {"tour"}, "step": {"2"}})
	if loc != "/tour/2?room="+code {
		t.Fatalf("presenter of tour step 2 sent to %v", loc)
	}
	_, doc = getPage(t, ts.URL+loc, cookieHeader(cookie))
	bar := doc.Find(tid("room-bar"))
	if bar.AttrOr("data-role", "") != "presenter" || bar.AttrOr("data-page", "") != "tour" || bar.AttrOr("data-step", "") != "2" {
		t.Errorf("presenter's tour bar %v", bar.Nodes)
	}
	_, doc = getPage(t, ts.URL+"/r/"+code, nil)
	if doc.Find(tid("tour")).AttrOr("data-step", "") != "2" || doc.Find(tid("room-bar")).AttrOr("data-step", "") != "2" {
		t.Errorf("the join URL does not show tour step 2")
	}

	// The presenter moves on: viewers hear it, and the join URL shows the new step.
	p := presentOn(t, ts, code, cookie)
	v, _ := followOn(t, ts, code)
	sendJSON(t, p, map[string]any{"v": 2, "type": "publish", "state": map[string]any{"page": "tour", "step": 4}})
	for {
		var m roomIn
		readType(t, v, "room", &m)
		if m.State.Step == 4 && m.State.Page == "tour" {
			break
		}
	}
	_, doc = getPage(t, ts.URL+"/r/"+code, nil)
	if doc.Find(tid("tour")).AttrOr("data-step", "") != "4" {
		t.Errorf("the join URL does not follow the presenter to step 4")
	}
	// And on to the slice explorer, with its state.
	sendJSON(t, p, map[string]any{"v": 2, "type": "publish", "state": map[string]any{"page": "slice", "query": "preset=example2"}})
	for {
		var m roomIn
		readType(t, v, "room", &m)
		if m.State.Page == "slice" {
			break
		}
	}
	_, doc = getPage(t, ts.URL+"/r/"+code, nil)
	if doc.Find(tid("slice")).Length() != 1 || doc.Find(tid("room-bar")).AttrOr("data-page", "") != "slice" {
		t.Errorf("the join URL does not show the slice explorer")
	}
}

// TestRoomQRCodeDrawsEveryModule: the SVG path covers exactly the dark
// modules of the QR symbol, inside a 4-module quiet zone.
func TestRoomQRCodeDrawsEveryModule(t *testing.T) {
	text := "http://192.168.1.20:8080/r/7MQMM4TY"
	c, err := qr.Encode(text, qr.M)
	if err != nil {
		t.Fatal(err)
	}
	got := qrCode(text)
	if got.Size != c.Size+8 {
		t.Fatalf("size %d, want %d", got.Size, c.Size+8)
	}
	dark := map[[2]int]bool{}
	for _, run := range strings.Split(strings.TrimSuffix(got.Path, "z"), "z") {
		var x, y, n, n2 int
		if _, err := fmt.Sscanf(run, "M%d %dh%dv1h-%d", &x, &y, &n, &n2); err != nil || n != n2 {
			t.Fatalf("run %q: %v", run, err)
		}
		for i := range n {
			dark[[2]int{x + i - 4, y - 4}] = true
		}
	}
	for y := range c.Size {
		for x := range c.Size {
			if dark[[2]int{x, y}] != c.Black(x, y) {
				t.Fatalf("module (%d,%d): drawn %v, black %v", x, y, dark[[2]int{x, y}], c.Black(x, y))
			}
		}
	}
	if len(dark) == 0 {
		t.Fatal("nothing drawn")
	}
}

func TestRoomQueryWithoutRoom(t *testing.T) {
	for in, want := range map[string]string{
		"":                           "",
		"room=AAAA2222":              "",
		"dt=FLOAT32&room=X&sizes=2":  "dt=FLOAT32&sizes=2",
		"sizes=2,3&room=A&room=B":    "sizes=2,3",
		"roomy=1&%72oom=A&last=a%26": "roomy=1&last=a%26",
	} {
		if got := withoutParam(in, "room"); got != want {
			t.Errorf("withoutParam(%q) = %q, want %q", in, got, want)
		}
	}
}

// setGrace shortens how long s's rooms wait before telling viewers that
// the presenter has left.
func setGrace(t *testing.T, s *Server, d time.Duration) {
	t.Helper()
	replica, err := s.roomsReady()
	if err != nil {
		t.Fatal(err)
	}
	replica.SetPresenterGrace(d)
}

// readRoomEvent reads until a "room" or "presence" message, skipping
// other traffic.
func readRoomEvent(t *testing.T, c *websocket.Conn, within time.Duration) (roomIn, bool) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		_ = c.SetReadDeadline(deadline)
		kind, data, err := c.ReadMessage()
		if err != nil {
			if ne, ok := err.(interface{ Timeout() bool }); ok && ne.Timeout() {
				return roomIn{}, false
			}
			t.Fatalf("reading: %v", err)
		}
		var m roomIn
		if kind == websocket.TextMessage && json.Unmarshal(data, &m) == nil && (m.Type == "room" || m.Type == "presence") {
			return m, true
		}
	}
}

// readPresence reads room messages until a "presence" one, which must say
// presenting.
func readPresence(t *testing.T, c *websocket.Conn, who string, presenting bool) {
	t.Helper()
	for {
		m, ok := readRoomEvent(t, c, 10*time.Second)
		if !ok {
			t.Fatalf("%s: no presence %v within 10s", who, presenting)
		}
		if m.Type == "presence" {
			if m.Presenting != presenting {
				t.Fatalf("%s: presence %+v, want presenting %v", who, m, presenting)
			}
			return
		}
	}
}

// readRoomNoPresence reads room states until one with query, failing on
// any presence message on the way.
func readRoomNoPresence(t *testing.T, c *websocket.Conn, who, query string) {
	t.Helper()
	for {
		m, ok := readRoomEvent(t, c, 10*time.Second)
		switch {
		case !ok:
			t.Fatalf("%s: no state %q within 10s", who, query)
		case m.Type == "presence":
			t.Fatalf("%s: unexpected %+v before state %q", who, m, query)
		case m.State.Query == query:
			return
		}
	}
}

// TestRoomViewersHearPresenterLeaveAndReturn: when the presenter's
// connection closes, viewers are told after the grace period and keep the
// last state; when the presenter presents again, they are told and follow.
// A reload within the grace period tells them nothing.
func TestRoomViewersHearPresenterLeaveAndReturn(t *testing.T) {
	s, ts := roomServer(t, Config{})
	setGrace(t, s, 300*time.Millisecond)
	code, _, cookie := openRoom(t, ts, "q=0")
	p := presentOn(t, ts, code, cookie)
	v, _ := followOn(t, ts, code)

	// A reload: the presenter's socket closes and a new one presents at once.
	p.Close()
	p = presentOn(t, ts, code, cookie)
	time.Sleep(600 * time.Millisecond) // past the grace period of the first socket
	publish(t, p, "q=1", "l:1")
	readRoomNoPresence(t, v, "viewer after a reload", "q=1")

	// "Stop presenting": the socket closes and no presenter comes back.
	start := time.Now()
	p.Close()
	readPresence(t, v, "viewer", false)
	if d := time.Since(start); d < 250*time.Millisecond {
		t.Errorf("told after %v, before the grace period", d)
	}
	// A late joiner gets the last state, then hears the presenter is away.
	late, first := followOn(t, ts, code)
	if first.State.Query != "q=1" {
		t.Errorf("late joiner got %+v", first.State)
	}
	readPresence(t, late, "late joiner", false)

	// The presenter comes back: both follow again without asking.
	p = presentOn(t, ts, code, cookie)
	readPresence(t, v, "viewer", true)
	readPresence(t, late, "late joiner", true)
	publish(t, p, "q=2", "")
	readRoomNoPresence(t, v, "viewer", "q=2")
	readRoomNoPresence(t, late, "late joiner", "q=2")

	// A viewer's "unpresent" is nothing; the presenter's page says it when
	// it goes away, its socket possibly still open (the back/forward cache).
	sendJSON(t, late, map[string]any{"v": 2, "type": "unpresent"})
	sendJSON(t, p, map[string]any{"v": 2, "type": "unpresent"})
	readPresence(t, v, "viewer", false)
	readPresence(t, late, "late joiner", false)
	publish(t, p, "q=3", "")
	var e roomIn
	readType(t, p, "error", &e)
	if e.Code != "not-presenter" {
		t.Errorf("publishing after unpresent: %+v, want not-presenter", e)
	}

	// A viewer that leaves and follows again hears the presence anew.
	sendJSON(t, v, map[string]any{"v": 2, "type": "unfollow"})
	sendJSON(t, v, map[string]any{"v": 2, "type": "follow", "room": code})
	readPresence(t, v, "viewer following again", false)
}

// TestRoomPresenceAcrossReplicas: the presenter on A, viewers on B and C
// (and D, who joins while the presenter is away);
// the presenter leaves A and comes back on B (a reload that lands on the
// other replica): every viewer hears both.
func TestRoomPresenceAcrossReplicas(t *testing.T) {
	nurl := natstest.Loopback(t)
	secret := []byte("replicas share this secret")
	newReplica := func() *httptest.Server {
		bus, err := natsbus.New(natsbus.Options{URL: nurl})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { bus.Close() })
		s, ts := roomServer(t, Config{Bus: bus, RoomSecret: secret})
		setGrace(t, s, 300*time.Millisecond)
		return ts
	}
	a, b, c := newReplica(), newReplica(), newReplica()
	code, _, cookie := openRoom(t, a, "q=0")
	p := presentOn(t, a, code, cookie)
	vb, _ := followOn(t, b, code)
	// C holds no room yet: it asks whether a presenter is anywhere.
	vc, _ := followOn(t, c, code)
	time.Sleep(rooms.JoinTimeout + 200*time.Millisecond) // past C's question
	publish(t, p, "q=1", "")
	readRoomNoPresence(t, vb, "viewer on B", "q=1")
	readRoomNoPresence(t, vc, "viewer on C", "q=1")

	// The presenter stops on A.
	p.Close()
	readPresence(t, vb, "viewer on B", false)
	readPresence(t, vc, "viewer on C", false)
	// A late joiner on a replica new to the room: nobody answers its
	// question, so the presenter is away.
	d := newReplica()
	vd, first := followOn(t, d, code)
	if first.State.Query != "q=1" {
		t.Errorf("late joiner on D got %+v", first.State)
	}
	readPresence(t, vd, "viewer on D", false)

	// The presenter presents again on B; the viewers follow.
	p = presentOn(t, b, code, cookie)
	readPresence(t, vb, "viewer on B", true)
	readPresence(t, vc, "viewer on C", true)
	readPresence(t, vd, "viewer on D", true)
	publish(t, p, "q=2", "b:3")
	readRoomNoPresence(t, vb, "viewer on B", "q=2")
	readRoomNoPresence(t, vc, "viewer on C", "q=2")

	// A viewer cannot speak for the presenter: "presence" is not a
	// message a page may send, and the room stays presented.
	sendJSON(t, vc, map[string]any{"v": 2, "type": "presence", "room": code, "presenting": false})
	time.Sleep(500 * time.Millisecond)
	publish(t, p, "q=3", "")
	readRoomNoPresence(t, vb, "viewer on B", "q=3")
}

// TestRoomViewersHearTheCountChange: a viewer's count of watchers follows
// the room's when another viewer joins or leaves, with no state shared in
// between (before, it changed only with the presenter's next state).
func TestRoomViewersHearTheCountChange(t *testing.T) {
	_, ts := roomServer(t, Config{})
	code, _, cookie := openRoom(t, ts, "dt=FLOAT32&sizes=2,3")
	p := presentOn(t, ts, code, cookie)
	defer p.Close()
	v1, first := followOn(t, ts, code)
	defer v1.Close()
	if first.Watching != 1 {
		t.Fatalf("the first viewer's first state says %d watching, want 1", first.Watching)
	}
	v2, _ := followOn(t, ts, code)
	readWatching(t, v1, 2)
	v2.Close()
	readWatching(t, v1, 1)
}

// readWatching reads "watching" messages until one says n (readType
// fails the test if none does within its deadline).
func readWatching(t *testing.T, c *websocket.Conn, n int) {
	t.Helper()
	for {
		var w roomIn
		readType(t, c, "watching", &w)
		if w.Watching == n {
			return
		}
	}
}
