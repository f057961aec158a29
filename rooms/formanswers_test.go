package rooms

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestFormAnswers: a student answering with forms (no socket) on the
// replica that does not hold the presenter answers as the student its
// token names: a second post changes the answer, a forged or another
// room's token is refused, the sixth post at once is a flood, and a post
// after the close is refused; both replicas count one answer.
func TestFormAnswers(t *testing.T) {
	a, b, _ := twoReplicas(t)
	ctx := context.Background()
	code, _, p := presentRoom(t, a, State{Page: "layout", Query: "preset=padded"})
	defer p.Close()
	other, _, po := presentRoom(t, a, State{Page: "layout"})
	defer po.Close()
	q, err := p.Ask(cellQuestion())
	if err != nil {
		t.Fatal(err)
	}
	tok := b.StudentToken(code, "")
	if again := b.StudentToken(code, tok); again != tok {
		t.Fatalf("StudentToken changed a valid token: %q, then %q", tok, again)
	}
	if a.StudentToken(code, tok) != tok {
		t.Fatal("a student's token is not valid on the other replica")
	}
	// A forged token differs in its last character (a token that ends
	// in x is forged with y: x would be the token itself, one run in 64).
	forged := tok[:len(tok)-1] + "x"
	if forged == tok {
		forged = tok[:len(tok)-1] + "y"
	}
	steps := []struct {
		name  string
		token string
		value int64
		want  error
	}{
		{"first answer", tok, 5, nil},
		{"changed", tok, 7, nil},
		{"forged token", forged, 7, ErrNotYours},
		{"another room's token", b.StudentToken(other, ""), 7, ErrNotYours},
		{"no token", "", 7, ErrNotYours},
		{"out of range", tok, 10, ErrAnswerInvalid},
		{"again", tok, 7, nil},
		{"again", tok, 7, nil},
		{"flood", tok, 7, ErrAnswerFlood},
	}
	for _, s := range steps {
		err := b.AnswerAs(ctx, code, s.token, Answer{Question: q.ID, Value: s.value})
		if !errors.Is(err, s.want) {
			t.Errorf("%s: %v, want %v", s.name, err, s.want)
		}
	}
	// The presenter's replica hears the changed answer after the first:
	// one answer either way, 7 once the change is in.
	tl := waitTally(t, p, 1)
	for deadline := time.Now().Add(5 * time.Second); len(tl.Counts) == 1 && tl.Counts[0].Value != 7 && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
		tl = waitTally(t, p, 1)
	}
	if len(tl.Counts) != 1 || tl.Counts[0].Value != 7 || !tl.Counts[0].Right {
		t.Errorf("presenter's tally %+v, want one right answer, 7", tl)
	}
	if v, ok := b.AnswerOf(code, tok); !ok || v != 7 {
		t.Errorf("AnswerOf = %d, %v; want 7", v, ok)
	}
	if n := answered(b, code, q.ID); n != 1 {
		t.Errorf("the students' replica counts %d answers, want 1", n)
	}
	if err := p.CloseQuestion(); err != nil {
		t.Fatal(err)
	}
	tok2 := b.StudentToken(code, "")
	waitClosed(t, b, code)
	if err := b.AnswerAs(ctx, code, tok2, Answer{Question: q.ID, Value: 7}); !errors.Is(err, ErrQuestionClosed) {
		t.Errorf("an answer after the close: %v, want ErrQuestionClosed", err)
	}
	if got := b.Refused(); got[RefusedNotYour] != 3 || got[RefusedFlood] != 1 || got[RefusedInvalid] != 1 || got[RefusedClosed] != 1 {
		t.Errorf("refused %v", got)
	}
}

// waitClosed waits until r has heard that room code's question closed.
func waitClosed(t *testing.T, r *Replica, code string) {
	t.Helper()
	for range 250 {
		st, err := r.Current(context.Background(), code)
		if err == nil && st.Question != nil && !st.Question.Open {
			return
		}
		sleepTick()
	}
	t.Fatal("the close never reached the replica")
}

func sleepTick() { time.Sleep(20 * time.Millisecond) }

// TestLandedLate: an answer the store wrote later than its stamp plus
// the store's timeout and the clocks' error is one its replica gave up
// on (the student was told it was not received); one written in time,
// or by a store that says no time, counts.
func TestLandedLate(t *testing.T) {
	at := time.Date(2026, 11, 29, 10, 0, 0, 0, time.UTC)
	m := answerMsg{At: at.UnixMicro()}
	for _, c := range []struct {
		name   string
		stored time.Time
		late   bool
	}{
		{"at once", at.Add(3 * time.Millisecond), false},
		{"at the timeout", at.Add(storeTimeout), false},
		{"within the clocks' error", at.Add(storeTimeout + closeSkew), false},
		{"after the replica gave up", at.Add(storeTimeout + closeSkew + time.Millisecond), true},
		{"when a paused server resumed", at.Add(4 * time.Second), true},
		{"a store that says no time", time.Time{}, false},
		{"a clock behind the stamp", at.Add(-time.Second), false},
	} {
		if got := landedLate(RoomEntry{Stored: c.stored}, m); got != c.late {
			t.Errorf("%s: landedLate = %v, want %v", c.name, got, c.late)
		}
	}
}
