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
// that has the keyboard focus keeps it and is selected again, and every
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
				if (!cell.classList.contains('sel') || (cell.hasAttribute('aria-selected') && cell.getAttribute('aria-selected') !== 'true') || cell.tabIndex !== 0) return 'the focused cell is not selected or not the tab stop: ' + cell.outerHTML;
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
					if (a !== cell && (a.getAttribute('aria-selected') === 'true' || a.classList.contains('sel'))) return 'cell ' + a.id + ' selected too';
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
