package web

import (
	"net/http"
	"net/url"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stridescope/stridescope/rooms"
)

// TestRoomSetAnswerWithoutJavaScript (#41): on the DML_SLICE1 page's
// Example 2, "tap every cell the slice reads" answered by a browser that
// runs no script: the server's page asks for the cells' coordinates,
// hides what answers it (body data-asking, the output's values in the
// cells' names), takes "3,1; 3,3; 1,1; 1,3", refuses a set it cannot
// read, and after the reveal says the set was exact, with the class's
// groups.
func TestRoomSetAnswerWithoutJavaScript(t *testing.T) {
	a, b := twoRoomServers(t)
	code, _, cookie := openRoomWith(t, a, url.Values{"page": {"slice"}, "query": {"preset=example2"}})
	p := presentOn(t, a, code, cookie)
	qid := askOn(t, p, map[string]any{"kind": "reads"})

	s := newFormStudent(t, b.URL)
	doc := s.questionPage(code, qid)
	if got := doc.Find("[data-testid=q-prompt]").Text(); !strings.Contains(got, "semicolons") {
		t.Errorf("the prompt %q does not say how to type the cells", got)
	}
	if got, _ := doc.Find("body").Attr("data-asking"); got != "reads" {
		t.Errorf("body data-asking = %q, want reads", got)
	}
	if got, _ := doc.Find("#out-0").Attr("aria-label"); got != "(0,0,0,0)" {
		t.Errorf("output (0,0,0,0)'s name while asked: %q (its value is an input's)", got)
	}
	student, _ := doc.Find("form.q-answer input[name=student]").Attr("value")
	answer := func(v string) url.Values { return url.Values{"question": {qid}, "student": {student}, "value": {v}} }
	for _, c := range []struct {
		name   string
		value  string
		status int
	}{
		{"not cells", "three, one", http.StatusUnprocessableEntity},
		{"a cell outside", "0,0,4,1", http.StatusUnprocessableEntity},
		{"the four cells", "0,0,3,1; 0,0,3,3; 0,0,1,1; 0,0,1,3;", http.StatusSeeOther},
	} {
		if res := s.post(code, answer(c.value), "same-origin"); res.StatusCode != c.status {
			t.Errorf("%s: %d, want %d", c.name, res.StatusCode, c.status)
		}
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		var m tallyIn
		readType(t, p, "tally", &m)
		if m.Tally != nil && reflect.DeepEqual(m.Tally.Groups, []rooms.SetGroup{{Group: rooms.GroupExact, N: 1}}) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the presenter's tally: %+v", m.Tally)
		}
	}
	if _, doc = s.get(b.URL + "/r/" + code + "/answer?lang=en"); !strings.Contains(doc.Find("[data-testid=q-status]").Text(), "(0, 0, 3, 1); (0, 0, 3, 3)") {
		t.Errorf("the reply page says %q", doc.Find("[data-testid=q-status]").Text())
	}

	sendJSON(t, p, map[string]any{"v": 2, "type": "question", "action": "reveal"})
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if _, doc = s.get(b.URL + "/r/" + code + "/answer?lang=en"); doc.Find("[data-testid=q-result]:not([hidden])").Length() == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the reveal never reached the reply page")
		}
	}
	if got := doc.Find("[data-testid=q-status]").Text(); got != "Your cells are exactly the ones the slice reads." {
		t.Errorf("after the reveal the reply page says %q", got)
	}
	if got := doc.Find("[data-testid=q-dist] li.right").Text(); !strings.Contains(got, "every cell, none more: 1") {
		t.Errorf("the class's groups: %q", got)
	}
	if got := doc.Find("[data-testid=q-why]").Text(); !strings.Contains(got, "The slice reads 4 cells: {0} × {0} × {3, 1} × {1, 3}.") {
		t.Errorf("the answer's working: %q", got)
	}
}
