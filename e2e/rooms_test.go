package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

const (
	roomState = `document.querySelector('[data-testid=room-bar]')?.dataset.state`
	watching  = `document.querySelector('[data-testid=room-watching]')?.textContent`
)

// TestE2ERoomViewerFollowsPresenter: a presenter and a viewer in separate
// browser contexts (separate cookies, as on two devices). The viewer
// follows the presenter's edits and hovers, detaches, and rejoins.
func TestE2ERoomViewerFollowsPresenter(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	viewer := newBrowserContext(t, presenter)

	waitLive(t, presenter, base+"/?dt=FLOAT32&sizes=2,3&strides=5,1&total=40")
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting' && document.querySelector('#picture').dataset.state === 'done'`)
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)
	code := eval[string](t, presenter, `document.querySelector('[data-testid=room-bar]').dataset.room`)
	if !strings.HasSuffix(join, "/r/"+code) {
		t.Fatalf("join URL %q for room %q", join, code)
	}
	if got := eval[string](t, presenter, `location.search`); !strings.Contains(got, "strides=5,1") || !strings.HasSuffix(got, "&room="+code) {
		t.Errorf("presenter's URL %q", got)
	}
	if got := eval[string](t, presenter, `document.cookie`); got != "" {
		t.Errorf("the presenter's token is readable by scripts: %q", got)
	}
	if n := eval[int](t, presenter, `document.querySelectorAll('[data-testid=room-qr] path').length`); n != 1 {
		t.Error("no QR code")
	}

	// "Show the code to the class", with the keyboard: the code the bar
	// shows, then Escape, back on the button.
	do(t, presenter, "focus Show the code", chromedp.Focus(chromedp.CSS(`[data-testid=room-show]`)))
	do(t, presenter, "press Enter", chromedp.KeyEvent("\r"))
	waitFor(t, presenter, "the code on the whole screen", `document.querySelector('#room-big').matches(':popover-open') && document.querySelector('[data-testid=room-big-code]').textContent === document.querySelector('[data-testid=room-code]').textContent`)
	do(t, presenter, "press Escape", chromedp.KeyEvent(kb.Escape))
	waitFor(t, presenter, "closed, the focus back", `!document.querySelector('#room-big').matches(':popover-open') && document.activeElement === document.querySelector('[data-testid=room-show]')`)

	// The viewer opens the join URL on their own device.
	waitLive(t, viewer, join)
	waitFor(t, viewer, "the room's state", roomState+` === 'following' && (`+usedCells+`) === '0,1,2,5,6,7'`)
	waitFor(t, presenter, "one watching", watching+` === '1'`)
	shot(t, presenter, "room-presenter")

	// The presenter edits: the viewer's picture and form follow.
	typeInto(t, presenter, "type a height stride of 4", `[data-testid=stride-0]`, "4")
	waitFor(t, viewer, "the viewer to follow the edit", `(`+usedCells+`) === '0,1,2,4,5,6' && document.querySelector('[data-testid=stride-0]').value === '4'`)

	// The presenter hovers an element: the viewer sees the same link.
	hover(t, presenter, "#l-3")
	waitFor(t, viewer, "the viewer to follow the hover", `document.querySelector('#b-4')?.classList.contains('linked') && document.querySelector('#dot').textContent.includes('= 4')`)
	shot(t, viewer, "room-viewer")

	// The presenter's pointer leaves the picture: the viewer's highlight goes.
	do(t, presenter, "move the mouse off the picture", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 2, 2))
	waitFor(t, viewer, "the viewer's highlight to clear", noHighlight)

	// Detach, with the keyboard: the presenter goes on without the viewer,
	// whose focus is on the button that took Detach's place, and whose bar
	// no longer counts the class (it hears no count while exploring).
	do(t, viewer, "focus Detach", chromedp.Focus(chromedp.CSS(`[data-testid=room-detach]`)))
	do(t, viewer, "press Enter", chromedp.KeyEvent("\r"))
	waitFor(t, viewer, "detached", roomState+` === 'detached' && !document.querySelector('[data-testid=room-rejoin]').hidden && document.activeElement === document.querySelector('[data-testid=room-rejoin]') && document.querySelector('.room-count').hidden`)
	typeInto(t, presenter, "type a height stride of 3", `[data-testid=stride-0]`, "3")
	waitFor(t, presenter, "the presenter's new picture", `(`+usedCells+`) === '0,1,2,3,4,5'`)
	time.Sleep(700 * time.Millisecond)
	if got := eval[string](t, viewer, usedCells); got != "0,1,2,4,5,6" {
		t.Errorf("a detached viewer followed to %q", got)
	}

	// Rejoin with one key: the current state at once, the focus on Detach.
	do(t, viewer, "press Enter on Rejoin", chromedp.KeyEvent("\r"))
	waitFor(t, viewer, "caught up", roomState+` === 'following' && (`+usedCells+`) === '0,1,2,3,4,5' && document.activeElement === document.querySelector('[data-testid=room-detach]') && !document.querySelector('.room-count').hidden`)

	// A viewer who edits explores on their own: they detach.
	typeInto(t, viewer, "the viewer types a stride", `[data-testid=stride-0]`, "6")
	waitFor(t, viewer, "the viewer's own picture", roomState+` === 'detached' && (`+usedCells+`) === '0,1,2,6,7,8'`)
	typeInto(t, presenter, "type a height stride of 5", `[data-testid=stride-0]`, "5")
	waitFor(t, presenter, "the presenter's picture", `(`+usedCells+`) === '0,1,2,5,6,7'`)
	time.Sleep(500 * time.Millisecond)
	if got := eval[string](t, viewer, usedCells); got != "0,1,2,6,7,8" {
		t.Errorf("the exploring viewer was moved to %q", got)
	}

	// A reload keeps the viewer's exploration and the way back to the room.
	do(t, viewer, "reload", chromedp.Reload())
	waitFor(t, viewer, "the exploration, in the room", `document.body.dataset.live === 'ready' && `+roomState+` === 'detached' && !document.querySelector('[data-testid=room-rejoin]').hidden && (`+usedCells+`) === '0,1,2,6,7,8'`)
	do(t, viewer, "rejoin", chromedp.Click(chromedp.CSS(`[data-testid=room-rejoin]`)))
	waitFor(t, viewer, "caught up again", roomState+` === 'following' && (`+usedCells+`) === '0,1,2,5,6,7' && location.pathname.startsWith('/r/')`)
}

// noHighlight: nothing is pointed at in the picture.
const noHighlight = `!document.querySelector('#picture :is(.lc, .bc):is(.linked, .sel)') && document.querySelector('#dot').textContent.includes('Point at')`

// TestE2ERoomPresenterStopsAndReturns: the presenter stops presenting and
// the viewer is told, keeping the last picture; the presenter presents
// again and the viewer follows with no click. A reload of the presenter's
// page does not tell the viewer anything.
func TestE2ERoomPresenterStopsAndReturns(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	viewer := newBrowserContext(t, presenter)

	waitLive(t, presenter, base+"/?dt=FLOAT32&sizes=2,3&strides=5,1")
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting' && document.querySelector('#picture').dataset.state === 'done'`)
	room := eval[string](t, presenter, `location.href`)
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)
	waitLive(t, viewer, join)
	waitFor(t, viewer, "the room's state", roomState+` === 'following' && (`+usedCells+`) === '0,1,2,5,6,7'`)
	// Record every state the viewer's bar goes through.
	do(t, viewer, "watch the bar", chromedp.Evaluate[chromedp.Void](`window.barStates = []; new MutationObserver(() => barStates.push(`+roomState+`)).observe(document.querySelector('[data-testid=room-bar]'), {attributes: true})`))

	// The presenter reloads the page: the viewer goes on following.
	waitFor(t, presenter, "one watching", watching+` === '1'`)
	do(t, presenter, "reload", chromedp.Reload())
	waitFor(t, presenter, "presenting again", roomState+` === 'presenting' && document.querySelector('#picture').dataset.state === 'done'`)
	typeInto(t, presenter, "type a height stride of 4", `[data-testid=stride-0]`, "4")
	waitFor(t, viewer, "the viewer to follow the edit", `(`+usedCells+`) === '0,1,2,4,5,6'`)
	time.Sleep(2500 * time.Millisecond) // past the grace period of the old page's socket
	if got := eval[[]string](t, viewer, `barStates`); strings.Contains(strings.Join(got, ","), "stopped") {
		t.Errorf("a reload of the presenter's page told the viewer %v", got)
	}

	// "Stop presenting": the viewer is told and keeps the last picture.
	do(t, presenter, "stop presenting", chromedp.Click(chromedp.CSS(`[data-testid=room-leave]`)))
	waitFor(t, presenter, "the page without the room", `!document.querySelector('[data-testid=room-bar]') && !!document.querySelector('[data-testid=present]')`)
	waitFor(t, viewer, "the viewer to hear it", roomState+` === 'stopped' && document.querySelector('[data-testid=room-status]').textContent.includes('stopped presenting')`)
	if got := eval[string](t, viewer, usedCells); got != "0,1,2,4,5,6" {
		t.Errorf("the viewer's picture changed to %q", got)
	}
	if eval[bool](t, viewer, `document.querySelector('[data-testid=room-detach]').hidden`) {
		t.Error("the viewer is not offered to explore on their own")
	}
	shot(t, viewer, "room-viewer-stopped")

	// The presenter comes back to the room: the viewer follows again.
	do(t, presenter, "back to the room", chromedp.Navigate(room))
	waitFor(t, presenter, "presenting again", roomState+` === 'presenting' && document.querySelector('#picture').dataset.state === 'done'`)
	waitFor(t, viewer, "following again", roomState+` === 'following'`)
	typeInto(t, presenter, "type a height stride of 3", `[data-testid=stride-0]`, "3")
	waitFor(t, viewer, "the viewer to follow the edit", `(`+usedCells+`) === '0,1,2,3,4,5'`)

	// Stopped, then "Present this" on another page: the same room, where
	// the class is, which follows there.
	code := eval[string](t, presenter, `document.querySelector('[data-testid=room-bar]').dataset.room`)
	do(t, presenter, "stop presenting", chromedp.Click(chromedp.CSS(`[data-testid=room-leave]`)))
	waitFor(t, viewer, "stopped again", roomState+` === 'stopped'`)
	waitLive(t, presenter, base+"/slice?sizes=4,6")
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "presenting the room", roomState+` === 'presenting' && document.querySelector('[data-testid=room-bar]').dataset.room === '`+code+`'`)
	waitFor(t, viewer, "the class on the slice explorer", `location.pathname === '/r/`+code+`' && `+roomState+` === 'following' && document.querySelector('#picture')?.dataset.state === 'done' && !!document.querySelector('#slice-input')`)
}

// TestE2ERoomJoinByCode: a viewer types the code shown on the projector.
func TestE2ERoomJoinByCode(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	viewer := newBrowserContext(t, presenter)

	waitLive(t, presenter, base+"/?preset=broadcast")
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting'`)
	shown := eval[string](t, presenter, `document.querySelector('[data-testid=room-code]').textContent`)

	do(t, viewer, "open /join", chromedp.Navigate(base+"/join"))
	typeInto(t, viewer, "type the code in lower case", `[data-testid=join-code]`, strings.ToLower(shown))
	do(t, viewer, "join", chromedp.Click(chromedp.CSS(`[data-testid=join-submit]`)))
	waitFor(t, viewer, "the room's broadcast picture", roomState+` === 'following' && document.querySelector('#picture')?.dataset.state === 'done' && document.querySelector('[data-testid=stride-0]').value === '0'`)
	waitFor(t, presenter, "one watching", watching+` === '1'`)

	// A wrong code is refused on the form.
	do(t, viewer, "open /join", chromedp.Navigate(base+"/join"))
	typeInto(t, viewer, "type a wrong code", `[data-testid=join-code]`, "ZZZZ-ZZZZ")
	do(t, viewer, "join", chromedp.Click(chromedp.CSS(`[data-testid=join-submit]`)))
	waitFor(t, viewer, "the reason", `!document.querySelector('[data-testid=join-error]')?.hidden`)
}

// newBrowserContext opens a tab in a new browser context of the browser
// of ctx: separate cookies and storage, as on another device.
func newBrowserContext(t *testing.T, ctx context.Context) context.Context {
	t.Helper()
	tab, cancel := chromedp.NewContext(ctx, chromedp.WithNewBrowserContext())
	t.Cleanup(cancel)
	// Create the tab now, not under the first action's deadline.
	if err := chromedp.Do(tab); err != nil {
		t.Fatalf("new browser context: %v", err)
	}
	return tab
}

// TestE2ERoomTourFollowsPresenter: the presenter steps through the tour;
// the viewer's page moves with them.
func TestE2ERoomTourFollowsPresenter(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	viewer := newBrowserContext(t, presenter)

	do(t, presenter, "open the tour", chromedp.Navigate(base+"/tour/1"))
	waitFor(t, presenter, "Present this", `!!document.querySelector('[data-testid=present]')`)
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting'`)
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)

	do(t, viewer, "open the join URL", chromedp.Navigate(join))
	waitFor(t, viewer, "tour step 1", `document.querySelector('[data-testid=tour]')?.dataset.step === '1'`)
	waitFor(t, presenter, "one watching", watching+` === '1'`)

	do(t, presenter, "next step", chromedp.Click(chromedp.CSS(`[data-testid=tour-next]`)))
	waitFor(t, presenter, "step 2, still presenting", `document.querySelector('[data-testid=tour]')?.dataset.step === '2' && `+roomState+` === 'presenting'`)
	waitFor(t, viewer, "the viewer on step 2", `document.querySelector('[data-testid=tour]')?.dataset.step === '2' && document.querySelector('[data-testid=room-bar]')?.dataset.role === 'viewer'`)

	// The step's Reset keeps the viewer in the room too.
	// (The page's module rewrites the links once it runs: wait for it.)
	waitFor(t, viewer, "the viewer's Reset in the room", `(h => h.includes('/tour/2?') && h.includes('explore'))(document.querySelector('[data-testid=tour-reset]').href)`)
	// The viewer reads ahead, with the tour's own link and its arrow key:
	// still in the room, exploring, with the way back; not counted.
	do(t, viewer, "tap Next", chromedp.Click(chromedp.CSS(`[data-testid=tour-next]`)))
	waitFor(t, viewer, "step 3, exploring", `document.querySelector('[data-testid=tour]')?.dataset.step === '3' && `+roomState+` === 'detached' && !document.querySelector('[data-testid=room-rejoin]').hidden && !document.querySelector('[data-testid=present]')`)
	waitFor(t, presenter, "none watching", watching+` === '0'`)
	do(t, viewer, "press the right arrow", chromedp.KeyEvent(kb.ArrowRight))
	waitFor(t, viewer, "step 4, exploring", `document.querySelector('[data-testid=tour]')?.dataset.step === '4' && `+roomState+` === 'detached'`)
	do(t, viewer, "rejoin", chromedp.Click(chromedp.CSS(`[data-testid=room-rejoin]`)))
	waitFor(t, viewer, "back on the presenter's step", `document.querySelector('[data-testid=tour]')?.dataset.step === '2' && `+roomState+` === 'following' && location.pathname.startsWith('/r/')`)
	waitFor(t, presenter, "one watching again", watching+` === '1'`)
}

// TestE2ERoomTourSliceStepThrough: on the tour's DML_SLICE1 steps (10
// and 11) the presenter's step-through is followed on the same tour step:
// it once went out as the room's step, which on a tour page is the tour's,
// and sent every viewer to step 1 of the tour, reloading without end.
func TestE2ERoomTourSliceStepThrough(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	viewer := newBrowserContext(t, presenter)

	waitLive(t, presenter, base+"/tour/11")
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting' && document.querySelector('#picture').dataset.state === 'done'`)
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)
	waitLive(t, viewer, join)
	waitFor(t, viewer, "tour step 11, following", `document.querySelector('[data-testid=tour]')?.dataset.step === '11' && `+roomState+` === 'following'`)
	do(t, viewer, "mark the document", chromedp.Evaluate[chromedp.Void](`window.__same = true`))
	for want := 0; want < 3; want++ {
		do(t, presenter, "step", chromedp.Click(chromedp.CSS(`[data-testid=step-next]`)))
		w := fmt.Sprint(want)
		waitFor(t, presenter, "the presenter at step "+w, `document.querySelector('#controls').elements.t.value === '`+w+`'`)
		waitFor(t, viewer, "the viewer at step "+w, `document.querySelector('#controls').elements.t.value === '`+w+`' && document.querySelector('#picture').dataset.state === 'done'`)
	}
	time.Sleep(500 * time.Millisecond)
	if got := eval[string](t, viewer, `(window.__same ? 'same document' : 'reloaded') + ' on tour step ' + document.querySelector('[data-testid=tour]')?.dataset.step + ', ' + location.pathname`); !strings.HasPrefix(got, "same document on tour step 11, /r/") {
		t.Errorf("the viewer after the presenter's steps: %s", got)
	}
	// A viewer who steps goes at their own pace: exploring, not following.
	do(t, viewer, "the viewer steps", chromedp.Click(chromedp.CSS(`[data-testid=step-next]`)))
	waitFor(t, viewer, "the viewer at step 3, exploring", `document.querySelector('#controls').elements.t.value === '3' && `+roomState+` === 'detached' && !document.querySelector('[data-testid=room-rejoin]').hidden`)
}

// TestE2ERoomSliceFocusAndViewerLeaving: on the slice explorer the
// viewer sees what the presenter points at, and the highlight goes when
// the presenter's pointer leaves the picture. A viewer who leaves the
// page stops counting at once, and counts again on coming back.
func TestE2ERoomSliceFocusAndViewerLeaving(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	viewer := newBrowserContext(t, presenter)

	waitLive(t, presenter, base+"/slice?preset=example2")
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting' && document.querySelector('#picture').dataset.state === 'done'`)
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)
	waitLive(t, viewer, join)
	waitFor(t, viewer, "the room's state", roomState+` === 'following' && (`+outputRows+`) === '14,16;6,8'`)
	waitFor(t, presenter, "one watching", watching+` === '1'`)

	// The presenter points at an output cell: the viewer sees the same links.
	hoverCell(t, presenter, "#out-2")
	waitFor(t, viewer, "the viewer to follow the hover", `document.querySelector('#out-2').classList.contains('sel') && document.querySelector('#in-5').classList.contains('linked') && document.querySelector('#b-5').classList.contains('linked') && document.querySelector('#dot').textContent.includes('read at buffer offset 5')`)

	// The pointer leaves the picture: the viewer's highlight goes.
	do(t, presenter, "move the mouse off the picture", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 2, 2))
	waitFor(t, viewer, "the viewer's highlight to clear", noHighlight)

	// A keyboard focus is shared too, and stays when the pointer leaves.
	do(t, presenter, "focus input cell 15", chromedp.Focus(chromedp.CSS("#in-15")))
	waitFor(t, viewer, "the viewer to follow the focus", `document.querySelector('#in-15').classList.contains('sel') && document.querySelector('#out-1').classList.contains('linked')`)

	// The viewer leaves the page: the presenter's count drops at once.
	left := time.Now()
	do(t, viewer, "leave the page", chromedp.Navigate(base+"/join"))
	waitFor(t, presenter, "nobody watching", watching+` === '0'`)
	if d := time.Since(left); d > 5*time.Second {
		t.Errorf("the count dropped %v after the viewer left", d)
	}

	// Back to the room's page: the viewer follows and counts again. (A page
	// restored from the back/forward cache fires no load event, which
	// chromedp.NavigateBack and chromedp.Poll wait for: evalUntil polls.)
	do(t, viewer, "back", chromedp.Evaluate[chromedp.Void](`history.back()`))
	evalUntil(t, viewer, "following again", roomState+` === 'following' && !!document.querySelector('#in-15')?.classList.contains('sel')`)
	waitFor(t, presenter, "one watching again", watching+` === '1'`)
}

// evalUntil evaluates a JavaScript predicate every 50 ms until it is true.
func evalUntil(t *testing.T, ctx context.Context, what, predicate string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		ok, err := chromedp.Run(tctx, chromedp.Evaluate[bool](predicate))
		cancel()
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s (%s): %v; page state: %s", what, predicate, err, pageState(ctx))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// TestE2ERoomViewerOnAPhoneSeesThePicture: a student who opens the join
// link on a phone lands on the picture, not on the form above it (the
// explorers stack the form first on a narrow screen); on a desktop, where
// the picture is beside the form, the page stays at its top.
func TestE2ERoomViewerOnAPhoneSeesThePicture(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	waitLive(t, presenter, base+"/slice?sizes=4,4")
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting'`)
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)

	const pictureTop = `Math.round(document.querySelector('#picture').getBoundingClientRect().top) + 0` // + 0: never -0, which CDP sends as no value
	for _, tc := range []struct {
		name     string
		viewport chromedp.Action[chromedp.Void]
		atTop    bool // the page stays at its top
	}{
		{"phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch), false},
		{"desktop", chromedp.EmulateViewport(1400, 1000), true},
	} {
		viewer := newBrowserContext(t, presenter)
		do(t, viewer, "a "+tc.name, tc.viewport)
		waitLive(t, viewer, join)
		waitFor(t, viewer, "following", roomState+` === 'following' && document.querySelector('#picture').dataset.state === 'done'`)
		top, y := eval[int](t, viewer, pictureTop), eval[int](t, viewer, `Math.round(scrollY)`)
		if tc.atTop {
			if y != 0 {
				t.Errorf("%s: the page scrolled to %d", tc.name, y)
			}
			continue
		}
		// The bar stays in view at the top, the picture right under it.
		bar := eval[[]float64](t, viewer, `(() => { const r = document.querySelector('[data-testid=room-bar]').getBoundingClientRect(); return [r.top, r.bottom]; })()`)
		if y == 0 || bar[0] < -1 || bar[0] > 1 || float64(top) < bar[1] || float64(top) > bar[1]+40 {
			t.Errorf("%s: scrolled to %d, the room bar at %v, the picture's top at %d px: want the bar at the top, the picture under it", tc.name, y, bar, top)
		}
		// A reload keeps where the student was, even at the top.
		do(t, viewer, "scroll to the top", chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`))
		do(t, viewer, "reload", chromedp.Reload())
		waitFor(t, viewer, "following again", roomState+` === 'following' && document.querySelector('#picture').dataset.state === 'done'`)
		if y := eval[int](t, viewer, `Math.round(scrollY)`); y != 0 {
			t.Errorf("%s: a reload at the top scrolled to %d", tc.name, y)
		}
	}
}

// TestE2ERoomPhoneViewerSeesThePointedCell: the cell the presenter points
// at is brought into a phone viewer's screen when it is off it, but not
// while the viewer is scrolling their own way (issue #37).
func TestE2ERoomPhoneViewerSeesThePointedCell(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	waitLive(t, presenter, base+"/slice?sizes=16,16")
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting' && document.querySelector('#picture').dataset.state === 'done'`)
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)
	viewer := newBrowserContext(t, presenter)
	do(t, viewer, "a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch))
	waitLive(t, viewer, join)
	waitFor(t, viewer, "following", roomState+` === 'following' && document.querySelector('#picture').dataset.state === 'done'`)
	const onScreen = `((sel) => { const r = document.querySelector(sel).getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; })`

	// Reading at the top of the page, then quiet: the pointed cell comes.
	do(t, viewer, "scroll to the top, by touch", chromedp.Evaluate[chromedp.Void](`dispatchEvent(new TouchEvent('touchstart')); scrollTo({ top: 0, behavior: 'instant' })`))
	do(t, viewer, "read quietly", chromedp.Sleep(4500e6))
	do(t, presenter, "focus the last input cell", chromedp.Focus(chromedp.CSS("#in-255")))
	waitFor(t, viewer, "the pointed cell on the phone's screen", `document.querySelector('#in-255').classList.contains('sel') && `+onScreen+`('#in-255')`)

	// Scrolling their own way: the next cell waits for them.
	do(t, viewer, "scroll to the top again, by touch", chromedp.Evaluate[chromedp.Void](`dispatchEvent(new TouchEvent('touchstart')); scrollTo({ top: 0, behavior: 'instant' })`))
	do(t, viewer, "a moment after", chromedp.Sleep(700e6))
	before := eval[int](t, viewer, `Math.round(scrollY)`)
	do(t, presenter, "focus another cell", chromedp.Focus(chromedp.CSS("#in-240")))
	waitFor(t, viewer, "the viewer to follow the focus", `document.querySelector('#in-240').classList.contains('sel')`)
	do(t, viewer, "a moment", chromedp.Sleep(700e6))
	if y := eval[int](t, viewer, `Math.round(scrollY)`); y != before || eval[bool](t, viewer, onScreen+`('#in-240')`) {
		t.Errorf("a viewer who had just scrolled (to %d) was moved to %d", before, y)
	}
}
