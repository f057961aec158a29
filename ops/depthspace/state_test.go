package depthspace

import (
	"context"
	"net/url"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/i18n"
)

// TestPresetsAreValidAndCanonical: every example is a valid state whose
// canonical query reads back as itself, and the pages' examples print
// the pages' numbers: DEPTH_TO_SPACE1's DCR and CRD outputs are its
// Examples 1 and 2, and each SPACE_TO_DEPTH1 example's output in its
// own order is the page's 0, 1, 2, 3, 4, 5, 9 ... 68.
func TestPresetsAreValidAndCanonical(t *testing.T) {
	pageOut := pageDepth
	for _, p := range Presets {
		v := Validate(StateFromQuery(url.Values{"preset": {p.name}}))
		if !v.OK() {
			t.Fatalf("%s: %v", p.name, v.Errors)
		}
		q := StateOf(v).CanonicalQuery(false)
		pq, _ := url.ParseQuery(q)
		again := Validate(StateFromQuery(pq))
		if !again.OK() || StateOf(again).CanonicalQuery(false) != q {
			t.Errorf("%s: %q does not read back", p.name, q)
		}
		_, meta := NewPicture(context.Background(), v)
		read := func(src []int64) []int64 {
			out := make([]int64, len(src))
			for i, k := range src {
				out[i] = v.Vals[k]
			}
			return out
		}
		switch p.name {
		case "d2s-page":
			if !slices.Equal(read(meta.DCR), pageDCR) || !slices.Equal(read(meta.CRD), pageCRD) {
				t.Errorf("%s: DCR %v CRD %v, not the page's", p.name, read(meta.DCR), read(meta.CRD))
			}
		case "s2d-page1":
			if !slices.Equal(read(meta.DCR), pageOut) {
				t.Errorf("%s: DCR %v, not the page's", p.name, read(meta.DCR))
			}
		case "s2d-page2":
			if !slices.Equal(read(meta.CRD), pageOut) {
				t.Errorf("%s: CRD %v, not the page's", p.name, read(meta.CRD))
			}
		}
	}
}

// TestPageStateErrorsAtTheirFields: what the form can get wrong is
// reported at the field it stands beside, all at once.
func TestPageStateErrorsAtTheirFields(t *testing.T) {
	cases := []struct {
		query  string
		fields []string
	}{
		{"op=d2s&dt=FLOAT32&sizes=1,6,2,3&imode=packed&block=2", []string{"inputSizes[1]"}},
		{"op=s2d&dt=FLOAT32&sizes=1,1,3,x&imode=packed&block=2", []string{"inputSizes[3]", "inputSizes[2]"}},
		{"op=s2d&dt=FLOAT32&sizes=1,1,2,2&imode=WH&block=0", []string{"inputLayout", "blockSize"}},
		{"op=up&dt=FLOAT32&sizes=1,4,1,1&imode=packed&block=2", []string{"op"}},
		{"op=d2s&dt=FLOAT32&sizes=1,4,1,1&imode=packed&block=2&vals=1,2,3", []string{"vals"}},
		{"op=d2s&dt=FLOAT32&sizes=1,4,1,1&imode=packed&block=2&vals=1,2,x,4", []string{"vals"}},
		{"op=d2s&dt=FLOAT32&sizes=1,4,1,1&imode=explicit&istrides=4,-1,1,1&block=2", []string{"inputStrides[1]"}},
		{"preset=nope", []string{"preset"}},
	}
	for _, c := range cases {
		q, _ := url.ParseQuery(c.query)
		v := Validate(StateFromQuery(q))
		var got []string
		for _, e := range v.Errors {
			got = append(got, e.Field)
		}
		if !slices.Equal(got, c.fields) {
			t.Errorf("%s: errors at %v, want %v (%v)", c.query, got, c.fields, v.Errors)
		}
	}
}

// TestEveryCodeHasAnEntry: i18n's test scans core, picture, interop,
// web and strictjson for codes, not ops/ (docs/operators.md): each code
// this package writes has its words in the catalogs here.
func TestEveryCodeHasAnEntry(t *testing.T) {
	code := regexp.MustCompile(`NewMsg\("([a-z0-9.]+)"`)
	for _, f := range []string{"state.go", "api.go", "depthspace.go"} {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range code.FindAllSubmatch(src, -1) {
			if !i18n.Has(i18n.Key(m[1])) {
				t.Errorf("%s: code %s has no catalog entry", f, m[1])
			}
		}
	}
}

// TestBadQueriesAreAnswered: whatever a query holds, the page and an
// edit answer it (errors at fields, or a picture), never a panic; the
// largest states are described without drawing.
func TestBadQueriesAreAnswered(t *testing.T) {
	many := strings.Repeat("1,", MaxValues+5) + "1"
	for _, q := range []string{
		"", "op=&dt=&sizes=&block=", "sizes=1,2,3", "sizes=1,2,3,4,5&block=1", "block=99999999999999999999",
		"op=d2s&dt=FLOAT32&sizes=1,4,1,1&imode=explicit&istrides=a,b", "op=d2s&dt=FLOAT32&sizes=1,4,1,1&imode=explicit",
		"op=s2d&dt=UINT8&sizes=1,1,2,2&block=2&vals=" + many, "op=s2d&dt=UINT8&sizes=1,1,2,2&block=2&vals=1,2,3,300",
		"op=d2s&dt=UINT8&sizes=1,4294967295,1,1&block=65535", "op=s2d&dt=FLOAT32&sizes=1,1,65536,65535&block=5",
		"op=d2s&dt=INT4&sizes=1,4,1,1&block=2", "op=d2s&dt=FLOAT32&sizes=1,16,1024,1024&block=4",
		"last=op%3Dd2s%26dt%3DFLOAT32%26sizes%3D1%2C4%2C1%2C1%26block%3D2&op=d2s&sizes=1,3,1,1&block=2",
	} {
		vals, _ := url.ParseQuery(q)
		if _, err := PageOf(context.Background(), vals); err != nil {
			t.Errorf("%q: page: %v", q, err)
		}
		a, err := Kind{}.Answer(context.Background(), vals, explorer.AnswerOptions{HTML: true, Take: func(context.Context, int64) (func(), error) { return func() {}, nil }})
		if err != nil {
			t.Errorf("%q: answer: %v", q, err)
			continue
		}
		a.Release()
	}
}
