package join

import (
	"context"
	"net/url"
	"strings"
	"testing"
)

// TestPageStepPastTheGrids: a page opened at t= without JavaScript
// writes the step's formula for the grids and for the canvases alike
// (the SVG stands in for the canvases: no cell to mark), and no step
// past the canvases' limit, where the page draws no element.
func TestPageStepPastTheGrids(t *testing.T) {
	three := "&in=1,1,12,12&st=&in=1,1,12,12&st=&in=1,1,12,12&st="
	cases := []struct {
		name, query string
		k, total    int64
		line        string // "": no step
	}{
		{"grids", "op=join&dt=FLOAT32&axis=3&in=1,1,2,3&st=&in=1,1,2,4&st=&t=3", 3, 14,
			"OutputTensor[{0,0,0,3}] = InputTensors[1][{0, 0, 0, 3 − 3}] = InputTensors[1][{0,0,0,0}]"},
		{"join canvases, across an input", "op=join&dt=FLOAT32&axis=3" + three + "&t=12", 12, 432,
			"OutputTensor[{0,0,0,12}] = InputTensors[1][{0, 0, 0, 12 − 12}] = InputTensors[1][{0,0,0,0}]"},
		{"join canvases, the last", "op=join&dt=FLOAT32&axis=3" + three + "&t=431", 431, 432,
			"OutputTensor[{0,0,11,35}] = InputTensors[2][{0, 0, 11, 35 − 24}] = InputTensors[2][{0,0,11,11}]"},
		{"split canvases, the second output", "op=split&dt=FLOAT32&axis=2&in=1,1,24,24&st=&outs=8,8,8&t=193", 193, 576,
			"OutputTensors[1][{0,0,0,1}] = InputTensor[{0, 0, 0 + 8, 1}] = InputTensor[{0,0,8,1}]"},
		{"past the steps", "op=split&dt=FLOAT32&axis=2&in=1,1,24,24&st=&outs=8,8,8&t=576", 0, 0, ""},
		{"past the canvases", "op=split&dt=UINT8&axis=0&in=4096,4097&st=&outs=2048,2048&t=1", 0, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q, err := url.ParseQuery(c.query)
			if err != nil {
				t.Fatal(err)
			}
			m, err := PageOf(context.Background(), q)
			if err != nil {
				t.Fatal(err)
			}
			if !m.Drawn {
				t.Fatalf("no picture: %v", m.Form.Errors)
			}
			s := m.Step
			if c.line == "" {
				if s != nil {
					t.Fatalf("step %d of %d, want none", s.K, s.Total)
				}
				return
			}
			if s == nil {
				t.Fatal("no step")
			}
			if s.K != c.k || s.Total != c.total {
				t.Errorf("step %d of %d, want %d of %d", s.K, s.Total, c.k, c.total)
			}
			if got := strings.Join(s.Lines, "\n"); got != c.line {
				t.Errorf("lines\n%q\nwant\n%q", got, c.line)
			}
			if (s.Next != "") != (c.k+1 < c.total) || !strings.Contains(s.Prev, "t="+itoa(int(c.k-1))) {
				t.Errorf("links %q, %q", s.Prev, s.Next)
			}
		})
	}
}
