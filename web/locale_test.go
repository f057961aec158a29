package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

type apiViolation struct {
	Field, Code, Message string
}

// postLang posts body to path with an Accept-Language header (none when
// empty) and returns the status and the violations answered.
func postLang(t *testing.T, ts *httptest.Server, path, query, accept, body string) (int, []apiViolation) {
	t.Helper()
	return askLang(t, http.MethodPost, ts.URL+path+query, accept, body)
}

// askLang sends a request with an Accept-Language header (none when
// empty) and returns the status and the violations, errors and warnings,
// answered.
func askLang(t *testing.T, method, url, accept, body string) (int, []apiViolation) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	if accept != "" {
		req.Header.Set("Accept-Language", accept)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Errors   []apiViolation
		Warnings []apiViolation
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatalf("%s %s: the answer is not JSON: %v", method, url, err)
	}
	return res.StatusCode, append(out.Errors, out.Warnings...)
}

// TestAPIMessagesInTheAskedLanguage: the case and a few more. The
// code and field are the same in every language, the message is the
// language's (words a teacher of that language uses), and ?lang= wins
// over Accept-Language.
func TestAPIMessagesInTheAskedLanguage(t *testing.T) {
	ts := newTestServer(t)
	cases := []struct {
		name, path, body string
		code, field      string
		status           int
		en               string
		other            map[string]string // Accept-Language -> a piece of the message
	}{
		{
			name: "size zero", path: "/api/v1/layout", body: `{"dataType":"FLOAT32","sizes":[0,3]}`,
			code: "tensor.size.zero", field: "sizes[0]", status: 422,
			en: "sizes[0] == 0: specifying a size of zero in any dimension is invalid",
			other: map[string]string{
				"fr":                "sizes[0] == 0\u00a0: une taille nulle, dans quelque dimension que ce soit, est invalide",
				"fr-CA,fr;q=0.9":    "une taille nulle",
				"pt-BR":             "sizes[0] == 0: um tamanho zero em qualquer dimensão é inválido",
				"pt":                "um tamanho zero",
				"zh-TW":             "sizes[0] == 0：任何維度的大小都不能是零",
				"zh-Hant-TW,en;q=0": "任何維度",
			},
		},
		{
			name: "negative stride", path: "/api/v1/layout", body: `{"dataType":"FLOAT32","sizes":[2,3],"strides":[-1,1]}`,
			code: "tensor.stride.negative", field: "strides[0]", status: 422,
			en:    "strides[0] = -1: DML_BUFFER_TENSOR_DESC::Strides is const UINT*, so negative strides cannot be expressed (use DML_SLICE1 negative window strides to reverse)",
			other: map[string]string{"fr": "un pas négatif", "pt-BR": "passos negativos", "zh-TW": "負的步幅"},
		},
		{
			name: "window outside", path: "/api/v1/slice1",
			body: `{"dataType":"FLOAT32","inputSizes":[4],"inputWindowOffsets":[3],"inputWindowSizes":[2],"inputWindowStrides":[1]}`,
			code: "slice1.window.outside", field: "inputWindowOffsets[0]", status: 422,
			en:    "axis 0: InputWindowOffsets[0] + InputWindowSizes[0] = 5 > InputTensor.Sizes[0] = 4",
			other: map[string]string{"fr": "axe 0\u00a0: InputWindowOffsets[0]", "pt-BR": "eixo 0: InputWindowOffsets[0]", "zh-TW": "軸 0：InputWindowOffsets[0]"},
		},
		{
			name: "whole number", path: "/api/v1/layout", body: `{"dataType":"FLOAT32","sizes":[2.5]}`,
			code: "json.whole", field: "sizes[0]", status: 400,
			en:    "sizes[0] must be a whole number; got 2.5",
			other: map[string]string{"fr": "sizes[0] doit être un nombre entier\u202f; reçu 2.5", "pt-BR": "sizes[0] deve ser um número inteiro; recebido 2.5", "zh-TW": "sizes[0] 必須是整數；收到的是 2.5"},
		},
		{
			name: "kinds in words", path: "/api/v1/layout", body: `[]`,
			code: "json.type", field: "", status: 400,
			en:    "the body must be an object; got a list",
			other: map[string]string{"fr": "le corps doit être un objet\u202f; reçu une liste", "pt-BR": "deve ser um objeto; recebido uma lista", "zh-TW": "必須是物件；收到的是陣列"},
		},
		{
			name: "numpy", path: "/api/v1/slice1/numpy", body: `{"inputSizes":[4],"expression":"x[::0]"}`,
			code: "numpy.axis", field: "expression", status: 422,
			en:    "axis 0: slice step cannot be zero",
			other: map[string]string{"fr": "axe 0\u00a0: le pas d'une tranche ne peut pas être nul", "pt-BR": "eixo 0: o passo de uma fatia não pode ser zero", "zh-TW": "軸 0：切片的間隔不能是零"},
		},
		{
			name: "warning", path: "/api/v1/layout", body: `{"dataType":"FLOAT32","sizes":[1],"totalTensorSizeInBytes":6}`,
			code: "tensor.total.dword", field: "totalTensorSizeInBytes", status: 200,
			en:    "totalTensorSizeInBytes 6 is not a multiple of 4: the DirectML helper functions page requires every bound buffer's total size to be DWORD-aligned (use 8)",
			other: map[string]string{"fr": "alignée sur un DWORD (utilisez 8)", "pt-BR": "alinhado a DWORD (use 8)", "zh-TW": "對齊 DWORD（請用 8）"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			check := func(how, query, accept, want string, exact bool) {
				t.Helper()
				status, vs := postLang(t, ts, c.path, query, accept, c.body)
				if status != c.status || len(vs) != 1 {
					t.Fatalf("%s: status %d, %d violations %+v; want %d and one", how, status, len(vs), vs, c.status)
				}
				v := vs[0]
				if v.Code != c.code || v.Field != c.field {
					t.Errorf("%s: code %q field %q, want %q %q", how, v.Code, v.Field, c.code, c.field)
				}
				if exact && v.Message != want || !strings.Contains(v.Message, want) {
					t.Errorf("%s: message %q, want %q", how, v.Message, want)
				}
			}
			check("no header", "", "", c.en, true)
			check("en", "", "en-US", c.en, true)
			check("unknown language", "", "de", c.en, true)
			for accept, want := range c.other {
				check("Accept-Language "+accept, "", accept, want, false)
			}
			check("?lang=fr over German", "?lang=fr", "de", c.other["fr"], false)
			check("?lang=en over French", "?lang=en", "fr", c.en, true)
		})
	}
}

// TestRedirectsAndFormsKeepTheLanguage: a link read with ?lang= keeps it
// through the server's redirects (the tour's start, a form submitted
// without JavaScript) and in the forms' fields, so the URL a reader
// lands on and shares names the language; without ?lang= nothing is
// added.
func TestRedirectsAndFormsKeepTheLanguage(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct{ path, want string }{
		{"/tour?lang=fr", "/tour/1?lang=fr"},
		{"/tour", "/tour/1"},
		{"/?dt=FLOAT32&rank=2&sizes=2,3&mode=packed&lang=pt", "lang=pt-BR"},
		{"/slice?dt=FLOAT32&rank=1&sizes=4&woff=0&wsize=4&wstride=1&lang=zh-TW", "lang=zh-TW"},
	} {
		res, _ := getPage(t, ts.URL+c.path, nil)
		loc := res.Header.Get("Location")
		if res.StatusCode/100 != 3 || !strings.Contains(loc, c.want) || (!strings.Contains(c.path, "lang=") && strings.Contains(loc, "lang=")) {
			t.Errorf("%s: %d to %q, want %q", c.path, res.StatusCode, loc, c.want)
		}
	}
	for _, c := range []struct{ path, want string }{
		{"/?sizes=2,3&lang=fr", "fr"}, {"/slice?lang=zh-TW", "zh-TW"}, {"/join?lang=pt-BR", "pt-BR"}, {"/join", ""}, {"/?sizes=2,3", ""},
	} {
		_, d := getPage(t, ts.URL+c.path, nil)
		got := d.Find(`form[method=get] input[type=hidden][name=lang]`)
		if v := got.AttrOr("value", ""); v != c.want || (c.want == "" && got.Length() != 0) {
			t.Errorf("%s: the form's lang field %q (%d), want %q", c.path, v, got.Length(), c.want)
		}
	}
}

// TestImportWithoutJavaScriptKeepsTheLanguage: the import box of a page
// read with ?lang= posts to /import?lang=, which sends a reader to what
// it imported, or links it from its notes, with the language kept.
func TestImportWithoutJavaScriptKeepsTheLanguage(t *testing.T) {
	ts := newTestServer(t)
	_, d := getPage(t, ts.URL+"/?sizes=2,3&lang=fr", nil)
	if got := d.Find(tid("import-form")).AttrOr("action", ""); got != "/import?lang=fr" {
		t.Errorf("the import form posts to %q", got)
	}
	_, d = getPage(t, ts.URL+"/?sizes=2,3", nil)
	if got := d.Find(tid("import-form")).AttrOr("action", ""); got != "/import" {
		t.Errorf("an English page's import form posts to %q", got)
	}
	post := func(text string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/import?lang=fr", strings.NewReader(url.Values{"text": {text}}.Encode()))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Sec-Fetch-Site", "same-origin")
		res, err := noRedirect.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := post("torch.Size([2, 3]) (1, 2) torch.float16")
	res.Body.Close()
	if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || !strings.Contains(loc, "lang=fr") {
		t.Errorf("an import without notes: %d to %q", res.StatusCode, loc)
	}
	res = post(`{"torch":{"dtype":"torch.float32","size":[4],"stride":[1],"storage_offset":2}}`)
	d, err := goquery.NewDocumentFromReader(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Find(tid("import-open")).AttrOr("href", ""); !strings.Contains(got, "lang=fr") || d.Find("html").AttrOr("lang", "") != "fr" {
		t.Errorf("the notes page links %q", got)
	}
}

// TestStridesLegendInThePageLanguage: the legend of the packed/explicit
// choice is the glossary's word for stride, on both explorers.
func TestStridesLegendInThePageLanguage(t *testing.T) {
	for _, c := range []struct{ lang, want string }{{"en", "Strides"}, {"zh-TW", "步幅"}, {"pt-BR", "Passos"}, {"fr", "Pas"}} {
		for _, path := range []string{"/?lang=", "/slice?lang="} {
			_, d := page(t, path+c.lang)
			if got := d.Find(tid("mode") + " legend").Text(); got != c.want {
				t.Errorf("%s%s: legend %q, want %q", path, c.lang, got, c.want)
			}
		}
	}
}

// TestOnlyPagesRememberTheLanguage: ?lang= on a page sets the lang cookie
// (the next page opens in it); on the API, an SVG picture or an embed,
// which other sites' pages fetch and shared caches keep (Cache-Control
// public), it sets none, and the answer is still in that language.
func TestOnlyPagesRememberTheLanguage(t *testing.T) {
	ts := newTestServer(t)
	for _, tc := range []struct {
		path   string
		cookie bool
		word   string // a piece of the answer in French
	}{
		{"/?sizes=2,3&lang=fr", true, `lang="fr"`},
		{"/glossary?lang=fr", true, `lang="fr"`},
		{"/api/v1/layout.svg?sizes=2,3&lang=fr", false, "éléments"},
		{"/embed/layout?sizes=2,3&lang=fr", false, `lang="fr"`},
		{"/api/v1/dxdispatch/layout.json?sizes=0&lang=fr", false, "une taille nulle"},
	} {
		res, err := http.Get(ts.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		set := res.Header.Get("Set-Cookie")
		if got := strings.HasPrefix(set, "lang="); got != tc.cookie {
			t.Errorf("%s: Set-Cookie %q, want a lang cookie: %v", tc.path, set, tc.cookie)
		}
		if !strings.Contains(string(body), tc.word) {
			t.Errorf("%s: the answer lacks %q, not in French", tc.path, tc.word)
		}
	}
}
