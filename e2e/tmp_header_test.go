package e2e

import "testing"

func TestTmpHeader(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	emulate(t, ctx, desktop)
	waitLive(t, ctx, base+"/slice?preset=example2")
	t.Logf("header %v", eval[[]float64](t, ctx, `(r => [r.height, r.width])(document.querySelector('header.site').getBoundingClientRect())`))
	t.Logf("nav %v", eval[[]float64](t, ctx, `[...document.querySelectorAll('header.site nav a')].map(a => a.getBoundingClientRect().top)`))
}
