package rooms

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/stridescope/stridescope/rooms/natstest"
	"github.com/stridescope/stridescope/testkit"
)

// cellQuestion is "which buffer offset holds element (1,2)" on the
// padded preset (sizes 2,3, strides 5,1, a 10-cell buffer): 7, and the
// packed layout's 5 named.
func cellQuestion() Question {
	right := int64(7)
	return Question{Kind: "cell", Element: []int64{1, 2}, Min: 0, Max: 9, Cells: true, Correct: &right,
		Explain: "1×5 + 2×1 = 7", Wrong: []NamedAnswer{{Value: 5, Name: "question.wrong.packed"}}}
}

// waitTally waits until p's tally has n answers, and returns it.
func waitTally(t *testing.T, p *Presenter, n int) Tally {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		tl, _ := p.Tally()
		if tl.Answered == n {
			return tl
		}
		if time.Now().After(deadline) {
			t.Fatalf("the presenter's tally has %d answers after 5 s, want %d: %+v", tl.Answered, n, tl)
		}
		select {
		case <-p.Answers():
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// answered is the replica's count of answers to question qid of room code.
func answered(r *Replica, code, qid string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	rm, ok := r.rooms[code]
	if !ok {
		return -1
	}
	return len(rm.answers[qid])
}

func joinQuestion(t *testing.T, r *Replica, code, qid string) *Viewer {
	t.Helper()
	v, err := r.Join(context.Background(), code)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(v.Close)
	for {
		st := nextState(t, v)
		if st.Question != nil && st.Question.ID == qid {
			return v
		}
	}
}

// TestQuestionAnswersCountedOnce: three students on another replica than
// the presenter's answer, one changes their mind and one answers twice
// the same: the presenter's tally has 3 answers, one per student, with
// the right one and the named wrong one, and both replicas count alike.
func TestQuestionAnswersCountedOnce(t *testing.T) {
	a, b, _ := twoReplicas(t)
	code, _, p := presentRoom(t, a, State{Page: "layout", Query: "preset=padded"})
	defer p.Close()
	q, err := p.Ask(cellQuestion())
	if err != nil {
		t.Fatal(err)
	}
	var vs [3]*Viewer
	for i := range vs {
		vs[i] = joinQuestion(t, b, code, q.ID)
	}
	ctx := context.Background()
	for i, val := range []int64{7, 7, 9} {
		if err := vs[i].Answer(ctx, Answer{Question: q.ID, Value: val}); err != nil {
			t.Fatalf("student %d: %v", i, err)
		}
	}
	// Student 2 changes their mind to the packed layout's offset; student
	// 0 sends the same answer again (a reconnect).
	if err := vs[2].Answer(ctx, Answer{Question: q.ID, Value: 5, Nick: "  Ana\x07 "}); err != nil {
		t.Fatal(err)
	}
	if err := vs[0].Answer(ctx, Answer{Question: q.ID, Value: 7}); err != nil {
		t.Fatal(err)
	}
	tl := waitTally(t, p, 3)
	want := []ValueCount{{Value: 7, N: 2, Right: true}, {Value: 5, N: 1, Name: "question.wrong.packed"}}
	time.Sleep(100 * time.Millisecond) // a late 9 would show now
	if tl, _ = p.Tally(); !reflect.DeepEqual(tl.Counts, want) || tl.Answered != 3 {
		t.Errorf("tally %+v, want 3 answers %+v", tl, want)
	}
	if n := answered(b, code, q.ID); n != 3 {
		t.Errorf("the students' replica counts %d answers, want 3", n)
	}
	// A student who reloads (their token) is the same student.
	again, err := b.JoinAs(ctx, code, vs[1].StudentToken())
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	if again.student != vs[1].student {
		t.Errorf("a student's token named another student")
	}
	if err := again.Answer(ctx, Answer{Question: q.ID, Value: 5}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for tl, _ = p.Tally(); tl.Counts[0].N != 2 || tl.Counts[0].Value != 5; tl, _ = p.Tally() {
		if time.Now().After(deadline) {
			t.Fatalf("the reloaded student's new answer did not replace theirs: %+v", tl)
		}
		time.Sleep(10 * time.Millisecond)
	}
	if tl.Answered != 3 {
		t.Errorf("after a reload: %d answers, want 3", tl.Answered)
	}
	if forged, _ := b.JoinAs(ctx, code, "aaaaaaaaaaaaaaaa.notthemac"); forged.student == "aaaaaaaaaaaaaaaa" {
		t.Errorf("a forged student token was taken")
	} else {
		forged.Close()
	}
}

// TestQuestionRevealAndClass: the class's state carries the question
// without its answer until the reveal, which brings the answer, the
// working and the class's answers to every viewer.
func TestQuestionRevealAndClass(t *testing.T) {
	a, b, _ := twoReplicas(t)
	code, _, p := presentRoom(t, a, State{Page: "layout", Query: "preset=padded"})
	defer p.Close()
	q, err := p.Ask(cellQuestion())
	if err != nil {
		t.Fatal(err)
	}
	v := joinQuestion(t, b, code, q.ID)
	if err := v.Answer(context.Background(), Answer{Question: q.ID, Value: 5}); err != nil {
		t.Fatal(err)
	}
	waitTally(t, p, 1)
	// A page's later state keeps the question.
	if err := p.Update(State{Page: "layout", Query: "preset=padded", Focus: "e:0,0"}); err != nil {
		t.Fatal(err)
	}
	st := nextState(t, v)
	if st.Question == nil || st.Question.ID != q.ID {
		t.Fatalf("a page's state dropped the question: %+v", st)
	}
	class := st.Question.ForClass()
	if class.Correct != nil || class.Explain != "" || class.Wrong != nil || class.Result != nil || !class.Open {
		t.Errorf("the class sees %+v before the reveal", class)
	}
	if err := p.Reveal(); err != nil {
		t.Fatal(err)
	}
	st = nextState(t, v)
	rq := st.Question.ForClass()
	if !rq.Revealed || rq.Open || rq.Correct == nil || *rq.Correct != 7 || rq.Explain == "" || rq.Result == nil || rq.Result.Answered != 1 ||
		rq.Result.Counts[0] != (ValueCount{Value: 5, N: 1, Name: "question.wrong.packed"}) {
		t.Errorf("revealed question %+v (result %+v)", rq, rq.Result)
	}
	if err := v.Answer(context.Background(), Answer{Question: q.ID, Value: 7}); !errors.Is(err, ErrQuestionClosed) {
		t.Errorf("an answer after the reveal: %v, want ErrQuestionClosed", err)
	}
	if err := p.Dismiss(); err != nil {
		t.Fatal(err)
	}
	if st = nextState(t, v); st.Question != nil {
		t.Errorf("dismissed, the class still has %+v", st.Question)
	}
}

// TestQuestionRefusals: an answer after the close, for another student,
// out of range, a flood from one page, and forged answers on the bus are
// each refused and counted, and none is counted as an answer.
func TestQuestionRefusals(t *testing.T) {
	a, b, nurl := twoReplicas(t)
	code, _, p := presentRoom(t, a, State{Page: "layout", Query: "preset=padded"})
	defer p.Close()
	q, err := p.Ask(cellQuestion())
	if err != nil {
		t.Fatal(err)
	}
	v := joinQuestion(t, b, code, q.ID)
	other := joinQuestion(t, b, code, q.ID)
	ctx := context.Background()

	if err := v.Answer(ctx, Answer{Question: q.ID, Value: 7, Student: other.StudentToken()}); !errors.Is(err, ErrNotYours) {
		t.Errorf("for another student: %v", err)
	}
	if err := v.Answer(ctx, Answer{Question: q.ID, Value: 10}); !errors.Is(err, ErrAnswerInvalid) {
		t.Errorf("cell 10 of a 10-cell buffer: %v", err)
	}
	if err := v.Answer(ctx, Answer{Question: "nottheone", Value: 7}); !errors.Is(err, ErrQuestionClosed) {
		t.Errorf("another question: %v", err)
	}
	// A flood: the first answers of the burst are taken (less the three
	// refused above, which took theirs), the rest refused.
	taken, flood := 0, 0
	for range 50 {
		switch err := v.Answer(ctx, Answer{Question: q.ID, Value: 7}); {
		case err == nil:
			taken++
		case errors.Is(err, ErrAnswerFlood):
			flood++
		default:
			t.Fatal(err)
		}
	}
	if taken != answerBurst-2 || flood != 50-taken {
		t.Errorf("a flood of 50: %d taken, %d refused; want %d taken", taken, flood, answerBurst-2)
	}

	// Forged answers on the bus: unsealed, sealed with another secret, a
	// genuine one replayed into another room.
	raw, err := nats.Connect(nurl)
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	forged, _ := json.Marshal(answerMsg{Question: q.ID, Student: "forger", Value: 3, At: math.MaxInt64 / 2})
	wrongKey := NewReplica(a.bus, []byte("not the room secret"), testkit.Quiet())
	subj := subject(code, "answer")
	before := a.Refused()[RefusedForged]
	for _, data := range [][]byte{forged, wrongKey.seal(subj, forged), a.seal(subject("OTHERROO", "answer"), forged)} {
		if err := raw.Publish(subj, data); err != nil {
			t.Fatal(err)
		}
	}
	raw.Flush()
	deadline := time.Now().Add(5 * time.Second)
	for a.Refused()[RefusedForged]-before < 3 {
		if time.Now().After(deadline) {
			t.Fatalf("forged answers refused on the presenter's replica: %d, want 3", a.Refused()[RefusedForged]-before)
		}
		time.Sleep(10 * time.Millisecond)
	}

	if err := p.CloseQuestion(); err != nil {
		t.Fatal(err)
	}
	for {
		if st := nextState(t, other); st.Question != nil && !st.Question.Open {
			break
		}
	}
	if err := other.Answer(ctx, Answer{Question: q.ID, Value: 7}); !errors.Is(err, ErrQuestionClosed) {
		t.Errorf("after the close: %v", err)
	}
	if tl := waitTally(t, p, 1); tl.Counts[0].Value != 7 {
		t.Errorf("tally %+v, want the one genuine answer", tl)
	}
	got := b.Refused()
	for kind, want := range map[string]int64{RefusedNotYour: 1, RefusedInvalid: 1, RefusedClosed: 2, RefusedFlood: int64(flood)} {
		if got[kind] != want {
			t.Errorf("refused %s: %d, want %d (all: %v)", kind, got[kind], want, got)
		}
	}
}

// TestQuestionAnswersSurviveARestart: the presenter's replica restarts
// with answers given; the replica that comes back (a new process on the
// same NATS) has every answer, and takes more.
func TestQuestionAnswersSurviveARestart(t *testing.T) {
	url := natstest.Loopback(t)
	secret := []byte("shared test secret")
	start := func() (*Replica, func()) {
		bus, err := DialBus(url)
		if err != nil {
			t.Fatal(err)
		}
		r := NewReplica(bus, secret, testkit.Quiet())
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { defer close(done); r.Run(ctx) }()
		<-r.Running()
		return r, func() { cancel(); <-done; bus.Close() }
	}
	a, stopA := start()
	b, stopB := start()
	defer stopB()
	code, token, p := presentRoom(t, a, State{Page: "layout", Query: "preset=padded"})
	q, err := p.Ask(cellQuestion())
	if err != nil {
		t.Fatal(err)
	}
	var vs [3]*Viewer
	for i := range vs {
		vs[i] = joinQuestion(t, b, code, q.ID)
	}
	for i, val := range []int64{7, 5} {
		if err := vs[i].Answer(context.Background(), Answer{Question: q.ID, Value: val}); err != nil {
			t.Fatal(err)
		}
	}
	waitTally(t, p, 2)
	p.Close()
	stopA()

	a2, stopA2 := start()
	defer stopA2()
	p2, st, err := a2.Present(context.Background(), code, token)
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	if st.Question == nil || st.Question.ID != q.ID || !st.Question.Open {
		t.Fatalf("after the restart the room's question is %+v", st.Question)
	}
	waitTally(t, p2, 2)
	if err := vs[2].Answer(context.Background(), Answer{Question: q.ID, Value: 7}); err != nil {
		t.Fatal(err)
	}
	tl := waitTally(t, p2, 3)
	if tl.Counts[0] != (ValueCount{Value: 7, N: 2, Right: true}) {
		t.Errorf("after the restart: %+v", tl)
	}

	// The room ends: its answers leave the store with it.
	stored := func() int {
		keys, err := a2.bus.ListRooms(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, k := range keys {
			if room, ok := answerRoom(k); ok && room == code {
				n++
			}
		}
		return n
	}
	if n := stored(); n != 3 {
		t.Errorf("%d answers stored, want 3", n)
	}
	if err := a2.End(context.Background(), code, token); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		left := stored()
		if left == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d answers of the ended room are still stored", left)
		}
	}
}
