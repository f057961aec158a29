package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestE2EJoinSplitCanvases: past 256 output elements a join's inputs
// and output, and a split's input and outputs, are canvases drawn from
// the meta (they were a note); the keys reach an output element, which
// names the input element it is copied from, and Enter goes to that
// element on its input's canvas, which names where it is copied to; on a
// phone and a desktop, axe-core clean, the page no wider than the screen.
func TestE2EJoinSplitCanvases(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	const dot = `document.querySelector('#dot').textContent`
	drawn := func(slots ...string) string {
		js := `(() => { for (const s of [`
		for i, s := range slots {
			if i > 0 {
				js += ","
			}
			js += `'` + s + `'`
		}
		// A canvas drawn has pixels that are not blank.
		return js + `]) { const cv = document.querySelector('#' + s + '-canvas'); if (!cv || !cv.width) return false;
			const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data; let inked = false;
			for (let i = 0; i < d.length; i += 4) if (d[i + 3] && (d[i] < 240 || d[i + 1] < 240)) { inked = true; break; }
			if (!inked) return false; } return true; })()`
	}
	for _, vp := range []viewport{phone, desktop} {
		t.Run(vp.name, func(t *testing.T) {
			emulate(t, ctx, vp)
			// 20x16 and 20x4 joined along W: 400 output elements.
			waitLive(t, ctx, base+"/joinsplit?op=join&dt=FLOAT32&axis=1&in=20,16&st=&in=20,4&st=")
			waitFor(t, ctx, "three canvases drawn", drawn("js-i0", "js-i1", "js-o0"))
			if n := eval[float64](t, ctx, `document.querySelectorAll('[data-testid=join-too-large]').length`); n != 0 {
				t.Errorf("%g too-large notes beside the canvases", n)
			}
			// A click on the heading first gives the page the focus the
			// headless tab lacks (no focus event fires without it).
			do(t, ctx, "click the heading", chromedp.Click(chromedp.CSS("#o0-h")))
			do(t, ctx, "focus the output canvas", chromedp.Focus(chromedp.CSS("#js-o0-canvas")))
			waitFor(t, ctx, "output (0,0) named", dot+`.includes('OutputTensor (0,0) = 1') && `+dot+`.includes('InputTensors[0] (a) (0,0)')`)
			for range 16 {
				do(t, ctx, "ArrowRight", chromedp.KeyEvent(kb.ArrowRight))
			}
			// Output (0,16) is b's first element, numbered on from a's 320.
			waitFor(t, ctx, "output (0,16) named", dot+`.includes('OutputTensor (0,16) = 321') && `+dot+`.includes('InputTensors[1] (b) (0,0)')`)
			do(t, ctx, "Enter", chromedp.KeyEvent(kb.Enter))
			waitFor(t, ctx, "b's canvas focused at (0,0)", `document.activeElement && document.activeElement.id === 'js-i1-canvas' && `+dot+`.includes('InputTensors[1] (b) (0,0) = 321') && `+dot+`.includes('OutputTensor (0,16)')`)
			if n := eval[float64](t, ctx, overflow(vp.width)); n > 0 {
				t.Errorf("the page is %g px wider than the screen", n)
			}
			if vs := axeViolations(t, ctx); len(vs) > 0 {
				t.Errorf("axe-core: %v", vs)
			}
		})
	}
	t.Run("split", func(t *testing.T) {
		emulate(t, ctx, desktop)
		waitLive(t, ctx, base+"/joinsplit?op=split&dt=FLOAT32&axis=0&in=30,10&st=&outs=10,20&lang=fr")
		waitFor(t, ctx, "three canvases drawn", drawn("js-i0", "js-o0", "js-o1"))
		do(t, ctx, "click the heading", chromedp.Click(chromedp.CSS("#o1-h")))
		do(t, ctx, "focus y1's canvas", chromedp.Focus(chromedp.CSS("#js-o1-canvas")))
		// y1 (0,0) is x (10,0), the 101st element.
		waitFor(t, ctx, "y1 (0,0) named in French", dot+`.includes('OutputTensors[1] (y1) (0,0) = 101') && `+dot+`.includes('copié depuis InputTensor (x) (10,0)')`)
		do(t, ctx, "Enter", chromedp.KeyEvent(kb.Enter))
		waitFor(t, ctx, "x's canvas focused at (10,0)", `document.activeElement && document.activeElement.id === 'js-i0-canvas' && `+dot+`.includes('InputTensor (x) (10,0) = 101')`)
		// The pointer picks too: x's first element goes to y0's first.
		hoverAt(t, ctx, "#js-i0-canvas", 0.01, 0.01)
		waitFor(t, ctx, "x (0,0) named", dot+`.includes('InputTensor (x) (0,0) = 1') && `+dot+`.includes('OutputTensors[0] (y0) (0,0)')`)
		if vs := axeViolations(t, ctx); len(vs) > 0 {
			t.Errorf("axe-core: %v", vs)
		}
	})
}
