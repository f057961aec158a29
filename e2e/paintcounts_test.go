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

// TestE2EPaintBitsMatchesEachCell: canvas.js paintBits, which draws a
// buffer strip from compute's bitmaps a pixel (and a word) at a time
// rather than from a byte per cell, colours each pixel as the cells it
// holds say one by one: the first layer with a bit among them, else a
// hole up to the last cell, else the tail; for random bitmaps, lengths
// and bins from one cell a pixel to several words a pixel.
func TestE2EPaintBitsMatchesEachCell(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/?sizes=300,300")
	tctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	bad, err := chromedp.Run(tctx, chromedp.Evaluate[string](`(async () => {
		const url = [...document.querySelectorAll('link[rel=modulepreload], script[type=module]')].map((e) => e.href || e.src).find((u) => /\/canvas\.[0-9a-f]+\.js$/.test(u));
		if (!url) return 'no canvas module on the page';
		const { paintBits } = await import(url);
		for (let t = 0; t < 3000; t++) {
			const n = 1 + Math.floor(Math.random() * 700), bin = [1, 2, 3, 8, 31, 32, 33, 64, 100][t % 9], dense = [0.001, 0.05, 0.5, 0.97][t % 4];
			const bitmap = () => { const w = new Uint32Array(Math.ceil(n / 32) + 1); for (let i = 0; i < n; i++) if (Math.random() < dense) w[i >>> 5] |= 1 << (i & 31); return w; };
			const a = bitmap(), b = t % 3 ? bitmap() : null;
			const last = Math.floor(Math.random() * n), w = Math.ceil(n / bin) + 3;
			const img = new Uint8ClampedArray(w * 4);
			paintBits(img, { bin, w, h: 1 }, n, last, [[a, 14], [b, 12]], 11, 10);
			const got = new Uint32Array(img.buffer), on = (m, i) => m !== null && ((m[i >>> 5] >>> (i & 31)) & 1) === 1;
			for (let p = 0, k = 0; p < w; p++) {
				let v = k < n && k <= last ? 11 : 10, la = false, lb = false;
				for (const e = Math.min(k + bin, n); k < e; k++) { la ||= on(a, k); lb ||= on(b, k); }
				if (la) v = 14; else if (lb) v = 12;
				if (got[p] !== v) return 'pixel ' + p + ' of ' + JSON.stringify({ n, bin, last }) + ': ' + got[p] + ', want ' + v;
			}
		}
		return '';
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if bad != "" {
		t.Fatal(bad)
	}
}
