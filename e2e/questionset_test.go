package e2e

import (
	"context"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestE2ERoomSliceQuestion (issue #41): a presenter and two students (one
// on a 390 px phone, one reading French) in a room on Example 2 of the
// DML_SLICE1 page. The presenter asks "tap every cell the slice reads";
// while it is open the students' pages hide what answers it (the reads,
// the copy order, the output's values, the facts); the phone taps the four
// cells read (5, 7, 13, 15), the French student the four a negative
// stride read from the wrong end gives (1, 3, 9, 11), two by tapping and
// two by keyboard (Enter picks, and does not jump to the output). The
// presenter's view groups the two answers, names the slip and draws each
// cell's picks; the reveal marks the right set and tells each student how
// their set answered. Then "which input element does output (0,0,1,0)
// come from", tapped and typed. A last question goes stale when the presenter
// picks another example: both sides say so, and the class's picture is
// no longer hidden. Every view is axe-core clean.
func TestE2ERoomSliceQuestion(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	waitLive(t, presenter, base+"/slice?preset=example2")
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting' && !`+qs("q-panel")+`.hidden`)
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)

	phone, fr := newBrowserContext(t, presenter), newBrowserContext(t, presenter)
	do(t, phone, "a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch))
	students := []struct {
		name string
		ctx  context.Context
		url  string
	}{{"the phone", phone, join}, {"fr", fr, join + "?lang=fr"}}
	for _, s := range students {
		waitLive(t, s.ctx, s.url)
		waitFor(t, s.ctx, s.name+" following", roomState+` === 'following' && !!document.querySelector('#in-5')`)
	}
	waitFor(t, presenter, "two watching", watching+` === '2'`)

	do(t, presenter, "pick the reads question", chromedp.Evaluate[chromedp.Void](`(() => { const k = document.querySelector('[data-testid=q-kind]'); k.value = 'reads'; k.dispatchEvent(new Event('change')); })()`))
	waitFor(t, presenter, "no element to type", `getComputedStyle(document.querySelector('.q-element')).display === 'none'`)
	do(t, presenter, "ask", chromedp.Click(chromedp.CSS(`[data-testid=q-ask]`)))
	waitFor(t, presenter, "the question open", `!`+qs("q-live")+`.hidden && `+qs("q-count")+`.textContent === '0'`)

	hidden := `['#slice-facts', '#slice-steps', '#slice-buffer', '#out-0 .lbl', '#in-5 .badge-n'].every((s) => getComputedStyle(document.querySelector(s)).visibility === 'hidden') &&
		getComputedStyle(document.querySelector('#in-5')).backgroundColor === getComputedStyle(document.querySelector('#in-4')).backgroundColor &&
		document.querySelector('#out-0').getAttribute('aria-label') === '(0,0,0,0)' && !document.querySelector('#in-5').getAttribute('aria-label').includes('0,0,0,0')`
	prompts := map[string]string{"the phone": "Tap every input cell the slice reads", "fr": "Touchez chaque case de l'entrée que la tranche lit"}
	for _, s := range students {
		waitFor(t, s.ctx, s.name+": the question, the answer hidden", `document.body.dataset.asking === 'reads' && `+qs("q-prompt")+`.textContent.startsWith(`+jsString(prompts[s.name])+`) && getComputedStyle(`+qs("q-value")+`.closest('label')).display === 'none' && `+hidden)
		if vs := axeViolations(t, s.ctx); len(vs) > 0 {
			t.Errorf("%s, question open: axe:\n%s", s.name, strings.Join(vs, "\n"))
		}
	}
	if w := eval[int](t, phone, overflow(390)); w > 0 {
		t.Errorf("the phone's page is %d px wider than its screen with the question", w)
	}

	// The phone taps the right four (one twice: taken back, then again).
	for _, c := range []string{"5", "7", "13", "13", "13", "15"} {
		do(t, phone, "tap input cell "+c, chromedp.Click(chromedp.CSS(`#in-`+c)))
	}
	waitFor(t, phone, "four picked", qs("q-status")+`.textContent.startsWith('4 cells picked') && document.querySelectorAll('#picture [data-picked]').length === 4 && document.querySelector('#in-13').getAttribute('aria-selected') === 'true'`)
	// The presenter steps through the copy meanwhile: the question stays
	// open, and the phone's picks stay on the cells redrawn (patched in
	// place since #38: the answer's attributes put back, the picks marked
	// again).
	stepText := eval[string](t, phone, `document.querySelector('[data-testid=step-count]').textContent`)
	do(t, presenter, "step", chromedp.Click(chromedp.CSS(`[data-testid=step-next]`)))
	do(t, presenter, "step again", chromedp.Click(chromedp.CSS(`[data-testid=step-next]`)))
	waitFor(t, phone, "the presenter's step, the cells redrawn, the picks kept", `document.querySelector('[data-testid=step-count]').textContent !== `+jsString(stepText)+` &&
		document.body.dataset.asking === 'reads' && document.querySelectorAll('#slice-input .lc.cur').length > 0 &&
		[...document.querySelectorAll('#slice-input .lc.cur')].every((c) => getComputedStyle(c).boxShadow === 'none' && getComputedStyle(c).backgroundColor === 'rgb(255, 255, 255)') &&
		[5, 7, 13, 15].every((v) => document.querySelector('#in-' + v).dataset.picked === '' && document.querySelector('#in-' + v).getAttribute('aria-selected') === 'true')`)
	do(t, phone, "send", chromedp.Click(chromedp.CSS(`[data-testid=q-send]`)))
	waitFor(t, phone, "the phone's set taken", qs("q-status")+`.textContent.startsWith('Your 4 cells are in')`)

	// fr: two taps, then two by keyboard.
	do(t, fr, "tap 1", chromedp.Click(chromedp.CSS(`#in-1`)))
	do(t, fr, "tap 3", chromedp.Click(chromedp.CSS(`#in-3`)))
	for _, c := range []string{"9", "11"} {
		do(t, fr, "focus "+c, chromedp.Focus(chromedp.CSS(`#in-`+c)))
		do(t, fr, "Enter on "+c, chromedp.KeyEvent("\r"))
	}
	waitFor(t, fr, "four picked by taps and keys, the focus kept", `document.querySelectorAll('#picture [data-picked]').length === 4 && document.activeElement.id === 'in-11' && `+qs("q-status")+`.textContent.startsWith('4 cases choisies')`)
	do(t, fr, "send", chromedp.Click(chromedp.CSS(`[data-testid=q-send]`)))
	waitFor(t, fr, "fr's set taken", qs("q-status")+`.textContent.startsWith('Vos 4 cases sont reçues')`)

	dist := qs("q-dist")
	waitFor(t, presenter, "2 answers grouped, the slip named, the heat", qs("q-count")+`.textContent === '2' && `+dist+`.children.length === 2 &&
		`+dist+`.querySelector('[data-group=exact]').classList.contains('right') && `+dist+`.querySelector('[data-group=both]').textContent.includes('a negative stride read from the wrong end') &&
		document.querySelector('#in-5').dataset.heat === '1' && document.querySelector('#in-1').dataset.heat === '1' && !document.querySelector('#in-0').dataset.heat &&
		`+qs("q-why")+`.textContent.includes('{0} × {0} × {3, 1} × {1, 3}')`)
	if vs := axeViolations(t, presenter); len(vs) > 0 {
		t.Errorf("the presenter, answers in: axe:\n%s", strings.Join(vs, "\n"))
	}
	// The presenter types values: the input is redrawn, the question stays
	// open (its answer is the same), and the heat stays on the cells
	// (patched in place since #38, their labels the new values).
	typeInto(t, presenter, "values", `#f-vals`, "9,8,7")
	waitFor(t, presenter, "the input redrawn, the heat kept", `document.querySelector('#in-5').dataset.heat === '1' && document.querySelector('#in-1').dataset.heat === '1' && `+qs("q-count")+`.textContent === '2' && `+qs("q-close")+`.checkVisibility() && document.querySelector('#in-5 .lbl').textContent !== '6'`)
	for _, s := range students {
		if leak := eval[string](t, s.ctx, `[`+qs("q-result")+`.hidden ? '' : 'the result', `+dist+`.children.length ? 'the distribution' : '', document.querySelector('#picture [data-heat]') ? 'the heat' : '', document.querySelector('#picture [data-answer]') ? 'the answer' : ''].filter(Boolean).join(', ')`); leak != "" {
			t.Errorf("%s sees %s before the reveal", s.name, leak)
		}
	}

	do(t, presenter, "reveal", chromedp.Click(chromedp.CSS(`[data-testid=q-reveal]`)))
	mine := map[string]string{"the phone": "Your cells are exactly the ones the slice reads.", "fr": "Il manque à vos cases certaines que la tranche lit, et d'autres sont en trop."}
	for _, s := range students {
		waitFor(t, s.ctx, s.name+": the reveal", `!`+qs("q-result")+`.hidden && `+qs("q-why")+`.textContent.includes('{0} × {0} × {3, 1} × {1, 3}') && `+dist+`.children.length === 2 &&
			`+qs("q-status")+`.textContent === `+jsString(mine[s.name])+` && document.body.dataset.asking === undefined &&
			[5, 7, 13, 15].every((v) => document.querySelector('#in-' + v).dataset.answer === '') && document.querySelectorAll('#picture [data-answer]').length === 4 &&
			document.querySelector('#in-5').dataset.heat === '1' && getComputedStyle(document.querySelector('#slice-facts')).visibility === 'visible'`)
		if vs := axeViolations(t, s.ctx); len(vs) > 0 {
			t.Errorf("%s, revealed: axe:\n%s", s.name, strings.Join(vs, "\n"))
		}
	}
	// The presenter points at a cell: the students' reveal stays drawn.
	do(t, presenter, "point at input cell 0", chromedp.Click(chromedp.CSS(`#in-0`)))
	waitFor(t, phone, "the presenter's pointer, the reveal kept", `document.querySelector('#in-0').classList.contains('sel') || document.querySelector('#in-0').classList.contains('linked') || document.querySelector('#in-0').classList.contains('peer')`)
	waitFor(t, phone, "the reveal kept", `document.querySelectorAll('#picture [data-answer]').length === 4 && document.querySelector('#in-5').dataset.heat === '1'`)
	shot(t, presenter, "room-slice-question-presenter")
	shot(t, phone, "room-slice-question-phone")

	// Which input element does output element (0,0,1,0) come from? (0,0,1,1),
	// input cell 5: the phone taps it, fr types its coordinates.
	setKind := func(k string) {
		do(t, presenter, "pick "+k, chromedp.Evaluate[chromedp.Void](`(() => { const k = document.querySelector('[data-testid=q-kind]'); k.value = '`+k+`'; k.dispatchEvent(new Event('change')); })()`))
	}
	setKind("source")
	typeInto(t, presenter, "output element (0,0,1,0)", `[data-testid=q-element]`, "0,0,1,0")
	do(t, presenter, "ask", chromedp.Click(chromedp.CSS(`[data-testid=q-ask]`)))
	for _, s := range students {
		waitFor(t, s.ctx, s.name+": the source question", `document.body.dataset.asking === 'source' && `+qs("q-prompt")+`.textContent.includes('(0, 0, 1, 0)') && getComputedStyle(`+qs("q-value")+`.closest('label')).display !== 'none' && !document.querySelector('#picture [data-answer]')`)
	}
	do(t, phone, "tap input cell 5", chromedp.Click(chromedp.CSS(`#in-5`)))
	waitFor(t, phone, "the phone's answer taken", qs("q-status")+`.textContent.includes('(0, 0, 1, 1)')`)
	typeInto(t, fr, "type 0,0,1,1", `[data-testid=q-value]`, "0,0,1,1")
	do(t, fr, "send", chromedp.Click(chromedp.CSS(`[data-testid=q-send]`)))
	waitFor(t, fr, "fr's answer taken", qs("q-status")+`.textContent.includes('(0, 0, 1, 1)')`)
	waitFor(t, presenter, "2 right answers on input cell 5", qs("q-count")+`.textContent === '2' && `+dist+`.querySelector('[data-value="5"]').classList.contains('right') && document.querySelector('#in-5').dataset.heat === '2'`)
	do(t, presenter, "reveal", chromedp.Click(chromedp.CSS(`[data-testid=q-reveal]`)))
	waitFor(t, phone, "the phone right", qs("q-status")+`.textContent === 'Your answer, (0, 0, 1, 1), is right.'`)

	// MaxCopiedElements on axis 3 (window 3, stride 2): typed; the output
	// and the per-axis table, which say it, are hidden meanwhile. The
	// phone types 2, fr types 1 (3 / 2, the slip named).
	setKind("maxcopied")
	typeInto(t, presenter, "axis 3", `[data-testid=q-axis]`, "3")
	do(t, presenter, "ask", chromedp.Click(chromedp.CSS(`[data-testid=q-ask]`)))
	for _, s := range students {
		waitFor(t, s.ctx, s.name+": the count question", `document.body.dataset.asking === 'maxcopied' && `+qs("q-prompt")+`.textContent.includes('3') && getComputedStyle(document.querySelector('#slice-output')).visibility === 'hidden' && getComputedStyle(document.querySelector('[data-testid=dimfacts]')).visibility === 'hidden'`)
	}
	for _, a := range []struct {
		ctx   context.Context
		value string
	}{{phone, "2"}, {fr, "1"}} {
		typeInto(t, a.ctx, "type "+a.value, `[data-testid=q-value]`, a.value)
		do(t, a.ctx, "send", chromedp.Click(chromedp.CSS(`[data-testid=q-send]`)))
		waitFor(t, a.ctx, "taken", qs("q-status")+`.textContent.includes(`+jsString(a.value)+`)`)
	}
	waitFor(t, presenter, "2 counts, the slip named", qs("q-count")+`.textContent === '2' && `+dist+`.querySelector('[data-value="2"]').classList.contains('right') && `+dist+`.querySelector('[data-value="1"]').textContent.includes('|')`)
	do(t, presenter, "reveal", chromedp.Click(chromedp.CSS(`[data-testid=q-reveal]`)))
	waitFor(t, phone, "the phone right, the working shown", qs("q-status")+`.textContent === 'Your answer, 2, is right.' && `+qs("q-why")+`.textContent.includes('1 + (3 − 1) / |2|')`)
	if vs := axeViolations(t, phone); len(vs) > 0 {
		t.Errorf("the phone, count revealed: axe:\n%s", strings.Join(vs, "\n"))
	}

	// Asked again, then the presenter picks Example 1: the slice reads
	// other cells, so the question closes, stale, on every screen.
	setKind("reads")
	do(t, presenter, "ask again", chromedp.Click(chromedp.CSS(`[data-testid=q-ask]`)))
	for _, s := range students {
		waitFor(t, s.ctx, s.name+": asked again", `document.body.dataset.asking === 'reads' && `+qs("q-result")+`.hidden && !document.querySelector('#picture [data-answer]')`)
	}
	do(t, phone, "tap 5", chromedp.Click(chromedp.CSS(`#in-5`)))
	do(t, presenter, "Example 1", chromedp.Click(chromedp.CSS(`[data-testid=preset-example1]`)))
	stale := map[string]string{"the phone": "The presenter changed the picture: this question is closed.", "fr": "La personne qui présente a changé le dessin : cette question est close."}
	for _, s := range students {
		waitFor(t, s.ctx, s.name+": stale", qs("q-status")+`.textContent.replace(/\s+/g, ' ') === `+jsString(stale[s.name])+` && document.body.dataset.asking === undefined &&
			getComputedStyle(`+qs("q-answer-form")+`).display === 'none' && !document.querySelector('#picture [data-picked]') && document.querySelector('#in-1').classList.contains('read') &&
			getComputedStyle(document.querySelector('#slice-facts')).visibility === 'visible'`)
		if vs := axeViolations(t, s.ctx); len(vs) > 0 {
			t.Errorf("%s, stale: axe:\n%s", s.name, strings.Join(vs, "\n"))
		}
	}
	waitFor(t, presenter, "the presenter told", qs("q-error")+`.textContent.startsWith('You changed the picture') && !`+qs("q-close")+`.checkVisibility() && !document.querySelector('#picture [data-heat]')`)
}

// TestE2ERoomQuestionHeatOnCanvas (#41): on a 20×20 tensor the layout
// explorer draws its views on canvases (past 256 cells), where no cell can
// carry the heat. Two students type which buffer cell holds element
// (1,2): the presenter's buffer canvas shows both picks at cell 22 in the
// darkest heat; one changes to 21 and each cell gets the middle one; a
// student's canvas shows none of it before the reveal.
func TestE2ERoomQuestionHeatOnCanvas(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	waitLive(t, presenter, base+"/?dt=FLOAT32&sizes=20,20")
	waitFor(t, presenter, "the buffer on a canvas", `!!document.querySelector('#buffer-canvas')?.drawn`)
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting' && !`+qs("q-panel")+`.hidden`)
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)
	a, b := newBrowserContext(t, presenter), newBrowserContext(t, presenter)
	for _, s := range []context.Context{a, b} {
		waitLive(t, s, join)
		waitFor(t, s, "following, on a canvas", roomState+` === 'following' && !!document.querySelector('#buffer-canvas')?.drawn`)
	}
	waitFor(t, presenter, "two watching", watching+` === '2'`)
	do(t, presenter, "ask (1,2)", chromedp.Click(chromedp.CSS(`[data-testid=q-ask]`)))
	waitFor(t, presenter, "the question open", `!`+qs("q-live")+`.hidden`)

	pixel := func(k int) string {
		return `(() => { const c = document.querySelector('#buffer-canvas').drawn, [x, y] = c.L.toPixel(` + strconv.Itoa(k) + `), d = c.ctx.getImageData(x, y, 1, 1).data; return d[0] + ',' + d[1] + ',' + d[2]; })()`
	}
	answer := func(ctx context.Context, v string) {
		waitFor(t, ctx, "the question", `document.body.dataset.asking === 'cell'`)
		typeInto(t, ctx, "type "+v, `[data-testid=q-value]`, v)
		do(t, ctx, "send", chromedp.Click(chromedp.CSS(`[data-testid=q-send]`)))
		waitFor(t, ctx, "taken", qs("q-status")+`.textContent.includes('`+v+`')`)
	}
	before := eval[string](t, presenter, pixel(22))
	answer(a, "22")
	answer(b, "22")
	waitFor(t, presenter, "both picks at 22, darkest", qs("q-count")+`.textContent === '2' && `+pixel(22)+` === '122,40,0'`)
	if leak := eval[string](t, a, pixel(22)); leak != before {
		t.Errorf("a student's canvas shows %s at cell 22 before the reveal, not the picture's %s", leak, before)
	}
	answer(b, "21")
	waitFor(t, presenter, "one pick each, the middle heat", pixel(22)+` === '190,80,0' && `+pixel(21)+` === '190,80,0'`)
	do(t, presenter, "done", chromedp.Click(chromedp.CSS(`[data-testid=q-dismiss]`)))
	waitFor(t, presenter, "the heat gone", pixel(22)+` === `+jsString(before))
}
