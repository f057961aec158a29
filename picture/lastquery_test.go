package picture

import (
	"strings"
	"testing"
)

func TestLastQuery(t *testing.T) {
	for _, c := range []struct {
		last string
		max  int
		want string // the query, encoded; "" when there is none
	}{
		{"", 100, ""},
		{"sizes=2,3", 100, "sizes=2%2C3"},
		{"sizes=2,3&last=sizes%3D4", 100, "sizes=2%2C3"}, // never followed further back
		{"sizes=" + strings.Repeat("1,", 60), 100, ""},   // too long
		{"sizes=%zz", 100, ""},                           // does not parse
	} {
		q, ok := LastQuery(c.last, c.max)
		if got := q.Encode(); ok != (c.want != "") || got != c.want {
			t.Errorf("LastQuery(%q, %d) = %q, %v; want %q", c.last, c.max, got, ok, c.want)
		}
	}
}
