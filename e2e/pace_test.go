package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestE2ERoomPace (issue #41): the presenter lets the class go through the
// tour at its own pace. A student reads ahead two steps and stays there,
// still in the room (counted, not "exploring"); the presenter sees where
// the student is; "Bring everyone back" takes the student to the
// presenter's step. The presenter's bar is axe-core clean with it.
func TestE2ERoomPace(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	student := newBrowserContext(t, presenter)

	do(t, presenter, "open the tour", chromedp.Navigate(base+"/tour/1"))
	waitFor(t, presenter, "Present this", `!!document.querySelector('[data-testid=present]')`)
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room and its pace button", roomState+` === 'presenting' && !document.querySelector('[data-testid=room-pace]').hidden`)
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)
	do(t, student, "open the join URL", chromedp.Navigate(join))
	waitFor(t, student, "tour step 1", `document.querySelector('[data-testid=tour]')?.dataset.step === '1' && `+roomState+` === 'following'`)

	do(t, presenter, "let the class go at its own pace", chromedp.Click(chromedp.CSS(`[data-testid=room-pace]`)))
	waitFor(t, presenter, "pressed", `document.querySelector('[data-testid=room-pace]').getAttribute('aria-pressed') === 'true'`)
	waitFor(t, student, "told so", `document.querySelector('[data-testid=room-status]').textContent.includes('own pace')`)

	// The student reads ahead: two steps, still in the room.
	for _, step := range []string{"2", "3"} {
		waitFor(t, student, "the links rewritten", `document.querySelector('[data-testid=tour-next]').href.includes('room=')`)
		do(t, student, "next step", chromedp.Click(chromedp.CSS(`[data-testid=tour-next]`)))
		waitFor(t, student, "step "+step+", following at their pace", `document.querySelector('[data-testid=tour]')?.dataset.step === '`+step+`' && `+roomState+` === 'following' && document.querySelector('[data-testid=room-status]').textContent.includes('own pace')`)
	}
	waitFor(t, presenter, "where the student is", `document.querySelector('[data-testid=room-where]').textContent === 'step 3: 1' && `+watching+` === '1'`)
	time.Sleep(700 * time.Millisecond)
	if step := eval[string](t, student, `document.querySelector('[data-testid=tour]').dataset.step`); step != "3" {
		t.Errorf("a student at their own pace was moved to step %s", step)
	}
	if vs := axeViolations(t, presenter); len(vs) > 0 {
		t.Errorf("the presenter's bar with the pace: axe:\n%s", strings.Join(vs, "\n"))
	}

	do(t, presenter, "bring everyone back", chromedp.Click(chromedp.CSS(`[data-testid=room-pace]`)))
	waitFor(t, student, "back on the presenter's step", `document.querySelector('[data-testid=tour]')?.dataset.step === '1' && `+roomState+` === 'following' && location.pathname.startsWith('/r/')`)
	waitFor(t, presenter, "teacher-paced again", `document.querySelector('[data-testid=room-pace]').getAttribute('aria-pressed') === 'false' && document.querySelector('[data-testid=room-where]').hidden`)
}
