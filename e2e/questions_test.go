package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// qs is a question panel's part by test id, on any page.
func qs(id string) string { return `document.querySelector('#room-bar [data-testid=` + id + `]')` }

// TestE2ERoomQuestion (issue #41): a presenter and three students (one on a
// 390 px phone, one reading Traditional Chinese, one French) in a room on
// the layout explorer's padded preset. The presenter asks which buffer
// cell holds element (1,2); while it is open the students' pictures hide
// the answer; the phone taps cell 7, the zh-TW student types 7, the
// French one types the packed layout's 5. The presenter's view counts 3
// answers with the distribution on the picture and named; no student's
// page shows any of it; the reveal shows the answer, its dot product and
// the distribution on every screen. Every view is axe-core clean.
func TestE2ERoomQuestion(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	waitLive(t, presenter, base+"/?preset=padded")
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting' && !`+qs("q-panel")+`.hidden`)
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)

	phone, zh, fr := newBrowserContext(t, presenter), newBrowserContext(t, presenter), newBrowserContext(t, presenter)
	do(t, phone, "a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch))
	students := []struct {
		name string
		ctx  context.Context
		url  string
	}{{"the phone", phone, join}, {"zh-TW", zh, join + "?lang=zh-TW"}, {"fr", fr, join + "?lang=fr"}}
	for _, s := range students {
		waitLive(t, s.ctx, s.url)
		waitFor(t, s.ctx, s.name+" following", roomState+` === 'following'`)
	}
	waitFor(t, presenter, "three watching", watching+` === '3'`)

	// Ask, by keyboard: the element field holds 1,2; Enter on Ask.
	do(t, presenter, "focus the element", chromedp.Focus(chromedp.CSS(`[data-testid=q-element]`)))
	typeInto(t, presenter, "type the element", `[data-testid=q-element]`, "1,2")
	do(t, presenter, "focus Ask", chromedp.Focus(chromedp.CSS(`[data-testid=q-ask]`)))
	do(t, presenter, "press Enter", chromedp.KeyEvent("\r"))
	waitFor(t, presenter, "the question open", `!`+qs("q-live")+`.hidden && `+qs("q-count")+`.textContent === '0' && `+qs("q-prompt")+`.textContent.includes('(1, 2)')`)

	hidden := `getComputedStyle(document.querySelector('.lc .off')).visibility === 'hidden' && getComputedStyle(document.querySelector('#b-7 .lbl')).visibility === 'hidden' && getComputedStyle(document.querySelector('#dot')).visibility === 'hidden' &&
		!document.querySelector('#l-5').getAttribute('aria-label').includes('7') && !/F/.test(document.querySelector('#b-7').getAttribute('aria-label'))`
	prompts := map[string]string{"the phone": "Which buffer cell holds element (1, 2)?", "zh-TW": "元素 (1, 2) 存放在哪個緩衝區格子？", "fr": "Quelle case du tampon contient l'élément (1, 2) ?"}
	for _, s := range students {
		waitFor(t, s.ctx, s.name+": the question, the answer hidden", `document.body.dataset.asking === 'cell' && !`+qs("q-panel")+`.hidden && `+qs("q-prompt")+`.textContent.replace(/\s+/g, ' ').startsWith(`+jsString(prompts[s.name])+`) && `+hidden)
		if vs := axeViolations(t, s.ctx); len(vs) > 0 {
			t.Errorf("%s, question open: axe:\n%s", s.name, strings.Join(vs, "\n"))
		}
	}
	if w := eval[int](t, phone, overflow(390)); w > 0 {
		t.Errorf("the phone's page is %d px wider than its screen with the question", w)
	}

	// The phone taps cell 7; zh-TW types 7; fr types the packed 5.
	do(t, phone, "tap buffer cell 7", chromedp.Click(chromedp.CSS(`#b-7`)))
	waitFor(t, phone, "the phone's answer taken", qs("q-status")+`.textContent.includes('7')`)
	typeInto(t, zh, "type 7", `[data-testid=q-value]`, "7")
	do(t, zh, "send", chromedp.Click(chromedp.CSS(`[data-testid=q-send]`)))
	waitFor(t, zh, "zh-TW's answer taken", qs("q-status")+`.textContent.includes('7')`)
	typeInto(t, fr, "type 5", `[data-testid=q-value]`, "5")
	typeInto(t, fr, "a nickname", `[data-testid=q-nick]`, "Zoé")
	do(t, fr, "send with Enter", chromedp.KeyEvent("\r"))
	waitFor(t, fr, "fr's answer taken", qs("q-status")+`.textContent.includes('5')`)

	waitFor(t, presenter, "3 answers and their distribution", qs("q-count")+`.textContent === '3' && `+qs("q-dist")+`.children.length === 2 &&
		`+qs("q-dist")+`.querySelector('[data-value="7"]').textContent.includes('2') && `+qs("q-dist")+`.querySelector('[data-value="7"]').classList.contains('right') &&
		`+qs("q-dist")+`.querySelector('[data-value="5"]').textContent.includes('packed layout') &&
		document.querySelector('#b-7').dataset.heat === '2' && document.querySelector('#b-5').dataset.heat === '1'`)
	if vs := axeViolations(t, presenter); len(vs) > 0 {
		t.Errorf("the presenter, answers in: axe:\n%s", strings.Join(vs, "\n"))
	}
	for _, s := range students {
		if leak := eval[string](t, s.ctx, `[`+qs("q-result")+`.hidden ? '' : 'the result', `+qs("q-dist")+`.children.length ? 'the distribution' : '', document.querySelector('#buffer [data-heat]') ? 'the heat' : ''].filter(Boolean).join(', ')`); leak != "" {
			t.Errorf("%s sees %s before the reveal", s.name, leak)
		}
	}

	do(t, presenter, "reveal", chromedp.Click(chromedp.CSS(`[data-testid=q-reveal]`)))
	mine := map[string]string{"the phone": "Your answer, 7, is right.", "zh-TW": "你的答案 7 正確。", "fr": "Votre réponse était 5."}
	for _, s := range students {
		waitFor(t, s.ctx, s.name+": the reveal", `!`+qs("q-result")+`.hidden && `+qs("q-why")+`.textContent.includes('1×5 + 2×1 = 7') && `+qs("q-dist")+`.children.length === 2 &&
			`+qs("q-status")+`.textContent === `+jsString(mine[s.name])+` && document.body.dataset.asking === undefined && document.querySelector('#b-7').dataset.heat === '2' &&
			document.querySelector('#l-5').getAttribute('aria-label').includes('7')`)
		if vs := axeViolations(t, s.ctx); len(vs) > 0 {
			t.Errorf("%s, revealed: axe:\n%s", s.name, strings.Join(vs, "\n"))
		}
	}
	shot(t, presenter, "room-question-presenter")
	shot(t, phone, "room-question-phone")

	// Another kind: which element does cell 5 hold? (1,0). The phone taps
	// it in the logical view, fr types its coordinates; zh-TW gives none.
	do(t, presenter, "pick the element question", chromedp.Evaluate[chromedp.Void](`(() => { const k = document.querySelector('[data-testid=q-kind]'); k.value = 'element'; k.dispatchEvent(new Event('change')); })()`))
	waitFor(t, presenter, "the cell field instead of the element's", `!document.querySelector('.q-cell').hidden && document.querySelector('.q-element').hidden && getComputedStyle(document.querySelector('.q-element')).display === 'none'`)
	typeInto(t, presenter, "cell 5", `[data-testid=q-cell]`, "5")
	do(t, presenter, "ask", chromedp.Click(chromedp.CSS(`[data-testid=q-ask]`)))
	waitFor(t, presenter, "the element question open", qs("q-count")+`.textContent === '0' && getComputedStyle(`+qs("q-ask-form")+`).display === 'none'`)
	for _, s := range students {
		waitFor(t, s.ctx, s.name+": the element question", `document.body.dataset.asking === 'element' && `+qs("q-result")+`.hidden && `+qs("q-status")+`.textContent === ''`)
	}
	do(t, phone, "tap (1,0)", chromedp.Click(chromedp.CSS(`#l-3`)))
	waitFor(t, phone, "the phone's answer taken", qs("q-status")+`.textContent.includes('(1, 0)')`)
	typeInto(t, fr, "type 1,0", `[data-testid=q-value]`, "1,0")
	do(t, fr, "send", chromedp.Click(chromedp.CSS(`[data-testid=q-send]`)))
	waitFor(t, fr, "fr's answer taken", qs("q-status")+`.textContent.includes('(1, 0)')`)
	waitFor(t, presenter, "2 answers, (1, 0) right, on the logical view", qs("q-count")+`.textContent === '2' && `+qs("q-dist")+`.querySelector('[data-value="3"]').textContent.includes('(1, 0)') &&
		document.querySelector('#l-3').dataset.heat === '2'`)
	do(t, presenter, "close the answers", chromedp.Click(chromedp.CSS(`[data-testid=q-close]`)))
	waitFor(t, zh, "closed: no form", `getComputedStyle(`+qs("q-answer-form")+`).display === 'none' && `+qs("q-status")+`.textContent !== ''`)
	do(t, presenter, "done", chromedp.Click(chromedp.CSS(`[data-testid=q-dismiss]`)))
	for _, s := range students {
		waitFor(t, s.ctx, s.name+": no question", qs("q-panel")+`.hidden && document.body.dataset.asking === undefined && !document.querySelector('#picture [data-heat]')`)
	}
}

// jsString is s as a JavaScript string literal.
func jsString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
