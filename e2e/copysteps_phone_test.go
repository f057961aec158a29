package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestE2ECopyStepOnAPhoneIsSeen: on a 390 px phone a step lights an
// output cell of a grid wider than the screen, or of a bar holding two
// orders' formulas: the cell is scrolled into its grid's view sideways
// and kept above the bar, and the bar takes at most a quarter of the
// screen, after opening at t= and after stepping with the bar's button.
func TestE2ECopyStepOnAPhoneIsSeen(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	emulate(t, ctx, phone)
	seen := `(() => {
		const c = document.querySelector('.step-out'), bar = document.querySelector('.copy-steps');
		if (!c) return 'no lit cell';
		const r = c.getBoundingClientRect(), b = bar.getBoundingClientRect();
		const bits = [];
		if (r.left < 0 || r.right > innerWidth) bits.push('sideways off the screen: ' + Math.round(r.left) + '..' + Math.round(r.right));
		if (r.top < 0 || r.bottom > Math.min(innerHeight, b.top)) bits.push('not above the bar: ' + Math.round(r.top) + '..' + Math.round(r.bottom) + ', bar at ' + Math.round(b.top));
		if (b.height > innerHeight / 4) bits.push('the bar is ' + Math.round(b.height) + ' px tall');
		return bits.join('; ');
	})()`
	for _, c := range []struct{ name, path string }{
		{"tile, 9 columns", "/tile?dt=FLOAT32&sizes=1,1,2,3&repeats=1,1,3,3&values=1,2,3,4,5,6&t=8"},
		{"padding, 10 columns", "/padding?preset=pad-ex1&t=15"},
		{"depth-space, two orders", "/depthspace?op=d2s&dt=UINT32&sizes=1,8,2,3&imode=packed&block=2&t=5"},
	} {
		waitLive(t, ctx, base+c.path)
		waitFor(t, ctx, c.name+": the opening step seen", seen+` === ''`)
		was := eval[string](t, ctx, `document.querySelector('[data-testid=copy-step-count]').textContent`)
		do(t, ctx, c.name+": step", chromedp.Click(chromedp.CSS(`.copy-steps [data-act=step]`)))
		waitFor(t, ctx, c.name+": the next step seen", `document.querySelector('[data-testid=copy-step-count]').textContent !== `+jsString(was)+` && `+seen+` === ''`)
		if got := eval[string](t, ctx, seen); got != "" {
			t.Errorf("%s: %s", c.name, got)
		}
		if v := axeViolations(t, ctx); len(v) > 0 {
			t.Errorf("%s: axe-core: %v", c.name, v)
		}
	}
}
