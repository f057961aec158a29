// Package e2e drives the real server in Debian's Chromium with chromedp.
// Without a chromium binary on PATH every test is skipped with a message.
//
//	go test -run E2E ./e2e/...                # run them
//	go test -run E2E ./e2e/... -screenshots   # and refresh docs/img/*.png
//
// Only the screenshots the documents show (docShots) go to docs/img; the
// other shots, taken to check that a page draws, go to a temporary
// directory or $STRIDESCOPE_SHOTS.
//
// For the screenshots, install Debian's fonts-noto-cjk first, or the
// Traditional Chinese pages and the language switcher draw boxes (the
// tests themselves do not need it), and pngquant, which shrinks them
// (shrinkPNG).
package e2e

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"github.com/stridescope/stridescope/testkit"
	"github.com/stridescope/stridescope/web"
)

var screenshots = flag.Bool("screenshots", false, "write the screenshots the documents show to docs/img instead of a temporary directory")

// docShots are the screenshots README.md and docs/*.md show: with
// -screenshots these, and only these, are written to docs/img, so that a
// refresh adds no image that no document references. TestDocShots keeps
// this list, the PNGs in docs/img and the documents' references the same.
var docShots = map[string]bool{
	"embed-host":        true,
	"explorer-dhw":      true,
	"lang-fr-layout":    true,
	"lang-fr-slice":     true,
	"lang-fr-tour":      true,
	"lang-pt-BR-layout": true,
	"lang-pt-BR-slice":  true,
	"lang-pt-BR-tour":   true,
	"lang-zh-TW-layout": true,
	"lang-zh-TW-slice":  true,
	"lang-zh-TW-tour":   true,
	"phone-layout":      true,
	"phone-slice":       true,
	"room-presenter":    true,
	"slice-example2":    true,
	"slice-nhwc":        true,
	"tour-step4":        true,
}

// startServer runs the real web.Server on a loopback listener.
func startServer(t *testing.T) string {
	t.Helper()
	return testkit.Serve(t, web.New(web.Config{Logger: testkit.Quiet()}).Serve)
}

// newBrowser starts a fresh headless Chromium and returns a tab; extra
// adds command-line options.
func newBrowser(t *testing.T, jsOff bool, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	return testkit.Browser(t, jsOff, extra...)
}

// do runs actions with a deadline, failing the test on error.
func do(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(tctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval evaluates a JavaScript expression in the page.
func eval[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	v, err := chromedp.Run(tctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("eval %s: %v", expr, err)
	}
	return v
}

// waitFor polls a JavaScript predicate until it is true, across page
// loads (a form submission navigates).
func waitFor(t *testing.T, ctx context.Context, what, predicate string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		// Each poll gets at most 2 s: one started in a document that a
		// navigation then replaces can wait on its lost execution context
		// until its deadline instead of failing (seen after a form submit
		// with JavaScript off); it is started again in the new document.
		attempt := time.Now().Add(2 * time.Second)
		if attempt.After(deadline) {
			attempt = deadline
		}
		tctx, cancel := context.WithDeadline(ctx, attempt)
		_, err := chromedp.Run(tctx, chromedp.Poll[bool](predicate, chromedp.WithPollingInterval(25*time.Millisecond)))
		cancel()
		if err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s (%s): %v; page state: %s", what, predicate, err, pageState(ctx))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitStill waits until the page has not scrolled for 100 ms: a click
// computes its point from where the element is, and a smooth scroll
// still under way moves it from under that point.
func waitStill(t *testing.T, ctx context.Context) {
	t.Helper()
	waitFor(t, ctx, "the page still", `(() => { const s = window.__still || (window.__still = {y: NaN, n: 0, at: 0}), now = performance.now();
		if (s.y !== scrollY) { s.y = scrollY; s.at = now; } return now - s.at >= 100; })()`)
}

// typeInto replaces the text of an input by typing, as a user would.
func typeInto(t *testing.T, ctx context.Context, what, sel, text string) {
	t.Helper()
	do(t, ctx, what,
		chromedp.Focus(chromedp.CSS(sel)),
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).select()`, sel)),
		chromedp.SendKeys(chromedp.CSS(sel), text))
}

func pageState(ctx context.Context) string {
	tctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	s, err := chromedp.Run(tctx, chromedp.Evaluate[string](`JSON.stringify({url: location.href, live: document.body.dataset.live, state: document.querySelector('#picture')?.dataset.state, dot: document.querySelector('#dot')?.textContent})`))
	if err != nil {
		return err.Error()
	}
	return s
}

// waitLive loads a page with JavaScript on and waits until the socket has
// answered the first edit.
func waitLive(t *testing.T, ctx context.Context, url string) {
	t.Helper()
	do(t, ctx, "navigate "+url, chromedp.Navigate(url))
	waitFor(t, ctx, "the live session", `document.body.dataset.live === 'ready' && document.querySelector('#picture').dataset.state === 'done' && `+shownBelow)
}

// hover moves the mouse over the centre of the element sel.
func hover(t *testing.T, ctx context.Context, sel string) { hoverAt(t, ctx, sel, 0.5, 0.5) }

// hoverAt moves the mouse over the point of sel at fractions fx, fy of its
// width and height.
func hoverAt(t *testing.T, ctx context.Context, sel string, fx, fy float64) {
	t.Helper()
	xy := eval[[]float64](t, ctx, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return [r.x + r.width * %g, r.y + r.height * %g]; })()`, sel, fx, fy))
	// Move there from one pixel away, so that the page sees a move even when
	// the mouse was already at that spot.
	do(t, ctx, "hover "+sel,
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, xy[0]-1, xy[1]-1),
		chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, xy[0], xy[1]))
}

// clickInView clicks the element sel after scrolling it to the middle of
// the viewport: chromedp's own scrolling can leave a button of the
// explorers' sticky form outside the viewport, and the click then lands
// on nothing.
func clickInView(sel string) chromedp.Action[chromedp.Void] {
	return chromedp.Steps(
		chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).scrollIntoView({block: 'center'})`, sel)),
		chromedp.Click(chromedp.CSS(sel)))
}

// shot saves a screenshot of the whole page as name.png.
func shot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	shotOf(t, ctx, name, chromedp.FullScreenshot(100))
}

// shotOf saves the screenshot an action takes as name.png: in docs/img
// with -screenshots if the documents show it (docShots), else in
// $STRIDESCOPE_SHOTS or a temporary directory.
func shotOf(t *testing.T, ctx context.Context, name string, take chromedp.Action[[]byte]) {
	t.Helper()
	dir := t.TempDir()
	if d := os.Getenv("STRIDESCOPE_SHOTS"); d != "" {
		dir = d
	}
	if *screenshots && docShots[name] {
		dir = filepath.Join("..", "docs", "img")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	tctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	buf, err := chromedp.Run(tctx, take)
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if !strings.HasPrefix(string(buf[:8]), "\x89PNG") {
		t.Fatalf("screenshot %s is not a PNG", name)
	}
	if *screenshots && docShots[name] {
		buf = shrinkPNG(t, name, buf)
	}
	path := filepath.Join(dir, name+".png")
	if err := os.WriteFile(path, buf, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot %s", path)
}

// shrinkPNG makes a screenshot for docs/img as small as the committed
// ones. Chromium encodes its PNGs quickly, not tightly (a 1440×1100
// screen is about 250 KB); Debian's pngquant, at the settings below,
// turns one into a 256-colour palette image of about 95 KB whose text
// stays as crisp (no channel moves by more than about 40 of 255, the
// average by under 0.05). It is deterministic, so an unchanged page gives
// an unchanged file. A screen it cannot keep within --quality (exit 99)
// or cannot make smaller (98) is kept as Chromium wrote it. The committed
// images were made with the same command:
//
//	pngquant --quality=80-100 --speed=1 --strip --skip-if-larger - <in.png >out.png
func shrinkPNG(t *testing.T, name string, buf []byte) []byte {
	t.Helper()
	bin, err := exec.LookPath("pngquant")
	if err != nil {
		t.Fatalf("screenshot %s: -screenshots needs pngquant to keep docs/img small: apt-get install pngquant", name)
	}
	cmd := exec.Command(bin, "--quality=80-100", "--speed=1", "--strip", "--skip-if-larger", "-")
	cmd.Stdin = bytes.NewReader(buf)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return out.Bytes()
	case errors.As(err, &exit) && (exit.ExitCode() == 98 || exit.ExitCode() == 99):
		t.Logf("screenshot %s: pngquant left it as it was (exit %d)", name, exit.ExitCode())
		return buf
	default:
		t.Fatalf("screenshot %s: pngquant: %v: %s", name, err, stderr.Bytes())
		return nil
	}
}

// textsMeet is a script that says, for the grid cells sel finds, which of
// a cell's texts meet: its label (.lbl), its corner number (.off, .boff),
// its share count (.cnt) and its badge (.badge-n). A text is its glyphs'
// ink (its line box less the font's room above and below the glyphs,
// which two lines of text may share), a badge its box; two less than a
// pixel apart meet. It gives "N cells", then the meetings found.
func textsMeet(sel string) string {
	return `(() => {
		const g = document.createElement('canvas').getContext('2d');
		const ink = (el) => {
			const text = el.textContent.trim() || el.dataset.o || '', cs = getComputedStyle(el);
			let r = el.getBoundingClientRect();
			if (el.textContent.trim()) { const rg = document.createRange(); rg.selectNodeContents(el); r = rg.getBoundingClientRect(); }
			g.font = cs.fontWeight + ' ' + cs.fontSize + ' ' + cs.fontFamily;
			const m = g.measureText(text);
			return { left: r.left, right: r.right, top: r.top + m.fontBoundingBoxAscent - m.actualBoundingBoxAscent, bottom: r.top + m.fontBoundingBoxAscent + m.actualBoundingBoxDescent };
		};
		const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > -1 && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > -1;
		const out = [];
		let n = 0;
		for (const c of document.querySelectorAll(` + strconv.Quote(sel) + `)) {
			n++;
			const parts = [...c.querySelectorAll('.lbl, .off, .boff, .cnt, .badge-n')].map((el) => ({
				name: el.className.split(' ')[0] + ' ' + (el.textContent.trim() || el.dataset.o || el.dataset.n),
				box: el.classList.contains('badge-n') ? el.getBoundingClientRect() : ink(el) }));
			for (let i = 0; i < parts.length; i++) for (let j = i + 1; j < parts.length; j++) {
				if (meet(parts[i].box, parts[j].box)) out.push(c.id + ': ' + parts[i].name + ' meets ' + parts[j].name);
			}
		}
		return n + ' cells' + (out.length ? ': ' + out.join('; ') : '');
	})()`
}

// textsOutside is a script that measures, in every cell sel matches, the
// ink of each text (as textsMeet does) against the cell's inside, its
// border box less its borders: "n cells", then "id: text outside by
// x px" for each text that crosses a border.
func textsOutside(sel string) string {
	return `(() => {
		const g = document.createElement('canvas').getContext('2d');
		const out = [];
		let n = 0;
		for (const c of document.querySelectorAll(` + strconv.Quote(sel) + `)) {
			n++;
			const cr = c.getBoundingClientRect(), cs = getComputedStyle(c);
			const inner = { left: cr.left + parseFloat(cs.borderLeftWidth), right: cr.right - parseFloat(cs.borderRightWidth),
				top: cr.top + parseFloat(cs.borderTopWidth), bottom: cr.bottom - parseFloat(cs.borderBottomWidth) };
			for (const el of c.querySelectorAll('.lbl, .off')) {
				const text = el.textContent.trim() || el.dataset.o || '', es = getComputedStyle(el);
				if (!text || es.display === 'none' || es.visibility === 'hidden') continue;
				let r = el.getBoundingClientRect();
				if (el.textContent.trim()) { const rg = document.createRange(); rg.selectNodeContents(el); r = rg.getBoundingClientRect(); }
				g.font = es.fontWeight + ' ' + es.fontSize + ' ' + es.fontFamily;
				const m = g.measureText(text);
				// The glyphs' own box: the advance less the side bearings, the
				// ascent and descent of these glyphs.
				const left = r.left + (es.textAlign === 'center' ? (r.width - m.width) / 2 : 0) - m.actualBoundingBoxLeft;
				const ink = { left: el.textContent.trim() ? r.left - m.actualBoundingBoxLeft : left, right: 0,
					top: r.top + m.fontBoundingBoxAscent - m.actualBoundingBoxAscent, bottom: r.top + m.fontBoundingBoxAscent + m.actualBoundingBoxDescent };
				ink.right = ink.left + m.actualBoundingBoxLeft + m.actualBoundingBoxRight;
				const by = Math.max(inner.left - ink.left, ink.right - inner.right, inner.top - ink.top, ink.bottom - inner.bottom);
				if (by > 0.5) out.push(c.id + ': ' + el.className.split(' ')[0] + ' ' + text + ' outside by ' + by.toFixed(1) + ' px');
			}
		}
		return n + ' cells' + (out.length ? ': ' + out.join('; ') : '');
	})()`
}
