package web

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"testing"
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
