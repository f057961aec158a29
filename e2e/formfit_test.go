package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// formOverflow lists what in the form sticks out of its content box on
// the right (into its padding or past it): each such element and by how
// many pixels.
const formOverflow = `(() => {
	const f = document.querySelector('form#controls'), r = f.getBoundingClientRect(), cs = getComputedStyle(f);
	const edge = r.right - parseFloat(cs.borderRightWidth) - parseFloat(cs.paddingRight);
	return [...f.querySelectorAll('*')].filter((el) => el.getClientRects().length && el.getBoundingClientRect().right > edge + 0.5)
		.map((el) => el.tagName.toLowerCase() + (el.id ? '#' + el.id : '') + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : '') + ' +' + Math.round(el.getBoundingClientRect().right - edge) + 'px').slice(0, 8).join(', ');
})()`

// TestE2EFormsFitTheirColumn: every operator's form holds its fields in
// its own box, in every language, in the desktop's 19rem column and on a
// 390 px phone. The padding's dims table, five columns under
// Portuguese headers ("tamanho", "depois"), reached across the form's
// padding to its border on a desktop.
func TestE2EFormsFitTheirColumn(t *testing.T) {
	base := startServer(t)
	for _, size := range [][2]int{{1400, 900}, {390, 844}} {
		ctx := newBrowser(t, false, chromedp.WindowSize(size[0], size[1]))
		for _, page := range []string{"/?sizes=2,3", "/slice?sizes=1,2,3,4", "/padding?sizes=1,1,4,4", "/tile?sizes=1,1,4,4", "/convert?sizes=1,2,3,4", "/depthspace", "/joinsplit"} {
			for _, lang := range []string{"en", "fr", "pt-BR", "zh-TW"} {
				url := fmt.Sprintf("%s%s&lang=%s", base, page, lang)
				if page == "/depthspace" || page == "/joinsplit" {
					url = fmt.Sprintf("%s%s?lang=%s", base, page, lang)
				}
				waitLive(t, ctx, url)
				if got := eval[string](t, ctx, formOverflow); got != "" {
					t.Errorf("%dx%d %s (%s): out of the form: %s", size[0], size[1], page, lang, got)
				}
			}
		}
	}
}
