// Command benchweb measures what a person waits for in Chromium: for both
// explorers at sizes from 2x3 to 4096x4096 (and an NHWC FLOAT16
// 1x16x1024x1024 tensor) it times navigation -> drawn, keystroke -> painted and
// hover -> painted over several runs and writes a Markdown table of the
// medians and maxima, with the machine's load beside each row.
//
//	go run ./cmd/benchweb                      # make bench-web: an in-process server
//	go run ./cmd/benchweb -url http://127.0.0.1:8080 -runs 7
//	go run ./cmd/benchweb -cases layout/2x3,slice/4096x4096
//	go run ./cmd/benchweb -cases slice/4096x4096 -profile   # where the page's time goes
//	go run ./cmd/benchweb -runs 25 -fcp '/?sizes=2,3 /slice?sizes=2,3'  # first paints, pages alternating
//	go run ./cmd/benchweb -runs 15 -parts '/?sizes=2,3'  # the first paint without each part of the page
//
// It is a benchmark, not a test: nothing fails because the machine is busy.
// What each figure is:
//
//   - navigation -> drawn: from the navigation's start (performance's time
//     origin) to the first frame painted after #picture's data-state
//     becomes done, which the page sets once its cells are linked: when
//     the websocket's answer and every binary frame are in and the
//     canvases are drawn, or, for a picture the server drew whole (no
//     canvas), as soon as its module has taken the answer the page
//     carries (#answer), and not before the first contentful paint (FCP,
//     the server-rendered page on the screen).
//   - navigation -> live: to the moment the websocket greeted the page
//     (body's data-live becomes ready): edits go from then.
//   - keystroke -> painted: from the keystroke (the value typed into the
//     form and its input event, as a person types) to the first frame
//     painted after done: whatever the page does before it sends the
//     edit counts.
//   - hover -> painted: from the pointer event's timestamp to the frame
//     painted after #dot, the caption that names the cell, changes.
//   - - floor: navigation -> drawn's median less the median first paint
//     of a one-line page (/healthz), navigated to just before each of
//     the case's navigations: the gap issue #38 budgets, in the same
//     minute as the figure it is taken from.
//   - / 64x64: keystroke -> painted's median over the same explorer's
//     64x64 case's in the run (issue #38 asks 4096x4096 at most 2.5x).
//
// The in-process server shares no answers between sessions, so every edit
// and navigation is computed as a first visitor's would be.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/heapprofiler"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	cdpruntime "github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/stridescope/stridescope/web"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "benchweb:", err)
		os.Exit(1)
	}
}

type config struct {
	url      string
	runs     int
	cases    []string
	chromium string
	timeout  time.Duration
	width    int
	height   int
}

func run(ctx context.Context, args []string, out, log io.Writer) error {
	fs := flag.NewFlagSet("benchweb", flag.ContinueOnError)
	fs.SetOutput(log)
	var c config
	fs.StringVar(&c.url, "url", "", "base URL of a running server; empty: start one in this process on a loopback port")
	fs.IntVar(&c.runs, "runs", 5, "runs of each measurement per case")
	only := fs.String("cases", "", "comma-separated case names to run (default: all); -list prints them")
	list := fs.Bool("list", false, "print the case names and exit")
	fs.StringVar(&c.chromium, "chromium", "", "the Chromium binary (default: chromium on PATH)")
	fs.DurationVar(&c.timeout, "timeout", 60*time.Second, "the longest one measurement may take before the run gives up")
	fs.IntVar(&c.width, "width", 1400, "window width in CSS pixels")
	fs.IntVar(&c.height, "height", 1000, "window height in CSS pixels")
	prof := fs.Bool("profile", false, "run the cases under V8's sampling profiler and print where their time goes instead of the table")
	traceDir := fs.String("trace", "", "trace one navigation of each case with Chromium's tracing into this directory (one JSON file per case, for chrome://tracing or ui.perfetto.dev) and print where the time to the first paint went instead of the table")
	fcpPages := fs.String("fcp", "", "space-separated page paths or full URLs (a path is taken on the server): time each one's first contentful paint -runs times, the pages alternating, and print min / median / max instead of the table (to compare two builds, serve each on its port and give full URLs)")
	partsPage := fs.String("parts", "", "a page path (e.g. '/?sizes=2,3'): time its first paint as served and with its parts (modules, tools, facts, form, presets and share, picture) left out one after another, beside the floor page, and print that table instead")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *list {
		for _, bc := range allCases {
			fmt.Fprintln(out, bc.name)
		}
		return nil
	}
	if c.runs < 1 {
		return errors.New("-runs must be at least 1")
	}
	cases, err := pickCases(*only)
	if err != nil {
		return err
	}
	if c.chromium == "" {
		p, err := exec.LookPath("chromium")
		if err != nil {
			return errors.New("no chromium on PATH: install Debian's with `apt-get install chromium`, or pass -chromium")
		}
		c.chromium = p
	}

	if c.url == "" {
		base, stop, err := startServer(ctx)
		if err != nil {
			return err
		}
		defer stop()
		c.url = base
	}
	c.url = strings.TrimSuffix(c.url, "/")

	tab, closeBrowser, err := newBrowser(ctx, c)
	if err != nil {
		return err
	}
	defer closeBrowser()

	ver, err := chromedp.CallBrowser(tab, browser.GetVersion, struct{}{})
	if err != nil {
		return fmt.Errorf("chromium version: %w", err)
	}
	fmt.Fprintf(log, "benchweb: %s, %d runs per measurement, server %s\n", ver.Product, c.runs, c.url)
	startLoad := loadAvg()
	started := time.Now().UTC()

	if *traceDir != "" {
		if err := os.MkdirAll(*traceDir, 0o755); err != nil {
			return err
		}
		for _, bc := range cases {
			if err := traceNavigation(tab, c, bc, *traceDir, out); err != nil {
				return fmt.Errorf("%s: %w", bc.name, err)
			}
		}
		return nil
	}
	if *partsPage != "" {
		return compareParts(tab, c, *partsPage, out)
	}
	if *fcpPages != "" {
		return compareFCP(tab, c, strings.Fields(*fcpPages), out)
	}
	if *prof {
		for _, bc := range cases {
			if err := profileEdits(tab, c, bc, out); err != nil {
				return fmt.Errorf("%s: %w", bc.name, err)
			}
		}
		return nil
	}
	var rows []result
	for _, bc := range cases {
		r, err := measure(tab, c, bc)
		if err != nil {
			return fmt.Errorf("%s: %w", bc.name, err)
		}
		fmt.Fprintf(log, "benchweb: %-22s nav %s  live %s  edit %s  hover %s  arrays %s  (load %s)\n",
			bc.name, r.nav.summary(), r.live.summary(), r.edit.summary(), r.hover.summary(), mib(r.arrays), r.load)
		rows = append(rows, r)
	}
	writeReport(out, report{
		started: started, ended: time.Now().UTC(), chromium: ver.Product,
		runs: c.runs, loadStart: startLoad, loadEnd: loadAvg(), width: c.width, height: c.height,
		rows: rows,
	})
	return nil
}

func pickCases(only string) ([]benchCase, error) {
	if only == "" {
		return allCases, nil
	}
	var picked []benchCase
	for name := range strings.SplitSeq(only, ",") {
		name = strings.TrimSpace(name)
		i := slices.IndexFunc(allCases, func(bc benchCase) bool { return bc.name == name })
		if i < 0 {
			return nil, fmt.Errorf("-cases: no case %q (-list prints them)", name)
		}
		picked = append(picked, allCases[i])
	}
	return picked, nil
}

// startServer runs the real web.Server on a loopback port, sharing no
// answers between sessions.
func startServer(ctx context.Context) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	s := web.New(web.Config{
		Logger:      slog.New(slog.NewTextHandler(io.Discard, nil)),
		AnswerCache: -1,
	})
	sctx, cancel := context.WithCancel(ctx)
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- s.Serve(sctx, ln, func(a net.Addr) { ready <- a }) }()
	select {
	case a := <-ready:
		return "http://" + a.String(), func() { cancel(); <-done }, nil
	case err := <-done:
		cancel()
		return "", nil, fmt.Errorf("server did not start: %w", err)
	}
}

func newBrowser(ctx context.Context, c config) (context.Context, func(), error) {
	dir, err := os.MkdirTemp("", "benchweb-")
	if err != nil {
		return nil, nil, err
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(c.chromium),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.UserDataDir(dir),
		chromedp.WindowSize(c.width, c.height),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	tab, cancelTab := chromedp.NewContext(actx)
	closeAll := func() { cancelTab(); cancelAlloc(); os.RemoveAll(dir) }
	if err := chromedp.Do(tab); err != nil {
		closeAll()
		return nil, nil, fmt.Errorf("start chromium: %w", err)
	}
	if _, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: probe}); err != nil {
		closeAll()
		return nil, nil, fmt.Errorf("install the probe: %w", err)
	}
	return tab, closeAll, nil
}

// probe runs in every page before its own scripts. It stamps, on
// performance's clock, the last edit sent on a websocket, the frame painted
// after #picture's data-state becomes done, the last pointer move and the
// frame painted after #dot changes. A frame counts as painted when a task
// queued from its requestAnimationFrame callback runs, which is after the
// browser has painted it.
const probe = `(() => {
  const B = window.__bench = { typed: 0, sent: 0, done: 0, painted: 0, live: 0, move: 0, dot: 0 };
  // A change made inside an animation frame callback (the pages coalesce
  // pointer moves that way) is painted with that frame; any other waits
  // for the next one.
  let inFrame = false;
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = (cb) => raf((t) => {
    inFrame = true;
    try { cb(t); } finally { queueMicrotask(() => { inFrame = false; }); }
  });
  const afterPaint = (f) => inFrame ? setTimeout(f, 0) : raf(() => setTimeout(f, 0));
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (d) {
    if (typeof d === 'string' && d.includes('"type":"edit"')) B.sent = performance.now();
    return send.call(this, d);
  };
  addEventListener('pointermove', (e) => { B.move = e.timeStamp; }, true);
  // A page's modules run before DOMContentLoaded, and a page that carries
  // its answer is done while they run: watched from the document's start.
  new MutationObserver((recs) => {
    for (const r of recs) {
      const el = r.target;
      if (el === document.body && el.dataset.live === 'ready' && !B.live) B.live = performance.now();
      if (el.id !== 'picture' || el.dataset.state !== 'done') continue;
      B.done = performance.now();
      afterPaint(() => { B.painted = performance.now(); });
    }
  }).observe(document, { subtree: true, attributes: true, attributeFilter: ['data-state', 'data-live'] });
  addEventListener('DOMContentLoaded', () => {
    const dot = document.getElementById('dot');
    if (dot) new MutationObserver(() => afterPaint(() => { B.dot = performance.now(); }))
      .observe(dot, { childList: true, characterData: true, subtree: true });
  });
})();`

// benchCase is one page and size: the URL to open, the form field an edit
// types into and the two values it alternates between, and the element the
// pointer hovers.
type benchCase struct {
	name   string
	path   string
	field  string // the id selector of the input an edit types into
	values [2]string
	// hover is a DOM cell pair (two selectors) or, for canvases, one
	// selector and two points given as fractions of its size.
	hoverDOM    [2]string
	hoverCanvas string
	hoverAt     [2][2]float64
	elements    int64
}

func squareCase(explorer string, n int64) benchCase {
	size := fmt.Sprintf("%dx%d", n, n)
	bc := benchCase{name: explorer + "/" + size, elements: n * n}
	if explorer == "layout" {
		bc.path = fmt.Sprintf("/?dt=FLOAT32&sizes=%d,%d&strides=%d,1", n, n, n)
		bc.field = "#f-stride-0"
		bc.values = [2]string{fmt.Sprint(n + 1), fmt.Sprint(n)}
		if (n-1)*(n+1)+n > 1<<24 {
			// A row pitch of n+1 takes the buffer past the 2^24 cells a
			// canvas draws, and the edit would time a picture without
			// its buffer: a row less redraws every view instead.
			bc.field = "#f-size-0"
			bc.values = [2]string{fmt.Sprint(n - 1), fmt.Sprint(n)}
		}
		bc.hoverDOM = [2]string{"#l-0", "#l-1"}
		bc.hoverCanvas = "#logical-canvas"
	} else {
		bc.path = fmt.Sprintf("/slice?dt=FLOAT32&sizes=%d,%d", n, n)
		bc.field = "#f-wstride-1"
		bc.values = [2]string{"-1", "1"}
		bc.hoverDOM = [2]string{"#in-0", "#in-1"}
		bc.hoverCanvas = "#slice-in-canvas"
	}
	bc.hoverAt = [2][2]float64{{0.30, 0.30}, {0.60, 0.60}}
	return bc
}

var allCases = func() []benchCase {
	var cs []benchCase
	for _, explorer := range []string{"layout", "slice"} {
		for _, n := range []int64{0, 16, 64, 256, 1024, 4096} {
			if n == 0 {
				bc := squareCase(explorer, 2)
				bc.name = explorer + "/2x3"
				bc.elements = 6
				bc.path = strings.Replace(bc.path, "sizes=2,2", "sizes=2,3", 1)
				bc.path = strings.Replace(bc.path, "&strides=2,1", "&strides=3,1", 1)
				if explorer == "layout" {
					bc.values = [2]string{"4", "3"}
				}
				cs = append(cs, bc)
				continue
			}
			cs = append(cs, squareCase(explorer, n))
		}
		// NHWC FLOAT16 1x16x1024x1024: an edit pads each row by a pixel.
		nhwc := benchCase{
			name:        explorer + "/nhwc-1x16x1024x1024",
			path:        "/?dt=FLOAT16&sizes=1,16,1024,1024&strides=16777216,1,16384,16",
			field:       "#f-stride-2",
			values:      [2]string{"16400", "16384"},
			hoverCanvas: "#logical-canvas",
			hoverAt:     [2][2]float64{{0.02, 0.04}, {0.04, 0.06}},
			elements:    1 << 24,
		}
		if explorer == "slice" {
			nhwc.path = "/slice" + nhwc.path[1:]
			nhwc.field = "#f-wstride-3"
			nhwc.values = [2]string{"-1", "1"}
			nhwc.hoverCanvas = "#slice-in-canvas"
		}
		cs = append(cs, nhwc)
	}
	return cs
}()

// timings are one measurement's runs in milliseconds.
type timings []float64

func (t timings) median() float64 {
	s := slices.Clone(t)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

func (t timings) max() float64 { return slices.Max(t) }

func (t timings) min() float64 { return slices.Min(t) }

func (t timings) summary() string {
	return fmt.Sprintf("%s / %s ms", ms(t.median()), ms(t.max()))
}

func ms(v float64) string {
	if math.IsNaN(v) {
		return "-"
	}
	if v < 10 {
		return fmt.Sprintf("%.1f", v)
	}
	return fmt.Sprintf("%.0f", v)
}

type result struct {
	bc             benchCase
	nav, live, fcp timings
	edit, hover    timings
	floor          timings // the floor page's first paints, one before each navigation
	nodes          int
	// arrays is the tab's ArrayBuffer backing stores after the edits and
	// a full garbage collection, in bytes: what its typed arrays and
	// ImageData hold (Runtime.getHeapUsage's backingStorageSize, which
	// also counts external strings: the modules' sources, some KiB).
	arrays float64
	mode   string
	load   string
}

// drawnAndLive is, once the page is both drawn and live, when it was
// drawn; else 0.
const drawnAndLive = `document.body.dataset.live === 'ready' && document.querySelector('#picture').dataset.state === 'done' && __bench.painted > 0 && __bench.live > 0 ? __bench.painted : 0`

func measure(tab context.Context, c config, bc benchCase) (result, error) {
	r := result{bc: bc}
	url := c.url + bc.path
	for i := range c.runs {
		// What the machine gives any page in this very minute: the floor
		// page, first painted just before each of the case's navigations,
		// which is measured against it (this VM's speed moves between
		// minutes far more than between neighbouring navigations).
		floor, err := floorPaint(tab, c)
		if err != nil {
			return r, err
		}
		r.floor = append(r.floor, floor)
		// Leave the page first, so every run is a fresh navigation of the
		// same URL (static files come from the browser's cache after the
		// first run, as they do for a returning visitor).
		if err := step(tab, c.timeout, chromedp.Navigate("about:blank")); err != nil {
			return r, err
		}
		if err := step(tab, c.timeout, chromedp.Navigate(url)); err != nil {
			return r, err
		}
		drawn, err := waitValue[float64](tab, c.timeout, drawnAndLive)
		if err != nil {
			return r, fmt.Errorf("navigation %d: not drawn and live: %w", i+1, err)
		}
		live, err := eval[float64](tab, c.timeout, `__bench.live`)
		if err != nil {
			return r, err
		}
		// The paint entry can be reported a moment after the frame.
		fcp, err := waitValue[float64](tab, 2*time.Second, `(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: 0}).startTime`)
		if err != nil {
			fcp = math.NaN()
		} else {
			// The main thread can be done with the frame that shows a
			// picture taken from the page's own answer before the
			// first frame is on the screen: nothing is seen before FCP.
			drawn = max(drawn, fcp)
		}
		r.nav, r.live, r.fcp = append(r.nav, drawn), append(r.live, live), append(r.fcp, fcp)
	}
	var err error
	if r.nodes, err = eval[int](tab, c.timeout, `document.getElementsByTagName('*').length`); err != nil {
		return r, err
	}
	if r.mode, err = eval[string](tab, c.timeout, `[...document.querySelectorAll('[data-mode]')].map(e => e.dataset.mode).join(',')`); err != nil {
		return r, err
	}

	for i := range c.runs {
		v := bc.values[i%2]
		if err := step(tab, c.timeout, chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => {
			__bench.sent = 0; __bench.painted = 0;
			const el = document.querySelector(%q);
			if (!el) throw new Error('no field %s');
			el.value = %q;
			__bench.typed = performance.now();
			el.dispatchEvent(new Event('input', { bubbles: true }));
		})()`, bc.field, bc.field, v))); err != nil {
			return r, fmt.Errorf("edit %d: %w", i+1, err)
		}
		// Done for this edit: the painted stamp follows the send, and the
		// value typed is in the address bar (the page writes it there with
		// the answer).
		took, err := waitValue[float64](tab, c.timeout, fmt.Sprintf(`__bench.sent > 0 && __bench.painted > __bench.sent && document.querySelector('#picture').dataset.state === 'done' && decodeURIComponent(location.search).includes(%q) ? __bench.painted - __bench.typed : 0`, v))
		if err != nil {
			return r, fmt.Errorf("edit %d (%s = %s): not painted: %w", i+1, bc.field, v, err)
		}
		r.edit = append(r.edit, took)
	}
	if r.arrays, err = arrayBytes(tab, c.timeout); err != nil {
		return r, err
	}

	for i := range c.runs {
		x, y, err := hoverPoint(tab, c.timeout, bc, i%2)
		if err != nil {
			return r, fmt.Errorf("hover %d: %w", i+1, err)
		}
		if err := step(tab, c.timeout, chromedp.Evaluate[chromedp.Void](`__bench.dot = 0; __bench.move = 0`)); err != nil {
			return r, err
		}
		if err := step(tab, c.timeout, chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y)); err != nil {
			return r, fmt.Errorf("hover %d: %w", i+1, err)
		}
		took, err := waitValue[float64](tab, c.timeout, `__bench.move > 0 && __bench.dot > __bench.move ? __bench.dot - __bench.move : 0`)
		if err != nil {
			return r, fmt.Errorf("hover %d at (%.0f, %.0f): the caption did not change: %w", i+1, x, y, err)
		}
		r.hover = append(r.hover, took)
	}
	r.load = loadAvg()
	return r, nil
}

// arrayBytes is the bytes of the tab's ArrayBuffers that a full garbage
// collection leaves: the arrays the page keeps, not its garbage.
func arrayBytes(tab context.Context, timeout time.Duration) (float64, error) {
	ctx, cancel := context.WithTimeout(tab, timeout)
	defer cancel()
	if _, err := chromedp.Call(ctx, heapprofiler.CollectGarbage, cdp.Empty{}); err != nil {
		return 0, fmt.Errorf("collect garbage: %w", err)
	}
	u, err := chromedp.Call(ctx, cdpruntime.GetHeapUsage, cdp.Empty{})
	if err != nil {
		return 0, fmt.Errorf("heap usage: %w", err)
	}
	return u.BackingStorageSize, nil
}

// mib writes bytes in MiB.
func mib(b float64) string { return fmt.Sprintf("%.1f MiB", b/(1<<20)) }

// hoverPoint scrolls the hover target into view and returns the viewport
// point of cell k (DOM) or of the k-th point (canvas).
func hoverPoint(tab context.Context, timeout time.Duration, bc benchCase, k int) (float64, float64, error) {
	sel, fx, fy := bc.hoverDOM[k], 0.5, 0.5
	canvas, err := eval[bool](tab, timeout, fmt.Sprintf(`!!document.querySelector(%q)`, bc.hoverCanvas))
	if err != nil {
		return 0, 0, err
	}
	if canvas || sel == "" {
		sel, fx, fy = bc.hoverCanvas, bc.hoverAt[k][0], bc.hoverAt[k][1]
	}
	// Scroll only when the point is off the screen, and let the scroll's
	// frame pass before the pointer moves: a hover measured in the frame
	// of a scroll would count the scroll's repaint.
	xy, err := eval[[]float64](tab, timeout, fmt.Sprintf(`(() => {
		const el = document.querySelector(%q);
		if (!el) return [];
		let r = el.getBoundingClientRect(), scrolled = 0;
		const x = r.x + r.width * %g, y = r.y + r.height * %g;
		if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) {
			el.scrollIntoView({ block: 'center', inline: 'center' });
			r = el.getBoundingClientRect(); scrolled = 1;
		}
		return [r.x + r.width * %g, r.y + r.height * %g, scrolled];
	})()`, sel, fx, fy, fx, fy))
	if err != nil {
		return 0, 0, err
	}
	if len(xy) != 3 {
		return 0, 0, fmt.Errorf("no element %s to hover", sel)
	}
	if xy[2] != 0 {
		if err := step(tab, timeout, chromedp.Sleep(100*time.Millisecond)); err != nil {
			return 0, 0, err
		}
	}
	return xy[0], xy[1], nil
}

func step(tab context.Context, timeout time.Duration, a chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(tab, timeout)
	defer cancel()
	return chromedp.Do(ctx, a)
}

func eval[T any](tab context.Context, timeout time.Duration, expr string) (T, error) {
	ctx, cancel := context.WithTimeout(tab, timeout)
	defer cancel()
	return chromedp.Run(ctx, chromedp.Evaluate[T](expr))
}

// waitValue polls expr, on every animation frame, until it gives a
// positive number.
//
// A poll started while the previous document was still being replaced can
// lose its execution context ("Cannot find context with specified id"); it
// is started again in the new one, within the same timeout.
func waitValue[T int | float64](tab context.Context, timeout time.Duration, expr string) (T, error) {
	ctx, cancel := context.WithTimeout(tab, timeout)
	defer cancel()
	for {
		v, err := chromedp.Run(ctx, chromedp.Poll[T](`(`+expr+`) || false`, chromedp.WithPollingTimeout(0)))
		if err == nil || ctx.Err() != nil || !strings.Contains(err.Error(), "Cannot find context with specified id") {
			return v, err
		}
	}
}

// loadAvg is the 1-minute load average and the core count, as uptime and
// nproc give them.
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}

type report struct {
	started, ended     time.Time
	chromium           string
	runs               int
	loadStart, loadEnd string
	width, height      int
	rows               []result
}

// floorPage is a one-line page of the server's (text/plain "ok"): its
// first paint is what this browser on this machine needs for any page.
const floorPage = "/healthz"

// budgets are issue #12's: navigation -> drawn, keystroke -> painted, hover.
func budgetOf(bc benchCase) (nav, edit, hover float64) {
	nav, edit, hover = 700, 500, 16
	if bc.elements <= 6 {
		nav = 150
	}
	if strings.HasPrefix(bc.name, "slice/") && bc.elements > 1<<20 {
		nav = 1000
	}
	return nav, edit, hover
}

func writeReport(w io.Writer, r report) {
	fmt.Fprintf(w, "Browser timings, %s to %s UTC: %s, %d-core %s/%s, window %dx%d, %d runs each; 1-minute load %s at the start, %s at the end.\n\n",
		r.started.Format("2006-01-02 15:04"), r.ended.Format("15:04"), r.chromium, runtime.NumCPU(), runtime.GOOS, runtime.GOARCH,
		r.width, r.height, r.runs, r.loadStart, r.loadEnd)
	var floor timings
	for _, row := range r.rows {
		floor = append(floor, row.floor...)
	}
	fmt.Fprintf(w, "The floor in these minutes: a one-line page (%s) first paints at %s ms (median; %s to %s ms over %d navigations, one before each of the cases').\n\n",
		floorPage, ms(floor.median()), ms(floor.min()), ms(floor.max()), len(floor))
	fmt.Fprintln(w, "Milliseconds, median / max. \"budget\" marks a median over issue #12's budget (navigation 0.7 s, 0.15 s at 2x3, 1.0 s for large slices; edit 0.5 s; hover 16 ms).")
	fmt.Fprintln(w, "\"- floor\" is navigation -> drawn's median less the median first paint of the floor page, navigated to just before each of the case's navigations; \"/ 64x64\" is keystroke -> painted's median over the same explorer's 64x64 one in this run (issue #38's ratio).")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| case | views | DOM nodes | FCP | navigation -> drawn | - floor | navigation -> live | keystroke -> painted | / 64x64 | hover -> painted | typed arrays | load |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|---|---|")
	edit64 := map[string]float64{}
	for _, row := range r.rows {
		if explorer, size, _ := strings.Cut(row.bc.name, "/"); size == "64x64" {
			edit64[explorer] = row.edit.median()
		}
	}
	for _, row := range r.rows {
		nb, eb, hb := budgetOf(row.bc)
		ratio := "-"
		if explorer, _, _ := strings.Cut(row.bc.name, "/"); edit64[explorer] > 0 {
			ratio = fmt.Sprintf("%.1fx", row.edit.median()/edit64[explorer])
		}
		fmt.Fprintf(w, "| %s | %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			row.bc.name, row.mode, row.nodes, ms(row.fcp.median()),
			judged(row.nav, nb), ms(row.nav.median()-row.floor.median()), row.live.summary(), judged(row.edit, eb), ratio, judged(row.hover, hb), mib(row.arrays), row.load)
	}
}

func judged(t timings, budget float64) string {
	s := t.summary()
	if t.median() > budget {
		s += " (over budget)"
	}
	return s
}
