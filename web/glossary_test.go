package web

import (
	"io"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// htmlLang is the lang attribute of the page's html element.
func htmlLang(t *testing.T, page string) string {
	t.Helper()
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	lang, ok := doc.Find("html").Attr("lang")
	if !ok {
		t.Fatal("the html element has no lang attribute")
	}
	return lang
}

// getPage GETs path with an Accept-Language header and returns the page.
func getLocalePage(t *testing.T, client *http.Client, url, accept string) (string, *http.Response) {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	if accept != "" {
		req.Header.Set("Accept-Language", accept)
	}
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", url, res.StatusCode)
	}
	return string(b), res
}

// TestGlossaryInEveryLocale: /glossary is written in the language asked
// for (by Accept-Language or ?lang=), says so in <html lang>, and its
// prose holds none of the English page's sentences; the terms of all four
// languages are on every version, each row marked with its language.
func TestGlossaryInEveryLocale(t *testing.T) {
	ts := newTestServer(t)
	english, _ := getLocalePage(t, http.DefaultClient, ts.URL+"/glossary", "")
	enDoc, _ := goquery.NewDocumentFromReader(strings.NewReader(english))
	prose := func(doc *goquery.Document) []string {
		var out []string
		doc.Find("article.glossary > h1, article.glossary > h2, article.glossary > p, article.glossary section > p, article.glossary section[data-testid^=page-] dd").Each(func(_ int, s *goquery.Selection) {
			out = append(out, strings.TrimSpace(s.Text()))
		})
		return out
	}
	enProse := prose(enDoc)
	if len(enProse) < 10 {
		t.Fatalf("the English glossary has %d prose elements: the selectors are stale", len(enProse))
	}
	cases := []struct {
		lang, accept, query, title, strides string
	}{
		{"en", "", "", "Glossary", "strides"},
		{"zh-TW", "zh-TW,zh;q=0.9", "", "詞彙表", "步幅"},
		{"pt-BR", "pt-BR", "", "Glossário", "passos (strides)"},
		{"fr", "fr-FR,fr;q=0.9", "", "Glossaire", "pas (strides)"},
		{"fr", "zh-TW", "?lang=fr", "Glossaire", "pas (strides)"},
	}
	for _, c := range cases {
		t.Run(c.lang+c.query, func(t *testing.T) {
			page, _ := getLocalePage(t, http.DefaultClient, ts.URL+"/glossary"+c.query, c.accept)
			if got := htmlLang(t, page); got != c.lang {
				t.Errorf("html lang %q, want %q", got, c.lang)
			}
			doc, err := goquery.NewDocumentFromReader(strings.NewReader(page))
			if err != nil {
				t.Fatal(err)
			}
			if got := doc.Find("h1").Text(); got != c.title {
				t.Errorf("h1 %q, want %q", got, c.title)
			}
			if got := doc.Find("#h-term-strides").Text(); got != c.strides {
				t.Errorf("strides heading %q, want %q", got, c.strides)
			}
			if got := doc.Find("[data-testid=lang-switcher] a[aria-current=true]").AttrOr("hreflang", ""); got != c.lang {
				t.Errorf("the switcher marks %q as current, want %q", got, c.lang)
			}
			// Every term, in every language, with its lang attribute.
			for _, l := range []string{"en", "zh-TW", "pt-BR", "fr"} {
				if n := doc.Find("section[id^=term-] dl > div[lang=" + l + "]").Length(); n != 16 {
					t.Errorf("%d terms in %s, want 16", n, l)
				}
			}
			// The layout conversion links its explorer.
			if a := doc.Find("#term-conversion [data-testid=term-conversion-open]"); a.AttrOr("href", "") != "/convert" || !strings.Contains(a.Text(), doc.Find("#h-term-conversion").Text()) {
				t.Errorf("the layout conversion's link is %q to %q", a.Text(), a.AttrOr("href", ""))
			}
			if n := doc.Find("section[data-testid^=page-] [data-testid=misread]").Length(); n < 20 {
				t.Errorf("%d misleading words, want at least 20", n)
			}
			for _, w := range []string{"dezenases", "progressos", "進展", "配量", "dizaines", "capteur"} {
				if !strings.Contains(doc.Find("section[data-testid^=page-] dl").Text(), w) {
					t.Errorf("the misleading word %q is missing", w)
				}
			}
			if c.lang == "en" {
				return
			}
			for _, p := range prose(doc) {
				for _, e := range enProse {
					if p == e && strings.ContainsAny(p, "abcdefghijklmnopqrstuvwxyz") {
						t.Errorf("English left in the %s page: %q", c.lang, p)
					}
				}
			}
		})
	}
}

// TestSwitcherLinksKeepTheURL: every page's switcher links the same path
// and query with ?lang= set, and links the glossary.
func TestSwitcherLinksKeepTheURL(t *testing.T) {
	ts := newTestServer(t)
	page, _ := getLocalePage(t, http.DefaultClient, ts.URL+"/slice?preset=crop&lang=fr", "")
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"en": "/slice?lang=en&preset=crop", "zh-TW": "/slice?lang=zh-TW&preset=crop",
		"pt-BR": "/slice?lang=pt-BR&preset=crop", "fr": "/slice?lang=fr&preset=crop",
	}
	for l, href := range want {
		if got := doc.Find("[data-testid=lang-"+l+"]").AttrOr("href", ""); got != href {
			t.Errorf("switcher link %s: %q, want %q", l, got, href)
		}
	}
	if got := doc.Find("[data-testid=nav-glossary]").AttrOr("href", ""); got != "/glossary?lang=fr" {
		t.Errorf("glossary link %q, want /glossary?lang=fr", got)
	}
	// The slice explorer is written in French now: its html says so.
	if got := htmlLang(t, page); got != "fr" {
		t.Errorf("/slice?lang=fr: html lang %q, want fr", got)
	}
}

// TestLangCookieRemembersTheChoice: ?lang= sets the lang cookie; later
// requests without ?lang= (and with another Accept-Language) keep the
// language, until another ?lang= changes it. A tag no catalog serves
// changes nothing.
func TestLangCookieRemembersTheChoice(t *testing.T) {
	ts := newTestServer(t)
	jar, err := cookiejar.New(nil)
	if err != nil {
		t.Fatal(err)
	}
	client := &http.Client{Jar: jar}
	get := func(path string) (string, []*http.Cookie) {
		t.Helper()
		page, res := getLocalePage(t, client, ts.URL+path, "en")
		return htmlLang(t, page), res.Cookies()
	}
	if lang, cookies := get("/glossary"); lang != "en" || len(cookies) != 0 {
		t.Fatalf("first visit: lang %q, cookies %v; want en and none", lang, cookies)
	}
	lang, cookies := get("/glossary?lang=pt-BR")
	if lang != "pt-BR" || len(cookies) != 1 || cookies[0].Name != "lang" || cookies[0].Value != "pt-BR" || !cookies[0].HttpOnly {
		t.Fatalf("?lang=pt-BR: lang %q, cookies %+v; want pt-BR and an HttpOnly lang=pt-BR cookie", lang, cookies)
	}
	for range 2 {
		if lang, _ := get("/glossary"); lang != "pt-BR" {
			t.Errorf("after ?lang=pt-BR: lang %q, want pt-BR from the cookie", lang)
		}
	}
	// The API answers in the cookie's language too.
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/api/v1/layout", strings.NewReader(`{"dataType":"FLOAT32","sizes":[0,3]}`))
	req.Header.Set("Accept-Language", "fr")
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if !strings.Contains(string(body), "um tamanho zero em qualquer dimensão é inválido") {
		t.Errorf("API with the pt-BR cookie and Accept-Language fr: %s", body)
	}
	if lang, _ := get("/glossary?lang=zh-TW"); lang != "zh-TW" {
		t.Errorf("?lang=zh-TW: lang %q", lang)
	}
	if lang, _ := get("/glossary"); lang != "zh-TW" {
		t.Errorf("after ?lang=zh-TW: lang %q, want zh-TW", lang)
	}
	if lang, cookies := get("/glossary?lang=klingon"); lang != "zh-TW" || len(cookies) != 0 {
		t.Errorf("?lang=klingon: lang %q, cookies %v; want zh-TW kept and no cookie", lang, cookies)
	}
}

// TestVaryAcceptLanguage: pages, API answers and the public SVG pictures
// vary with the language asked for, by header or by the lang cookie, and
// say so to caches; the static assets, the same in every language, do
// not.
func TestVaryAcceptLanguage(t *testing.T) {
	ts := newTestServer(t)
	page, res := getLocalePage(t, http.DefaultClient, ts.URL+"/glossary", "fr")
	if v := res.Header.Values("Vary"); !strings.Contains(strings.Join(v, ","), "Accept-Language") || !strings.Contains(strings.Join(v, ","), "Cookie") {
		t.Errorf("/glossary: Vary %q, want Accept-Language and Cookie among them", v)
	}
	_, res = getLocalePage(t, http.DefaultClient, ts.URL+"/api/v1/layout.svg?sizes=2,3", "fr")
	if v := res.Header.Values("Vary"); !strings.Contains(strings.Join(v, ","), "Accept-Language") || !strings.Contains(strings.Join(v, ","), "Cookie") {
		t.Errorf("layout.svg: Vary %q, want Accept-Language and Cookie among them", v)
	}
	doc, err := goquery.NewDocumentFromReader(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	css, ok := doc.Find(`link[rel=stylesheet]`).Attr("href")
	if !ok {
		t.Fatal("no stylesheet link")
	}
	_, res = getLocalePage(t, http.DefaultClient, ts.URL+css, "fr")
	if v := res.Header.Values("Vary"); strings.Contains(strings.Join(v, ","), "Accept-Language") {
		t.Errorf("%s: Vary %q; an asset does not vary with the language", css, v)
	}
}
