package web

import (
	"encoding/json"
	"net/http"
	"net/url"
	"strconv"
	"testing"
)

// TestRoomTourQuestions (#41): on a tour step whose question has one
// exact answer, the presenter's bar offers to ask it of the class (the
// ask on its button), and the step's explorer answers it on the step's
// own state; a step without one offers nothing.
func TestRoomTourQuestions(t *testing.T) {
	_, ts := roomServer(t, Config{})
	for _, c := range []struct {
		step    int
		kind    string
		correct int64 // -1: the step offers no question
		explain string
	}{
		{1, "offset", 4, "1×3 + 1×1 = 4"},
		{3, "element", 4, "1×1 + 1×2 = 3"}, // E, (1,1), row-major 4 of the 2x3
		{4, "cell", 11, "1×6 + 1×3 + 2×1 = 11"},
		{7, "bytes", 32, "(7 + 1) × 32 bits = 256 bits = 32 B → 32 B"},
		{2, "", -1, ""},
		{10, "", -1, ""}, // a slice step: no explorer that asks
	} {
		code, location, cookie := openRoomWith(t, ts, url.Values{"page": {"tour"}, "step": {strconv.Itoa(c.step)}})
		res, doc := getPage(t, ts.URL+location, cookieHeader(cookie))
		if res.StatusCode != http.StatusOK {
			t.Fatalf("step %d: the presenter's page %d", c.step, res.StatusCode)
		}
		raw, has := doc.Find("[data-testid=q-tour]").Attr("data-ask")
		if c.correct < 0 {
			if has {
				t.Errorf("step %d offers a question: %s", c.step, raw)
			}
			continue
		}
		var ask map[string]any
		if err := json.Unmarshal([]byte(raw), &ask); err != nil || ask["kind"] != c.kind {
			t.Errorf("step %d: the button asks %q (%v), want kind %q", c.step, raw, err, c.kind)
			continue
		}
		p := presentOn(t, ts, code, cookie)
		sendJSON(t, p, map[string]any{"v": 2, "type": "question", "action": "ask", "ask": ask})
		var m tallyIn
		readType(t, p, "tally", &m)
		if m.Question == nil || m.Question.Correct == nil || *m.Question.Correct != c.correct || m.Question.Explain != c.explain {
			t.Errorf("step %d: the question %+v, want correct %d, %q", c.step, m.Question, c.correct, c.explain)
		}
		p.Close()
	}
}
