package e2e

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// axeSource is axe-core, run inside each page (testdata/README.md).
//
//go:embed testdata/axe.min.js
var axeSource string

// viewport is a screen the pages are checked on.
type viewport struct {
	name          string
	width, height int64
	phone         bool // mobile emulation and touch
}

var (
	phone   = viewport{"phone", 390, 844, true}
	desktop = viewport{"desktop", 1400, 1000, false}
)

// emulate sets the viewport and, for a phone, mobile emulation (the
// page's meta viewport applies) and touch.
func emulate(t *testing.T, ctx context.Context, vp viewport) {
	t.Helper()
	opts := []chromedp.EmulateViewportOption{}
	if vp.phone {
		opts = append(opts, chromedp.EmulateMobile, chromedp.EmulateTouch)
	}
	do(t, ctx, "emulate "+vp.name, chromedp.EmulateViewport(vp.width, vp.height, opts...))
}

// setMedia emulates the user's preferences: prefers-color-scheme (light
// or dark) and prefers-reduced-motion (reduce or no-preference).
func setMedia(t *testing.T, ctx context.Context, scheme, motion string) {
	t.Helper()
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{
		{Name: "prefers-color-scheme", Value: scheme},
		{Name: "prefers-reduced-motion", Value: motion},
	}})
	if err != nil {
		t.Fatalf("emulate %s, %s: %v", scheme, motion, err)
	}
}

// settled: the page has loaded and, where it has a live picture, drawn
// the answer to its first edit.
const settled = `document.readyState === 'complete' && (!document.querySelector('#picture') || (document.body.dataset.live === 'ready' && document.querySelector('#picture').dataset.state === 'done'))`

// axeViolations runs axe-core's WCAG 2.0 A and AA and WCAG 2.1 AA rules in
// the page
// and describes every violation, one a line.
func axeViolations(t *testing.T, ctx context.Context) []string {
	t.Helper()
	if !eval[bool](t, ctx, `typeof window.axe === 'object'`) {
		do(t, ctx, "load axe-core", chromedp.Evaluate[chromedp.Void](axeSource))
	}
	const run = `axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa']}, resultTypes: ['violations']})
		.then(r => JSON.stringify(r.violations.map(v => ({id: v.id, help: v.help, nodes: v.nodes.slice(0, 10).map(n => n.target.join(' ') + ': ' + n.failureSummary.replace(/\s+/g, ' '))}))))`
	tctx, cancel := context.WithTimeout(ctx, 60*1e9)
	defer cancel()
	out, err := chromedp.Run(tctx, chromedp.Evaluate[string](run, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("axe.run: %v", err)
	}
	var vs []struct {
		ID, Help string
		Nodes    []string
	}
	if err := json.Unmarshal([]byte(out), &vs); err != nil {
		t.Fatalf("axe's answer %q: %v", out, err)
	}
	var lines []string
	for _, v := range vs {
		lines = append(lines, fmt.Sprintf("%s (%s): %s", v.ID, v.Help, strings.Join(v.Nodes, " | ")))
	}
	return lines
}

// overflow is how many CSS pixels wider than width the page is laid out
// (a phone widens its layout viewport to fit the page, so innerWidth
// follows the page).
func overflow(width int64) string {
	return fmt.Sprintf(`Math.max(document.documentElement.scrollWidth, document.body.scrollWidth, window.innerWidth) - %d`, width)
}

// formCovered scrolls the picture to the top of the screen and reports
// where the form, if it is still on screen, is drawn over by something
// else or covers the picture: "" when neither.
const formCovered = `(() => {
	const form = document.querySelector('#controls'), pic = document.querySelector('#picture');
	if (!form || !pic) return '';
	window.scrollTo(0, pic.getBoundingClientRect().top + window.scrollY);
	const f = form.getBoundingClientRect(), p = pic.getBoundingClientRect();
	const top = Math.max(f.top, 0), bottom = Math.min(f.bottom, window.innerHeight);
	const out = [];
	if (f.left < p.right && p.left < f.right && f.top < p.bottom && p.top < f.bottom && bottom > top) out.push('the form and the picture share the screen area ' + JSON.stringify([f.left, top, f.right, bottom]));
	for (let i = 1; i < 6 && bottom > top; i++) for (let j = 1; j < 6; j++) {
		const x = f.left + f.width * i / 6, y = top + (bottom - top) * j / 6;
		const el = document.elementFromPoint(x, y);
		if (el && !form.contains(el)) out.push(Math.round(x) + ',' + Math.round(y) + ' shows ' + el.tagName + '.' + el.className);
	}
	window.scrollTo(0, 0);
	return out.slice(0, 4).join('; ');
})()`

// landmarks checks the page's headings and skip link: "" when right.
const landmarks = `(() => {
	const out = [];
	const h1 = document.querySelectorAll('h1');
	if (h1.length !== 1) out.push(h1.length + ' h1 elements');
	const skip = document.querySelector('a.skip');
	const first = [...document.querySelectorAll('a[href], button, input, select, textarea, [tabindex]')].find(e => e.tabIndex >= 0 && !e.disabled && e.getClientRects().length);
	if (!skip) out.push('no skip link');
	else if (first !== skip) out.push('the first stop of the tab order is ' + first?.outerHTML.slice(0, 80) + ', not the skip link');
	else {
		const target = document.querySelector(skip.getAttribute('href'));
		if (!target || target.tagName !== 'MAIN') out.push('the skip link points at ' + skip.getAttribute('href') + ', not the main element');
	}
	if (document.querySelectorAll('main').length !== 1) out.push(document.querySelectorAll('main').length + ' main elements');
	return out.join('; ');
})()`

// pageCheck is one page of the site: where it is and how to reach it.
type pageCheck struct {
	name string
	path string
	// open, when set, reaches the page another way (a room), in ctx, and
	// returns the tab showing it.
	open func(t *testing.T, ctx context.Context, vp viewport, base string) context.Context
	// readme names the phone screenshot written to docs/img with
	// -screenshots.
	readme string
}

var everyPage = []pageCheck{
	{name: "layout", path: "/", readme: "phone-layout"},
	{name: "layout-rank4", path: "/?dt=FLOAT16&rank=4&sizes=2,2,3,4&mode=packed"},
	{name: "slice", path: "/slice"},
	{name: "slice-example2", path: "/slice?preset=example2", readme: "phone-slice"},
	{name: "tour-layout", path: "/tour/1"},
	{name: "tour-slice", path: "/tour/11"},
	{name: "join", path: "/join"},
	{name: "embed-layout", path: "/embed/layout"},
	{name: "embed-slice", path: "/embed/slice?preset=example2"},
	{name: "not-found", path: "/foo"},
	{name: "not-found-tour", path: "/tour/12"},
	{name: "room-presenter", open: openPresenter},
	{name: "room-viewer", open: openViewer},
}

// openPresenter presents the layout explorer in a room of its own.
func openPresenter(t *testing.T, ctx context.Context, _ viewport, base string) context.Context {
	t.Helper()
	waitLive(t, ctx, base+"/?dt=FLOAT32&sizes=2,3&strides=5,1")
	do(t, ctx, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, ctx, "the room", roomState+` === 'presenting' && document.querySelector('#picture').dataset.state === 'done'`)
	return ctx
}

// openViewer presents the slice explorer and opens the room as a viewer
// on another device (a new browser context with the same viewport).
func openViewer(t *testing.T, ctx context.Context, vp viewport, base string) context.Context {
	t.Helper()
	waitLive(t, ctx, base+"/slice?preset=example2")
	do(t, ctx, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, ctx, "the room", roomState+` === 'presenting'`)
	join := eval[string](t, ctx, `document.querySelector('[data-testid=room-join-url]').textContent`)
	viewer := newBrowserContext(t, ctx)
	emulate(t, viewer, vp)
	do(t, viewer, "open the join URL", chromedp.Navigate(join))
	waitFor(t, viewer, "following", roomState+` === 'following'`)
	return viewer
}

// TestE2ELayoutEveryPage loads every kind of page on a 390 px phone
// (mobile emulation, touch) and on a 1400 px desktop: none is wider than
// the screen, nothing covers the form once the picture is scrolled to,
// each has one h1, a skip link to its main element first in the tab
// order, and axe-core finds no WCAG 2.1 A or AA violation in light or in
// dark mode (issue #13, points 1 and 10).
func TestE2ELayoutEveryPage(t *testing.T) {
	base := startServer(t)
	for _, vp := range []viewport{phone, desktop} {
		t.Run(vp.name, func(t *testing.T) {
			browser := newBrowser(t, false)
			for _, pc := range everyPage {
				t.Run(pc.name, func(t *testing.T) {
					ctx := newBrowserContext(t, browser)
					emulate(t, ctx, vp)
					setMedia(t, ctx, "light", "no-preference")
					if pc.open != nil {
						ctx = pc.open(t, ctx, vp, base)
					} else {
						do(t, ctx, "navigate "+pc.path, chromedp.Navigate(base+pc.path))
					}
					waitFor(t, ctx, "the page", settled)
					look(t, ctx, vp.name+"-"+pc.name)
					if vp.phone && pc.readme != "" {
						shotOf(t, ctx, pc.readme, chromedp.CaptureScreenshot())
					}
					if px := eval[float64](t, ctx, overflow(vp.width)); px > 0 {
						t.Errorf("the page is %g px wider than the %d px screen", px, vp.width)
					}
					if got := eval[string](t, ctx, formCovered); got != "" {
						t.Errorf("the form is covered: %s", got)
					}
					if got := eval[string](t, ctx, landmarks); got != "" {
						t.Errorf("headings and landmarks: %s", got)
					}
					for _, scheme := range []string{"light", "dark"} {
						setMedia(t, ctx, scheme, "no-preference")
						for _, v := range axeViolations(t, ctx) {
							t.Errorf("axe, %s mode: %s", scheme, v)
						}
					}
				})
			}
		})
	}
}

// look saves a full-page screenshot as name.png in $STRIDESCOPE_SHOTS, to
// look at; without it, none.
func look(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("STRIDESCOPE_SHOTS")
	if dir == "" {
		return
	}
	buf, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), buf, 0o644); err != nil {
		t.Fatal(err)
	}
}
