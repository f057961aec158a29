package live

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/stridescope/stridescope/rooms"
)

// readType reads until the next message of type typ and returns it raw;
// every "room" message on the way is appended to *rooms (if not nil).
func readType(t *testing.T, c *websocket.Conn, typ string, states *[][]byte) []byte {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		kind, data, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("waiting for %q: %v", typ, err)
		}
		var head struct{ Type string }
		if kind != websocket.TextMessage || json.Unmarshal(data, &head) != nil {
			continue
		}
		if head.Type == "room" && states != nil {
			*states = append(*states, data)
		}
		if head.Type == typ {
			return data
		}
	}
}

func send(t *testing.T, c *websocket.Conn, m map[string]any) {
	t.Helper()
	m["v"] = ProtocolVersion
	if err := c.WriteJSON(m); err != nil {
		t.Fatal(err)
	}
}

// TestRoomQuestionOverWebsocket: a presenter asks "which cell holds
// element (1,2)" on the padded preset over a real websocket; three
// students answer (two right, one the packed layout's offset); one tries
// to answer for another and is refused. The presenter's tallies count 3
// with the packed offset named; no student's message carries the answer
// or the tally until the reveal, which brings both to every student.
func TestRoomQuestionOverWebsocket(t *testing.T) {
	h, ts, code := roomHub(t)
	wsURL := "ws" + strings.TrimPrefix(ts.URL, "http")
	p, _, err := websocket.DefaultDialer.Dial(wsURL+"?presenter=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	send(t, p, map[string]any{"type": "present", "room": code})
	readType(t, p, "presenting", nil)
	send(t, p, map[string]any{"type": "publish", "state": map[string]any{"page": "layout", "query": "preset=padded"}})
	replica, _ := h.Rooms()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if st, _ := replica.Current(t.Context(), code); st.Query == "preset=padded" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the presenter's state was not shared")
		}
	}
	send(t, p, map[string]any{"type": "question", "action": "ask", "ask": map[string]any{"kind": "cell", "element": []int{1, 2}}})
	var tm tallyMsg
	if err := json.Unmarshal(readType(t, p, "tally", nil), &tm); err != nil {
		t.Fatal(err)
	}
	if tm.Question == nil || tm.Question.Correct == nil || *tm.Question.Correct != 7 || tm.Question.Explain != "1×5 + 2×1 = 7" || tm.Question.Max != 9 {
		t.Fatalf("the presenter's question: %+v", tm.Question)
	}
	qid := tm.Question.ID

	var students [3]*websocket.Conn
	var tokens [3]string
	seen := make([][][]byte, 3)
	for i := range students {
		students[i] = dial(t, ts)
		send(t, students[i], map[string]any{"type": "follow", "room": code})
		var sm studentMsg
		if err := json.Unmarshal(readType(t, students[i], "student", nil), &sm); err != nil || sm.Student == "" {
			t.Fatalf("student %d: no token (%v)", i, err)
		}
		tokens[i] = sm.Student
		var rm roomServerMsg
		if err := json.Unmarshal(readType(t, students[i], "room", &seen[i]), &rm); err != nil {
			t.Fatal(err)
		}
		if q := rm.State.Question; q == nil || q.ID != qid || !q.Open || q.Correct != nil || q.Wrong != nil || q.Explain != "" {
			t.Fatalf("student %d's question: %+v", i, rm.State.Question)
		}
	}
	// Student 0 tries to answer for student 1: refused, and counted.
	send(t, students[0], map[string]any{"type": "answer", "question": qid, "value": 7, "student": tokens[1]})
	var refused answerRefusedMsg
	if err := json.Unmarshal(readType(t, students[0], "error", &seen[0]), &refused); err != nil || refused.Reason != rooms.RefusedNotYour {
		t.Fatalf("answering for another: %+v (%v)", refused, err)
	}
	for i, v := range []int{7, 7, 5} {
		send(t, students[i], map[string]any{"type": "answer", "question": qid, "value": v, "nick": "s" + string(rune('0'+i))})
		readType(t, students[i], "answered", &seen[i])
	}
	for deadline := time.Now().Add(5 * time.Second); ; {
		tm = tallyMsg{} // a fresh one: Unmarshal keeps what the JSON leaves out
		if err := json.Unmarshal(readType(t, p, "tally", nil), &tm); err != nil {
			t.Fatal(err)
		}
		if tm.Tally != nil && tm.Tally.Answered == 3 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the presenter's tally: %+v", tm.Tally)
		}
	}
	want := []rooms.ValueCount{{Value: 7, N: 2, Right: true}, {Value: 5, N: 1, Name: "question.wrong.packed"}}
	if len(tm.Tally.Counts) != 2 || tm.Tally.Counts[0] != want[0] || tm.Tally.Counts[1] != want[1] {
		t.Errorf("the tally %+v, want %+v", tm.Tally.Counts, want)
	}
	if n := replica.Refused()[rooms.RefusedNotYour]; n != 1 {
		t.Errorf("refused for another student: %d, want 1", n)
	}

	send(t, p, map[string]any{"type": "question", "action": "reveal"})
	for i, s := range students {
		for {
			var rm roomServerMsg
			if err := json.Unmarshal(readType(t, s, "room", &seen[i]), &rm); err != nil {
				t.Fatal(err)
			}
			if q := rm.State.Question; q != nil && q.Revealed {
				if q.Correct == nil || *q.Correct != 7 || q.Result == nil || q.Result.Answered != 3 || q.Explain == "" {
					t.Errorf("student %d's revealed question: %+v", i, q)
				}
				break
			}
		}
		// Nothing a student was sent before the reveal told the answer
		// or the class's answers.
		for _, data := range seen[i][:len(seen[i])-1] {
			if strings.Contains(string(data), `"correct"`) || strings.Contains(string(data), `"result"`) || strings.Contains(string(data), `"wrong"`) {
				t.Errorf("student %d was sent before the reveal: %s", i, data)
			}
		}
	}
	send(t, students[2], map[string]any{"type": "answer", "question": qid, "value": 7})
	if err := json.Unmarshal(readType(t, students[2], "error", nil), &refused); err != nil || refused.Reason != rooms.RefusedClosed {
		t.Errorf("an answer after the reveal: %+v (%v)", refused, err)
	}

	// An edit published and a question asked at once: the question is
	// about the edit (height stride 4: (1,2) at 6), not the state before.
	for i := range 5 {
		send(t, p, map[string]any{"type": "publish", "state": map[string]any{"page": "layout", "query": fmt.Sprintf("dt=FLOAT32&sizes=2,3&strides=%d,1&total=40", 6+i)}})
	}
	send(t, p, map[string]any{"type": "publish", "state": map[string]any{"page": "layout", "query": "dt=FLOAT32&sizes=2,3&strides=4,1&total=40"}})
	send(t, p, map[string]any{"type": "question", "action": "ask", "ask": map[string]any{"kind": "offset", "element": []int{1, 2}}})
	for {
		tm = tallyMsg{}
		if err := json.Unmarshal(readType(t, p, "tally", nil), &tm); err != nil {
			t.Fatal(err)
		}
		if tm.Question != nil && tm.Question.ID != qid {
			break
		}
	}
	if q := tm.Question; q.Correct == nil || *q.Correct != 6 || q.Explain != "1×4 + 2×1 = 6" || !q.Open || q.Revealed || q.Cells || q.Result != nil {
		t.Errorf("a question asked right after an edit: %+v", tm.Question)
	}
}
