package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// shownBelow is true once a live page has shown what it holds back from
// its first frame (views.AfterPaint) and loaded the modules it loads
// after it (client.js later: the share bar's, the peek): a page is
// settled only then.
const shownBelow = `!document.querySelector('.after-paint[hidden]') && document.body.dataset.later !== 'loading'`

// framesProbe records, in every animation frame from the document's
// start, whether the page's modules have run (they all run before
// DOMContentLoaded), whether the picture is linked (done) and how many of
// the parts below it (views.AfterPaint) are shown: what that frame paints.
const framesProbe = `window.__frames = []; window.__ran = false;
addEventListener('DOMContentLoaded', () => { window.__ran = true; });
(function frame() {
  requestAnimationFrame(() => {
    window.__frames.push({ ran: window.__ran, done: document.querySelector('#picture')?.dataset.state === 'done', shown: document.querySelectorAll('.after-paint:not([hidden])').length });
    if (window.__frames.length < 600) frame();
  });
})();`

// TestE2EBelowThePictureAfterTheFirstFrame (issue #38): the explorers'
// first frame styles and lays out the picture, not the facts, the
// per-dimension rules and the exports below it, which are shown in the
// frame after. Without JavaScript they are there from the start, and a
// link to a heading among them still scrolls to it on a phone.
func TestE2EBelowThePictureAfterTheFirstFrame(t *testing.T) {
	base := startServer(t)
	pages := []struct {
		path  string
		parts int      // views.AfterPaint wrappers on the page
		shown []string // what must have a box once shown
	}{
		{"/?sizes=2,3", 2, []string{"[data-testid=tools]", "section.facts"}},
		{"/slice?sizes=2,3", 2, []string{"[data-testid=tools]", "section.facts", "[data-testid=dimfacts]"}},
	}
	boxes := func(sels []string) string {
		js := "true"
		for _, s := range sels {
			js += fmt.Sprintf(` && !!document.querySelector(%q) && document.querySelector(%[1]q).getBoundingClientRect().height > 0`, s)
		}
		return js
	}

	t.Run("with JavaScript", func(t *testing.T) {
		ctx := newBrowser(t, false)
		if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: framesProbe}); err != nil {
			t.Fatal(err)
		}
		for _, p := range pages {
			waitLive(t, ctx, base+p.path)
			waitFor(t, ctx, p.path+": the parts below the picture shown", `!document.querySelector('.after-paint[hidden]') && `+boxes(p.shown))
			if n := eval[int](t, ctx, `document.querySelectorAll('.after-paint').length`); n != p.parts {
				t.Errorf("%s: %d parts after the first frame, want %d", p.path, n, p.parts)
			}
			// The first frame after the modules ran, which paints the picture
			// linked (the page carries its answer), held the parts below it
			// back; a later one shows them.
			if first := eval[int](t, ctx, `(window.__frames.find((f) => f.ran) || { shown: -1 }).shown`); first != 0 {
				t.Errorf("%s: the first frame after the modules ran showed %d of the %d parts below the picture; frames: %s", p.path, first, p.parts, eval[string](t, ctx, `JSON.stringify(window.__frames.slice(0, 8))`))
			}
			if !eval[bool](t, ctx, `!!window.__frames.find((f) => f.ran)?.done`) {
				t.Errorf("%s: the picture was not linked in the first frame after the modules ran; frames: %s", p.path, eval[string](t, ctx, `JSON.stringify(window.__frames.slice(0, 8))`))
			}
		}
	})

	t.Run("without JavaScript", func(t *testing.T) {
		ctx := newBrowser(t, true)
		for _, p := range pages {
			do(t, ctx, "navigate "+p.path, chromedp.Navigate(base+p.path))
			waitFor(t, ctx, p.path+": loaded", `document.readyState === 'complete'`)
			if eval[string](t, ctx, `document.body.dataset.live ?? ''`) != "" {
				t.Fatalf("%s: the page's script ran", p.path)
			}
			if !eval[bool](t, ctx, boxes(p.shown)) {
				t.Errorf("%s: without JavaScript the parts below the picture are not shown", p.path)
			}
		}
	})

	t.Run("a link to a heading below the picture, on a phone", func(t *testing.T) {
		ctx := newBrowser(t, false)
		do(t, ctx, "a 390 px phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch))
		for _, p := range []struct{ path, id string }{{"/?sizes=2,3#facts-h", "facts-h"}, {"/slice?sizes=2,3#tools-h", "tools-h"}} {
			waitLive(t, ctx, base+p.path)
			waitFor(t, ctx, p.path+": scrolled to #"+p.id, fmt.Sprintf(`(() => { const r = document.getElementById(%q).getBoundingClientRect(); return scrollY > 0 && r.top >= 0 && r.bottom <= innerHeight; })()`, p.id))
		}
	})
}
