package e2e

import (
	"fmt"
	"testing"
)

// TestE2EBufferBitmapAsRunsAndRaw: the page asks for bitmaps as runs; the
// buffer canvas lights exactly the cells in use whether the server sent
// the bitmap as runs (padded rows, packed) or raw (every other cell, which
// runs cannot shrink), cell by cell over the whole buffer.
func TestE2EBufferBitmapAsRunsAndRaw(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	for _, c := range []struct {
		query string
		cells int    // the buffer's: the last offset plus one
		used  string // JS: whether buffer cell k holds an element
	}{
		{"sizes=300,300&strides=301,1", 299*301 + 300, "k % 301 < 300"},
		{"sizes=700,700", 490000, "true"},
		{"sizes=300,300&strides=600,2", 299*600 + 299*2 + 1, "k % 2 === 0"},
		{"sizes=200,300&strides=1,400", 299*400 + 199 + 1, "k % 400 < 200"},
	} {
		waitLive(t, ctx, base+"/?dt=FLOAT32&"+c.query)
		waitFor(t, ctx, c.query+" drawn", `document.querySelector('#picture').dataset.state === 'done' && !!document.querySelector('#buffer-canvas')?.drawn`)
		// Every cell's pixel has the colour of cell 0 (in use) or, for a
		// cell not in use, the colour the first such cell has.
		got := eval[string](t, ctx, fmt.Sprintf(`(() => {
			const cv = document.querySelector('#buffer-canvas'), c = cv.drawn, px = c.img.data, w = c.img.width;
			const at = (k) => { const [x, y] = c.L.toPixel(k); const i = 4 * (y * w + x); return px[i] + ',' + px[i + 1] + ',' + px[i + 2]; };
			const n = %d;
			const used = (k) => %s;
			let hole = null;
			for (let k = 0; k < n; k++) {
				if (used(k) || hole !== null) continue;
				hole = at(k);
			}
			const inUse = at(0), bad = [];
			if (hole === inUse) return 'a cell not in use has the colour of one in use: ' + hole;
			for (let k = 0; k < n && bad.length < 5; k++) {
				const want = used(k) ? inUse : hole;
				if (at(k) !== want) bad.push(k + ': ' + at(k) + ' not ' + want);
			}
			return bad.join('; ');
		})()`, c.cells, c.used))
		if got != "" {
			t.Errorf("%s: %s", c.query, got)
		}
	}
}
