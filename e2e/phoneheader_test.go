package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// headerLinksShown lists what is wrong with the site header's links on
// the screen: a link not drawn, reaching past the screen's edges, cut by
// an ancestor that clips (overflow) or fades (a mask), its text cut, or
// covered at its centre; and a page wider than the screen. [] when none.
const headerLinksShown = `(() => {
	const out = [], W = innerWidth;
	if (document.documentElement.scrollWidth > W) out.push('the page is ' + document.documentElement.scrollWidth + ' px wide');
	const links = [...document.querySelectorAll('header.site a')];
	if (links.length < 10) out.push('only ' + links.length + ' links in the header');
	for (const a of links) {
		const r = a.getBoundingClientRect(), name = a.textContent.trim();
		if (!r.width || !r.height) { out.push(name + ': not drawn'); continue; }
		if (r.left < 0 || r.right > W) out.push(name + ': spans ' + r.left.toFixed(1) + ' to ' + r.right.toFixed(1) + ' px of ' + W);
		for (let p = a.parentElement; p && p !== document.documentElement; p = p.parentElement) {
			const cs = getComputedStyle(p), pr = p.getBoundingClientRect();
			if ((cs.overflowX !== 'visible' || cs.overflowY !== 'visible') && (r.left < pr.left - .5 || r.right > pr.right + .5 || r.top < pr.top - .5 || r.bottom > pr.bottom + .5))
				out.push(name + ': clipped by ' + p.tagName.toLowerCase() + '.' + p.className);
			if (cs.maskImage && cs.maskImage !== 'none') out.push(name + ': faded by a mask on ' + p.tagName.toLowerCase());
		}
		if (a.clientWidth && a.scrollWidth > a.clientWidth + 1) out.push(name + ': its text is cut');
		const el = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
		if (!el || !a.contains(el)) out.push(name + ': covered by ' + (el ? el.tagName.toLowerCase() + '.' + el.className : 'nothing'));
	}
	return out;
})()`

// TestE2EPhoneHeaderShowsEveryLink: on a 390 x 844 phone, in every
// language, every link of the site header (the five pages, the four
// languages and the glossary) is on the screen, whole and readable: none
// is scrolled out of the header's line, cut or faded, and the page is no
// wider than the screen (issue #37, point 6.1: pt-BR and fr showed one of
// the five, zh-TW cut 導覽教學). The links wrap onto a second line where
// they need it, and the header stays under a quarter of the screen.
func TestE2EPhoneHeaderShowsEveryLink(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	emulate(t, ctx, phone)
	for _, lang := range []string{"en", "zh-TW", "pt-BR", "fr"} {
		for _, path := range []string{"/", "/slice", "/tour/3", "/join", "/glossary"} {
			do(t, ctx, "open "+path+" in "+lang, chromedp.Navigate(base+path+"?lang="+lang))
			if bad := eval[[]string](t, ctx, headerLinksShown); len(bad) > 0 {
				t.Errorf("%s %s: %q", lang, path, bad)
			}
			if h := eval[float64](t, ctx, `document.querySelector('header.site').getBoundingClientRect().bottom`); h > 844/4 {
				t.Errorf("%s %s: the header ends at %g px of 844", lang, path, h)
			}
		}
	}
}
