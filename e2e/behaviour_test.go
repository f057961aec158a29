package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/stridescope/stridescope/core"
)

// done is true once the picture of the last edit is drawn.
const done = `document.body.dataset.live === 'ready' && document.querySelector('#picture').dataset.state === 'done'`

// bufferSub is the physical buffer's subtitle: "10 elements of 32 bits = 40 bytes".
const bufferSub = `document.querySelector('[data-testid=buffer-sub]').textContent`

// TestE2ETourStepKeepsItsExampleWithViewKeys: on the projector, a query
// that only says how to show a step keeps the step's tensor once the page
// is live (issue #13, 2).
func TestE2ETourStepKeepsItsExampleWithViewKeys(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	for _, q := range []string{"?labels=offset", "?labels=index&sel=1,1", "?room=BCDFGH"} {
		waitLive(t, ctx, base+"/tour/7"+q)
		if got := eval[string](t, ctx, bufferSub); got != "10 elements of 32 bits = 40 bytes" {
			t.Errorf("/tour/7%s: buffer %q, want the padded A B C x x D E F x x", q, got)
		}
		if got := eval[string](t, ctx, `document.querySelector('[data-testid=stride-0]').value`); got != "5" {
			t.Errorf("/tour/7%s: H-stride %q", q, got)
		}
	}
}

// TestE2EInvalidURLShowsNoTensor: a fresh load of an invalid URL shows
// the errors and no tensor nobody entered; fixing the error draws it
// (issue #13, 7).
func TestE2EInvalidURLShowsNoTensor(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	do(t, ctx, "open an invalid URL", chromedp.Navigate(base+"/?sizes=2,0"))
	waitFor(t, ctx, "the invalid answer", `document.body.dataset.live === 'ready' && document.querySelector('#picture').dataset.state === 'invalid'`)
	if n := eval[int](t, ctx, `document.querySelectorAll('#picture .lc, #picture .bc, [data-testid=badges]').length`); n != 0 {
		t.Errorf("%d cells or badges drawn for a tensor nobody entered", n)
	}
	if got := eval[string](t, ctx, `document.querySelector('#stale').textContent`); got != "The inputs have errors: fix them to see a picture." {
		t.Errorf("stale %q", got)
	}
	if got := eval[string](t, ctx, `location.search`); got != "?sizes=2,0" {
		t.Errorf("URL %q: no last valid state to carry", got)
	}
	typeInto(t, ctx, "fix the size", `[data-testid=size-1]`, "3")
	waitFor(t, ctx, "the fixed tensor", done+` && document.querySelectorAll('#logical .lc').length === 6`)

	do(t, ctx, "open an invalid slice", chromedp.Navigate(base+"/slice?sizes=4,4&woff=0,0&wsize=0,4&wstride=1,1"))
	waitFor(t, ctx, "the invalid slice", `document.body.dataset.live === 'ready' && document.querySelector('#picture').dataset.state === 'invalid'`)
	if n := eval[int](t, ctx, `document.querySelectorAll('#picture .lc, #picture .bc').length`); n != 0 {
		t.Errorf("%d cells drawn for a slice nobody entered", n)
	}
}

// TestE2ETypingAStrideWhilePacked: the stride boxes show the packed
// strides; typing one switches to explicit strides (issue #13, 4).
func TestE2ETypingAStrideWhilePacked(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	for _, p := range []struct{ path, want string }{
		{"/", "8 elements of 32 bits = 32 bytes"},               // 2x3, strides {5,1}
		{"/slice?sizes=2,3&woff=0,0&wsize=2,3&wstride=1,1", ""}, // the input's strides
	} {
		waitLive(t, ctx, base+p.path)
		if !eval[bool](t, ctx, `document.querySelector('[data-testid=mode-packed]').checked`) {
			t.Fatalf("%s: not packed", p.path)
		}
		typeInto(t, ctx, "type an H-stride", `[data-testid=stride-0]`, "5")
		waitFor(t, ctx, "explicit strides", done+` && location.search.includes('strides=5,1') && document.querySelector('[data-testid=mode-explicit]').checked`)
		if p.want != "" {
			if got := eval[string](t, ctx, bufferSub); got != p.want {
				t.Errorf("%s: buffer %q", p.path, got)
			}
		}
	}
}

// TestE2EBackForwardAndUndoStepThroughEdits: edits push history entries,
// so Back and Forward step through them, as do Ctrl+Z, Ctrl+Y and the
// Undo and Redo buttons; Undo never leaves the page; Reset returns to the
// example (issue #13, 6).
func TestE2EBackForwardAndUndoStepThroughEdits(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/tour/2")
	buffer := func() string { return eval[string](t, ctx, bufferLabels) }
	disabled := func(b string) bool {
		return eval[bool](t, ctx, `document.querySelector('[data-testid=`+b+`]').disabled`)
	}
	if !disabled("undo") || !disabled("redo") || eval[bool](t, ctx, `document.querySelector('[data-testid=undo]').hidden`) {
		t.Fatalf("before any edit: Undo and Redo should show, disabled")
	}
	hw := buffer() // A B C D E F
	do(t, ctx, "the WH example", chromedp.Click(chromedp.CSS(`[data-testid=preset-WH]`)))
	waitFor(t, ctx, "WH", done+` && location.search.includes('strides=1,2')`)
	typeInto(t, ctx, "a size", `[data-testid=size-1]`, "4")
	waitFor(t, ctx, "2x4", done+` && location.search.includes('sizes=2,4')`)
	wh := "A D B E C F"

	do(t, ctx, "Back", chromedp.Evaluate[chromedp.Void](`history.back()`))
	waitFor(t, ctx, "WH again", done+` && location.search.includes('sizes=2,3&strides=1,2') && location.pathname === '/tour/2'`)
	if got := buffer(); got != wh {
		t.Errorf("after Back: buffer %q", got)
	}
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=size-1]').value`); got != "3" {
		t.Errorf("after Back: size %q, want the form of the entry", got)
	}
	do(t, ctx, "Forward", chromedp.Evaluate[chromedp.Void](`history.forward()`))
	waitFor(t, ctx, "2x4 again", done+` && location.search.includes('sizes=2,4')`)

	do(t, ctx, "focus the page", chromedp.Evaluate[chromedp.Void](`document.activeElement.blur()`))
	do(t, ctx, "Ctrl+Z", chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	waitFor(t, ctx, "WH after Ctrl+Z", done+` && location.search.includes('sizes=2,3&strides=1,2')`)
	do(t, ctx, "Undo", clickInView(`[data-testid=undo]`))
	waitFor(t, ctx, "the step's own state", done+` && location.pathname === '/tour/2' && location.search === ''`)
	if got := buffer(); got != hw {
		t.Errorf("after Undo: buffer %q, want the step's %q", got, hw)
	}
	if !disabled("undo") {
		t.Errorf("Undo enabled at the first state: it would leave the page")
	}
	do(t, ctx, "Ctrl+Z at the first state", chromedp.KeyEvent("z", chromedp.KeyModifiers(chromedp.ModifierCtrl)))
	do(t, ctx, "Redo", clickInView(`[data-testid=redo]`))
	waitFor(t, ctx, "WH after Redo", done+` && location.pathname === '/tour/2' && location.search.includes('strides=1,2')`)
	if got := buffer(); got != wh {
		t.Errorf("after Redo: buffer %q", got)
	}

	typeInto(t, ctx, "a size", `[data-testid=size-1]`, "4")
	waitFor(t, ctx, "2x4", done+` && location.search.includes('sizes=2,4')`)
	do(t, ctx, "Reset", clickInView(`[data-testid=reset]`))
	waitFor(t, ctx, "the example picked", done+` && location.search.includes('sizes=2,3&strides=1,2')`)
	if got := buffer(); got != wh {
		t.Errorf("after Reset: buffer %q", got)
	}
	do(t, ctx, "Undo the reset", clickInView(`[data-testid=undo]`))
	waitFor(t, ctx, "2x4 after undoing the reset", done+` && location.search.includes('sizes=2,4')`)
}

// TestE2ENumPyUseSendsOneEdit counts the websocket's edits: typing an
// expression sends its window, and Use does not send it again (issue
// #13). Typing goes out as typed, the keystrokes typed while an edit is
// in flight coalescing into the next one (issue #38): the last edit
// typing sent holds the whole expression, and Use adds none.
func TestE2ENumPyUseSendsOneEdit(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: `
		window.__edits = [];
		const send = WebSocket.prototype.send;
		WebSocket.prototype.send = function (d) { if (typeof d === 'string' && d.includes('"edit"')) window.__edits.push(JSON.parse(d).query); return send.call(this, d); };`}); err != nil {
		t.Fatal(err)
	}
	waitLive(t, ctx, base+"/slice")
	do(t, ctx, "clear the count", chromedp.Evaluate[chromedp.Void](`window.__edits = []`))
	typeInto(t, ctx, "an expression", `[data-testid=np]`, "x[:, :, 1:3, ::-1]")
	waitFor(t, ctx, "the typed expression's picture", done+` && window.__edits.length >= 1 && new URLSearchParams(window.__edits.at(-1)).get('np') === 'x[:, :, 1:3, ::-1]'`)
	if n := eval[int](t, ctx, `window.__edits.length`); n > len("x[:, :, 1:3, ::-1]") {
		t.Errorf("%d edits for %d keystrokes", n, len("x[:, :, 1:3, ::-1]"))
	}
	typed := eval[int](t, ctx, `window.__edits.length`)
	do(t, ctx, "Use", chromedp.Click(chromedp.CSS(`[data-testid=use-np]`)))
	do(t, ctx, "settle", chromedp.Sleep(400e6))
	if got := eval[[]string](t, ctx, `window.__edits`); len(got) != typed {
		t.Errorf("Use sent the expression again: %q after the %d edits typing sent", got[typed:], typed)
	}

	// An expression that does not parse leaves the URL alone.
	before := eval[string](t, ctx, `location.search`)
	typeInto(t, ctx, "a bad expression", `[data-testid=np]`, "x[1:")
	waitFor(t, ctx, "the expression's error", `!document.querySelector('[data-testid="err-expression"]').hidden`)
	if got := eval[string](t, ctx, `location.search`); got != before {
		t.Errorf("URL after a bad expression %q, want %q", got, before)
	}
}

// ruleOf is the rule a page's error gives after its words ("The size of
// dimension W is 0: ... — sizes[1] == 0: ..."), or the whole message.
func ruleOf(msg string) string {
	if _, rule, ok := strings.Cut(msg, " — "); ok {
		return rule
	}
	return msg
}

// TestE2ECopyButtons: the C++, NumPy and ONNX blocks and both embed
// snippets have Copy buttons that copy what they show, also after an
// edit (issue #13, 9).
func TestE2ECopyButtons(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	for _, name := range []string{"clipboard-read", "clipboard-write"} {
		if _, err := chromedp.CallBrowser(ctx, browser.SetPermission, browser.SetPermissionParams{
			Permission: &browser.PermissionDescriptor{Name: name}, Setting: browser.PermissionSettingGranted, Origin: base}); err != nil {
			t.Fatal(err)
		}
	}
	// The clipboard wants a focused page.
	if _, err := chromedp.Call(ctx, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true}); err != nil {
		t.Fatal(err)
	}
	clip := func() string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](`navigator.clipboard.readText()`, chromedp.EvalAwaitPromise))
		if err != nil {
			t.Fatalf("read the clipboard: %v", err)
		}
		return v
	}
	waitLive(t, ctx, base+"/?preset=padded")
	do(t, ctx, "the NCHW example", chromedp.Click(chromedp.CSS(`[data-testid=preset-NCHW]`)))
	waitFor(t, ctx, "NCHW", done+` && location.search.includes('sizes=1,1,3,5')`)
	do(t, ctx, "copy the C++", chromedp.Click(chromedp.CSS(`[data-testid=copy-cpp]`)))
	waitFor(t, ctx, "copied", `document.querySelector('[data-testid=copy-cpp]').textContent === 'Copied'`)
	if got, want := clip(), eval[string](t, ctx, `document.querySelector('[data-testid=cpp]').textContent`); got != want || !strings.Contains(got, "{1, 1, 3, 5}") {
		t.Errorf("clipboard %q, want the C++ of NCHW %q", got, want)
	}
	do(t, ctx, "open Embed", chromedp.Click(chromedp.CSS(`[data-testid=embed-button]`)))
	do(t, ctx, "copy the picture snippet", chromedp.Click(chromedp.CSS(`[data-testid=embed-picture-copy]`)))
	waitFor(t, ctx, "copied", `document.querySelector('[data-testid=embed-picture-copy]').textContent === 'Copied'`)
	if got := clip(); !strings.HasPrefix(got, `<img src="`+base+`/api/v1/layout.svg?dt=FLOAT32&amp;sizes=1,1,3,5`) {
		t.Errorf("picture snippet %q", got)
	}

	waitLive(t, ctx, base+"/slice?preset=example2")
	for _, id := range []string{"export-numpy", "export-onnx", "export-cpp"} {
		do(t, ctx, "copy "+id, chromedp.Click(chromedp.CSS(`[data-testid=copy-`+id+`]`)))
		waitFor(t, ctx, "copied", `document.querySelector('[data-testid=copy-`+id+`]').textContent === 'Copied'`)
		if got, want := clip(), eval[string](t, ctx, `document.querySelector('[data-testid=`+id+`]').textContent`); got != want || got == "" {
			t.Errorf("%s: clipboard %q, want %q", id, got, want)
		}
	}
}

// TestE2EPresentedTourStepShowsItsExample: presenting tour step 7 puts
// ?room= in the presenter's URL; the presenter's picture and the
// viewer's are still the padded A B C x x D E F x x (issue #13, 2).
func TestE2EPresentedTourStepShowsItsExample(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	viewer := newBrowserContext(t, presenter)
	waitLive(t, presenter, base+"/tour/7")
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting' && location.search.includes('room=') && `+done)
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)
	do(t, viewer, "open the join URL", chromedp.Navigate(join))
	waitFor(t, viewer, "the viewer on step 7", `document.querySelector('[data-testid=tour]')?.dataset.step === '7' && `+done)
	for name, ctx := range map[string]context.Context{"presenter": presenter, "viewer": viewer} {
		if got := eval[string](t, ctx, bufferLabels); got != "A B C x x D E F x x" {
			t.Errorf("%s: buffer %q, want the padded example", name, got)
		}
	}
	do(t, presenter, "reload the presenter's page", chromedp.Reload())
	waitFor(t, presenter, "presenting again", roomState+` === 'presenting' && `+done)
	if got := eval[string](t, presenter, bufferLabels); got != "A B C x x D E F x x" {
		t.Errorf("presenter after a reload: buffer %q", got)
	}
}

// TestE2EStateTheRowsCannotHoldKeepsItsError: a URL with nine dimensions,
// a list longer than the sizes or a rank the select cannot show keeps its
// error once the page is live; the rows (eight, or as many as the sizes) must not be sent in its
// place and drawn.
func TestE2EStateTheRowsCannotHoldKeepsItsError(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	for _, c := range []struct{ path, err string }{
		{"/?sizes=1,1,1,1,1,1,1,1,9", "sizes: DimensionCount 9 > 8"},
		{"/?sizes=2,3&strides=3,1,1", "strides"},
		{"/embed/layout?sizes=1,1,1,1,1,1,1,1,9", "sizes: DimensionCount 9 > 8"},
		{"/slice?sizes=1,1,1,1,1,1,1,1,2&woff=0,0,0,0,0,0,0,0,0&wsize=1,1,1,1,1,1,1,1,2&wstride=1,1,1,1,1,1,1,1,1", "inputSizes: DimensionCount 9 > 8"},
		{"/slice?sizes=4,4&woff=0,0,0&wsize=2,2&wstride=1,1", "inputWindowOffsets"},
		{"/?rank=9&sizes=4,5&strides=5,1&mode=explicit", `rank: rank "9"`},
		{"/slice?rank=abc&sizes=4,4&woff=0,0&wsize=2,2&wstride=1,1", `rank: rank "abc"`},
		{"/?sizes=2,3&strides=,,&mode=explicit", "strides"},
		{"/slice?sizes=4,4&woff=0,0&wsize=4,4&wstride=1,1&out=2", "outputSizes"},
	} {
		do(t, ctx, "open "+c.path, chromedp.Navigate(base+c.path))
		waitFor(t, ctx, "the live answer to "+c.path, `document.body.dataset.live === 'ready' && ['invalid', 'done'].includes(document.querySelector('#picture').dataset.state)`)
		if got := eval[string](t, ctx, `document.querySelector('#picture').dataset.state`); got != "invalid" {
			t.Errorf("%s: picture %q once live, want invalid", c.path, got)
		}
		errs := eval[string](t, ctx, `[...document.querySelectorAll('[data-error-for]')].filter(p => !p.hidden).map(p => p.dataset.errorFor + ': ' + p.textContent).join(' | ')`)
		if !strings.Contains(errs, c.err) {
			t.Errorf("%s: errors shown once live %q, want %q", c.path, errs, c.err)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('#picture .lc, #picture .bc').length`); n != 0 {
			t.Errorf("%s: %d cells drawn for a state with errors", c.path, n)
		}
	}
	// Back to the first entry after another edit sends the typed state,
	// not the rows; the eight rows shown keep their labels and the rank.
	do(t, ctx, "open nine dimensions", chromedp.Navigate(base+"/?sizes=1,1,1,1,1,1,1,1,9"))
	waitFor(t, ctx, "the invalid answer", `document.body.dataset.live === 'ready' && document.querySelector('#picture').dataset.state === 'invalid'`)
	if got := eval[string](t, ctx, `document.querySelector('[data-testid=rank]').value + ' ' + [...document.querySelectorAll('tr.dim:not([hidden]) th')].map(e => e.textContent).join('')`); got != "8 "+strings.Join(core.DimensionLabels(8), "") {
		t.Errorf("nine dimensions once live: rank and labels %q", got)
	}
	do(t, ctx, "show offsets", chromedp.SetValue(chromedp.CSS(`[data-testid=labels]`), "offset"))
	waitFor(t, ctx, "the edit's history entry", `location.search.includes('labels=offset')`)
	do(t, ctx, "go back", chromedp.NavigateBack())
	waitFor(t, ctx, "the first entry's answer", `document.body.dataset.live === 'ready' && !location.search.includes('labels=offset') && ['invalid', 'done'].includes(document.querySelector('#picture').dataset.state)`)
	if got := eval[string](t, ctx, `document.querySelector('#picture').dataset.state`); got != "invalid" {
		t.Errorf("back to nine dimensions: picture %q, want invalid", got)
	}
}
