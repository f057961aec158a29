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
	d.Find("script[src], link[href], img[src]").Each(func(_ int, s *goquery.Selection) {
		for _, a := range []string{"src", "href"} {
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

// modulesOf is every module a page loads: its scripts and their imports,
// as plain names.
func modulesOf(t *testing.T, ts *httptest.Server, page string) []string {
	t.Helper()
	_, body := fetchAs(t, ts, "GET", page, "", "")
	plain := map[string]string{}
	for _, n := range static.Names() {
		plain[static.URL(n)] = n
	}
	var todo, out []string
	for _, u := range assetsOf(t, body) {
		if strings.HasSuffix(u, ".js") {
			todo = append(todo, u)
		}
	}
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

func TestEachPageLoadsOnlyItsModules(t *testing.T) {
	ts := newTestServer(t)
	for _, tc := range []struct {
		page      string
		want, not []string
	}{
		{"/", []string{"main-explorer.js", "explorer.js", "rooms.js", "live.js", "canvas.js", "share.js"}, []string{"slice.js", "main-slice.js", "app.js"}},
		{"/slice", []string{"main-slice.js", "slice.js", "rooms.js", "live.js", "canvas.js", "share.js"}, []string{"explorer.js", "main-explorer.js", "app.js"}},
		{"/embed/layout", []string{"main-explorer.js", "explorer.js", "share.js"}, []string{"slice.js", "app.js"}},
		{"/embed/slice", []string{"main-slice.js", "slice.js", "share.js"}, []string{"explorer.js", "app.js"}},
		{"/join", nil, []string{"explorer.js", "slice.js", "rooms.js", "app.js"}},
		// The room's questions and pace, outside a room: rooms.js imports
		// them only on a page with a room bar.
		{"/?sizes=2,3", nil, []string{"questions.js", "questionset.js", "pace.js"}},
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
