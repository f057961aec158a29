package e2e

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestE2ERoomTourQuestion (#41): a presenter on tour step 4 asks the
// class the step's own question ("Where does L, element {1,1,2},
// live?") with one button, by keyboard; a student on a phone, reading
// the step in French, answers 11 by tapping the buffer cell; the
// presenter sees the answer, and the reveal shows its dot product to
// the student. Both views are axe-core clean.
func TestE2ERoomTourQuestion(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	waitLive(t, presenter, base+"/tour/4")
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting' && !`+qs("q-panel")+`.hidden && !!`+qs("q-tour"))
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)

	phone := newBrowserContext(t, presenter)
	do(t, phone, "a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch))
	waitLive(t, phone, join+"?lang=fr")
	waitFor(t, phone, "following", roomState+` === 'following'`)

	do(t, presenter, "focus the step's question", chromedp.Focus(chromedp.CSS(`[data-testid=q-tour]`)))
	do(t, presenter, "press Enter", chromedp.KeyEvent("\r"))
	waitFor(t, presenter, "the question open", `!`+qs("q-live")+`.hidden && `+qs("q-prompt")+`.textContent.includes('(1, 1, 2)')`)
	if vs := axeViolations(t, presenter); len(vs) > 0 {
		t.Errorf("the presenter, the step's question open: axe:\n%s", strings.Join(vs, "\n"))
	}
	waitFor(t, phone, "the step's question", `document.body.dataset.asking === 'cell' && `+qs("q-prompt")+`.textContent.includes("l'élément (1, 1, 2)")`)
	if vs := axeViolations(t, phone); len(vs) > 0 {
		t.Errorf("the phone, the step's question: axe:\n%s", strings.Join(vs, "\n"))
	}
	// A student who joins while the question is open gets the cells'
	// names hidden by the server, and the real ones back at the reveal.
	late := newBrowserContext(t, presenter)
	waitLive(t, late, join)
	waitFor(t, late, "the late student, names hidden", roomState+` === 'following' && document.body.dataset.asking === 'cell' &&
		document.querySelector('#b-11').getAttribute('aria-label') === 'buffer cell 11' && !document.querySelector('#l-11').getAttribute('aria-label').includes('11')`)
	do(t, phone, "tap buffer cell 11", chromedp.Click(chromedp.CSS(`#b-11`)))
	waitFor(t, phone, "taken", qs("q-status")+`.textContent.includes('11')`)
	waitFor(t, presenter, "1 answer, right", qs("q-count")+`.textContent === '1' && `+qs("q-dist")+`.querySelector('[data-value="11"]')?.classList.contains('right') === true`)
	do(t, presenter, "reveal", chromedp.Click(chromedp.CSS(`[data-testid=q-reveal]`)))
	waitFor(t, late, "the late student, names back", `!`+qs("q-result")+`.hidden && document.querySelector('#l-11').getAttribute('aria-label').includes('11') && !document.querySelector('[data-aria]')`)
	waitFor(t, phone, "the reveal", `!`+qs("q-result")+`.hidden && `+qs("q-why")+`.textContent.includes('1×6 + 1×3 + 2×1 = 11')`)
	if vs := axeViolations(t, phone); len(vs) > 0 {
		t.Errorf("the phone, revealed: axe:\n%s", strings.Join(vs, "\n"))
	}
}
