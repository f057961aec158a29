package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"reflect"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/stridescope/stridescope/rooms"
	"github.com/stridescope/stridescope/rooms/natsbus"
)

// answerOutcome reads a student's socket until its answer is taken
// ("answered") or refused, and returns the refusal's reason ("" taken).
func answerOutcome(t *testing.T, c *websocket.Conn, within time.Duration) (reason string) {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		_ = c.SetReadDeadline(deadline)
		kind, data, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("waiting for the answer's outcome: %v (never silent: a student must hear one)", err)
		}
		if kind != websocket.TextMessage {
			continue
		}
		var m struct{ Type, Code, Reason string }
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		switch {
		case m.Type == "answered":
			return ""
		case m.Type == "error" && m.Code == "answer-refused":
			return m.Reason
		}
	}
}

// TestRoomAnswersWhileNATSPauses (#41): students on two replicas answer
// while the NATS server is paused for a few seconds. Each is told either
// that the answer is taken or that it was not received (reason
// "reconnecting"; a form gets 503 and the words "Not received"): never
// silence. After the bus resumes, those who send again are counted once;
// one who gives up is counted by no replica, though the put the paused
// server held may land in the store when it resumes; and both replicas
// count the same answers.
func TestRoomAnswersWhileNATSPauses(t *testing.T) {
	n := startNATSProcess(t)
	secret := []byte("pause test secret")
	var servers [2]*Server
	var tss [2]*httptest.Server
	var urls [2]string
	for i := range servers {
		bus, err := natsbus.New(natsbus.Options{URL: n.url()})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { bus.Close() })
		s, ts := roomServer(t, Config{Bus: bus, RoomSecret: secret})
		servers[i], tss[i], urls[i] = s, ts, ts.URL
	}
	code, _, cookie := openRoom(t, tss[0], "preset=padded")
	p := presentOn(t, tss[0], code, cookie)
	qid := askOn(t, p, map[string]any{"kind": "cell", "element": []int{1, 2}})

	// Six students on sockets, three a replica; one without JavaScript.
	type student struct {
		c     *websocket.Conn
		final int64 // the answer it ends with; -1: it gave up
	}
	var students []*student
	for i := range 6 {
		c, _ := followOn(t, tss[i%2], code)
		students = append(students, &student{c: c, final: int64(5 + 2*(i%2))})
	}
	students[5].final = -1 // answers while paused, refused, and gives up
	form := newFormStudent(t, urls[1])
	token, _ := form.questionPage(code, qid).Find("form.q-answer input[name=student]").Attr("value")
	formAnswer := url.Values{"question": {qid}, "student": {token}, "value": {"7"}}
	// Student 0 answers before the pause.
	sendJSON(t, students[0].c, map[string]any{"v": 2, "type": "answer", "question": qid, "value": 5})
	if r := answerOutcome(t, students[0].c, 5*time.Second); r != "" {
		t.Fatalf("an answer before the pause: refused %q", r)
	}

	n.signal(syscall.SIGSTOP)
	n.waitState('T')
	paused := time.Now()
	refused := map[int]bool{}
	for _, s := range students[1:] {
		v := s.final
		if v < 0 {
			v = 4
		}
		sendJSON(t, s.c, map[string]any{"v": 2, "type": "answer", "question": qid, "value": v})
	}
	for i, s := range students[1:] {
		switch r := answerOutcome(t, s.c, 10*time.Second); r {
		case "":
		case "reconnecting":
			refused[i+1] = true
		default:
			t.Errorf("student %d, NATS paused: refused %q, want taken or reconnecting", i+1, r)
		}
	}
	res := form.post(code, formAnswer, "same-origin")
	formRefused := res.StatusCode == http.StatusServiceUnavailable
	if res.StatusCode != http.StatusSeeOther && !formRefused {
		t.Errorf("a form's answer, NATS paused: %d, want 303 or 503", res.StatusCode)
	}
	if formRefused && !strings.Contains(form.body, "Not received: the room is reconnecting.") {
		t.Error("the form's refusal, NATS paused, does not say the answer was not received")
	}
	t.Logf("NATS paused %v: %d of 5 socket answers refused (reconnecting), the form's %v", time.Since(paused).Round(time.Millisecond), len(refused), formRefused)
	if !refused[5] {
		t.Fatal("the student who gives up was not refused: the test pauses NATS too briefly")
	}
	time.Sleep(time.Until(paused.Add(4 * time.Second)))
	n.signal(syscall.SIGCONT)
	resumed := time.Now()

	// Those refused send again, as the page does, until taken.
	for i, s := range students {
		if !refused[i] || s.final < 0 {
			continue
		}
		for try := 0; ; try++ {
			sendJSON(t, s.c, map[string]any{"v": 2, "type": "answer", "question": qid, "value": s.final})
			if answerOutcome(t, s.c, 10*time.Second) == "" {
				break
			}
			if try == 20 {
				t.Fatalf("student %d: refused 20 times after NATS resumed", i)
			}
			time.Sleep(500 * time.Millisecond)
		}
	}
	for formRefused {
		res := form.post(code, formAnswer, "same-origin")
		if res.StatusCode == http.StatusSeeOther {
			break
		}
		if time.Since(resumed) > 20*time.Second {
			t.Fatalf("the form's answer: %d 20 s after NATS resumed", res.StatusCode)
		}
		time.Sleep(500 * time.Millisecond)
	}
	t.Logf("every answer taken %v after NATS resumed", time.Since(resumed).Round(time.Millisecond))

	want := rooms.Tally{Question: qid, Answered: 6, Counts: []rooms.ValueCount{{Value: 5, N: 3, Name: "question.wrong.packed"}, {Value: 7, N: 3, Right: true}}}
	// Both replicas count the same, and go on doing so after every
	// replica has caught up on the store (a refresh after the bus came
	// back reads the answers again).
	deadline := time.Now().Add(15 * time.Second)
	for {
		same := true
		for i, s := range servers {
			got, _ := s.rooms.rooms.TallyOf(code)
			if !reflect.DeepEqual(got, want) {
				same = false
				if time.Now().After(deadline) {
					t.Fatalf("replica %d counts %+v, want %+v", i, got, want)
				}
			}
		}
		if same {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	// A replica that reads the room afresh from the store (a restart)
	// counts the same: the answer given up on is not there to count.
	bus3, err := natsbus.New(natsbus.Options{URL: n.url()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bus3.Close() })
	s3, ts3 := roomServer(t, Config{Bus: bus3, RoomSecret: secret})
	newFormStudent(t, ts3.URL).get(ts3.URL + "/r/" + code + "/answer")
	got, _ := s3.rooms.rooms.TallyOf(code)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("a new replica reading the store counts %+v, want %+v", got, want)
	}
	for i, s := range servers {
		if r := s.rooms.rooms.Refused(); r[rooms.RefusedForged] != 0 {
			t.Errorf("replica %d dropped %d answers as forged", i, r[rooms.RefusedForged])
		}
	}
}
