package live

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/stridescope/stridescope/rooms"
)

// presentOver dials a presenter for the room, shares state and waits for
// the replica to have it.
func presentOver(t *testing.T, h *Hub, wsURL, code, page, query string) *websocket.Conn {
	t.Helper()
	p, _, err := websocket.DefaultDialer.Dial(wsURL+"?presenter=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	send(t, p, map[string]any{"type": "present", "room": code})
	readType(t, p, "presenting", nil)
	publishAndWait(t, h, p, code, page, query)
	return p
}

func publishAndWait(t *testing.T, h *Hub, p *websocket.Conn, code, page, query string) {
	t.Helper()
	send(t, p, map[string]any{"type": "publish", "state": map[string]any{"page": page, "query": query}})
	replica, _ := h.Rooms()
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if st, _ := replica.Current(t.Context(), code); st.Page == page && st.Query == query {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the presenter's state %s?%s was not shared", page, query)
		}
	}
}

// nextTally reads the presenter's tallies until ok says one is it.
func nextTally(t *testing.T, p *websocket.Conn, what string, ok func(tallyMsg) bool) tallyMsg {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); ; {
		var tm tallyMsg
		if err := json.Unmarshal(readType(t, p, "tally", nil), &tm); err != nil {
			t.Fatal(err)
		}
		if ok(tm) {
			return tm
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the last tally %+v (%+v)", what, tm.Question, tm.Tally)
		}
	}
}

// nextRoomQuestion reads a viewer's room states until ok says one's
// question is it.
func nextRoomQuestion(t *testing.T, c *websocket.Conn, what string, ok func(*rooms.Question) bool) *rooms.Question {
	t.Helper()
	for {
		var rm roomServerMsg
		if err := json.Unmarshal(readType(t, c, "room", nil), &rm); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		if ok(rm.State.Question) {
			return rm.State.Question
		}
	}
}

// TestRoomSetQuestionOverWebsocket (#41): on Example 2 of the DML_SLICE1
// page, the presenter asks "tap every cell the slice reads" over a real
// websocket; one student sends the exact set, one the set a negative
// stride read from the wrong end gives, one more cells than the input has
// (refused as too-many, counted). The presenter's tally groups them, the
// slip named, with each cell's picks; no student hears the set before the
// reveal. Then "which input element does output (1,0) come from".
func TestRoomSetQuestionOverWebsocket(t *testing.T) {
	h, ts, code := roomHub(t)
	wsURL := "ws" + strings.TrimPrefix(ts.URL, "http")
	p := presentOver(t, h, wsURL, code, "slice", "preset=example2")
	send(t, p, map[string]any{"type": "question", "action": "ask", "ask": map[string]any{"kind": "reads"}})
	tm := nextTally(t, p, "the question asked", func(tm tallyMsg) bool { return tm.Question != nil })
	if q := tm.Question; !q.Set || q.Grid != "in" || q.Max != 15 || !reflect.DeepEqual(q.CorrectSet, []int64{5, 7, 13, 15}) || q.Correct != nil || len(q.WrongSets) == 0 {
		t.Fatalf("the presenter's question: %+v", q)
	}
	qid := tm.Question.ID

	var students [3]*websocket.Conn
	for i := range students {
		students[i] = dial(t, ts)
		send(t, students[i], map[string]any{"type": "follow", "room": code})
		raw := readType(t, students[i], "room", nil)
		if strings.Contains(string(raw), "correctSet") || strings.Contains(string(raw), "wrongSets") || !strings.Contains(string(raw), `"set":true`) {
			t.Fatalf("student %d was sent %s", i, raw)
		}
	}
	send(t, students[0], map[string]any{"type": "answer", "question": qid, "set": []int{15, 13, 7, 5}})
	var ans answeredMsg
	if err := json.Unmarshal(readType(t, students[0], "answered", nil), &ans); err != nil || !reflect.DeepEqual(ans.Set, []int64{5, 7, 13, 15}) {
		t.Errorf("answered %+v (%v), want the set sorted", ans, err)
	}
	send(t, students[1], map[string]any{"type": "answer", "question": qid, "set": []int{1, 3, 9, 11}})
	readType(t, students[1], "answered", nil)
	send(t, students[2], map[string]any{"type": "answer", "question": qid, "set": make([]int, 17)})
	var refused answerRefusedMsg
	if err := json.Unmarshal(readType(t, students[2], "error", nil), &refused); err != nil || refused.Reason != rooms.RefusedTooMany {
		t.Errorf("17 cells of 16: %+v (%v)", refused, err)
	}
	send(t, students[2], map[string]any{"type": "answer", "question": qid, "value": 5})
	if err := json.Unmarshal(readType(t, students[2], "error", nil), &refused); err != nil || refused.Reason != rooms.RefusedInvalid {
		t.Errorf("a number for a set: %+v (%v)", refused, err)
	}
	tm = nextTally(t, p, "two answers", func(tm tallyMsg) bool { return tm.Tally != nil && tm.Tally.Answered == 2 })
	want := []rooms.SetGroup{{Group: rooms.GroupExact, N: 1}, {Group: rooms.GroupBoth, N: 1, Name: "question.wrong.wrongEnd"}}
	if !reflect.DeepEqual(tm.Tally.Groups, want) || len(tm.Tally.Picks) != 8 {
		t.Errorf("the tally's groups %+v, want %+v; picks %+v", tm.Tally.Groups, want, tm.Tally.Picks)
	}
	replica, _ := h.Rooms()
	if n := replica.Refused()[rooms.RefusedTooMany]; n != 1 {
		t.Errorf("refused as too many: %d, want 1", n)
	}

	send(t, p, map[string]any{"type": "question", "action": "reveal"})
	q := nextRoomQuestion(t, students[1], "the reveal", func(q *rooms.Question) bool { return q != nil && q.Revealed })
	if !reflect.DeepEqual(q.CorrectSet, []int64{5, 7, 13, 15}) || q.Result == nil || !reflect.DeepEqual(q.Result.Groups, want) || q.Explain != "{0} × {0} × {3, 1} × {1, 3}" {
		t.Errorf("the revealed question: %+v (result %+v)", q, q.Result)
	}

	send(t, p, map[string]any{"type": "question", "action": "ask", "ask": map[string]any{"kind": "source", "element": []int{0, 0, 1, 0}}})
	tm = nextTally(t, p, "the source question", func(tm tallyMsg) bool { return tm.Question != nil && tm.Question.Kind == "source" })
	if q := tm.Question; q.Set || q.Grid != "in" || !q.Elements || q.Correct == nil || *q.Correct != 5 {
		t.Errorf("which input element output (1,0) comes from: %+v", q)
	}
	send(t, students[0], map[string]any{"type": "answer", "question": tm.Question.ID, "value": 5})
	readType(t, students[0], "answered", nil)
	tm = nextTally(t, p, "one source answer", func(tm tallyMsg) bool { return tm.Tally != nil && tm.Tally.Answered == 1 })
	if c := tm.Tally.Counts; len(c) != 1 || !c[0].Right {
		t.Errorf("the source question's tally: %+v", c)
	}

	// MaxCopiedElements on axis 3 (size 3, stride 2): typed, with the
	// slip of size / |stride| named in the tally.
	send(t, p, map[string]any{"type": "question", "action": "ask", "ask": map[string]any{"kind": "maxcopied", "axis": 3}})
	tm = nextTally(t, p, "the MaxCopiedElements question", func(tm tallyMsg) bool { return tm.Question != nil && tm.Question.Kind == "maxcopied" })
	if q := tm.Question; q.Axis == nil || *q.Axis != 3 || q.Set || q.Elements || q.Cells || q.Correct == nil || *q.Correct != 2 {
		t.Errorf("MaxCopiedElements on axis 3: %+v", q)
	}
	for i := range 2 {
		sq := nextRoomQuestion(t, students[i], "the count question", func(q *rooms.Question) bool { return q != nil && q.Kind == "maxcopied" })
		if sq.Correct != nil || sq.Axis == nil || *sq.Axis != 3 {
			t.Errorf("student %d was sent %+v", i, sq)
		}
	}
	for i, v := range []int{2, 1} {
		send(t, students[i], map[string]any{"type": "answer", "question": tm.Question.ID, "value": v})
		readType(t, students[i], "answered", nil)
	}
	tm = nextTally(t, p, "two counts", func(tm tallyMsg) bool { return tm.Tally != nil && tm.Tally.Answered == 2 })
	named := false
	for _, c := range tm.Tally.Counts {
		named = named || (c.Value == 1 && c.Name == "question.wrong.noPlusOne")
	}
	if !named {
		t.Errorf("the tally %+v does not name 3 / 2 = 1", tm.Tally.Counts)
	}
}

// TestRoomQuestionGoesStale (#41): an edit of the presenter's that leaves
// the question's answer alone (the step-through, the values) keeps it
// open; one that changes it (another window) closes it, marked stale, on
// every student's page; a student's answer after it is refused; the
// presenter's tally says stale and keeps the answers.
func TestRoomQuestionGoesStale(t *testing.T) {
	h, ts, code := roomHub(t)
	wsURL := "ws" + strings.TrimPrefix(ts.URL, "http")
	p := presentOver(t, h, wsURL, code, "slice", "preset=example2")
	send(t, p, map[string]any{"type": "question", "action": "ask", "ask": map[string]any{"kind": "reads"}})
	qid := nextTally(t, p, "asked", func(tm tallyMsg) bool { return tm.Question != nil }).Question.ID
	s := dial(t, ts)
	send(t, s, map[string]any{"type": "follow", "room": code})
	nextRoomQuestion(t, s, "the question", func(q *rooms.Question) bool { return q != nil && q.ID == qid })
	send(t, s, map[string]any{"type": "answer", "question": qid, "set": []int{5, 7}})
	readType(t, s, "answered", nil)

	base := "dt=FLOAT32&sizes=1,1,4,4&woff=0,0,0,1&wsize=1,1,4,3&wstride=1,1,-2,2"
	for _, query := range []string{base, base + "&t=2", base + "&vals=9,8,7"} {
		publishAndWait(t, h, p, code, "slice", query)
		var rm roomServerMsg
		if err := json.Unmarshal(readType(t, s, "room", nil), &rm); err != nil {
			t.Fatal(err)
		}
		if q := rm.State.Question; q == nil || q.ID != qid || !q.Open || q.Stale {
			t.Fatalf("%s: the question %+v, want it open", query, q)
		}
	}
	// Another window: the slice reads other cells.
	publishAndWait(t, h, p, code, "slice", "preset=example1")
	q := nextRoomQuestion(t, s, "stale", func(q *rooms.Question) bool { return q != nil && q.Stale })
	if q.Open || q.ID != qid || q.CorrectSet != nil {
		t.Errorf("the class's stale question: %+v", q)
	}
	send(t, s, map[string]any{"type": "answer", "question": qid, "set": []int{5, 7, 13, 15}})
	var refused answerRefusedMsg
	if err := json.Unmarshal(readType(t, s, "error", nil), &refused); err != nil || refused.Reason != rooms.RefusedClosed {
		t.Errorf("an answer after the picture changed: %+v (%v)", refused, err)
	}
	tm := nextTally(t, p, "the presenter's stale tally", func(tm tallyMsg) bool { return tm.Question != nil && tm.Question.Stale })
	if tm.Question.Open || tm.Tally.Answered != 1 {
		t.Errorf("the presenter's tally: %+v %+v", tm.Question, tm.Tally)
	}
	// Another page altogether makes a new question stale too.
	send(t, p, map[string]any{"type": "question", "action": "ask", "ask": map[string]any{"kind": "reads"}})
	qid = nextTally(t, p, "asked again", func(tm tallyMsg) bool { return tm.Question != nil && tm.Question.ID != qid && tm.Question.Open }).Question.ID
	publishAndWait(t, h, p, code, "layout", "preset=padded")
	nextRoomQuestion(t, s, "stale on another page", func(q *rooms.Question) bool { return q != nil && q.ID == qid && q.Stale && !q.Open })
}

// TestRoomQuestionAskedRightAfterAnEdit (#41): a presenter's page shares
// its edit and asks at once (static/questions.js flushes the edit first),
// again and again while a question is open: each question is about the
// edit, and none is closed stale by it.
func TestRoomQuestionAskedRightAfterAnEdit(t *testing.T) {
	h, ts, code := roomHub(t)
	wsURL := "ws" + strings.TrimPrefix(ts.URL, "http")
	p := presentOver(t, h, wsURL, code, "layout", "dt=FLOAT32&sizes=2,3&strides=3,1&total=80")
	send(t, p, map[string]any{"type": "question", "action": "ask", "ask": map[string]any{"kind": "offset", "element": []int{1, 2}}})
	last := nextTally(t, p, "asked", func(tm tallyMsg) bool { return tm.Question != nil }).Question.ID
	for i := range 12 {
		stride := 4 + i
		send(t, p, map[string]any{"type": "publish", "state": map[string]any{"page": "layout", "query": "dt=FLOAT32&sizes=2,3&strides=" + strconv.Itoa(stride) + ",1&total=80"}})
		send(t, p, map[string]any{"type": "question", "action": "ask", "ask": map[string]any{"kind": "offset", "element": []int{1, 2}}})
		tm := nextTally(t, p, "asked after the edit", func(tm tallyMsg) bool { return tm.Question != nil && tm.Question.ID != last })
		last = tm.Question.ID
		if q := tm.Question; *q.Correct != int64(stride+2) {
			t.Errorf("asked right after strides %d,1: the answer %d, want %d", stride, *q.Correct, stride+2)
		}
		// The loop is idle again when the next edit comes (publishEvery).
		time.Sleep(publishEvery + 20*time.Millisecond)
		if _, q := replicaQuestion(t, h, code); q.ID != last || q.Stale || !q.Open {
			t.Errorf("the question asked right after strides %d,1 is %+v", stride, q)
		}
	}
}

func replicaQuestion(t *testing.T, h *Hub, code string) (rooms.State, *rooms.Question) {
	t.Helper()
	replica, _ := h.Rooms()
	st, err := replica.Current(t.Context(), code)
	if err != nil || st.Question == nil {
		t.Fatalf("the room's state %+v (%v)", st, err)
	}
	return st, st.Question
}
