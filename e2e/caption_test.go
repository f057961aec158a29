package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestE2ECaptionDoesNotMoveTheCanvases: on the data-movement pages the
// caption under the pointer sits above views; over canvases it keeps two
// lines' room, so that the caption of an element (longer than the hint)
// does not move the canvases under the pointer, which would then point at
// another element. Over cells it keeps one line's, as before.
func TestE2ECaptionDoesNotMoveTheCanvases(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	emulate(t, ctx, desktop)
	// top is a canvas's top in the document, lines the caption's lines.
	const top = `((id) => document.getElementById(id).getBoundingClientRect().top + scrollY)`
	const lines = `(() => { const d = document.querySelector('#dot'), cs = getComputedStyle(d); return Math.round((d.clientHeight - parseFloat(cs.paddingTop) - parseFloat(cs.paddingBottom)) / parseFloat(cs.lineHeight)); })()`
	for _, tc := range []struct {
		name, url, small, focus, below string
	}{
		{"depthspace", "/depthspace?op=d2s&dt=FLOAT32&sizes=1,16,16,16&imode=packed&block=2", "/depthspace?op=d2s&dt=FLOAT32&sizes=1,8,2,2&imode=packed&block=2", "ds-dcr-canvas", "ds-crd-canvas"},
		{"convert", "/convert?dt=FLOAT32&sizes=64,64&imode=packed&omode=explicit&ostrides=1,64", "/convert?preset=nhwc-nchw", "convert-lg-canvas", "convert-ob-canvas"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			waitLive(t, ctx, base+tc.small)
			if eval[bool](t, ctx, `document.querySelector('#dot').classList.contains('dot-canvas')`) {
				t.Errorf("%s: the caption over cells keeps two lines' room", tc.small)
			}
			waitLive(t, ctx, base+tc.url)
			before := eval[float64](t, ctx, top+`('`+tc.below+`')`)
			do(t, ctx, "focus "+tc.focus, chromedp.Focus(chromedp.CSS("#"+tc.focus)))
			do(t, ctx, "right", chromedp.KeyEvent(kb.ArrowRight))
			waitFor(t, ctx, "an element's caption", `!document.querySelector('#dot .hint') && document.querySelector('#dot').textContent.length > 20`)
			if n := eval[int](t, ctx, lines); n > 2 {
				t.Logf("the caption takes %d lines here: %q", n, eval[string](t, ctx, `document.querySelector('#dot').textContent`))
			}
			if after := eval[float64](t, ctx, top+`('`+tc.below+`')`); after != before {
				t.Errorf("the caption %q moved %s from %g to %g px", eval[string](t, ctx, `document.querySelector('#dot').textContent`), tc.below, before, after)
			}
		})
	}
}
