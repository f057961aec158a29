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
				// By the keyboard (the padding's test points with the mouse),
				// after a click that gives the headless tab the focus.
				do(t, ctx, "click the heading", chromedp.Click(chromedp.CSS("#tout-h")))
				do(t, ctx, "focus output cell 31", chromedp.Focus(chromedp.CSS("#out-31")))
				waitFor(t, ctx, "input cell 4 linked", `document.querySelector('#in-4').classList.contains('linked')`)
				if n := eval[int](t, ctx, `document.querySelectorAll('.lc.linked[id^=out-]').length`); n != 8 {
					t.Errorf("%d other output cells linked, want 8", n)
				}
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

// TestE2ETileCanvases: past 256 cells a grid a tiling is drawn on two
// canvases; output (0,65) reads input (0,5); Enter goes there.
func TestE2ETileCanvases(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	emulate(t, ctx, desktop)
	const dot = `document.querySelector('#dot').textContent`
	waitLive(t, ctx, base+"/tile?dt=FLOAT32&sizes=20,30&repeats=2,3")
	waitFor(t, ctx, "two canvases", `!!document.querySelector('#tile-in-canvas') && !!document.querySelector('#tile-out-canvas')`)
	do(t, ctx, "click the heading", chromedp.Click(chromedp.CSS("#tout-h")))
	do(t, ctx, "focus the output canvas", chromedp.Focus(chromedp.CSS("#tile-out-canvas")))
	waitFor(t, ctx, "output (0,0) named", dot+`.includes('(0,0)')`)
	for range 65 {
		do(t, ctx, "right", chromedp.KeyEvent(kb.ArrowRight))
	}
	waitFor(t, ctx, "output (0,65) reads (0,5)", dot+`.includes('(0,65)') && `+dot+`.includes('(0,5)')`)
	do(t, ctx, "Enter", chromedp.KeyEvent(kb.Enter))
	waitFor(t, ctx, "the input canvas at (0,5)", `document.activeElement && document.activeElement.id === 'tile-in-canvas' && `+dot+`.includes('(0,5)') && `+dot+`.includes('6')`)
	if vs := axeViolations(t, ctx); len(vs) > 0 {
		t.Errorf("axe-core: %v", vs)
	}
}
