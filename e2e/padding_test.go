package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestE2EPaddingExample3: the DML_PADDING1 page's Example 3 draws;
// pointing at an output cell in the padding links the input cell it
// reads, and an input cell every output cell that reads it; the keyboard
// reaches a cell and Enter jumps to its linked one; an edit of the mode
// over the websocket redraws (CONSTANT hatches the padding); on a 390 px
// phone and a desktop, in English and French, with nothing wider than
// the screen and nothing axe-core finds.
func TestE2EPaddingExample3(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	for _, vp := range []viewport{phone, desktop} {
		for _, lang := range []string{"en", "fr"} {
			t.Run(vp.name+"/"+lang, func(t *testing.T) {
				emulate(t, ctx, vp)
				waitLive(t, ctx, base+"/padding?preset=pad-ex3&lang="+lang)
				if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=outcell]').length`); n != 80 {
					t.Fatalf("%d output cells, want 80", n)
				}
				// Output (0,0,0,0) reads input (0,0,1,2), element 6, = 7; so
				// do eight other output cells (output rows 0, 2 and 6 read
				// input row 1, columns 0, 4 and 6 its column 2).
				hoverCell(t, ctx, "#out-0")
				waitFor(t, ctx, "input cell 6 linked", `document.querySelector('#in-6').classList.contains('linked')`)
				if n := eval[int](t, ctx, `document.querySelectorAll('.lc.linked[id^=out-]').length`); n != 8 {
					t.Errorf("%d other output cells linked to input 6, want 8", n)
				}
				hoverCell(t, ctx, "#in-0")
				waitFor(t, ctx, "output cells reading input 0 linked", `document.querySelector('#out-12').classList.contains('linked') && document.querySelector('#out-18').classList.contains('linked')`)
				do(t, ctx, "focus output cell 0", chromedp.Focus(chromedp.CSS("#out-0")))
				do(t, ctx, "Enter", chromedp.KeyEvent(kb.Enter))
				waitFor(t, ctx, "focus on input cell 6", `document.activeElement && document.activeElement.id === 'in-6'`)
				do(t, ctx, "right", chromedp.KeyEvent(kb.ArrowRight))
				waitFor(t, ctx, "focus on input cell 7", `document.activeElement && document.activeElement.id === 'in-7'`)
				if n := eval[float64](t, ctx, overflow(vp.width)); n > 0 {
					t.Errorf("the page is %g px wider than the screen", n)
				}
				if vs := axeViolations(t, ctx); len(vs) > 0 {
					t.Errorf("axe-core: %v", vs)
				}
			})
		}
	}
	t.Run("edit", func(t *testing.T) {
		emulate(t, ctx, desktop)
		waitLive(t, ctx, base+"/padding?preset=pad-ex3")
		// Example 3 reflects by the size, which ONNX Runtime refuses: no
		// model to download until the edit makes it CONSTANT.
		if eval[bool](t, ctx, `!!document.querySelector('[data-testid=onnx-model]')`) {
			t.Error("Example 3 offers an ONNX model")
		}
		do(t, ctx, "CONSTANT", chromedp.SetValue(chromedp.CSS(`#f-mode`), "CONSTANT"))
		eval[bool](t, ctx, `document.querySelector('#f-mode').dispatchEvent(new Event('change', {bubbles: true}))`)
		waitFor(t, ctx, "the padding hatched", `document.querySelectorAll('.lc.pad').length === 64 && location.search.includes('mode=CONSTANT')`)
		waitFor(t, ctx, "the Pad model offered", `(document.querySelector('[data-testid=onnx-model]') || {}).download === 'stridescope-padding.onnx'`)
		if vs := axeViolations(t, ctx); len(vs) > 0 {
			t.Errorf("axe-core: %v", vs)
		}
	})
}

// TestE2EPaddingCanvases: past 256 cells a grid, the input and the output
// are canvases drawn from the meta; the keys reach an output element,
// which names the input element it reads, and Enter goes to that
// element on the input canvas; a CONSTANT padding is grey; on a phone
// and a desktop, axe-core clean.
func TestE2EPaddingCanvases(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	const dot = `document.querySelector('#dot').textContent`
	for _, vp := range []viewport{phone, desktop} {
		t.Run(vp.name, func(t *testing.T) {
			emulate(t, ctx, vp)
			waitLive(t, ctx, base+"/padding?dt=FLOAT32&sizes=40,60&mode=REFLECTION&start=10,20&end=10,20")
			waitFor(t, ctx, "two canvases", `!!document.querySelector('#pad-in-canvas') && !!document.querySelector('#pad-out-canvas')`)
			// Output (0,0) reflects to input (10,20) on both axes. A click
			// on the heading first gives the page the focus the headless
			// tab lacks (no focus event fires without it).
			do(t, ctx, "click the heading", chromedp.Click(chromedp.CSS("#pout-h")))
			do(t, ctx, "focus the output canvas", chromedp.Focus(chromedp.CSS("#pad-out-canvas")))
			waitFor(t, ctx, "output (0,0) named", dot+`.includes('(0,0)') && `+dot+`.includes('(10,20)')`)
			do(t, ctx, "Enter", chromedp.KeyEvent(kb.Enter))
			waitFor(t, ctx, "the input canvas focused at (10,20)", `document.activeElement && document.activeElement.id === 'pad-in-canvas' && `+dot+`.includes('(10,20)')`)
			if n := eval[float64](t, ctx, overflow(vp.width)); n > 0 {
				t.Errorf("the page is %g px wider than the screen", n)
			}
			if vs := axeViolations(t, ctx); len(vs) > 0 {
				t.Errorf("axe-core: %v", vs)
			}
		})
	}
	t.Run("padding paler than the input's own place", func(t *testing.T) {
		emulate(t, ctx, desktop)
		waitLive(t, ctx, base+"/padding?dt=FLOAT32&sizes=40,60&mode=REFLECTION&start=10,20&end=10,20")
		waitFor(t, ctx, "the output canvas", `!!document.querySelector('#pad-out-canvas')?.drawn`)
		// Output (0,0) reflects input (10,20), whose own place in the
		// output is (20,40): the same colour there, halfway to white here.
		px := eval[[][]float64](t, ctx, `(() => {
			const cv = document.querySelector('#pad-out-canvas'), c = cv.drawn, w = c.img.width, d = c.img.data;
			return [0 * 100 + 0, 20 * 100 + 40, 25 * 100 + 50].map((k) => { const [x, y] = c.L.toPixel(k), i = 4 * (y * w + x); return [d[i], d[i + 1], d[i + 2]]; });
		})()`)
		pad, own, inner := px[0], px[1], px[2]
		for ch := range 3 {
			if want := own[ch] + float64((255-int(own[ch]))>>1); pad[ch] != want {
				t.Errorf("output (0,0) is rgb%v, want rgb%v's channels halfway to white (own place (20,40))", pad, own)
				break
			}
		}
		if inner[0] == pad[0] && inner[1] == pad[1] && inner[2] == pad[2] {
			t.Errorf("an inner element has the padding's colour rgb%v", pad)
		}
		if got := eval[string](t, ctx, `document.querySelector('[data-testid=padding-canvas-legend]').textContent`); !strings.Contains(got, "paler") {
			t.Errorf("the legend says %q, nothing of the paler padding", got)
		}
	})
	t.Run("constant", func(t *testing.T) {
		emulate(t, ctx, desktop)
		waitLive(t, ctx, base+"/padding?dt=FLOAT32&sizes=40,60&mode=CONSTANT&value=7&start=10,20&end=10,20")
		waitFor(t, ctx, "the output canvas", `!!document.querySelector('#pad-out-canvas')`)
		// The first pixel is the padding value's grey.
		if px := eval[[]float64](t, ctx, `(() => { const cv = document.querySelector('#pad-out-canvas'), d = cv.getContext('2d').getImageData(0, 0, 1, 1).data; return [...d].slice(0, 3); })()`); px[0] != 205 || px[1] != 212 || px[2] != 220 {
			t.Errorf("output (0,0) is rgb%v, want the padding's grey", px)
		}
		do(t, ctx, "click the heading", chromedp.Click(chromedp.CSS("#pout-h")))
		do(t, ctx, "focus the output canvas", chromedp.Focus(chromedp.CSS("#pad-out-canvas")))
		waitFor(t, ctx, "the padding value named", dot+`.includes('7')`)
	})
}
