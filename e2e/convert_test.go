package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// TestE2EConvertNHWCToNCHW: the NHWC -> NCHW example draws, pointing at
// an output cell links the input cell it is copied from (and back), the
// access-pattern line says the runs, on a 390 px phone and on a desktop,
// in each language, and axe-core finds nothing.
func TestE2EConvertNHWCToNCHW(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	access := map[string]string{
		"en":    "Reads 24 runs of 1 element, writes 1 run of 24 elements.",
		"fr":    "Lit 24 plages de 1 élément, écrit 1 plage de 24 éléments.",
		"pt-BR": "Lê 24 trechos de 1 elemento, escreve 1 trecho de 24 elementos.",
		"zh-TW": "讀取 24 段、每段 1 個元素，寫入 1 段、每段 24 個元素。",
	}
	for _, screen := range []struct {
		name string
		w, h int64
	}{{"phone", 390, 844}, {"desktop", 1440, 1000}} {
		for _, lang := range []string{"en", "fr", "pt-BR", "zh-TW"} {
			t.Run(screen.name+"/"+lang, func(t *testing.T) {
				do(t, ctx, "a "+screen.name, chromedp.EmulateViewport(screen.w, screen.h))
				waitLive(t, ctx, base+"/convert?preset=nhwc-nchw&lang="+lang)
				if n := eval[int](t, ctx, `document.querySelectorAll('[data-testid=lgcell]').length`); n != 24 {
					t.Fatalf("%d logical cells, want 24", n)
				}
				if got := text(t, ctx, "[data-testid=access]"); got != access[lang] {
					t.Errorf("access line %q, want %q", got, access[lang])
				}
				// Output cell 1 is element (0,0,0,1), read from NHWC offset 3.
				hoverCell(t, ctx, "#ob-1")
				waitFor(t, ctx, "input cell 3 linked", `document.querySelector('#ib-3').classList.contains('linked') && document.querySelector('#lg-1').classList.contains('linked')`)
				hoverCell(t, ctx, "#ib-1")
				waitFor(t, ctx, "output cell 8 linked", `document.querySelector('#ob-8').classList.contains('linked')`)
				// The keyboard: focus a cell, Enter jumps to its linked cell.
				do(t, ctx, "focus output cell 1", chromedp.Focus(chromedp.CSS("#ob-1")))
				do(t, ctx, "Enter", chromedp.KeyEvent(kb.Enter))
				waitFor(t, ctx, "focus on input cell 3", `document.activeElement && document.activeElement.id === 'ib-3'`)
				if n := eval[float64](t, ctx, `document.documentElement.scrollWidth - innerWidth`); n > 0 {
					t.Errorf("the page is %g px wider than the screen", n)
				}
				if vs := axeViolations(t, ctx); len(vs) > 0 {
					t.Errorf("axe-core: %v", vs)
				}
			})
		}
	}
}
