package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestGoErrorsInTheRequestsLanguage: a body, an import or a query that
// Go's parsers refuse is answered in the request's language: the detail
// is rendered from the error's parts (the character, the token expected,
// the field), so no English of encoding/json, net/url or strconv is left
// in French; English reads exactly as before.
func TestGoErrorsInTheRequestsLanguage(t *testing.T) {
	ts := newTestServer(t)
	// Phrases of Go's errors (and of the English detail around them).
	goEnglish := []string{"invalid character", "looking for", "beginning of", "after array element", "in literal",
		"expecting", "unexpected", "unknown field", "invalid url escape", "numbers;", "has at most", "whole number", "not valid"}
	for _, c := range []struct {
		method, path, body string
		code, en           string
	}{
		{"POST", "/api/v1/layout", `{"dataType":"FLOAT32","sizes":[2,}`, "json.syntax",
			"the body is not valid JSON: invalid character '}' looking for beginning of value (at byte 34)"},
		{"POST", "/api/v1/layout", `{"dataType":"FLOAT32","sizes":[2,3],"x":tru}`, "json.syntax",
			"the body is not valid JSON: invalid character '}' in literal true (expecting 'e') (at byte 44)"},
		{"POST", "/api/v1/import", `{"dxdispatch":{"resources":{}, "dispatchables": [1,2}}`, "json.syntax",
			"the body is not valid JSON: invalid character '}' after array element (at byte 53)"},
		{"POST", "/api/v1/import", `{"numpy":{"shap":[2]}}`, "import.json", `json: unknown field "shap"`},
		{"POST", "/api/v1/import", `{"text":"torch.Size([2, 3, 4, 5, 6, 7, 8, 9, 10]) (1, 1, 1, 1, 1, 1, 1, 1, 1)"}`, "import.text.size.list",
			"torch.Size: 9 numbers; a DirectML tensor has at most 8 dimensions"},
		{"GET", "/api/v1/layout.svg?sizes=%zz", "", "query.invalid", `the query is not valid: invalid URL escape "%zz"`},
	} {
		for _, lang := range []string{"en", "fr", "pt-BR", "zh-TW"} {
			req, err := http.NewRequest(c.method, ts.URL+c.path, strings.NewReader(c.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept-Language", lang)
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			var body struct {
				Errors []struct{ Code, Message string }
			}
			err = json.NewDecoder(res.Body).Decode(&body)
			res.Body.Close()
			if err != nil || res.StatusCode != http.StatusBadRequest || len(body.Errors) != 1 {
				t.Fatalf("%s %s in %s: %d %+v %v", c.method, c.path, lang, res.StatusCode, body, err)
			}
			got := body.Errors[0]
			if got.Code != c.code {
				t.Errorf("%s %s in %s: code %q, want %q", c.path, c.body, lang, got.Code, c.code)
			}
			if lang == "en" {
				if got.Message != c.en {
					t.Errorf("%s %s: %q\nwant %q", c.path, c.body, got.Message, c.en)
				}
				continue
			}
			for _, w := range goEnglish {
				if strings.Contains(strings.ToLower(got.Message), w) {
					t.Errorf("%s %s in %s: %q has Go's English %q", c.path, c.body, lang, got.Message, w)
				}
			}
		}
	}
}

// TestUnknownRoutesInTheRequestsLanguage: an unknown API route or a
// method a route does not take is answered with a code, its message in
// the request's language (Echo's own English before).
func TestUnknownRoutesInTheRequestsLanguage(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct {
		method, path, lang, code, want string
		status                         int
	}{
		{"GET", "/api/v1/nope", "en", "route.none", "Not Found", http.StatusNotFound},
		{"GET", "/api/v1/nope", "fr", "route.none", "Introuvable : aucune adresse de l'API ne porte ce nom", http.StatusNotFound},
		{"DELETE", "/api/v1/layout", "en", "route.method", "Method Not Allowed", http.StatusMethodNotAllowed},
		{"DELETE", "/api/v1/layout", "zh-TW", "route.method", "這個位址不接受這個方法", http.StatusMethodNotAllowed},
	} {
		req, _ := http.NewRequest(c.method, ts.URL+c.path, nil)
		req.Header.Set("Accept-Language", c.lang)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var body struct {
			Errors []struct{ Code, Message string }
		}
		err = json.NewDecoder(res.Body).Decode(&body)
		res.Body.Close()
		if err != nil || res.StatusCode != c.status || len(body.Errors) != 1 || body.Errors[0].Code != c.code || body.Errors[0].Message != c.want {
			t.Errorf("%s %s in %s: %d %+v (%v), want %d %s %q", c.method, c.path, c.lang, res.StatusCode, body, err, c.status, c.code, c.want)
		}
	}
}
