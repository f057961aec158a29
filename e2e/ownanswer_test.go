package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strconv"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// editsProbe counts the edits a page sends on its websockets.
// At #early it also types a stride once the page is parsed, before its
// modules run (they run after readyState becomes interactive).
const editsProbe = `window.__edits = 0;
const send = WebSocket.prototype.send;
WebSocket.prototype.send = function (d) {
  if (typeof d === 'string' && JSON.parse(d).type === 'edit') window.__edits++;
  return send.call(this, d);
};
document.addEventListener('readystatechange', () => {
  if (document.readyState === 'interactive' && location.hash === '#early') document.querySelector('#f-stride-0').value = '5';
});`

// TestE2EOwnAnswerLinksBeforeTheSocket: a picture the server drew whole
// comes with the socket's answer to its state, so the page links its
// cells without a websocket at all (here every /ws is refused), and once
// the socket is there it asks for nothing it already shows. A canvas
// picture still waits for its answer and frames.
func TestE2EOwnAnswerLinksBeforeTheSocket(t *testing.T) {
	base := startServer(t)
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	noSocket := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/ws" {
			http.Error(w, "no websocket here", http.StatusServiceUnavailable)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(noSocket.Close)

	ctx := newBrowser(t, false)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: editsProbe}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, path, cell, dot string
	}{
		{"layout, a buffer cell", "/?dt=FLOAT32&sizes=2,3&strides=4,1", "#b-5", "buffer offset 5 holds element (1,1)"},
		{"tour step", "/tour/4", "#l-0", "= 0"},
		{"slice, an input cell", "/slice?dt=FLOAT32&sizes=4,4&woff=0,1&wsize=4,3&wstride=2,2", "#in-1", "input (0,1) = 2"},
		{"layout, an element, French", "/?dt=FLOAT32&sizes=2,3&strides=4,1&lang=fr", "#l-4", "{1,1} · {4,1} = 1×4 + 1×1 = 5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			do(t, ctx, "navigate", chromedp.Navigate(noSocket.URL+tc.path))
			waitFor(t, ctx, "the picture linked without a socket", `document.querySelector('#picture').dataset.state === 'done'`)
			if live := eval[string](t, ctx, `document.body.dataset.live`); live == "ready" {
				t.Fatalf("the page is live (%q) through a proxy that refuses every websocket", live)
			}
			hoverInView(t, ctx, tc.cell)
			waitFor(t, ctx, "the hovered cell named", `document.querySelector('#dot').textContent.includes(`+strconv.Quote(tc.dot)+`)`)

			// With the socket: nothing asked for what the page shows.
			waitLive(t, ctx, base+tc.path)
			hoverInView(t, ctx, tc.cell)
			waitFor(t, ctx, "the hovered cell named", `document.querySelector('#dot').textContent.includes(`+strconv.Quote(tc.dot)+`)`)
			if n := eval[int](t, ctx, `window.__edits`); n != 0 {
				t.Errorf("the page sent %d edits for the state the server drew, want 0", n)
			}
		})
	}

	// A canvas has no answer in the page: without a socket it is not drawn,
	// with one the page asks for it once.
	do(t, ctx, "navigate", chromedp.Navigate(noSocket.URL+"/?dt=FLOAT32&sizes=64,64"))
	waitFor(t, ctx, "the page's modules", `document.body.dataset.live === 'connecting' || document.body.dataset.live === 'offline'`)
	if eval[bool](t, ctx, `!!document.getElementById('answer') || document.querySelector('#picture').dataset.state === 'done'`) {
		t.Error("a canvas picture carries an answer, or is done, without its socket")
	}
	waitLive(t, ctx, base+"/?dt=FLOAT32&sizes=64,64")
	if n := eval[int](t, ctx, `window.__edits`); n != 1 {
		t.Errorf("a canvas page sent %d edits, want 1 (its state)", n)
	}

	// Typed before the modules ran: the form no longer holds the drawn
	// state, so the page does not take the answer it carries; it asks the
	// socket for what the form holds, as an edit: into the address bar,
	// with the drawn state one step back.
	waitLive(t, ctx, base+"/?dt=FLOAT32&sizes=2,3&strides=4,1#early")
	waitFor(t, ctx, "the typed stride drawn, in the address bar", `document.querySelectorAll('#buffer .bc.hole').length === 2 && new URLSearchParams(location.search).get('strides') === '5,1'`)
	if n := eval[int](t, ctx, `window.__edits`); n != 1 {
		t.Errorf("a page typed into before its modules ran sent %d edits, want 1", n)
	}
	do(t, ctx, "Back", chromedp.NavigateBack())
	waitFor(t, ctx, "Back to the drawn state", `new URLSearchParams(location.search).get('strides') === '4,1' && document.querySelector('#picture').dataset.state === 'done' && document.querySelectorAll('#buffer .bc.hole').length === 1 && document.querySelector('#f-stride-0').value === '4'`)
}

// hoverInView scrolls sel to the middle of the viewport and hovers it.
func hoverInView(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	eval[bool](t, ctx, `(document.querySelector(`+strconv.Quote(sel)+`).scrollIntoView({block: 'center'}), true)`)
	hover(t, ctx, sel)
}
