package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/rooms"
)

// TestRoomPresenterEndsTheRoom: the presenter's second tab takes the
// room over and the first takes it back; then "End the room" ends it for
// everyone, on both replicas behind a load balancer: the viewers and the
// presenter's other tab hear "ended", the presenter goes to the page the room showed,
// without the room or its cookie, and the code opens nothing any more.
// Nobody else can end it: not a browser without the presenter's cookie,
// not another site's form.
func TestRoomPresenterEndsTheRoom(t *testing.T) {
	a, b := twoRoomServers(t)
	code, _, presenter := openRoomWith(t, a, url.Values{"page": {"slice"}, "query": {"sizes=4,4"}})
	otherRoom, _, other := openRoom(t, a, "sizes=2,3") // another presenter's room
	p := presentOn(t, a, code, presenter)
	sendJSON(t, p, map[string]any{"v": 2, "type": "publish", "state": map[string]any{"page": "slice", "query": "sizes=4,4&woff=1,1"}})
	va, _ := followOn(t, a, code)
	vb, first := followOn(t, b, code)
	if first.State.Query != "sizes=4,4&woff=1,1" {
		readRoomUntil(t, vb, "sizes=4,4&woff=1,1")
	}
	// The presenter's second tab, on the other replica, takes the room
	// over; the first takes it back ("Present here"), and shares again.
	tab := dial(t, b, cookieHeader(presenter))
	sendJSON(t, tab, map[string]any{"v": 2, "type": "present", "room": code})
	var was struct {
		roomIn
		ID string `json:"id"`
	}
	readType(t, tab, "presenting", &was)
	var m roomIn
	readType(t, p, "moved", &m)
	sendJSON(t, p, map[string]any{"v": 2, "type": "present", "room": code})
	readType(t, p, "presenting", &m)
	readType(t, tab, "moved", &m)
	// The second tab's socket drops and comes back: it resumes as the
	// connection it was, and hears that it was moved, taking nothing back.
	back := dial(t, b, cookieHeader(presenter))
	sendJSON(t, back, map[string]any{"v": 2, "type": "present", "room": code, "resume": was.ID})
	readType(t, back, "moved", &m)
	back.Close()
	sendJSON(t, p, map[string]any{"v": 2, "type": "publish", "state": map[string]any{"page": "slice", "query": "sizes=4,4&woff=1,1"}})

	var body errorBody // of the last refusal
	end := func(ts *httptest.Server, h http.Header) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/r/"+strings.ToLower(code[:4])+"-"+code[4:]+"/end", nil)
		for k, v := range h {
			req.Header[k] = v
		}
		res, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		body = errorBody{}
		if res.StatusCode >= 400 {
			if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
				t.Fatalf("%d: %v", res.StatusCode, err)
			}
		}
		return res
	}
	withSite := func(h http.Header, site string) http.Header {
		h = h.Clone()
		h.Set("Sec-Fetch-Site", site)
		return h
	}
	for _, tc := range []struct {
		name, code string
		h          http.Header
	}{
		{"no cookie", "room.notPresenter", http.Header{"Sec-Fetch-Site": {"same-origin"}}},
		{"another room's cookie under this room's name", "room.notPresenter", withSite(http.Header{"Cookie": {presenterCookie(code) + "=" + other.Value}}, "same-origin")},
		{"another site's form", "room.endOrigin", withSite(cookieHeader(presenter), "cross-site")},
	} {
		if res := end(b, tc.h); res.StatusCode != http.StatusForbidden || len(body.Errors) != 1 || body.Errors[0].Code != tc.code {
			t.Errorf("%s: %d %+v, want 403 %s", tc.name, res.StatusCode, body.Errors, tc.code)
		}
	}
	if res, _ := getPage(t, a.URL+"/r/"+code, nil); res.StatusCode != http.StatusOK {
		t.Fatalf("the room ended without its presenter: /r/CODE %d", res.StatusCode)
	}
	// A browser is told why in a page, in its language, not in JSON.
	req, _ := http.NewRequest(http.MethodPost, b.URL+"/r/"+code+"/end?lang=fr", nil)
	req.Header.Set("Accept", "text/html")
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	res, doc := sendForPage(t, req)
	if res.StatusCode != http.StatusForbidden || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") ||
		!strings.Contains(doc.Text(), "Seule la personne qui présente la salle peut la fermer") || doc.Find("h1").Text() != "Impossible de faire cela" {
		t.Errorf("a browser without the cookie: %d %s, h1 %q", res.StatusCode, res.Header.Get("Content-Type"), doc.Find("h1").Text())
	}

	res = end(b, withSite(cookieHeader(presenter), "same-origin"))
	if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/slice?sizes=4,4&woff=1,1" {
		t.Fatalf("end: %d to %q, want 303 to the room's page without the room", res.StatusCode, res.Header.Get("Location"))
	}
	cleared, told := false, (*http.Cookie)(nil)
	for _, c := range res.Cookies() {
		cleared = cleared || (c.Name == presenterCookie(code) && c.MaxAge < 0)
		if c.Name == endedCookie && c.MaxAge > 0 {
			told = c
		}
	}
	if !cleared || told == nil {
		t.Fatalf("the presenter cookie kept, or no word of the end for the page: %v", res.Header["Set-Cookie"])
	}
	// The page the presenter lands on says the room has ended, once.
	pres, doc := getPage(t, b.URL+res.Header.Get("Location"), http.Header{"Cookie": {told.Name + "=" + told.Value}})
	if got := doc.Find(tid("room-ended")).Text(); !strings.Contains(got, rooms.BareCode(code)[:4]) || !strings.Contains(got, "has ended for everyone") {
		t.Errorf("the presenter's page after the end says %q", got)
	}
	said := false
	for _, c := range pres.Cookies() {
		said = said || (c.Name == endedCookie && c.MaxAge < 0)
	}
	if !said {
		t.Errorf("the word of the end is not cleared once said: %v", pres.Header["Set-Cookie"])
	}
	readType(t, va, "ended", &m)
	if m.Room != code {
		t.Errorf("viewer on A: %+v", m)
	}
	readType(t, vb, "ended", &m)
	readType(t, p, "ended", &m)
	readType(t, tab, "ended", &m)
	for name, ts := range map[string]*httptest.Server{"a": a, "b": b} {
		if res, _ := getPage(t, ts.URL+"/r/"+code, nil); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: /r/CODE after the end: %d, want 404", name, res.StatusCode)
		}
		// A second click, or a tab that ended it already: on to the
		// explorer (the room's page went with the room).
		if res := end(ts, withSite(cookieHeader(presenter), "same-origin")); res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != "/" {
			t.Errorf("%s: ending it again: %d to %q, want 303 to /", name, res.StatusCode, res.Header.Get("Location"))
		}
	}
	// The other room goes on.
	if res, _ := getPage(t, b.URL+"/r/"+otherRoom, nil); res.StatusCode != http.StatusOK {
		t.Errorf("the other room: %d", res.StatusCode)
	}
}
