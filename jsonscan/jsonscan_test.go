package jsonscan

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// recorder writes down what a walk tells it.
type recorder struct {
	events []string
	stopAt string // an event that stops the walk
}

func (r *recorder) note(e string) bool {
	r.events = append(r.events, e)
	return e != r.stopAt
}

func (r *recorder) Open(p Path, object bool) bool {
	return r.note(fmt.Sprintf("open %q %v", p.String(), object))
}

func (r *recorder) Entry(p Path, n int) bool {
	return r.note(fmt.Sprintf("entry %q %d", p.String(), n))
}

func (r *recorder) Close(p Path, object bool) {
	r.note(fmt.Sprintf("close %q %v", p.String(), object))
}

func TestWalk(t *testing.T) {
	tests := []struct {
		name, text string
		stopAt     string
		ok         bool
		events     []string
	}{
		{"scalar", ` 12 `, "", true, nil},
		{"string with escapes", `"a\"b\\"`, "", true, nil},
		{"empty containers", `{"a":[],"b":{}}`, "", true, []string{
			`open "" true`, `entry "a" 0`, `open "a" false`, `close "a" false`,
			`entry "b" 1`, `open "b" true`, `close "b" true`, `close "" true`}},
		{"nested", `{"x": [1, {"y\u0031": "]"}, [true]]}`, "", true, []string{
			`open "" true`, `entry "x" 0`, `open "x" false`,
			`entry "x[0]" 0`, `entry "x[1]" 1`, `open "x[1]" true`, `entry "x[1].y1" 0`, `close "x[1]" true`,
			`entry "x[2]" 2`, `open "x[2]" false`, `entry "x[2][0]" 0`, `close "x[2]" false`,
			`close "x" false`, `close "" true`}},
		{"stopped", `[1,2,3]`, `entry "[1]" 1`, false, []string{`open "" false`, `entry "[0]" 0`, `entry "[1]" 1`}},
		{"cut off", `{"a":[1,2`, "", false, []string{`open "" true`, `entry "a" 0`, `open "a" false`, `entry "a[0]" 0`, `entry "a[1]" 1`}},
		{"key without colon", `{"a" 1}`, "", false, []string{`open "" true`}},
		{"key not a string", `{a:1}`, "", false, []string{`open "" true`}},
		{"trailing comma", `[1,]`, "", false, []string{`open "" false`, `entry "[0]" 0`, `entry "[1]" 1`}},
		{"two values", `[] []`, "", false, []string{`open "" false`, `close "" false`}},
		{"unterminated string", `["abc`, "", false, []string{`open "" false`, `entry "[0]" 0`}},
		{"empty", ``, "", false, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{stopAt: tt.stopAt}
			if ok := Walk([]byte(tt.text), r); ok != tt.ok {
				t.Errorf("Walk = %v, want %v", ok, tt.ok)
			}
			if got, want := strings.Join(r.events, "\n"), strings.Join(tt.events, "\n"); got != want {
				t.Errorf("events:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestWalkAllocatesOnlyItsPath: a long list of numbers and strings costs
// the walk nothing per entry.
func TestWalkAllocatesOnlyItsPath(t *testing.T) {
	text := []byte(`{"values":[` + strings.Repeat(`0,"x",`, 100000) + `1]}`)
	var c counter
	allocs := testing.AllocsPerRun(5, func() {
		if !Walk(text, &c) {
			t.Fatal("not walked to the end")
		}
	})
	if allocs > 4 {
		t.Errorf("%v allocations for 200,001 entries, want a few for the path", allocs)
	}
}

type counter struct{ n int }

func (c *counter) Open(Path, bool) bool { return true }
func (c *counter) Entry(Path, int) bool { c.n++; return true }
func (c *counter) Close(Path, bool)     {}

// TestWalkStopsAtItsDepth: a visitor that never stops a text of a
// million brackets is stopped at maxDepth, not by the stack.
func TestWalkStopsAtItsDepth(t *testing.T) {
	text := []byte(strings.Repeat("[", 1<<20) + strings.Repeat("]", 1<<20))
	var c counter
	if Walk(text, &c) {
		t.Error("a million levels walked to the end")
	}
	ok := []byte(strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth))
	if !Walk(ok, &c) {
		t.Errorf("%d levels refused", maxDepth)
	}
}

// FuzzWalk: any text is walked to an answer, never a panic, and a text
// encoding/json takes as one value is walked to its end.
func FuzzWalk(f *testing.F) {
	for _, s := range []string{`{}`, `{"a":[1,"b\"",{"c":null}]}`, `[[[`, `"\`, `{"a" 1}`, `[1,]`, ` 12 `} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		var c counter
		ok := Walk(text, &c)
		if json.Valid(text) && !ok && !deep(text) {
			t.Errorf("valid JSON %q not walked to its end", text)
		}
	})
}

// deep says whether text nests past the walk's bound.
func deep(text []byte) bool {
	return strings.Count(string(text), "[")+strings.Count(string(text), "{") >= maxDepth
}
