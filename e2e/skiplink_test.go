package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestE2ESkipToThePicture: from a page's first load the keyboard reaches
// the picture's grid in at most 10 Tabs (37 on / and 60 on /slice without
// a way past the header and the form): the second stop is a skip link to
// the picture, and the Tab after it lands in the grid (issue #37, point
// 6.2). On a desktop and on a phone, in English and French, with
// JavaScript and without.
func TestE2ESkipToThePicture(t *testing.T) {
	base := startServer(t)
	const inGrid = `(() => { const a = document.activeElement; return !!a && !!a.closest('#picture') && (a.matches('[role=gridcell], canvas') || !!a.closest('[role=grid]')); })()`
	const focused = `(() => { const a = document.activeElement; return a ? (a.dataset.testid || a.id || a.tagName.toLowerCase()) : ''; })()`
	for _, jsOff := range []bool{false, true} {
		ctx := newBrowser(t, jsOff)
		for _, vp := range []viewport{desktop, phone} {
			emulate(t, ctx, vp)
			for _, path := range []string{"/?preset=DHW", "/slice?preset=example2", "/?lang=fr&preset=NCHW", "/slice?lang=fr"} {
				if jsOff {
					do(t, ctx, "open "+path, chromedp.Navigate(base+path))
				} else {
					waitLive(t, ctx, base+path)
				}
				name := vp.name + " " + path
				if jsOff {
					name += " without JavaScript"
				}
				tabs, reached := 0, false
				for tabs < 10 && !reached {
					do(t, ctx, "Tab", chromedp.KeyEvent(kb.Tab))
					tabs++
					if eval[string](t, ctx, focused) == "skip-picture" {
						do(t, ctx, "Enter on the skip link", chromedp.KeyEvent(kb.Enter))
						continue
					}
					reached = eval[bool](t, ctx, inGrid)
				}
				if !reached {
					t.Errorf("%s: 10 Tabs reach %s, not the grid", name, eval[string](t, ctx, focused))
					continue
				}
				t.Logf("%s: the grid in %d Tabs", name, tabs)
				// The link shows when focused, and names the picture.
				do(t, ctx, "reload", chromedp.Navigate(base+path))
				do(t, ctx, "Tab", chromedp.KeyEvent(kb.Tab))
				do(t, ctx, "Tab", chromedp.KeyEvent(kb.Tab))
				r := eval[[]float64](t, ctx, `(() => { const a = document.activeElement, r = a.getBoundingClientRect(); return [a.dataset.testid === 'skip-picture' ? 1 : 0, r.top, r.bottom, innerHeight, r.width]; })()`)
				if r[0] != 1 || r[1] < 0 || r[2] > r[3] || r[4] < 24 {
					t.Errorf("%s: the second Tab stop is not the picture's skip link on screen: %v", name, r)
				}
			}
		}
	}
}
