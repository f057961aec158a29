package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// firstFrameProbe records when the document's first animation frame
// began (performance's clock), before any of the page's own callbacks.
const firstFrameProbe = `requestAnimationFrame(() => { window.__firstFrame = performance.now(); });`

// TestE2ECanvasesComeWhenNeeded: a picture of cells does not wait for the
// canvases' module (issue #38): it is fetched after the page's first
// frame, and an edit whose picture needs canvases draws them. When the
// module cannot be had (blocked here, as a dropped connection would),
// that picture is not called done: the page says the module did not load
// (data-state refused) rather than stay "computing"; the next edit that
// needs it, the module reachable again, fetches it, draws its canvases
// and takes the note away. On both explorers, whose canvases are modules
// of their own.
func TestE2ECanvasesComeWhenNeeded(t *testing.T) {
	base := startServer(t)
	for _, tc := range []struct {
		path, module, canvas string
	}{
		{"/?sizes=2,3", "explorer-canvas", "#logical-canvas"},
		{"/slice?sizes=2,3", "slice-canvas", "#slice-in-canvas"},
		{"/padding?sizes=2,3", "axismap-canvas", "#pad-in-canvas"},
		{"/tile?sizes=2,3", "axismap-canvas", "#tile-in-canvas"},
		{"/depthspace?op=d2s&sizes=1,8,2,3&block=2", "depthspace-canvas", "#ds-dcr-canvas"},
		{"/convert?sizes=2,3,2,4", "convert-canvas", "#convert-lg-canvas"},
	} {
		t.Run(strings.TrimPrefix(strings.SplitN(tc.path, "?", 2)[0], "/"), func(t *testing.T) {
			ctx := newBrowser(t, false)
			emulate(t, ctx, desktop)
			if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: firstFrameProbe}); err != nil {
				t.Fatal(err)
			}
			// When the module's fetch began, or -1 when it has not.
			fetched := fmt.Sprintf(`performance.getEntriesByType('resource').find((e) => e.name.includes('/static/%s.'))?.startTime ?? -1`, tc.module)
			drawn := fmt.Sprintf(`!!document.querySelector(%q)?.drawn`, tc.canvas)
			size := `input[name=sizes]`

			waitLive(t, ctx, base+tc.path)
			at, frame := eval[float64](t, ctx, fetched), eval[float64](t, ctx, `window.__firstFrame ?? -1`)
			if at < 0 || frame < 0 || at < frame {
				t.Errorf("the canvases' module was fetched at %.1f ms, the first frame began at %.1f ms: want it fetched, after", at, frame)
			}
			typeInto(t, ctx, "a size of 2000", size, "2000")
			waitFor(t, ctx, "the canvases drawn", `document.querySelector('#picture').dataset.state === 'done' && `+drawn)

			// A fresh page whose module is blocked: the picture that needs
			// it is not done, and the next one, unblocked, is drawn.
			block := func(on bool) {
				t.Helper()
				var ps []*network.BlockPattern
				if on {
					ps = []*network.BlockPattern{{URLPattern: "*://*:*/static/" + tc.module + ".*", Block: true}}
				}
				if _, err := chromedp.Call(ctx, network.SetBlockedURLs, network.SetBlockedURLsParams{URLPatterns: ps}); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
				t.Fatal(err)
			}
			block(true)
			waitLive(t, ctx, base+tc.path) // a new document: no module in its map yet
			typeInto(t, ctx, "a size of 2000, the module blocked", size, "2000")
			waitFor(t, ctx, "the answer's canvas slots", fmt.Sprintf(`!!document.querySelector(%q)`, tc.canvas))
			waitFor(t, ctx, "the note that the module did not load", `document.querySelector('#picture').dataset.state === 'refused' && !document.querySelector('#stale').hidden`)
			if eval[bool](t, ctx, drawn) {
				t.Error("without the canvases' module, a canvas is drawn")
			}
			if note := eval[string](t, ctx, `document.querySelector('#stale').textContent`); !strings.Contains(note, "did not load") {
				t.Errorf("the note says %q", note)
			}
			block(false)
			typeInto(t, ctx, "a size of 2001, the module reachable", size, "2001")
			waitFor(t, ctx, "the canvases drawn once the module is reachable", `document.querySelector('#picture').dataset.state === 'done' && `+drawn)
			if eval[bool](t, ctx, `!document.querySelector('#stale').hidden`) {
				t.Errorf("drawn, the page still says %q", eval[string](t, ctx, `document.querySelector('#stale').textContent`))
			}
		})
	}
}
