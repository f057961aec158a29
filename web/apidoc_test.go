package web

import (
	"io"
	"net/http"
	"os"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/stridescope/stridescope/i18n"
)

// TestCitedAPIDocAnswers: the import box and the API panel cite the API's
// documentation by an address of this server, in every language, and
// that address answers 200 with docs/api.md as it is, plain text (it was
// "docs/api.md", which the server answered with a 404; issue #37, point
// 6.7). HEAD answers too.
func TestCitedAPIDocAnswers(t *testing.T) {
	ts := newTestServer(t)
	want, err := os.ReadFile("../docs/api.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, l := range i18n.Locales {
		_, d := getPage(t, ts.URL+"/?sizes=2,3&lang="+string(l), nil)
		var cited []string
		for _, sel := range []string{`label[for="import-text"] code`, `details.api code`} {
			d.Find(sel).Each(func(_ int, s *goquery.Selection) {
				if a := s.Text(); strings.HasPrefix(a, "/docs/") {
					cited = append(cited, a)
				}
			})
		}
		if len(cited) != 2 {
			t.Errorf("%s: the import box and the API panel cite %q, want one address each", l, cited)
		}
		for _, a := range cited {
			for _, method := range []string{http.MethodGet, http.MethodHead} {
				req, _ := http.NewRequest(method, ts.URL+a, nil)
				res, err := http.DefaultClient.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				body, _ := io.ReadAll(res.Body)
				res.Body.Close()
				if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "text/plain; charset=utf-8" || res.Header.Get("X-Content-Type-Options") != "nosniff" {
					t.Errorf("%s %s %s: %d %q nosniff %q, want 200 plain text, nosniff", l, method, a, res.StatusCode, res.Header.Get("Content-Type"), res.Header.Get("X-Content-Type-Options"))
				}
				if method == http.MethodGet && string(body) != string(want) {
					t.Errorf("%s %s: %d bytes, not docs/api.md's %d", l, a, len(body), len(want))
				}
			}
		}
	}
}
