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
	do(t, ctx, "back to the expression", chromedp.Click(chromedp.CSS(`[data-testid=back-to-np]`)))
	waitFor(t, ctx, "the expression focused on the screen", `document.activeElement === document.querySelector('[data-testid=np]') && `+onScreen+`('[data-testid=np]')`)
}
