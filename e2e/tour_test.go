package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

const path = `location.pathname`

// inView is a function of a selector: "" if the element it selects is
// wholly on the screen, else where it is.
const inView = `((sel) => { const e = document.querySelector(sel); if (!e) return sel + ' missing';
	const r = e.getBoundingClientRect();
	return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth ? '' : sel + ' at ' + JSON.stringify([r.left, r.top, r.right, r.bottom]); })`

// outputLabels is the slice explorer's output, cell by cell.
const outputLabels = `[...document.querySelectorAll('[data-testid=outcell] .lbl')].map(e => e.textContent).join(' ')`

func TestE2ETour(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/tour")
	if got := eval[string](t, ctx, path); got != "/tour/1" {
		t.Fatalf("/tour went to %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=tour-title]').textContent`); got != "Logical versus physical" {
		t.Errorf("step 1 %q", got)
	}
	// The step's explorer is live: B is selected, its offset shown (the
	// step asks for E's, which it does not give away).
	if got := eval[string](t, ctx, `document.querySelector('#dot').textContent`); got != "{0,1} · {3,1} = 0×3 + 1×1 = 1" {
		t.Errorf("dot %q", got)
	}
	// Selecting E moves the selection a screen reader is told of too.
	const selected = `[...document.querySelectorAll('#picture [aria-selected=true]')].map(e => e.id).join(',')`
	if got := eval[string](t, ctx, selected); got != "l-1" {
		t.Errorf("selected %q, want l-1 (B)", got)
	}
	do(t, ctx, "click E", chromedp.Click(chromedp.CSS("#l-4")))
	waitFor(t, ctx, "E selected", `document.querySelector('#l-4').getAttribute('aria-selected') === 'true'`)
	if got := eval[string](t, ctx, selected); got != "l-4" {
		t.Errorf("after focusing E, selected %q, want l-4 alone", got)
	}
	do(t, ctx, "blur", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))

	// The arrow keys move between steps when the page has the focus...
	do(t, ctx, "arrow right", chromedp.KeyEvent(kb.ArrowRight))
	waitFor(t, ctx, "step 2", `location.pathname === '/tour/2' && document.body.dataset.live === 'ready'`)
	do(t, ctx, "arrow right", chromedp.KeyEvent(kb.ArrowRight))
	waitFor(t, ctx, "step 3", `location.pathname === '/tour/3' && document.querySelector('#picture').dataset.state === 'done'`)
	do(t, ctx, "arrow left", chromedp.KeyEvent(kb.ArrowLeft))
	waitFor(t, ctx, "step 2 again", `location.pathname === '/tour/2' && document.querySelector('#picture').dataset.state === 'done'`)

	// ...but not while a cell or a field has it: there they move the
	// cell focus or the caret.
	do(t, ctx, "focus element (0,0)", chromedp.Focus(chromedp.CSS("#l-0")))
	do(t, ctx, "arrow right on a cell", chromedp.KeyEvent(kb.ArrowRight))
	if got := eval[string](t, ctx, path+` + ' ' + document.activeElement.id`); got != "/tour/2 l-1" {
		t.Errorf("after an arrow on a cell: %q", got)
	}
	do(t, ctx, "focus a size", chromedp.Focus(chromedp.CSS(`[data-testid=size-1]`)))
	do(t, ctx, "arrow left in a field", chromedp.KeyEvent(kb.ArrowLeft))
	if got := eval[string](t, ctx, path); got != "/tour/2" {
		t.Errorf("an arrow in a field moved to %q", got)
	}

	// Edits stay on the step's own URL, and the step can be reset.
	do(t, ctx, "click the WH preset", chromedp.Click(chromedp.CSS(`[data-testid=preset-WH]`)))
	waitFor(t, ctx, "the WH picture", `location.pathname === '/tour/2' && location.search.includes('strides=1,2') && document.querySelector('#picture').dataset.state === 'done'`)
	if got := eval[string](t, ctx, bufferLabels); got != "A D B E C F" {
		t.Errorf("buffer %q", got)
	}

	do(t, ctx, "go to step 4", chromedp.Navigate(base+"/tour/4"))
	waitFor(t, ctx, "step 4 live", `document.body.dataset.live === 'ready' && document.querySelector('#picture').dataset.state === 'done'`)
	if got := eval[string](t, ctx, `document.querySelector('#dot').textContent`); got != "{1,0,1} · {6,3,1} = 1×6 + 0×3 + 1×1 = 7" {
		t.Errorf("step 4 dot %q", got)
	}
	shot(t, ctx, "tour-step4")

	// The DML_SLICE1 steps: the page's examples worked out, and the live
	// slice explorer on them.
	do(t, ctx, "go to step 11", chromedp.Navigate(base+"/tour/11"))
	waitFor(t, ctx, "step 11 live", `document.body.dataset.live === 'ready' && document.querySelector('#picture').dataset.state === 'done'`)
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=tour-output] dd').textContent`); got != "[[14, 16], [6, 8]]" {
		t.Errorf("Example 2 output %q", got)
	}
	if got := eval[string](t, ctx, outputLabels); got != "14 16 6 8" {
		t.Errorf("Example 2 in the slice explorer %q", got)
	}
	shot(t, ctx, "tour-slice")
	// An edit over the websocket stays on the step.
	do(t, ctx, "the reverse preset", chromedp.Click(chromedp.CSS(`[data-testid=preset-reverse]`)))
	waitFor(t, ctx, "the reversed slice", `location.pathname === '/tour/11' && location.search.includes('wstride=-1,-1') && (`+outputLabels+`) === '12 11 10 9 8 7 6 5 4 3 2 1'`)
	do(t, ctx, "back to the step", chromedp.Click(chromedp.CSS(`[data-testid=tour-reset]`)))
	waitFor(t, ctx, "step 11 again", `location.pathname === '/tour/11' && document.querySelector('#picture').dataset.state === 'done' && (`+outputLabels+`) === '14 16 6 8'`)
	do(t, ctx, "arrow left", chromedp.KeyEvent(kb.ArrowLeft))
	waitFor(t, ctx, "step 10", `location.pathname === '/tour/10'`)
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=tour-output] dd').textContent`); got != "[[2, 4], [10, 12]]" {
		t.Errorf("Example 1 output %q", got)
	}
}

func TestE2ETourWithoutJavaScript(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, true)
	do(t, ctx, "open step 6", chromedp.Navigate(base+"/tour/6"))
	if got := eval[string](t, ctx, `document.querySelector('#dot').textContent.trim()`); !strings.HasPrefix(got, "buffer offset 1 is shared by 2 elements") {
		t.Errorf("step 6 dot %q", got)
	}
	do(t, ctx, "next", chromedp.Click(chromedp.CSS(`[data-testid=tour-next]`)))
	waitFor(t, ctx, "step 7", `location.pathname === '/tour/7'`)
	if got := eval[string](t, ctx, bufferLabels); got != "A B C x x D E F x x" {
		t.Errorf("step 7 buffer %q", got)
	}
	// The form submits to the step itself.
	eval[bool](t, ctx, `(document.querySelector('[data-testid=total]').value = '', true)`)
	do(t, ctx, "submit", chromedp.ScrollIntoView(chromedp.CSS(`[data-testid=apply]`)), chromedp.Click(chromedp.CSS(`[data-testid=apply]`)))
	// Redirected from the form's raw query to the step's canonical URL.
	waitFor(t, ctx, "the submitted step", `location.pathname === '/tour/7' && location.search === '?dt=FLOAT32&sizes=2,3&strides=5,1' && document.readyState === 'complete'`)
	if got := eval[string](t, ctx, bufferLabels); got != "A B C x x D E F" {
		t.Errorf("without the total %q", got)
	}
	do(t, ctx, "previous", chromedp.Click(chromedp.CSS(`[data-testid=tour-prev]`)))
	waitFor(t, ctx, "step 6", `location.pathname === '/tour/6' && document.readyState === 'complete'`)
	shot(t, ctx, "tour-nojs")
}

// TestE2ETourStepBesideItsPicture: on a 1400x1000 desktop every step's
// card and the part of the picture it asks about are on the first screen
// together (issue #37): the layout steps' buffer, which every question
// reads, and the DML_SLICE1 steps' input grid and worked numbers.
func TestE2ETourStepBesideItsPicture(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	do(t, ctx, "a desktop", chromedp.EmulateViewport(1400, 1000))
	for n := 1; n <= 12+len(tourMoveSteps); n++ {
		waitLive(t, ctx, fmt.Sprintf("%s/tour/%d", base, n))
		parts := []string{"[data-testid=tour-question]", "[data-testid=tour-next], [data-testid=tour-prev]", ".buffer .bc", ".logical .lc"}
		switch {
		case n > 12:
			// A data-movement step: the cell its question names.
			parts = []string{"[data-testid=tour-question]", tourMoveSteps[n-13].cell}
		case n == 12:
			// The conversion: the element the question names, where it is
			// read and where it is written.
			parts = []string{"[data-testid=tour-question]", "#lg-6", "#ib-6", "#ob-1"}
		case n >= 10:
			parts = []string{"[data-testid=tour-question]", "[data-testid=tour-numbers]", "#in-0"}
		}
		for _, p := range parts {
			if got := eval[string](t, ctx, inView+"("+strconv.Quote(p)+")"); got != "" {
				t.Errorf("step %d: %s is not on the first screen", n, got)
			}
		}
		if w := eval[float64](t, ctx, `document.documentElement.scrollWidth`); w > 1400 {
			t.Errorf("step %d: the page is %g px wide", n, w)
		}
	}
}

// TestE2ETourConversionStep: the tour's last step is the live conversion
// explorer on NCHW -> NHWC. Tapping or pointing at element G, which the
// question asks about, links input offset 6 and output offset 1, as the
// answer says; an edit stays on the step; on a phone and a desktop, in
// each language, with nothing for axe-core to report.
func TestE2ETourConversionStep(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	for _, vp := range []viewport{phone, desktop} {
		for _, lang := range []string{"en", "fr", "pt-BR", "zh-TW"} {
			t.Run(vp.name+"/"+lang, func(t *testing.T) {
				emulate(t, ctx, vp)
				waitLive(t, ctx, base+"/tour/12?lang="+lang)
				waitFor(t, ctx, "the conversion drawn", `document.querySelector('#picture').dataset.state === 'done' && document.querySelectorAll('[data-testid=lgcell]').length === 12`)
				if got := text(t, ctx, "[data-testid=tour-count]"); !strings.Contains(got, "12") {
					t.Errorf("count %q", got)
				}
				hoverCell(t, ctx, "#lg-6")
				waitFor(t, ctx, "element G linked to input 6 and output 1", `document.querySelector('#ib-6').classList.contains('linked') && document.querySelector('#ob-1').classList.contains('linked')`)
				if n := eval[float64](t, ctx, `document.documentElement.scrollWidth - innerWidth`); n > 0 {
					t.Errorf("the page is %g px wider than the screen", n)
				}
				if vs := axeViolations(t, ctx); len(vs) > 0 {
					t.Errorf("axe-core: %v", vs)
				}
			})
		}
	}
	// An edit over the websocket stays on the step, and Reset comes back.
	do(t, ctx, "the transpose preset", chromedp.Click(chromedp.CSS(`[data-testid=preset-transpose]`)))
	waitFor(t, ctx, "the transpose on the step", `location.pathname === '/tour/12' && location.search.includes('sizes=3,5') && document.querySelectorAll('[data-testid=lgcell]').length === 15`)
	do(t, ctx, "reset", chromedp.Click(chromedp.CSS(`[data-testid=tour-reset]`)))
	waitFor(t, ctx, "the step's example again", `location.pathname === '/tour/12' && document.querySelector('#picture').dataset.state === 'done' && document.querySelectorAll('[data-testid=lgcell]').length === 12`)
}

// tourMoveSteps are the tour's steps 13 to 16, issue #40's operators:
// the cell each question names and the cell its answer links it to.
var tourMoveSteps = []struct {
	page, cell, linked string
	cells              int // the output cells drawn
}{
	{"padding", "#out-9", "#in-5", 80},
	{"depthspace", "#in-2", "#crd-2", 8},
	{"tile", "#out-34", "#in-4", 36},
	{"joinsplit", "#i0-10", "#o2-4", 12},
}

// TestE2ETourDataMovementSteps: steps 13 to 16 are the live padding,
// depth-to-space, tile and join/split explorers on their pages'
// examples. Pointing at the cell each question names links the input
// cell its answer gives; the picture starts on the first screen, beside
// the step's card on a desktop and under it on a phone; in each
// language, nothing wider than the screen, nothing for axe-core.
func TestE2ETourDataMovementSteps(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	for i, st := range tourMoveSteps {
		n := 13 + i
		for _, vp := range []viewport{phone, desktop} {
			for _, lang := range []string{"en", "fr", "pt-BR", "zh-TW"} {
				t.Run(fmt.Sprintf("%d-%s/%s/%s", n, st.page, vp.name, lang), func(t *testing.T) {
					emulate(t, ctx, vp)
					waitLive(t, ctx, fmt.Sprintf("%s/tour/%d?lang=%s", base, n, lang))
					waitFor(t, ctx, "the picture drawn", fmt.Sprintf(`document.querySelector('#picture').dataset.state === 'done' && document.querySelectorAll('#picture [id^=%s]').length > 0 && document.querySelectorAll('[data-testid=tour-count]').length === 1`, strings.Split(strings.TrimPrefix(st.cell, "#"), "-")[0]))
					if got := text(t, ctx, "[data-testid=tour-count]"); !strings.Contains(got, strconv.Itoa(n)) || !strings.Contains(got, "16") {
						t.Errorf("count %q", got)
					}
					if got := eval[int](t, ctx, `document.querySelectorAll('#picture .lc[id]').length`); got < st.cells {
						t.Errorf("%d cells drawn, want at least %d", got, st.cells)
					}
					// On a desktop the cell the question names is on the
					// first screen, beside the card. On a phone the card and
					// the form come first: "Go to the picture" leads to it,
					// and the padding's 10 columns scroll sideways in their
					// own grid, never the page.
					if vp.phone {
						do(t, ctx, "go to the picture", chromedp.Click(chromedp.CSS(`[data-testid=to-picture]`)))
						waitFor(t, ctx, "at the picture, with the way back", `!!document.querySelector('[data-testid=back-to-step]')`)
						do(t, ctx, "scroll to "+st.cell, chromedp.ScrollIntoView(chromedp.CSS(st.cell)))
					}
					if got := eval[string](t, ctx, inView+"("+strconv.Quote(st.cell)+")"); got != "" {
						t.Errorf("%s is not on the screen", got)
					}
					// By the keyboard, the pointer out of the way: focus
					// links the cell the answer names.
					do(t, ctx, "move the mouse away", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 2, 2))
					do(t, ctx, "focus "+st.cell, chromedp.Focus(chromedp.CSS(st.cell)))
					waitFor(t, ctx, st.cell+" linked to "+st.linked, fmt.Sprintf(`document.querySelector(%q).classList.contains('linked')`, st.linked))
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
	// The last step leads on to its explorer's own page, on its example.
	do(t, ctx, "next", chromedp.Click(chromedp.CSS(`[data-testid=tour-next]`)))
	waitFor(t, ctx, "the join and split explorer", `location.pathname === '/joinsplit' && location.search.includes('outs=2,1,3')`)
}

// TestE2ETourPhoneToThePictureAndBack: on a 390 px phone the step's
// question comes first and its picture screens below; "Go to the
// picture" brings the picture's first cells on screen with a link back,
// and that link brings the question back on screen with the focus on
// the link that left it (issue #37), on layout, slice and data-movement
// steps, in English and Traditional Chinese.
func TestE2ETourPhoneToThePictureAndBack(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	emulate(t, ctx, phone)
	for _, tc := range []struct {
		step int
		cell string // a cell of the picture's first row
	}{{3, "#l-0"}, {10, "#in-0"}, {13, "#in-0"}} {
		for _, lang := range []string{"en", "zh-TW"} {
			t.Run(fmt.Sprintf("%d/%s", tc.step, lang), func(t *testing.T) {
				waitLive(t, ctx, fmt.Sprintf("%s/tour/%d?lang=%s", base, tc.step, lang))
				if got := eval[string](t, ctx, inView+"("+strconv.Quote(tc.cell)+")"); got == "" {
					t.Fatalf("%s is on the first screen: the case tests nothing", tc.cell)
				}
				do(t, ctx, "go to the picture", chromedp.Click(chromedp.CSS(`[data-testid=to-picture]`)))
				for _, p := range []string{"[data-testid=back-to-step]", tc.cell} {
					waitFor(t, ctx, p+" on the screen", inView+"("+strconv.Quote(p)+") === ''")
				}
				waitStill(t, ctx)
				shotOf(t, ctx, fmt.Sprintf("tour-back-%d-%s", tc.step, lang), chromedp.CaptureScreenshot())
				do(t, ctx, "back to the question", chromedp.Click(chromedp.CSS(`[data-testid=back-to-step]`)))
				waitFor(t, ctx, "the question on the screen", inView+`('[data-testid=tour-question]') === '' && document.activeElement === document.querySelector('[data-testid=to-picture]')`)
				if vs := axeViolations(t, ctx); len(vs) > 0 {
					t.Errorf("axe-core: %v", vs)
				}
			})
		}
	}
}
