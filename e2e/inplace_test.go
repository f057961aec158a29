package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestE2ESmallPictureUpdatedInPlace: an edit of a picture drawn as cells
// (up to 256) patches the cells rather than replacing the views
// (live.js patchIn): the cells that stay are the same nodes, the cell
// that has the keyboard focus keeps it and is selected again (and
// aria-selected on the layout's; the slice's is a room question's picks),
// and every
// cell has what a fresh page of the new state gives it (its name,
// role, label, offsets, classes and tab stop), cells added where the
// buffer grows and removed where it shrinks, for the layout and the
// slice explorer.
func TestE2ESmallPictureUpdatedInPlace(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	for _, tc := range []struct {
		name, page, grids, cell, field, value, want string
	}{
		{"layout, the buffer grows", "/?sizes=4,4&strides=4,1", "#logical, #buffer", "#l-5", "f-stride-0", "5", "strides=5,1"},
		{"layout, the buffer shrinks", "/?sizes=4,4&strides=6,1", "#logical, #buffer", "#l-6", "f-stride-0", "4", "strides=4,1"},
		{"slice, the window turns", "/slice?sizes=6,6&woff=1,1&wsize=4,4&wstride=1,1", "#slice-input, #slice-output, #slice-buffer", "#in-7", "f-wstride-1", "-1", "wstride=1,-1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			waitLive(t, ctx, base+tc.page)
			do(t, ctx, "mark the cells and focus one", chromedp.Evaluate[chromedp.Void](`for (const c of document.querySelectorAll('.lc, .bc')) c.kept = true`),
				chromedp.Click(chromedp.CSS(tc.cell)))
			waitFor(t, ctx, "the cell selected", fmt.Sprintf(`document.querySelector(%q).classList.contains('sel')`, tc.cell))
			setFields(t, ctx, "the edit", tc.value, tc.field)
			waitFor(t, ctx, "the edit drawn", fmt.Sprintf(`decodeURIComponent(location.search).includes(%q) && document.querySelector('#picture').dataset.state === 'done'`, tc.want))
			tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
			defer cancel()
			bad, err := chromedp.Run(tctx, chromedp.Evaluate[string](fmt.Sprintf(`(async () => {
				const cell = document.querySelector(%q);
				if (!cell.kept) return 'the focused cell was replaced';
				if (document.activeElement !== cell) return 'the focus moved to ' + (document.activeElement?.id || document.activeElement?.tagName);
				if (!cell.classList.contains('sel') || (cell.id.startsWith('l-') && cell.getAttribute('aria-selected') !== 'true') || cell.tabIndex !== 0) return 'the focused cell is not selected or not the tab stop: ' + cell.outerHTML;
				const fresh = new DOMParser().parseFromString(await (await fetch(location.href)).text(), 'text/html');
				const grids = %q, sel = grids.split(', ').map((g) => g + ' .lc, ' + g + ' .bc').join(', ');
				const mine = [...document.querySelectorAll(sel)], theirs = [...fresh.querySelectorAll(sel)];
				if (mine.length !== theirs.length) return mine.length + ' cells, a fresh page has ' + theirs.length;
				let kept = 0;
				const attrs = (c) => [...c.attributes].filter((a) => !['aria-selected', 'tabindex', 'class'].includes(a.name)).map((a) => a.name + '=' + a.value).sort().join(' ');
				const classes = (c) => [...c.classList].filter((k) => k !== 'sel' && k !== 'linked').sort().join(' ');
				for (let i = 0; i < mine.length; i++) {
					const a = mine[i], b = theirs[i];
					if (a.kept) kept++;
					if (attrs(a) !== attrs(b) || classes(a) !== classes(b) || a.textContent !== b.textContent) return 'cell ' + i + ': ' + a.outerHTML + ', a fresh page: ' + b.outerHTML;
					if (a !== cell && (a.getAttribute('aria-selected') !== b.getAttribute('aria-selected') || a.classList.contains('sel'))) return 'cell ' + a.id + ' selected too';
				}
				if (kept < mine.length / 2) return 'only ' + kept + ' of ' + mine.length + ' cells kept';
				return '';
			})()`, tc.cell, tc.grids), chromedp.EvalAwaitPromise))
			if err != nil {
				t.Fatal(err)
			}
			if bad != "" {
				t.Fatal(bad)
			}
		})
	}
}

// TestE2ESliceCanvasesKeptOnlyWhenTheSame: an edit that leaves a slice
// canvas's image as it was (a window turned around copies the same
// input elements and reads the same cells) keeps that canvas's image
// rather than painting it again; every canvas after every edit shows
// what a fresh page of the same state shows, pixel for pixel, whether
// it was kept or painted.
func TestE2ESliceCanvasesKeptOnlyWhenTheSame(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/slice?dt=FLOAT32&sizes=300,300&woff=0,0&wsize=300,300&wstride=1,1")
	const pixels = `['slice-in-canvas', 'slice-out-canvas', 'slice-buf-canvas'].map((id) => {
		const c = document.getElementById(id), d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
		let x = 0;
		for (let i = 0; i < d.length; i++) x = (x * 31 + d[i]) | 0;
		return id + ' ' + c.width + 'x' + c.height + ' ' + x;
	}).join(', ') + ', labels ' + [...document.querySelectorAll('#picture .cv-over')].map((o) => o.innerHTML).join('|')`
	// How many times each canvas was painted, 0 for a canvas the edit
	// put in (marked: the last edit's are).
	const paints = `['slice-in-canvas', 'slice-out-canvas', 'slice-buf-canvas'].map((id) => { const c = document.getElementById(id), n = c.old ? c.dataset.paints : 0; c.old = true; return n; }).join(',')`
	const mark = `['slice-in-canvas', 'slice-out-canvas', 'slice-buf-canvas'].forEach((id) => { document.getElementById(id).old = true; })`
	for _, e := range []struct {
		field, value, want string
		kept               bool
	}{
		{"f-wstride-1", "-1", "wstride=1,-1", true},  // the same elements copied, the same cells read
		{"f-wsize-0", "290", "wsize=290,300", false}, // another window
		{"f-woff-0", "10", "woff=10,0", false},       // moved
		{"f-wstride-0", "-1", "wstride=-1,-1", true}, // turned around
		{"f-wstride-1", "2", "wstride=-1,2", false},  // every other column
	} {
		do(t, ctx, "mark the canvases", chromedp.Evaluate[chromedp.Void](mark))
		before := eval[string](t, ctx, paints)
		setFields(t, ctx, e.want, e.value, e.field)
		waitFor(t, ctx, e.want+" drawn", fmt.Sprintf(`decodeURIComponent(location.search).includes(%q) && document.querySelector('#picture').dataset.state === 'done'`, e.want))
		// The output is painted on every edit; the input and the buffer
		// only when they change (or the fragment put in a new canvas).
		after := eval[string](t, ctx, paints)
		var b, a [3]int
		fmt.Sscanf(before, "%d,%d,%d", &b[0], &b[1], &b[2])
		fmt.Sscanf(after, "%d,%d,%d", &a[0], &a[1], &a[2])
		kept := func(k int) bool { return a[k] != 0 && a[k] == b[k] }
		if kept(1) || kept(0) != e.kept || kept(2) != e.kept {
			t.Errorf("after %s: paints (input, output, buffer) went from %s to %s; kept %v", e.want, before, after, e.kept)
		}
		got := eval[string](t, ctx, pixels)
		url := eval[string](t, ctx, `location.href`)
		waitLive(t, ctx, url)
		waitFor(t, ctx, "the fresh page drawn", `document.querySelector('#picture').dataset.state === 'done' && !!document.getElementById('slice-in-canvas')`)
		if want := eval[string](t, ctx, pixels); got != want {
			t.Errorf("after %s: the canvases show %s, a fresh page %s", e.want, got, want)
		}
	}
}

// TestE2EOverlappingCanvasWithoutOffsets: an overlapping layout drawn on
// canvases keeps no array of its elements' offsets (64 MiB at 2^24):
// a buffer cell's elements are found row by row when it is reached, and
// its caption says how many share it and which come first, as the
// offsets did; the tab's typed arrays stay small.
func TestE2EOverlappingCanvasWithoutOffsets(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	for _, c := range []struct{ query, want string }{
		{"sizes=300,300&strides=1,1&cell=0", "buffer offset 0 holds element (0,0)"},
		{"sizes=300,300&strides=1,1&cell=1", "buffer offset 1 is shared by 2 elements: (0,1), (1,0)"},
		{"sizes=300,300&strides=1,1&cell=299", "buffer offset 299 is shared by 300 elements: (0,299), (1,298), (2,297), (3,296), (4,295), (5,294), (6,293), (7,292) and 292 more"},
		// More elements than a mark lights: the count is of them all.
		{"sizes=400,400&strides=0,0&cell=0", "buffer offset 0 is shared by 160000 elements: (0,0), (0,1), (0,2), (0,3), (0,4), (0,5), (0,6), (0,7) and 159992 more"},
	} {
		waitLive(t, ctx, base+"/?dt=FLOAT32&"+c.query)
		if got := eval[string](t, ctx, `document.querySelector('[data-mode]').dataset.mode`); got != "canvas" {
			t.Fatalf("%s: the logical view is %s, want a canvas", c.query, got)
		}
		waitFor(t, ctx, c.want, fmt.Sprintf(`document.querySelector('#picture').dataset.state === 'done' && document.querySelector('#dot').textContent === %q`, c.want))
	}
}
