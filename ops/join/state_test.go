package join

import (
	"context"
	"net/url"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/stridescope/stridescope/views/viewstest"
)

// cellValues are the labels of a grid's cells in row-major order.
func cellValues(doc *goquery.Document, grid string) []int64 {
	var out []int64
	doc.Find(viewstest.TID(grid + "cell")).Each(func(_ int, s *goquery.Selection) {
		n, _ := strconv.ParseInt(strings.TrimSpace(s.Find("span").First().Text()), 10, 64)
		out = append(out, n)
	})
	return out
}

// TestPresetsReproduceThePages: each example of the DML_JOIN and
// DML_SPLIT pages, one click away, draws the numbers the page prints:
// the inputs 1, 2, 3... and every output cell holding its source's value.
func TestPresetsReproduceThePages(t *testing.T) {
	cases := []struct {
		preset string
		grids  map[string][]int64
	}{
		{"join-example1", map[string][]int64{"o0": {1, 2, 3, 7, 8, 9, 10, 4, 5, 6, 11, 12, 13, 14}}},
		{"join-example2-axis1", map[string][]int64{"o0": {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}}},
		{"join-example2-axis2", map[string][]int64{"o0": {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}}},
		{"join-example2-axis3", map[string][]int64{"o0": {1, 2, 5, 6, 9, 10, 3, 4, 7, 8, 11, 12}}},
		{"split-example1", map[string][]int64{"i0": {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, "o0": {1, 2, 3, 4}, "o1": {5, 6}, "o2": {7, 8, 9, 10, 11, 12}}},
		{"split-example2", map[string][]int64{"o0": {1, 3, 5, 7, 9, 11}, "o1": {2, 4, 6, 8, 10, 12}}},
	}
	for _, c := range cases {
		t.Run(c.preset, func(t *testing.T) {
			v := Validate(StateFromQuery(url.Values{"preset": {c.preset}}))
			if !v.Valid() {
				t.Fatalf("invalid: %v", v.Errors)
			}
			doc := viewstest.Doc(t, PictureFragment(NewPicture(context.Background(), v)))
			for g, want := range c.grids {
				if got := cellValues(doc, g); !slices.Equal(got, want) {
					t.Errorf("%s: %v, want %v", g, got, want)
				}
			}
		})
	}
}

// TestCellsLinkBothWays: every output cell links to the input cell it
// is copied from, which links back to it.
func TestCellsLinkBothWays(t *testing.T) {
	for _, p := range Presets {
		t.Run(p.name, func(t *testing.T) {
			v := Validate(StateFromQuery(url.Values{"preset": {p.name}}))
			doc := viewstest.Doc(t, PictureFragment(NewPicture(context.Background(), v)))
			n := 0
			doc.Find(".lc[id^=o]").Each(func(_ int, s *goquery.Selection) {
				n++
				id, _ := s.Attr("id")
				link, _ := s.Attr("data-link")
				src := doc.Find("#" + link)
				back, _ := src.Attr("data-link")
				if back != id {
					t.Errorf("%s links %s, which links %s", id, link, back)
				}
				if a, b := s.Find("span").First().Text(), src.Find("span").First().Text(); a != b {
					t.Errorf("%s holds %s, its source %s holds %s", id, a, link, b)
				}
			})
			if n == 0 {
				t.Error("no output cells")
			}
		})
	}
}

// TestStateErrorsAtTheirBoxes: each broken rule is reported at the
// request's field and shown at the box that holds it, all at once.
func TestStateErrorsAtTheirBoxes(t *testing.T) {
	cases := []struct {
		query string
		want  []string // field: box
	}{
		{"op=join&dt=FLOAT32&axis=2&in=1,1,2,3&st=&in=1,1,2,4&st=", []string{"inputs[1].sizes[3]: inputs[1].sizes"}},
		{"op=join&dt=FLOAT32&axis=x&in=2,3&st=&in=2,3&st=", []string{"axis: axis"}},
		{"op=join&dt=FLOAT32&axis=0&in=2,3&st=&in=2,0&st=4", []string{"inputs[1].strides: inputs[1].strides", "inputs[1].sizes[1]: inputs[1].sizes"}},
		{"op=split&dt=FLOAT32&axis=2&in=1,1,6,2&st=&outs=2,2", []string{"outputSizes: outputSizes"}},
		{"op=split&dt=FLOAT32&axis=2&in=1,1,6,2&st=&outs=2,x,4", []string{"outputSizes[1]: outputSizes"}},
		{"op=split&dt=UINT4&axis=7&in=1,1,6,2&st=&outs=6", []string{"dataType: dataType", "axis: axis"}},
		{"op=cat&dt=FLOAT32&axis=0&in=2&st=&in=2&st=", []string{"op: op"}},
		{"op=join&dt=FLOAT32&axis=0&in=2&st=&in=2&st=&n=9", []string{"n: n"}},
		{"op=join&dt=FLOAT32&axis=0&in=2,3&st=&in=2,3&st=&fl=3_0", []string{"inputs[0].sizes: inputs[0].sizes"}},
		{"op=split&dt=INT8&axis=0&in=1,1,2,2&st=&outs=1&fl=2_0", []string{"dataType: dataType"}},
		{"op=split&dt=FLOAT32&axis=0&in=1,1,2,2&st=&outs=1&fl=9_9", []string{"featureLevel: featureLevel"}},
	}
	for _, c := range cases {
		t.Run(c.query, func(t *testing.T) {
			q, _ := url.ParseQuery(c.query)
			v := Validate(StateFromQuery(q))
			f := FormIn(context.Background(), v)
			var got []string
			for _, e := range v.Errors {
				got = append(got, e.Field+": "+boxOf(f, e.Field))
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("errors %v, want %v", got, c.want)
			}
		})
	}
}

// TestCountAndCanonicalQuery: n repeats the last input (packed) or
// drops the last ones; the canonical query reads back to itself.
func TestCountAndCanonicalQuery(t *testing.T) {
	q, _ := url.ParseQuery("op=join&dt=FLOAT16&axis=1&in=2,3&st=4,1&in=2,1&st=&n=4")
	st, vs := StateFromQuery(q)
	if len(vs) > 0 || len(st.Sizes) != 4 || st.Sizes[3] != "2,1" || st.Strides[3] != "" {
		t.Fatalf("%+v %v", st, vs)
	}
	v := Validate(st, nil)
	if !v.Valid() {
		t.Fatal(v.Errors)
	}
	want := "op=join&dt=FLOAT16&axis=1&in=2,3&st=4,1&in=2,1&st=&in=2,1&st=&in=2,1&st="
	if q, _ := url.ParseQuery(want + "&fl=3.1"); StateOf(Validate(StateFromQuery(q))).FL != "3_1" {
		t.Error("fl=3.1 is not written 3_1")
	}
	if got := StateOf(v).CanonicalQuery(false); got != want {
		t.Errorf("canonical %s, want %s", got, want)
	}
	q2, _ := url.ParseQuery(want)
	if got := StateOf(Validate(StateFromQuery(q2))).CanonicalQuery(false); got != want {
		t.Errorf("read back: %s", got)
	}
}

// TestNumPyExportsRun: the NumPy each page example exports runs and
// gives the outputs the DirectML pages print. It needs python3 with
// NumPy (CI installs python3-numpy).
func TestNumPyExportsRun(t *testing.T) {
	py := ""
	for _, c := range []string{"/usr/bin/python3", "python3"} {
		if p, err := exec.LookPath(c); err == nil && exec.Command(p, "-c", "import numpy").Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		t.Skip("no python3 with NumPy: apt-get install python3-numpy")
	}
	cases := []struct {
		preset, print, want string
	}{
		{"join-example1", "y", "[1, 2, 3, 7, 8, 9, 10, 4, 5, 6, 11, 12, 13, 14]"},
		{"join-example2-axis3", "y", "[1, 2, 5, 6, 9, 10, 3, 4, 7, 8, 11, 12]"},
		{"split-example1", "y1", "[5, 6]"},
		{"split-example2", "y1", "[2, 4, 6, 8, 10, 12]"},
	}
	for _, c := range cases {
		t.Run(c.preset, func(t *testing.T) {
			v := Validate(StateFromQuery(url.Values{"preset": {c.preset}}))
			script := NewPicture(context.Background(), v).NumPy + "print([int(v) for v in " + c.print + ".ravel()])\n"
			out, err := exec.Command(py, "-c", script).CombinedOutput()
			if err != nil {
				t.Fatalf("%v: %s\n%s", err, out, script)
			}
			if got := strings.TrimSpace(string(out)); got != c.want {
				t.Errorf("%s = %s, want %s", c.print, got, c.want)
			}
		})
	}
}

// TestPseudoCodeWorkedOut: the DirectML pages' pseudo-code, worked out
// for the examples: the sizes along the axis summed, then the assert.
func TestPseudoCodeWorkedOut(t *testing.T) {
	cases := map[string][]string{
		"join-example1": {"joinSize = 0", "InputTensors[0]->Sizes[3] = 3: joinSize = 3", "InputTensors[1]->Sizes[3] = 4: joinSize = 7", "assert(joinSize == OutputTensor->Sizes[3]): 7 == 7"},
		"split-example1": {"splitSize = 0", "OutputTensors[0]->Sizes[2] = 2: splitSize = 2", "OutputTensors[1]->Sizes[2] = 1: splitSize = 3",
			"OutputTensors[2]->Sizes[2] = 3: splitSize = 6", "assert(splitSize == InputTensor->Sizes[2]): 6 == 6"},
	}
	for preset, want := range cases {
		v := Validate(StateFromQuery(url.Values{"preset": {preset}}))
		if got := NewPicture(context.Background(), v).Sum; !slices.Equal(got, want) {
			t.Errorf("%s:\n%s\nwant\n%s", preset, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
}

// TestSwitchingOperators: the operator picker turns a join into the
// split of its first input into one output (a copy), and a split into
// the join of its input with itself, both valid.
func TestSwitchingOperators(t *testing.T) {
	for q, want := range map[string]string{
		"op=split&dt=FLOAT32&axis=3&in=1,1,2,3&st=&in=1,1,2,4&st=": "op=split&dt=FLOAT32&axis=3&in=1,1,2,3&st=&outs=3",
		"op=join&dt=FLOAT32&axis=2&in=1,1,6,2&st=":                 "op=join&dt=FLOAT32&axis=2&in=1,1,6,2&st=&in=1,1,6,2&st=",
	} {
		vals, _ := url.ParseQuery(q)
		v := Validate(StateFromQuery(vals))
		if !v.Valid() {
			t.Fatalf("%s: %v", q, v.Errors)
		}
		if got := StateOf(v).CanonicalQuery(false); got != want {
			t.Errorf("%s: %s, want %s", q, got, want)
		}
	}
}

// TestErratumWhereItMatters: the DML_JOIN page's dimension table is
// explained beside a join of a rank it refuses before 4_1, not beside
// one of rank 4.
func TestErratumWhereItMatters(t *testing.T) {
	for preset, want := range map[string]bool{"join-example1": false, "join-padded": true, "split-columns": false} {
		v := Validate(StateFromQuery(url.Values{"preset": {preset}}))
		if got := NewPicture(context.Background(), v).Erratum != ""; got != want {
			t.Errorf("%s: erratum %v, want %v", preset, got, want)
		}
	}
}
