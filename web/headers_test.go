package web

import (
	"net/http"
	"strings"
	"testing"
)

// TestAPIAllowsOtherSitesScripts: a page on another site may call the API
// from script and read the answer (CORS, preflight included), and load its
// pictures; the pages and the rooms give other sites' scripts nothing.
func TestAPIAllowsOtherSitesScripts(t *testing.T) {
	ts := newTestServer(t)
	const origin = "https://docs.example.com"
	do := func(method, path, body string, h map[string]string) *http.Response {
		t.Helper()
		req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Origin", origin)
		for k, v := range h {
			req.Header.Set(k, v)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	for _, tc := range []struct {
		name, method, path, body string
		headers                  map[string]string
		status                   int
		allowed                  bool
	}{
		{"preflight of a JSON POST", http.MethodOptions, "/api/v1/layout", "", map[string]string{"Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type"}, http.StatusNoContent, true},
		{"a JSON POST", http.MethodPost, "/api/v1/layout", `{"dataType":"FLOAT32","sizes":[2,3]}`, map[string]string{"Content-Type": "application/json"}, http.StatusOK, true},
		{"a refused JSON POST", http.MethodPost, "/api/v1/layout", `{"dataType":"FLOAT32","sizes":[2,0]}`, map[string]string{"Content-Type": "application/json"}, http.StatusUnprocessableEntity, true},
		{"a picture", http.MethodGet, "/api/v1/layout.svg?sizes=2,3", "", nil, http.StatusOK, true},
		{"a model", http.MethodGet, "/api/v1/dxdispatch/layout.json?sizes=2,3", "", nil, http.StatusOK, true},
		{"a page", http.MethodGet, "/?sizes=2,3", "", nil, http.StatusOK, false},
		{"opening a room", http.MethodPost, "/rooms", "page=layout", map[string]string{"Content-Type": "application/x-www-form-urlencoded"}, http.StatusForbidden, false},
	} {
		res := do(tc.method, tc.path, tc.body, tc.headers)
		if res.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d", tc.name, res.StatusCode, tc.status)
		}
		got := res.Header.Get("Access-Control-Allow-Origin")
		if tc.allowed != (got == "*") || (!tc.allowed && got != "") {
			t.Errorf("%s: Access-Control-Allow-Origin %q, allowed %v", tc.name, got, tc.allowed)
		}
		if res.Header.Get("Access-Control-Allow-Credentials") != "" {
			t.Errorf("%s: credentials allowed", tc.name)
		}
		if tc.method == http.MethodOptions {
			if m := res.Header.Get("Access-Control-Allow-Methods"); !strings.Contains(m, "POST") {
				t.Errorf("%s: Access-Control-Allow-Methods %q", tc.name, m)
			}
			if h := strings.ToLower(res.Header.Get("Access-Control-Allow-Headers")); !strings.Contains(h, "content-type") {
				t.Errorf("%s: Access-Control-Allow-Headers %q", tc.name, h)
			}
		}
	}
}
