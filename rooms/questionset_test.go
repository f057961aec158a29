package rooms

import (
	"context"
	"errors"
	"reflect"
	"testing"

	"github.com/stridescope/stridescope/rooms/natstest"
	"github.com/stridescope/stridescope/testkit"
)

// readsQuestion is "tap every cell the slice reads" on Example 2 of the
// DML_SLICE1 page (a 4×4 input, window offsets {0,1}, sizes {4,3},
// strides {-2,2}): input cells 5, 7, 13 and 15, and the set a student
// who takes the window's end as inclusive would tap.
func readsQuestion() Question {
	return Question{Kind: "reads", Min: 0, Max: 15, Set: true, Grid: "in", CorrectSet: []int64{5, 7, 13, 15},
		Explain: "{3, 1} × {1, 3}", WrongSets: []NamedSet{{Values: []int64{1, 3, 5, 7, 9, 11, 13, 15}, Name: "question.wrong.inclusiveEnd"}}}
}

// TestSetQuestionGroupsAnswers: five students on another replica than the
// presenter's tap sets: one exact (sent in another order, one cell twice),
// one missing a cell, one the named slip, one with a cell too many and
// one with both; the tally groups them and counts each cell's picks, and
// both replicas agree. A set of more cells than the input has, a cell
// outside it and a number for a set are refused and counted.
func TestSetQuestionGroupsAnswers(t *testing.T) {
	a, b, _ := twoReplicas(t)
	code, _, p := presentRoom(t, a, State{Page: "slice", Query: "preset=example2"})
	defer p.Close()
	q, err := p.Ask(readsQuestion())
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sets := [][]int64{{15, 5, 13, 7, 7}, {5, 7, 13}, {1, 3, 5, 7, 9, 11, 13, 15}, {5, 7, 13, 15, 0}, {5, 7, 13, 14}}
	var vs []*Viewer
	for i, set := range sets {
		v := joinQuestion(t, b, code, q.ID)
		vs = append(vs, v)
		if err := v.Answer(ctx, Answer{Question: q.ID, Set: set}); err != nil {
			t.Fatalf("student %d: %v", i, err)
		}
	}
	tl := waitTally(t, p, len(sets))
	wantGroups := []SetGroup{{Group: GroupExact, N: 1}, {Group: GroupMissing, N: 1}, {Group: GroupExtra, N: 1}, {Group: GroupExtra, N: 1, Name: "question.wrong.inclusiveEnd"}, {Group: GroupBoth, N: 1}}
	if !reflect.DeepEqual(tl.Groups, wantGroups) {
		t.Errorf("groups %+v, want %+v", tl.Groups, wantGroups)
	}
	wantPicks := []ValueCount{{Value: 0, N: 1}, {Value: 1, N: 1}, {Value: 3, N: 1}, {Value: 5, N: 5, Right: true}, {Value: 7, N: 5, Right: true}, {Value: 9, N: 1},
		{Value: 11, N: 1}, {Value: 13, N: 5, Right: true}, {Value: 14, N: 1}, {Value: 15, N: 3, Right: true}}
	if !reflect.DeepEqual(tl.Picks, wantPicks) {
		t.Errorf("picks %+v, want %+v", tl.Picks, wantPicks)
	}
	if n := answered(b, code, q.ID); n != len(sets) {
		t.Errorf("the students' replica counts %d answers, want %d", n, len(sets))
	}

	// The class never sees the right set or the named ones before the reveal.
	if _, cur := p.Tally(); cur == nil {
		t.Fatal("no question")
	} else if c := cur.ForClass(); c.CorrectSet != nil || c.WrongSets != nil || !c.Set || c.Grid != "in" {
		t.Errorf("the class's question: %+v", c)
	}

	late := joinQuestion(t, b, code, q.ID)
	tooMany := make([]int64, 17)
	for i := range tooMany {
		tooMany[i] = int64(i % 16)
	}
	for _, c := range []struct {
		name string
		a    Answer
		want error
	}{
		{"17 cells of a 16-cell input", Answer{Question: q.ID, Set: tooMany}, ErrAnswerTooMany},
		{"cell 16", Answer{Question: q.ID, Set: []int64{5, 16}}, ErrAnswerInvalid},
		{"cell -1", Answer{Question: q.ID, Set: []int64{-1}}, ErrAnswerInvalid},
		{"a number", Answer{Question: q.ID, Value: 5}, ErrAnswerInvalid},
	} {
		if err := late.Answer(ctx, c.a); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
	if got := b.Refused(); got[RefusedTooMany] != 1 || got[RefusedInvalid] != 3 {
		t.Errorf("refused: %v, want 1 too-many and 3 invalid", got)
	}
	// A number question refuses a set.
	if _, err := p.Ask(cellQuestion()); err != nil {
		t.Fatal(err)
	}
	st := nextState(t, late)
	for st.Question == nil || st.Question.Set {
		st = nextState(t, late)
	}
	if err := late.Answer(ctx, Answer{Question: st.Question.ID, Set: []int64{7}}); !errors.Is(err, ErrAnswerInvalid) {
		t.Errorf("a set for a number question: %v", err)
	}
}

// TestSetQuestionAsked: a set question is asked only with its right set,
// sorted and in its range.
func TestSetQuestionAsked(t *testing.T) {
	a, _, _ := twoReplicas(t)
	_, _, p := presentRoom(t, a, State{Page: "slice", Query: "preset=example2"})
	defer p.Close()
	for name, change := range map[string]func(q *Question){
		"no set":                func(q *Question) { q.CorrectSet = nil },
		"unsorted":              func(q *Question) { q.CorrectSet = []int64{7, 5} },
		"outside":               func(q *Question) { q.CorrectSet = []int64{5, 16} },
		"empty range":           func(q *Question) { q.Max = -1 },
		"a range of 2^16 cells": func(q *Question) { q.Max = 1 << 16 },
	} {
		q := readsQuestion()
		change(&q)
		if _, err := p.Ask(q); !errors.Is(err, ErrNoQuestion) {
			t.Errorf("%s: %v, want ErrNoQuestion", name, err)
		}
	}
}

// TestStaleQuestionCloses: the presenter's state that changes the picture
// under the open question closes it, marked stale, on every replica; a
// student's answer after it is refused; the answers given stay the
// presenter's; a state that leaves it alone keeps it open.
func TestStaleQuestionCloses(t *testing.T) {
	a, b, _ := twoReplicas(t)
	code, _, p := presentRoom(t, a, State{Page: "layout", Query: "preset=padded"})
	defer p.Close()
	q, err := p.Ask(cellQuestion())
	if err != nil {
		t.Fatal(err)
	}
	v := joinQuestion(t, b, code, q.ID)
	ctx := context.Background()
	if err := v.Answer(ctx, Answer{Question: q.ID, Value: 7}); err != nil {
		t.Fatal(err)
	}
	waitTally(t, p, 1)
	// Not stale: the same picture, another focus; another question's id.
	for _, stale := range []string{"", "notthisone"} {
		if err := p.UpdateStale(State{Page: "layout", Query: "preset=padded", Focus: "e:1,1"}, stale); err != nil {
			t.Fatal(err)
		}
		if st := nextState(t, v); st.Question == nil || !st.Question.Open || st.Question.Stale {
			t.Fatalf("an edit that changes nothing under the question: %+v", st.Question)
		}
	}
	if err := p.UpdateStale(State{Page: "layout", Query: "preset=hw"}, q.ID); err != nil {
		t.Fatal(err)
	}
	st := nextState(t, v)
	if st.Query != "preset=hw" || st.Question == nil || st.Question.Open || !st.Question.Stale || st.Question.ClosedAt == 0 {
		t.Fatalf("the picture changed under the question: %+v %+v", st, st.Question)
	}
	if err := v.Answer(ctx, Answer{Question: q.ID, Value: 7}); !errors.Is(err, ErrQuestionClosed) {
		t.Errorf("an answer about a stale question: %v", err)
	}
	if tl, cur := p.Tally(); tl.Answered != 1 || cur == nil || !cur.Stale {
		t.Errorf("the presenter's tally after the edit: %+v of %+v", tl, cur)
	}
	// The stale question can still be revealed (the presenter may go back).
	if err := p.Reveal(); err != nil {
		t.Fatal(err)
	}
	if st := nextState(t, v); !st.Question.Revealed || !st.Question.Stale || st.Question.Result == nil || st.Question.Result.Answered != 1 {
		t.Errorf("revealed stale: %+v", st.Question)
	}
}

// TestSetAnswersSurviveARestart: the presenter's replica restarts with set
// answers given; the one that comes back reads them from the store, sets
// and all, and groups them as before.
func TestSetAnswersSurviveARestart(t *testing.T) {
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
	code, token, p := presentRoom(t, a, State{Page: "slice", Query: "preset=example2"})
	q, err := p.Ask(readsQuestion())
	if err != nil {
		t.Fatal(err)
	}
	for _, set := range [][]int64{{5, 7, 13, 15}, {1, 3, 5, 7, 9, 11, 13, 15}} {
		if err := joinQuestion(t, b, code, q.ID).Answer(context.Background(), Answer{Question: q.ID, Set: set}); err != nil {
			t.Fatal(err)
		}
	}
	before := waitTally(t, p, 2)
	p.Close()
	stopA()

	a2, stopA2 := start()
	defer stopA2()
	p2, _, err := a2.Present(context.Background(), code, token)
	if err != nil {
		t.Fatal(err)
	}
	defer p2.Close()
	if after := waitTally(t, p2, 2); !reflect.DeepEqual(after.Groups, before.Groups) || !reflect.DeepEqual(after.Picks, before.Picks) ||
		after.Groups[1] != (SetGroup{Group: GroupExtra, N: 1, Name: "question.wrong.inclusiveEnd"}) {
		t.Errorf("after the restart: %+v, before: %+v", after, before)
	}
}

// BenchmarkSetTally: the presenter's tally of 1,000 students' sets of 128
// cells of a 256-cell input, as sent ten times a second while they answer.
func BenchmarkSetTally(b *testing.B) {
	q := Question{ID: "q", Set: true, Max: 255}
	for v := int64(0); v < 256; v += 2 {
		q.CorrectSet = append(q.CorrectSet, v)
	}
	answers := map[string]answerMsg{}
	for s := range 1000 {
		set := make([]int64, 0, 128)
		for v := int64(s % 3); v < 256 && len(set) < 128; v += 2 {
			set = append(set, v)
		}
		answers[string(rune(s))+"x"] = answerMsg{Question: "q", Set: set}
	}
	b.ReportAllocs()
	for b.Loop() {
		if t := setTally(answers, &q); t.Answered != 1000 {
			b.Fatal(t.Answered)
		}
	}
}
