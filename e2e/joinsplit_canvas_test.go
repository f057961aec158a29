package e2e

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"testing"

	"github.com/chromedp/cdproto/page"
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

// canvasStep is what the step-through must light at one step on the
// join and split canvases: the canvas (its slot) and element of the
// output element and of its source, and the caption, all worked out
// from the JSON API's answer, not from the page.
type canvasStep struct {
	out, src canvasItem
	caption  string
}

type canvasItem struct {
	slot string
	i    int64
}

// joinCanvasSteps: a join's steps are its output's elements in
// row-major order, each read from the input and coordinate the API's
// sources name (inputs the same sizes, ins).
func joinCanvasSteps(a apiAnswer, ins [][]int64, axis int) []canvasStep {
	var s []canvasStep
	for k, src := range a.Sources {
		c, start := coordOf(a.OutputSizes, int64(k)), a.Inputs[src.Input].Start
		terms := make([]string, len(c))
		for d, v := range c {
			terms[d] = itoa(v)
			if d == axis {
				terms[d] += " " + minus + " " + itoa(start)
			}
		}
		s = append(s, canvasStep{out: canvasItem{"js-o0", int64(k)}, src: canvasItem{fmt.Sprintf("js-i%d", src.Input), rowMajor(ins[src.Input], src.Coordinate)},
			caption: fmt.Sprintf("OutputTensor[%s] = InputTensors[%d][{%s}] = InputTensors[%d][%s]", coordText(c), src.Input, strings.Join(terms, ", "), src.Input, coordText(src.Coordinate))})
	}
	return s
}

// splitCanvasSteps: a split's steps are its outputs' elements, output
// after output, each read from the input at its window's offsets (the
// API's inputWindowOffsets) plus its own coordinate.
func splitCanvasSteps(a apiAnswer, axis int) []canvasStep {
	var s []canvasStep
	for k, o := range a.Outputs {
		n := int64(1)
		for _, v := range o.OutputSizes {
			n *= v
		}
		for i := range n {
			c := coordOf(o.OutputSizes, i)
			from, terms := make([]int64, len(c)), make([]string, len(c))
			for d, v := range c {
				from[d], terms[d] = v+o.InputWindowOffsets[d], itoa(v)
				if d == axis {
					terms[d] += " + " + itoa(o.Start)
				}
			}
			s = append(s, canvasStep{out: canvasItem{fmt.Sprintf("js-o%d", k), i}, src: canvasItem{"js-i0", rowMajor(a.InputSizes, from)},
				caption: fmt.Sprintf("OutputTensors[%d][%s] = InputTensor[{%s}] = InputTensor[%s]", k, coordText(c), strings.Join(terms, ", "), coordText(from))})
		}
	}
	return s
}

// TestE2EJoinSplitCanvasSteps: past 256 output elements the
// step-through steps the canvases as it does the grids: a join's output
// in row-major order, a split's outputs one after another. A t= link
// opens at its step; Step, the arrow keys, End and Home move it; each
// step marks (the canvases' record, cv.drawn.marks, and the pixels) the
// output element and the input element the JSON API says it is copied
// from, and only those, and writes the formula with the API's numbers.
// On a phone the lit element is on the screen and clear of the bar; on
// a desktop a zoomed canvas brings it into its port. Axe-core clean,
// nothing wider than the screen. Without JavaScript the t= link's bar
// writes the same formula.
func TestE2EJoinSplitCanvasSteps(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	sq := []int64{1, 1, 12, 12}
	cases := []struct {
		name, page string
		want       []canvasStep
		boundary   int // the first step of the second input (join) or output (split)
	}{
		{"join", "/joinsplit?op=join&dt=FLOAT32&axis=3&in=1,1,12,12&st=&in=1,1,12,12&st=&in=1,1,12,12&st=",
			joinCanvasSteps(postAPI(t, base+"/api/v1/join", `{"dataType":"FLOAT32","inputs":[{"sizes":[1,1,12,12]},{"sizes":[1,1,12,12]},{"sizes":[1,1,12,12]}],"axis":3}`), [][]int64{sq, sq, sq}, 3), 12},
		// Outputs of unequal sizes: each output's steps start where the
		// ones before leave off, not at a multiple of one size.
		{"split", "/joinsplit?op=split&dt=FLOAT32&axis=2&in=1,1,24,24&st=&outs=7,9,8",
			splitCanvasSteps(postAPI(t, base+"/api/v1/split", `{"dataType":"FLOAT32","inputSizes":[1,1,24,24],"axis":2,"outputSizes":[7,9,8]}`), 2), 7 * 24},
	}
	for _, c := range cases {
		if len(c.want) != 432 && len(c.want) != 576 {
			t.Fatalf("%s: %d steps from the API", c.name, len(c.want))
		}
		for _, vp := range []viewport{phone, desktop} {
			t.Run(c.name+"/"+vp.name, func(t *testing.T) {
				emulate(t, ctx, vp)
				check := func(k int) { checkCanvasStep(t, ctx, c.want, k, vp.phone) }
				waitLive(t, ctx, base+c.page+"&t="+strconv.Itoa(c.boundary-1))
				check(c.boundary - 1)
				do(t, ctx, "Step", clickInView("[data-testid=copy-step-step]"))
				check(c.boundary)
				do(t, ctx, "ArrowRight", chromedp.KeyEvent(kb.ArrowRight))
				check(c.boundary + 1)
				do(t, ctx, "End", chromedp.KeyEvent(kb.End))
				check(len(c.want) - 1)
				do(t, ctx, "Home", chromedp.KeyEvent(kb.Home))
				waitFor(t, ctx, "no step", `!/[?&]t=/.test(location.search)`)
				do(t, ctx, "Step", clickInView("[data-testid=copy-step-step]"))
				check(0)
				// An edit's answer draws the canvases again: the step stays lit.
				seq := eval[string](t, ctx, `document.querySelector('#picture').dataset.seq || ''`)
				do(t, ctx, "an edit of the data type", chromedp.Evaluate[chromedp.Void](`(() => { const s = document.querySelector('#controls [name=dt]'); s.value = [...s.options].find((o) => o.value !== s.value && o.value.startsWith('FLOAT')).value; s.dispatchEvent(new Event('change', {bubbles: true})); })()`))
				waitFor(t, ctx, "its answer", fmt.Sprintf(`document.querySelector('#picture').dataset.seq !== %q && document.querySelector('#picture').dataset.state === 'done'`, seq))
				check(0)
				// A link to the middle step opens there.
				mid := len(c.want) / 2
				waitLive(t, ctx, base+c.page+"&t="+strconv.Itoa(mid))
				check(mid)
				shotOf(t, ctx, "joinsplit-canvas-step-"+c.name+"-"+vp.name, chromedp.CaptureScreenshot())
				if n := eval[float64](t, ctx, overflow(vp.width)); n > 0 {
					t.Errorf("the page is %g px wider than the screen", n)
				}
				if vs := axeViolations(t, ctx); len(vs) > 0 {
					t.Errorf("axe-core: %v", vs)
				}
			})
		}
	}
	t.Run("zoomed", func(t *testing.T) {
		// 64x192 elements: below 8 px each on a desktop, the output canvas
		// zooms.
		emulate(t, ctx, desktop)
		in := []int64{1, 1, 64, 64}
		want := joinCanvasSteps(postAPI(t, base+"/api/v1/join", `{"dataType":"FLOAT32","inputs":[{"sizes":[1,1,64,64]},{"sizes":[1,1,64,64]},{"sizes":[1,1,64,64]}],"axis":3}`), [][]int64{in, in, in}, 3)
		k := 40*192 + 100 // output (0,0,40,100): b's (0,0,40,36)
		waitLive(t, ctx, base+"/joinsplit?op=join&dt=FLOAT32&axis=3&in=1,1,64,64&st=&in=1,1,64,64&st=&in=1,1,64,64&st=&t="+strconv.Itoa(k-1))
		checkCanvasStep(t, ctx, want, k-1, false)
		zoomedStep(t, ctx, want, k)
	})
	t.Run("without JavaScript", func(t *testing.T) {
		noJS := newBrowser(t, true)
		for _, c := range cases {
			k := c.boundary
			do(t, noJS, "navigate "+c.page, chromedp.Navigate(base+c.page+"&t="+strconv.Itoa(k)))
			waitFor(t, noJS, "the step bar", `!!document.querySelector('[data-testid=copy-steps-static]')`)
			if text := eval[string](t, noJS, `document.querySelector('[data-testid=copy-step-text]').textContent`); text != c.want[k].caption {
				t.Errorf("%s: step %d's caption without JavaScript\n%q\nwant\n%q", c.name, k, text, c.want[k].caption)
			}
			do(t, noJS, "Step", clickInView("[data-testid=copy-step-step]"))
			waitFor(t, noJS, "the next step", fmt.Sprintf(`new URLSearchParams(location.search).get('t') === '%d' && document.readyState === 'complete'`, k+1))
			if text := eval[string](t, noJS, `document.querySelector('[data-testid=copy-step-text]').textContent`); text != c.want[k+1].caption {
				t.Errorf("%s: step %d's caption without JavaScript\n%q\nwant\n%q", c.name, k+1, text, c.want[k+1].caption)
			}
		}
	})
}

// litCanvases is every join and split canvas's marks, as the canvases'
// records keep them: "slot:item,item" for each canvas with a mark.
const litCanvases = `[...document.querySelectorAll('canvas[id^=js-]')].flatMap((cv) => {
	const items = (cv.drawn?.marks || []).flat();
	return items.length ? [cv.id.replace(/-canvas$/, '') + ':' + items.join(',')] : [];
}).sort().join(' ')`

// pixelJS is an expression of item i's pixel on canvas slot: its colour
// and its centre on the screen, [r, g, b, x, y].
func pixelJS(slot string, i int64) string {
	return fmt.Sprintf(`(() => { const cv = document.getElementById(%q), L = cv.drawn.L, [x, y] = L.toPixel(%d), d = cv.getContext('2d').getImageData(x, y, 1, 1).data, r = cv.getBoundingClientRect();
		return [d[0], d[1], d[2], r.left + cv.clientLeft + (x + 0.5) * cv.clientWidth / L.w, r.top + cv.clientTop + (y + 0.5) * cv.clientHeight / L.h]; })()`, slot+"-canvas", i)
}

// checkCanvasStep waits for step k in the URL and its marks, then
// compares the marks, the marked pixels and the caption with want[k];
// on a phone the lit output element's pixel is on the screen, not under
// the bar.
func checkCanvasStep(t *testing.T, ctx context.Context, want []canvasStep, k int, phone bool) {
	t.Helper()
	w := want[k]
	lit := []string{fmt.Sprintf("%s:%d", w.out.slot, w.out.i), fmt.Sprintf("%s:%d", w.src.slot, w.src.i)}
	lit = sorted(lit)
	waitFor(t, ctx, fmt.Sprintf("step %d in the URL", k), fmt.Sprintf(`new URLSearchParams(location.search).get('t') === '%d'`, k))
	waitFor(t, ctx, fmt.Sprintf("step %d's marks %v", k, lit), fmt.Sprintf(`%s === %q`, litCanvases, strings.Join(lit, " ")))
	for _, it := range []canvasItem{w.out, w.src} {
		if px := eval[[]float64](t, ctx, pixelJS(it.slot, it.i)); px[0] != 230 || px[1] != 57 || px[2] != 70 {
			t.Errorf("step %d: %s element %d's pixel is rgb%v, not the mark's", k, it.slot, it.i, px[:3])
		}
	}
	if text := eval[string](t, ctx, `document.querySelector('[data-testid=copy-step-text]').textContent`); text != w.caption {
		t.Errorf("step %d's caption\n%q\nwant\n%q", k, text, w.caption)
	}
	if count := eval[string](t, ctx, `document.querySelector('[data-testid=copy-step-count]').textContent`); !strings.Contains(count, strconv.Itoa(k+1)) {
		t.Errorf("step %d: the count says %q", k, count)
	}
	if phone {
		at := pixelJS(w.out.slot, w.out.i)
		waitFor(t, ctx, fmt.Sprintf("step %d's output element on the screen, clear of the bar", k), fmt.Sprintf(`(() => { const p = %s, b = document.querySelector('[data-testid=copy-steps]').getBoundingClientRect();
			return p[4] >= 0 && p[4] <= innerHeight && !(p[4] >= b.top && p[4] <= b.bottom); })()`, at))
	}
}

// zoomedStep zooms the output canvas of step k's element in until it is
// larger than its port, scrolls the port to its corner, and steps on to
// k: the lit element is brought into the port.
func zoomedStep(t *testing.T, ctx context.Context, want []canvasStep, k int) {
	t.Helper()
	slot := want[k].out.slot
	zoom := fmt.Sprintf(`document.getElementById(%q).closest('.canvas-slot').querySelector('[data-zoom=in]')`, slot+"-canvas")
	if eval[bool](t, ctx, zoom+`.closest('.cv-tools').hidden`) {
		t.Fatalf("%s cannot zoom", slot)
	}
	for range 6 {
		do(t, ctx, "zoom in", chromedp.Evaluate[chromedp.Void](zoom+`.click()`))
	}
	port := fmt.Sprintf(`document.getElementById(%q).closest('.cv-port')`, slot+"-canvas")
	if !eval[bool](t, ctx, port+`.scrollWidth > `+port+`.clientWidth * 2`) {
		t.Fatalf("%s zoomed is not larger than its port", slot)
	}
	do(t, ctx, "the port scrolled to its corner", chromedp.Evaluate[chromedp.Void](port+`.scrollTo(0, 0)`))
	out := fmt.Sprintf(`(() => { const p = %s, port = %s.getBoundingClientRect(); return p[3] < port.left || p[3] > port.right || p[4] < port.top || p[4] > port.bottom; })()`, pixelJS(slot, want[k].out.i), port)
	if !eval[bool](t, ctx, out) {
		t.Fatalf("step %d's element is in the port before the step", k)
	}
	do(t, ctx, "Step", clickInView("[data-testid=copy-step-step]"))
	checkCanvasStep(t, ctx, want, k, false)
	in := fmt.Sprintf(`(() => { const p = %s, port = %s.getBoundingClientRect(); return p[3] >= port.left && p[3] <= port.right && p[4] >= port.top && p[4] <= port.bottom; })()`, pixelJS(slot, want[k].out.i), port)
	waitFor(t, ctx, "the lit element in its zoomed canvas's port", in)
}

// TestE2EJoinSplitCanvasStepsInARoom: a presenter's steps on a split's
// canvases are the class's: a viewer who joins mid-step is shown the
// presenter's step (it waited for the next before), and the viewer's
// canvases mark the same elements (the API's) with the same caption.
// The presenter's page presents once, through its explorer: a second
// room client (main-rooms.js's, for pages without one) presented on a
// socket of its own, and its state, without the step, could be the
// room's.
func TestE2EJoinSplitCanvasStepsInARoom(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	viewer := newBrowserContext(t, presenter)
	if _, err := chromedp.Call(presenter, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `
		window.__presents = 0;
		const send = WebSocket.prototype.send;
		WebSocket.prototype.send = function (d) { if (typeof d === 'string' && JSON.parse(d).type === 'present') window.__presents++; return send.call(this, d); };`}); err != nil {
		t.Fatal(err)
	}
	const page = "/joinsplit?op=split&dt=FLOAT32&axis=2&in=1,1,24,24&st=&outs=8,8,8"
	want := splitCanvasSteps(postAPI(t, base+"/api/v1/split", `{"dataType":"FLOAT32","inputSizes":[1,1,24,24],"axis":2,"outputSizes":[8,8,8]}`), 2)
	// Step 190 is y0's last row but one element: two steps on is y1's first.
	waitLive(t, presenter, base+page+"&t=189")
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting' && document.querySelector('#picture').dataset.state === 'done'`)
	const caption = `document.querySelector('[data-testid=copy-step-text]').textContent`
	viewerAt := func(k int) {
		t.Helper()
		w := want[k]
		lit := strings.Join(sorted([]string{fmt.Sprintf("%s:%d", w.out.slot, w.out.i), fmt.Sprintf("%s:%d", w.src.slot, w.src.i)}), " ")
		waitFor(t, viewer, fmt.Sprintf("the viewer's step %d", k), fmt.Sprintf(`%s === %q && %s === %q`, litCanvases, lit, caption, w.caption))
	}
	do(t, presenter, "Step", clickInView("[data-testid=copy-step-step]"))
	checkCanvasStep(t, presenter, want, 190, false)
	// The room shares a state a moment after it changes (rooms.js).
	do(t, presenter, "the step shared", chromedp.Sleep(time.Second))
	if n := eval[int](t, presenter, `window.__presents`); n != 1 {
		t.Errorf("the presenter's page presented %d times", n)
	}
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)
	waitLive(t, viewer, join)
	waitFor(t, viewer, "following", roomState+` === 'following' && document.querySelector('#picture').dataset.state === 'done'`)
	viewerAt(190)
	for k := 191; k <= 192; k++ {
		do(t, presenter, "Step", clickInView("[data-testid=copy-step-step]"))
		checkCanvasStep(t, presenter, want, k, false)
		viewerAt(k)
	}
}
