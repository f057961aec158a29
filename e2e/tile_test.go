package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestE2ETileExample: the DML_TILE page's example draws; pointing at an
// output cell links the input cell it reads and the other copies, the
// keyboard's Enter jumps to it; on a phone and a desktop, in Traditional
// Chinese and English, nothing wider than the screen, axe-core clean.
func TestE2ETileExample(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	for _, vp := range []viewport{phone, desktop} {
		for _, lang := range []string{"zh-TW", "en"} {
			t.Run(vp.name+"/"+lang, func(t *testing.T) {
				emulate(t, ctx, vp)
				waitLive(t, ctx, base+"/tile?preset=tile-ex&lang="+lang)
				if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=outcell]').length`); n != 54 {
					t.Fatalf("%d output cells, want 54", n)
				}
				// Output (0,0,3,4) reads input (0,0,1,1), element 4; so do 8 others.
				hoverCell(t, ctx, "#out-31")
				waitFor(t, ctx, "input cell 4 linked", `document.querySelector('#in-4').classList.contains('linked')`)
				if n := eval[int](t, ctx, `document.querySelectorAll('.lc.linked[id^=out-]').length`); n != 8 {
					t.Errorf("%d other output cells linked, want 8", n)
				}
				do(t, ctx, "focus output cell 31", chromedp.Focus(chromedp.CSS("#out-31")))
				do(t, ctx, "Enter", chromedp.KeyEvent(kb.Enter))
				waitFor(t, ctx, "focus on input cell 4", `document.activeElement && document.activeElement.id === 'in-4'`)
				if n := eval[float64](t, ctx, overflow(vp.width)); n > 0 {
					t.Errorf("the page is %g px wider than the screen", n)
				}
				if vs := axeViolations(t, ctx); len(vs) > 0 {
					t.Errorf("axe-core: %v", vs)
				}
			})
		}
	}
}
