package e2e

import (
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/stridescope/stridescope/testkit"
	"github.com/stridescope/stridescope/web"
)

// param is a query parameter of the href of the link sel, in the page.
func param(sel, name string) string {
	return `new URL(document.querySelector('` + sel + `').href).searchParams.get('` + name + `')`
}

// TestE2ELinksFollowTheShownState: the links that carry the page's state
// carry the state shown after edits, not the one the page was loaded with:
// the language switcher keeps an edit, "Present this" opens the room on
// it, "Stop presenting" keeps the presenter's edits, and the DxDispatch
// download of a state with errors is the model of the state drawn (the
// last valid one).
func TestE2ELinksFollowTheShownState(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)

	waitLive(t, ctx, base+"/?dt=FLOAT32&sizes=2,3&strides=5,1&total=40")
	typeInto(t, ctx, "type a height stride of 7", `[data-testid=stride-0]`, "7")
	waitFor(t, ctx, "the edit in the address bar and the switcher", `new URLSearchParams(location.search).get('strides') === '7,1' && `+param(`[data-testid=lang-fr]`, "strides")+` === '7,1' && `+param(`[data-testid=lang-fr]`, "lang")+` === 'fr'`)
	do(t, ctx, "click FR", chromedp.Click(chromedp.CSS(`[data-testid=lang-fr]`)))
	waitFor(t, ctx, "the edited state in French", `document.documentElement.lang === 'fr' && document.querySelector('[data-testid=stride-0]').value === '7'`)
	// The page before is restored from the back/forward cache where the
	// browser keeps it: no load event, which chromedp.NavigateBack and
	// waitFor's chromedp.Poll wait for; evalUntil polls.
	do(t, ctx, "Back", chromedp.Evaluate[chromedp.Void](`history.back()`))
	evalUntil(t, ctx, "Back", `!new URLSearchParams(location.search).has('lang') && document.body.dataset.live === 'ready' && document.querySelector('#picture').dataset.state === 'done'`)
	evalUntil(t, ctx, "the switcher after Back", param(`[data-testid=lang-pt-BR]`, "strides")+` === new URLSearchParams(location.search).get('strides')`)

	// "Present this" opens the room on the state edited since the page
	// loaded; a presenter's edits survive "Stop presenting".
	waitLive(t, ctx, base+"/?dt=FLOAT32&sizes=2,3&strides=5,1")
	typeInto(t, ctx, "type a height of 4", `[data-testid=size-0]`, "4")
	waitFor(t, ctx, "the edit in the address bar", `new URLSearchParams(location.search).get('sizes') === '4,3'`)
	do(t, ctx, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, ctx, "the room", roomState+` === 'presenting' && document.querySelector('#picture').dataset.state === 'done'`)
	if got := eval[string](t, ctx, `new URLSearchParams(location.search).get('sizes') + ' ' + document.querySelector('[data-testid=size-0]').value`); got != "4,3 4" {
		t.Errorf("the room opened on sizes and a height %q, want the edited 4,3 and 4", got)
	}
	typeInto(t, ctx, "the presenter types a width of 5", `[data-testid=size-1]`, "5")
	waitFor(t, ctx, "the leave link to follow", param(`[data-testid=room-leave]`, "sizes")+` === '4,5' && `+param(`[data-testid=room-leave]`, "room")+` === null && `+param(`[data-testid=lang-fr]`, "sizes")+` === '4,5'`)
	do(t, ctx, "Stop presenting", clickInView(`[data-testid=room-leave]`))
	waitFor(t, ctx, "the edited state outside the room", `!new URLSearchParams(location.search).has('room') && document.querySelector('[data-testid=size-1]').value === '5' && document.body.dataset.live === 'ready'`)

	// The DxDispatch model of a slice whose typed window has an error is
	// the model of the window drawn.
	waitLive(t, ctx, base+"/slice?preset=example2")
	typeInto(t, ctx, "an offset past the input", `[data-testid=woff-3]`, "3")
	waitFor(t, ctx, "the error and the last valid state", `new URLSearchParams(location.search).has('last') && !document.querySelector('[data-testid="err-inputWindowOffsets[3]"]').hidden`)
	do(t, ctx, "focus the download", chromedp.Focus(chromedp.CSS(`[data-testid=dx-download]`)))
	got, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async () => { const r = await fetch(document.querySelector('[data-testid=dx-download]').href); return r.status + ' ' + ((await r.json()).dispatchables ? 'model' : 'no model'); })()`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("fetch the download: %v", err)
	}
	if got != "200 model" {
		t.Errorf("the DxDispatch link of a state with an error answers %q, want 200 model (href %s)", got, eval[string](t, ctx, `document.querySelector('[data-testid=dx-download]').href`))
	}
}

// TestE2EEditWhileOfflineReachesTheAddressBar: while the server is away
// the page says so; an edit typed meanwhile is drawn once the page
// reconnects, and the address bar (which sharing, reloading and the
// downloads read) holds it too.
func TestE2EEditWhileOfflineReachesTheAddressBar(t *testing.T) {
	addr := testkit.FreeAddr(t)
	cfg := web.Config{DataDir: t.TempDir(), RoomSecret: []byte("e2e offline secret")}
	stop := serveOn(t, addr, cfg)
	base := "http://" + addr
	ctx := newBrowser(t, false)

	for _, tc := range []struct{ page, field, value, param, want string }{
		{"/?dt=FLOAT32&sizes=2,3&strides=5,1", `[data-testid=stride-0]`, "4", "strides", "4,1"},
		{"/slice?dt=INT8&sizes=3,4&strides=0,1&woff=0,0&wsize=3,4&wstride=2,-1", `[data-testid=wstride-1]`, "1", "wstride", "2,1"},
	} {
		waitLive(t, ctx, base+tc.page)
		stop()
		waitFor(t, ctx, "the page to see the server gone and say so", `document.body.dataset.live === 'offline' && !document.querySelector('[data-testid=offline-note]').hidden && document.querySelector('[data-testid=live-note]').hidden`)
		typeInto(t, ctx, "an edit while offline", tc.field, tc.value)
		stop = serveOn(t, addr, cfg)
		waitFor(t, ctx, "the edit drawn and in the address bar", `document.body.dataset.live === 'ready' && document.querySelector('#picture').dataset.state === 'done' && new URLSearchParams(location.search).get('`+tc.param+`') === '`+tc.want+`' && document.querySelector('[data-testid=offline-note]').hidden`)
	}
}

// TestE2EEmbedLinksLeaveTheFrame: in an embed, a link to one of the site's
// pages (the glossary) opens in a new tab rather than in the frame, which
// those pages refuse.
func TestE2EEmbedLinksLeaveTheFrame(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/embed/layout?dt=FLOAT32&sizes=2,3&strides=5,1&total=40")
	// The facts, where the link is, fold under the picture in an embed.
	do(t, ctx, "open the facts", clickInView(`[data-testid=embed-more] > summary`))
	do(t, ctx, "click the glossary link", clickInView(`[data-testid=glossary-link]`))
	if got := eval[string](t, ctx, `location.pathname + ' ' + document.querySelector('[data-testid=glossary-link]').target`); got != "/embed/layout _blank" {
		t.Errorf("after clicking the glossary link: %q, want /embed/layout _blank", got)
	}
}

// TestE2EPhoneBufferCellsKeepTheirSize: on a 390 px phone a row of 16
// cells, of the buffer or of the logical grid, scrolls sideways; its cells
// keep one width and their labels are not cut.
func TestE2EPhoneBufferCellsKeepTheirSize(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	emulate(t, ctx, phone)
	for _, tc := range []struct{ page, cells string }{
		{"/?preset=NCDHW", ".buffer[data-mode=dom] .bc"},
		{"/?sizes=4,16", ".buffer[data-mode=dom] .bc"},
		{"/?sizes=4,16", ".logical .lc"},
		{"/slice?preset=nhwc", ".buffer[data-mode=dom] .bc"},
	} {
		page := tc.page
		waitLive(t, ctx, base+page)
		got := eval[string](t, ctx, `(() => {
			const cells = [...document.querySelectorAll('`+tc.cells+`')];
			if (!cells.length) return 'no cells';
			const w = cells.map((c) => c.getBoundingClientRect().width);
			const cut = cells.filter((c) => { const l = c.querySelector('.lbl'); return l && l.scrollWidth > c.clientWidth; }).length;
			return Math.round(Math.max(...w) - Math.min(...w)) + ' px apart, ' + cut + ' cut';
		})()`)
		if got != "0 px apart, 0 cut" {
			t.Errorf("%s on a 390 px phone: %s %s", page, tc.cells, got)
		}
		if n := eval[float64](t, ctx, overflowX); n > 0 {
			t.Errorf("%s on a 390 px phone: the page is %g px wider than the screen", page, n)
		}
	}
}

// TestE2EDetachedViewerKeepsTheirExploration: a viewer who detaches and
// edits has their edits in the address bar (a reload keeps them, and the
// room's bar with Rejoin; Back steps through them); rejoining puts the room's address back, so a reload
// follows the room again.
func TestE2EDetachedViewerKeepsTheirExploration(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	viewer := newBrowserContext(t, presenter)
	waitLive(t, presenter, base+"/?dt=FLOAT32&sizes=2,3&strides=5,1")
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting' && document.querySelector('#picture').dataset.state === 'done'`)
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)
	code := eval[string](t, presenter, `document.querySelector('[data-testid=room-bar]').dataset.room`)
	waitLive(t, viewer, join)
	waitFor(t, viewer, "following", roomState+` === 'following'`)

	typeInto(t, viewer, "the viewer types a stride", `[data-testid=stride-0]`, "6")
	waitFor(t, viewer, "the viewer's own state in the address bar", roomState+` === 'detached' && location.pathname === '/' && new URLSearchParams(location.search).get('strides') === '6,1'`)
	// Typed edits within a second of each other make one history entry:
	// this one is an entry of its own.
	time.Sleep(1100 * time.Millisecond)
	typeInto(t, viewer, "and another", `[data-testid=stride-0]`, "8")
	waitFor(t, viewer, "the second edit", `new URLSearchParams(location.search).get('strides') === '8,1'`)
	do(t, viewer, "rejoin", chromedp.Click(chromedp.CSS(`[data-testid=room-rejoin]`)))
	waitFor(t, viewer, "the room's address again", roomState+` === 'following' && location.pathname === '/r/`+code+`' && document.querySelector('[data-testid=stride-0]').value === '5'`)
	waitFor(t, viewer, "the switcher in the room", `new URL(document.querySelector('[data-testid=lang-fr]').href).pathname === '/r/`+code+`'`)

	// Back is the viewer's own move: it detaches and shows their entry.
	do(t, viewer, "Back", chromedp.Evaluate[chromedp.Void](`history.back()`))
	evalUntil(t, viewer, "the earlier exploration, detached", roomState+` === 'detached' && document.querySelector('[data-testid=stride-0]').value === '6' && document.querySelector('#picture').dataset.state === 'done'`)
	typeInto(t, viewer, "the viewer types a stride", `[data-testid=stride-0]`, "7")
	waitFor(t, viewer, "the edit in the address bar", `new URLSearchParams(location.search).get('strides') === '7,1'`)
	do(t, viewer, "reload", chromedp.Reload())
	// The reload keeps the exploration, and the room with its way back.
	waitFor(t, viewer, "the exploration kept", `document.body.dataset.live === 'ready' && document.querySelector('[data-testid=stride-0]').value === '7' && `+roomState+` === 'detached' && !document.querySelector('[data-testid=room-rejoin]').hidden`)
}
