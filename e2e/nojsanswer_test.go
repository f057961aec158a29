package e2e

import (
	"context"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// scriptOff turns the page's JavaScript off in ctx (on: back on, for
// axe, which runs in the page; the page's own modules stay unrun).
func scriptOff(t *testing.T, ctx context.Context, off bool) {
	t.Helper()
	if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: off}); err != nil {
		t.Fatalf("script off %v: %v", off, err)
	}
}

// checkNoScriptPage runs axe on ctx's page (its script left unrun) and,
// on the phone, checks that it fits 390 px.
func checkNoScriptPage(t *testing.T, ctx context.Context, what string, phone bool) {
	t.Helper()
	scriptOff(t, ctx, false)
	if got := eval[string](t, ctx, `document.body.dataset.live ?? ''`); got != "" {
		t.Fatalf("%s: the page's script ran: live %q", what, got)
	}
	if vs := axeViolations(t, ctx); len(vs) > 0 {
		t.Errorf("%s: axe:\n%s", what, strings.Join(vs, "\n"))
	}
	if phone {
		if w := eval[int](t, ctx, overflow(390)); w > 0 {
			t.Errorf("%s: %d px wider than the phone's screen", what, w)
		}
	}
	scriptOff(t, ctx, true)
}

// TestE2ERoomAnswerWithoutJavaScript (#41): two students whose browsers
// run no JavaScript (a 390 px phone in English, a desktop in French)
// open the join link while the presenter asks which buffer cell holds
// element (1,2) on the padded preset. Each sees the question and a
// form drawn by the server, the corner offsets hidden; each posts an
// answer and lands on a page that says it was received; the phone
// changes its answer, which replaces the first. The presenter counts 2
// answers; after the reveal, Refresh shows each student whether they
// were right and the class's answers. Every page is axe-core clean.
func TestE2ERoomAnswerWithoutJavaScript(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	waitLive(t, presenter, base+"/?preset=padded")
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting' && !`+qs("q-panel")+`.hidden`)
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)
	typeInto(t, presenter, "the element", `[data-testid=q-element]`, "1,2")
	do(t, presenter, "ask", chromedp.Click(chromedp.CSS(`[data-testid=q-ask]`)))
	waitFor(t, presenter, "the question open", `!`+qs("q-live")+`.hidden && `+qs("q-count")+`.textContent === '0'`)

	students := []struct {
		name, url, prompt, received, right string
		phone                              bool
		answers                            []string
	}{
		{"the phone", join, "Which buffer cell holds element (1, 2)? Type its offset.", "Answer received: ", "Your answer, 7, is right.", true, []string{"5", "7"}},
		{"fr", join + "?lang=fr", "Quelle case du tampon contient l'élément (1, 2) ? Tapez son décalage.", "Réponse reçue : ", "Votre réponse était 5.", false, []string{"5"}},
	}
	ctxs := make([]context.Context, len(students))
	for i, s := range students {
		ctx := newBrowserContext(t, presenter)
		ctxs[i] = ctx
		if s.phone {
			do(t, ctx, "a phone", chromedp.EmulateViewport(390, 844, chromedp.EmulateScale(3), chromedp.EmulateMobile, chromedp.EmulateTouch))
		}
		scriptOff(t, ctx, true)
		do(t, ctx, s.name+": open the join link", chromedp.Navigate(s.url))
		waitFor(t, ctx, s.name+": the question, the offsets hidden", `document.readyState === 'complete' && document.body.dataset.asking === 'cell' && !`+qs("q-panel")+`.hidden &&
			`+qs("q-prompt")+`.textContent.replace(/\s+/g, ' ').trim() === `+jsString(s.prompt)+` && getComputedStyle(document.querySelector('#b-7 .lbl')).visibility === 'hidden' &&
			!document.querySelector('#l-5').getAttribute('aria-label').includes('7') && !/F/.test(document.querySelector('#b-7').getAttribute('aria-label'))`)
		checkNoScriptPage(t, ctx, s.name+", the question", s.phone)
		for n, v := range s.answers {
			if n > 0 {
				do(t, ctx, s.name+": back to the room", chromedp.Click(chromedp.CSS(`[data-testid=q-back]`)))
				waitFor(t, ctx, s.name+": the room again", `document.readyState === 'complete' && location.pathname.split('/').length === 3 && !!`+qs("q-value"))
			}
			typeInto(t, ctx, s.name+": type "+v, `#room-bar [data-testid=q-value]`, v)
			do(t, ctx, s.name+": send", chromedp.Click(chromedp.CSS(`#room-bar [data-testid=q-send]`)))
			waitFor(t, ctx, s.name+": received", `location.pathname.endsWith('/answer') && document.readyState === 'complete' &&
				document.querySelector('[data-testid=q-status]').textContent.replace(/\s+/g, ' ').startsWith(`+jsString(s.received+v)+`)`)
		}
		checkNoScriptPage(t, ctx, s.name+", received", s.phone)
	}
	waitFor(t, presenter, "2 answers, 7 and 5", qs("q-count")+`.textContent === '2' && `+qs("q-dist")+`.children.length === 2 &&
		!!`+qs("q-dist")+`.querySelector('[data-value="7"]') && !!`+qs("q-dist")+`.querySelector('[data-value="5"]')`)

	do(t, presenter, "reveal", chromedp.Click(chromedp.CSS(`[data-testid=q-reveal]`)))
	for i, s := range students {
		ctx := ctxs[i]
		waitFor(t, presenter, "revealed", `!`+qs("q-reveal")+`.offsetParent`)
		do(t, ctx, s.name+": refresh", chromedp.Click(chromedp.CSS(`[data-testid=q-refresh]`)))
		waitFor(t, ctx, s.name+": the reveal", `document.readyState === 'complete' && !document.querySelector('[data-testid=q-result]').hidden &&
			document.querySelector('[data-testid=q-why]').textContent.includes('1×5 + 2×1 = 7') && document.querySelectorAll('[data-testid=q-dist] li').length === 2 &&
			document.querySelector('[data-testid=q-status]').textContent.replace(/\s+/g, ' ').trim() === `+jsString(s.right))
		checkNoScriptPage(t, ctx, s.name+", revealed", s.phone)
	}
}
