package web

import (
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
		{"POST", "/api/v1/import", `{"numpy":{"shap":[2]}}`, "json.field.unknown", `unknown field "numpy.shap"`},
		{"POST", "/api/v1/import", `{"text":"torch.Size([2, 3, 4, 5, 6, 7, 8, 9, 10]) (1, 1, 1, 1, 1, 1, 1, 1, 1)"}`, "import.text.size.list",
			"torch.Size: 9 numbers; a DirectML tensor has at most 8 dimensions"},
		{"GET", "/api/v1/layout.svg?sizes=%zz", "", "query.invalid", `the query is not valid: invalid URL escape "%zz"`},
	} {
		for _, lang := range []string{"en", "fr", "pt-BR", "zh-TW"} {
			status, errs := askLang(t, c.method, ts.URL+c.path, lang, c.body)
			if status != http.StatusBadRequest || len(errs) != 1 {
				t.Fatalf("%s %s in %s: %d %+v", c.method, c.path, lang, status, errs)
			}
			got := errs[0]
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
		{"GET", "/api/v1/nope", "fr", "route.none", "Introuvable\u00a0: aucune adresse de l'API ne porte ce nom", http.StatusNotFound},
		// A page that does not exist, asked for by a client that takes no
		// HTML, is not called an API address.
		{"GET", "/tour/99", "fr", "page.none", "Introuvable\u00a0: aucune page ne porte cette adresse", http.StatusNotFound},
		{"GET", "/nope", "pt-BR", "page.none", "Não encontrado: nenhuma página tem esse endereço", http.StatusNotFound},
		{"DELETE", "/api/v1/layout", "en", "route.method", "DELETE is not allowed at this address: it takes OPTIONS, POST", http.StatusMethodNotAllowed},
		{"GET", "/api/v1/layout", "en", "route.method", "GET is not allowed at this address: it takes OPTIONS, POST", http.StatusMethodNotAllowed},
		{"DELETE", "/api/v1/layout", "zh-TW", "route.method", "這個位址不接受 DELETE：它接受 OPTIONS, POST", http.StatusMethodNotAllowed},
		{"PUT", "/api/v1/layout.svg", "fr", "route.method", "Méthode PUT non autorisée à cette adresse\u00a0: elle accepte OPTIONS, GET, HEAD", http.StatusMethodNotAllowed},
	} {
		status, errs := askLang(t, c.method, ts.URL+c.path, c.lang, "")
		if status != c.status || len(errs) != 1 || errs[0].Code != c.code || errs[0].Message != c.want {
			t.Errorf("%s %s in %s: %d %+v, want %d %s %q", c.method, c.path, c.lang, status, errs, c.status, c.code, c.want)
		}
	}
}
