package e2e

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestE2EConvertNHWCToNCHW: the NHWC -> NCHW example draws, pointing at
// an output cell links the input cell it is copied from (and back), the
// access-pattern line says the runs, on a 390 px phone and on a desktop,
// in each language, and axe-core finds nothing.
func TestE2EConvertNHWCToNCHW(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	access := map[string]string{
		"en":    "Reads 24 runs of 1 element, writes 1 run of 24 elements.",
		"fr":    "Lit 24 plages de 1 élément, écrit 1 plage de 24 éléments.",
		"pt-BR": "Lê 24 trechos de 1 elemento, escreve 1 trecho de 24 elementos.",
		"zh-TW": "讀取 24 段、每段 1 個元素，寫入 1 段、每段 24 個元素。",
	}
	for _, screen := range []struct {
		name string
		w, h int64
	}{{"phone", 390, 844}, {"desktop", 1440, 1000}} {
		for _, lang := range []string{"en", "fr", "pt-BR", "zh-TW"} {
			t.Run(screen.name+"/"+lang, func(t *testing.T) {
				do(t, ctx, "a "+screen.name, chromedp.EmulateViewport(screen.w, screen.h))
				waitLive(t, ctx, base+"/convert?preset=nhwc-nchw&lang="+lang)
				if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=lgcell]').length`); n != 24 {
					t.Fatalf("%d logical cells, want 24", n)
				}
				if got := text(t, ctx, "[data-testid=access]"); got != access[lang] {
					t.Errorf("access line %q, want %q", got, access[lang])
				}
				// Output cell 1 is element (0,0,0,1), read from NHWC offset 3.
				hoverCell(t, ctx, "#ob-1")
				waitFor(t, ctx, "input cell 3 linked", `document.querySelector('#ib-3').classList.contains('linked') && document.querySelector('#lg-1').classList.contains('linked')`)
				hoverCell(t, ctx, "#ib-1")
				waitFor(t, ctx, "output cell 8 linked", `document.querySelector('#ob-8').classList.contains('linked')`)
				// The keyboard: focus a cell, Enter jumps to its linked cell.
				do(t, ctx, "focus output cell 1", chromedp.Focus(chromedp.CSS("#ob-1")))
				do(t, ctx, "Enter", chromedp.KeyEvent(kb.Enter))
				waitFor(t, ctx, "focus on input cell 3", `document.activeElement && document.activeElement.id === 'ib-3'`)
				if n := eval[float64](t, ctx, `document.documentElement.scrollWidth - innerWidth`); n > 0 {
					t.Errorf("the page is %g px wider than the screen", n)
				}
				if vs := axeViolations(t, ctx); len(vs) > 0 {
					t.Errorf("axe-core: %v", vs)
				}
			})
		}
	}
}

// TestE2EConvertCanvases: a conversion above 256 cells is drawn on three
// canvases (the logical tensor and both buffers) from the answer's meta,
// with readable cells or zoom; pointing at an output cell names the
// element written there, the input cell it is read from and its copy
// step; the keys move on a canvas and Enter goes to the linked cell's
// canvas; a broadcast input cell says how many elements read it; on a
// phone and a desktop, in English and Traditional Chinese, axe-core finds
// nothing.
func TestE2EConvertCanvases(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	// The centre of item k of a canvas drawn one item a pixel, in rows of
	// its width (a buffer's strip).
	itemAt := func(sel string, k int) []float64 {
		return eval[[]float64](t, ctx, fmt.Sprintf(`(() => { const cv = document.querySelector(%q), port = cv.closest('.cv-port'); port.scrollTop = port.scrollLeft = 0; port.scrollIntoView({block: 'center'}); const r = cv.getBoundingClientRect(), z = cv.clientWidth / cv.width;
			return [r.left + cv.clientLeft + ((%d %% cv.width) + 0.5) * z, r.top + cv.clientTop + (Math.floor(%d / cv.width) + 0.5) * z]; })()`, sel, k, k))
	}
	// pointAt points at item k of a canvas: the mouse moves there, a
	// finger taps it.
	pointAt := func(vp viewport, sel string, k int) {
		xy := itemAt(sel, k)
		if vp.phone {
			do(t, ctx, "tap item "+strconv.Itoa(k)+" of "+sel, chromedp.MouseClickXY(xy[0], xy[1]))
			return
		}
		do(t, ctx, "point at item "+strconv.Itoa(k)+" of "+sel,
			chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, xy[0]-1, xy[1]-1),
			chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, xy[0], xy[1]))
	}
	const dot = `document.querySelector('#dot').textContent`
	for _, vp := range []viewport{phone, desktop} {
		for _, lang := range []string{"en", "zh-TW"} {
			t.Run(vp.name+"/"+lang, func(t *testing.T) {
				emulate(t, ctx, vp)
				// A 64×64 transpose: 4,096 cells a view.
				waitLive(t, ctx, base+"/convert?dt=FLOAT32&sizes=64,64&imode=packed&omode=explicit&ostrides=1,64&lang="+lang)
				var rs []canvasReport
				if err := json.Unmarshal([]byte(eval[string](t, ctx, measureCanvases)), &rs); err != nil {
					t.Fatal(err)
				}
				if len(rs) != 3 {
					t.Fatalf("%d canvases, want 3", len(rs))
				}
				for _, r := range rs {
					t.Logf("%s: %.3g CSS px a cell (image %dx%d), zoomable %v", r.ID, r.Cell, r.ImgW, r.ImgH, r.Zoomable)
					if r.Cell < 6 && !r.Zoomable {
						t.Errorf("%s: cells of %.3g CSS px and no zoom", r.ID, r.Cell)
					}
					if r.PortOut > 0.5 {
						t.Errorf("%s runs %g px past its card", r.ID, r.PortOut)
					}
				}
				// Painted: the first element is the ramp's start, the last its end.
				if px := eval[[]float64](t, ctx, `(() => { const cv = document.querySelector('#convert-ob-canvas'), d = cv.getContext('2d').getImageData(0, 0, 1, 1).data; return [...d].slice(0, 3); })()`); px[0] != 29 || px[1] != 53 || px[2] != 87 {
					t.Errorf("output cell 0 is rgb%v, want the first step's rgb(29,53,87)", px)
				}
				// Output cell 1 holds element (1,0), read from input cell 64, the 65th step.
				pointAt(vp, "#convert-ob-canvas", 1)
				waitFor(t, ctx, "output cell 1 named", dot+`.includes('(1,0)') && `+dot+`.includes('64') && `+dot+`.includes('65')`)
				// The keys: from element (0,0) of the logical canvas right to
				// (0,1), written at output cell 64; Enter goes there.
				do(t, ctx, "focus the logical canvas", chromedp.Focus(chromedp.CSS("#convert-lg-canvas")))
				waitFor(t, ctx, "element (0,0)", dot+`.includes('(0,0)')`)
				do(t, ctx, "right", chromedp.KeyEvent(kb.ArrowRight))
				waitFor(t, ctx, "element (0,1)", dot+`.includes('(0,1)')`)
				do(t, ctx, "Enter", chromedp.KeyEvent(kb.Enter))
				waitFor(t, ctx, "the output canvas focused", `document.activeElement && document.activeElement.id === 'convert-ob-canvas'`)
				if got := eval[string](t, ctx, dot); !strings.Contains(got, "(0,1)") {
					t.Errorf("after Enter the caption says %q, want element (0,1)", got)
				}
				if n := eval[float64](t, ctx, overflow(vp.width)); n > 0 {
					t.Errorf("the page is %g px wider than the screen", n)
				}
				if vs := axeViolations(t, ctx); len(vs) > 0 {
					t.Errorf("axe-core: %v", vs)
				}
				shotOf(t, ctx, "convert-canvas-"+vp.name+"-"+lang, chromedp.CaptureScreenshot())
			})
		}
	}
	// A broadcast materialised: 300 elements read one input cell.
	t.Run("broadcast", func(t *testing.T) {
		emulate(t, ctx, desktop)
		waitLive(t, ctx, base+"/convert?dt=UINT8&sizes=300&imode=explicit&istrides=0&omode=packed")
		pointAt(desktop, "#convert-ib-canvas", 0)
		waitFor(t, ctx, "input cell 0 read by 300", dot+`.includes('300')`)
	})
}

// TestE2EConvertBadgesLeaveTheLettersAlone: in the conversion's HTML
// buffers no two of a cell's texts meet (textsMeet: the letter's,
// offset's and count's ink, the copy-order badge's box), so the badge
// covers neither a cell's letter nor its offset nor a shared cell's count, on a phone and a desktop, from the 24-cell examples to a
// 256-cell transpose whose offsets, steps and labels have three digits
// and two letters.
func TestE2EConvertBadgesLeaveTheLettersAlone(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	collisions := textsMeet(`[data-testid=ibcell], [data-testid=obcell]`)
	for _, vp := range []viewport{phone, desktop} {
		for _, q := range []string{"preset=nhwc-nchw", "preset=broadcast", "preset=padded", "dt=FLOAT32&sizes=16,16&imode=packed&omode=WH"} {
			t.Run(vp.name+"/"+q, func(t *testing.T) {
				emulate(t, ctx, vp)
				waitLive(t, ctx, base+"/convert?"+q)
				if n := eval[int](t, ctx, `document.querySelectorAll('.bc .badge-n').length`); n == 0 {
					t.Fatal("no badges drawn")
				}
				if got := eval[string](t, ctx, collisions); strings.Contains(got, "meets") || strings.HasPrefix(got, "0 cells") {
					t.Errorf("%.600s", got)
				}
			})
		}
	}
}
