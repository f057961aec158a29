package rooms

import (
	"encoding/json"
	"testing"
	"time"
)

// TestTheNewestPresenterPresents: a presenter connection that presents a
// room moves aside the ones that presented it before, on its replica and
// on the others; a takeover replayed later moves nobody who presented
// after it.
func TestTheNewestPresenterPresents(t *testing.T) {
	a, b, _ := twoReplicas(t)
	code, token, err := a.Create(State{Page: "layout"})
	if err != nil {
		t.Fatal(err)
	}
	present := func(r *Replica) *Presenter {
		t.Helper()
		p, _, err := r.Present(code, token)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.Close)
		return p
	}
	moved := func(want map[string]bool, ps map[string]*Presenter) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for {
			ok := true
			for name, p := range ps {
				ok = ok && p.Moved() == want[name]
			}
			if ok {
				return
			}
			if time.Now().After(deadline) {
				for name, p := range ps {
					t.Errorf("%s: moved %v, want %v", name, p.Moved(), want[name])
				}
				t.FailNow()
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	first := present(a)
	second := present(a) // a second tab on the same replica
	moved(map[string]bool{"first": true, "second": false}, map[string]*Presenter{"first": first, "second": second})
	third := present(b) // the teacher's phone, through another replica
	moved(map[string]bool{"first": true, "second": true, "third": false}, map[string]*Presenter{"first": first, "second": second, "third": third})
	fourth := present(a) // back on the laptop
	moved(map[string]bool{"third": true, "fourth": false}, map[string]*Presenter{"third": third, "fourth": fourth})

	// The first tab's takeover, sealed as it was, said again.
	subj := subject(code, "takeover")
	b.mu.Lock()
	created := b.rooms[code].created
	b.mu.Unlock()
	old, _ := json.Marshal(takeoverMsg{Created: created, ID: first.id, At: first.at})
	for _, r := range []*Replica{a, b} {
		r.onTakeover(code, subj, a.seal(subj, old))
	}
	time.Sleep(100 * time.Millisecond)
	if fourth.Moved() {
		t.Error("a replayed takeover moved the newest presenter")
	}
}
