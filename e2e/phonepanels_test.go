package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// panelsGeom is what the page shows of a canvas of small multiples: its
// CSS box, its image and the card (.view) it sits in.
type panelsGeom struct {
	CSSW, CSSH     float64 // the canvas's rendered size, CSS pixels
	StyleW         float64 // the CSS width the script gave it
	ImgW, ImgH     int     // its image, one pixel an element at one element a pixel
	Right, CardEnd float64 // its right edge and the card's content edge
	CardOverflow   float64 // how far the card's content runs past it
	Caps           int     // captions over it
	Zoomable       bool    // it offers zoom (a view too large for its box)
}

// pitch is the CSS pixels an image pixel (here an element) takes.
func (g panelsGeom) pitch() float64 { return (g.CSSW - 2) / float64(g.ImgW) }

// panelsGeomOf measures the canvas sel.
func panelsGeomOf(t *testing.T, ctx context.Context, sel string) panelsGeom {
	t.Helper()
	js := fmt.Sprintf(`(() => {
	const cv = document.querySelector(%q), r = cv.getBoundingClientRect(), card = cv.closest('.view'), cr = card.getBoundingClientRect(), cs = getComputedStyle(card);
	return JSON.stringify({CSSW: r.width, CSSH: r.height, StyleW: parseFloat(cv.style.width), ImgW: cv.width, ImgH: cv.height, Right: r.right,
		CardEnd: cr.right - parseFloat(cs.borderRightWidth) - parseFloat(cs.paddingRight), CardOverflow: card.scrollWidth - card.clientWidth,
		Caps: cv.closest('.canvas-slot').querySelectorAll('[data-testid=canvas-caption]').length, Zoomable: !cv.closest('.canvas-slot').querySelector('[data-testid=canvas-zoom]').hidden});
})()`, sel)
	var g panelsGeom
	if err := json.Unmarshal([]byte(eval[string](t, ctx, js)), &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// tapPanelCell taps (a phone) or clicks (a desktop) the middle of element
// (row, col) of the small multiple whose caption is caption, found from
// the caption's box (it sits right above its panel) and the pitch.
func tapPanelCell(t *testing.T, ctx context.Context, canvas, caption string, row, col int, pitch float64, touch bool) {
	t.Helper()
	xy := eval[[]float64](t, ctx, fmt.Sprintf(`(() => {
	const c = [...document.querySelector(%q).closest('.canvas-slot').querySelectorAll('[data-testid=canvas-caption]')].find(e => e.textContent === %q);
	if (!c) return [];
	c.scrollIntoView({block: 'center'}); // the page and the canvas's scrolling box
	const r = c.getBoundingClientRect();
	return [r.left + (%d + 0.5) * %g, r.bottom + (%d + 0.5) * %g];
})()`, canvas, caption, col, pitch, row, pitch))
	if len(xy) != 2 {
		t.Fatalf("no caption %q over %s", caption, canvas)
	}
	if !touch {
		do(t, ctx, "click "+caption, chromedp.MouseClickXY(xy[0], xy[1]))
		return
	}
	tapAt(t, ctx, caption, xy[0], xy[1])
}

// TestE2EPhonePanelsReadable: on a 390 px phone the small multiples of a
// tensor with small inner dimensions take the card's width, at several
// CSS pixels an element, rather than one row at one pixel an element (16
// grids of 8x8 once drew 173x8 CSS pixels); the canvas fits its card, a
// tap lands on the element under the finger and the keys move from it.
// On a desktop the same picture does not get smaller than it was (5 px).
func TestE2EPhonePanelsReadable(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	phoneVP := chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch)
	desktopVP := chromedp.EmulateViewport(1400, 1000)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	for _, tc := range []struct {
		name, path string
		phone      bool
		canvas     string
		R, C       int     // the last two sizes: a panel's rows and columns
		minPitch   float64 // CSS pixels an element, at least
		caption    string  // the last panel's caption: tapped when set
		sel        string  // the element tapped, as ?sel= says it ("" on the slice page)
		dot        string  // how #dot starts once it is tapped
		up         string  // ?sel= after ArrowUp from it
	}{
		{name: "phone-nhwc-1x16x8x8", path: "/?dt=FLOAT16&sizes=1,16,8,8&strides=1024,1,128,16", phone: true, canvas: "#logical-canvas", R: 8, C: 8, minPitch: 8,
			caption: "C=15", sel: "0,15,6,1", dot: "{0,15,6,1} · {1024,1,128,16} = ", up: "0,15,5,1"},
		{name: "phone-16x8x8", path: "/?sizes=16,8,8&mode=packed", phone: true, canvas: "#logical-canvas", R: 8, C: 8, minPitch: 8,
			caption: "D=15", sel: "15,6,1", dot: "{15,6,1} · {64,8,1} = ", up: "15,5,1"},
		{name: "phone-4x4x8x8", path: "/?sizes=4,4,8,8&mode=packed", phone: true, canvas: "#logical-canvas", R: 8, C: 8, minPitch: 8,
			caption: "N=3, C=3", sel: "3,3,6,1", dot: "{3,3,6,1} · {256,64,8,1} = ", up: "3,3,5,1"},
		{name: "phone-1x32x8x8", path: "/?sizes=1,32,8,8", phone: true, canvas: "#logical-canvas", R: 8, C: 8, minPitch: 8,
			caption: "C=31", sel: "0,31,6,1", dot: "{0,31,6,1} · {2048,64,8,1} = ", up: "0,31,5,1"},
		// Too large for a readable cell: whole, and zoomable.
		{name: "phone-2x16x64x64", path: "/?sizes=2,16,64,64", phone: true, canvas: "#logical-canvas", R: 64, C: 64, minPitch: 0.5},
		// The slice page's input and output draw their panels the same way.
		{name: "phone-slice-in-16x8x8", path: "/slice?dt=FLOAT32&sizes=16,8,8&woff=0,0,0&wsize=16,8,8&wstride=1,1,1", phone: true, canvas: "#slice-in-canvas", R: 8, C: 8, minPitch: 8,
			caption: "D=15", dot: "input (15,6,1) = "},
		{name: "phone-slice-out-16x8x8", path: "/slice?dt=FLOAT32&sizes=16,8,8&woff=0,0,0&wsize=16,8,8&wstride=1,1,1", phone: true, canvas: "#slice-out-canvas", R: 8, C: 8, minPitch: 6},
		{name: "desktop-nhwc-1x16x8x8", path: "/?dt=FLOAT16&sizes=1,16,8,8&strides=1024,1,128,16", canvas: "#logical-canvas", R: 8, C: 8, minPitch: 8,
			caption: "C=15", sel: "0,15,6,1", dot: "{0,15,6,1} · {1024,1,128,16} = ", up: "0,15,5,1"},
		{name: "desktop-2x16x64x64", path: "/?sizes=2,16,64,64", canvas: "#logical-canvas", R: 64, C: 64, minPitch: 1.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.phone {
				do(t, ctx, "a 390 px phone", phoneVP)
			} else {
				do(t, ctx, "a 1400 px desktop", desktopVP)
			}
			waitLive(t, ctx, base+tc.path)
			if got := eval[string](t, ctx, fmt.Sprintf(`document.querySelector(%q)?.closest('[data-mode]')?.dataset.mode || ''`, tc.canvas)); got != "canvas" {
				t.Fatalf("%s is not a canvas view (mode %q)", tc.canvas, got)
			}
			g := panelsGeomOf(t, ctx, tc.canvas)
			t.Logf("%s: %gx%g CSS px, image %dx%d, %.3g CSS px an element, %d captions, %g CSS px of the card's width free for it", tc.canvas, g.CSSW, g.CSSH, g.ImgW, g.ImgH, g.pitch(), g.Caps, g.CardEnd-g.Right+g.CSSW)
			// One element a pixel: the image is at least a panel wide.
			if g.ImgW < tc.C {
				t.Errorf("the image is %d pixels wide: not panels of %d columns at one element a pixel", g.ImgW, tc.C)
			}
			// Below a readable cell the view offers zoom.
			if p := g.pitch(); p < tc.minPitch || (p < 6 && !g.Zoomable) {
				t.Errorf("%.3g CSS px an element (%gx%g CSS px), want at least %g", p, g.CSSW, g.CSSH, tc.minPitch)
			}
			// It fits its card: not squeezed by max-width, not past its edge.
			if g.CSSW+0.5 < g.StyleW || g.Right > g.CardEnd+0.5 || g.CardOverflow > 0 {
				t.Errorf("the canvas does not fit its card: %g CSS px drawn of %g, right edge %g past the card's %g, the card overflows by %g", g.CSSW, g.StyleW, g.Right, g.CardEnd, g.CardOverflow)
			}
			if tc.phone {
				if n := eval[float64](t, ctx, overflow(390)); n > 0 {
					t.Errorf("the page is %g px wider than the phone", n)
				}
			}
			if tc.caption == "" {
				return
			}
			// A tap (a click on the desktop) in the last panel, row R-2,
			// column 1, links that element.
			tapPanelCell(t, ctx, tc.canvas, tc.caption, tc.R-2, 1, g.pitch(), tc.phone)
			waitFor(t, ctx, "the tapped element", fmt.Sprintf(`document.querySelector('#dot').textContent.startsWith(%q)`, tc.dot))
			if tc.sel != "" {
				waitFor(t, ctx, "the tapped element in the URL", fmt.Sprintf(`new URLSearchParams(location.search).get('sel') === %q`, tc.sel))
				// The keys move from there.
				if !eval[bool](t, ctx, fmt.Sprintf(`document.activeElement === document.querySelector(%q)`, tc.canvas)) {
					do(t, ctx, "focus the canvas", chromedp.Focus(chromedp.CSS(tc.canvas)))
				}
				do(t, ctx, "arrow up", chromedp.KeyEvent(kb.ArrowUp))
				waitFor(t, ctx, "the element above", fmt.Sprintf(`new URLSearchParams(location.search).get('sel') === %q`, tc.up))
			}
			do(t, ctx, "scroll the card to the top", chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).closest('.view').scrollIntoView({block: 'start'})`, tc.canvas)))
			shotOf(t, ctx, "phonepanels-"+strings.ReplaceAll(tc.name, "/", "-"), chromedp.CaptureScreenshot())
		})
	}
}

// TestE2EPhoneNudgeButtons: a finger on a dense canvas (a 100x100 tensor
// at about 3 CSS px an element on a 390 px phone) lands on several
// elements; the arrow buttons under the canvas then move the selection one
// element at a time, as the arrow keys do, in both explorers. A desktop,
// with a mouse and keys, shows no buttons; nor does a page without
// JavaScript, where they could do nothing.
func TestE2EPhoneNudgeButtons(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	emulate(t, ctx, phone)
	tapMiddle := func(canvas string) {
		t.Helper()
		xy := eval[[]float64](t, ctx, fmt.Sprintf(`(() => { const cv = document.querySelector(%q); cv.scrollIntoView({block: 'center'}); const r = cv.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`, canvas))
		tapAt(t, ctx, canvas, xy[0], xy[1])
	}
	const sel = `(new URLSearchParams(location.search).get('sel') || '')`
	nudge := func(view, button, want string) {
		t.Helper()
		do(t, ctx, "tap "+button, chromedp.Click(chromedp.CSS(`[data-testid=`+view+`-nudge] [data-nudge=`+button+`]`)))
		waitFor(t, ctx, "the selection at "+want, sel+` === '`+want+`'`)
	}
	// With nothing selected, the first button selects the first element
	// (the left one would otherwise do nothing, the right one skip it).
	waitLive(t, ctx, base+"/?sizes=100,100")
	nudge("logical", "ArrowLeft", "0,0")
	nudge("logical", "ArrowRight", "0,1")
	// After an edit that changes the sizes the buttons move from the
	// selection shown, not from its old flat index.
	waitLive(t, ctx, base+"/?sizes=100,120&sel=5,5")
	nudge("logical", "ArrowRight", "5,6")
	typeInto(t, ctx, "a width of 100", "#f-size-1", "100")
	waitFor(t, ctx, "the 100x100 picture", `document.querySelector('#picture').dataset.state === 'done' && new URLSearchParams(location.search).get('sizes') === '100,100'`)
	nudge("logical", "ArrowRight", "5,7")

	// Over small multiples « and » reach the same element in the grid
	// before and after (the keys' Page Up and Page Down); a canvas of one
	// grid shows neither.
	const gridSteps = `[...document.querySelectorAll('[data-testid=logical-nudge] .grid-step')].filter(b => b.getClientRects().length > 0).length`
	if n := eval[int](t, ctx, gridSteps); n != 0 {
		t.Errorf("a canvas of one grid shows %d grid buttons", n)
	}
	waitLive(t, ctx, base+"/?dt=FLOAT16&sizes=1,16,64,64&sel=0,0,0,63")
	if n := eval[int](t, ctx, gridSteps); n != 2 {
		t.Errorf("a canvas of 16 grids shows %d grid buttons, want 2", n)
	}
	nudge("logical", "PageDown", "0,1,0,63")
	nudge("logical", "PageDown", "0,2,0,63")
	nudge("logical", "PageUp", "0,1,0,63")

	waitLive(t, ctx, base+"/?sizes=100,100")
	tapMiddle("#logical-canvas")
	waitFor(t, ctx, "a tapped element", sel+` !== ''`)
	var r, c int
	if _, err := fmt.Sscanf(eval[string](t, ctx, sel), "%d,%d", &r, &c); err != nil {
		t.Fatalf("sel %q: %v", eval[string](t, ctx, sel), err)
	}
	for _, m := range []struct {
		button string
		dr, dc int
	}{{"ArrowRight", 0, 1}, {"ArrowRight", 0, 1}, {"ArrowDown", 1, 0}, {"ArrowLeft", 0, -1}, {"ArrowUp", -1, 0}} {
		do(t, ctx, "tap "+m.button, chromedp.Click(chromedp.CSS(`[data-testid=logical-nudge] [data-nudge=`+m.button+`]`)))
		r, c = r+m.dr, c+m.dc
		want := fmt.Sprintf("%d,%d", r, c)
		waitFor(t, ctx, "the selection at "+want, sel+` === '`+want+`'`)
		if got := eval[string](t, ctx, `document.querySelector('#dot').textContent`); !strings.HasPrefix(got, "{"+want+"}") {
			t.Errorf("after %s the caption says %q, want {%s}", m.button, got, want)
		}
	}

	// The slice page's input canvas, in French.
	waitLive(t, ctx, base+"/slice?sizes=100,100&lang=fr")
	tapMiddle("#slice-in-canvas")
	waitFor(t, ctx, "a tapped input element", `/^entrée \(\d+,\d+\)/.test(document.querySelector('#dot').textContent)`)
	before := eval[string](t, ctx, `document.querySelector('#dot').textContent.match(/^entrée \((\d+),(\d+)\)/).slice(1).join(',')`)
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=slice-in-nudge] [data-nudge=ArrowRight]').getAttribute('aria-label')`); got != "Sélectionner l'élément à droite" {
		t.Errorf("the French right button is named %q", got)
	}
	do(t, ctx, "tap the right button", chromedp.Click(chromedp.CSS(`[data-testid=slice-in-nudge] [data-nudge=ArrowRight]`)))
	var br, bc int
	fmt.Sscanf(before, "%d,%d", &br, &bc)
	want := fmt.Sprintf("entrée (%d,%d)", br, bc+1)
	waitFor(t, ctx, want, `document.querySelector('#dot').textContent.startsWith('`+want+`')`)
	// The caption is far from the buttons on this page: what they reached
	// is repeated under them, on the screen with them.
	echo := eval[[]string](t, ctx, `(() => { const e = document.querySelector('[data-testid=slice-in-nudge-echo]'), r = e.getBoundingClientRect(); return [e.textContent, document.querySelector('#dot').textContent, String(r.height > 0 && r.top >= 0 && r.bottom <= innerHeight)]; })()`)
	if echo[0] != echo[1] || echo[2] != "true" {
		t.Errorf("under the buttons %q (on the screen: %s), the caption %q", echo[0], echo[2], echo[1])
	}

	emulate(t, ctx, desktop)
	waitLive(t, ctx, base+"/?sizes=100,100")
	if n := eval[int](t, ctx, `[...document.querySelectorAll('.nudge')].filter(e => e.getClientRects().length > 0).length`); n != 0 {
		t.Errorf("a desktop shows %d rows of arrow buttons", n)
	}
	off := newBrowser(t, true)
	emulate(t, off, phone)
	do(t, off, "open without JavaScript", chromedp.Navigate(base+"/?sizes=100,100"))
	if n := eval[int](t, off, `[...document.querySelectorAll('.nudge')].filter(e => e.getClientRects().length > 0).length`); n != 0 {
		t.Errorf("a page without JavaScript shows %d rows of arrow buttons", n)
	}
}
