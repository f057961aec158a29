package web

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/static"
)

// TestHeadAnswersEveryGetAddress: HEAD gets a GET address's status and
// headers and no body, pages, the API's GET routes, the static files and
// the health check alike; an address with no GET still answers 405 and an
// unknown one 404.
func TestHeadAnswersEveryGetAddress(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct {
		path   string
		status int
	}{
		{"/", 200}, {"/slice?preset=example2", 200}, {"/glossary", 200}, {"/tour/1", 200}, {"/join", 200},
		{"/embed/layout?sizes=2,3", 200}, {"/healthz", 200},
		{"/api/v1/layout.svg?sizes=2,3", 200}, {"/api/v1/dxdispatch/layout.json?sizes=2,3", 200},
		{static.URL("app.css"), 200}, {"/rooms", 405}, {"/api/v1/layout", 405}, {"/nope", 404}, {"/static/nope.css", 404},
	} {
		get, err := http.Get(ts.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, get.Body)
		get.Body.Close()
		req, _ := http.NewRequest(http.MethodHead, ts.URL+c.path, nil)
		head, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(head.Body)
		head.Body.Close()
		if head.StatusCode != c.status || get.StatusCode != c.status {
			t.Errorf("%s: HEAD %d, GET %d, want %d", c.path, head.StatusCode, get.StatusCode, c.status)
		}
		if len(body) != 0 {
			t.Errorf("%s: HEAD sent a body of %d bytes", c.path, len(body))
		}
		if h, g := head.Header.Get("Content-Type"), get.Header.Get("Content-Type"); h != g {
			t.Errorf("%s: HEAD Content-Type %q, GET %q", c.path, h, g)
		}
		if c.status == 405 && head.Header.Get("Allow") == "" {
			t.Errorf("%s: 405 without Allow", c.path)
		}
	}
	// A 405's Allow, and an OPTIONS answer's, name HEAD wherever GET is
	// allowed, and only there.
	for _, c := range []struct {
		method, path string
		status       int
		allow        string
	}{
		{http.MethodPost, "/glossary", 405, "GET, HEAD, OPTIONS"},
		{http.MethodDelete, "/api/v1/layout.svg", 405, "GET, HEAD, OPTIONS"},
		{http.MethodGet, "/rooms", 405, "OPTIONS, POST"},
		{http.MethodGet, "/api/v1/layout", 405, "OPTIONS, POST"},
		{http.MethodOptions, "/slice", 204, "GET, HEAD, OPTIONS"},
		{http.MethodOptions, "/api/v1/layout", 204, "OPTIONS, POST"},
	} {
		req, _ := http.NewRequest(c.method, ts.URL+c.path, nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		methods := strings.Split(res.Header.Get("Allow"), ", ")
		slices.Sort(methods)
		if got := strings.Join(methods, ", "); res.StatusCode != c.status || got != c.allow {
			t.Errorf("%s %s: %d, Allow %q, want %d and %q", c.method, c.path, res.StatusCode, got, c.status, c.allow)
		}
	}
}

// TestBodiesOverTheLimit: a body over the limit is a 413 naming the limit
// whether it declares its length or comes in chunks (which once read as
// JSON that does not parse); the import routes take the models the site
// exports, and a browser's import form over its limit gets a page in its
// language with a way on.
func TestBodiesOverTheLimit(t *testing.T) {
	ts := newTestServer(t)
	big := bytes.Repeat([]byte(" "), 70000)
	for _, path := range []string{"/api/v1/layout", "/api/v1/slice1", "/api/v1/slice1/numpy", "/api/v1/slice", "/api/v1/dxdispatch"} {
		for _, chunked := range []bool{false, true} {
			var body io.Reader = bytes.NewReader(big)
			if chunked {
				body = io.MultiReader(bytes.NewReader(big)) // no length: sent in chunks
			}
			req, _ := http.NewRequest(http.MethodPost, ts.URL+path, body)
			req.Header.Set("Accept-Language", "fr")
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var got errorBody
			err = json.NewDecoder(res.Body).Decode(&got)
			res.Body.Close()
			if err != nil || res.StatusCode != http.StatusRequestEntityTooLarge || len(got.Errors) != 1 || got.Errors[0].Code != "body.large" ||
				got.Errors[0].Message != "le corps de la requête dépasse 65\u202f536 octets" {
				t.Errorf("%s (chunked %v): %d %+v %v", path, chunked, res.StatusCode, got, err)
			}
		}
	}

	// A DxDispatch model the site exports, its 65,536 values written out
	// (the padding between them too), imports back.
	res, err := http.Get(ts.URL + "/api/v1/dxdispatch/layout.json?dt=FLOAT32&sizes=32768&strides=2")
	if err != nil {
		t.Fatal(err)
	}
	model, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if len(model) < 300<<10 {
		t.Fatalf("the exported model is %d bytes; the test wants one over 300 KiB", len(model))
	}
	req, _ := json.Marshal(map[string]json.RawMessage{"dxdispatch": model})
	res, err = http.Post(ts.URL+"/api/v1/import", "application/json", io.MultiReader(bytes.NewReader(req)))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(b), `sizes=32768&imode=explicit&istrides=2&omode=packed"`) {
		t.Errorf("importing the site's own %d-byte model: %d %.300s", len(req), res.StatusCode, b)
	}

	// The import box without JavaScript, over its 2 MiB.
	form := io.MultiReader(strings.NewReader("text="), bytes.NewReader(bytes.Repeat([]byte("x"), 3<<20)))
	r, _ := http.NewRequest(http.MethodPost, ts.URL+"/import", form)
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	r.Header.Set("Accept", "text/html")
	r.Header.Set("Accept-Language", "zh-TW")
	res, d := sendForPage(t, r)
	if res.StatusCode != http.StatusRequestEntityTooLarge || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("the import box over its limit: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if got := d.Find("main h1").Text(); got != "超出這台伺服器的處理量" {
		t.Errorf("h1 %q", got)
	}
	if got := d.Find(tid("error-message")).Text(); !strings.Contains(got, "請求內容超過") || !strings.HasSuffix(got, "。") {
		t.Errorf("message %q", got)
	}
	if got := d.Find(tid("error-retry")).AttrOr("href", ""); got != "/?lang=zh-TW" && got != "/" {
		t.Errorf("the way back %q", got)
	}
}

// TestTrailingSlashRedirects: a page's address typed with a trailing
// slash redirects to the page, its query kept; a POST is not redirected.
func TestTrailingSlashRedirects(t *testing.T) {
	ts := newTestServer(t)
	for path, want := range map[string]string{"/slice/": "/slice", "/glossary/": "/glossary", "/tour/3/?lang=fr": "/tour/3?lang=fr"} {
		res, err := noRedirect.Get(ts.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if loc, _ := res.Location(); res.StatusCode != http.StatusMovedPermanently || loc == nil || loc.RequestURI() != want {
			t.Errorf("%s: %d to %v, want 301 to %s", path, res.StatusCode, loc, want)
		}
	}
	res, err := noRedirect.Post(ts.URL+"/api/v1/layout/", "application/json", strings.NewReader(`{"dataType":"FLOAT32","sizes":[2]}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("POST /api/v1/layout/: %d, want 404", res.StatusCode)
	}
}
