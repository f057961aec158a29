package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"io"
	"net/http"
	"net/http/httptest"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/stridescope/stridescope/static"
)

// fetchAs sends a request with the given Accept-Encoding ("" asks for
// identity) and returns the answer with its body as sent on the wire.
func fetchAs(t *testing.T, ts *httptest.Server, method, target, body, acceptEncoding string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+target, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	// Setting Accept-Encoding ourselves stops the transport from
	// decoding the answer behind our back.
	req.Header.Set("Accept-Encoding", acceptEncoding)
	if acceptEncoding == "" {
		req.Header.Set("Accept-Encoding", "identity")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, b
}

func gunzip(t *testing.T, b []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not gzip: %v", err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestAnswersAreGzippedForClientsThatAcceptIt(t *testing.T) {
	ts := newTestServer(t)
	layout := `{"dataType":"FLOAT32","sizes":[4,8,8],"strides":[64,8,1],"totalTensorSizeInBytes":1024}`
	for _, tc := range []struct{ method, target, body, ctype string }{
		{"GET", "/", "", "text/html"},
		{"GET", "/slice", "", "text/html"},
		{"GET", "/tour/1", "", "text/html"},
		{"GET", static.URL("explorer.js"), "", "text/javascript"},
		{"GET", "/static/slice.js", "", "text/javascript"},
		{"GET", static.URL("app.css"), "", "text/css"},
		{"GET", "/static/app.css", "", "text/css"},
		{"POST", "/api/v1/layout", layout, "application/json"},
		{"GET", "/api/v1/layout.svg?dt=FLOAT32&sizes=4,8,8", "", "image/svg+xml"},
	} {
		t.Run(tc.target, func(t *testing.T) {
			plain, plainBody := fetchAs(t, ts, tc.method, tc.target, tc.body, "")
			zipped, zippedBody := fetchAs(t, ts, tc.method, tc.target, tc.body, "gzip, deflate, br")
			if plain.StatusCode != http.StatusOK || zipped.StatusCode != http.StatusOK {
				t.Fatalf("status %d plain, %d gzip", plain.StatusCode, zipped.StatusCode)
			}
			if ce := plain.Header.Get("Content-Encoding"); ce != "" {
				t.Errorf("identity request got Content-Encoding %q", ce)
			}
			if ce := zipped.Header.Get("Content-Encoding"); ce != "gzip" {
				t.Fatalf("Content-Encoding %q, want gzip", ce)
			}
			if !slices.Contains(zipped.Header.Values("Vary"), "Accept-Encoding") {
				t.Errorf("Vary %q lacks Accept-Encoding", zipped.Header.Values("Vary"))
			}
			if ct := zipped.Header.Get("Content-Type"); !strings.HasPrefix(ct, tc.ctype) {
				t.Errorf("Content-Type %q, want %s", ct, tc.ctype)
			}
			if len(zippedBody) >= len(plainBody) {
				t.Errorf("gzip %d bytes, plain %d: nothing saved", len(zippedBody), len(plainBody))
			}
			decoded := gunzip(t, zippedBody)
			if !bytes.Equal(decoded, plainBody) {
				t.Errorf("decoded body (%d bytes) differs from the plain one (%d bytes)", len(decoded), len(plainBody))
			}
		})
	}
}

func TestStaticFilesRevalidateByETagPerEncoding(t *testing.T) {
	ts := newTestServer(t)
	u := static.URL("slice.js")
	plain, _ := fetchAs(t, ts, "GET", u, "", "")
	zipped, _ := fetchAs(t, ts, "GET", u, "", "gzip")
	if plain.Header.Get("ETag") == "" || plain.Header.Get("ETag") == zipped.Header.Get("ETag") {
		t.Fatalf("ETags %q (plain) and %q (gzip): want two distinct", plain.Header.Get("ETag"), zipped.Header.Get("ETag"))
	}
	req, _ := http.NewRequest("GET", ts.URL+u, nil)
	req.Header.Set("Accept-Encoding", "gzip")
	req.Header.Set("If-None-Match", zipped.Header.Get("ETag"))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotModified {
		t.Errorf("revalidation: status %d, want 304", res.StatusCode)
	}
}

func TestWebsocketIsNotCompressed(t *testing.T) {
	ts := newTestServer(t)
	h := http.Header{"Accept-Encoding": {"gzip"}}
	c := dial(t, ts, h) // reads the hello as plain JSON
	sendEdit(t, c, 1, "dt=FLOAT32&sizes=2,3")
	var m map[string]any
	readJSON(t, c, &m)
	if m["type"] == nil {
		t.Fatalf("answer %v", m)
	}
}

// importOf is a module's import of a sibling, as static.go rewrites it.
var importOf = regexp.MustCompile(`(?:\bfrom\s*|\bimport\s*\(?\s*)['"]\./([A-Za-z0-9_.-]+\.js)['"]`)

// assetsOf is the /static/ URLs a page's HTML references.
func assetsOf(t *testing.T, body []byte) []string {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	d.Find("script[src], link[href], img[src], [data-module]").Each(func(_ int, s *goquery.Selection) {
		for _, a := range []string{"src", "href", "data-module"} {
			if v, ok := s.Attr(a); ok && strings.HasPrefix(v, "/static/") {
				out = append(out, v)
			}
		}
	})
	return out
}

var hashedName = regexp.MustCompile(`^/static/[a-z0-9-]+\.([0-9a-f]{8})\.(js|css|svg)$`)

func TestHashedAssetsAreImmutableAndMatchTheirHash(t *testing.T) {
	ts := newTestServer(t)
	todo := []string{}
	for _, p := range []string{"/", "/slice", "/tour/1", "/tour/7", "/embed/layout", "/embed/slice", "/join"} {
		res, body := fetchAs(t, ts, "GET", p, "", "")
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", p, res.StatusCode)
		}
		todo = append(todo, assetsOf(t, body)...)
	}
	// Follow the modules' imports too: they must be hashed URLs as well.
	seen := map[string]bool{}
	for len(todo) > 0 {
		u := todo[0]
		todo = todo[1:]
		if seen[u] {
			continue
		}
		seen[u] = true
		m := hashedName.FindStringSubmatch(u)
		if m == nil {
			t.Errorf("%s: not a content-hashed URL", u)
			continue
		}
		res, body := fetchAs(t, ts, "GET", u, "", "")
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: status %d", u, res.StatusCode)
			continue
		}
		if cc := res.Header.Get("Cache-Control"); cc != "public, max-age=31536000, immutable" {
			t.Errorf("%s: Cache-Control %q", u, cc)
		}
		if sum := sha256.Sum256(body); hex.EncodeToString(sum[:4]) != m[1] {
			t.Errorf("%s: content hashes to %x, not %s", u, sum[:4], m[1])
		}
		for _, im := range importOf.FindAllSubmatch(body, -1) {
			todo = append(todo, path.Join(path.Dir(u), string(im[1])))
		}
	}
	if len(seen) < 10 {
		t.Errorf("only %d assets reached: %v", len(seen), seen)
	}
	// The plain names still answer, with a short cache, importing plain names.
	for _, name := range static.Names() {
		res, body := fetchAs(t, ts, "GET", "/static/"+name, "", "")
		if res.StatusCode != http.StatusOK || res.Header.Get("Cache-Control") != static.ShortCache {
			t.Errorf("/static/%s: status %d, Cache-Control %q", name, res.StatusCode, res.Header.Get("Cache-Control"))
		}
		for _, im := range importOf.FindAllSubmatch(body, -1) {
			if hashedName.MatchString("/static/" + string(im[1])) {
				t.Errorf("/static/%s imports a hashed name %s", name, im[1])
			}
		}
	}
	if res, _ := fetchAs(t, ts, "GET", "/static/app.00000000.js", "", ""); res.StatusCode != http.StatusNotFound {
		t.Errorf("a stale hash: status %d, want 404", res.StatusCode)
	}
}

// modulesOf is every module a page loads before its first picture: its
// scripts, its preloads and their static imports, as plain names. What a
// page loads after its first frame (data-module, client.js) is not.
func modulesOf(t *testing.T, ts *httptest.Server, page string) []string {
	t.Helper()
	_, body := fetchAs(t, ts, "GET", page, "", "")
	d, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	plain := map[string]string{}
	for _, n := range static.Names() {
		plain[static.URL(n)] = n
	}
	var todo, out []string
	d.Find("script[type=module][src], link[rel=modulepreload]").Each(func(_ int, s *goquery.Selection) {
		todo = append(todo, s.AttrOr("src", s.AttrOr("href", "")))
	})
	seen := map[string]bool{}
	for len(todo) > 0 {
		u := todo[0]
		todo = todo[1:]
		if seen[u] {
			continue
		}
		seen[u] = true
		out = append(out, plain[u])
		_, js := fetchAs(t, ts, "GET", u, "", "")
		for _, im := range importOf.FindAllSubmatch(js, -1) {
			// import('./x.js') loads x when the module asks for it (rooms.js:
			// the questions, only in a room), not with the page.
			if !bytes.Contains(im[0], []byte("(")) {
				todo = append(todo, "/static/"+string(im[1]))
			}
		}
	}
	slices.Sort(out)
	return out
}

// later is what client.js loads after a page's first frame, whatever
// the page: never before its picture.
var later = []string{"share.js", "tools.js", "peek.js"}

func TestEachPageLoadsOnlyItsModules(t *testing.T) {
	ts := newTestServer(t)
	_, room, _ := openRoom(t, ts, "sizes=2,3")
	for _, tc := range []struct {
		page      string
		want, not []string
	}{
		// A picture drawn as cells has no canvas: their modules come after
		// its first frame; one drawn on canvases has them at once.
		{"/", []string{"main-explorer.js", "explorer.js", "live.js"}, append([]string{"slice.js", "main-slice.js", "app.js", "rooms.js", "explorer-canvas.js", "canvas.js"}, later...)},
		{"/?sizes=64,64", []string{"main-explorer.js", "explorer-canvas.js", "canvas.js", "canvas-zoom.js", "canvas-layout.js"}, append([]string{"rooms.js"}, later...)},
		{"/slice", []string{"main-slice.js", "slice.js", "live.js", "slice-cells.js"}, append([]string{"explorer.js", "main-explorer.js", "app.js", "rooms.js", "slice-canvas.js", "canvas.js", "fill.js"}, later...)},
		{"/slice?sizes=64,64", []string{"main-slice.js", "slice-canvas.js", "canvas.js", "canvas-zoom.js", "canvas-layout.js", "fill.js"}, append([]string{"rooms.js"}, later...)},
		{"/padding?sizes=2,3", []string{"main-padding.js", "padding.js", "axismap.js", "copy-steps.js"}, append([]string{"rooms.js", "axismap-canvas.js", "tensor-canvas.js", "canvas.js"}, later...)},
		{"/padding?sizes=40,60&start=10,20&end=10,20", []string{"main-padding.js", "axismap-canvas.js", "tensor-canvas.js", "canvas.js", "canvas-zoom.js", "canvas-layout.js"}, append([]string{"rooms.js"}, later...)},
		{"/tile?sizes=2,3", []string{"main-tile.js", "tile.js", "axismap.js"}, append([]string{"rooms.js", "axismap-canvas.js", "tensor-canvas.js", "canvas.js"}, later...)},
		{"/tile?sizes=20,30&repeats=2,3", []string{"main-tile.js", "axismap-canvas.js", "tensor-canvas.js", "canvas.js"}, append([]string{"rooms.js"}, later...)},
		{"/depthspace?op=d2s&sizes=1,8,2,3&block=2", []string{"main-depthspace.js", "depthspace.js", "copy-steps.js"}, append([]string{"rooms.js", "depthspace-canvas.js", "canvas.js"}, later...)},
		{"/depthspace?op=d2s&sizes=1,128,32,32&block=2", []string{"main-depthspace.js", "depthspace-canvas.js", "canvas.js", "canvas-zoom.js", "canvas-layout.js"}, append([]string{"rooms.js"}, later...)},
		{"/convert?sizes=2,3,2,4", []string{"main-convert.js", "convert.js"}, append([]string{"rooms.js", "convert-canvas.js", "canvas.js"}, later...)},
		{"/convert?sizes=64,64,2,4", []string{"main-convert.js", "convert-canvas.js", "canvas.js", "canvas-zoom.js", "canvas-layout.js"}, append([]string{"rooms.js"}, later...)},
		{"/embed/layout", []string{"main-explorer.js", "explorer.js"}, append([]string{"slice.js", "app.js"}, later...)},
		{"/embed/slice", []string{"main-slice.js", "slice.js"}, append([]string{"explorer.js", "app.js"}, later...)},
		{"/join", nil, []string{"explorer.js", "slice.js", "rooms.js", "app.js"}},
		// The room's questions and pace, outside a room: rooms.js imports
		// them only on a page with a room bar, which brings rooms.js.
		{"/?sizes=2,3", nil, []string{"questions.js", "questionset.js", "pace.js"}},
		{room, []string{"main-explorer.js", "rooms.js", "main-rooms.js"}, later},
	} {
		got := modulesOf(t, ts, tc.page)
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("%s loads %v: no %s", tc.page, got, w)
			}
		}
		for _, n := range tc.not {
			if slices.Contains(got, n) {
				t.Errorf("%s loads %v, including %s", tc.page, got, n)
			}
		}
	}
}

// TestLaterModulesHaveTheirLoader: a widget whose module comes after the
// page's first frame (data-module) is on a page that loads client.js,
// which imports it then, and names a module that is served.
func TestLaterModulesHaveTheirLoader(t *testing.T) {
	ts := newTestServer(t)
	found := 0
	for _, page := range []string{"/", "/slice", "/padding", "/tile", "/convert", "/depthspace", "/join", "/embed/layout", "/embed/slice", "/tour/1", "/tour/7"} {
		_, body := fetchAs(t, ts, "GET", page, "", "")
		d, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		mods := d.Find("[data-module]")
		if mods.Length() == 0 {
			continue
		}
		if !slices.Contains(modulesOf(t, ts, page), "client.js") {
			t.Errorf("%s has widgets with a module of their own but does not load client.js", page)
		}
		mods.Each(func(_ int, s *goquery.Selection) {
			found++
			u := s.AttrOr("data-module", "")
			if res, _ := fetchAs(t, ts, "GET", u, "", ""); res.StatusCode != http.StatusOK || !hashedName.MatchString(u) || !strings.HasSuffix(u, ".js") {
				t.Errorf("%s: data-module %q answers %d", page, u, res.StatusCode)
			}
		})
	}
	if found < 10 {
		t.Errorf("only %d widgets with a module of their own: the pages' share bars and tools should be", found)
	}
}

// TestEachPagePreloadsEveryImportOnce checks the preloads: every module a
// page's scripts import statically, directly or not, is preloaded or is a
// script of the page itself, and no module is preloaded twice, however
// many widgets import it. What a module imports dynamically is neither
// loaded nor preloaded with the page.
func TestEachPagePreloadsEveryImportOnce(t *testing.T) {
	ts := newTestServer(t)
	for _, page := range []string{"/?sizes=2,3", "/slice", "/embed/layout", "/embed/slice", "/tour/1"} {
		_, body := fetchAs(t, ts, "GET", page, "", "")
		d, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		loaded := map[string]bool{}
		d.Find(`script[type=module][src]`).Each(func(_ int, s *goquery.Selection) {
			loaded[s.AttrOr("src", "")] = true
		})
		preloaded := map[string]int{}
		d.Find(`link[rel=modulepreload]`).Each(func(_ int, s *goquery.Selection) {
			u := s.AttrOr("href", "")
			preloaded[u]++
			loaded[u] = true
			if preloaded[u] == 2 {
				t.Errorf("%s preloads %s more than once", page, u)
			}
		})
		for _, n := range modulesOf(t, ts, page) {
			if !loaded[static.URL(n)] {
				t.Errorf("%s loads %s without preloading it", page, n)
			}
		}
	}
}
