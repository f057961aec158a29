package web

import (
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"

	"github.com/stridescope/stridescope/rooms/natsbus"
	"github.com/stridescope/stridescope/rooms/natstest"
)

// TestRoomCapOverHTTP: many addresses filling the server with rooms
// nobody uses cannot keep a teacher from opening one (F5).
func TestRoomCapOverHTTP(t *testing.T) {
	s, ts := roomServer(t, Config{MaxRooms: 10, TrustedProxies: []string{"127.0.0.1"}})
	_ = s
	post := func(addr string) int {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/rooms", strings.NewReader(url.Values{"page": {"layout"}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("X-Forwarded-For", addr)
		res, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res.StatusCode
	}
	// An attacker from 3 addresses fills the cap three times over.
	for i := range 3 * createLimit {
		if st := post(fmt.Sprintf("198.51.100.%d", i%3+1)); st != http.StatusSeeOther {
			t.Fatalf("attacker's room %d: %d", i, st)
		}
	}
	if st := post("192.0.2.7"); st != http.StatusSeeOther {
		t.Errorf("a teacher at the cap: %d, want 303", st)
	}
	// One IPv6 subscriber (one /64) counts as one address.
	refused := 0
	for i := range createLimit + 2 {
		if post(fmt.Sprintf("2001:db8:1:2::%x", i+1)) == http.StatusTooManyRequests {
			refused++
		}
	}
	if refused != 2 {
		t.Errorf("one /64 opened %d rooms past the limit of %d, want 2 refused", createLimit+2-refused, createLimit)
	}
}

// TestRoomFailover (item 6): the presenter's replica dies behind a load
// balancer; the presenter's page reconnects to another replica, which
// reads the room from the store and lets it present with its cookie, and
// the class there follows on.
func TestRoomFailover(t *testing.T) {
	nurl := natstest.Loopback(t)
	secret := []byte("replicas share this secret")
	replica := func() (*Server, *httptest.Server) {
		bus, err := natsbus.New(natsbus.Options{URL: nurl})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { bus.Close() })
		return roomServer(t, Config{Bus: bus, RoomSecret: secret})
	}
	sa, a := replica()
	_, b := replica()
	code, _, cookie := openRoom(t, a, "q=0")
	p := presentOn(t, a, code, cookie)
	publish(t, p, "q=1", "")
	v, first := followOn(t, b, code)
	if first.State.Query != "q=1" {
		readRoomUntil(t, v, "q=1")
	}

	// A dies: its sockets drop and it answers nothing more.
	a.CloseClientConnections()
	a.Close()
	sa.Close()
	time.Sleep(300 * time.Millisecond) // the store write behind q=1 has long landed

	p = presentOn(t, b, code, cookie)
	publish(t, p, "q=2", "")
	readRoomUntil(t, v, "q=2")
	if res, doc := getPage(t, b.URL+"/r/"+code, nil); res.StatusCode != http.StatusOK || doc.Find(tid("room-bar")).AttrOr("data-role", "") != "viewer" {
		t.Errorf("join URL on B after A died: %d", res.StatusCode)
	}
}

// TestRoomJoinTicketOutlastsAFlood (F4): while a hostile page keeps
// sending wrong codes from the class's address, a browser that has found
// the room (its join ticket cookie) reloads the join URL and follows over
// the websocket at once, every time.
func TestRoomJoinTicketOutlastsAFlood(t *testing.T) {
	_, ts := roomServer(t, Config{})
	code, location, presenter := openRoom(t, ts, "q=live")
	_, doc := getPage(t, ts.URL+location, cookieHeader(presenter))
	link := doc.Find(`[data-testid=room-join-url]`).AttrOr("href", "")
	res, _ := getPage(t, ts.URL+"/r/"+code, nil)
	var ticket *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == joinCookie(code) {
			ticket = c
		}
	}
	if res.StatusCode != http.StatusOK || ticket == nil || !ticket.HttpOnly {
		t.Fatalf("join URL: %d, ticket %v", res.StatusCode, ticket)
	}
	// The hostile page's first image tags, answered 404 until the limit
	// (before the flood starts, whose codes would count towards it on a
	// machine slow enough to take more than 0.1 s over these).
	for i := range joinFailLimit { // the hostile page's first image tags
		if r, _ := getPage(t, ts.URL+"/r/"+wrongCode("YYYYYY", i), nil); r.StatusCode != http.StatusNotFound {
			t.Fatalf("wrong code %d: %d", i, r.StatusCode)
		}
	}
	// The flood: wrong codes ten times a second, for the rest of the test.
	stop := make(chan struct{})
	flooded := make(chan int, 1)
	go func() {
		n := 0
		defer func() { flooded <- n }()
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(100 * time.Millisecond):
			}
			go func() {
				if r, err := http.Get(ts.URL + "/r/" + wrongCode("ZZZZZZ", i)); err == nil {
					r.Body.Close()
				}
			}()
			n++
		}
	}()
	time.Sleep(500 * time.Millisecond) // the flood now holds the slow lane
	// Without a ticket the class's browsers wait their turn behind the
	// flood, and are turned away.
	start := time.Now()
	res, _ = getPage(t, ts.URL+"/r/"+code, nil)
	t.Logf("without the ticket during the flood: %d after %v", res.StatusCode, time.Since(start).Round(time.Millisecond))
	for i := range 5 {
		start := time.Now()
		res, _ := getPage(t, ts.URL+"/r/"+code, cookieHeader(ticket))
		if res.StatusCode != http.StatusOK || time.Since(start) > time.Second {
			t.Errorf("reload %d with the ticket during the flood: %d after %v", i, res.StatusCode, time.Since(start))
		}
		c := dial(t, ts, cookieHeader(ticket))
		sendJSON(t, c, map[string]any{"v": 2, "type": "follow", "room": code})
		var m roomIn
		readType(t, c, "room", &m)
		c.Close()
		time.Sleep(300 * time.Millisecond)
	}
	// The presenter's join link (and QR code) carries the ticket: a
	// browser that never found the room gets in at once all the same,
	// and gets the cookie.
	if !strings.Contains(link, "k=") {
		t.Fatalf("the join link %q has no ticket", link)
	}
	u, _ := url.Parse(link)
	for i := range 3 {
		start := time.Now()
		res, _ := getPage(t, ts.URL+u.RequestURI(), nil)
		got := false
		for _, c := range res.Cookies() {
			got = got || c.Name == joinCookie(code)
		}
		if res.StatusCode != http.StatusOK || !got || time.Since(start) > time.Second {
			t.Errorf("new browser %d opening the join link during the flood: %d, cookie %v, after %v", i, res.StatusCode, got, time.Since(start))
		}
	}
	// A made-up ticket is no ticket: it goes through the guard, for a
	// room this address has not found (another room). The slow lane's
	// turns are held first by wrong codes each asked more often than that
	// room's (the lane's next turn goes to the code asked most), in two
	// waves, so that one of them is still waiting when the made-up
	// ticket's wait for a turn (joinSlowWait) is over: a browser without a
	// ticket that gets a turn gets in.
	other, _, _ := openRoom(t, ts, "q=other")
	var burst sync.WaitGroup
	wave := func() {
		for i := range 4 {
			for range 3 {
				burst.Add(1)
				go func() {
					defer burst.Done()
					if r, err := http.Get(ts.URL + "/r/" + wrongCode("XXXXXX", i)); err == nil {
						r.Body.Close()
					}
				}()
			}
		}
	}
	wave()
	time.Sleep(300 * time.Millisecond)
	go func() {
		time.Sleep(time.Second)
		wave()
	}()
	if res, _ := getPage(t, ts.URL+"/r/"+other+"?k=AAAAAAAAAAAAAAAAAAAAAA", nil); res.StatusCode == http.StatusOK {
		t.Errorf("a made-up ticket got in during the flood")
	}
	time.Sleep(time.Second) // the second wave has been sent
	burst.Wait()
	close(stop)
	t.Logf("the class got in 5 times out of 5 while %d wrong codes came from its address", <-flooded)
}

// TestGuardPruneForgetsFinishedWindowsAtMostOnceASecond: past 10,000
// addresses a guard forgets finished windows, but not on every call.
func TestGuardPruneForgetsFinishedWindowsAtMostOnceASecond(t *testing.T) {
	now := time.Now()
	m := map[string]time.Time{}
	for i := range 10001 {
		start := now
		if i%2 == 0 {
			start = now.Add(-2 * time.Minute) // finished
		}
		m[fmt.Sprint(i)] = start
	}
	var last time.Time
	start := func(t time.Time) time.Time { return t }
	prune(m, start, time.Minute, now, &last)
	if len(m) != 5000 {
		t.Fatalf("%d windows after the scan, want the 5000 running", len(m))
	}
	for i := range 6000 {
		m[fmt.Sprint("old", i)] = now.Add(-2 * time.Minute)
	}
	prune(m, start, time.Minute, now.Add(500*time.Millisecond), &last)
	if len(m) != 11000 {
		t.Errorf("%d windows: a second scan within a second ran", len(m))
	}
	prune(m, start, time.Minute, now.Add(1100*time.Millisecond), &last)
	if len(m) != 5000 {
		t.Errorf("%d windows a second later, want 5000", len(m))
	}
}

// TestHintsNameTheServersAddress: the presenter's hint and the page's
// JSON example name the port the page was served from, not 8080
// (issue #13).
func TestHintsNameTheServersAddress(t *testing.T) {
	_, ts := roomServer(t, Config{})
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Jar: jar}
	res, err := c.PostForm(ts.URL+"/rooms", url.Values{"page": {"layout"}})
	if err != nil {
		t.Fatal(err)
	}
	d, err := goquery.NewDocumentFromReader(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	port := ts.URL[strings.LastIndex(ts.URL, ":")+1:]
	if got := d.Find(tid("room-hint")).Text(); !strings.Contains(got, "-addr 0.0.0.0:"+port+")") {
		t.Errorf("room hint %q, want port %s", got, port)
	}
	if got := d.Find(tid("curl-example")).Text(); !strings.HasPrefix(got, "curl -s "+ts.URL+"/api/v1/layout ") {
		t.Errorf("JSON example %q, want %s", got, ts.URL)
	}
}

// TestRoomPresenterBackThroughTheJoinLink: the presenter's own browser
// (its cookie) opening the join link, as after losing the tab, goes back
// to presenting the room's current page and state, in the language asked;
// another browser opening it is a viewer.
func TestRoomPresenterBackThroughTheJoinLink(t *testing.T) {
	_, ts := roomServer(t, Config{})
	for _, tc := range []struct {
		form url.Values
		lang string
		want string // the redirect, before room=CODE
	}{
		{url.Values{"page": {"layout"}, "query": {"dt=FLOAT32&sizes=4,4"}}, "", "/?dt=FLOAT32&sizes=4,4&"},
		{url.Values{"page": {"slice"}, "query": {"sizes=5,6&woff=0,0&wsize=5,6&wstride=1,1"}}, "fr", "/slice?sizes=5,6&woff=0,0&wsize=5,6&wstride=1,1&"},
		{url.Values{"page": {"tour"}, "query": {""}, "step": {"6"}}, "", "/tour/6?"},
	} {
		code, _, presenter := openRoomWith(t, ts, tc.form)
		u := ts.URL + "/r/" + code
		if tc.lang != "" {
			u += "?lang=" + tc.lang
		}
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		req.Header = cookieHeader(presenter)
		res, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		want := tc.want + "room=" + code
		if tc.lang != "" {
			want += "&lang=" + tc.lang
		}
		if got := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || got != want {
			t.Errorf("%v: the presenter opening the join link: %d to %q, want 303 to %q", tc.form, res.StatusCode, got, want)
		}
		if res, _ := getPage(t, ts.URL+"/r/"+code, nil); res.StatusCode != http.StatusOK {
			t.Errorf("%v: a viewer opening the join link: %d", tc.form, res.StatusCode)
		}
		// Presenting in one tab, the presenter's browser opening the join
		// link in another sees what the class sees: not a second presenter.
		p := presentOn(t, ts, code, presenter)
		res, doc := getPage(t, ts.URL+"/r/"+code, cookieHeader(presenter))
		if role := doc.Find("[data-testid=room-bar]").AttrOr("data-role", ""); res.StatusCode != http.StatusOK || role != "viewer" {
			t.Errorf("%v: the join link beside the presenting tab: %d, bar %q, want 200 and a viewer's", tc.form, res.StatusCode, role)
		}
		p.Close()
	}
}

// TestRoomPresentAgainResumesTheRoom: "Present this" from a browser that
// presents an open room (it stopped presenting, or presses it on another
// page) presents that room, where its class is; one that presents none,
// or only rooms that are gone, opens a new one.
func TestRoomPresentAgainResumesTheRoom(t *testing.T) {
	_, ts := roomServer(t, Config{})
	code, _, presenter := openRoom(t, ts, "sizes=2,3")
	post := func(h http.Header) string {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/rooms", strings.NewReader(url.Values{"page": {"slice"}, "query": {"sizes=4"}}.Encode()))
		req.Header = h
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		res, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusSeeOther {
			t.Fatalf("POST /rooms: %d", res.StatusCode)
		}
		return res.Header.Get("Location")
	}
	if got, want := post(cookieHeader(presenter)), "/slice?sizes=4&room="+code; got != want {
		t.Errorf("present again: to %q, want %q (the same room)", got, want)
	}
	// While a tab of the browser presents the room, another tab's
	// "Present this" takes the room over there (the newest tab presents;
	// the first is told it was moved aside).
	p := presentOn(t, ts, code, presenter)
	if got, want := post(cookieHeader(presenter)), "/slice?sizes=4&room="+code; got != want {
		t.Errorf("present again beside a presenting tab: to %q, want %q (the same room)", got, want)
	}
	presentOn(t, ts, code, presenter).Close()
	var m roomIn
	readType(t, p, "moved", &m)
	p.Close()
	gone := &http.Cookie{Name: presenterCookie("ABCD2345"), Value: presenter.Value}
	for name, h := range map[string]http.Header{"no cookie": {}, "a room that is not": cookieHeader(gone)} {
		if got := post(h); strings.Contains(got, code) || !strings.HasPrefix(got, "/slice?sizes=4&room=") {
			t.Errorf("%s: to %q, want a new room", name, got)
		}
	}
}

// TestRoomViewerExploresWithAWayBack: a viewer's page opened with
// ?room=CODE&explore (another tour step, an exploration kept across a
// reload) has the viewer's bar, exploring, with no count of the class; only
// for a browser that joined the room; the presenter presents as ever.
func TestRoomViewerExploresWithAWayBack(t *testing.T) {
	srv, ts := roomServer(t, Config{})
	code, _, presenter := openRoomWith(t, ts, url.Values{"page": {"tour"}, "step": {"1"}})
	res, _ := getPage(t, ts.URL+"/r/"+code, nil)
	var joined *http.Cookie
	for _, c := range res.Cookies() {
		if c.Name == joinCookie(code) {
			joined = c
		}
	}
	if joined == nil {
		t.Fatalf("joining set no ticket: %v", res.Header["Set-Cookie"])
	}
	for _, path := range []string{"/tour/2?room=" + code + "&explore", "/?sizes=2,3&room=" + code + "&explore=", "/slice?room=" + code + "&explore&lang=fr"} {
		res, doc := getPage(t, ts.URL+path, cookieHeader(joined))
		bar := doc.Find("[data-testid=room-bar]")
		if res.StatusCode != http.StatusOK || bar.AttrOr("data-role", "") != "viewer" || bar.AttrOr("data-room", "") != code {
			t.Errorf("%s: %d, bar %q of %q", path, res.StatusCode, bar.AttrOr("data-role", ""), bar.AttrOr("data-room", ""))
			continue
		}
		if _, ok := bar.Attr("data-exploring"); !ok {
			t.Errorf("%s: the bar does not say the viewer explores", path)
		}
		if _, hidden := bar.Find(".room-count").Attr("hidden"); !hidden {
			t.Errorf("%s: the bar counts the class", path)
		}
		if doc.Find("[data-testid=present]").Length() != 0 {
			t.Errorf("%s: a viewer is offered to present", path)
		}
	}
	if _, doc := getPage(t, ts.URL+"/?sizes=2,3&room="+code+"&explore", cookieHeader(joined)); doc.Find("[data-testid=logical-sub]").Text() == "" || !strings.Contains(doc.Find("[data-testid=logical-sub]").Text(), "6") {
		t.Errorf("the explored state is not drawn: %q", doc.Find("[data-testid=logical-sub]").Text())
	}
	// A tour step read ahead shows the step's own tensor, as without the
	// room (?explore is not a state of its own).
	for _, n := range []string{"1", "5", "11"} {
		_, own := getPage(t, ts.URL+"/tour/"+n, nil)
		_, explored := getPage(t, ts.URL+"/tour/"+n+"?room="+code+"&explore", cookieHeader(joined))
		want, got := own.Find("#picture").Text(), explored.Find("#picture").Text()
		if want == "" || got != want {
			t.Errorf("tour step %s read ahead draws another picture than the step's own", n)
		}
	}
	// A room that has ended (a ticket for a code no room has): the
	// exploration goes on, without the room.
	replica, err := srv.roomsReady()
	if err != nil {
		t.Fatal(err)
	}
	ended := &http.Cookie{Name: joinCookie("ABCD2345"), Value: replica.Ticket("ABCD2345")}
	if res, _ := getPage(t, ts.URL+"/?sizes=2,3&room=ABCD2345&explore&lang=fr", cookieHeader(ended)); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/?sizes=2,3&lang=fr" {
		t.Errorf("exploring a room that ended: %d to %q, want 303 to the state alone", res.StatusCode, res.Header.Get("Location"))
	}
	// Not joined: through /r/CODE and its guard. The presenter: presenting.
	if res, _ := getPage(t, ts.URL+"/tour/2?room="+code+"&explore", nil); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/r/"+code {
		t.Errorf("not joined: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	// The presenter's browser with a presenting tab, and a join ticket
	// (it opened the join link to see what the class sees): exploring too.
	p := presentOn(t, ts, code, presenter)
	both := http.Header{"Cookie": {presenter.Name + "=" + presenter.Value + "; " + joined.Name + "=" + joined.Value}}
	if _, doc := getPage(t, ts.URL+"/tour/2?room="+code+"&explore", both); doc.Find("[data-testid=room-bar]").AttrOr("data-role", "") != "viewer" {
		t.Errorf("the presenter's second tab, exploring: bar %q, want a viewer's", doc.Find("[data-testid=room-bar]").AttrOr("data-role", ""))
	}
	p.Close()
	// Once the server has seen that tab go, the join link presents again.
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if res, _ := getPage(t, ts.URL+"/r/"+code, cookieHeader(presenter)); res.StatusCode == http.StatusSeeOther {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the join link does not present again after the presenting tab closed")
		}
	}
	if _, doc := getPage(t, ts.URL+"/tour/2?room="+code+"&explore", cookieHeader(presenter)); doc.Find("[data-testid=room-bar]").AttrOr("data-role", "") != "presenter" {
		t.Errorf("the presenter's page with explore: bar %q", doc.Find("[data-testid=room-bar]").AttrOr("data-role", ""))
	} else if doc.Find("[data-testid=nav-join]").Length() != 0 {
		t.Error("the presenter's header offers to join a room, which would leave theirs")
	}
}
