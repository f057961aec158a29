package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestE2EPhoneUseShowsThePicture: on a 390 px phone, where the form
// stacks over the picture, Use brings the window used into view (the
// input's first row on the screen) with a way back up to the
// expression, which takes the focus back there (issue #37).
func TestE2EPhoneUseShowsThePicture(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	do(t, ctx, "a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch))
	waitLive(t, ctx, base+"/slice")
	const onScreen = `((sel) => { const e = document.querySelector(sel); if (!e || e.hidden) return false; const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight; })`
	typeInto(t, ctx, "an expression", `[data-testid=np]`, "x[:, :, 1:3, ::-1]")
	waitFor(t, ctx, "its picture", done+` && location.search.includes('wstride=1,1,1,-1')`)
	if eval[bool](t, ctx, onScreen+`('#in-0')`) {
		t.Fatal("the picture is on the screen before Use: the case tests nothing")
	}
	do(t, ctx, "Use", chromedp.Click(chromedp.CSS(`[data-testid=use-np]`)))
	waitFor(t, ctx, "the picture's first row on the screen", done+` && `+onScreen+`('#in-0') && `+onScreen+`('[data-testid=back-to-np]')`)
	waitStill(t, ctx)
	do(t, ctx, "back to the expression", chromedp.Click(chromedp.CSS(`[data-testid=back-to-np]`)))
	waitFor(t, ctx, "the expression focused on the screen", `document.activeElement === document.querySelector('[data-testid=np]') && `+onScreen+`('[data-testid=np]')`)
}

// TestE2EPhonePeekWhileTyping: on a 390 px phone a learner typing a size
// sees the picture's first row at the top of the screen, redrawn for the
// size typed, and its button goes down to the picture; on a desktop,
// where the picture is beside the form, there is no peek (issue #37).
func TestE2EPhonePeekWhileTyping(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	do(t, ctx, "a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch))
	waitLive(t, ctx, base+"/?dt=FLOAT32&sizes=2,3")
	const firstRow = `((sel) => { const e = document.querySelector(sel); if (!e || e.closest('[hidden]')) return false; const r = e.getBoundingClientRect(); return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight; })`
	typeInto(t, ctx, "a size", `[data-testid=size-1]`, "4")
	waitFor(t, ctx, "the 2x4 picture peeking", done+` && location.search.includes('sizes=2,4') && `+firstRow+`('[data-testid=peek] .lc')`)
	if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=peek] .lc').length`); n != 8 {
		t.Errorf("the peek shows %d logical cells, want the 2x4 tensor's 8", n)
	}
	if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=peek] [id]').length`); n != 0 {
		t.Errorf("the peek repeats %d ids of the page", n)
	}
	// A click while the page still scrolls (the peek coming in) lands
	// where the button was (it failed so once in five on a loaded VM).
	waitStill(t, ctx)
	do(t, ctx, "show the picture", chromedp.Click(chromedp.CSS(`[data-testid=peek-go]`)))
	waitFor(t, ctx, "the picture itself on the screen", firstRow+`('#l-0') && document.querySelector('[data-testid=peek]').hidden`)

	desk := newBrowser(t, false)
	do(t, desk, "a desktop", chromedp.EmulateViewport(1400, 1000))
	waitLive(t, desk, base+"/?dt=FLOAT32&sizes=2,3")
	typeInto(t, desk, "a size", `[data-testid=size-1]`, "4")
	waitFor(t, desk, "2x4", done+` && location.search.includes('sizes=2,4')`)
	if eval[bool](t, desk, firstRow+`('[data-testid=peek] .lc')`) {
		t.Error("a desktop shows the peek")
	}
}
