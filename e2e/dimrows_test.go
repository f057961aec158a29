package e2e

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/stridescope/stridescope/core"
)

// dimsRows describes the dims tables' rows of the document d: each
// row's dimension, its name and every box's and error slot's id, test
// id, accessible name, description and field, one row a line.
const dimsRows = `(d) => [...d.querySelectorAll('form tr.dim, form tr.dim-errors')].map((r) =>
	[r.className, r.dataset.dim, r.querySelector('th')?.textContent ?? '',
	 ...[...r.querySelectorAll('input, [data-error-for], [data-warning-for]')].map((e) =>
		[e.id, e.name || '', e.dataset.testid || '', e.getAttribute('aria-label') || '', e.getAttribute('aria-describedby') || '', e.dataset.errorFor || e.dataset.warningFor || ''].join('/'))].join(' | ')).join('\n')`

// TestE2ERankChangeRowsAreTheServers: a page renders its rank's rows
// only, and a rank chosen in the page makes and names its rows as the
// server renders them for that rank: the same ids, test ids, error slots
// and accessible names (each box says which dimension it is: a 2-D
// tensor's H and W are a 4-D one's N and C), in every explorer with a
// rank and in a translated page; a smaller rank's rows go.
func TestE2ERankChangeRowsAreTheServers(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	for _, page := range []string{"/?sizes=2,3", "/slice?sizes=2,3", "/padding?sizes=2,3", "/tile?sizes=2,3", "/convert?sizes=2,3", "/?lang=zh-TW&sizes=2,3", "/slice?lang=fr&sizes=2,3"} {
		waitLive(t, ctx, base+page)
		if got := eval[int](t, ctx, `document.querySelectorAll('form tr.dim').length`); got != 2*eval[int](t, ctx, `document.querySelectorAll('form table.dims').length`) {
			t.Errorf("%s: %d dimension rows served for a 2-D tensor", page, got)
		}
		for _, rank := range []int{4, 1, 8} {
			do(t, ctx, fmt.Sprintf("%s: rank %d", page, rank), chromedp.SetValue(chromedp.CSS(`[data-testid=rank]`), fmt.Sprint(rank)),
				chromedp.Evaluate[chromedp.Void](`document.querySelector('[data-testid=rank]').dispatchEvent(new Event('change', {bubbles: true}))`))
			want := strings.Join(core.DimensionLabels(rank), "")
			waitFor(t, ctx, fmt.Sprintf("%s: rank %d answered", page, rank), fmt.Sprintf(`(() => {
				const tables = document.querySelectorAll('form table.dims');
				return [...tables].every((tb) => [...tb.querySelectorAll('tr.dim th')].map((th) => th.textContent).join('') === %q)
					&& new URLSearchParams(location.search).get('sizes')?.split(',').length === %d
					&& document.body.dataset.live === 'ready' && document.querySelector('#picture').dataset.state === 'done';
			})()`, want, rank))
			do(t, ctx, "fetch the page as served", chromedp.Evaluate[chromedp.Void](`window.__served = null; fetch(location.href).then((r) => r.text()).then((h) => { window.__served = (`+dimsRows+`)(new DOMParser().parseFromString(h, 'text/html')); })`))
			waitFor(t, ctx, "the page as served", `window.__served !== null`)
			got, served := eval[string](t, ctx, `(`+dimsRows+`)(document)`), eval[string](t, ctx, `window.__served`)
			if got != served {
				t.Errorf("%s, rank %d: the page's rows\n%s\nare not the server's\n%s", page, rank, got, served)
			}
			if !strings.Contains(served, "|") || strings.Contains(served, "{dim}") {
				t.Errorf("%s, rank %d: served rows %q", page, rank, served)
			}
		}
	}
}
