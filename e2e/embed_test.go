package e2e

import (
	"bytes"
	"context"
	"encoding/xml"
	"fmt"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/stridescope/stridescope/views"
)

// hostPage is a documentation page on another site: it frames the embed,
// tries to frame the explorer itself (which must refuse), and shows the
// SVG picture as an image.
const hostPage = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Some documentation</title></head>
<body style="margin:16px;font-family:sans-serif">
<h1>Tensor layouts, with a live example</h1>
<iframe id="embed" name="embed" src="%s" width="1240" height="900" title="stridescope" style="border:1px solid #999"></iframe>
<iframe id="page" name="page" src="%s" width="400" height="120"></iframe>
<iframe id="slice" name="slice" src="%s" width="1240" height="700" title="stridescope slice"></iframe>
<p><img id="svg" src="%s" alt="the DHW example"></p>
</body></html>`

// inFrame evaluates a JavaScript expression in a frame until it is truthy
// and returns its value.
func inFrame[T any](t *testing.T, ctx context.Context, frame *chromedp.Node, what, expr string) T {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 40*time.Second)
	defer cancel()
	v, err := chromedp.Run(tctx, chromedp.Poll[T](expr, chromedp.WithPollingInFrame(frame), chromedp.WithPollingInterval(25*time.Millisecond), chromedp.WithPollingTimeout(30*time.Second)))
	if err != nil {
		t.Fatalf("in the frame, %s (%s): %v", what, expr, err)
	}
	return v
}

func TestE2EEmbedInAnIframeOnAnotherOrigin(t *testing.T) {
	base := startServer(t) // http://127.0.0.1:port
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, hostPage, base+"/embed/layout?preset=padded", base+"/?preset=padded", base+"/embed/slice?preset=example2", base+"/api/v1/layout.svg?preset=DHW")
	}))
	defer host.Close()
	// Another origin: another host name and another port, both loopback.
	hostURL := strings.Replace(host.URL, "127.0.0.1", "localhost", 1)
	// The cross-origin frame runs in the tab's process, so that the test
	// can evaluate script in it; framing rules (CSP frame-ancestors,
	// X-Frame-Options) and the same-origin policy are enforced the same.
	ctx := newBrowser(t, false, chromedp.Flag("disable-site-isolation-trials", true), chromedp.Flag("disable-features", "IsolateOrigins,site-per-process"))
	do(t, ctx, "open the documentation page", chromedp.Navigate(hostURL))
	waitFor(t, ctx, "the picture", `document.getElementById('svg').complete && document.getElementById('svg').naturalWidth > 0`)

	// The documentation page's own script calls the API (a preflighted
	// JSON POST) and reads the answer.
	do(t, ctx, "fetch from the host page", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`window.__api = '';
		fetch(%q, {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({dataType: 'FLOAT32', sizes: [2, 3], strides: [5, 1]})})
			.then(r => r.json()).then(j => { window.__api = 'min ' + j.minimumImpliedElementCount; }, e => { window.__api = 'refused: ' + e; })`, base+"/api/v1/layout")))
	waitFor(t, ctx, "the API's answer", `window.__api !== ''`)
	if got := eval[string](t, ctx, `window.__api`); got != "min 8" {
		t.Errorf("the host page's fetch of the API: %q", got)
	}
	// A picture of a state too large to draw cell by cell is drawn binned,
	// not refused: an image no more than 4 times as tall as wide.
	do(t, ctx, "an image of a 4096x4096 tensor", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`window.__big = new Image(); window.__big.src = %q; document.body.append(window.__big)`, base+"/api/v1/layout.svg?sizes=4096,4096")))
	waitFor(t, ctx, "the binned picture", `window.__big.complete && window.__big.naturalWidth > 600 && window.__big.naturalHeight <= 4 * window.__big.naturalWidth`)

	frames, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS("#embed")))
	if err != nil || len(frames) != 1 {
		t.Fatalf("the iframe: %v", err)
	}
	frame := frames[0]
	inFrame[bool](t, ctx, frame, "the live session", `document.body.dataset.live === 'ready' && document.querySelector('#picture').dataset.state === 'done'`)
	if got := inFrame[string](t, ctx, frame, "the buffer", `location.origin + ' ' + `+bufferLabels); got != base+" A B C x x D E F x x" {
		t.Errorf("embed %q", got)
	}
	if inFrame[string](t, ctx, frame, "no site header", `document.querySelector('header.site') ? 'header' : 'none'`) != "none" {
		t.Error("the embed shows the site header")
	}
	shot(t, ctx, "embed-host")

	// Interactive: a preset over the websocket of the framed page.
	hostHistory := eval[int](t, ctx, `history.length`)
	inFrame[bool](t, ctx, frame, "click the broadcast preset", `(document.querySelector('[data-testid=preset-broadcast]').click(), true)`)
	inFrame[bool](t, ctx, frame, "the broadcast picture", `document.querySelector('#picture').dataset.state === 'done' && location.search.includes('strides=0,1') && (`+bufferLabels+`) === 'A B C'`)
	// The frame's edits are not entries of the documentation page's
	// history (its Back button leaves the page); the embed's own Undo and
	// Redo step through them.
	if n := eval[int](t, ctx, `history.length`); n != hostHistory {
		t.Errorf("an edit in the embed made the host page's history %d entries long, from %d", n, hostHistory)
	}
	inFrame[bool](t, ctx, frame, "Undo", `(document.querySelector('[data-testid=undo]').click(), true)`)
	inFrame[bool](t, ctx, frame, "the padded picture again", `document.querySelector('#picture').dataset.state === 'done' && location.search === '?preset=padded' && (`+bufferLabels+`) === 'A B C x x D E F x x' && !document.querySelector('[data-testid=redo]').disabled`)
	inFrame[bool](t, ctx, frame, "Redo", `(document.querySelector('[data-testid=redo]').click(), true)`)
	inFrame[bool](t, ctx, frame, "the broadcast picture again", `document.querySelector('#picture').dataset.state === 'done' && location.search.includes('strides=0,1') && (`+bufferLabels+`) === 'A B C' && document.querySelector('[data-testid=redo]').disabled`)
	if n := eval[int](t, ctx, `history.length`); n != hostHistory {
		t.Errorf("Undo and Redo in the embed made the host page's history %d entries long, from %d", n, hostHistory)
	}
	// A real pointer over a cell inside the frame links the views.
	cell := inFrame[[]float64](t, ctx, frame, "cell position", `(() => { const r = document.querySelector('#l-4').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	off := eval[[]float64](t, ctx, `(() => { const r = document.getElementById('embed').getBoundingClientRect(); return [r.x + 1, r.y + 1]; })()`)
	x, y := off[0]+cell[0], off[1]+cell[1]
	do(t, ctx, "hover element (1,1) in the frame",
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x-1, y-1),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y))
	if got := inFrame[string](t, ctx, frame, "the dot product", `document.querySelector('#b-1').classList.contains('linked') && document.querySelector('#dot').textContent`); got != "{1,1} · {0,1} = 1×0 + 1×1 = 1" {
		t.Errorf("dot %q", got)
	}
	// The Download SVG link follows the frame's state.
	if got := inFrame[string](t, ctx, frame, "the SVG link", `(document.querySelector('[data-testid=download-svg]').dispatchEvent(new Event('pointerover', {bubbles: true})), document.querySelector('[data-testid=download-svg]').getAttribute('href'))`); got != "/api/v1/layout.svg?dt=FLOAT32&sizes=2,3&strides=0,1" {
		t.Errorf("SVG link in the embed %q", got)
	}

	// The slice explorer's embed is live too.
	frames, err = chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS("#slice")))
	if err != nil || len(frames) != 1 {
		t.Fatalf("the slice iframe: %v", err)
	}
	inFrame[bool](t, ctx, frames[0], "the live slice", `document.body.dataset.live === 'ready' && document.querySelector('#picture').dataset.state === 'done'`)
	inFrame[bool](t, ctx, frames[0], "click the reverse preset", `(document.querySelector('[data-testid=preset-reverse]').click(), true)`)
	if got := inFrame[string](t, ctx, frames[0], "the reversed output", `location.search.includes('wstride=-1,-1') && document.querySelector('#picture').dataset.state === 'done' && [...document.querySelectorAll('[data-testid=outcell] .lbl')].map(e => e.textContent).join(' ')`); got != "12 11 10 9 8 7 6 5 4 3 2 1" {
		t.Errorf("slice embed output %q", got)
	}
	// A documentation page may embed a slice too large for DOM cells: the
	// framed page draws its canvases (x[10:90, ::-2] copies 4000 of the
	// 100x100 input's elements).
	large := base + "/embed/slice?dt=FLOAT32&sizes=100,100&np=x%5B10:90,%20::-2%5D&use=np"
	do(t, ctx, "embed a large slice", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.getElementById("slice").src = %q`, large)))
	copied := `(() => { const c = document.querySelector('#slice-in-canvas'); if (!c || document.querySelector('#picture').dataset.state !== 'done') return 0;
		const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data; let n = 0;
		for (let i = 0; i < d.length; i += 4) if (d[i] === 42 && d[i + 1] === 157 && d[i + 2] === 143) n++; return n; })()`
	// The frame's document is new: find it again until it has drawn.
	got := 0
	for deadline := time.Now().Add(30 * time.Second); got == 0 && time.Now().Before(deadline); {
		if frames, err = chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS("#slice"))); err != nil || len(frames) != 1 {
			t.Fatalf("the slice iframe: %v", err)
		}
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		got, _ = chromedp.Run(pctx, chromedp.Poll[int](copied, chromedp.WithPollingInFrame(frames[0]), chromedp.WithPollingInterval(25*time.Millisecond)))
		cancel()
	}
	if got != 4000 {
		t.Errorf("the embedded input canvas shows %d copied elements, want 4000", got)
	}

	// The explorer page itself refuses to be framed: Chromium shows its
	// error page in that frame.
	res, err := chromedp.Call(ctx, page.GetFrameTree, cdp.Empty{})
	if err != nil {
		t.Fatal(err)
	}
	tree := res.FrameTree
	var refused, embedded bool
	for _, c := range tree.ChildFrames {
		switch c.Frame.Name {
		case "page":
			refused = strings.HasPrefix(c.Frame.URL, "chrome-error://") || c.Frame.UnreachableURL != ""
		case "embed":
			embedded = strings.HasPrefix(c.Frame.URL, base+"/embed/layout")
		}
	}
	if !refused || !embedded {
		t.Errorf("frames %+v: the explorer must be refused (%v), the embed shown (%v)", tree.ChildFrames, refused, embedded)
	}
}

// TestE2ESVGPicture checks the picture as a browser and as an XML parser
// see it.
func TestE2ESVGPicture(t *testing.T) {
	base := startServer(t)
	res, err := http.Get(base + "/api/v1/layout.svg?preset=DHW")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var doc struct {
		XMLName xml.Name `xml:"http://www.w3.org/2000/svg svg"`
		Groups  []struct {
			Class string `xml:"class,attr"`
		} `xml:"g"`
	}
	if err := xml.Unmarshal(body, &doc); err != nil {
		t.Fatalf("not SVG: %v", err)
	}
	count := map[string]int{}
	for _, g := range doc.Groups {
		count[strings.SplitN(g.Class, " ", 2)[0]]++
	}
	if count["lcell"] != 12 || count["bcell"] != 12 {
		t.Errorf("cells %v, want 12 logical and 12 buffer", count)
	}

	ctx := newBrowser(t, false)
	do(t, ctx, "open the picture", chromedp.Navigate(base+"/api/v1/layout.svg?preset=DHW"))
	if got := eval[string](t, ctx, `document.documentElement.namespaceURI + ' ' + document.querySelectorAll('g.lcell').length + ' ' + document.querySelectorAll('g.bcell').length`); got != "http://www.w3.org/2000/svg 12 12" {
		t.Errorf("the browser reads %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('g.lcell.sel text').textContent`); got != "H" {
		t.Errorf("selected element %q, want H", got)
	}
	shot(t, ctx, "embed-svg-layout")
	do(t, ctx, "open the slice picture", chromedp.Navigate(base+"/api/v1/slice1.svg?preset=example2"))
	if got := eval[string](t, ctx, `[...document.querySelectorAll('g.ocell')].map(g => g.querySelector('text').textContent).join(' ')`); got != "14 16 6 8" {
		t.Errorf("slice output %q", got)
	}
	shot(t, ctx, "embed-svg-slice")
}

// TestE2EShareButtons: Download SVG and Embed follow the live state.
func TestE2EShareButtons(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/")
	do(t, ctx, "click the padded preset", chromedp.Click(chromedp.CSS(`[data-testid=preset-padded]`)))
	waitFor(t, ctx, "the padded picture", `document.querySelector('#picture').dataset.state === 'done' && location.search.includes('strides=5,1')`)
	// The example shown is the one chip marked current; an edit away
	// from it leaves none marked.
	const current = `[...document.querySelectorAll('a.preset[aria-current=true]')].map(a => a.dataset.preset).join(',')`
	if got := eval[string](t, ctx, current); got != "padded" {
		t.Errorf("current examples %q, want padded", got)
	}
	// The chips follow the data type, as the server writes them: padded
	// in FLOAT16 is still the padded example, and its link keeps FLOAT16.
	do(t, ctx, "choose FLOAT16", chromedp.SetValue(chromedp.CSS(`#f-dt`), "FLOAT16"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#f-dt').dispatchEvent(new Event('change', {bubbles: true}))`))
	waitFor(t, ctx, "the FLOAT16 picture", `document.querySelector('#picture').dataset.state === 'done' && location.search.includes('dt=FLOAT16')`)
	if got := eval[string](t, ctx, current+` + ' ' + document.querySelector('[data-testid=preset-padded]').getAttribute('href')`); got != "padded /?dt=FLOAT16&sizes=2,3&strides=5,1&total=40" {
		t.Errorf("after choosing FLOAT16: current example and its link %q", got)
	}
	do(t, ctx, "choose FLOAT32", chromedp.SetValue(chromedp.CSS(`#f-dt`), "FLOAT32"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('#f-dt').dispatchEvent(new Event('change', {bubbles: true}))`))
	waitFor(t, ctx, "the FLOAT32 picture", `document.querySelector('#picture').dataset.state === 'done' && location.search.includes('dt=FLOAT32')`)
	hover(t, ctx, `[data-testid=download-svg]`)
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=download-svg]').getAttribute('href')`); got != "/api/v1/layout.svg?dt=FLOAT32&sizes=2,3&strides=5,1&total=40" {
		t.Errorf("SVG link %q", got)
	}
	eval[bool](t, ctx, `(window.svgAnswer = '', fetch(document.querySelector('[data-testid=download-svg]').href).then(r => { window.svgAnswer = r.status + ' ' + r.headers.get('content-type'); }), true)`)
	waitFor(t, ctx, "the SVG link's answer", `window.svgAnswer !== ''`)
	if got := eval[string](t, ctx, `window.svgAnswer`); got != "200 image/svg+xml; charset=utf-8" {
		t.Errorf("the SVG link answers %q", got)
	}
	do(t, ctx, "open Embed", chromedp.Click(chromedp.CSS(`[data-testid=embed-button]`)))
	waitFor(t, ctx, "the snippet", `document.querySelector('[data-testid=embed-snippet]').value.includes('strides=5,1')`)
	// Pasted into a page written in English, the embed stays English.
	want := `<iframe src="` + base + `/embed/layout?dt=FLOAT32&amp;sizes=2,3&amp;strides=5,1&amp;total=40&amp;lang=en" title="stridescope: DirectML tensor layout" width="100%" height="800" style="border:0" loading="lazy" allow="clipboard-write"></iframe>` + "\n" + views.FitScript(base)
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=embed-snippet]').value`); got != want {
		t.Errorf("snippet\n%s\nwant\n%s", got, want)
	}
	if eval[bool](t, ctx, `document.querySelector('[data-testid=embed-copy]').hidden`) {
		t.Error("no Copy button with JavaScript")
	}
	shot(t, ctx, "embed-button")
	// The picture snippet's alt says what the picture shows, after edits
	// too, and in the page's language (an apostrophe escaped as the
	// server escapes it).
	for _, tc := range []struct{ page, alt string }{
		{"/", `alt="DirectML tensor layout: FLOAT32, sizes {2,3}, strides {5,1}, TotalTensorSizeInBytes 40"`},
		{"/?lang=fr", "alt=\"Disposition d&#39;un tenseur DirectML\u00a0: FLOAT32, tailles {2,3}, pas {5,1}, TotalTensorSizeInBytes 40\""},
	} {
		waitLive(t, ctx, base+tc.page)
		do(t, ctx, "click the padded preset", chromedp.Click(chromedp.CSS(`[data-testid=preset-padded]`)))
		waitFor(t, ctx, "the padded picture", `document.querySelector('#picture').dataset.state === 'done' && location.search.includes('strides=5,1')`)
		do(t, ctx, "open Embed", chromedp.Click(chromedp.CSS(`[data-testid=embed-button]`)))
		if got := eval[string](t, ctx, `document.querySelector('[data-testid=embed-picture-snippet]').value`); !strings.Contains(got, tc.alt) {
			t.Errorf("%s: picture snippet %s, want %s", tc.page, got, tc.alt)
		}
	}

	// A page opened by an example's name shares the example's numbers,
	// not its name (an example may change; a published embed should not).
	waitLive(t, ctx, base+"/slice?preset=example2&lang=fr")
	do(t, ctx, "open Embed", chromedp.Click(chromedp.CSS(`[data-testid=embed-button]`)))
	waitFor(t, ctx, "the snippet", `document.querySelector('[data-testid=embed-snippet]').value.includes('/embed/slice?')`)
	snippet := eval[string](t, ctx, `document.querySelector('[data-testid=embed-snippet]').value`)
	if strings.Contains(snippet, "preset=") || !strings.Contains(snippet, "wstride=1,1,-2,2") || !strings.Contains(snippet, "lang=fr") || strings.Count(snippet, "lang=") != 1 {
		t.Errorf("the snippet of /slice?preset=example2&lang=fr: %s", snippet)
	}
	do(t, ctx, "focus the download", chromedp.Focus(chromedp.CSS(`[data-testid=dx-download]`)))
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=dx-download]').getAttribute('href')`); strings.Contains(got, "preset=") || !strings.Contains(got, "wstride=1,1,-2,2") {
		t.Errorf("the DxDispatch link of /slice?preset=example2: %s", got)
	}

	// Every state has a picture: past 4,096 cells (where the bar used to
	// say there was none) it offers it as it does for 2x3, binned.
	const svgShown = `JSON.stringify(['download-svg', 'embed-picture-part', 'no-svg'].map(id => { const el = document.querySelector('[data-testid=' + id + ']'); return el.hidden ? '' : id; }))`
	waitLive(t, ctx, base+"/?sizes=2,3&lang=fr")
	for _, size := range []string{"2000", "2"} {
		typeInto(t, ctx, "type a size", "#f-size-0", size)
		waitFor(t, ctx, "the picture of size "+size, fmt.Sprintf(`document.querySelector('#picture').dataset.state === 'done' && location.search.includes('sizes=%s,3')`, size))
		if got := eval[string](t, ctx, current); got != "" {
			t.Errorf("size %s: current examples %q, want none", size, got)
		}
		if got, want := eval[string](t, ctx, svgShown), `["download-svg","embed-picture-part",""]`; got != want {
			t.Errorf("size %s: shown %s, want %s", size, got, want)
		}
	}
}

// TestE2EEscapeClosesTheEmbedPopover: with the keyboard, Enter on Embed
// opens its popover, which covers part of the picture, and Escape closes
// it, from its button and from its snippet, the focus back on the button;
// with the focus elsewhere on the page (a picture's cell) Escape closes it
// too and leaves the focus there; a click outside closes it, one inside
// does not. On both explorers and a tour step, at 1400x1000.
func TestE2EEscapeClosesTheEmbedPopover(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	emulate(t, ctx, desktop)
	const (
		open    = `document.querySelector('[data-testid=embed]').open`
		closed  = `!document.querySelector('[data-testid=embed]').open`
		focused = `document.activeElement?.dataset.testid`
	)
	for _, path := range []string{"/?sizes=2,3", "/slice?preset=example2", "/tour/6"} {
		t.Run(path, func(t *testing.T) {
			waitLive(t, ctx, base+path)
			enter := func(what string) {
				t.Helper()
				do(t, ctx, "focus Embed", chromedp.Focus(chromedp.CSS(`[data-testid=embed-button]`)))
				do(t, ctx, "Enter on Embed", chromedp.KeyEvent("\r"))
				waitFor(t, ctx, "the popover open "+what, open)
			}
			escape := func(what, want string) {
				t.Helper()
				do(t, ctx, "Escape "+what, chromedp.KeyEvent(kb.Escape))
				waitFor(t, ctx, "the popover closed by Escape "+what, closed)
				if got := eval[string](t, ctx, focused+` ?? document.activeElement?.id ?? ''`); got != want {
					t.Errorf("after Escape %s the focus is on %q, want %q", what, got, want)
				}
			}

			enter("from its button")
			escape("on the button", "embed-button")

			enter("to tab into")
			do(t, ctx, "Tab into the popover", chromedp.KeyEvent("\t"))
			if got := eval[string](t, ctx, focused); got != "embed-snippet" {
				t.Fatalf("Tab from Embed reached %q, not the snippet", got)
			}
			escape("in the snippet", "embed-button")

			enter("to leave")
			cell := eval[string](t, ctx, `document.querySelector('#picture [role=gridcell][tabindex="0"]').id`)
			do(t, ctx, "focus the picture", chromedp.Focus(chromedp.CSS("#"+cell)))
			do(t, ctx, "Escape on the picture", chromedp.KeyEvent(kb.Escape))
			waitFor(t, ctx, "the popover closed by Escape on the picture", closed)
			if got := eval[string](t, ctx, `document.activeElement.id`); got != cell {
				t.Errorf("after Escape on the picture the focus is on %q, want %q", got, cell)
			}

			// A click elsewhere closes it as well; one inside does not.
			enter("to click around")
			do(t, ctx, "click inside the popover", chromedp.Click(chromedp.CSS(`[data-testid=embed-snippet]`)))
			if !eval[bool](t, ctx, open) {
				t.Errorf("a click in the popover's snippet closed it")
			}
			do(t, ctx, "click the page's heading", chromedp.Click(chromedp.CSS(`h1`)))
			waitFor(t, ctx, "the popover closed by a click outside", closed)
		})
	}
}

// TestE2EEmbedFitsItsSnippet: an embed keeps to its picture. At a
// documentation column's width the picture of the examples fits the
// height its snippet gives the frame; it comes before the form in the page
// (so a narrow frame shows it first and the keyboard reaches it first),
// and the facts fold away under it.
func TestE2EEmbedFitsItsSnippet(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	for _, tc := range []struct {
		path   string
		height int64 // the snippet's
	}{
		{"/embed/layout?preset=DHW", 800},
		{"/embed/slice?preset=example2", 1120},
	} {
		for _, width := range []int64{600, 900} {
			do(t, ctx, "a frame", chromedp.EmulateViewport(width, tc.height))
			waitLive(t, ctx, base+tc.path)
			if got := eval[string](t, ctx, `document.querySelector('iframe') ? '' : (() => { const s = document.querySelector('textarea[data-kind=embed]'); return s ? s.value : ''; })()`); got != "" {
				t.Fatalf("%s: an embed offers an embed snippet: %q", tc.path, got)
			}
			g := eval[[]float64](t, ctx, `[document.querySelector('.stage').getBoundingClientRect().bottom, document.querySelector('#controls').getBoundingClientRect().top,
				document.querySelector('#picture').compareDocumentPosition(document.querySelector('#controls')) & Node.DOCUMENT_POSITION_FOLLOWING ? 1 : 0,
				document.querySelector('[data-testid=embed-more]').open ? 1 : 0]`)
			if g[0] > float64(tc.height) {
				t.Errorf("%s at %d px: the picture ends at %g px, below the snippet's %d", tc.path, width, g[0], tc.height)
			}
			if g[1] < g[0] {
				t.Errorf("%s at %d px: the form (at %g px) is above the picture's end (%g px)", tc.path, width, g[1], g[0])
			}
			if g[2] != 1 || g[3] != 0 {
				t.Errorf("%s: picture before the form in the page %v, the facts folded %v", tc.path, g[2] == 1, g[3] == 0)
			}
		}
	}
	// The snippet the full page gives has those heights.
	waitLive(t, ctx, base+"/slice?preset=example2")
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=embed-snippet]').value`); !strings.Contains(got, `height="1120"`) {
		t.Errorf("slice snippet %q", got)
	}
}

// fittingHost is a documentation page on another site that sizes its
// frame to the embed with the listener docs/api.md gives (the embed's
// origin filled in), and keeps the heights it was told.
const fittingHost = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Docs</title></head>
<body style="margin:16px">
<iframe id="embed" src="%s" width="900" height="300" title="stridescope" style="border:0"></iframe>
<script>
window.heights = [];
addEventListener('message', (e) => {
  if (e.origin !== %q || e.data?.type !== 'stridescope:height') return;
  for (const f of document.querySelectorAll('iframe')) {
    if (f.contentWindow === e.source) f.style.height = e.data.height + 'px';
  }
  window.heights.push(e.data.height);
  window.keys = Object.keys(e.data).sort().join(',');
});
</script>
</body></html>`

// TestE2EEmbedToldItsHeight: an embed tells the page that frames it how
// tall it is, and tells it again as it grows and shrinks; a page with
// docs/api.md's listener then frames it whole, with nothing to scroll.
func TestE2EEmbedToldItsHeight(t *testing.T) {
	base := startServer(t)
	// The frame runs in the tab's process, so that the test can read its
	// document (as TestE2EEmbedInAnIframeOnAnotherOrigin).
	ctx := newBrowser(t, false, chromedp.Flag("disable-site-isolation-trials", true), chromedp.Flag("disable-features", "IsolateOrigins,site-per-process"))
	var src string
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, fittingHost, src, base)
	}))
	defer host.Close()
	// fits: the last height told is the frame's, and the embed's
	// document, as tall as the frame, has nothing to scroll.
	frame := func() *chromedp.Node {
		t.Helper()
		frames, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS("#embed")))
		if err != nil || len(frames) != 1 {
			t.Fatalf("the iframe: %v", err)
		}
		return frames[0]
	}
	fits := func(what string) float64 {
		t.Helper()
		// The embed tells its height more than once as it loads (its
		// script reveals the Copy buttons, the live note): wait for the
		// frame to settle on the embed's last word.
		var h, inner float64
		for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			waitFor(t, ctx, what, `window.heights && window.heights.length > 0 && Math.abs(document.querySelector('#embed').getBoundingClientRect().height - window.heights.at(-1)) < 1`)
			h = eval[float64](t, ctx, `window.heights.at(-1)`)
			inner = inFrame[float64](t, ctx, frame(), "the embed's scroll height", `document.documentElement.scrollHeight`)
			if inner <= h+1 && eval[float64](t, ctx, `window.heights.at(-1)`) == h || time.Now().After(deadline) {
				break
			}
		}
		if inner > h+1 {
			t.Errorf("%s: the embed is %g px tall in a frame of %g px", what, inner, h)
		}
		if keys := eval[string](t, ctx, `window.keys`); keys != "height,type" {
			t.Errorf("%s: the message carries %s, want height and type only", what, keys)
		}
		return h
	}
	hostURL := strings.Replace(host.URL, "127.0.0.1", "localhost", 1) // another origin
	src = base + "/embed/layout?sizes=2,3&lang=en"
	do(t, ctx, "open the host page", chromedp.Navigate(hostURL))
	small := fits("the 2x3 embed told")
	if small <= 300 {
		t.Fatalf("the 2x3 embed is %g px tall, no taller than the snippet's 300: the case tests nothing", small)
	}
	src = base + "/embed/layout?sizes=2,3,4,5&lang=en"
	do(t, ctx, "open the host page", chromedp.Navigate(hostURL))
	big := fits("the 2x3x4x5 embed told")
	if big <= small {
		t.Errorf("the 2x3x4x5 embed told %g px, the 2x3 one %g px", big, small)
	}
	// An edit in the frame (its facts unfolded) grows it; folded again, it
	// shrinks back.
	for _, open := range []bool{true, false} {
		n := eval[float64](t, ctx, `window.heights.length`)
		inFrame[bool](t, ctx, frame(), "fold the facts", fmt.Sprintf(`(document.querySelector('[data-testid=embed-more]').open = %v, true)`, open))
		waitFor(t, ctx, "a new height", fmt.Sprintf(`window.heights.length > %g`, n))
		h := fits(fmt.Sprintf("the facts open %v", open))
		if open && h <= big || !open && h != big {
			t.Errorf("with the facts open %v the embed told %g px, %g px before", open, h, big)
		}
	}
}

// TestE2EEmbedFollowsItsFramesColourScheme: an embed is light or dark as
// its reader's system asks, unless the page that frames it says which:
// the Embed popover's Colours choice writes the iframe's color-scheme
// into the snippet (for a documentation site with its own theme switch),
// and the embed, on another site and so in another process, follows it.
// The snippets are taken from the popover, pasted into a page on another
// site, and the frames' colours read off the screen.
func TestE2EEmbedFollowsItsFramesColourScheme(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/?sizes=2,3")
	// The choice needs the module (it rewrites the snippet): shown by it.
	if eval[bool](t, ctx, `document.querySelector('[data-testid=embed-scheme-field]').hidden`) {
		t.Error("the Colours choice is hidden on a live page")
	}
	do(t, ctx, "open Embed", chromedp.Click(chromedp.CSS(`[data-testid=embed-button]`)))
	// The popover with its Colours choice, light and dark.
	for _, scheme := range []string{"light", "dark"} {
		setMedia(t, ctx, scheme, "no-preference")
		if vs := axeViolations(t, ctx); len(vs) > 0 {
			t.Errorf("axe, the Embed popover open, %s:\n%s", scheme, strings.Join(vs, "\n"))
		}
	}
	setMedia(t, ctx, "light", "no-preference")
	snippets := map[string]string{}
	for _, scheme := range []string{"", "light", "dark"} {
		do(t, ctx, "choose the colours "+scheme, chromedp.SetValue(chromedp.CSS(`[data-testid=embed-scheme]`), scheme))
		eval[bool](t, ctx, `document.querySelector('[data-testid=embed-scheme]').dispatchEvent(new Event('change')), true`)
		snippets[scheme] = eval[string](t, ctx, `document.querySelector('[data-testid=embed-snippet]').value`)
	}
	if want := `style="border:0"`; !strings.Contains(snippets[""], want) || strings.Contains(snippets[""], "color-scheme") {
		t.Errorf("the snippet that follows the reader's system: %s\nwant %s and no color-scheme", snippets[""], want)
	}
	for _, scheme := range []string{"light", "dark"} {
		if want := `style="border:0;color-scheme:` + scheme + `"`; !strings.Contains(snippets[scheme], want) {
			t.Errorf("the %s snippet: %s\nwant %s", scheme, snippets[scheme], want)
		}
	}
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Docs</title></head><body style="margin:0">`)
		for _, scheme := range []string{"", "light", "dark"} {
			// Side by side, each with an id to find it by.
			fmt.Fprintf(w, `<div id="f-%s" style="display:inline-block;width:300px;height:200px;overflow:hidden">%s</div>`, scheme, snippets[scheme])
		}
		fmt.Fprint(w, `</body></html>`)
	}))
	defer host.Close()
	// Another site (localhost, not 127.0.0.1): the frames are out of
	// the host's process, as on the web.
	hostURL := strings.Replace(host.URL, "127.0.0.1", "localhost", 1)
	const light, dark = "244,246,248", "15,23,34" // --bg
	for _, tc := range []struct {
		system string
		want   map[string]string
	}{
		{"light", map[string]string{"": light, "light": light, "dark": dark}},
		{"dark", map[string]string{"": dark, "light": light, "dark": dark}},
	} {
		t.Run("a "+tc.system+" system", func(t *testing.T) {
			var extra []chromedp.ExecAllocatorOption
			if tc.system == "dark" {
				extra = append(extra, chromedp.Flag("force-dark-mode", true))
			}
			ctx := newBrowser(t, false, extra...)
			do(t, ctx, "open the documentation page", chromedp.Navigate(hostURL))
			waitFor(t, ctx, "the frames loaded", `document.readyState === 'complete'`)
			for scheme, want := range tc.want {
				got := ""
				// A frame paints its page a moment after its load.
				for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
					if got = framePixel(t, ctx, "f-"+scheme); got == want {
						break
					}
				}
				if got != want {
					t.Errorf("the frame of the snippet for %q is painted rgb(%s), want rgb(%s)", scheme, got, want)
				}
			}
		})
	}
}

// framePixel is the colour on the screen 4 CSS px inside the top left
// corner of the element #id, as "r,g,b".
func framePixel(t *testing.T, ctx context.Context, id string) string {
	t.Helper()
	xy := eval[[]float64](t, ctx, fmt.Sprintf(`(() => { const r = document.getElementById(%q).getBoundingClientRect(); return [r.left + 4, r.top + 4]; })()`, id))
	tctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	buf, err := chromedp.Run(tctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(buf))
	if err != nil {
		t.Fatal(err)
	}
	r, g, b, _ := img.At(int(xy[0]), int(xy[1])).RGBA()
	return fmt.Sprintf("%d,%d,%d", r>>8, g>>8, b>>8)
}

// TestE2EEmbedFitsAPhone: the Embed snippet, pasted as it is into a
// documentation page read on a 390 px phone, frames the 2x3 example
// whole: the frame is the column's width, its script sizes it to the
// height the embed tells (static/embed.js), and the embed, its form
// stacked under the picture, has nothing to scroll inside the frame,
// down or across. The picture snippet's image fits the column too.
func TestE2EEmbedFitsAPhone(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false, chromedp.Flag("disable-site-isolation-trials", true), chromedp.Flag("disable-features", "IsolateOrigins,site-per-process"))
	emulate(t, ctx, phone)
	waitLive(t, ctx, base+"/?sizes=2,3")
	do(t, ctx, "open Embed", chromedp.Click(chromedp.CSS(`[data-testid=embed-button]`)))
	snippet := eval[string](t, ctx, `document.querySelector('[data-testid=embed-snippet]').value`)
	picture := eval[string](t, ctx, `document.querySelector('[data-testid=embed-picture-snippet]').value`)
	if !strings.Contains(snippet, `width="100%"`) || !strings.Contains(snippet, "<script>") {
		t.Fatalf("the snippet %s: want a frame 100%% wide and its script", snippet)
	}
	host := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Docs</title></head>
<body style="margin:16px;font-family:sans-serif"><h1>Strides</h1><p>The 2x3 example:</p>%s<p>As a picture:</p>%s<p>The end.</p></body></html>`, snippet, picture)
	}))
	defer host.Close()
	do(t, ctx, "open the documentation page", chromedp.Navigate(strings.Replace(host.URL, "127.0.0.1", "localhost", 1)))
	// The frame's document comes a moment after the page's: find it
	// again until the embed has drawn.
	var frames []*chromedp.Node
	for deadline, drawn := time.Now().Add(30*time.Second), false; !drawn; {
		var err error
		if frames, err = chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS("iframe"))); err != nil || len(frames) != 1 {
			t.Fatalf("the iframe: %v", err)
		}
		pctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		drawn, _ = chromedp.Run(pctx, chromedp.Poll[bool](`document.body.dataset.live === 'ready' && document.querySelector('#picture').dataset.state === 'done'`, chromedp.WithPollingInFrame(frames[0]), chromedp.WithPollingInterval(25*time.Millisecond)))
		cancel()
		if !drawn && time.Now().After(deadline) {
			t.Fatal("the embed was not drawn in 30 s")
		}
	}
	// The frame settles on the embed's height: nothing to scroll inside.
	var g []float64
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		frame := eval[[]float64](t, ctx, `(() => { const r = document.querySelector('iframe').getBoundingClientRect(); return [r.width, r.height, document.documentElement.clientWidth]; })()`)
		inner := inFrame[[]float64](t, ctx, frames[0], "the embed's size", `[document.documentElement.scrollWidth, document.documentElement.scrollHeight, document.documentElement.clientWidth, document.documentElement.clientHeight]`)
		g = append(frame, inner...)
		if g[4] <= g[6]+1 && g[3] <= g[5]+1 && g[1] > 800 {
			break
		}
	}
	t.Logf("frame %g x %g px on a %g px page; the embed %g x %g px in %g x %g", g[0], g[1], g[2], g[3], g[4], g[5], g[6])
	if g[0] != g[2]-32 {
		t.Errorf("the frame is %g px wide on a page of %g px with 16 px margins", g[0], g[2])
	}
	if g[4] > g[6]+1 || g[3] > g[5]+1 {
		t.Errorf("the embed is %g x %g px in a frame of %g x %g: it scrolls inside", g[3], g[4], g[5], g[6])
	}
	if g[1] <= 800 {
		t.Errorf("the frame stayed %g px tall: the snippet's script did not size it", g[1])
	}
	waitFor(t, ctx, "the picture", `document.querySelector('img').complete && document.querySelector('img').naturalWidth > 0`)
	if w := eval[float64](t, ctx, `document.querySelector('img').getBoundingClientRect().width`); w > g[2]-32 {
		t.Errorf("the picture is %g px wide on a page of %g px", w, g[2])
	}
	shot(t, ctx, "embed-phone")
}
