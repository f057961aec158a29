package web

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestNotFoundPage: a browser asking for a page that does not exist gets
// the site's page (header, h1, a link to every page) with status 404; an
// API client still gets the JSON error.
func TestNotFoundPage(t *testing.T) {
	ts := newTestServer(t)
	get := func(path, accept string) (*http.Response, []byte) {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, ts.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept", accept)
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
	const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	for _, path := range []string{"/foo", "/tour/17", "/tour/0", "/slice/x", "/foo%3Cb%3Ebold"} {
		t.Run(path, func(t *testing.T) {
			res, body := get(path, browser)
			if res.StatusCode != http.StatusNotFound || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
				t.Fatalf("status %d, %s", res.StatusCode, res.Header.Get("Content-Type"))
			}
			d, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.TrimSpace(d.Find("main h1").Text()); got != "Page not found" {
				t.Errorf("h1 %q", got)
			}
			if got := d.Find("title").Text(); got != "Page not found · stridescope" {
				t.Errorf("title %q", got)
			}
			if d.Find("header.site nav[aria-label=site]").Length() != 1 || d.Find("a.skip[href='#main']").Length() != 1 {
				t.Error("not in the site's frame (header, skip link)")
			}
			if got := d.Find("code.asked").Text(); got != res.Request.URL.Path {
				t.Errorf("names the path %q, want %q", got, res.Request.URL.Path)
			}
			if bytes.Contains(body, []byte("<b>")) {
				t.Error("the path is not escaped")
			}
			var links []string
			d.Find(tid("not-found") + " li a").Each(func(_ int, a *goquery.Selection) { h, _ := a.Attr("href"); links = append(links, h) })
			if got := strings.Join(links, " "); got != "/ /slice /tour /join" {
				t.Errorf("links %q", got)
			}
		})
	}
	// An API client is answered in JSON, as before.
	res, body := get("/foo", "application/json")
	if res.StatusCode != http.StatusNotFound || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") || !bytes.Contains(body, []byte(`"errors"`)) {
		t.Errorf("JSON client: %d %s %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	res, _ = get("/api/v1/nothing", browser)
	if res.StatusCode != http.StatusNotFound || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") {
		t.Errorf("API path from a browser: %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
}

// TestUnreadableAddressPage: a browser opening a page address the server
// cannot read (a query that does not parse, a form's route as a link) gets
// the reasons as a page in its language with a way on, not the API's JSON;
// an API client still gets the JSON.
func TestUnreadableAddressPage(t *testing.T) {
	ts := newTestServer(t)
	const browser = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	for _, tc := range []struct {
		path, lang     string
		status         int
		title, message string // message: a part of it
		onward         string
	}{
		{"/slice?sizes=2,3&woff=%zz", "fr", http.StatusBadRequest, "Impossible d\u2019ouvrir cette adresse", "%zz", "/slice"},
		{"/?sizes=2;3", "en", http.StatusBadRequest, "This address cannot be opened", "The query is not valid", "/"},
		{"/embed/slice?wsize=%", "pt-BR", http.StatusBadRequest, "Não foi possível abrir este endereço", "%", "/embed/slice"},
		{"/tour/3?lang=fr&x=%zz", "fr", http.StatusBadRequest, "Impossible d\u2019ouvrir cette adresse", "%zz", "/tour/3?lang=fr"},
		{"/rooms", "zh-TW", http.StatusMethodNotAllowed, "無法開啟這個網址", "這個位址不接受 GET：它接受 OPTIONS, POST", "/"},
	} {
		req, err := http.NewRequest(http.MethodGet, ts.URL+tc.path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept", browser)
		req.Header.Set("Accept-Language", tc.lang)
		res, d := sendForPage(t, req)
		if res.StatusCode != tc.status || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
			t.Errorf("%s: status %d, %s", tc.path, res.StatusCode, res.Header.Get("Content-Type"))
			continue
		}
		if got := d.Find("html").AttrOr("lang", ""); got != tc.lang {
			t.Errorf("%s: <html lang=%q>, want %s", tc.path, got, tc.lang)
		}
		if got := d.Find("main h1").Text(); got != tc.title {
			t.Errorf("%s: h1 %q, want %q", tc.path, got, tc.title)
		}
		if got := d.Find(tid("error-message")).Text(); !strings.Contains(got, tc.message) {
			t.Errorf("%s: message %q, want it to contain %q", tc.path, got, tc.message)
		}
		// Each sentence ends with the language's full stop.
		if got, stop := d.Find(tid("error-message")).Text(), map[bool]string{true: "。", false: "."}[tc.lang == "zh-TW"]; !strings.HasSuffix(got, stop) || tc.lang == "zh-TW" && strings.Contains(got, ".") {
			t.Errorf("%s: message %q, want sentences ending in %q", tc.path, got, stop)
		}
		if got := d.Find(tid("error-retry")).AttrOr("href", ""); got != tc.onward {
			t.Errorf("%s: the way on %q, want %q", tc.path, got, tc.onward)
		}
		// An API client asking the same gets the JSON error.
		res, body := fetchAs(t, ts, http.MethodGet, tc.path, "", "")
		if res.StatusCode != tc.status || !strings.HasPrefix(res.Header.Get("Content-Type"), "application/json") || !bytes.Contains(body, []byte(`"errors"`)) {
			t.Errorf("%s without Accept: text/html: status %d, %s", tc.path, res.StatusCode, res.Header.Get("Content-Type"))
		}
	}
}
