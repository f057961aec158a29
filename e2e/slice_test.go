package e2e

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// outputRows is the output grid as text: rows joined by ";", cells by ",".
const outputRows = `[...document.querySelectorAll('#slice-output .lrow:not(.heads)')].map(r => [...r.querySelectorAll('.lbl')].map(e => e.textContent).join(',')).join(';')`

// readCells lists the buffer cells the slice reads.
const readCells = `[...document.querySelectorAll('#slice-buffer .bc.read')].map(e => e.dataset.o).join(',')`

// sliceDone waits until the slice page has drawn the answer to its last edit.
func sliceDone(t *testing.T, ctx context.Context, what, predicate string) {
	t.Helper()
	waitFor(t, ctx, what, `document.querySelector('#picture').dataset.state === 'done' && (`+predicate+`)`)
}

// hoverCell scrolls a cell into view and points at it.
func hoverCell(t *testing.T, ctx context.Context, sel string) {
	t.Helper()
	do(t, ctx, "scroll to "+sel, chromedp.ScrollIntoView(chromedp.CSS(sel)))
	hover(t, ctx, sel)
}

// viewShot saves a screenful with sel scrolled to the top (the sticky
// form stays beside it), the mouse moved out of the way so that the focus
// is what is linked: the cells stay large enough to read.
func viewShot(t *testing.T, ctx context.Context, name, sel string) {
	t.Helper()
	do(t, ctx, "a screen of 1440×1100", chromedp.EmulateViewport(1440, 1100))
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	do(t, ctx, "move the mouse away", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 2, 2))
	do(t, ctx, "scroll to "+sel, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).scrollIntoView({block: 'start'})`, sel)))
	shotOf(t, ctx, name, chromedp.CaptureScreenshot())
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	return eval[string](t, ctx, fmt.Sprintf(`document.querySelector(%q).textContent.trim()`, sel))
}

func TestE2ESliceExample2(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/slice")
	if got := eval[string](t, ctx, outputRows); got != "2,4;10,12" {
		t.Errorf("the default (Example 1) output %q, want 2,4;10,12", got)
	}

	do(t, ctx, "click Example 2", chromedp.Click(chromedp.CSS(`[data-testid=preset-example2]`)))
	sliceDone(t, ctx, "Example 2", outputRows+` === '14,16;6,8'`)
	if got := eval[string](t, ctx, `location.search`); got != "?dt=FLOAT32&sizes=1,1,4,4&woff=0,0,0,1&wsize=1,1,4,3&wstride=1,1,-2,2" {
		t.Errorf("URL %q", got)
	}
	// Copied cells are numbered in copy order; CopyStart is marked.
	if got := eval[string](t, ctx, `[...document.querySelectorAll('#slice-input .lc.read')].map(e => e.dataset.i + ':' + e.querySelector('.badge-n').dataset.n).join(' ')`); got != "5:2 7:3 13:0 15:1" {
		t.Errorf("copied input cells %q", got)
	}
	if got := eval[string](t, ctx, `[...document.querySelectorAll('#slice-input .lc.start')].map(e => e.dataset.c).join(' ')`); got != "0,0,3,1" {
		t.Errorf("CopyStart at %q", got)
	}
	if got := eval[string](t, ctx, readCells); got != "5,7,13,15" {
		t.Errorf("buffer cells read %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=np]').value`); got != "x[0:1, 0:1, 3:0:-2, 1:4:2]" {
		t.Errorf("NumPy box %q", got)
	}

	// Hover an output cell: the input cell and its buffer cell light up.
	hoverCell(t, ctx, "#out-2")
	waitFor(t, ctx, "the link", `document.querySelector('#in-5').classList.contains('linked') && document.querySelector('#b-5').classList.contains('linked')`)
	if got := text(t, ctx, "#dot"); got != "Output[{0,0,1,0}] = Input[{0,0,1,1}] = 6, read at buffer offset 5" {
		t.Errorf("dot %q", got)
	}

	// And the other way: an input cell points at its output cell.
	hoverCell(t, ctx, "#in-15")
	waitFor(t, ctx, "the link back", `document.querySelector('#out-1').classList.contains('linked')`)

	// Keyboard: arrows move in the output grid, Enter jumps to the source.
	do(t, ctx, "focus output (0,0)", chromedp.Focus(chromedp.CSS("#out-0")))
	do(t, ctx, "arrow down", chromedp.KeyEvent(kb.ArrowDown))
	if got := eval[string](t, ctx, `document.activeElement.id`); got != "out-2" {
		t.Fatalf("focused %q, want out-2", got)
	}
	if !eval[bool](t, ctx, `document.querySelector('#in-5').classList.contains('linked')`) {
		t.Error("focus does not link the input cell")
	}
	do(t, ctx, "enter", chromedp.KeyEvent(kb.Enter))
	if got := eval[string](t, ctx, `document.activeElement.id`); got != "in-5" {
		t.Errorf("Enter went to %q, want in-5", got)
	}
	if got := eval[string](t, ctx, `document.activeElement.getAttribute('aria-label')`); got != "input (0,0,1,1) = 6, buffer offset 5, copied to output element 2" {
		t.Errorf("accessible name %q", got)
	}
	viewShot(t, ctx, "slice-example2", "body")
	if !eval[bool](t, ctx, `document.querySelector('#out-2').classList.contains('linked') && document.querySelector('#b-5').classList.contains('linked')`) {
		t.Error("the focused cell's links are gone")
	}
}

func TestE2ESliceNumpyExpression(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/slice?sizes=5,6")
	typeInto(t, ctx, "type an expression", `[data-testid=np]`, "x[1:4, ::-2]")
	window := `['woff-0','woff-1','wsize-0','wsize-1','wstride-0','wstride-1'].map(k => document.querySelector('[data-testid=' + k + ']').value).join(' ')`
	sliceDone(t, ctx, "the window to follow", `(`+window+`) === '1 1 3 5 1 -2'`)
	if got := eval[int](t, ctx, `document.querySelectorAll('#slice-input .lc.win').length`); got != 15 {
		t.Errorf("%d input cells in the window, want 3×5", got)
	}
	if got := eval[string](t, ctx, outputRows); got != "12,10,8;18,16,14;24,22,20" {
		t.Errorf("output %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=np]').value`); got != "x[1:4, ::-2]" {
		t.Errorf("the box was rewritten while typing: %q", got)
	}
	viewShot(t, ctx, "slice-numpy", "body")

	// Editing the window rewrites the expression.
	typeInto(t, ctx, "window size 2", `[data-testid=wsize-0]`, "2")
	sliceDone(t, ctx, "the expression to follow", `document.querySelector('[data-testid=np]').value === 'x[1:3, 5:0:-2]'`)

	// A bad expression is an error at the box.
	typeInto(t, ctx, "an empty selection", `[data-testid=np]`, "x[2:-1:-1]")
	// Wait for the error of the whole expression: on a busy machine the
	// typing can pause long enough for a prefix ("x[2:-1") to be answered.
	waitFor(t, ctx, "the expression error", `(e => !e.hidden && e.textContent.includes('empty NumPy selection'))(document.querySelector('[data-testid=err-expression]'))`)
	if got := text(t, ctx, `[data-testid=err-expression]`); !strings.Contains(got, "no DML_SLICE1 exists for an empty NumPy selection") {
		t.Errorf("error %q", got)
	}
}

// onExample2 opens the slice explorer on the DirectML page's Example 2.
func onExample2(t *testing.T) context.Context {
	t.Helper()
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/slice?preset=example2")
	sliceDone(t, ctx, "Example 2", outputRows+` === '14,16;6,8'`)
	return ctx
}

func TestE2ESliceOutputSizeTooLarge(t *testing.T) {
	ctx := onExample2(t)
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=out-2]').placeholder`); got != "2" {
		t.Errorf("the output size's placeholder %q, want MaxCopiedElements 2", got)
	}
	typeInto(t, ctx, "output size 3", `[data-testid=out-2]`, "3")
	waitFor(t, ctx, "the inline error", `!document.querySelector('[data-testid="err-outputSizes[2]"]').hidden`)
	if got := ruleOf(text(t, ctx, `[data-testid="err-outputSizes[2]"]`)); got != "axis 2: OutputSizes[2] = 3 not in [1, MaxCopiedElements = 2] (1 + (4 - 1) / |-2|)" {
		t.Errorf("error %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=out-2]').getAttribute('aria-invalid')`); got != "true" {
		t.Errorf("aria-invalid %q", got)
	}
	if got := text(t, ctx, `[data-testid=verdict-2]`); got != "no: 3 > MaxCopiedElements = 2; a window of 4 at |stride| 2 reaches only 2 (indices 3, 1)" {
		t.Errorf("verdict %q", got)
	}
	if got := eval[string](t, ctx, outputRows); got != "14,16;6,8" {
		t.Errorf("the last valid picture changed to %q", got)
	}
	if eval[bool](t, ctx, `document.querySelector('#stale').hidden`) {
		t.Error("no stale note")
	}
	viewShot(t, ctx, "slice-error", "section[aria-labelledby=dims-h]")

	// 1 is allowed: the element nearest CopyStart stays.
	typeInto(t, ctx, "output size 1", `[data-testid=out-2]`, "1")
	sliceDone(t, ctx, "the smaller output", outputRows+` === '14,16'`)
	if got := text(t, ctx, `[data-testid=verdict-2]`); got != "yes: 1 ≤ 1 ≤ 2; it keeps the 1 nearest CopyStart" {
		t.Errorf("verdict %q", got)
	}
}

func TestE2ESliceStepThrough(t *testing.T) {
	ctx := onExample2(t)
	// Back and Step say when they have nowhere to go.
	const stepEnds = `[...document.querySelectorAll('[data-testid=step-back], [data-testid=step-next]')].map(b => b.getAttribute('aria-disabled')).join(',')`
	if got := eval[string](t, ctx, stepEnds); got != "true,false" {
		t.Errorf("before the first step Back and Step are disabled %s, want true,false", got)
	}
	step := func(n int) {
		for range n {
			do(t, ctx, "step", chromedp.Click(chromedp.CSS(`[data-testid=step-next]`)))
		}
	}
	active := `[...document.querySelectorAll('ol.code li.active')].map(e => e.dataset.line).join(',')`
	const prose = `document.querySelector('[data-testid=step-text]').classList.contains('prose')`
	if !eval[bool](t, ctx, prose) {
		t.Error("before the first step the step text, which is words, is not set as prose")
	}
	step(1)
	if eval[bool](t, ctx, prose) {
		t.Error("step 1's formula is set as prose")
	}
	if got := text(t, ctx, `[data-testid=step-text]`); got != "CopyStart = InputWindowOffsets = {0,0,0,1}" {
		t.Errorf("step 1 %q", got)
	}
	if got := eval[string](t, ctx, active); got != "1" {
		t.Errorf("step 1 highlights line %s", got)
	}
	step(3) // axes 0, 1, 2: axis 2 has the negative stride
	if got := text(t, ctx, `[data-testid=step-text]`); got != "axis 2: InputWindowStrides[2] = -2 < 0, so CopyStart[2] += InputWindowSizes[2] - 1: 0 + 4 - 1 = 3" {
		t.Errorf("step 4 %q", got)
	}
	if got := eval[string](t, ctx, active); got != "2,3,4" {
		t.Errorf("step 4 highlights lines %s", got)
	}
	if got := text(t, ctx, `[data-testid=step-note]`); !strings.HasPrefix(got, "Erratum E1: at this step the DirectML page's Example 2 writes InputWindowSizes[0]") {
		t.Errorf("no E1 note: %q", got)
	}
	viewShot(t, ctx, "slice-step-e1", "body")
	step(2)
	if got := text(t, ctx, `[data-testid=step-text]`); got != "Output[{0,0,0,0}] = Input[{0,0,3,1} + {1,1,-2,2} * {0,0,0,0}] = Input[{0,0,3,1}] = 14" {
		t.Errorf("step 6 %q", got)
	}
	if got := text(t, ctx, `[data-testid=step-sub]`); got != "input buffer offset {0,0,3,1} · {16,16,4,1} = 0×16 + 0×16 + 3×4 + 1×1 = 13" {
		t.Errorf("step 6 sub %q", got)
	}
	if got := eval[string](t, ctx, `[...document.querySelectorAll('.cur')].map(e => e.id).join(' ')`); got != "in-13 out-0 b-13" {
		t.Errorf("step 6 marks %q", got)
	}
	if got := eval[int](t, ctx, `document.querySelectorAll('#slice-output .pending').length`); got != 3 {
		t.Errorf("%d output cells still to copy, want 3", got)
	}
	if got := eval[string](t, ctx, `new URLSearchParams(location.search).get('t')`); got != "5" {
		t.Errorf("the URL holds step %q", got)
	}
	step(1)
	viewShot(t, ctx, "slice-step", "body")

	// Play at 20 steps a second to the end; it stops there.
	do(t, ctx, "speed 20", chromedp.SetValue(chromedp.CSS(`[data-testid=step-speed]`), "20"))
	do(t, ctx, "play", chromedp.Click(chromedp.CSS(`[data-testid=step-play]`)))
	waitFor(t, ctx, "the last step", `document.querySelector('[data-testid=step-count]').textContent === 'step 9 of 9' && document.querySelector('#slice-steps').dataset.playing === 'false'`)
	if got := text(t, ctx, `[data-testid=step-text]`); got != "Output[{0,0,1,1}] = Input[{0,0,3,1} + {1,1,-2,2} * {0,0,1,1}] = Input[{0,0,1,3}] = 8" {
		t.Errorf("last step %q", got)
	}
	// At the last step, Step has nowhere to go and says so; Back does.
	if got := eval[string](t, ctx, stepEnds); got != "false,true" {
		t.Errorf("at the last step Back and Step are disabled %s, want false,true", got)
	}
	// Play from the end starts over; pause stops.
	do(t, ctx, "speed 1", chromedp.SetValue(chromedp.CSS(`[data-testid=step-speed]`), "1"))
	do(t, ctx, "play again", chromedp.Click(chromedp.CSS(`[data-testid=step-play]`)))
	waitFor(t, ctx, "step 1", `document.querySelector('[data-testid=step-count]').textContent === 'step 1 of 9'`)
	do(t, ctx, "pause", chromedp.Click(chromedp.CSS(`[data-testid=step-pause]`)))
	if eval[string](t, ctx, `document.querySelector('#slice-steps').dataset.playing`) != "false" {
		t.Error("still playing after pause")
	}

	// The reverse example's axes 0 and 1 are reversed: no erratum at
	// their steps (E1 is the page's Example 2 misprinting axis 2's).
	do(t, ctx, "the reverse example", chromedp.Click(chromedp.CSS(`[data-testid=preset-reverse]`)))
	sliceDone(t, ctx, "the reverse example", `location.search.includes('wstride=-1,-1')`)
	step(2)
	for axis := range 2 {
		if axis > 0 {
			step(1)
		}
		if got := text(t, ctx, `[data-testid=step-text]`); !strings.HasPrefix(got, fmt.Sprintf("axis %d: InputWindowStrides[%d] = -1 < 0", axis, axis)) {
			t.Errorf("reverse, axis %d's step: %q", axis, got)
		}
		if !eval[bool](t, ctx, `document.querySelector('[data-testid=step-note]').hidden`) {
			t.Errorf("reverse, axis %d's step has a note: %q", axis, text(t, ctx, `[data-testid=step-note]`))
		}
	}
}

func TestE2ESlicePresetsReadOtherCells(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/slice")
	for _, ex := range []struct{ preset, output, read string }{
		{"reverse", "12,11,10,9;8,7,6,5;4,3,2,1", "0,1,2,3,4,5,6,7,8,9,10,11"},
		{"padded", "14,16;6,8", "7,9,19,21"},
		{"broadcast", "4,3,2,1;4,3,2,1", "0,1,2,3"},
		{"nhwc", "", "13,14,19,20,37,38,43,44"},
	} {
		do(t, ctx, "click "+ex.preset, chromedp.Click(chromedp.CSS(`[data-testid=preset-`+ex.preset+`]`)))
		sliceDone(t, ctx, ex.preset, readCells+` === '`+ex.read+`'`)
		if ex.output != "" {
			if got := eval[string](t, ctx, outputRows); got != ex.output {
				t.Errorf("%s: output %q, want %q", ex.preset, got, ex.output)
			}
		}
		if ex.preset == "nhwc" {
			do(t, ctx, "focus output element 3", chromedp.Focus(chromedp.CSS("#out-3")))
			viewShot(t, ctx, "slice-nhwc", ".io")
		}
	}
}

func TestE2ESliceNoJavaScript(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, true)
	do(t, ctx, "load Example 2 at step 6", chromedp.Navigate(base+"/slice?preset=example2&t=5"))
	if got := text(t, ctx, `[data-testid=step-text]`); got != "Output[{0,0,0,0}] = Input[{0,0,3,1} + {1,1,-2,2} * {0,0,0,0}] = Input[{0,0,3,1}] = 14" {
		t.Errorf("step text %q", got)
	}
	if got := eval[string](t, ctx, outputRows); got != "14,16;6,8" {
		t.Errorf("output %q", got)
	}
	do(t, ctx, "step forward", chromedp.Click(chromedp.CSS(`[data-testid=step-next]`)))
	// Each wait after a submit or a link waits for the whole new page: its
	// address comes before its body.
	waitFor(t, ctx, "step 7", `location.search.includes('t=6') && document.readyState === 'complete'`)
	if got := text(t, ctx, `[data-testid=step-count]`); got != "step 7 of 9" {
		t.Errorf("count %q", got)
	}
	viewShot(t, ctx, "slice-nojs", "body")

	// The GET form: a NumPy expression with its own button.
	do(t, ctx, "use an expression",
		chromedp.SetValue(chromedp.CSS(`[data-testid=np]`), "x[..., ::-1, 3]"),
		chromedp.ScrollIntoView(chromedp.CSS(`[data-testid=use-np]`)), chromedp.Click(chromedp.CSS(`[data-testid=use-np]`)))
	// The form's raw query is redirected to the canonical URL: the
	// window the expression fills.
	waitFor(t, ctx, "the expression's page", `location.search.includes('woff=0,0,0,3&wsize=1,1,4,1&wstride=1,1,-1,1') && !location.search.includes('use=np') && document.readyState === 'complete'`)
	if got := eval[string](t, ctx, outputRows); got != "16;12;8;4" {
		t.Errorf("x[..., ::-1, 3] gives %q", got)
	}
	// An output size too large: the rule at its field, the last picture kept.
	do(t, ctx, "submit a bad output size",
		chromedp.SetValue(chromedp.CSS(`[data-testid=out-3]`), "2"),
		chromedp.ScrollIntoView(chromedp.CSS(`[data-testid=apply]`)), chromedp.Click(chromedp.CSS(`[data-testid=apply]`)))
	waitFor(t, ctx, "the error page", `location.search.includes('out=,,,2') && document.readyState === 'complete'`)
	if got := ruleOf(text(t, ctx, `[data-testid="err-outputSizes[3]"]`)); !strings.HasPrefix(got, "axis 3: OutputSizes[3] = 2 not in [1, MaxCopiedElements = 1]") {
		t.Errorf("error %q", got)
	}
	if got := eval[string](t, ctx, outputRows); got != "16;12;8;4" {
		t.Errorf("the last valid picture is gone: %q", got)
	}

	// Views above the DOM limit are canvases; without JavaScript the
	// state's SVG picture stands in the first one's place.
	do(t, ctx, "load a 30x30 slice", chromedp.Navigate(base+"/slice?sizes=30,30&np="+url.QueryEscape("x[::2, 1:]")+"&use=np"))
	waitFor(t, ctx, "the SVG picture", `(() => { const i = document.querySelector('[data-testid=slice-in-noscript-svg]'); return i && i.complete && i.naturalWidth > 0; })()`)
	if got := eval[string](t, ctx, `new URL(document.querySelector('[data-testid=slice-in-noscript-svg]').src).pathname`); got != "/api/v1/slice1.svg" {
		t.Errorf("the picture is %q", got)
	}
	for _, v := range []string{"slice-out", "slice-buf"} {
		if !strings.Contains(eval[string](t, ctx, `document.querySelector('[data-testid=`+v+`-needs-js]')?.textContent || ''`), "drawn in the picture shown earlier") {
			t.Errorf("%s does not point at the picture", v)
		}
	}
}

// countColour counts the pixels of a canvas's image of one colour.
func countColour(t *testing.T, ctx context.Context, sel string, r, g, b int) int {
	t.Helper()
	return eval[int](t, ctx, fmt.Sprintf(`(() => { const c = document.querySelector(%q), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
		let n = 0; for (let i = 0; i < d.length; i += 4) if (d[i] === %d && d[i + 1] === %d && d[i + 2] === %d) n++; return n; })()`, sel, r, g, b))
}

// hoverCanvas scrolls a canvas into view and points at the point at
// fractions fx, fy of its width and height.
func hoverCanvas(t *testing.T, ctx context.Context, sel string, fx, fy float64) {
	t.Helper()
	do(t, ctx, "scroll to "+sel, chromedp.ScrollIntoView(chromedp.CSS(sel)))
	hoverAt(t, ctx, sel, fx, fy)
}

// hoverElement points at item k of a canvas (an element, or a buffer
// cell), found through the canvas's own layout (cv.drawn.L): a view may
// wrap, band or bin its items, so no fraction of its box names one.
func hoverElement(t *testing.T, ctx context.Context, sel string, k int) {
	t.Helper()
	f := eval[[]float64](t, ctx, fmt.Sprintf(`(() => { const cv = document.querySelector(%q), [x, y] = cv.drawn.L.toPixel(%d); return [(x + 0.5) / cv.width, (y + 0.5) / cv.height]; })()`, sel, k))
	hoverCanvas(t, ctx, sel, f[0], f[1])
}

func TestE2ESliceLargeCanvases(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	// x[10:90, ::-2] on a 100x100 input whose rows are padded to 104
	// elements: the input, its buffer and the 80x50 output on canvases.
	waitLive(t, ctx, base+"/slice?dt=FLOAT32&sizes=100,100&strides=104,1&np=x%5B10:90,%20::-2%5D&use=np")
	if got := eval[string](t, ctx, `[...document.querySelectorAll('[data-mode]')].map(e => e.dataset.mode).join(',')`); got != "canvas,canvas,canvas" {
		t.Fatalf("modes %s", got)
	}
	if got := eval[int](t, ctx, `document.querySelectorAll('#slice-input .lc, #slice-output .lc, #slice-buffer .bc').length`); got != 0 {
		t.Errorf("%d DOM cells in the canvas views", got)
	}
	// One image pixel per cell: the 4000 copied elements and the 4000
	// cells read are exactly the highlighted pixels.
	if got := countColour(t, ctx, "#slice-in-canvas", 42, 157, 143); got != 4000 {
		t.Errorf("%d input pixels marked copied, want 4000", got)
	}
	if got := countColour(t, ctx, "#slice-buf-canvas", 42, 157, 143); got != 4000 {
		t.Errorf("%d buffer pixels marked read, want 4000", got)
	}
	if got := eval[int](t, ctx, `document.querySelectorAll('#slice-input .cv-over .cv-win').length`); got != 1 {
		t.Errorf("%d window frames", got)
	}
	if !eval[bool](t, ctx, `[...document.querySelectorAll('.progress')].every(p => p.hidden)`) {
		t.Error("progress still shown after the last frame")
	}

	// Input element (50,51): copied (odd column) to output (40,24).
	hoverElement(t, ctx, "#slice-in-canvas", 50*100+51)
	want := "input (50,51) = 5052 at buffer offset 5251: copied to Output[{40,24}], output element 2024"
	waitFor(t, ctx, "the input cell's caption", fmt.Sprintf(`document.querySelector('#dot').textContent === %q`, want))
	if got := countColour(t, ctx, "#slice-out-canvas", 230, 57, 70); got != 1 {
		t.Errorf("%d output pixels linked, want 1 (element 2024)", got)
	}
	if got := countColour(t, ctx, "#slice-buf-canvas", 230, 57, 70); got != 1 {
		t.Errorf("%d buffer pixels linked, want 1", got)
	}
	viewShot(t, ctx, "slice-canvas", ".io")

	// The buffer: 104 cells a row, cell 5251 at (51, 50); 5253 is padding.
	hoverElement(t, ctx, "#slice-buf-canvas", 5251)
	waitFor(t, ctx, "the buffer cell's caption", `document.querySelector('#dot').textContent === 'buffer offset 5251 holds 5052 for input (50,51): read by output element 2024'`)
	hoverElement(t, ctx, "#slice-buf-canvas", 5301)
	waitFor(t, ctx, "the padding's caption", `document.querySelector('#dot').textContent === 'buffer offset 5301 holds no input element: padding'`)
	// The output canvas links into the others: element 2024 is (40,24).
	hoverElement(t, ctx, "#slice-out-canvas", 2024)
	waitFor(t, ctx, "the output cell's caption", `document.querySelector('#dot').textContent === 'Output[{40,24}] = Input[{50,51}] = 5052, read at buffer offset 5251'`)
	if got := countColour(t, ctx, "#slice-in-canvas", 230, 57, 70); got != 1 {
		t.Errorf("%d input pixels linked, want 1", got)
	}

	// A crop of a 1x3x224x224 NHWC image: every view a canvas, the
	// output's small multiples captioned.
	waitLive(t, ctx, base+"/slice?dt=FLOAT32&sizes=1,3,224,224&strides=150528,1,672,3&woff=0,0,16,16&wsize=1,3,192,192&wstride=1,1,1,1")
	if got := eval[string](t, ctx, `[...document.querySelectorAll('[data-mode]')].map(e => e.dataset.mode).join(',')`); got != "canvas,canvas,canvas" {
		t.Fatalf("modes %s", got)
	}
	// The input's three 224×224 channels need the whole width: one image
	// pixel a cell, not one for four at half the width.
	if got := eval[[]int](t, ctx, `(() => { const c = document.querySelector('#slice-in-canvas'); return [c.width, c.height]; })()`); got[0] < 3*224 || got[0] > 3*224+2*8 || got[1] < 224 {
		t.Errorf("the input canvas is %v image pixels, want three panels of 224 and two gaps", got)
	}
	if got := eval[string](t, ctx, `[...document.querySelectorAll('#slice-output [data-testid=canvas-caption]')].map(e => e.textContent).join(';')`); got != "C=0;C=1;C=2" {
		t.Errorf("output captions %q", got)
	}
	if got := countColour(t, ctx, "#slice-buf-canvas", 42, 157, 143); got == 0 {
		t.Error("no buffer cell marked read")
	}
	if got := text(t, ctx, "#slice-output .vmax"); got != "146928" {
		t.Errorf("largest value %q", got)
	}
	hoverCanvas(t, ctx, "#slice-out-canvas", 0.1, 0.25) // inside the first small multiple
	waitFor(t, ctx, "the output cell's caption", `document.querySelector('#dot').textContent.startsWith('Output[{0,0,')`)
	var oc, ic [4]int64
	var val, off int64
	dot := text(t, ctx, "#dot")
	if _, err := fmt.Sscanf(dot, "Output[{%d,%d,%d,%d}] = Input[{%d,%d,%d,%d}] = %d, read at buffer offset %d",
		&oc[0], &oc[1], &oc[2], &oc[3], &ic[0], &ic[1], &ic[2], &ic[3], &val, &off); err != nil {
		t.Fatalf("caption %q: %v", dot, err)
	}
	if ic[2] != oc[2]+16 || ic[3] != oc[3]+16 || val != ic[1]*224*224+ic[2]*224+ic[3]+1 || off != ic[1]+ic[2]*672+ic[3]*3 {
		t.Errorf("caption %q does not add up", dot)
	}
	viewShot(t, ctx, "slice-canvas-nhwc", ".io")

	// The same crop in FLOAT16: values past 65504 are infinities, which
	// once broke the output's colour ramp; the ramp spans the finite ones.
	waitLive(t, ctx, base+"/slice?dt=FLOAT16&sizes=1,3,224,224&strides=150528,1,672,3&woff=0,0,16,16&wsize=1,3,192,192&wstride=1,1,1,1")
	if got := text(t, ctx, "#slice-output .vmax"); got != "65504" {
		t.Errorf("largest finite FLOAT16 value %q, want 65504", got)
	}
	if got := countColour(t, ctx, "#slice-out-canvas", 233, 196, 106); got == 0 {
		t.Error("no output pixel at the ramp's top (the infinities and the largest finite values)")
	}
}

func TestE2ESliceInputTotalSize(t *testing.T) {
	ctx := onExample2(t)
	const cells, tail = `document.querySelectorAll('#slice-buffer .bc').length`, `document.querySelectorAll('#slice-buffer .bc.tail').length`
	if got := eval[int](t, ctx, cells); got != 16 {
		t.Fatalf("%d buffer cells, want the minimum 16", got)
	}
	// 96 bytes: 24 cells, the 8 past the last element unused.
	typeInto(t, ctx, "a total of 96 bytes", `[data-testid=total]`, "96")
	sliceDone(t, ctx, "the longer buffer", cells+` === 24`)
	if got := eval[int](t, ctx, tail); got != 8 {
		t.Errorf("%d unused tail cells, want 8", got)
	}
	if got := eval[string](t, ctx, `location.search`); got != "?dt=FLOAT32&sizes=1,1,4,4&total=96&woff=0,0,0,1&wsize=1,1,4,3&wstride=1,1,-2,2" {
		t.Errorf("URL %q", got)
	}
	if got := text(t, ctx, `[data-testid=fact-buffer] dd`); got != "96 bytes = 24 elements" {
		t.Errorf("buffer fact %q", got)
	}
	if got := text(t, ctx, `[data-testid=export-cpp]`); !strings.Contains(got, "inputBufferDesc.TotalTensorSizeInBytes = 96; // DMLCalcBufferTensorSize gives 64") {
		t.Errorf("C++:\n%s", got)
	}
	hoverCell(t, ctx, "#b-20")
	waitFor(t, ctx, "the tail cell's caption", `document.querySelector('#dot').textContent === 'buffer offset 20 holds no input element: unused, past the last element'`)

	// Below the minimum: the error at the field, the last picture kept.
	typeInto(t, ctx, "a total of 60 bytes", `[data-testid=total]`, "60")
	// Edits go out as typed: the error for "6" may come before the one
	// for "60".
	waitFor(t, ctx, "the inline error for 60", `!document.querySelector('[data-testid=err-inputTotalTensorSizeInBytes]').hidden && document.querySelector('[data-testid=err-inputTotalTensorSizeInBytes]').textContent.includes('60')`)
	if got := ruleOf(text(t, ctx, `[data-testid=err-inputTotalTensorSizeInBytes]`)); got != "inputTotalTensorSizeInBytes 60 < DMLCalcBufferTensorSize 64: the buffer must hold every element" {
		t.Errorf("error %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=total]').getAttribute('aria-invalid')`); got != "true" {
		t.Errorf("aria-invalid %q", got)
	}
	if got := eval[int](t, ctx, cells); got != 24 || eval[bool](t, ctx, `document.querySelector('#stale').hidden`) {
		t.Errorf("the last valid picture (24 cells) is not kept: %d cells", got)
	}

	// A canvas buffer: 8192 cells for 64 elements, the tail in its colour.
	base := strings.TrimSuffix(eval[string](t, ctx, `location.origin`), "/")
	waitLive(t, ctx, base+"/slice?dt=UINT8&sizes=8,8&total=8192&woff=0,0&wsize=8,8&wstride=2,-1")
	if got := eval[string](t, ctx, `document.querySelector('#slice-buffer [data-mode]').dataset.mode`); got != "canvas" {
		t.Fatalf("buffer mode %s", got)
	}
	if got := countColour(t, ctx, "#slice-buf-canvas", 42, 157, 143); got != 32 {
		t.Errorf("%d buffer pixels read, want 32", got)
	}
	if got := countColour(t, ctx, "#slice-buf-canvas", 250, 251, 252); got < 8192-64 {
		t.Errorf("%d unused tail pixels, want at least %d", got, 8192-64)
	}
}

// TestE2EPhoneStepBarFloats: on a phone the step-through comes under the
// input and output. While a grid is on the screen its bar (the step
// buttons and the step's text) floats at the screen's foot, clear of the
// cells a step lights up, and keeps its height reserved in its place;
// scrolled to, it is back in its place. Its buttons stay where the thumb
// left them as the step's text changes length; it does not flicker as the
// page scrolls; it does not float over the form or headings with no grid
// in sight. A desktop never floats it. Six input columns fit a 360 px
// phone's card without scrolling sideways. In Portuguese, whose texts are
// the longest.
func TestE2EPhoneStepBarFloats(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	const floating = `document.querySelector('#slice-steps').classList.contains('floating')`
	const barRect = `(() => { const r = document.querySelector('[data-testid=step-bar]').getBoundingClientRect(); return [r.top, r.bottom, innerHeight, document.documentElement.scrollHeight]; })()`
	const toGrids = `scrollTo(0, document.querySelector('#slice-input').getBoundingClientRect().top + scrollY - 10), true`
	settle := func() {
		t.Helper()
		eval[bool](t, ctx, `window.__frames = 0, requestAnimationFrame(() => requestAnimationFrame(() => { window.__frames = 2; })), true`)
		waitFor(t, ctx, "two frames", `window.__frames === 2`)
	}
	phone := func(width int64) {
		do(t, ctx, fmt.Sprintf("a %d px phone", width), chromedp.EmulateViewport(width, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch))
	}

	phone(360)
	waitLive(t, ctx, base+"/slice?sizes=4,6")
	if got := eval[[]int](t, ctx, `[...document.querySelectorAll('.io .view')].map(v => v.scrollWidth - v.clientWidth)`); len(got) != 2 || got[0] > 0 || got[1] > 0 {
		t.Errorf("the input and output cards scroll sideways by %v px on a 360 px phone", got)
	}

	phone(390)
	waitLive(t, ctx, base+"/slice?sizes=4,6&lang=pt-BR")
	if eval[bool](t, ctx, floating) {
		t.Error("the bar floats over the form, with no picture on the screen")
	}
	eval[bool](t, ctx, `scrollTo(0, document.querySelector('.io').getBoundingClientRect().top + scrollY - innerHeight + 40), true`)
	settle()
	if eval[bool](t, ctx, floating) {
		t.Error("the bar floats with only the input's heading on the screen")
	}
	before := eval[[]float64](t, ctx, barRect)
	eval[bool](t, ctx, toGrids)
	waitFor(t, ctx, "the bar floating", floating)
	r := eval[[]float64](t, ctx, barRect)
	if r[1] < r[2]-1 || r[1] > r[2]+1 || r[0] >= r[2] {
		t.Errorf("the floating bar spans %g to %g px of an %g px screen: want it at the foot", r[0], r[1], r[2])
	}
	if math.Abs(r[3]-before[3]) > 1 {
		t.Errorf("the page is %g px tall with the bar floating, %g px before: its place should keep its height", r[3], before[3])
	}

	// Step by tapping the floating bar: CopyStart, the two axes, then the
	// copies, whose texts differ in length. The Step button stays put and
	// each step's cell is lit on the screen above the bar.
	const stepTop = `document.querySelector('[data-testid=step-next]').getBoundingClientRect().top`
	const litCell = `(() => { const c = document.querySelector('#slice-output .lc.cur') || document.querySelector('#slice-input .lc.cur'); const r = c.getBoundingClientRect(); return [r.top, r.bottom]; })()`
	top := eval[float64](t, ctx, stepTop)
	for n := 1; n <= 9; n++ {
		do(t, ctx, "tap Step", chromedp.Click(chromedp.CSS(`[data-testid=step-next]`)))
		waitFor(t, ctx, fmt.Sprintf("step %d", n), fmt.Sprintf(`document.querySelector('[data-testid=t]').value === '%d'`, n-1))
		settle()
		if got := eval[float64](t, ctx, stepTop); math.Abs(got-top) > 0.5 {
			t.Errorf("step %d: the Step button moved from %g to %g px", n, top, got)
		}
		cell, bar := eval[[]float64](t, ctx, litCell), eval[[]float64](t, ctx, barRect)
		if cell[0] < 0 || cell[1] > bar[0]+0.5 {
			t.Errorf("step %d: the lit cell is at %g to %g px, the bar from %g px: want the cell on the screen above it", n, cell[0], cell[1], bar[0])
		}
	}

	// Scrolled through the page, the bar is in one state at each place,
	// however many scroll events it is told of there.
	eval[bool](t, ctx, `(window.__states = null, (async () => {
		const frame = () => new Promise((f) => requestAnimationFrame(f)), steps = document.querySelector('#slice-steps'), out = [];
		const from = document.querySelector('.io').getBoundingClientRect().top + scrollY - innerHeight, to = document.querySelector('.step-side').getBoundingClientRect().bottom + scrollY;
		for (let y = from; y < to; y += 20) {
			scrollTo(0, y);
			let seen = '';
			for (let i = 0; i < 3; i++) { dispatchEvent(new Event('scroll')); await frame(); await frame(); seen += steps.classList.contains('floating') ? 1 : 0; }
			out.push(seen);
		}
		window.__states = out;
	})(), true)`)
	waitFor(t, ctx, "the scroll through the page", `window.__states !== null`)
	states := eval[[]string](t, ctx, `window.__states`)
	floated := false
	for i, s := range states {
		if s != "000" && s != "111" {
			t.Errorf("scrolled to place %d of %d the bar flickers: %s", i, len(states), s)
		}
		floated = floated || s == "111"
	}
	if !floated {
		t.Error("the bar never floated in the scroll: the case tests nothing")
	}

	// Scrolled down to its place, the bar is in it again.
	eval[bool](t, ctx, `scrollTo(0, document.documentElement.scrollHeight), true`)
	waitFor(t, ctx, "the bar in its place", `!`+floating)

	do(t, ctx, "a desktop", chromedp.EmulateViewport(1400, 1000))
	waitLive(t, ctx, base+"/slice?sizes=4,6")
	eval[bool](t, ctx, toGrids)
	settle()
	if eval[bool](t, ctx, floating) {
		t.Error("the bar floats on a desktop")
	}
}

// TestE2ESliceCellTextsApart: in the slice page's small grids a cell holds
// its value, its index in a corner and, once copied, its copy-order badge.
// With two digits in each (a 4x6 input: values to 24, indices to 23) none
// of the three meets another, on a desktop and on a phone.
func TestE2ESliceCellTextsApart(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	collisions := textsMeet(`#slice-input .lc, #slice-output .lc`)
	for _, tc := range []struct {
		name, path, cells string
		vp                chromedp.Action[chromedp.Void]
	}{
		{"desktop", "/slice?sizes=4,6", "48 cells", chromedp.EmulateViewport(1400, 1000)},
		{"phone", "/slice?sizes=4,6", "48 cells", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch)},
		{"desktop example2", "/slice?preset=example2", "20 cells", chromedp.EmulateViewport(1400, 1000)},
		{"embed 700 px fr", "/embed/slice?preset=example2&lang=fr", "20 cells", chromedp.EmulateViewport(700, 900)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			do(t, ctx, "the "+tc.name+"'s viewport", tc.vp)
			waitLive(t, ctx, base+tc.path)
			if got := eval[string](t, ctx, collisions); got != tc.cells {
				t.Errorf("%s", got)
			}
		})
	}
}

// TestE2EPhoneBarRepeatsTheCaption: on a phone the floating step bar can
// cover the caption under the output (#dot) that names the cell tapped;
// while it does, the bar shows the caption in its step's text's place
// (hidden from screen readers: #dot, the live region, says it; the step's
// text stays for them), until the next step. With #dot in sight above the
// bar, the bar shows its step's text.
func TestE2EPhoneBarRepeatsTheCaption(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	emulate(t, ctx, phone)
	waitLive(t, ctx, base+"/slice?sizes=4,6")
	settle := func() {
		t.Helper()
		eval[bool](t, ctx, `window.__frames = 0, requestAnimationFrame(() => requestAnimationFrame(() => { window.__frames = 2; })), true`)
		waitFor(t, ctx, "two frames", `window.__frames === 2`)
	}
	const echo = `(() => { const e = document.querySelector('[data-testid=bar-dot]'), r = e.getBoundingClientRect(); return [e.hidden ? 0 : 1, r.top, r.bottom, innerHeight]; })()`
	// The output's last row just above the floating bar: #dot under it.
	eval[bool](t, ctx, `scrollTo(0, document.querySelector('#slice-output').getBoundingClientRect().bottom + scrollY - innerHeight + 200), true`)
	settle()
	waitFor(t, ctx, "the bar floating", `document.querySelector('#slice-steps').classList.contains('floating')`)
	if got := eval[[]float64](t, ctx, echo); got[0] != 0 {
		t.Error("the bar repeats a caption before any cell is tapped")
	}
	xy := eval[[]float64](t, ctx, `(() => { const r = document.querySelector('#out-19').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	tapAt(t, ctx, "#out-19", xy[0], xy[1])
	waitFor(t, ctx, "the tapped cell's caption", `document.querySelector('#dot').textContent.startsWith('Output[{3,1}]')`)
	settle()
	if !eval[bool](t, ctx, `document.querySelector('#dot').getBoundingClientRect().bottom > document.querySelector('[data-testid=step-bar]').getBoundingClientRect().top`) {
		t.Fatalf("#dot is not under the bar: the case tests nothing (#dot's bottom, the bar's top: %v)", eval[[]float64](t, ctx, `[document.querySelector('#dot').getBoundingClientRect().bottom, document.querySelector('[data-testid=step-bar]').getBoundingClientRect().top]`))
	}
	got := eval[[]float64](t, ctx, echo)
	if got[0] != 1 || got[1] < 0 || got[2] > got[3] {
		t.Fatalf("the repeated caption: shown %v, at %g to %g px of %g", got[0] == 1, got[1], got[2], got[3])
	}
	if same := eval[bool](t, ctx, `document.querySelector('[data-testid=bar-dot]').textContent === document.querySelector('#dot').textContent`); !same {
		t.Errorf("the bar repeats %q, #dot says %q", eval[string](t, ctx, `document.querySelector('[data-testid=bar-dot]').textContent`), eval[string](t, ctx, `document.querySelector('#dot').textContent`))
	}
	if hidden := eval[string](t, ctx, `document.querySelector('[data-testid=bar-dot]').getAttribute('aria-hidden')`); hidden != "true" {
		t.Errorf("the repeated caption's aria-hidden is %q: a screen reader would hear it twice", hidden)
	}
	shotOf(t, ctx, "phone-bar-repeats-caption", chromedp.CaptureScreenshot())
	if vs := axeViolations(t, ctx); len(vs) > 0 {
		t.Errorf("axe, the caption repeated in the bar:\n%s", strings.Join(vs, "\n"))
	}
	// In the step's text's place, which a screen reader still has.
	if shown := eval[bool](t, ctx, `document.querySelector('[data-testid=step-text]').getBoundingClientRect().height > 1`); shown {
		t.Error("the step's text shows beside the repeated caption")
	}
	// A step brings the step's text back.
	xy = eval[[]float64](t, ctx, `(() => { const r = document.querySelector('[data-testid=step-next]').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	tapAt(t, ctx, "Step", xy[0], xy[1])
	waitFor(t, ctx, "step 1", `document.querySelector('[data-testid=t]').value === '0'`)
	settle()
	if got := eval[[]float64](t, ctx, echo); got[0] != 0 {
		t.Error("after a step the bar still repeats the caption")
	}
	if shown := eval[bool](t, ctx, `document.querySelector('[data-testid=step-text]').getBoundingClientRect().height > 1`); !shown {
		t.Error("after a step the step's text is not shown")
	}
	// Tapped again, the cell is named at the bar's top again; with #dot
	// scrolled up into sight, the output still on the screen, it is not.
	xy = eval[[]float64](t, ctx, `(() => { const r = document.querySelector('#out-20').getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`)
	tapAt(t, ctx, "#out-20", xy[0], xy[1])
	waitFor(t, ctx, "the caption repeated again", `!document.querySelector('[data-testid=bar-dot]').hidden && document.querySelector('[data-testid=bar-dot]').textContent.startsWith('Output[{3,2}]')`)
	eval[bool](t, ctx, `scrollTo(0, document.querySelector('#dot').getBoundingClientRect().top + scrollY - 250), true`)
	settle()
	if !eval[bool](t, ctx, `document.querySelector('#slice-steps').classList.contains('floating')`) {
		t.Error("the bar stopped floating: the case tests nothing")
	}
	if got := eval[[]float64](t, ctx, echo); got[0] != 0 {
		t.Error("with #dot in sight above the bar, the bar still repeats it")
	}
}

// TestE2EPhoneBarKeepsOffThePopover: on a phone the step bar does not
// float over an open Embed popover, whose snippet and Copy button would
// be under it; closed, the bar floats again.
func TestE2EPhoneBarKeepsOffThePopover(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	emulate(t, ctx, phone)
	waitLive(t, ctx, base+"/slice?sizes=4,6")
	const floating = `document.querySelector('#slice-steps').classList.contains('floating')`
	// The Embed button at the screen's top, the input's grid under it.
	eval[bool](t, ctx, `scrollTo(0, document.querySelector('[data-testid=embed-button]').getBoundingClientRect().top + scrollY - 10), true`)
	waitFor(t, ctx, "the bar floating", floating)
	do(t, ctx, "open Embed", chromedp.Click(chromedp.CSS(`[data-testid=embed-button]`)))
	waitFor(t, ctx, "the bar in its place", `document.querySelector('[data-testid=embed]').open && !`+floating)
	do(t, ctx, "close Embed", chromedp.Click(chromedp.CSS(`[data-testid=embed-button]`)))
	waitFor(t, ctx, "the bar floating again", `!document.querySelector('[data-testid=embed]').open && `+floating)
}
