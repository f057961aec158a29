package web

import (
	"bytes"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/stridescope/stridescope/static"
	"github.com/stridescope/stridescope/testkit"
)

func get(t *testing.T, ts *httptest.Server, path string) *http.Response {
	t.Helper()
	res, err := http.Get(ts.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, res.Body)
	res.Body.Close()
	return res
}

func TestOnlyTheEmbedsMayBeFramed(t *testing.T) {
	ts := newTestServer(t)
	for _, path := range []string{"/embed/layout", "/embed/layout?preset=DHW", "/embed/slice?preset=example2", "/api/v1/layout.svg", "/api/v1/slice1.svg"} {
		res := get(t, ts, path)
		csp := res.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "frame-ancestors *;") || strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s: CSP %q, want frame-ancestors *", path, csp)
		}
		if xfo := res.Header.Get("X-Frame-Options"); xfo != "" {
			t.Errorf("%s: X-Frame-Options %q", path, xfo)
		}
		if !strings.Contains(csp, "connect-src 'self'") || res.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("%s: lost connect-src or nosniff: %q", path, csp)
		}
	}
	// Everything else, pages, API, static files and errors, refuses.
	for _, path := range []string{"/", "/tour/1", "/tour", "/static/app.css", "/healthz", "/embed/nothing", "/embed/layout/x", "/api/v1/layout.svgx", "/nope"} {
		res := get(t, ts, path)
		csp := res.Header.Get("Content-Security-Policy")
		if !strings.Contains(csp, "frame-ancestors 'none'") || res.Header.Get("X-Frame-Options") != "DENY" {
			t.Errorf("%s (%d): CSP %q, X-Frame-Options %q: must refuse to be framed", path, res.StatusCode, csp, res.Header.Get("X-Frame-Options"))
		}
	}
	res, err := http.Post(ts.URL+"/api/v1/layout", "application/json", strings.NewReader(`{"dataType":"FLOAT32","sizes":[2]}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.Header.Get("X-Frame-Options") != "DENY" {
		t.Error("the JSON API may be framed")
	}
}

func TestFrameAncestorsIsConfigurable(t *testing.T) {
	s := New(Config{Logger: testkit.Quiet(), FrameAncestors: "'self' https://docs.example.com"})
	ts := httptest.NewServer(s.Handler())
	defer ts.Close()
	if csp := get(t, ts, "/embed/layout").Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'self' https://docs.example.com;") {
		t.Errorf("CSP %q", csp)
	}
	if csp := get(t, ts, "/").Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none'") {
		t.Errorf("/ CSP %q", csp)
	}

	// A value that would inject a directive fails closed.
	var logs bytes.Buffer
	s = New(Config{Logger: slog.New(slog.NewTextHandler(&logs, nil)), FrameAncestors: "*; script-src *"})
	ts2 := httptest.NewServer(s.Handler())
	defer ts2.Close()
	if csp := get(t, ts2, "/embed/layout").Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors 'none';") || strings.Contains(csp, "script-src *") {
		t.Errorf("CSP %q", csp)
	}
	if !strings.Contains(logs.String(), "frame-ancestors") {
		t.Errorf("the bad value was not logged: %s", logs.String())
	}
	if err := (Config{FrameAncestors: "*; script-src *"}).Validate(); err == nil {
		t.Error("Validate accepted an injected directive")
	}
}

func TestCheckFrameAncestors(t *testing.T) {
	for _, ok := range []string{"*", "'none'", "'self'", "'SELF'", "https:", "https://docs.example.com", "'self' https://a.example http://localhost:8080",
		"https://*.example.com", "http://127.0.0.1:3000", "https://docs.example.com/guide/", "[::1]:8080", "docs.example.com"} {
		if err := CheckFrameAncestors(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "  ", "*; script-src *", "https://a.example, https://b.example", "'none' 'self'", "'unsafe-inline'",
		"https://a.example\nX-Evil: 1", "https://a.example\tb", `"https://a.example"`, "https://exa mple.com'"} {
		if err := CheckFrameAncestors(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// TestEmbedsAreTheExplorersWithoutChrome: both embeds are the live
// explorer pages without the site header, and every link and the form
// stay in the frame.
func TestEmbedsAreTheExplorersWithoutChrome(t *testing.T) {
	for _, tc := range []struct {
		path, grid, labels, preset, svg, open, module string
	}{
		{"/embed/layout?preset=padded", "bcell", "A B C x x D E F x x", "DHW",
			"/api/v1/layout.svg?dt=FLOAT32&sizes=2,3&strides=5,1&total=40", "/?dt=FLOAT32&sizes=2,3&strides=5,1&total=40", "main-explorer.js"},
		{"/embed/slice?preset=example2", "outcell", "14 16 6 8", "example1",
			"/api/v1/slice1.svg?dt=FLOAT32&sizes=1,1,4,4&woff=0,0,0,1&wsize=1,1,4,3&wstride=1,1,-2,2",
			"/slice?dt=FLOAT32&sizes=1,1,4,4&woff=0,0,0,1&wsize=1,1,4,3&wstride=1,1,-2,2", "main-slice.js"},
	} {
		res, d := page(t, tc.path)
		if res.StatusCode != 200 {
			t.Fatalf("%s: status %d", tc.path, res.StatusCode)
		}
		path, _, _ := strings.Cut(tc.path, "?")
		if d.Find("header.site").Length() != 0 || d.Find("body.embed").Length() != 1 {
			t.Errorf("%s: the site header", tc.path)
		}
		if got := strings.Join(texts(d.Find(tid(tc.grid)), ".lbl"), " "); got != tc.labels {
			t.Errorf("%s: %s %q", tc.path, tc.grid, got)
		}
		if a, _ := d.Find(tid("form")).Attr("action"); a != path {
			t.Errorf("%s: form action %q: a submission must stay in the frame", tc.path, a)
		}
		if href, _ := d.Find(tid("preset-" + tc.preset)).Attr("href"); !strings.HasPrefix(href, path+"?") {
			t.Errorf("%s: preset href %q", tc.path, href)
		}
		if href, _ := d.Find(tid("download-svg")).Attr("href"); href != tc.svg {
			t.Errorf("%s: SVG href %q", tc.path, href)
		}
		if href, _ := d.Find(tid("open-full")).Attr("href"); href != tc.open {
			t.Errorf("%s: open href %q", tc.path, href)
		}
		if d.Find(tid("embed")).Length() != 0 {
			t.Errorf("%s: an Embed button inside the embed", tc.path)
		}
		if d.Find(`script[src="`+static.URL(tc.module)+`"]`).Length() != 1 {
			t.Errorf("%s: not live", tc.path)
		}
	}
	// A bad state shows its rule inline and keeps a picture, as on /slice.
	_, d := page(t, "/embed/slice?sizes=4&woff=3&wsize=2&wstride=1")
	if got := d.Find(tid("err-inputWindowOffsets[0]")).Text(); !strings.Contains(got, "InputWindowOffsets[0] + InputWindowSizes[0]") {
		t.Errorf("error %q", got)
	}
}

// TestExplorersHaveEmbedAndDownloadButtons: the buttons hold the state
// shown (the script keeps them on it as it changes).
func TestExplorersHaveEmbedAndDownloadButtons(t *testing.T) {
	for _, tc := range []struct{ path, name, query string }{
		{"/?preset=DHW&labels=index", "layout", "dt=FLOAT32&sizes=2,2,3&strides=6,3,1&labels=index&sel=1,0,1"},
		{"/slice?preset=example1", "slice", "dt=FLOAT32&sizes=1,1,4,4&woff=0,0,0,1&wsize=1,1,4,3&wstride=1,1,2,2"},
	} {
		_, d := page(t, tc.path)
		svg := map[string]string{"layout": "/api/v1/layout.svg?", "slice": "/api/v1/slice1.svg?"}[tc.name]
		if href, _ := d.Find(tid("download-svg")).Attr("href"); href != svg+tc.query {
			t.Errorf("%s: SVG href %q", tc.path, href)
		}
		if name, _ := d.Find(tid("download-svg")).Attr("download"); name != "stridescope-"+tc.name+".svg" {
			t.Errorf("%s: download name %q", tc.path, name)
		}
		// The snippets, pasted into an English page, say it is one.
		embed := "/embed/" + tc.name + "?" + tc.query + "&lang=en"
		snippet := d.Find(tid("embed-snippet")).Text()
		if !strings.HasPrefix(snippet, `<iframe src="http://127.0.0.1:`) || !strings.Contains(snippet, strings.ReplaceAll(embed, "&", "&amp;")+`"`) {
			t.Errorf("%s: snippet %q", tc.path, snippet)
		}
		if href, _ := d.Find(tid("embed-preview")).Attr("href"); !strings.HasSuffix(href, embed) {
			t.Errorf("%s: preview %q", tc.path, href)
		}
		// The picture-only option: the state's SVG as an image (issue #13).
		pic := d.Find(tid("embed-picture-snippet")).Text()
		if !strings.HasPrefix(pic, `<img src="http://127.0.0.1:`) || !strings.Contains(pic, strings.ReplaceAll(svg+tc.query+"&lang=en", "&", "&amp;")+`"`) {
			t.Errorf("%s: picture snippet %q", tc.path, pic)
		}
	}
}

// TestEmbedErrorPagesKeepTheEmbedsFrame: an embed's address the server
// cannot read gets its reasons in the embed's frame, without the site's
// header (whose pages refuse to be framed); its way on stays in the frame.
// The full page's keeps the site's frame.
func TestEmbedErrorPagesKeepTheEmbedsFrame(t *testing.T) {
	ts := newTestServer(t)
	for _, tc := range []struct {
		path, retry string
		embed       bool
	}{
		{"/embed/slice?woff=%zz", "/embed/slice", true},
		{"/embed/layout?sizes=%zz", "/embed/layout", true},
		{"/slice?woff=%zz", "/slice", false},
	} {
		req, _ := http.NewRequest(http.MethodGet, ts.URL+tc.path, nil)
		req.Header.Set("Accept", "text/html")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		d, err := goquery.NewDocumentFromReader(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		if res.StatusCode != http.StatusBadRequest || d.Find(tid("error-page")).Length() != 1 {
			t.Fatalf("%s: status %d, error page %d", tc.path, res.StatusCode, d.Find(tid("error-page")).Length())
		}
		if got := d.Find("header.site").Length() == 0 && d.Find("body.embed").Length() == 1; got != tc.embed {
			t.Errorf("%s: in the embed's frame %v, want %v", tc.path, got, tc.embed)
		}
		if href, _ := d.Find(tid("error-retry")).Attr("href"); href != tc.retry {
			t.Errorf("%s: the way on %q, want %q", tc.path, href, tc.retry)
		}
	}
}
