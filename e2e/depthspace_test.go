package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestE2EDepthSpaceOrdersSideBySide: the DEPTH_TO_SPACE1 page's example
// draws the input and both orders' outputs with the page's numbers;
// pointing at a DCR output cell links the input element it reads and
// that element's cell in the CRD output, and the caption names both
// places; the keys move in a grid and Enter jumps to the linked cell;
// picking space-to-depth over the socket redraws; on a 390 px phone and
// a desktop, in English and French, with no sideways scroll, and
// axe-core finds nothing.
func TestE2EDepthSpaceOrdersSideBySide(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	caption := map[string]string{
		"en": "Input (0,2,0,0) = 18, buffer offset 12: DCR puts it at (0,0,0,1), CRD at (0,0,1,0).",
		"fr": "Entrée (0,2,0,0) = 18, décalage 12 du tampon\u00a0: DCR la place en (0,0,0,1), CRD en (0,0,1,0).",
	}
	const dot = `document.querySelector('#dot').textContent`
	for _, vp := range []viewport{phone, desktop} {
		for _, lang := range []string{"en", "fr"} {
			t.Run(vp.name+"/"+lang, func(t *testing.T) {
				emulate(t, ctx, vp)
				waitLive(t, ctx, base+"/depthspace?preset=d2s-page&lang="+lang)
				// The page's Example 1 and 2: output cell 1 holds 18 in DCR, 9 in CRD.
				if got := text(t, ctx, "#dcr-1 > span"); got != "18" {
					t.Errorf("DCR output cell 1 shows %q, the page 18", got)
				}
				if got := text(t, ctx, "#crd-1 > span"); got != "9" {
					t.Errorf("CRD output cell 1 shows %q, the page 9", got)
				}
				// Output cell 1 of DCR reads input element (0,2,0,0), index 12;
				// CRD puts that element at (0,0,1,0), its cell 6.
				hoverCell(t, ctx, "#dcr-1")
				waitFor(t, ctx, "input 12 and CRD 6 linked", `document.querySelector('#in-12').classList.contains('linked') && document.querySelector('#crd-6').classList.contains('linked')`)
				if got := eval[string](t, ctx, dot); got != caption[lang] {
					t.Errorf("caption %q, want %q", got, caption[lang])
				}
				// The keyboard: right from DCR cell 0 is cell 1; Enter goes to its input.
				do(t, ctx, "focus DCR cell 0", chromedp.Focus(chromedp.CSS("#dcr-0")))
				do(t, ctx, "right", chromedp.KeyEvent(kb.ArrowRight))
				waitFor(t, ctx, "DCR cell 1 focused", `document.activeElement && document.activeElement.id === 'dcr-1'`)
				do(t, ctx, "Enter", chromedp.KeyEvent(kb.Enter))
				waitFor(t, ctx, "input 12 focused", `document.activeElement && document.activeElement.id === 'in-12'`)
				if n := eval[float64](t, ctx, overflow(vp.width)); n > 0 {
					t.Errorf("the page is %g px wider than the screen", n)
				}
				if vs := axeViolations(t, ctx); len(vs) > 0 {
					t.Errorf("axe-core: %v", vs)
				}
				shotOf(t, ctx, "depthspace-"+vp.name+"-"+lang, chromedp.CaptureScreenshot())
			})
		}
	}
	t.Run("edit over the socket", func(t *testing.T) {
		emulate(t, ctx, desktop)
		waitLive(t, ctx, base+"/depthspace?preset=d2s-page")
		eval[bool](t, ctx, `(() => { const op = document.querySelector('#f-op'); op.value = 's2d'; return op.dispatchEvent(new Event('change', {bubbles: true})); })()`)
		// 1×8×2×3 cannot be split into 2×2 blocks: the height is 2, the width 3.
		waitFor(t, ctx, "the width's error", `(document.getElementById('err-inputSizes[3]') || {}).textContent?.includes('BlockSize')`)
		do(t, ctx, "the second example", chromedp.Click(chromedp.CSS(`a[data-preset="s2d-page2"]`)))
		waitFor(t, ctx, "the CRD output is the page's", `(document.querySelector('#crd-6 > span') || {}).textContent === '9'`)
	})
}

// TestE2EDepthSpaceCanvases: past 256 elements the three views are
// canvases drawn from the answer's index maps: the input coloured by
// element, each output as the element it reads; pointing at a DCR
// element names its input element and the CRD place, the keys move on a
// canvas and Enter goes to the input's canvas; on a phone and a
// desktop, axe-core finds nothing.
func TestE2EDepthSpaceCanvases(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	const dot = `document.querySelector('#dot').textContent`
	for _, vp := range []viewport{phone, desktop} {
		t.Run(vp.name, func(t *testing.T) {
			emulate(t, ctx, vp)
			// 1×16×16×16, BlockSize 2: 4,096 elements a view.
			waitLive(t, ctx, base+"/depthspace?op=d2s&dt=FLOAT32&sizes=1,16,16,16&imode=packed&block=2")
			for _, id := range []string{"ds-in-canvas", "ds-dcr-canvas", "ds-crd-canvas"} {
				if eval[bool](t, ctx, `(() => { const cv = document.getElementById('`+id+`'); if (!cv || !cv.width) return false; const d = cv.getContext('2d').getImageData(0, 0, cv.width, cv.height).data; for (let i = 3; i < d.length; i += 4) if (d[i]) return true; return false; })()`) == false {
					t.Errorf("%s is not painted", id)
				}
			}
			// Element 1 of DCR, (0,0,0,1), reads input channel 4: (0,4,0,0),
			// index 1024; CRD puts it at (0,1,0,0), index 1024.
			do(t, ctx, "focus the DCR canvas", chromedp.Focus(chromedp.CSS("#ds-dcr-canvas")))
			do(t, ctx, "right", chromedp.KeyEvent(kb.ArrowRight))
			waitFor(t, ctx, "DCR element 1 named", dot+`.includes('(0,4,0,0)') && `+dot+`.includes('(0,0,0,1)') && `+dot+`.includes('(0,1,0,0)')`)
			do(t, ctx, "Enter", chromedp.KeyEvent(kb.Enter))
			waitFor(t, ctx, "the input canvas focused", `document.activeElement && document.activeElement.id === 'ds-in-canvas'`)
			if n := eval[float64](t, ctx, overflow(vp.width)); n > 0 {
				t.Errorf("the page is %g px wider than the screen", n)
			}
			if vs := axeViolations(t, ctx); len(vs) > 0 {
				t.Errorf("axe-core: %v", vs)
			}
		})
	}
}

// TestE2EDepthSpaceCellTextsFit: the depth-space views are small cells
// (seven across a phone) holding values up to 47 and corner indices: on
// a 390 px phone and a desktop, every text's ink (its glyphs, measured
// with the canvas's text metrics) lies inside its cell's border, and no
// two texts of a cell meet.
func TestE2EDepthSpaceCellTextsFit(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	const cells = `#depthspace .lc`
	for _, vp := range []viewport{phone, desktop} {
		for _, path := range []string{
			"/depthspace?preset=d2s-page", "/depthspace?preset=s2d-page1&lang=zh-TW", "/depthspace?preset=s2d-page2",
			"/depthspace?preset=nhwc&lang=fr", "/depthspace?preset=block3",
			// Four elements, values typed in: the largest cells, five digits.
			"/depthspace?op=d2s&dt=INT32&sizes=1,4,1,1&block=2&vals=10000,-2000,30000,99999",
		} {
			t.Run(vp.name+path, func(t *testing.T) {
				emulate(t, ctx, vp)
				waitLive(t, ctx, base+path)
				if got := eval[string](t, ctx, textsMeet(cells)); strings.Contains(got, "meets") || strings.HasPrefix(got, "0 cells") {
					t.Errorf("%s", got)
				}
				if got := eval[string](t, ctx, textsOutside(cells)); strings.Contains(got, "outside") || strings.HasPrefix(got, "0 cells") {
					t.Errorf("%s", got)
				}
			})
		}
	}
}
