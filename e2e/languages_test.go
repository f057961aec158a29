package e2e

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/i18n/i18ntest"
)

// domText lists what a reader reads on the page once its scripts ran:
// the text nodes and the labels (aria-label, title, placeholder, alt),
// leaving out code, key names, the embed snippets, the language switcher
// (each language's name in itself), the examples' ?preset= names, as
// web's TestTranslatedPagesHaveNoEnglish does on the served HTML, and
// the parts marked as written in another language (the glossary's
// columns, lang="en" and so on: WCAG 3.1.2).
const domText = `(() => {
	const page = document.documentElement.lang;
	const skip = 'code, pre, kbd, textarea, script, style, noscript, nav.lang, svg.qr, a.preset, [lang]:not([lang="' + page + '"])';
	const out = [];
	const walk = (n) => {
		if (n.nodeType === Node.TEXT_NODE) { out.push(n.data); return; }
		if (n.nodeType !== Node.ELEMENT_NODE || n.matches(skip)) return;
		for (const a of ['aria-label', 'title', 'placeholder', 'alt']) if (n.hasAttribute(a)) out.push(n.getAttribute(a));
		for (const c of n.childNodes) walk(c);
	};
	walk(document.documentElement);
	return out;
})()`

// withLang is path asked for in l.
func withLang(path string, l i18n.Locale) string {
	sep := "?"
	if strings.Contains(path, "?") {
		sep = "&"
	}
	return path + sep + "lang=" + string(l)
}

// readPage opens path in l, lets its scripts draw (the first edit's
// answer, a step of the step-through, a hovered buffer cell's caption)
// and returns its <html lang> and the strings a reader reads.
func readPage(t *testing.T, ctx context.Context, base, path string, l i18n.Locale) (string, map[string]bool) {
	t.Helper()
	do(t, ctx, "open "+path+" in "+string(l), chromedp.Navigate(base+withLang(path, l)))
	waitFor(t, ctx, path+" settled", settled)
	if eval[bool](t, ctx, `!!document.querySelector('[data-testid=step-next]')`) {
		do(t, ctx, "step", chromedp.Click(chromedp.CSS(`[data-testid=step-next]`)))
		waitFor(t, ctx, "the step's text", `document.querySelector('[data-testid=step-count]').textContent !== ''`)
	}
	if eval[bool](t, ctx, `location.pathname === '/' && !!document.querySelector('#b-1')`) {
		hover(t, ctx, "#b-1")
		waitFor(t, ctx, "the caption of buffer cell 1", `!document.querySelector('#dot .hint')`)
	}
	texts := eval[[]string](t, ctx, domText)
	out := map[string]bool{}
	for _, s := range texts {
		if s = i18ntest.Translatable(s); s != "" {
			out[s] = true
		}
	}
	return eval[string](t, ctx, `document.documentElement.lang`), out
}

// languageShots are the pages whose screen, in each translated language,
// the README shows (docs/img/lang-<locale>-<name>.png with -screenshots).
var languageShots = map[string]string{
	"/?dt=FLOAT32&sizes=2,3&strides=5,1&total=48": "layout",
	"/slice?preset=example2":                      "slice",
	"/tour/1":                                     "tour",
}

// TestE2EEveryPageInEachLanguage: in Chromium, every kind of page read in
// zh-TW, pt-BR and fr names its language in <html lang>, shows no catalog
// key raw, and, once its scripts ran, no English string of the same page
// read in English (the strings the ES modules write included). One
// browser, the pages in a loop. With -screenshots it refreshes the
// README's screens of each language.
func TestE2EEveryPageInEachLanguage(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	pages := []string{
		"/?dt=FLOAT32&sizes=2,3&strides=5,1&total=48",
		"/?sizes=300,300",
		"/?dt=FLOAT32&sizes=2,x&strides=5,-1&mode=explicit",
		"/slice?preset=example2",
		"/slice?dt=FLOAT32&sizes=128,128&woff=0,0&wsize=128,128&wstride=1,1",
		"/slice?preset=example2&wsize=1,1,9,3",
		"/tour/1", "/tour/7", "/tour/11", "/tour/12", "/tour/13", "/tour/14", "/tour/15", "/tour/16",
		"/glossary", "/join", "/embed/layout?sizes=2,3", "/embed/slice?preset=example2", "/no-such-page",
		"/operators", "/check", "/convert?preset=nchw-nhwc", "/convert?preset=scalebias",
		"/joinsplit?preset=join-padded", "/joinsplit?preset=split-example1&axis=7", "/padding?preset=pad-ex3", "/tile",
	}
	for _, path := range pages {
		_, en := readPage(t, ctx, base, path, i18n.English)
		if len(en) < 5 {
			t.Fatalf("%s: only %d English strings: %v", path, len(en), en)
		}
		for _, l := range i18n.Locales[1:] {
			lang, got := readPage(t, ctx, base, path, l)
			if name, ok := languageShots[path]; ok {
				do(t, ctx, "scroll to the top", chromedp.Evaluate[chromedp.Void](`window.scrollTo(0, 0)`))
				shotOf(t, ctx, "lang-"+string(l)+"-"+name, chromedp.CaptureScreenshot())
			}
			if lang != string(l) {
				t.Errorf("%s in %s: <html lang=%q>", path, l, lang)
			}
			for s := range got {
				if keys := i18ntest.RawKeys(s); len(keys) > 0 {
					t.Errorf("%s in %s: catalog keys shown raw %v in %q", path, l, keys, s)
				}
				if en[s] && !i18ntest.SameIn(s, l) {
					t.Errorf("%s in %s: English left: %q", path, l, s)
				}
			}
		}
	}
}

// TestE2ELanguageKeptAcrossEditsRoomsAndEmbeds: in Chromium, the switcher
// changes the language and keeps the explorer's state; ?lang= stays in the
// address bar after an edit answered over the websocket and in the embed
// snippet the page writes after it; an embed opened from that snippet
// speaks the language; and in a room presented in pt-BR a viewer who
// joins by the room's link reads the room's language (the class's), and
// one who switches to French keeps following in French.
func TestE2ELanguageKeptAcrossEditsRoomsAndEmbeds(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	q := func(ctx context.Context, key string) string {
		return eval[string](t, ctx, fmt.Sprintf(`new URLSearchParams(location.search).get(%q) || ''`, key))
	}

	// The switcher, on the slice explorer with a state of its own.
	waitLive(t, presenter, base+"/slice?dt=FLOAT32&sizes=1,1,4,4&woff=0,0,0,1&wsize=1,1,4,3&wstride=1,1,-2,1")
	do(t, presenter, "click PT", clickInView(`[data-testid=lang-pt-BR]`))
	waitFor(t, presenter, "the page in pt-BR with its state", `document.documentElement.lang === 'pt-BR' && document.body.dataset.live === 'ready' && document.querySelector('#picture').dataset.state === 'done'`)
	if got := q(presenter, "wstride"); got != "1,1,-2,1" {
		t.Errorf("the switch lost the state: wstride %q", got)
	}

	// An edit over the websocket keeps ?lang=, and so does the embed
	// snippet share.js rewrites after it.
	typeInto(t, presenter, "a window offset of 0", `[data-testid=woff-3]`, "0")
	waitFor(t, presenter, "the edit's answer", `new URLSearchParams(location.search).get('woff') === '0,0,0,0' && document.querySelector('#picture').dataset.state === 'done'`)
	if got := q(presenter, "lang"); got != "pt-BR" {
		t.Errorf("after an edit the address bar's lang is %q", got)
	}
	do(t, presenter, "open Embed", clickInView(`[data-testid=embed-button]`))
	snippet := eval[string](t, presenter, `(() => { const m = document.querySelector('[data-testid=embed-snippet]').value.match(/src="([^"]+)"/); return m ? m[1].replaceAll('&amp;', '&') : ''; })()`)
	if u, err := url.Parse(snippet); err != nil || u.Query().Get("lang") != "pt-BR" || u.Query().Get("woff") != "0,0,0,0" {
		t.Errorf("the embed snippet after the edit: %q", snippet)
	}
	embed := newBrowserContext(t, presenter)
	waitLive(t, embed, snippet)
	if got := eval[string](t, embed, `document.documentElement.lang + ' ' + document.querySelector('[data-testid=step-count]').textContent`); !strings.HasPrefix(got, "pt-BR ") || !strings.Contains(got, "etapas") {
		t.Errorf("the embed from the snippet: %q", got)
	}

	// A room presented in pt-BR.
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting' && document.querySelector('#picture').dataset.state === 'done'`)
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)
	if u, err := url.Parse(join); err != nil || u.Query().Get("lang") != "pt-BR" {
		t.Errorf("the room's join URL %q does not carry the room's language", join)
	}
	if got := q(presenter, "lang"); got != "pt-BR" {
		t.Errorf("the presenter's address bar lost lang: %q", got)
	}

	// A viewer on another device, whose browser asks for English, joins
	// by the room's link: the class's language.
	viewer := newBrowserContext(t, presenter)
	do(t, viewer, "open the join URL", chromedp.Navigate(join))
	waitFor(t, viewer, "following in pt-BR", roomState+` === 'following' && document.documentElement.lang === 'pt-BR'`)
	status := eval[string](t, viewer, `document.querySelector('[data-testid=room-status]').textContent.trim()`)
	if want := i18n.BrazilianPortuguese.T("room.following", nil); status != want {
		t.Errorf("the viewer's room status %q, want %q", status, want)
	}

	for who, c := range map[string]context.Context{"presenter": presenter, "viewer": viewer} {
		if left := englishLeft(t, c, "room.", "js.room.", "present."); len(left) > 0 {
			t.Errorf("the %s's room page in pt-BR shows English: %q", who, left)
		}
	}

	// The viewer switches to French and keeps following.
	do(t, viewer, "click FR", clickInView(`[data-testid=lang-fr]`))
	waitFor(t, viewer, "following in fr", roomState+` === 'following' && document.documentElement.lang === 'fr' && document.querySelector('#picture').dataset.state === 'done'`)
	typeInto(t, presenter, "the presenter edits a window size", `[data-testid=wsize-3]`, "2")
	waitFor(t, viewer, "the French viewer follows the edit", `document.querySelector('[data-testid=wsize-3]').value === '2' && document.querySelector('[data-testid=step-count]').textContent.includes('étapes')`)
	if got := eval[string](t, presenter, `document.documentElement.lang + ' ' + document.querySelector('[data-testid=step-count]').textContent`); !strings.HasPrefix(got, "pt-BR ") || !strings.Contains(got, "etapas") {
		t.Errorf("the presenter's page after the viewer switched: %q", got)
	}
}

// englishLeft lists the English texts of the catalog keys with these
// prefixes (those without placeholders) that the page of ctx shows.
func englishLeft(t *testing.T, ctx context.Context, prefixes ...string) []string {
	t.Helper()
	shown := map[string]bool{}
	for _, s := range eval[[]string](t, ctx, domText) {
		shown[strings.Join(strings.Fields(s), " ")] = true
	}
	var left []string
	for _, k := range i18n.Keys() {
		en := i18n.English.T(k, nil)
		for _, p := range prefixes {
			if strings.HasPrefix(string(k), p) && !strings.Contains(en, "{") && shown[en] {
				left = append(left, en)
			}
		}
	}
	return left
}

// TestE2ESliceCaptionInFrench: in Chromium, the caption of a slice's
// buffer cell that twelve broadcast input elements share, which the
// page's module writes, is French to its end, the "and 4 more" of its
// list included.
func TestE2ESliceCaptionInFrench(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/slice?dt=FLOAT32&sizes=12,1&strides=0,1&mode=explicit&woff=0,0&wsize=12,1&wstride=1,1&lang=fr")
	hoverCell(t, ctx, `#slice-buffer .bc[data-o="0"]`)
	waitFor(t, ctx, "the caption of buffer cell 0", `document.querySelector('#dot').textContent.startsWith('le décalage 0 du tampon')`)
	if got := eval[string](t, ctx, `document.querySelector('#dot').textContent`); !strings.Contains(got, "(7,0) et 4 de plus") || strings.Contains(got, " and ") {
		t.Errorf("the caption %q", got)
	}
}

// TestE2EImportKeepsTheLanguage: in Chromium, the import box of a page
// read in French answers in French and opens what it imported with
// ?lang=fr kept.
func TestE2EImportKeepsTheLanguage(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/?sizes=2,3&lang=fr")
	typeInto(t, ctx, "the import box", "[data-testid=import-text]", `{"numpy":{"dtype":"<f4","shape":[2,3],"strides":[24,-4]}}`)
	do(t, ctx, "import", clickInView("[data-testid=import-submit]"))
	waitFor(t, ctx, "the error in French", `document.querySelector('[data-testid=import-result]').textContent.includes('numpy.strides[1]')`)
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=import-result]').textContent`); !strings.Contains(got, "octets") || strings.Contains(got, "bytes") {
		t.Errorf("the import's error %q is not French", got)
	}
	typeInto(t, ctx, "the import box", "[data-testid=import-text]", "torch.Size([2, 3]) (1, 2) torch.float16")
	do(t, ctx, "import", clickInView("[data-testid=import-submit]"))
	waitFor(t, ctx, "the imported layout, in French", `new URLSearchParams(location.search).get('strides') === '1,2' && new URLSearchParams(location.search).get('lang') === 'fr' && document.documentElement.lang === 'fr' && document.body.dataset.live === 'ready'`)
}

// TestE2EChineseWordsStayWhole: on a phone, in zh-TW, the slice
// explorer's per-dimension table keeps each short heading (視窗, 步幅) on
// one line, and so does the NumPy expression's button (套用), where
// Chinese would otherwise break them one character a line; a view's
// subtitle wraps between words.
func TestE2EChineseWordsStayWhole(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	emulate(t, ctx, phone)
	waitLive(t, ctx, base+"/slice?preset=example2&lang=zh-TW")
	const broken = `[...document.querySelectorAll('table.dimfacts thead th, [data-testid=use-np]')].filter(th => th.textContent.trim().length <= 4).filter(th => { const r = document.createRange(); r.selectNodeContents(th); return new Set([...r.getClientRects()].map(q => Math.round(q.top))).size > 1; }).map(th => th.textContent.trim())`
	if got := eval[[]string](t, ctx, broken); len(got) > 0 {
		t.Errorf("words broken across lines: %q", got)
	}

	// The layout explorer's buffer subtitle, "6 個 32 位元的元素 = 24
	// 位元組", wraps on a phone: not inside 位元組 (bytes).
	waitLive(t, ctx, base+"/?lang=zh-TW")
	const split = `(() => { const n = document.querySelector('[data-testid=buffer-sub]').firstChild, i = n.data.lastIndexOf('位元組'); const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 3); return new Set([...r.getClientRects()].map(q => Math.round(q.top))).size; })()`
	if lines := eval[int](t, ctx, split); lines != 1 {
		t.Errorf("位元組 in the buffer's subtitle takes %d lines", lines)
	}
}

// TestE2ESocketSpeaksThePagesLanguage: a page read in French whose socket
// reconnects without the lang cookie (an embed on another site never
// sends it; another tab may have switched it) still gets its edits'
// answers in French, not in the browser's Accept-Language.
func TestE2ESocketSpeaksThePagesLanguage(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `
		window.__sockets = []; window.__results = 0;
		window.WebSocket = class extends window.WebSocket {
			constructor(...a) {
				super(...a);
				window.__sockets.push(this);
				this.addEventListener('message', (e) => { if (typeof e.data === 'string' && e.data.includes('"result"')) window.__results++; });
			}
		};`}); err != nil {
		t.Fatal(err)
	}
	waitLive(t, ctx, base+"/?lang=fr&dt=FLOAT32&sizes=2,3&strides=5,1")
	fr := i18n.French.T("fact.last", nil)
	facts := `document.querySelector('#facts').textContent`
	if got := eval[string](t, ctx, facts); !strings.Contains(got, fr) {
		t.Fatalf("the French page's facts lack %q", fr)
	}
	if _, err := chromedp.Call(ctx, network.DeleteCookies, network.DeleteCookiesParams{Name: "lang", URL: base}); err != nil {
		t.Fatal(err)
	}
	results := eval[int](t, ctx, `window.__results`)
	do(t, ctx, "drop the socket", chromedp.Evaluate[chromedp.Void](`window.__sockets.at(-1).close()`))
	waitFor(t, ctx, "the reconnected socket's answer", fmt.Sprintf(`window.__sockets.length > 1 && window.__results > %d && document.querySelector('#picture').dataset.state === 'done'`, results))
	if got := eval[string](t, ctx, facts); !strings.Contains(got, fr) || strings.Contains(got, i18n.English.T("fact.last", nil)) {
		t.Errorf("after reconnecting, the facts read %q", got)
	}
}
