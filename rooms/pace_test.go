package rooms

import (
	"context"
	"errors"
	"maps"
	"testing"
	"time"
)

// waitWhere waits until the presenter sees the students on want's steps.
func waitWhere(t *testing.T, p *Presenter, want map[int]int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for got := p.Where(); !maps.Equal(got, want); got = p.Where() {
		if time.Now().After(deadline) {
			t.Fatalf("the presenter sees %v, want %v", got, want)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestPaceStudentsAlone: the presenter lets the class go at its own pace;
// students on another replica say where they are and the presenter sees
// it, a student who leaves is no longer counted, and "bring everyone
// back" (teacher-paced) reaches every student and ends the count. A
// page's state keeps the pace.
func TestPaceStudentsAlone(t *testing.T) {
	a, b, _ := twoReplicas(t)
	code, _, p := presentRoom(t, a, State{Page: "tour", Step: 1})
	defer p.Close()
	var vs [3]*Viewer
	for i := range vs {
		v, err := b.Join(context.Background(), code)
		if err != nil {
			t.Fatal(err)
		}
		defer v.Close()
		nextState(t, v)
		vs[i] = v
	}
	if err := vs[0].Where(2); !errors.Is(err, ErrQuestionClosed) {
		t.Errorf("a step said while teacher-paced: %v", err)
	}
	if err := p.SetPace("fast"); !errors.Is(err, ErrPace) {
		t.Errorf("pace \"fast\": %v", err)
	}
	if err := p.SetPace(PaceStudent); err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if st := nextState(t, v); st.Pace != PaceStudent {
			t.Fatalf("a student got %+v", st)
		}
	}
	if err := p.Update(State{Page: "tour", Step: 2}); err != nil {
		t.Fatal(err)
	}
	for i, step := range []int{3, 3, 5} {
		if st := nextState(t, vs[i]); st.Pace != PaceStudent || st.Step != 2 {
			t.Fatalf("a page's state lost the pace: %+v", st)
		}
		if err := vs[i].Where(step); err != nil {
			t.Fatal(err)
		}
	}
	waitWhere(t, p, map[int]int{3: 2, 5: 1})
	if err := vs[2].Where(6); !errors.Is(err, ErrAnswerFlood) {
		t.Errorf("a second step within %v: %v", whereEvery, err)
	}
	// Student 0 opens the next step in a new page (the same student),
	// which says so before the old page's socket closes: still counted.
	next, err := b.JoinAs(context.Background(), code, vs[0].StudentToken())
	if err != nil {
		t.Fatal(err)
	}
	defer next.Close()
	nextState(t, next)
	if err := next.Where(4); err != nil {
		t.Fatal(err)
	}
	waitWhere(t, p, map[int]int{3: 1, 4: 1, 5: 1})
	vs[0].Close()
	vs[1].Close()
	waitWhere(t, p, map[int]int{4: 1, 5: 1})

	if err := p.SetPace(""); err != nil {
		t.Fatal(err)
	}
	for _, v := range []*Viewer{next, vs[2]} {
		if st := nextState(t, v); st.Pace != "" || st.Step != 2 {
			t.Errorf("brought back to %+v", st)
		}
	}
	if w := p.Where(); w != nil {
		t.Errorf("teacher-paced, the presenter sees %v", w)
	}
}
