package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/stridescope/stridescope/core"
)

// bufferLabels is the buffer view as text, cell by cell.
const bufferLabels = `[...document.querySelectorAll('[data-testid=bcell] .lbl')].map(e => e.textContent).join(' ')`

// usedCells lists the buffer cells that hold an element.
const usedCells = `[...document.querySelectorAll('[data-testid=bcell].used, [data-testid=bcell].shared')].map(e => e.dataset.o).join(',')`

func TestE2ELiveExplorer(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/")

	// Load a preset with one click: the padding example of the strides page.
	do(t, ctx, "click the padded preset", chromedp.Click(chromedp.CSS(`[data-testid=preset-padded]`)))
	waitFor(t, ctx, "the padded picture", `document.querySelector('#picture').dataset.state === 'done' && location.search.includes('strides=5,1')`)
	if got := eval[string](t, ctx, bufferLabels); got != "A B C x x D E F x x" {
		t.Errorf("padded buffer %q, want the page's A B C x x D E F x x", got)
	}
	if got := eval[string](t, ctx, usedCells); got != "0,1,2,5,6,7" {
		t.Errorf("used cells %q", got)
	}
	if got := eval[string](t, ctx, `location.search`); got != "?dt=FLOAT32&sizes=2,3&strides=5,1&total=40" {
		t.Errorf("URL %q", got)
	}
	shot(t, ctx, "explorer-padded")

	// Change a stride: the highlighted buffer cells follow.
	typeInto(t, ctx, "type a height stride of 4", `[data-testid=stride-0]`, "4")
	waitFor(t, ctx, "the new used cells", `(`+usedCells+`) === '0,1,2,4,5,6'`)
	if got := eval[string](t, ctx, `location.search`); !strings.Contains(got, "strides=4,1") {
		t.Errorf("URL %q does not hold the new stride", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('#b-7').className`); !strings.Contains(got, "tail") {
		t.Errorf("cell 7 is %q, want an unused tail cell", got)
	}

	// Hover a logical cell: its buffer cell is linked, the dot product shown.
	hover(t, ctx, "#l-3")
	waitFor(t, ctx, "the link", `document.querySelector('#b-4').classList.contains('linked')`)
	if got := eval[string](t, ctx, `document.querySelector('#dot').textContent`); got != "{1,0} · {4,1} = 1×4 + 0×1 = 4" {
		t.Errorf("dot %q", got)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('.bc.linked').length`); n != 1 {
		t.Errorf("%d buffer cells linked", n)
	}
	shot(t, ctx, "explorer-linked")

	// Keyboard: arrows move between cells; each has an accessible name.
	do(t, ctx, "focus element (0,0)", chromedp.Focus(chromedp.CSS("#l-0")))
	do(t, ctx, "arrow right, arrow down", chromedp.KeyEvent(kb.ArrowRight), chromedp.KeyEvent(kb.ArrowDown))
	if got := eval[string](t, ctx, `document.activeElement.getAttribute('aria-label')`); got != "E, element (1,1), offset 5" {
		t.Errorf("focused %q", got)
	}
	if got := eval[int](t, ctx, `document.querySelectorAll('#logical [tabindex="0"]').length`); got != 1 {
		t.Errorf("%d logical cells in the tab order, want 1 (roving tabindex)", got)
	}
	if got := eval[string](t, ctx, `location.search`); !strings.Contains(got, "sel=1,1") {
		t.Errorf("URL %q does not hold the focus", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('#dot').getAttribute('aria-live')`); got != "polite" {
		t.Errorf("the dot product is not a live region: %q", got)
	}

	// Focus a buffer cell: every element stored there lights up.
	do(t, ctx, "broadcast preset", chromedp.Click(chromedp.CSS(`[data-testid=preset-broadcast]`)))
	waitFor(t, ctx, "the broadcast picture", `document.querySelector('#picture').dataset.state === 'done' && location.search.includes('strides=0,1')`)
	do(t, ctx, "focus buffer cell 1", chromedp.Focus(chromedp.CSS("#b-1")))
	if got := eval[string](t, ctx, `[...document.querySelectorAll('.lc.linked')].map(e => e.dataset.c).join(' ')`); got != "0,1 1,1" {
		t.Errorf("linked elements %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('#dot').textContent`); got != "buffer offset 1 is shared by 2 elements: (0,1), (1,1)" {
		t.Errorf("dot %q", got)
	}
	shot(t, ctx, "explorer-broadcast")

	// A bad value: the rule inline, the last valid picture kept.
	typeInto(t, ctx, "type a zero size", `[data-testid=size-1]`, "0")
	waitFor(t, ctx, "the inline error", `!document.querySelector('[data-testid="err-sizes[1]"]').hidden`)
	if got := ruleOf(eval[string](t, ctx, `document.querySelector('[data-testid="err-sizes[1]"]').textContent`)); got != "sizes[1] == 0: specifying a size of zero in any dimension is invalid" {
		t.Errorf("error %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=size-1]').getAttribute('aria-invalid')`); got != "true" {
		t.Errorf("aria-invalid %q", got)
	}
	if got := eval[string](t, ctx, bufferLabels); got != "A B C" {
		t.Errorf("the picture changed to %q", got)
	}
	if eval[bool](t, ctx, `document.querySelector('#stale').hidden`) {
		t.Error("no stale note")
	}
	if got := eval[string](t, ctx, `location.search`); !strings.Contains(got, "sizes=2,0") || !strings.Contains(got, "last=") {
		t.Errorf("URL %q must hold the typed state and the last valid one", got)
	}
	shot(t, ctx, "explorer-error")

	// Fix it; the rank picker adds a leading dimension.
	typeInto(t, ctx, "type size 3", `[data-testid=size-1]`, "3")
	waitFor(t, ctx, "the error to clear", `document.querySelector('[data-testid="err-sizes[1]"]').hidden && document.querySelector('#stale').hidden`)
	do(t, ctx, "rank 3", chromedp.SetValue(chromedp.CSS(`[data-testid=rank]`), "3"),
		chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid=rank]').dispatchEvent(new Event('change', {bubbles: true}))`))
	waitFor(t, ctx, "three dimensions", `document.querySelectorAll('tr.dim:not([hidden])').length === 3 && location.search.includes('sizes=1,2,3')`)
	if got := eval[string](t, ctx, `[...document.querySelectorAll('tr.dim:not([hidden]) th')].map(e => e.textContent).join('')`); got != "DHW" {
		t.Errorf("dimension labels %q", got)
	}
}

// TestE2EStridesPageExamples reproduces every example of the DirectML
// strides page with one click each.
func TestE2EStridesPageExamples(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/?labels=letters")
	for _, ex := range []struct{ preset, buffer, logical string }{
		{"HW", "A B C D E F", "0,1,2,3,4,5"},
		{"WH", "A D B E C F", "0,2,4,1,3,5"},
		{"DHW", "A B C D E F G H I J K L", "0,1,2,3,4,5,6,7,8,9,10,11"},
		{"NCHW", "A B C D E F G H I J K L M N O", "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14"},
		{"NHWC", "A B C D E F G H I J K L M N O", "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14"},
		{"broadcast", "A B C", "0,1,2,0,1,2"},
		{"padded", "A B C x x D E F x x", "0,1,2,5,6,7"},
	} {
		do(t, ctx, "click "+ex.preset, chromedp.Click(chromedp.CSS(`[data-testid=preset-`+ex.preset+`]`)))
		waitFor(t, ctx, ex.preset, fmt.Sprintf(`document.querySelector('#picture').dataset.state === 'done' && (%s) === %q`, bufferLabels, ex.buffer))
		if got := eval[string](t, ctx, `[...document.querySelectorAll('[data-testid=lcell]')].map(e => e.dataset.o).join(',')`); got != ex.logical {
			t.Errorf("%s: offsets %s, want %s", ex.preset, got, ex.logical)
		}
		if ex.preset == "DHW" {
			// The preset selects element H, as the page's worked example.
			if got := eval[string](t, ctx, `document.querySelector('#dot').textContent`); got != "{1,0,1} · {6,3,1} = 1×6 + 0×3 + 1×1 = 7" {
				t.Errorf("DHW dot %q", got)
			}
			shot(t, ctx, "explorer-dhw")
		}
	}
	// Back returns to the previous example.
	do(t, ctx, "back", chromedp.NavigateBack())
	waitFor(t, ctx, "broadcast again", `(`+bufferLabels+`) === 'A B C'`)
}

func TestE2ENoJavaScript(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, true)
	do(t, ctx, "load the DHW example", chromedp.Navigate(base+"/?dt=FLOAT32&sizes=2,2,3&strides=6,3,1&sel=1,0,1"))
	if eval[string](t, ctx, `document.body.dataset.live || ''`) != "" {
		t.Fatal("the module ran although JavaScript is off")
	}
	if got := eval[string](t, ctx, `document.querySelector('#dot').textContent.trim()`); got != "{1,0,1} · {6,3,1} = 1×6 + 0×3 + 1×1 = 7" {
		t.Errorf("dot %q", got)
	}
	if !eval[bool](t, ctx, `document.querySelector('#b-7').classList.contains('linked') && document.querySelector('#l-7').classList.contains('sel')`) {
		t.Error("element H and its buffer cell are not linked")
	}
	if eval[bool](t, ctx, `document.querySelector('[data-testid=apply]').hidden`) {
		t.Error("the submit button is hidden without JavaScript")
	}
	shot(t, ctx, "explorer-nojs")

	// The GET form: change a stride and submit.
	do(t, ctx, "edit and submit",
		chromedp.SetValue(chromedp.CSS(`[data-testid=stride-0]`), "7"),
		chromedp.ScrollIntoView(chromedp.CSS(`[data-testid=apply]`)), chromedp.Click(chromedp.CSS(`[data-testid=apply]`)))
	// The new document's address comes before its body: wait for the whole page.
	waitFor(t, ctx, "the submitted page", `location.search.includes('strides=7') && document.readyState === 'complete'`)
	if got := eval[string](t, ctx, usedCells); got != "0,1,2,3,4,5,7,8,9,10,11,12" {
		t.Errorf("used cells %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=badge-padded]').dataset.state`); got != "yes" {
		t.Errorf("padded badge %q", got)
	}

	// A bad value shows its rule and keeps the last valid picture.
	do(t, ctx, "submit a bad alignment",
		chromedp.SetValue(chromedp.CSS(`[data-testid=align]`), "3"),
		chromedp.ScrollIntoView(chromedp.CSS(`[data-testid=apply]`)), chromedp.Click(chromedp.CSS(`[data-testid=apply]`)))
	waitFor(t, ctx, "the error page", `location.search.includes('align=3') && document.readyState === 'complete'`)
	if got := ruleOf(eval[string](t, ctx, `document.querySelector('[data-testid=err-guaranteedBaseOffsetAlignment]').textContent`)); got != "guaranteedBaseOffsetAlignment 3 must be 0 or a power of two" {
		t.Errorf("error %q", got)
	}
	if got := eval[string](t, ctx, usedCells); got != "0,1,2,3,4,5,7,8,9,10,11,12" {
		t.Errorf("the last valid picture is gone: %q", got)
	}

	// A canvas view of up to 4,096 cells shows the state's SVG picture.
	do(t, ctx, "load a 64x63 tensor", chromedp.Navigate(base+"/?sizes=64,63&strides=64,1"))
	waitFor(t, ctx, "the SVG picture in place of the canvases", `(() => { const i = document.querySelector('[data-testid=logical-noscript-svg]'); return i && i.complete && i.naturalWidth > 0; })()`)
	if got := eval[string](t, ctx, `new URL(document.querySelector('[data-testid=logical-noscript-svg]').src).pathname`); got != "/api/v1/layout.svg" {
		t.Errorf("the picture is %q", got)
	}
	if !strings.Contains(eval[string](t, ctx, `document.querySelector('[data-testid=buffer-needs-js]').textContent`), "drawn in the picture shown earlier") {
		t.Error("the buffer view does not point at the picture")
	}

	// Above the SVG's cap the page says the picture needs JavaScript, and
	// still gives every fact.
	do(t, ctx, "load a large tensor", chromedp.Navigate(base+"/?sizes=256,256&strides=260,1"))
	if !eval[bool](t, ctx, `getComputedStyle(document.querySelector('[data-testid=logical-needs-js]')).display !== 'none'`) {
		t.Error("no needs-JavaScript note")
	}
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=fact-logical] dd').textContent`); got != "65\u202f536" {
		t.Errorf("logical fact %q", got)
	}
}

func TestE2ELargeTensorCanvas(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	for _, tc := range []struct {
		name, query string
		cells       int
	}{
		{"64K", "/?dt=FLOAT32&sizes=256,256&strides=260,1", 256*260 - 4},
		{"16M", "/?dt=FLOAT16&sizes=1,16,1024,1024&strides=16777216,1,16384,16", 1 << 24},
	} {
		waitLive(t, ctx, base+tc.query)
		if got := eval[int](t, ctx, `document.querySelectorAll('[data-testid=lcell]').length`); got != 0 {
			t.Errorf("%s: %d DOM cells", tc.name, got)
		}
		if !eval[bool](t, ctx, `document.querySelector('#logical-canvas').width > 0 && document.querySelector('#buffer-canvas').width > 0`) {
			t.Fatalf("%s: canvases not drawn", tc.name)
		}
		if !eval[bool](t, ctx, `[...document.querySelectorAll('.progress')].every(p => p.hidden)`) {
			t.Errorf("%s: progress still shown after the last chunk", tc.name)
		}
		hoverAt(t, ctx, "#logical-canvas", 0.03, 0.05) // inside the first panel
		waitFor(t, ctx, "a dot product", `document.querySelector('#dot').textContent.includes(' · ')`)
		if tc.name == "16M" {
			// The 16 small multiples are captioned as in the DOM view.
			caps := eval[[]string](t, ctx, `[...document.querySelectorAll('#logical [data-testid=canvas-caption]')].map(e => e.textContent)`)
			if len(caps) != 16 || caps[0] != "C=0" || caps[15] != "C=15" {
				t.Errorf("captions %q", caps)
			}
			// The hovered element's offset is the dot product the page shows.
			dot := eval[string](t, ctx, `document.querySelector('#dot').textContent`)
			if !strings.HasPrefix(dot, "{0,") || !strings.Contains(dot, "} · {16777216,1,16384,16} = ") {
				t.Errorf("dot %q", dot)
			}
			shot(t, ctx, "explorer-16m")
		} else {
			shot(t, ctx, "explorer-64k")
		}
		// Keyboard on the canvas moves a cursor and announces it.
		do(t, ctx, "focus the canvas", chromedp.Focus(chromedp.CSS("#logical-canvas")))
		do(t, ctx, "arrow right", chromedp.KeyEvent(kb.ArrowRight))
		if got := eval[string](t, ctx, `new URLSearchParams(location.search).get('sel') || ''`); got == "" {
			t.Errorf("%s: the canvas cursor is not in the URL", tc.name)
		}
	}
}

// TestE2ECanvasKeyboard: a canvas is linked from the keyboard as the DOM
// cells are: the arrows move along the last two dimensions, Home and End
// along a row, the focused element goes into the URL, and #dot (a live
// region) names it with the offset core computes.
func TestE2ECanvasKeyboard(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	// A focused page, so that focusing the canvas fires its focus event
	// as a Tab would.
	if _, err := chromedp.Call(ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	// 64x64 with rows padded to 65: above the DOM limit, so canvases.
	waitLive(t, ctx, base+"/?sizes=64,64&strides=65,1")
	if got := eval[string](t, ctx, `[...document.querySelectorAll('[data-mode]')].map(e => e.dataset.mode).join(',')`); got != "canvas,canvas" {
		t.Fatalf("modes %s", got)
	}
	if got := eval[int](t, ctx, `document.querySelectorAll('.lc, .bc').length`); got != 0 {
		t.Errorf("%d DOM cells beside the canvases", got)
	}
	l, err := core.NewLayout(core.TensorDesc{DataType: core.Float32, Sizes: []int64{64, 64}, Strides: []int64{65, 1}})
	if err != nil {
		t.Fatal(err)
	}
	do(t, ctx, "focus the logical canvas", chromedp.Focus(chromedp.CSS("#logical-canvas")))
	for _, step := range []struct {
		key   string
		coord []int64
	}{
		{"", []int64{0, 0}},
		{kb.ArrowDown, []int64{1, 0}},
		{kb.ArrowRight, []int64{1, 1}},
		{kb.End, []int64{1, 63}},
		{kb.ArrowRight, []int64{1, 63}}, // the row's end: no move
		{kb.ArrowUp, []int64{0, 63}},
		{kb.Home, []int64{0, 0}},
	} {
		if step.key != "" {
			do(t, ctx, "press "+step.key, chromedp.KeyEvent(step.key))
		}
		off, err := l.Offset(step.coord)
		if err != nil {
			t.Fatal(err)
		}
		sel := fmt.Sprintf("%d,%d", step.coord[0], step.coord[1])
		waitFor(t, ctx, "element "+sel, fmt.Sprintf(`new URLSearchParams(location.search).get('sel') === %q && document.querySelector('#dot').textContent.endsWith(' = %d')`, sel, off))
	}
	if got := eval[string](t, ctx, `document.querySelector('#dot').getAttribute('aria-live')`); got != "polite" {
		t.Errorf("#dot aria-live %q", got)
	}
	// The buffer canvas wraps at the row pitch, 65 cells: End reaches the
	// padding cell 64.
	do(t, ctx, "focus the buffer canvas", chromedp.Focus(chromedp.CSS("#buffer-canvas")))
	do(t, ctx, "press End", chromedp.KeyEvent(kb.End))
	waitFor(t, ctx, "buffer cell 64", `new URLSearchParams(location.search).get('cell') === '64' && document.querySelector('#dot').textContent === 'buffer offset 64 is padding: no element lives there'`)
	do(t, ctx, "press ArrowDown", chromedp.KeyEvent(kb.ArrowDown))
	waitFor(t, ctx, "buffer cell 129", `document.querySelector('#dot').textContent === 'buffer offset 129 is padding: no element lives there'`)
	do(t, ctx, "press ArrowLeft", chromedp.KeyEvent(kb.ArrowLeft))
	off, _ := l.Offset([]int64{1, 63})
	waitFor(t, ctx, "buffer cell 128", fmt.Sprintf(`document.querySelector('#dot').textContent === 'buffer offset %d holds element (1,63)'`, off))
}

// TestE2EDecimalCommaStaysInItsBox: a Brazilian or French learner who
// types 2,5 in a stride box is told that box's number is not whole, at
// that box: the comma was read as the list's separator, and the error was
// a count of strides, under the next box.
func TestE2EDecimalCommaStaysInItsBox(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	for _, c := range []struct{ page, box, err string }{
		{"/?lang=pt-BR&dt=FLOAT32&sizes=2,3&strides=3,1", "stride-0", "strides"},
		{"/slice?lang=fr&preset=example2", "wstride-2", "inputWindowStrides[2]"},
	} {
		waitLive(t, ctx, base+c.page)
		typeInto(t, ctx, "a decimal comma", `[data-testid=`+c.box+`]`, "2,5")
		waitFor(t, ctx, "the answer", `document.querySelector('#picture').dataset.state === 'invalid'`)
		errs := eval[string](t, ctx, `[...document.querySelectorAll('[data-error-for]')].filter(p => !p.hidden).map(p => p.dataset.errorFor + ': ' + p.textContent).join(' | ')`)
		if !strings.Contains(errs, "2.5") || strings.Contains(errs, "DimensionCount") {
			t.Errorf("%s: %q, want the box's number refused, not a count", c.page, errs)
		}
		if got := eval[string](t, ctx, `document.querySelector('[data-testid=`+c.box+`]').getAttribute('aria-invalid')`); got != "true" {
			t.Errorf("%s: the box's aria-invalid %q", c.page, got)
		}
	}
}

// TestE2ELongOffsetsKeepToTheirCells: corner numbers of seven to ten
// digits (a stride of 3,000,000) stay inside their cells, on a phone and
// a desktop: they ran into each other's, "3000000300000013000002".
func TestE2ELongOffsetsKeepToTheirCells(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	const overflowing = `[...document.querySelectorAll('.logical .lc')].filter(c => { const o = c.querySelector('.off'), r = o.getBoundingClientRect(), b = c.getBoundingClientRect();
		return o.scrollWidth > o.clientWidth + 1 || r.left < b.left || r.right > b.right; }).map(c => c.querySelector('.off').dataset.o).join(' ')`
	for _, vp := range []viewport{phone, desktop} {
		emulate(t, ctx, vp)
		for _, strides := range []string{"3000000,1", "300000000,1", "2147483647,1"} {
			waitLive(t, ctx, base+"/?dt=UINT8&sizes=2,3&strides="+strides)
			if got := eval[string](t, ctx, overflowing); got != "" {
				t.Errorf("%s, strides %s: corner numbers past their cells: %s", vp.name, strides, got)
			}
		}
	}
}
