package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// traceCategories are the Chromium trace categories of a traced
// navigation: the main thread's tasks, style, layout and paint, the
// compositor's commits and the raster workers' tiles.
var traceCategories = []string{"devtools.timeline", "disabled-by-default-devtools.timeline", "blink", "blink.user_timing", "cc", "viz", "loading", "toplevel", "v8"}

// traceEvent is one event of Chromium's trace (the JSON trace format);
// times are in microseconds.
type traceEvent struct {
	Name string          `json:"name"`
	Ph   string          `json:"ph"`
	Ts   float64         `json:"ts"`
	Dur  float64         `json:"dur"`
	TDur float64         `json:"tdur"` // the thread's CPU time, without the time it was preempted
	Pid  int64           `json:"pid"`
	Tid  int64           `json:"tid"`
	Args json.RawMessage `json:"args"`
}

// traceNavigation records one navigation of bc until the picture is
// drawn, after three untraced ones so that the static files and their
// compiled code are cached as in measure's later runs (V8 keeps a
// module's code from its second load). It writes the trace to
// dir/<case>.json (chrome://tracing and ui.perfetto.dev open it) and
// prints where the time to the first paint went.
func traceNavigation(tab context.Context, c config, bc benchCase, dir string, out io.Writer) error {
	url := c.url + bc.path
	drawn := drawnAndLive
	for _, u := range []string{url, "about:blank", url, "about:blank", url, "about:blank"} {
		if err := step(tab, c.timeout, chromedp.Navigate(u)); err != nil {
			return err
		}
		if u == url {
			if _, err := waitValue[float64](tab, c.timeout, drawn); err != nil {
				return fmt.Errorf("untraced navigation: %w", err)
			}
		}
	}
	var mu sync.Mutex
	var raw []json.RawMessage
	complete := make(chan struct{})
	var once sync.Once
	lctx, stopListening := context.WithCancel(tab)
	defer stopListening()
	if err := chromedp.Listen(lctx, func(ev any) {
		switch e := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			for _, v := range e.Value {
				b, err := json.Marshal(v)
				if err == nil {
					raw = append(raw, b)
				}
			}
			mu.Unlock()
		case *tracing.EventTracingComplete:
			once.Do(func() { close(complete) })
		}
	}); err != nil {
		return err
	}
	if _, err := chromedp.Call(tab, tracing.Start, tracing.StartParams{TraceConfig: &tracing.TraceConfig{IncludedCategories: traceCategories}}); err != nil {
		return fmt.Errorf("start tracing: %w", err)
	}
	navErr := step(tab, c.timeout, chromedp.Navigate(url))
	var drawnAt float64
	if navErr == nil {
		drawnAt, navErr = waitValue[float64](tab, c.timeout, drawn)
	}
	if navErr == nil {
		// The first contentful paint is reported when the frame is
		// presented, which can come after the drawn stamp (a task after
		// the frame's main-thread work): end the trace only once the page
		// has its entry, or the trace may lack the event.
		_, navErr = waitValue[float64](tab, c.timeout, `(performance.getEntriesByName('first-contentful-paint')[0] || {startTime: 0}).startTime`)
	}
	if _, err := chromedp.Call(tab, tracing.End, cdp.Empty{}); err != nil {
		return fmt.Errorf("end tracing: %w", err)
	}
	select {
	case <-complete:
	case <-time.After(c.timeout):
		return fmt.Errorf("the trace did not complete in %v", c.timeout)
	}
	if navErr != nil {
		return navErr
	}
	mu.Lock()
	defer mu.Unlock()
	name := filepath.Join(dir, strings.ReplaceAll(bc.name, "/", "-")+".json")
	if err := writeTrace(name, raw); err != nil {
		return err
	}
	evs := make([]traceEvent, 0, len(raw))
	for _, b := range raw {
		var e traceEvent
		if json.Unmarshal(b, &e) == nil {
			evs = append(evs, e)
		}
	}
	b, err := breakDown(evs, url)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	b.drawn = drawnAt
	fmt.Fprintf(out, "%s: %s (trace: %s)\n", bc.name, b, name)
	return nil
}

func writeTrace(name string, raw []json.RawMessage) error {
	f, err := os.Create(name)
	if err != nil {
		return err
	}
	doc := struct {
		TraceEvents []json.RawMessage `json:"traceEvents"`
	}{raw}
	if err := json.NewEncoder(f).Encode(doc); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", name, err)
	}
	return f.Close()
}

// breakdown is where a navigation's time to its first contentful paint
// went, in milliseconds from its start. The work is CPU time: on a busy
// two-core machine a task's wall time also counts the time other
// processes had its core, which hides what a change to the page saved.
type breakdown struct {
	parsed, commit, fcp, drawn   float64 // moments
	style, layout, paint, script float64 // the page's main thread before FCP
	raster, rasterFrom, rasterTo float64 // raster work before FCP, and its span
	browser                      float64 // the browser process's main thread before FCP
}

func (b breakdown) String() string {
	return fmt.Sprintf("parsed at %.0f ms; main thread CPU before FCP: style %.1f, layout %.1f, paint %.1f, script %.1f ms; first frame committed at %.0f ms; raster CPU %.1f ms between %.0f and %.0f ms; browser main thread CPU %.1f ms; FCP %.0f ms; drawn %.0f ms",
		b.parsed, b.style, b.layout, b.paint, b.script, b.commit, b.raster, b.rasterFrom, b.rasterTo, b.browser, b.fcp, b.drawn)
}

// breakDown finds the navigation to url in a trace and adds up its work.
func breakDown(evs []traceEvent, url string) (breakdown, error) {
	var b breakdown
	threads := map[[2]int64]string{}
	for _, e := range evs {
		if e.Ph == "M" && e.Name == "thread_name" {
			var a struct{ Name string }
			if json.Unmarshal(e.Args, &a) == nil {
				threads[[2]int64{e.Pid, e.Tid}] = a.Name
			}
		}
	}
	type navArgs struct {
		Frame string `json:"frame"`
		Data  struct {
			URL          string `json:"documentLoaderURL"`
			NavigationID string `json:"navigationId"`
		} `json:"data"`
	}
	var nav traceEvent
	var navA navArgs
	for _, e := range evs {
		var a navArgs
		if e.Name == "navigationStart" && json.Unmarshal(e.Args, &a) == nil && a.Data.URL == url {
			nav, navA = e, a
		}
	}
	if nav.Name == "" {
		return b, fmt.Errorf("no navigationStart of %s in the trace", url)
	}
	at := func(ts float64) float64 { return (ts - nav.Ts) / 1000 }
	fcpTs := 0.0
	var interactive []float64
	for _, e := range evs {
		var a navArgs
		switch {
		case e.Name == "firstContentfulPaint" && json.Unmarshal(e.Args, &a) == nil && a.Data.NavigationID == navA.Data.NavigationID:
			fcpTs = e.Ts
		case e.Name == "domInteractive" && json.Unmarshal(e.Args, &a) == nil && a.Frame == navA.Frame:
			interactive = append(interactive, e.Ts)
		}
	}
	if fcpTs == 0 {
		return b, fmt.Errorf("no first contentful paint of %s in the trace", url)
	}
	// The page's is the last: not the blank documents' that the
	// navigation replaced. It may come after the first paint: the parser
	// yields to a frame once the stylesheet is in.
	for _, ts := range interactive {
		if ts >= nav.Ts {
			b.parsed = max(b.parsed, at(ts))
		}
	}
	parseStart := fcpTs
	for _, e := range evs {
		if e.Name == "ParseHTML" && e.Pid == nav.Pid && e.Ts >= nav.Ts {
			parseStart = min(parseStart, e.Ts)
		}
	}
	b.fcp = at(fcpTs)
	commitTs, rasterTs := math.Inf(1), math.Inf(1)
	for _, e := range evs {
		if e.Ph != "X" || e.Ts < nav.Ts || e.Ts > fcpTs {
			continue
		}
		d := e.TDur / 1000
		if e.TDur == 0 {
			d = e.Dur / 1000
		}
		thread := threads[[2]int64{e.Pid, e.Tid}]
		if e.Pid != nav.Pid {
			// One task per ThreadControllerImpl::RunTask: the events
			// under it would count its time again.
			if thread == "CrBrowserMain" && e.Name == "ThreadControllerImpl::RunTask" {
				b.browser += d
			}
			continue
		}
		main := thread == "CrRendererMain"
		switch {
		case main && e.Name == "UpdateLayoutTree":
			b.style += d
		case main && e.Name == "Layout":
			b.layout += d
		case main && e.Name == "Paint":
			b.paint += d
		case main && (e.Name == "v8.evaluateModule" || e.Name == "FunctionCall"):
			b.script += d
		case main && e.Name == "ProxyMain::BeginMainFrame::commit" && e.Ts >= parseStart:
			commitTs = min(commitTs, e.Ts) // the trace is not in time order across threads
		case e.Name == "RasterTask":
			b.raster += d
			rasterTs = min(rasterTs, e.Ts)
			b.rasterTo = max(b.rasterTo, at(e.Ts+e.Dur))
		}
	}
	if commitTs <= fcpTs {
		b.commit = at(commitTs)
	}
	if rasterTs <= fcpTs {
		b.rasterFrom = at(rasterTs)
	}
	return b, nil
}
