package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// TestShareBarSaysWhenThereIsNoSVG: every valid state has a picture
// now (binned past views.MaxSVGDetail cells; it used to be refused past
// 4,096), so the share bar offers Download SVG and the picture snippet
// for each, says nothing against them, and the address answers 200.
// The note (noSVG) stays in the protocol for a picture that could not be
// drawn.
func TestShareBarSaysWhenThereIsNoSVG(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct {
		path string
		// A part of the note, numbers grouped as the facts group them;
		// "" when the picture is offered.
		why string
	}{
		{"/?sizes=2,3", ""},
		{"/?sizes=64,64", ""},
		{"/?sizes=64,65", ""},
		{"/?sizes=2,3&strides=5000,1", ""},
		{"/?sizes=100,100&lang=fr", ""},
		{"/?sizes=100,100&lang=zh-TW", ""},
		{"/slice?sizes=2,3", ""},
		{"/slice?sizes=100,100", ""},
		{"/slice?sizes=2,2&strides=20000000,1", ""},
		{"/?sizes=4096,4096&lang=pt-BR", ""},
		{"/slice?sizes=4096,4096", ""},
		{"/embed/layout?sizes=100,100", ""},
		{"/embed/slice?sizes=2,3", ""},
		{"/convert?preset=nhwc-nchw", ""},
		{"/convert?dt=FLOAT32&sizes=64,64&imode=packed&omode=explicit&ostrides=1,64&lang=fr", ""},
		{"/embed/convert?preset=padded", ""},
		{"/joinsplit?preset=join-example1", ""},
		{"/embed/joinsplit?preset=split-example1&lang=fr", ""},
		{"/joinsplit?op=join&dt=FLOAT32&axis=0&in=256,2&st=&in=1,2&st=", ""},
		{"/embed/joinsplit?op=split&dt=UINT8&axis=1&in=20,20&st=&outs=5,15&lang=fr", ""},
		{"/padding?dt=FLOAT32&sizes=64,64&mode=EDGE&start=1,1&end=1,1", ""},
		{"/padding?dt=FLOAT32&sizes=4096,4096&mode=EDGE&start=1,1&end=1,1&lang=fr", ""},
		{"/tile?dt=FLOAT32&sizes=64,64&repeats=2,2", ""},
		{"/depthspace?op=d2s&dt=FLOAT32&sizes=1,16,64,64&imode=packed&block=4", ""},
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

// TestWSResultSaysWhenThereIsNoSVG: an edit's answer leaves noSVG, the
// share bar's note, out for every state, large ones too: each has a
// picture (the page follows it, static/live.js settle).
func TestWSResultSaysWhenThereIsNoSVG(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	fr, en := dial(t, ts, http.Header{"Cookie": {"lang=fr"}}), dial(t, ts, nil)
	for i, tc := range []struct {
		slice      bool
		query, why string
	}{
		{false, "dt=FLOAT32&sizes=100,100", ""},
		{false, "dt=FLOAT32&sizes=2,3", ""},
		// Invalid: the last valid state it carries is drawn, and said of.
		{false, "dt=FLOAT32&sizes=2,x&last=" + url.QueryEscape("dt=FLOAT32&sizes=100,100"), ""},
		{true, "dt=FLOAT32&sizes=100,100", ""},
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
