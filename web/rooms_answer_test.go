package web

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/gorilla/websocket"
	"github.com/stridescope/stridescope/rooms"
)

// tallyIn is the presenter's "tally".
type tallyIn struct {
	Question *rooms.Question `json:"question"`
	Tally    *rooms.Tally    `json:"tally"`
}

// askOn asks the cell question about element (1,2) from presenter p and
// returns the question's id.
func askOn(t *testing.T, p *websocket.Conn, ask map[string]any) string {
	t.Helper()
	sendJSON(t, p, map[string]any{"v": 2, "type": "question", "action": "ask", "ask": ask})
	var m tallyIn
	readType(t, p, "tally", &m)
	if m.Question == nil {
		t.Fatalf("no question asked: %+v", m)
	}
	return m.Question.ID
}

// waitTallyOn reads the presenter's tallies until one is want.
func waitTallyOn(t *testing.T, p *websocket.Conn, want []rooms.ValueCount) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	var last *rooms.Tally
	for time.Now().Before(deadline) {
		var m tallyIn
		readType(t, p, "tally", &m)
		if last = m.Tally; last != nil && reflect.DeepEqual(last.Counts, want) {
			return
		}
	}
	t.Fatalf("the presenter's tally is %+v, want %+v", last, want)
}

// formStudent is a browser without JavaScript: a cookie jar, no redirect
// followed.
type formStudent struct {
	t      *testing.T
	base   string
	client *http.Client
	body   string // the last post's answer
}

func newFormStudent(t *testing.T, base string) *formStudent {
	jar, _ := cookiejar.New(nil)
	return &formStudent{t: t, base: base, client: &http.Client{Jar: jar, Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}}
}

// post posts the answer form as the page would (same origin), with
// fields changed by set.
func (s *formStudent) post(code string, form url.Values, site string) *http.Response {
	s.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.base+"/r/"+code+"/answer", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Sec-Fetch-Site", site)
	res, err := s.client.Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	s.body = string(b)
	return res
}

// TestRoomAnswerWithoutJavaScript (#41): a student whose browser runs no
// script, on the other replica than the presenter's, sees the open
// question drawn by the server with a form; posting it answers as the
// student its cookie names (a second post changes the answer), the reply
// page says it was received, and after the reveal says whether it was
// right, with the class's answers. A post from another site, with
// another student's token, a value that is no number, or too many at
// once is refused and counts nothing.
func TestRoomAnswerWithoutJavaScript(t *testing.T) {
	a, b := twoRoomServers(t)
	code, _, cookie := openRoom(t, a, "preset=padded")
	p := presentOn(t, a, code, cookie)
	qid := askOn(t, p, map[string]any{"kind": "cell", "element": []int{1, 2}})

	s := newFormStudent(t, b.URL)
	doc := s.questionPage(code, qid)
	form := doc.Find("form.q-answer")
	if act, _ := form.Attr("action"); act != "/r/"+code+"/answer" {
		t.Errorf("the answer form posts to %q", act)
	}
	if _, hidden := doc.Find("#room-q").Attr("hidden"); hidden {
		t.Error("the question panel is hidden on a page without script")
	}
	if got := doc.Find("[data-testid=q-prompt]").Text(); !strings.Contains(got, "(1, 2)") {
		t.Errorf("the prompt %q does not name element (1, 2)", got)
	}
	if got, _ := doc.Find("body").Attr("data-asking"); got != "cell" {
		t.Errorf("body data-asking = %q, want cell (hides the corner offsets)", got)
	}
	// The cells' names tell no offset while the question is open: the
	// real ones wait in data-aria for the script to give back.
	if got, _ := doc.Find("#l-5").Attr("aria-label"); strings.Contains(got, "7") || !strings.Contains(got, "(1,2)") {
		t.Errorf("element (1,2)'s name while asked: %q", got)
	}
	if got, _ := doc.Find("#b-7").Attr("aria-label"); got != "buffer cell 7" {
		t.Errorf("buffer cell 7's name while asked: %q", got)
	}
	if got, _ := doc.Find("#b-7").Attr("data-aria"); got == "" {
		t.Error("buffer cell 7 keeps no real name for the reveal")
	}
	student, _ := form.Find("input[name=student]").Attr("value")
	if q, _ := form.Find("input[name=question]").Attr("value"); q != qid || student == "" {
		t.Fatalf("the form's question %q (want %q), student %q", q, qid, student)
	}
	answer := func(v string) url.Values {
		return url.Values{"question": {qid}, "student": {student}, "value": {v}, "nick": {"Zoé"}}
	}

	for _, c := range []struct {
		name   string
		form   url.Values
		site   string
		status int
	}{
		{"first answer", answer("5"), "same-origin", http.StatusSeeOther},
		{"changed", answer("7"), "same-origin", http.StatusSeeOther},
		{"from another site", answer("4"), "cross-site", http.StatusForbidden},
		{"another student's token", url.Values{"question": {qid}, "student": {"abcdefghijklmnop.forged"}, "value": {"4"}}, "same-origin", http.StatusForbidden},
		{"not a number", answer("seven"), "same-origin", http.StatusUnprocessableEntity},
		{"out of range", answer("10"), "same-origin", http.StatusUnprocessableEntity},
		{"another question", url.Values{"question": {"nope"}, "student": {student}, "value": {"4"}}, "same-origin", http.StatusConflict},
	} {
		if res := s.post(code, c.form, c.site); res.StatusCode != c.status {
			t.Errorf("%s: %d, want %d", c.name, res.StatusCode, c.status)
		} else if c.status == http.StatusSeeOther && res.Header.Get("Location") != "/r/"+code+"/answer" {
			t.Errorf("%s: sent to %q", c.name, res.Header.Get("Location"))
		}
	}
	// One answer, the student's second: a change, not an addition.
	waitTallyOn(t, p, []rooms.ValueCount{{Value: 7, N: 1, Right: true}})
	_, doc = s.get(b.URL + "/r/" + code + "/answer?lang=fr")
	if got := doc.Find("[data-testid=q-status]").Text(); !strings.Contains(got, "Réponse reçue\u00a0: 7") {
		t.Errorf("the reply page in French says %q", got)
	}

	// A flood: 5 at once, then one a second.
	flooded := 0
	for range 8 {
		if s.post(code, answer("7"), "same-origin").StatusCode == http.StatusTooManyRequests {
			flooded++
		}
	}
	if flooded == 0 {
		t.Error("8 posts at once: none refused as a flood")
	}

	sendJSON(t, p, map[string]any{"v": 2, "type": "question", "action": "reveal"})
	deadline := time.Now().Add(5 * time.Second)
	for {
		_, doc = s.get(b.URL + "/r/" + code + "/answer?lang=en")
		if doc.Find("[data-testid=q-result]:not([hidden])").Length() == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the reveal never reached the reply page")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := doc.Find("[data-testid=q-status]").Text(); !strings.Contains(got, "Your answer, 7, is right.") {
		t.Errorf("after the reveal the reply page says %q", got)
	}
	if got := doc.Find("[data-testid=q-dist] li.right").Text(); !strings.Contains(got, "7: 1") {
		t.Errorf("the class's answers: %q", got)
	}
	if doc.Find("form.q-answer:not([hidden])").Length() != 0 {
		t.Error("the form still shows after the reveal")
	}
	if res := s.post(code, answer("5"), "same-origin"); res.StatusCode != http.StatusConflict {
		t.Errorf("an answer after the reveal: %d, want 409", res.StatusCode)
	}
}

// questionPage is the room's page once it shows question qid (the
// student's replica hears it a moment after it is asked elsewhere).
func (s *formStudent) questionPage(code, qid string) *goquery.Document {
	s.t.Helper()
	for try := 0; ; try++ {
		res, doc := s.get(s.base + "/r/" + code)
		if res.StatusCode != http.StatusOK {
			s.t.Fatalf("GET /r/CODE: %d", res.StatusCode)
		}
		if q, _ := doc.Find("form.q-answer input[name=question]").Attr("value"); q == qid {
			return doc
		}
		if try == 100 {
			s.t.Fatalf("the page never showed question %s", qid)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// get fetches a page with the student's cookies, keeping those it sets.
func (s *formStudent) get(u string) (*http.Response, *goquery.Document) {
	s.t.Helper()
	res, err := s.client.Get(u)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	doc, err := goquery.NewDocumentFromReader(res.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	return res, doc
}
