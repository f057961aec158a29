package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestE2EJoinSplit: DML_JOIN's Example 1 draws, pointing at an output
// cell links the input cell it is copied from (and back), Enter jumps
// between them, an edit over the websocket redraws, and the split's
// example draws its three outputs; on a 390 px phone and on a desktop,
// in English and French, with no sideways scroll, and axe-core finds
// nothing.
func TestE2EJoinSplit(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	title := map[string]string{"en": "Join and split", "fr": "Jonction et scission"}
	for _, screen := range []struct {
		name string
		w, h int64
	}{{"phone", 390, 844}, {"desktop", 1440, 1000}} {
		for _, lang := range []string{"en", "fr"} {
			t.Run(screen.name+"/"+lang, func(t *testing.T) {
				do(t, ctx, "a "+screen.name, chromedp.EmulateViewport(screen.w, screen.h))
				waitLive(t, ctx, base+"/joinsplit?preset=join-example1&lang="+lang)
				if got := text(t, ctx, "h1"); got != title[lang] {
					t.Errorf("title %q, want %q", got, title[lang])
				}
				if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=o0cell]').length`); n != 14 {
					t.Fatalf("%d output cells, want 14", n)
				}
				// Output cell 3 (value 7) is input b's element (0,0,0,0).
				hoverCell(t, ctx, "#o0-3")
				waitFor(t, ctx, "input b's first cell linked", `document.querySelector('#i1-0').classList.contains('linked')`)
				hoverCell(t, ctx, "#i0-4")
				waitFor(t, ctx, "output cell 8 linked", `document.querySelector('#o0-8').classList.contains('linked')`)
				// The keyboard: focus a cell, Enter jumps to its source, an
				// arrow moves along its row.
				do(t, ctx, "focus output cell 3", chromedp.Focus(chromedp.CSS("#o0-3")))
				do(t, ctx, "Enter", chromedp.KeyEvent(kb.Enter))
				waitFor(t, ctx, "focus on input b's first cell", `document.activeElement && document.activeElement.id === 'i1-0'`)
				do(t, ctx, "right", chromedp.KeyEvent(kb.ArrowRight))
				waitFor(t, ctx, "focus on input b's second cell", `document.activeElement && document.activeElement.id === 'i1-1'`)
				if n := eval[float64](t, ctx, `document.documentElement.scrollWidth - innerWidth`); n > 0 {
					t.Errorf("the page is %g px wider than the screen", n)
				}
				if vs := axeViolations(t, ctx); len(vs) > 0 {
					t.Errorf("axe-core: %v", vs)
				}
				// An edit: join along axis 2 is refused at input b's sizes,
				// the picture kept; back to 3 draws again.
				setAxis := func(v string) {
					eval[bool](t, ctx, `(() => { const a = document.querySelector('#f-axis'); a.value = '`+v+`'; return a.dispatchEvent(new Event('input', {bubbles: true})); })()`)
				}
				setAxis("2")
				waitFor(t, ctx, "the error at inputs[1].sizes", `!document.querySelector("[id='err-inputs[1].sizes']").hidden`)
				setAxis("3")
				waitFor(t, ctx, "the error gone", `document.querySelector("[id='err-inputs[1].sizes']").hidden`)
				// The split's example, picked over the socket.
				do(t, ctx, "split 1", chromedp.Click(chromedp.CSS(`[data-testid=preset-split-example1]`)))
				waitFor(t, ctx, "three outputs", `document.querySelectorAll('[data-testid=tensor-o2]').length === 1 && document.querySelector('#f-outs') !== null`)
				if vs := axeViolations(t, ctx); len(vs) > 0 {
					t.Errorf("axe-core on the split: %v", vs)
				}
				// The picker: back to a join, the split's input joined
				// with itself, the number of inputs offered again.
				eval[bool](t, ctx, `(() => { const s = document.querySelector('#f-op'); s.value = 'join'; return s.dispatchEvent(new Event('change', {bubbles: true})); })()`)
				waitFor(t, ctx, "a join of two inputs", `document.querySelector('#f-n') !== null && document.querySelectorAll('[data-testid=tensor-i1]').length === 1 && !document.querySelector('#f-outs')`)
			})
		}
	}
}
