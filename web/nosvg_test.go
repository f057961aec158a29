package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestShareBarSaysWhenThereIsNoSVG: past the SVG picture's limits the
// share bar does not offer Download SVG or the picture snippet (their
// address would be refused), and says why in the page's language; within
// them it offers both and says nothing. What the page says agrees with
// what the SVG address answers.
func TestShareBarSaysWhenThereIsNoSVG(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct {
		path string
		// A part of the note, numbers grouped as the facts group them;
		// "" when the picture is offered.
		why string
	}{
		{"/?sizes=2,3", ""},
		{"/?sizes=64,64", ""}, // 4,096 elements: the most a picture draws
		{"/?sizes=64,65", "this tensor has 4160 logical elements in a buffer of 4160 cells"},
		{"/?sizes=2,3&strides=5000,1", "in a buffer of 5003 cells"},
		{"/?sizes=100,100&lang=fr", "Pas d'image SVG de cet état\u00a0: l'image SVG dessine au plus 4\u202f096 éléments logiques"},
		{"/?sizes=100,100&lang=zh-TW", "這個狀態沒有 SVG 圖：SVG 圖最多畫出 4,096 個邏輯元素"},
		{"/slice?sizes=2,3", ""},
		{"/slice?sizes=100,100", "this slice has 10\u202f000 input and 10\u202f000 output elements"},
		{"/slice?sizes=2,2&strides=20000000,1", "these strides spread 4 input elements over 80\u202f000\u202f008 bytes"},
		{"/embed/layout?sizes=100,100", "No SVG picture of this state: the SVG picture draws at most 4096 logical elements"},
		{"/embed/slice?sizes=2,3", ""},
	} {
		_, d := getPage(t, ts.URL+c.path, nil)
		link, note, part := d.Find(tid("download-svg")), d.Find(tid("no-svg")), d.Find(tid("embed-picture-part"))
		if link.Length() != 1 || note.Length() != 1 {
			t.Fatalf("%s: %d Download SVG links and %d notes, want one of each", c.path, link.Length(), note.Length())
		}
		_, linkHidden := link.Attr("hidden")
		_, noteHidden := note.Attr("hidden")
		_, partHidden := part.Attr("hidden")
		embed := strings.HasPrefix(c.path, "/embed/")
		if embed != (part.Length() == 0) {
			t.Errorf("%s: %d picture snippets, want one outside embeds", c.path, part.Length())
		}
		if c.why == "" {
			if linkHidden || !noteHidden || partHidden {
				t.Errorf("%s: Download SVG hidden %v, picture snippet hidden %v, note %q shown %v: want the picture offered and no note", c.path, linkHidden, partHidden, note.Text(), !noteHidden)
			}
		} else {
			if !linkHidden || noteHidden || (!embed && !partHidden) {
				t.Errorf("%s: Download SVG hidden %v, picture snippet hidden %v, note shown %v: want the picture not offered and the note shown", c.path, linkHidden, partHidden, !noteHidden)
			}
			if got := note.Text(); !strings.Contains(got, c.why) {
				t.Errorf("%s: note %q, want it to say %q", c.path, got, c.why)
			}
		}
		// The link the page would have offered answers as the page says.
		href, _ := link.Attr("href")
		res, err := http.Get(ts.URL + href)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if want := map[bool]int{true: http.StatusOK, false: http.StatusUnprocessableEntity}[c.why == ""]; res.StatusCode != want {
			t.Errorf("%s: %s answers %d, want %d", c.path, href, res.StatusCode, want)
		}
	}
}

// TestWSResultSaysWhenThereIsNoSVG: an edit's answer carries noSVG, the
// share bar's note, when the picture drawn is past the SVG picture's
// limits, in the session's language, and leaves it out within them: the
// page follows it (static/live.js settle).
func TestWSResultSaysWhenThereIsNoSVG(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	fr, en := dial(t, ts, http.Header{"Cookie": {"lang=fr"}}), dial(t, ts, nil)
	for i, tc := range []struct {
		slice      bool
		query, why string
	}{
		{false, "dt=FLOAT32&sizes=100,100", "Pas d'image SVG de cet état\u00a0: l'image SVG dessine au plus 4\u202f096 éléments logiques"},
		{false, "dt=FLOAT32&sizes=2,3", ""},
		// Invalid: the last valid state it carries is drawn, and said of.
		{false, "dt=FLOAT32&sizes=2,x&last=" + url.QueryEscape("dt=FLOAT32&sizes=100,100"), "Pas d'image SVG de cet état"},
		{true, "dt=FLOAT32&sizes=100,100", "this slice has 10\u202f000 input and 10\u202f000 output elements"},
		{true, "dt=FLOAT32&sizes=2,3", ""},
	} {
		seq := int64(i + 1)
		var got string
		if tc.slice {
			sendSliceEdit(t, en, seq, tc.query)
			got = collectSlice(t, en, seq).result.NoSVG
		} else {
			sendEdit(t, fr, seq, tc.query)
			got = collect(t, fr, seq).result.NoSVG
		}
		if !strings.Contains(got, tc.why) || (tc.why == "") != (got == "") {
			t.Errorf("%s: noSVG %q, want %q", tc.query, got, tc.why)
		}
	}
}
