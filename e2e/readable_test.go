package e2e

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// canvasReport is what the page shows of one canvas at its first zoom.
type canvasReport struct {
	ID       string
	Cell     float64 // CSS pixels of an item's short side
	Zoomable bool    // the zoom buttons are shown
	Captions int     // small multiples' captions
	Cut      []string
	Empty    int     // captions without text
	PortOut  float64 // how far the canvas's box runs past its card
	ImgW     int
	ImgH     int
}

// measureCanvases measures every canvas of the page: an item's size (the
// canvas's CSS pixels an image pixel, over the items a pixel holds), its
// captions (each must show its whole text) and whether the view offers
// zoom.
const measureCanvases = `JSON.stringify([...document.querySelectorAll('#picture canvas[id$=-canvas]')].map(cv => {
	const port = cv.closest('.cv-port'), slot = cv.closest('.canvas-slot'), card = cv.closest('.view') || slot;
	const tools = slot.querySelector('[data-testid=canvas-zoom]');
	const caps = [...slot.querySelectorAll('[data-testid=canvas-caption]')];
	const cr = card.getBoundingClientRect(), pr = (port || cv).getBoundingClientRect();
	return {ID: cv.id, Cell: cv.clientWidth / cv.width / (+cv.dataset.bin || 1), Zoomable: !!tools && !tools.hidden,
		Captions: caps.length, Cut: caps.filter(c => c.scrollWidth > c.clientWidth + 1).slice(0, 3).map(c => c.textContent),
		Empty: caps.filter(c => !c.textContent.trim()).length, PortOut: pr.right - cr.right, ImgW: cv.width, ImgH: cv.height};
}))`

// TestE2ECanvasReadableCells: above the DOM limit every canvas of both
// explorers draws its cells at least 6 CSS pixels on their short side
// (a long vector wraps into a block, a tall matrix into bands of its
// rows), or offers zoom with a minimap; every small multiple is
// captioned in full at every rank; the page does not get wider than a
// phone; and the zoom controls pass axe.
func TestE2ECanvasReadableCells(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	cases := []struct {
		sizes  string
		panels int // small multiples at least (rank >= 3)
	}{
		{"300", 0}, {"256,4", 0}, {"4,4,4,4,4", 64}, {"2,2,2,2,2,2,3,4", 64}, {"64,64", 0}, {"4096,4096", 0},
	}
	for _, vp := range []viewport{phone, desktop} {
		for _, page := range []string{"/", "/slice"} {
			for _, tc := range cases {
				name := fmt.Sprintf("%s%s?sizes=%s", vp.name, page, tc.sizes)
				t.Run(name, func(t *testing.T) {
					emulate(t, ctx, vp)
					waitLive(t, ctx, base+page+"?sizes="+tc.sizes)
					var rs []canvasReport
					if err := json.Unmarshal([]byte(eval[string](t, ctx, measureCanvases)), &rs); err != nil {
						t.Fatal(err)
					}
					if len(rs) == 0 {
						t.Fatal("no canvas")
					}
					for _, r := range rs {
						t.Logf("%s: %.3g CSS px a cell (image %dx%d), zoomable %v, %d captions", r.ID, r.Cell, r.ImgW, r.ImgH, r.Zoomable, r.Captions)
						if r.Cell < 6 && !r.Zoomable {
							t.Errorf("%s: cells of %.3g CSS px and no zoom", r.ID, r.Cell)
						}
						if len(r.Cut) > 0 || r.Empty > 0 {
							t.Errorf("%s: captions cut %q, %d empty", r.ID, r.Cut, r.Empty)
						}
						// The output of the default slice is the input: both have the panels.
						if tc.panels > 0 && r.ID != "slice-buf-canvas" && r.ID != "buffer-canvas" && r.Captions < tc.panels {
							t.Errorf("%s: %d captions, want %d", r.ID, r.Captions, tc.panels)
						}
						if r.PortOut > 0.5 {
							t.Errorf("%s runs %g px past its card", r.ID, r.PortOut)
						}
					}
					if n := eval[float64](t, ctx, overflow(vp.width)); n > 0 {
						t.Errorf("the page is %g px wider than the screen", n)
					}
					// A screen from the first canvas's card down, and one of the buffer's.
					name = "readable-" + vp.name + strings.NewReplacer("/", "-", "?sizes=", "-", ",", "x").Replace(page+"?sizes="+tc.sizes)
					for _, v := range []struct{ sel, suffix string }{{"canvas", ""}, {"#buffer-canvas, #slice-buf-canvas", "-buffer"}} {
						do(t, ctx, "scroll to "+v.sel, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).closest('.view').scrollIntoView({block: 'start'})`, v.sel)))
						shotOf(t, ctx, name+v.suffix, chromedp.CaptureScreenshot())
					}
				})
			}
		}
	}
}

// TestE2ECanvasZoom: a 4096x4096 tensor opens whole, its cells below a
// pixel; the keys zoom about the selected element, the minimap shows
// while part of the view is out of sight, the pointer still finds the
// element under it, Fit shows it whole again; the controls pass axe on
// a phone and a desktop, in English and Traditional Chinese.
func TestE2ECanvasZoom(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	for _, vp := range []viewport{desktop, phone} {
		for _, lang := range []string{"en", "zh-TW"} {
			t.Run(vp.name+"-"+lang, func(t *testing.T) {
				emulate(t, ctx, vp)
				waitLive(t, ctx, base+"/?sizes=256,256&lang="+lang)
				const cell = `(() => { const cv = document.querySelector('#logical-canvas'); return cv.clientWidth / cv.width / (+cv.dataset.bin || 1); })()`
				const mini = `(() => { const m = document.querySelector('#logical [data-testid=canvas-minimap]'); return !!m && !m.hidden; })()`
				if !eval[bool](t, ctx, `!document.querySelector('#logical [data-testid=canvas-zoom]').hidden`) {
					t.Fatal("no zoom buttons")
				}
				z0 := eval[float64](t, ctx, cell)
				do(t, ctx, "focus the canvas", chromedp.Focus(chromedp.CSS("#logical-canvas")))
				do(t, ctx, "move to (0,1)", chromedp.KeyEvent(kb.ArrowRight))
				for range 4 {
					do(t, ctx, "zoom in", chromedp.KeyEvent("+"))
				}
				z1 := eval[float64](t, ctx, cell)
				if z1 < 4*z0 || z1 < 6 {
					t.Errorf("zoomed from %.3g to %.3g CSS px a cell", z0, z1)
				}
				if !eval[bool](t, ctx, mini) {
					t.Error("no minimap while zoomed in")
				}
				// The element under the pointer, worked out from the canvas's
				// box, is the one the page names.
				want := eval[string](t, ctx, `(() => { const cv = document.querySelector('#logical-canvas'), p = cv.closest('.cv-port').getBoundingClientRect(), r = cv.getBoundingClientRect(), z = cv.clientWidth / cv.width;
					const x = Math.round(p.left + p.width * 0.37) + 0.5, y = Math.round(p.top + p.height * 0.61) + 0.5; return Math.floor((y - r.top - cv.clientTop) / z) + ',' + Math.floor((x - r.left - cv.clientLeft) / z); })()`)
				xy := eval[[]float64](t, ctx, `(() => { const p = document.querySelector('#logical .cv-port').getBoundingClientRect(); return [Math.round(p.left + p.width * 0.37) + 0.5, Math.round(p.top + p.height * 0.61) + 0.5]; })()`)
				do(t, ctx, "click in the zoomed view", chromedp.MouseClickXY(xy[0], xy[1]))
				waitFor(t, ctx, "element "+want, fmt.Sprintf(`new URLSearchParams(location.search).get('sel') === %q`, want))
				shotOf(t, ctx, "zoom-"+vp.name+"-"+lang, chromedp.CaptureScreenshot())
				if vs := axeViolations(t, ctx); len(vs) > 0 {
					t.Errorf("axe:\n%s", strings.Join(vs, "\n"))
				}
				do(t, ctx, "fit", chromedp.Click(chromedp.CSS(`#logical [data-zoom=fit]`)))
				if z := eval[float64](t, ctx, cell); z > z0*1.01 {
					t.Errorf("fit leaves %.3g CSS px a cell, opened at %.3g", z, z0)
				}
				if eval[bool](t, ctx, mini) {
					t.Error("a minimap with the whole view in sight")
				}
			})
		}
	}
	// The largest: 4096x4096 on both explorers opens whole with zoom.
	emulate(t, ctx, desktop)
	for _, path := range []string{"/?sizes=4096,4096", "/slice?sizes=4096,4096"} {
		waitLive(t, ctx, base+path)
		if n := eval[int](t, ctx, `[...document.querySelectorAll('[data-testid=canvas-zoom]')].filter(b => !b.hidden).length`); n < 2 {
			t.Errorf("%s: %d views offer zoom", path, n)
		}
		do(t, ctx, "zoom in", chromedp.Click(chromedp.CSS(`[data-zoom=in]`)))
		if !eval[bool](t, ctx, `!document.querySelector('[data-testid=canvas-minimap]').hidden`) {
			t.Errorf("%s: no minimap when zoomed in", path)
		}
		shotOf(t, ctx, "zoom-4096"+strings.ReplaceAll(strings.SplitN(path, "?", 2)[0], "/", "-"), chromedp.CaptureScreenshot())
	}
}
