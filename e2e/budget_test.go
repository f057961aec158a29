package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/ops/slice1"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/testkit"
	"github.com/stridescope/stridescope/web"
)

// serveBudget runs a server whose work budget is b and returns its URL.
func serveBudget(t *testing.T, b *budget.Budget) string {
	t.Helper()
	addr := testkit.FreeAddr(t)
	serveOn(t, addr, web.Config{Budget: b, AnswerCache: -1})
	return "http://" + addr
}

// setFields types value into the inputs ids at once, as one edit: their
// values change, then one input event goes out from the last.
func setFields(t *testing.T, ctx context.Context, what, value string, ids ...string) {
	t.Helper()
	list, _ := json.Marshal(ids)
	do(t, ctx, what, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
		const ids = %s;
		for (const id of ids) document.getElementById(id).value = %q;
		document.getElementById(ids[ids.length - 1]).dispatchEvent(new Event('input', { bubbles: true }));
	})()`, list, value)))
}

// TestE2EBudgetRefusalKeepsThePicture: an edit the server's work budget
// refuses (docs/protocol.md, codes "busy" and "too-large") leaves the
// last picture and its address as they were and says why, in the page's
// language; a busy edit is sent again by the page itself and drawn once
// the budget has room.
func TestE2EBudgetRefusalKeepsThePicture(t *testing.T) {
	big, err := core.NewLayout(core.TensorDesc{DataType: core.Float32, Sizes: []int64{4096, 4096}})
	if err != nil {
		t.Fatal(err)
	}
	need := picture.LayoutCost(big, picture.InEdit)
	ctx := newBrowser(t, false)
	stale := `document.querySelector('#stale')`
	askBig := func(what string) { setFields(t, ctx, what, "4096", "f-size-0", "f-size-1") }
	kept := func(when string) {
		t.Helper()
		if n := eval[int](t, ctx, `document.querySelectorAll('#logical .lc').length`); n != 6 {
			t.Errorf("%s: %d logical cells, want the 2x3 picture's 6", when, n)
		}
		if got := eval[string](t, ctx, `location.search`); !strings.Contains(got, "sizes=2,3") || strings.Contains(got, "4096") {
			t.Errorf("%s: address %q, want the last picture's", when, got)
		}
	}

	t.Run("too-large", func(t *testing.T) {
		base := serveBudget(t, budget.New(need-1, 100*time.Millisecond))
		waitLive(t, ctx, base+"/?lang=fr&sizes=2,3")
		askBig("ask for 4096x4096")
		waitFor(t, ctx, "the refusal", `document.querySelector('#picture').dataset.state === 'refused' && !`+stale+`.hidden`)
		want := i18n.French.T("js.too-large", nil)
		if got := eval[string](t, ctx, stale+`.textContent`); got != want {
			t.Errorf("note %q, want %q", got, want)
		}
		kept("refused as too large")
		// The next answer clears the note.
		setFields(t, ctx, "ask for 2x4", "2", "f-size-0")
		setFields(t, ctx, "ask for 2x4", "4", "f-size-1")
		waitFor(t, ctx, "the 2x4 picture", done+` && `+stale+`.hidden && document.querySelectorAll('#logical .lc').length === 8`)
	})

	t.Run("slice too-large", func(t *testing.T) {
		s, err := core.NewSlice1(core.Slice1Desc{Input: core.TensorDesc{DataType: core.Float32, Sizes: []int64{4096, 4096}},
			WindowOffsets: []int64{0, 0}, WindowSizes: []int64{4096, 4096}, WindowStrides: []int64{1, 1}})
		if err != nil {
			t.Fatal(err)
		}
		base := serveBudget(t, budget.New(slice1.Cost(s, true)-1, 100*time.Millisecond))
		waitLive(t, ctx, base+"/slice?lang=pt-BR&dt=FLOAT32&rank=2&sizes=4,4&mode=packed&woff=0,0&wsize=4,4&wstride=1,1")
		setFields(t, ctx, "ask for a 4096x4096 window", "4096", "f-size-0", "f-size-1", "f-wsize-0", "f-wsize-1")
		waitFor(t, ctx, "the refusal", `document.querySelector('#picture').dataset.state === 'refused' && !`+stale+`.hidden`)
		if got, want := eval[string](t, ctx, stale+`.textContent`), i18n.BrazilianPortuguese.T("js.too-large", nil); got != want {
			t.Errorf("note %q, want %q", got, want)
		}
		if n := eval[int](t, ctx, `document.querySelectorAll('#slice-input .lc').length`); n != 16 {
			t.Errorf("%d input cells, want the 4x4 picture's 16", n)
		}
	})

	t.Run("busy", func(t *testing.T) {
		b := budget.New(2*need, 100*time.Millisecond)
		release, err := b.Take(context.Background(), 2*need-need/2)
		if err != nil {
			t.Fatal(err)
		}
		defer release()
		base := serveBudget(t, b)
		waitLive(t, ctx, base+"/?lang=en&sizes=2,3")
		askBig("ask for 4096x4096 while the budget is held")
		waitFor(t, ctx, "the refusal", `document.querySelector('#picture').dataset.state === 'refused' && !`+stale+`.hidden`)
		want := i18n.English.T("js.busy", nil)
		if got := eval[string](t, ctx, stale+`.textContent`); got != want {
			t.Errorf("note %q, want %q", got, want)
		}
		kept("refused as busy")
		release()
		// No key pressed: the page asks again after retryAfter seconds.
		waitFor(t, ctx, "the picture drawn after the retry", done+` && `+stale+`.hidden && location.search.includes('sizes=4096,4096') && !!document.querySelector('#logical-canvas')`)
	})
}

// TestE2ESliceWindowPastTheInputMarksItsSize: typing a window size that
// runs out of the input marks that size invalid, not only the offset the
// rule is reported at.
func TestE2ESliceWindowPastTheInputMarksItsSize(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/slice?preset=example2")
	typeInto(t, ctx, "a window size past the input", `[data-testid=wsize-3]`, "9")
	waitFor(t, ctx, "the invalid slice", `document.querySelector('#picture').dataset.state === 'invalid'`)
	for id, want := range map[string]string{"f-woff-3": "true", "f-wsize-3": "true", "f-wsize-2": "false"} {
		if got := eval[string](t, ctx, fmt.Sprintf(`document.getElementById(%q).getAttribute('aria-invalid')`, id)); got != want {
			t.Errorf("%s: aria-invalid %q, want %q", id, got, want)
		}
	}
}
