package e2e

import (
	"context"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestE2ELegendsFollowTheViewsMode: a view drawn on a canvas hides its
// legend's corner-number line (a canvas has no corners) and the slice's
// input legend, and keeps the caption's room under the pointer; a view of
// cells shows them. The page keys these on data-canvas, which the server
// writes and every swap of a view keeps (not on :has(), which restyled
// every cell at every change in the page): checked as served without
// JavaScript, and after edits that take a view to a canvas and back.
func TestE2ELegendsFollowTheViewsMode(t *testing.T) {
	base := startServer(t)
	// shown reports, for each selector, whether it is displayed.
	const shown = `((sels) => sels.map((s) => { const e = document.querySelector(s); return !!e && e.getClientRects().length > 0; }).join(','))`
	for _, tc := range []struct {
		page, small, big string
		// field: the size typed; corner: the legend line a canvas hides;
		// canvasView, cellView: a view that becomes a canvas, one that
		// stays cells.
		field, bigSize, smallSize, corner, canvasView, cellView string
	}{
		{"layout", "/?dt=FLOAT32&sizes=2,3", "/?dt=FLOAT32&sizes=300,3", "[data-testid=size-0]", "300", "2",
			"[data-testid=logical-corner-legend]", "section[aria-labelledby=logical-h]", ""},
		{"slice", "/slice?dt=FLOAT32&sizes=2,3", "/slice?dt=FLOAT32&sizes=300,3&woff=0,0&wsize=2,3", "[data-testid=size-0]", "300", "2",
			"[data-testid=input-corner-legend]", "section[aria-labelledby=input-h]", "section[aria-labelledby=output-h]"},
	} {
		t.Run(tc.page, func(t *testing.T) {
			check := func(t *testing.T, ctx context.Context, canvas bool, when string) {
				t.Helper()
				want := "true"
				if canvas {
					want = "false"
				}
				if got := eval[string](t, ctx, shown+`([`+jsString(tc.corner)+`])`); got != want {
					t.Errorf("%s: the corner legend shown = %s, want %s", when, got, want)
				}
				if got := eval[bool](t, ctx, `document.querySelector(`+jsString(tc.canvasView)+`).hasAttribute('data-canvas')`); got != canvas {
					t.Errorf("%s: the view's data-canvas = %v, want %v", when, got, canvas)
				}
				if tc.cellView != "" && eval[bool](t, ctx, `document.querySelector(`+jsString(tc.cellView)+`).hasAttribute('data-canvas')`) {
					t.Errorf("%s: the output, drawn as cells, has data-canvas", when)
				}
				if got := eval[bool](t, ctx, `document.querySelector('#picture').hasAttribute('data-canvas')`); tc.page == "slice" && got != canvas {
					t.Errorf("%s: #picture's data-canvas = %v, want %v", when, got, canvas)
				}
				if tc.page == "slice" {
					// The caption keeps two lines' room over canvases
					// (calc(2.8em + 1.1rem)), one line's (2.7rem) over cells.
					if got := eval[bool](t, ctx, `parseFloat(getComputedStyle(document.querySelector('#dot')).minHeight) > 3 * parseFloat(getComputedStyle(document.documentElement).fontSize)`); got != canvas {
						t.Errorf("%s: #dot keeps two lines' room = %v, want %v", when, got, canvas)
					}
				}
			}

			off := newBrowser(t, true)
			do(t, off, "a desktop", chromedp.EmulateViewport(1400, 1000))
			for _, c := range []struct {
				url    string
				canvas bool
			}{{tc.small, false}, {tc.big, true}} {
				do(t, off, "open "+c.url+" without JavaScript", chromedp.Navigate(base+c.url))
				check(t, off, c.canvas, c.url+" as served")
			}

			ctx := newBrowser(t, false)
			do(t, ctx, "a desktop", chromedp.EmulateViewport(1400, 1000))
			waitLive(t, ctx, base+tc.small)
			check(t, ctx, false, "live, 2x3")
			typeInto(t, ctx, "a size of 300", tc.field, tc.bigSize)
			waitFor(t, ctx, "300x3", done+` && location.search.includes('sizes=300,3') && !!document.querySelector(`+jsString(tc.canvasView)+` + ' canvas')`)
			check(t, ctx, true, "after typing 300")
			typeInto(t, ctx, "a size of 2", tc.field, tc.smallSize)
			waitFor(t, ctx, "2x3 again", done+` && location.search.includes('sizes=2,3') && !document.querySelector(`+jsString(tc.canvasView)+` + ' canvas')`)
			check(t, ctx, false, "after typing 2")
		})
	}
}
