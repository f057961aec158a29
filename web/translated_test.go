package web

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"

	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/i18n/i18ntest"
)

// uiText lists the text nodes and the labels (aria-label, title,
// placeholder, alt) of a page, leaving out code, scripts and the language
// switcher (each language's name in itself).
func uiText(t *testing.T, body io.Reader) (lang string, text map[string]bool) {
	t.Helper()
	d, err := goquery.NewDocumentFromReader(body)
	if err != nil {
		t.Fatal(err)
	}
	lang, _ = d.Find("html").Attr("lang")
	// textarea: the embed snippets (HTML code); kbd: key names; a.preset:
	// the examples' names, which are their ?preset= identifiers.
	// A dims table's template row names its dimension views.DimTemplateLabel
	// (its boxes' names are checked with it, translated around it).
	d.Find("code, pre, kbd, textarea, script, style, noscript, nav.lang, svg.qr, a.preset, template.dim-row th.dim-label").Remove()
	out := map[string]bool{}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			if s := i18ntest.Translatable(n.Data); s != "" {
				out[s] = true
			}
		}
		if n.Type == html.ElementNode {
			for _, a := range n.Attr {
				switch a.Key {
				case "aria-label", "title", "placeholder", "alt":
					if s := i18ntest.Translatable(a.Val); s != "" {
						out[s] = true
					}
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	for _, n := range d.Nodes {
		walk(n)
	}
	return lang, out
}

// TestTranslatedPagesHaveNoEnglish renders each translated page in
// English and in every other locale, and fails on any English UI text
// that the translated render still shows, or when <html lang> does not
// name the locale.
func TestTranslatedPagesHaveNoEnglish(t *testing.T) {
	ts := newTestServer(t)
	get := func(path string, l i18n.Locale) (string, map[string]bool) {
		t.Helper()
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		req, err := http.NewRequest(http.MethodGet, ts.URL+path+sep+"lang="+string(l), nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Accept", "text/html")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		return uiText(t, res.Body)
	}
	for _, path := range translatedPaths {
		_, en := get(path, i18n.English)
		if len(en) < 5 {
			t.Fatalf("%s: only %d English strings found: %v", path, len(en), en)
		}
		for _, l := range i18n.Locales[1:] {
			t.Run(path+"/"+string(l), func(t *testing.T) {
				lang, got := get(path, l)
				if lang != string(l) {
					t.Errorf("<html lang=%q>, want %q", lang, l)
				}
				for s := range en {
					if got[s] && !i18ntest.SameIn(s, l) {
						t.Errorf("English left: %q", s)
					}
				}
				for s := range got {
					if keys := i18ntest.RawKeys(s); len(keys) > 0 {
						t.Errorf("catalog keys shown raw %v in %q", keys, s)
					}
				}
			})
		}
	}
}

// translatedPaths are the pages written in every locale.
var translatedPaths = []string{"/?sizes=64,64&cell=4095", "/?sizes=300,300", "/slice?sizes=1,1,100,100&wsize=1,1,100,100", "/slice?dt=FLOAT16&sizes=1,1,64,64&wsize=1,1,64,64&np=x[0,:,:,:]", "/tour/1", "/tour/7", "/tour/10", "/tour/11", "/tour/12", "/tour/13", "/tour/14", "/tour/15", "/tour/16", "/convert?preset=scalebias", "/", "/?sizes=2,3&strides=5,1&total=48", "/?sizes=300,302&total=362410", "/slice?sizes=4,4&total=66", "/?sizes=x,3", "/slice", "/slice?preset=example2&t=2", "/slice?preset=padded&out=1,1,9,2", "/join", "/join?code=nope", "/no-such-page", "/depthspace", "/depthspace?preset=s2d-page2", "/depthspace?op=d2s&dt=FLOAT32&sizes=1,16,16,16&imode=packed&block=2", "/depthspace?op=s2d&dt=FLOAT32&sizes=1,1,3,x&imode=packed&block=0", "/joinsplit", "/joinsplit?preset=split-columns&axis=9", "/padding", "/padding?preset=pad-ex1", "/padding?dt=FLOAT32&sizes=20,20&mode=EDGE&start=1,1&end=1,1", "/padding?sizes=x,3&mode=WRAP&fl=6_3", "/tile", "/tile?sizes=2,x&repeats=0,1", "/joinsplit?op=join&dt=FLOAT32&axis=0&in=256,2&st=&in=1,2&st=", "/padding?dt=FLOAT32&sizes=4096,4096&mode=EDGE&start=1,1&end=1,1"}

// TestSharedLinksKeepTheLanguage: a page read in French shares its embed,
// its picture and its full-page link with lang=fr (an embed on another
// site has no cookie of ours), and the embed opens in French. An English
// page's snippets, pasted into a page written in English, carry lang=en,
// so that they do not follow a reader's browser into another language;
// its own links (the SVG download, the DxDispatch model) carry no lang.
func TestSharedLinksKeepTheLanguage(t *testing.T) {
	ts := newTestServer(t)
	page := func(url string) *goquery.Document {
		t.Helper()
		_, d := getPage(t, url, nil)
		return d
	}
	for _, c := range []struct{ path, lang string }{
		{"/?sizes=2,3&lang=fr", "fr"}, {"/slice?lang=pt-BR", "pt-BR"}, {"/?sizes=2,3", ""},
	} {
		d := page(ts.URL + c.path)
		embed := d.Find("[data-testid=embed-snippet]").AttrOr("data-url", "")
		pasted := []string{embed, d.Find("[data-testid=embed-picture-snippet]").AttrOr("data-url", "")}
		own := []string{d.Find("[data-testid=download-svg]").AttrOr("href", ""), d.Find("[data-testid=dx-download]").AttrOr("href", "")}
		for i, u := range append(pasted, own...) {
			want := c.lang
			if want == "" && i < len(pasted) {
				want = "en"
			}
			if n := strings.Count(u, "lang="); want != "" && (n != 1 || !strings.HasSuffix(u, "lang="+want) && !strings.Contains(u, "lang="+want+"&")) || want == "" && n > 0 {
				t.Errorf("%s: shared link %q, want lang=%q", c.path, u, want)
			}
		}
		if !strings.Contains(d.Find("[data-testid=embed-snippet]").Text(), "lang="+c.lang) && c.lang != "" {
			t.Errorf("%s: the embed snippet has no lang=%s", c.path, c.lang)
		}
		if c.lang == "" {
			continue
		}
		e := page(embed)
		if got := e.Find("html").AttrOr("lang", ""); got != c.lang {
			t.Errorf("%s: the embed %s has <html lang=%q>", c.path, embed, got)
		}
		if e.Find("script#strings").Length() != 1 {
			t.Errorf("%s: the embed carries no strings for its modules", c.path)
		}
	}
	// The modules carry no words: an English page embeds its strings too.
	if d := page(ts.URL + "/"); d.Find("script#strings").Length() != 1 || !strings.Contains(d.Find("script#strings").Text(), "Copied") {
		t.Error("an English page embeds no strings for its modules")
	}
}

// TestRoomLinkKeepsTheLanguage: a presenter reading in French shows a
// join URL (and QR code) with lang=fr, since a phone that scans it has
// none of our cookies; the viewer's page it opens is French, room bar
// included. An English presenter's URL has no lang.
func TestRoomLinkKeepsTheLanguage(t *testing.T) {
	_, ts := roomServer(t, Config{})
	code, location, cookie := openRoom(t, ts, "sizes=2,3")
	for _, c := range []struct{ lang, want string }{{"fr", "?lang=fr"}, {"", ""}} {
		u := ts.URL + location
		if c.lang != "" {
			u += "&lang=" + c.lang
		}
		_, doc := getPage(t, u, cookieHeader(cookie))
		// The text shown, and the link (which adds the room's join ticket).
		join := doc.Find(tid("room-join-url")).Text()
		if !strings.HasSuffix(join, "/r/"+code+c.want) {
			t.Errorf("lang %q: join URL %q, want it to end in /r/%s%s", c.lang, join, code, c.want)
		}
		if href := doc.Find(tid("room-join-url")).AttrOr("href", ""); !strings.HasPrefix(href, join) || !strings.Contains(href, "k=") {
			t.Errorf("lang %q: join link %q, want %q with the join ticket", c.lang, href, join)
		}
	}
	// The line with the code names /join's whole address once, in the
	// sentence of each language (French with its space before the colon).
	for _, c := range []struct{ lang, want string }{
		{"en", "or type the code at JOIN: "},
		{"zh-TW", "或在 JOIN 輸入代碼： "},
		{"pt-BR", "ou digite o código em JOIN: "},
		{"fr", "ou saisir le code sur JOIN\u00a0: "},
	} {
		_, doc := getPage(t, ts.URL+location+"&lang="+c.lang, cookieHeader(cookie))
		line := doc.Find(tid("room-code")).Parent().Text()
		if want := strings.Replace(c.want, "JOIN", ts.URL+"/join", 1) + doc.Find(tid("room-code")).Text(); line != want {
			t.Errorf("lang %s: the code's line %q, want %q", c.lang, line, want)
		}
	}
	_, doc := getPage(t, ts.URL+"/r/"+code+"?lang=fr", nil)
	if got := doc.Find("html").AttrOr("lang", ""); got != "fr" {
		t.Errorf("the viewer's page: <html lang=%q>, want fr", got)
	}
	if got := strings.TrimSpace(doc.Find(tid("room-status")).Text()); got != "vous suivez la présentation" {
		t.Errorf("the viewer's room status %q", got)
	}
}

// TestImportErrorsPageInFrench: the import box without JavaScript answers
// a paste it cannot read with a page in the request's language, each
// error in it too.
func TestImportErrorsPageInFrench(t *testing.T) {
	ts := newTestServer(t)
	for _, l := range []i18n.Locale{i18n.English, i18n.French} {
		res, err := http.PostForm(ts.URL+"/import?lang="+string(l), map[string][]string{"text": {"torch.Size([2, 3])"}})
		if err != nil {
			t.Fatal(err)
		}
		lang, text := uiText(t, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusBadRequest {
			t.Fatalf("%s: status %d", l, res.StatusCode)
		}
		// After the field's name (code, left out): the message.
		want := ": aucun tuple de pas dans le texte : collez ce qu'affiche t.stride(), par ex. (3, 1)"
		if l == i18n.English {
			want = ": no stride tuple in the text: paste what t.stride() prints, e.g. (3, 1)"
		}
		if lang != string(l) && l != i18n.English || !text[want] {
			t.Errorf("%s: <html lang=%q>, errors %v", l, lang, text)
		}
	}
}

// TestImportNotesInTheRequestsLanguage: the import API's notes and the
// import page's follow the request's language; English stays as before.
func TestImportNotesInTheRequestsLanguage(t *testing.T) {
	ts := newTestServer(t)
	body := `{"numpy":{"shape":[2,3],"strides":[12,4],"offset":8}}`
	for l, want := range map[i18n.Locale]string{
		i18n.English: "NumPy strides are in bytes; DirectML's count elements: divided by the element size, 4 bytes.",
		i18n.French:  "Les strides de NumPy sont en octets\u202f; les pas de DirectML comptent des éléments\u00a0: divisés par la taille d'un élément, 4 octets.",
	} {
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/api/v1/import", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept-Language", string(l))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.Contains(string(b), want) {
			t.Errorf("%s: %d %s\nwant a note %q", l, res.StatusCode, b, want)
		}
	}
}

// TestGlossaryLinkedFromFactsAndTour: the facts panel and the tour link
// the glossary, in the page's language and keeping its ?lang=.
func TestGlossaryLinkedFromFactsAndTour(t *testing.T) {
	ts := newTestServer(t)
	for _, path := range []string{"/?sizes=2,3&lang=pt-BR", "/tour/1?lang=pt-BR"} {
		_, d := getPage(t, ts.URL+path, nil)
		a := d.Find("[data-testid=glossary-link]")
		if a.Length() == 0 || a.AttrOr("href", "") != "/glossary?lang=pt-BR" || !strings.HasSuffix(a.First().Text(), "o glossário") {
			t.Errorf("%s: glossary link %q %q", path, a.AttrOr("href", ""), a.Text())
		}
	}
}

// TestEmbedSnippetsInTheLanguage: the snippets a page offers to paste
// name the embed (its iframe title) and the picture (its img alt) in the
// page's language, which a screen reader on the pasting page reads out;
// English as before.
func TestEmbedSnippetsInTheLanguage(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct{ path, embed, picture string }{
		// The picture's alt says what it shows: the layout's own title, or
		// what a slice's picture is, its input and its window.
		{"/?sizes=2,3", `title="stridescope: DirectML tensor layout"`, `alt="DirectML tensor layout: FLOAT32, sizes {2,3}, strides {3,1}"`},
		{"/?sizes=2,3&lang=fr", "title=\"stridescope\u00a0: disposition d&#39;un tenseur DirectML\"", "alt=\"Disposition d&#39;un tenseur DirectML\u00a0: FLOAT32, tailles {2,3}, pas {3,1}\""},
		{"/slice?lang=zh-TW", `title="stridescope：DirectML 張量切片"`, `alt="stridescope：DirectML 張量切片 — 輸入 FLOAT32，大小 {1,1,4,4}，步幅 {16,16,4,1}；DML_SLICE1: InputWindowOffsets {0,0,0,1}, InputWindowSizes {1,1,4,3}, InputWindowStrides {1,1,2,2}"`},
		{"/slice?lang=pt-BR", `title="stridescope: fatia de tensor do DirectML"`, `alt="stridescope: fatia de tensor do DirectML — entrada FLOAT32 de tamanhos {1,1,4,4}, passos {16,16,4,1}; DML_SLICE1: InputWindowOffsets {0,0,0,1}`},
		{"/slice?dt=UINT8&sizes=3,5&wsize=2,2", `title="stridescope: DirectML tensor slice"`, `alt="stridescope: DirectML tensor slice — input UINT8 of sizes {3,5}, strides {5,1}; DML_SLICE1: InputWindowOffsets {0,0}, InputWindowSizes {2,2}, InputWindowStrides {1,1}"`},
		// A buffer given a size names it: the picture shows the padding.
		{"/slice?sizes=2,3&strides=4,1&total=40&wsize=2,2", "", `alt="stridescope: DirectML tensor slice — input FLOAT32 of sizes {2,3}, strides {4,1}, TotalTensorSizeInBytes 40; DML_SLICE1: InputWindowOffsets {0,0}`},
		{"/slice?sizes=2,3&strides=4,1&total=40&wsize=2,2&lang=fr", "", "alt=\"stridescope\u00a0: tranche d&#39;un tenseur DirectML — entrée FLOAT32 de tailles {2,3}, pas {4,1}, TotalTensorSizeInBytes 40\u202f; DML_SLICE1"},
		{"/?sizes=2,3&strides=5,1&total=40", `title="stridescope: DirectML tensor layout"`, `alt="DirectML tensor layout: FLOAT32, sizes {2,3}, strides {5,1}, TotalTensorSizeInBytes 40"`},
		{"/?sizes=2,3&strides=5,1&total=40&lang=fr", "", "alt=\"Disposition d&#39;un tenseur DirectML\u00a0: FLOAT32, tailles {2,3}, pas {5,1}, TotalTensorSizeInBytes 40\""},
	} {
		_, d := getPage(t, ts.URL+c.path, nil)
		if got := d.Find(tid("embed-snippet")).Text(); !strings.Contains(got, c.embed) {
			t.Errorf("%s: the embed snippet %q lacks %s", c.path, got, c.embed)
		}
		if got := d.Find(tid("embed-picture-snippet")).Text(); !strings.Contains(got, c.picture) {
			t.Errorf("%s: the picture snippet %q lacks %s", c.path, got, c.picture)
		}
	}
}

// TestNoScriptPicturesInTheLanguage: the SVG picture a page shows without
// JavaScript in place of a canvas is asked for in the page's language
// (an embed on another site sends no cookie of ours); English adds
// nothing.
func TestNoScriptPicturesInTheLanguage(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct{ path, want string }{
		{"/?sizes=64,63&strides=64,1", ""}, {"/?sizes=64,63&strides=64,1&lang=fr", "&lang=fr"},
		{"/embed/slice?sizes=30,30&wsize=30,30&lang=zh-TW", "&lang=zh-TW"},
	} {
		res, err := http.Get(ts.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		// The picture is inside <noscript>, which HTML parsers read as text.
		m := regexp.MustCompile(`class="noscript-svg"[^>]*src="([^"]+)"`).FindSubmatch(b)
		if m == nil {
			t.Fatalf("%s: no picture without JavaScript", c.path)
		}
		src := html.UnescapeString(string(m[1]))
		if c.want == "" && strings.Contains(src, "lang=") || !strings.HasSuffix(src, c.want) {
			t.Errorf("%s: the picture is %q, want it to end with %q", c.path, src, c.want)
		}
	}
}
