package web

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"testing"
	"time"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/testkit"
)

var answerScript = regexp.MustCompile(`<script id="answer" type="application/json">([^<]*)</script>`)

// TestPagesCarryTheAnswerToAPictureDrawnWhole: a page whose picture is all
// in its HTML (no canvas) carries the socket's answer to its state, for
// its module to link the cells without asking; a canvas, a page with
// errors (its picture is a stale one) and the form's own errors carry
// none.
func TestPagesCarryTheAnswerToAPictureDrawnWhole(t *testing.T) {
	ts := newTestServer(t)
	for _, tc := range []struct {
		path  string
		sizes []int64 // of the answer's meta; nil: no answer
	}{
		{"/?sizes=2,3", []int64{2, 3}},
		{"/?dt=INT8&sizes=4,4&strides=1,1&lang=fr", []int64{4, 4}},
		{"/embed/layout?sizes=3,5", []int64{3, 5}},
		{"/tour/1", []int64{2, 3}},
		{"/slice?sizes=4,6&woff=0,1&wsize=4,5&wstride=2,-1", []int64{4, 6}},
		{"/embed/slice?sizes=2,3", []int64{2, 3}},
		{"/?sizes=64,64", nil},
		{"/slice?sizes=256,256", nil},
		{"/?sizes=2,3&strides=1", nil},
		{"/slice?sizes=2,3&wsize=9,9", nil},
	} {
		res, body := fetchAs(t, ts, "GET", tc.path, "", "")
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", tc.path, res.StatusCode)
		}
		m := answerScript.FindAllSubmatch(body, -1)
		if tc.sizes == nil {
			if len(m) != 0 {
				t.Errorf("%s: carries an answer: %s", tc.path, m[0][1])
			}
			continue
		}
		if len(m) != 1 {
			t.Errorf("%s: %d answers, want 1", tc.path, len(m))
			continue
		}
		var a struct {
			Type string `json:"type"`
			OK   bool   `json:"ok"`
			Meta struct {
				Sizes []int64 `json:"sizes"`
			} `json:"meta"`
			HTML json.RawMessage `json:"html"`
		}
		if err := json.Unmarshal(m[0][1], &a); err != nil {
			t.Fatalf("%s: %v in %s", tc.path, err, m[0][1])
		}
		if a.Type != "result" || !a.OK || !slices.Equal(a.Meta.Sizes, tc.sizes) || a.HTML != nil {
			t.Errorf("%s: answer %s, want an ok result of sizes %v without html", tc.path, m[0][1], tc.sizes)
		}
	}
}

// TestPageWithoutRoomForItsAnswerCarriesNone: when the work budget has
// room for the page but not for its answer, the page is served at once,
// whole, without an answer (not with "null"): its module asks the socket.
func TestPageWithoutRoomForItsAnswerCarriesNone(t *testing.T) {
	l, err := core.NewLayout(core.TensorDesc{DataType: core.Float32, Sizes: []int64{2, 3}})
	if err != nil {
		t.Fatal(err)
	}
	page, edit := picture.LayoutCost(l, picture.OnPage), picture.LayoutCost(l, picture.InEdit)
	const limit = 64 << 20
	b := budget.New(limit, time.Hour) // a page or answer that waited would hang the test
	hold, err := b.Take(context.Background(), limit-page-edit/2)
	if err != nil {
		t.Fatal(err)
	}
	defer hold()
	s := New(Config{Logger: testkit.Quiet(), Budget: b})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	res, body := fetchAs(t, ts, "GET", "/?dt=FLOAT32&sizes=2,3", "", "")
	if res.StatusCode != http.StatusOK {
		t.Fatalf("status %d", res.StatusCode)
	}
	if bytes.Contains(body, []byte(`id="answer"`)) {
		t.Errorf("a page with no room for its answer carries one: %s", answerScript.Find(body))
	}
	if !bytes.Contains(body, []byte(`id="b-5"`)) {
		t.Error("the page is not drawn whole")
	}
}
