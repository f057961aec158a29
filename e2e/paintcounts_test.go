package e2e

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestE2EPaintCountsMatchesEachCell: the buffer canvas's painter, which
// reads a pixel's cells four at a time, colours every pixel as the
// highest class of its cells would (shared, used, hole up to the last
// element, tail), on 3,000 random strips in Chromium's own engine.
func TestE2EPaintCountsMatchesEachCell(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/?sizes=300,300")
	tctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	bad, err := chromedp.Run(tctx, chromedp.Evaluate[string](`(async () => {
		const url = [...document.querySelectorAll('link[rel=modulepreload], script[type=module]')].map((e) => e.href || e.src).find((u) => /\/canvas\.[0-9a-f]+\.js$/.test(u));
		if (!url) return 'no canvas module on the page';
		const { paintCounts } = await import(url);
		const cols = [10, 11, 12, 13];
		for (let t = 0; t < 3000; t++) {
			const n = 1 + Math.floor(Math.random() * 300), bin = [1, 2, 3, 4, 8, 12, 16][t % 7], mode = t % 4;
			const counts = new Uint8Array(n);
			for (let i = 0; i < n; i++) counts[i] = mode === 0 ? 1 : mode === 1 ? (Math.random() < 0.1 ? 0 : 1) : Math.floor(Math.random() * 3) * (Math.random() < 0.5 ? 1 : 0);
			const last = Math.floor(Math.random() * n), w = Math.ceil(n / bin) + 3;
			const img = new Uint8ClampedArray(w * 4);
			paintCounts(img, { bin, w, h: 1 }, counts, last, cols);
			const got = new Uint32Array(img.buffer);
			for (let p = 0, k = 0; p < w; p++) {
				let v = 0;
				for (const e = Math.min(k + bin, n); k < e; k++) { const c = counts[k]; v = Math.max(v, c > 1 ? 3 : c === 1 ? 2 : k <= last ? 1 : 0); }
				if (got[p] !== cols[v]) return 'pixel ' + p + ' of ' + JSON.stringify({ n, bin, last, counts: [...counts] }) + ': ' + got[p] + ', want ' + cols[v];
			}
		}
		return '';
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if bad != "" {
		t.Error(bad)
	}
}
