package slice1

import (
	"errors"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/picture"
)

// TestReadsQuestion: the set "tap every cell the slice reads" is, on every
// preset, exactly the input elements core's slice reads, and the slips'
// sets on the DirectML page's examples are the ones worked out by hand.
func TestReadsQuestion(t *testing.T) {
	for _, c := range []struct {
		preset  string
		set     []int64
		explain string
		wrong   map[string][]int64
	}{
		// Example 2: rows {3, 1} (CopyStart 3, stride -2), columns {1, 3}.
		{"example2", []int64{5, 7, 13, 15}, "{0} × {0} × {3, 1} × {1, 3}", map[string][]int64{
			"question.wrong.wrongEnd":     {1, 3, 9, 11},                             // rows {0, 2}: from the offset forward
			"question.wrong.strideOffset": {10},                                      // rows and columns from 2, by 2: (2, 2)
			"question.wrong.everyCell":    {1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15}, // the whole window
		}},
		// Example 1: rows {0, 2}, columns {1, 3}: the end taken as
		// inclusive reads columns {1, 3} still (3 = 1 + 2 < 4) and rows {0, 2, 4}: no more.
		{"example1", []int64{1, 3, 9, 11}, "{0} × {0} × {0, 2} × {1, 3}", map[string][]int64{
			"question.wrong.everyCell": {1, 2, 3, 5, 6, 7, 9, 10, 11, 13, 14, 15},
		}},
		{"reverse", []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}, "{2, 1, 0} × {3, 2, 1, 0}", map[string][]int64{}},
		// Columns 0 to 3 by 2 of a 1×6 input: {0, 2}; the end taken as
		// inclusive reads 4 as well.
		{"dt=FLOAT32&sizes=1,6&woff=0,0&wsize=1,4&wstride=1,2", []int64{0, 2}, "{0} × {0, 2}", map[string][]int64{
			"question.wrong.inclusiveEnd": {0, 2, 4},
			"question.wrong.everyCell":    {0, 1, 2, 3},
			"question.wrong.strideOffset": {2, 4},
		}},
	} {
		t.Run(c.preset, func(t *testing.T) {
			p := ask(t, c.preset, explorer.Ask{Kind: QuestionReads})
			if !p.Set || p.Grid != "in" || p.Min != 0 || !reflect.DeepEqual(p.CorrectSet, c.set) || p.Explain != c.explain {
				t.Errorf("posed %+v, want the set %v and %q", p, c.set, c.explain)
			}
			got := map[string][]int64{}
			for _, w := range p.WrongSets {
				got[w.Name] = w.Values
				if slices.Equal(w.Values, p.CorrectSet) {
					t.Errorf("%s names the right set", w.Name)
				}
			}
			for name, want := range c.wrong {
				if !reflect.DeepEqual(got[name], want) {
					t.Errorf("%s: %v, want %v", name, got[name], want)
				}
			}
		})
	}
	// Every preset against core's own reads.
	for _, pr := range SlicePresets {
		v := validPreset(t, pr.name)
		coords, err := v.Slice.InputCoordinates(1 << 12)
		if err != nil {
			t.Fatal(err)
		}
		var want []int64
		for _, c := range coords {
			want = append(want, picture.RowMajorIndex(v.Slice.Input.Sizes, c))
		}
		slices.Sort(want)
		want = slices.Compact(want)
		p := ask(t, pr.name, explorer.Ask{Kind: QuestionReads})
		if !reflect.DeepEqual(p.CorrectSet, want) || p.Max != v.Slice.Input.LogicalElementCount()-1 {
			t.Errorf("%s: the set %v (max %d), core reads %v", pr.name, p.CorrectSet, p.Max, want)
		}
	}
}

// TestSourceQuestion: which input element output element c comes from,
// as core's InputCoordinate says, with the slips named.
func TestSourceQuestion(t *testing.T) {
	p := ask(t, "example2", explorer.Ask{Kind: QuestionSource, Element: []int64{0, 0, 1, 0}})
	// Output (1,0) is Input[CopyStart {0,0,3,1} + {1,1,-2,2} × {0,0,1,0}] = (0,0,1,1): index 5.
	if p.Correct != 5 || !p.Elements || p.Grid != "in" || p.Max != 15 || p.Explain != "(0, 0, 3, 1) + (1, 1, -2, 2) × (0, 0, 1, 0) = (0, 0, 1, 1)" {
		t.Errorf("posed %+v", p)
	}
	// From the offset forward: (0,0,2,1), 9; the stride taken as 1:
	// (0,0,4,1), outside, not named; the output's coordinate: (0,0,1,0), 4.
	want := []explorer.Named{{Value: 9, Name: "question.wrong.wrongEnd"}, {Value: 4, Name: "question.wrong.sameCoord"}}
	if !reflect.DeepEqual(p.Wrong, want) {
		t.Errorf("slips %+v, want %+v", p.Wrong, want)
	}
	for _, pr := range SlicePresets {
		v := validPreset(t, pr.name)
		for i := range v.Slice.OutputElementCount() {
			c := v.Slice.Output.Coordinate(i)
			p := ask(t, pr.name, explorer.Ask{Kind: QuestionSource, Element: c})
			if want := picture.RowMajorIndex(v.Slice.Input.Sizes, v.Slice.InputCoordinate(i)); p.Correct != want {
				t.Errorf("%s %v: %d, core %d", pr.name, c, p.Correct, want)
			}
		}
	}
}

// TestMaxCopiedQuestion: MaxCopiedElements on an axis of the page's
// Example 2, 1 + (size - 1) / |stride| as the page prints it, with the
// slips that give another count named; on every preset and axis, core's
// own MaxCopiedElements.
func TestMaxCopiedQuestion(t *testing.T) {
	for _, c := range []struct {
		axis    int64
		correct int64
		explain string
		wrong   []explorer.Named
	}{
		// Rows: size 4, stride -2. 4 / 2 = 2 is right by chance: not named.
		{2, 2, "1 + (4 − 1) / |-2| = 1 + 3 / 2 = 2", []explorer.Named{{Value: 3, Name: "question.wrong.inclusiveEnd"}, {Value: 4, Name: "question.wrong.noStride"}}},
		// Columns: size 3, stride 2.
		{3, 2, "1 + (3 − 1) / |2| = 1 + 2 / 2 = 2", []explorer.Named{{Value: 1, Name: "question.wrong.noPlusOne"}, {Value: 3, Name: "question.wrong.noStride"}}},
	} {
		p := ask(t, "example2", explorer.Ask{Kind: QuestionMaxCopied, Axis: &c.axis})
		if p.Correct != c.correct || p.Explain != c.explain || p.Axis == nil || *p.Axis != c.axis || p.Cells || p.Elements || p.Set {
			t.Errorf("axis %d: posed %+v", c.axis, p)
		}
		if !reflect.DeepEqual(p.Wrong, c.wrong) {
			t.Errorf("axis %d: slips %+v, want %+v", c.axis, p.Wrong, c.wrong)
		}
	}
	for _, pr := range SlicePresets {
		v := validPreset(t, pr.name)
		for d := range int64(v.Slice.Input.Rank()) {
			if p := ask(t, pr.name, explorer.Ask{Kind: QuestionMaxCopied, Axis: &d}); p.Correct != v.Slice.MaxCopied[d] {
				t.Errorf("%s axis %d: %d, core %d", pr.name, d, p.Correct, v.Slice.MaxCopied[d])
			}
		}
	}
}

// TestQuestionRefused: what the slice explorer cannot ask.
func TestQuestionRefused(t *testing.T) {
	for name, c := range map[string]struct {
		query string
		ask   explorer.Ask
	}{
		"another kind":          {"preset=example2", explorer.Ask{Kind: "bytes"}},
		"outside the output":    {"preset=example2", explorer.Ask{Kind: QuestionSource, Element: []int64{0, 0, 2, 0}}},
		"negative":              {"preset=example2", explorer.Ask{Kind: QuestionSource, Element: []int64{0, 0, -1, 0}}},
		"too few coordinates":   {"preset=example2", explorer.Ask{Kind: QuestionSource, Element: []int64{1, 0}}},
		"a slice with errors":   {"dt=FLOAT32&sizes=4,4&woff=0,0&wsize=4,4&wstride=0,1", explorer.Ask{Kind: QuestionReads}},
		"an input of 20×20":     {"dt=FLOAT32&sizes=20,20&woff=0,0&wsize=20,20&wstride=1,1", explorer.Ask{Kind: QuestionReads}},
		"no axis":               {"preset=example2", explorer.Ask{Kind: QuestionMaxCopied}},
		"an axis past the rank": {"preset=example2", explorer.Ask{Kind: QuestionMaxCopied, Axis: ptr(4)}},
		"a negative axis":       {"preset=example2", explorer.Ask{Kind: QuestionMaxCopied, Axis: ptr(-1)}},
	} {
		q, _ := url.ParseQuery(c.query)
		if _, err := (Kind{}).Question(t.Context(), q, c.ask); !errors.Is(err, explorer.ErrNoQuestion) {
			t.Errorf("%s: %v, want ErrNoQuestion", name, err)
		}
	}
}

func ask(t *testing.T, preset string, a explorer.Ask) explorer.Posed {
	t.Helper()
	query := preset
	if !strings.Contains(query, "=") {
		query = "preset=" + preset
	}
	q, _ := url.ParseQuery(query)
	p, err := Kind{}.Question(t.Context(), q, a)
	if err != nil {
		t.Fatalf("%s %+v: %v", preset, a, err)
	}
	return p
}

func validPreset(t *testing.T, name string) Validated {
	t.Helper()
	q, _ := url.ParseQuery("preset=" + name)
	st, qvs := StateFromQuery(q)
	v := Validate(st, qvs)
	if v.Slice == nil {
		t.Fatalf("preset %s: %v", name, v.Errors)
	}
	return v
}

// BenchmarkReadsQuestion: posing "tap every cell the slice reads" on a
// 16×16 input, which a presenter's replica does again for every new state
// the presenter shares while a question is open.
func BenchmarkReadsQuestion(b *testing.B) {
	q, _ := url.ParseQuery("dt=FLOAT32&sizes=16,16&woff=1,2&wsize=15,13&wstride=-2,3")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := (Kind{}).Question(b.Context(), q, explorer.Ask{Kind: QuestionReads}); err != nil {
			b.Fatal(err)
		}
	}
}

func ptr(v int64) *int64 { return &v }
