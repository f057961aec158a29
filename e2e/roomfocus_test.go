package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// focusAnswer is what the five data-movement APIs say about the cells a
// state links: per output element, its input coordinate (padding, tile,
// depth-to-space), its input and coordinate (join), or, per logical
// element, the cells it is read from and written to (the conversion).
type focusAnswer struct {
	InputCoordinates [][]int64 `json:"inputCoordinates"`
	Sources          []struct {
		Input      int     `json:"input"`
		Coordinate []int64 `json:"coordinate"`
	} `json:"sources"`
	InputOffsets  []int64 `json:"inputOffsets"`
	OutputOffsets []int64 `json:"outputOffsets"`
}

// lit is a cell a page shows as linked: its grid's id prefix (in-, ib-,
// i1-...), the canvas that draws that grid past the DOM limit, and its
// index there.
type lit struct {
	grid, canvas string
	k            int64
}

func (l lit) id() string { return fmt.Sprintf("%s-%d", l.grid, l.k) }

// roomFocusCase is one state of a data-movement page: the presenter
// points at output item out.k, and the API's answer for the same state
// names the source the viewer's page must light with it.
type roomFocusCase struct {
	name, page, query string
	canvas            bool // the state is drawn on canvases
	api, body         string
	out               lit
	src               func(t *testing.T, a focusAnswer) lit
}

// keptFocus names the cases whose presenter focuses the output item (the
// keyboard on a cell, a tap on a canvas) rather than hovering it, then
// passes over another, this one, and leaves: the viewer sees the other,
// then the focused one again.
var keptFocus = map[string]int64{"joinsplit/cells": 2, "tile/canvas": 3, "joinsplit/canvas": 5}

// inputAt is the input element output k of an index map reads (the
// API's inputCoordinates), on an input of the given sizes.
func inputAt(grid, canvas string, sizes []int64, k int) func(*testing.T, focusAnswer) lit {
	return func(t *testing.T, a focusAnswer) lit {
		if k >= len(a.InputCoordinates) || a.InputCoordinates[k] == nil {
			t.Fatalf("output %d reads no input element: %v", k, a.InputCoordinates)
		}
		return lit{grid, canvas, rowMajor(sizes, a.InputCoordinates[k])}
	}
}

func roomFocusCases() []roomFocusCase {
	// joined is output k's source in a join of inputs of the given sizes.
	joined := func(inputs [][]int64, k int) func(*testing.T, focusAnswer) lit {
		return func(t *testing.T, a focusAnswer) lit {
			s := a.Sources[k]
			g := fmt.Sprintf("i%d", s.Input)
			return lit{g, "#js-" + g + "-canvas", rowMajor(inputs[s.Input], s.Coordinate)}
		}
	}
	// copied is the input cell of the element written to output cell k.
	copied := func(k int64) func(*testing.T, focusAnswer) lit {
		return func(t *testing.T, a focusAnswer) lit {
			for i, o := range a.OutputOffsets {
				if o == k {
					return lit{"ib", "#convert-ib-canvas", a.InputOffsets[i]}
				}
			}
			t.Fatalf("no element is written to output cell %d: %v", k, a.OutputOffsets)
			return lit{}
		}
	}
	return []roomFocusCase{
		{"padding/canvas", "padding", "/padding?dt=FLOAT32&sizes=20,20&mode=REFLECTION&start=2,3&end=2,1", true,
			"/api/v1/padding1", `{"dataType":"FLOAT32","inputSizes":[20,20],"paddingMode":"REFLECTION","startPadding":[2,3],"endPadding":[2,1]}`,
			lit{"out", "#pad-out-canvas", 50}, inputAt("in", "#pad-in-canvas", []int64{20, 20}, 50)},
		{"padding/cells", "padding", "/padding?dt=FLOAT32&sizes=3,3&mode=REFLECTION&start=2,1&end=1,2", false,
			"/api/v1/padding1", `{"dataType":"FLOAT32","inputSizes":[3,3],"paddingMode":"REFLECTION","startPadding":[2,1],"endPadding":[1,2]}`,
			lit{"out", "#pad-out-canvas", 7}, inputAt("in", "#pad-in-canvas", []int64{3, 3}, 7)},
		{"tile/canvas", "tile", "/tile?dt=FLOAT32&sizes=20,30&repeats=2,3", true,
			"/api/v1/tile", `{"dataType":"FLOAT32","inputSizes":[20,30],"repeats":[2,3]}`,
			lit{"out", "#tile-out-canvas", 65}, inputAt("in", "#tile-in-canvas", []int64{20, 30}, 65)},
		{"tile/cells", "tile", "/tile?dt=FLOAT32&sizes=2,3&repeats=2,2", false,
			"/api/v1/tile", `{"dataType":"FLOAT32","inputSizes":[2,3],"repeats":[2,2]}`,
			lit{"out", "#tile-out-canvas", 10}, inputAt("in", "#tile-in-canvas", []int64{2, 3}, 10)},
		{"depthspace/canvas", "depthspace", "/depthspace?op=d2s&dt=FLOAT32&sizes=1,16,4,5&imode=packed&block=2", true,
			"/api/v1/depthtospace1", `{"dataType":"FLOAT32","inputSizes":[1,16,4,5],"blockSize":2,"order":"DEPTH_COLUMN_ROW"}`,
			lit{"dcr", "#ds-dcr-canvas", 77}, inputAt("in", "#ds-in-canvas", []int64{1, 16, 4, 5}, 77)},
		{"depthspace/cells", "depthspace", "/depthspace?op=d2s&dt=FLOAT32&sizes=1,8,2,3&imode=packed&block=2", false,
			"/api/v1/depthtospace1", `{"dataType":"FLOAT32","inputSizes":[1,8,2,3],"blockSize":2,"order":"DEPTH_COLUMN_ROW"}`,
			lit{"dcr", "#ds-dcr-canvas", 5}, inputAt("in", "#ds-in-canvas", []int64{1, 8, 2, 3}, 5)},
		{"joinsplit/canvas", "joinsplit", "/joinsplit?op=join&dt=FLOAT32&axis=1&in=20,16&st=&in=20,4&st=", true,
			"/api/v1/join", `{"dataType":"FLOAT32","inputs":[{"sizes":[20,16]},{"sizes":[20,4]}],"axis":1}`,
			lit{"o0", "#js-o0-canvas", 37}, joined([][]int64{{20, 16}, {20, 4}}, 37)},
		{"joinsplit/cells", "joinsplit", "/joinsplit?op=join&dt=FLOAT32&axis=1&in=2,3&st=&in=2,2&st=", false,
			"/api/v1/join", `{"dataType":"FLOAT32","inputs":[{"sizes":[2,3]},{"sizes":[2,2]}],"axis":1}`,
			lit{"o0", "#js-o0-canvas", 8}, joined([][]int64{{2, 3}, {2, 2}}, 8)},
		{"convert/canvas", "convert", "/convert?dt=FLOAT32&sizes=1,3,20,20&imode=packed&omode=explicit&ostrides=1200,1,60,3", true,
			"/api/v1/identity", `{"dataType":"FLOAT32","sizes":[1,3,20,20],"outputStrides":[1200,1,60,3]}`,
			lit{"ob", "#convert-ob-canvas", 604}, copied(604)},
		{"convert/cells", "convert", "/convert?dt=FLOAT32&sizes=1,3,1,5&imode=packed&omode=explicit&ostrides=15,1,15,3", false,
			"/api/v1/identity", `{"dataType":"FLOAT32","sizes":[1,3,1,5],"outputStrides":[15,1,15,3]}`,
			lit{"ob", "#convert-ob-canvas", 4}, copied(4)},
	}
}

// TestE2ERoomFocusOnDataMovementPages: on the five data-movement pages, in
// cells and on canvases, the output cell a presenter points at is lit on
// a phone viewer's page with the source cell the operator's JSON API
// names for it, and both go dark when the presenter's pointer leaves the
// picture; a cell focused with the keyboard or a canvas element tapped
// stays lit (keptFocus). The presenter moves from page to page in one
// room, as a lesson does. The viewer's page opens one websocket, lands
// on the picture, brings a lit canvas into its screen, is axe-core clean
// with the cells lit, and explores on the page's own path.
func TestE2ERoomFocusOnDataMovementPages(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	emulate(t, presenter, desktop)
	viewer := newBrowserContext(t, presenter)
	emulate(t, viewer, phone)
	// Each page opens one socket: the page's room bar once opened one
	// of its own besides the explorer's on these pages, and the two
	// presenter connections took the room from each other, the focus
	// shared on the one left "moved" reaching nobody, now and then.
	for _, ctx := range []context.Context{presenter, viewer} {
		if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: countSockets}); err != nil {
			t.Fatal(err)
		}
	}
	const last = `document.querySelector('#controls').elements.last.value`
	var code, shown string // the room's code, the viewer's page
	for i, c := range roomFocusCases() {
		first := i == 0
		otherK, kept := keptFocus[c.name]
		t.Run(c.name, func(t *testing.T) {
			src := c.src(t, postJSON[focusAnswer](t, base+c.api, c.body))
			if code == "" {
				waitLive(t, presenter, base+c.query)
				do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
			} else {
				do(t, presenter, "go to "+c.query, chromedp.Navigate(base+c.query+"&room="+code))
			}
			waitFor(t, presenter, "presenting", roomState+` === 'presenting' && document.querySelector('#picture').dataset.state === 'done'`)
			if code == "" {
				code = eval[string](t, presenter, `document.querySelector('[data-testid=room-bar]').dataset.room`)
				waitLive(t, viewer, eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`))
			}
			want := eval[string](t, presenter, last)
			waitFor(t, viewer, "the viewer following on "+c.page, fmt.Sprintf(`document.querySelector('[data-testid=room-bar]')?.dataset.page === %q && %s === 'following' && document.querySelector('#picture').dataset.state === 'done' && %s === %q`, c.page, roomState, last, want))
			if c.page != shown {
				shown = c.page
				// A phone viewer arriving is taken to the picture, under the
				// bar, past the form that comes first on these pages too.
				waitFor(t, viewer, "the picture under the room bar", `(() => { const p = document.querySelector('#picture').getBoundingClientRect(), b = document.querySelector('[data-testid=room-bar]').getBoundingClientRect(); return scrollY > 0 && p.top >= b.bottom - 1 && p.top < b.bottom + 40; })()`)
			}
			for who, ctx := range map[string]context.Context{"presenter": presenter, "viewer": viewer} {
				if n := eval[int](t, ctx, `window.__sockets`); n != 1 {
					t.Errorf("the %s's page opened %d websockets, want 1", who, n)
				}
			}
			if c.canvas {
				waitFor(t, viewer, "the viewer's canvases", fmt.Sprintf(`!!document.querySelector(%q)?.drawn && !!document.querySelector(%q)?.drawn`, c.out.canvas, src.canvas))
				// A viewer who has touched nothing yet (the first state) and
				// reads the top of the page is brought to the element, as to
				// a cell: its canvas, which no .sel marks.
				quiet := first
				if quiet {
					do(t, viewer, "the viewer reads the top", chromedp.Evaluate[chromedp.Void](`scrollTo({top: 0, behavior: 'instant'})`))
					if eval[bool](t, viewer, onScreen(c.out.canvas)) {
						t.Fatalf("%s is on the phone's screen at the top of the page: nothing to bring into view", c.out.canvas)
					}
				}
				point := func() { hoverElement(t, presenter, c.out.canvas, int(c.out.k)) }
				if kept {
					point = func() { tapElement(t, presenter, c.out.canvas, int(c.out.k)) }
				}
				pointAt(t, presenter, point, pixelIs(c.out, "==="))
				waitFor(t, viewer, "the presenter's element lit with its source", pixelIs(c.out, "===")+" && "+pixelIs(src, "==="))
				if quiet {
					waitFor(t, viewer, "the lit canvas on the phone's screen", onScreen(c.out.canvas))
				}
			} else {
				point := func() { hoverCell(t, presenter, "#"+c.out.id()) }
				if kept {
					// A click on the line under the form gives the headless tab
					// the focus, without which no focus event fires.
					point = func() {
						do(t, presenter, "focus "+c.out.id(), clickInView("#dot"), chromedp.Focus(chromedp.CSS("#"+c.out.id())))
					}
				}
				pointAt(t, presenter, point, fmt.Sprintf(`!!document.getElementById(%q)?.classList.contains('sel')`, c.out.id()))
				waitFor(t, viewer, "the presenter's cell lit with its source", fmt.Sprintf(`!!document.getElementById(%q)?.classList.contains('sel') && !!document.getElementById(%q)?.classList.contains('linked')`, c.out.id(), src.id()))
			}
			if vs := axeViolations(t, viewer); len(vs) > 0 {
				t.Errorf("axe-core on the viewer's page: %v", vs)
			}
			leave := func() {
				do(t, presenter, "move the mouse off the picture",
					chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0)`),
					chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, 2, 2))
			}
			if kept {
				// Passing over another element shows it; leaving shows the
				// focused one again, on a canvas too (its kept focus).
				other := lit{c.out.grid, c.out.canvas, otherK}
				if c.canvas {
					pointAt(t, presenter, func() { hoverElement(t, presenter, c.out.canvas, int(otherK)) }, pixelIs(other, "==="))
					waitFor(t, viewer, "the element passed over", pixelIs(other, "===")+" && "+pixelIs(c.out, "!=="))
					leave()
					waitFor(t, viewer, "the focused element again", pixelIs(c.out, "===")+" && "+pixelIs(other, "!=="))
					return
				}
				sel := func(l lit) string {
					return fmt.Sprintf(`!!document.getElementById(%q)?.classList.contains('sel')`, l.id())
				}
				pointAt(t, presenter, func() { hoverCell(t, presenter, "#"+other.id()) }, sel(other))
				waitFor(t, viewer, "the cell passed over", sel(other)+" && !"+sel(c.out))
				leave()
				waitFor(t, viewer, "the focused cell again", sel(c.out)+" && !"+sel(other))
			} else {
				leave()
				if c.canvas {
					waitFor(t, viewer, "the viewer's marks cleared", pixelIs(c.out, "!==")+" && "+pixelIs(src, "!=="))
					return
				}
				waitFor(t, viewer, "the viewer's cells cleared", `!document.querySelector('#picture :is(.lc, .bc):is(.linked, .sel)')`)
			}
			// The viewer explores on their own (an example): their state is
			// in the address bar on the page's own path, which a reload
			// keeps, with the way back; it once went to the layout
			// explorer's "/".
			path := c.query[:strings.Index(c.query, "?")]
			// The viewer's page may still be scrolling (to the presenter's
			// element, or back): a click then lands where the link was.
			do(t, viewer, "scroll to an example", chromedp.Evaluate[chromedp.Void](`document.querySelector('.presets a[data-preset]').scrollIntoView({block: 'center', behavior: 'instant'})`))
			waitStill(t, viewer)
			do(t, viewer, "the viewer picks an example", chromedp.Click(chromedp.CSS(`.presets a[data-preset]`)))
			exploring := fmt.Sprintf(`%s === 'detached' && location.pathname === %q && new URLSearchParams(location.search).get('room') === %q && new URLSearchParams(location.search).has('explore')`, roomState, path, code)
			waitFor(t, viewer, "the exploration on "+path, exploring+` && document.querySelector('#picture').dataset.state === 'done'`)
			do(t, viewer, "reload", chromedp.Reload())
			waitFor(t, viewer, "the exploration kept", exploring+` && document.body.dataset.live === 'ready' && !document.querySelector('[data-testid=room-rejoin]').hidden`)
			do(t, viewer, "rejoin", clickInView(`[data-testid=room-rejoin]`))
			waitFor(t, viewer, "following again", fmt.Sprintf(`%s === 'following' && location.pathname === '/r/%s'`, roomState, code))
		})
	}
}

// pointAt points the presenter at an element with point until the page
// shows it (lit, a predicate): on the depth-space and conversion pages
// the line under the input (#dot) grows with the first pick and moves
// the canvases from under the pointer, which then picks another.
func pointAt(t *testing.T, ctx context.Context, hover func(), lit string) {
	t.Helper()
	for try := 1; ; try++ {
		hover()
		tctx, cancel := context.WithTimeout(ctx, 2*time.Second)
		_, err := chromedp.Run(tctx, chromedp.Poll[bool](lit, chromedp.WithPollingInterval(25*time.Millisecond)))
		cancel()
		if err == nil {
			return
		}
		if try == 5 {
			t.Fatalf("the presenter's page does not show what its pointer is on (%s): %v; page state: %s", lit, err, pageState(ctx))
		}
		t.Logf("pointing again: %v; page state: %s", err, pageState(ctx))
	}
}

// tapElement clicks item k of a canvas, found through its layout, as
// hoverElement points at it.
func tapElement(t *testing.T, ctx context.Context, sel string, k int) {
	t.Helper()
	do(t, ctx, "scroll to "+sel, chromedp.ScrollIntoView(chromedp.CSS(sel)))
	xy := eval[[]float64](t, ctx, fmt.Sprintf(`(() => { const cv = document.querySelector(%q), [x, y] = cv.drawn.L.toPixel(%d), r = cv.getBoundingClientRect();
		return [r.x + cv.clientLeft + (x + 0.5) / cv.width * cv.clientWidth, r.y + cv.clientTop + (y + 0.5) / cv.height * cv.clientHeight]; })()`, sel, k))
	do(t, ctx, "tap "+sel, chromedp.MouseClickXY(xy[0], xy[1]))
}

// onScreen says whether any of the element sel is on the screen.
func onScreen(sel string) string {
	return fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight; })()`, sel)
}

// countSockets counts the websockets a page opens, in window.__sockets.
const countSockets = `(() => {
	const W = WebSocket;
	window.__sockets = 0;
	window.WebSocket = function (...args) { window.__sockets++; return new W(...args); };
	window.WebSocket.prototype = W.prototype;
})()`

// pixelIs compares (op: === or !==) the colour of item l.k on the canvas
// l.canvas, found through its layout, with the marks' red.
func pixelIs(l lit, op string) string {
	return fmt.Sprintf(`((c) => { if (!c) return false; const [x, y] = c.L.toPixel(%d), d = c.ctx.getImageData(x, y, 1, 1).data; return [d[0], d[1], d[2]].join() %s '230,57,70'; })(document.querySelector(%q)?.drawn)`, l.k, op, l.canvas)
}
