package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestE2ERoomPresenterEndsTheRoom: the presenter ends the room, with the
// keyboard, from a desktop; a student on a phone is told and keeps the
// picture as a page of their own (it edits, and a reload shows it, not a
// dead room), and the presenter's other tab says the room has ended.
func TestE2ERoomPresenterEndsTheRoom(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	viewer := newBrowserContext(t, presenter)
	emulate(t, viewer, phone)
	explorer := newBrowserContext(t, presenter) // a student exploring on their own

	waitLive(t, presenter, base+"/?dt=FLOAT32&sizes=2,3&strides=5,1")
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting' && document.querySelector('#picture').dataset.state === 'done'`)
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)
	waitLive(t, viewer, join)
	waitFor(t, viewer, "the room's state", roomState+` === 'following' && (`+usedCells+`) === '0,1,2,5,6,7'`)
	typeInto(t, presenter, "type a height stride of 4", `[data-testid=stride-0]`, "4")
	waitFor(t, viewer, "the viewer to follow the edit", `(`+usedCells+`) === '0,1,2,4,5,6'`)
	waitLive(t, explorer, join)
	waitFor(t, explorer, "the other student following", roomState+` === 'following' && (`+usedCells+`) === '0,1,2,4,5,6'`)
	typeInto(t, explorer, "the other student types a stride", `[data-testid=stride-0]`, "6")
	waitFor(t, explorer, "exploring", roomState+` === 'detached' && (`+usedCells+`) === '0,1,2,6,7,8'`)

	// The presenter's other tab, on the room's page as it is now.
	waitFor(t, presenter, "the address to hold the edit", `location.search.includes('strides=4,1')`)
	room := eval[string](t, presenter, `location.href`)
	other := newTab(t, presenter)
	waitLive(t, other, room)
	// The newest tab presents; the first says so and offers to take the
	// room back, which it does with one key.
	waitFor(t, other, "the other tab presenting", roomState+` === 'presenting'`)
	waitFor(t, presenter, "the first tab moved aside", roomState+` === 'moved' && !document.querySelector('[data-testid=room-here]').hidden && document.querySelector('[data-testid=room-status]').textContent.includes('Another tab presents')`)
	for _, v := range axeViolations(t, presenter) {
		t.Errorf("axe, the tab moved aside: %s", v)
	}
	shot(t, presenter, "room-moved")
	do(t, presenter, "focus Present here", chromedp.Focus(chromedp.CSS(`[data-testid=room-here]`)))
	do(t, presenter, "press Enter", chromedp.KeyEvent("\r"))
	waitFor(t, presenter, "presenting here again, the focus kept in the bar", roomState+` === 'presenting' && document.querySelector('[data-testid=room-here]').hidden && document.activeElement === document.querySelector('[data-testid=room-show]')`)
	waitFor(t, other, "the other tab moved aside", roomState+` === 'moved'`)
	typeInto(t, presenter, "type a height stride of 5", `[data-testid=stride-0]`, "5")
	waitFor(t, viewer, "the viewer to follow the first tab again", `(`+usedCells+`) === '0,1,2,5,6,7'`)
	typeInto(t, presenter, "type a height stride of 4", `[data-testid=stride-0]`, "4")
	waitFor(t, viewer, "and again", `(`+usedCells+`) === '0,1,2,4,5,6'`)

	// "End the room" asks first, with the keyboard, and the question
	// passes axe.
	do(t, presenter, "focus End the room", chromedp.Focus(chromedp.CSS(`[data-testid=room-end-open]`)))
	do(t, presenter, "press Enter", chromedp.KeyEvent("\r"))
	waitFor(t, presenter, "the question", `document.querySelector('[data-testid=room-end]').open && document.querySelector('[data-testid=room-end-submit]').offsetParent !== null`)
	// Escape backs out, onto the question's summary; Enter asks again.
	do(t, presenter, "focus End it for everyone", chromedp.Focus(chromedp.CSS(`[data-testid=room-end-submit]`)))
	do(t, presenter, "press Escape", chromedp.KeyEvent(kb.Escape))
	waitFor(t, presenter, "the question closed", `!document.querySelector('[data-testid=room-end]').open && document.activeElement === document.querySelector('[data-testid=room-end-open]')`)
	do(t, presenter, "press Enter", chromedp.KeyEvent("\r"))
	waitFor(t, presenter, "the question again", `document.querySelector('[data-testid=room-end]').open`)
	for _, v := range axeViolations(t, presenter) {
		t.Errorf("axe, the question open: %s", v)
	}
	shot(t, presenter, "room-end-question")
	do(t, presenter, "focus End it for everyone", chromedp.Focus(chromedp.CSS(`[data-testid=room-end-submit]`)))
	do(t, presenter, "press Enter", chromedp.KeyEvent("\r"))
	waitFor(t, presenter, "the page without the room, saying so", `document.readyState === 'complete' && !location.search.includes('room=') && !document.querySelector('[data-testid=room-bar]') && !!document.querySelector('[data-testid=present]') && document.querySelector('[data-testid=stride-0]')?.value === '4' && document.activeElement === document.querySelector('[data-testid=room-ended]') && document.activeElement.textContent.includes('has ended for everyone')`)
	for _, v := range axeViolations(t, presenter) {
		t.Errorf("axe, the presenter told the room has ended: %s", v)
	}
	// Said once: a reload is the plain page.
	do(t, presenter, "reload", chromedp.Reload())
	waitFor(t, presenter, "the plain page", `document.body.dataset.live === 'ready' && !document.querySelector('[data-testid=room-ended]')`)

	// The student keeps the picture, told why the room is gone; the bar
	// offers nothing of the room any more.
	waitFor(t, viewer, "the viewer to hear it", roomState+` === 'ended' && document.querySelector('[data-testid=room-status]').textContent.includes('ended the room') && document.querySelector('[data-testid=room-detach]').hidden && document.querySelector('[data-testid=room-rejoin]').hidden && document.querySelector('.room-join').offsetParent === null`)
	if got := eval[string](t, viewer, `location.pathname + location.search`); got != "/?"+strings.TrimPrefix(eval[string](t, presenter, `location.search`), "?") {
		t.Errorf("the viewer's address %q; the presenter's page %q", got, eval[string](t, presenter, `location.pathname + location.search`))
	}
	if got := eval[string](t, viewer, usedCells); got != "0,1,2,4,5,6" {
		t.Errorf("the viewer's picture changed to %q", got)
	}
	shot(t, viewer, "room-viewer-ended")
	for _, v := range axeViolations(t, viewer) {
		t.Errorf("axe, the student told the room has ended: %s", v)
	}
	waitFor(t, other, "the other tab to hear it", roomState+` === 'ended' && document.querySelector('[data-testid=room-status]').textContent.includes('You ended this room') && !location.search.includes('room=')`)

	// The student who was exploring hears nothing (they follow no one);
	// Rejoin tells them the room is gone, and leaves them their page.
	do(t, explorer, "rejoin", chromedp.Click(chromedp.CSS(`[data-testid=room-rejoin]`)))
	waitFor(t, explorer, "told the room is gone", roomState+` === 'ended' && document.querySelector('[data-testid=room-status]').textContent.includes('The room has ended: this page is yours') && !location.search.includes('room') && !location.search.includes('explore') && location.search.includes('strides=6,1') && (`+usedCells+`) === '0,1,2,6,7,8'`)

	// The page is the student's: an edit is theirs, and a reload shows it.
	typeInto(t, viewer, "the viewer types a stride", `[data-testid=stride-0]`, "3")
	waitFor(t, viewer, "the viewer's own picture", `(`+usedCells+`) === '0,1,2,3,4,5' && location.search.includes('strides=3') && !location.search.includes('room')`)
	do(t, viewer, "reload", chromedp.Reload())
	waitFor(t, viewer, "the page, not a dead room", `document.body.dataset.live === 'ready' && !document.querySelector('[data-testid=room-bar]') && (`+usedCells+`) === '0,1,2,3,4,5'`)
	// And the code opens nothing any more.
	do(t, viewer, "open the join link again", chromedp.Navigate(join))
	waitFor(t, viewer, "the join form", `!!document.querySelector('[data-testid=join]') && document.querySelector('[data-testid=join-error]').textContent.length > 0`)
}

// newTab opens another tab in ctx's browser context (its cookies), as a
// person opens a second tab.
func newTab(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	tab, cancel := chromedp.NewContext(ctx)
	t.Cleanup(cancel)
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("new tab: %v", err)
	}
	return tab
}
