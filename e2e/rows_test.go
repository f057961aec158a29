package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// strideBoxes reads the strides the form's visible rows show.
const strideBoxes = `[...document.querySelectorAll('tr.dim:not([hidden]) input[name=strides]')].map(e => e.value).join(',')`

// TestE2EPaddedRowsFollowC: a learner padding NHWC rows to 8 elements
// chooses "padded rows", the order and the pitch, and the strides are
// worked out for them; changing C then gives the padded strides of the
// new C without any arithmetic by hand (issue #37). Typing a stride
// makes the strides explicit, keeping those shown. On a phone and a
// desktop, by keyboard for the pitch, with nothing for axe-core.
func TestE2EPaddedRowsFollowC(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	for _, vp := range []viewport{phone, desktop} {
		t.Run(vp.name, func(t *testing.T) {
			emulate(t, ctx, vp)
			waitLive(t, ctx, base+"/?dt=FLOAT32&sizes=1,3,2,5")
			if eval[bool](t, ctx, `document.querySelector('[data-testid=rows-opts]').checkVisibility()`) {
				t.Error("the order and pitch show while packed strides are chosen")
			}
			do(t, ctx, "padded rows", chromedp.Click(chromedp.CSS(`[data-testid=mode-rows]`)))
			waitFor(t, ctx, "the mode in the address", done+` && location.search.includes('mode=rows')`)
			do(t, ctx, "NHWC", chromedp.SetValue(chromedp.CSS(`[data-testid=order]`), "NHWC"),
				chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid=order]').dispatchEvent(new Event('change', {bubbles: true}))`))
			waitFor(t, ctx, "NHWC packed", done+` && location.search.includes('order=NHWC') && `+strideBoxes+` === '30,1,15,3'`)
			typeInto(t, ctx, "a pitch of 8", `[data-testid=pitch]`, "8")
			waitFor(t, ctx, "rows of 15 padded to 16", done+` && location.search.includes('pitch=8') && `+strideBoxes+` === '32,1,16,3'`)
			// The buffer holds the padding: 32 cells, one after each row.
			if got := eval[int](t, ctx, `document.querySelectorAll('#buffer .bc').length`); got != 31 && got != 32 {
				t.Errorf("%d buffer cells, want the 31 up to the last element", got)
			}
			typeInto(t, ctx, "C = 4", `[data-testid=size-1]`, "4")
			waitFor(t, ctx, "rows of 20 padded to 24", done+` && location.search.includes('sizes=1,4,2,5') && `+strideBoxes+` === '48,1,24,4'`)
			if n := eval[float64](t, ctx, overflow(vp.width)); n > 0 {
				t.Errorf("the page is %g px wider than the screen", n)
			}
			if vs := axeViolations(t, ctx); len(vs) > 0 {
				t.Errorf("axe-core: %v", vs)
			}
			shotOf(t, ctx, "rows-"+vp.name, chromedp.CaptureScreenshot())
			// A pitch of 0 is refused at its field.
			typeInto(t, ctx, "a wrong pitch", `[data-testid=pitch]`, "0")
			waitFor(t, ctx, "the pitch's error", `!document.querySelector('[data-testid=err-pitch]').hidden && document.querySelector('[data-testid=pitch]').getAttribute('aria-invalid') === 'true'`)
			if got := text(t, ctx, `[data-testid=err-pitch]`); !strings.Contains(got, "1 to 4294967295") {
				t.Errorf("pitch error %q", got)
			}
			typeInto(t, ctx, "pitch 8 again", `[data-testid=pitch]`, "8")
			waitFor(t, ctx, "valid again", done+` && document.querySelector('[data-testid=err-pitch]').hidden`)
			// Typing a stride makes them explicit, keeping the others.
			do(t, ctx, "type a stride", chromedp.Focus(chromedp.CSS(`[data-testid=stride-0]`)), chromedp.KeyEvent(kb.End), chromedp.KeyEvent("0"))
			waitFor(t, ctx, "explicit strides", fmt.Sprintf(`%s && document.querySelector('[data-testid=mode-explicit]').checked && location.search.includes('strides=480,1,24,4')`, done))
		})
	}
}
