package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"path"
	"slices"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/profiler"
	"github.com/chromedp/chromedp"
)

// profileEdits runs measure's edits of bc under V8's sampling profiler and
// writes the functions that took the most time themselves, so that a slow
// row of the table says where its time goes.
func profileEdits(tab context.Context, c config, bc benchCase, out io.Writer) error {
	if _, err := chromedp.Call(tab, profiler.Enable, cdp.Empty{}); err != nil {
		return fmt.Errorf("profiler: %w", err)
	}
	if _, err := chromedp.Call(tab, profiler.SetSamplingInterval, profiler.SetSamplingIntervalParams{Interval: 200}); err != nil {
		return fmt.Errorf("profiler: %w", err)
	}
	if _, err := chromedp.Call(tab, profiler.Start, cdp.Empty{}); err != nil {
		return fmt.Errorf("profiler: %w", err)
	}
	r, err := measure(tab, c, bc)
	stop, serr := chromedp.Call(tab, profiler.Stop, cdp.Empty{})
	if err != nil {
		return err
	}
	if serr != nil {
		return fmt.Errorf("profiler: %w", serr)
	}
	fmt.Fprintf(out, "%s: navigation %s, edit %s, hover %s\n", bc.name, r.nav.summary(), r.edit.summary(), r.hover.summary())
	writeSelfTimes(out, stop.Profile, 20)
	return nil
}

// writeSelfTimes writes the top functions of p by self time.
func writeSelfTimes(out io.Writer, p *profiler.Profile, top int) {
	self := map[int64]time.Duration{}
	for k, id := range p.Samples {
		if k < len(p.TimeDeltas) {
			self[id] += time.Duration(p.TimeDeltas[k]) * time.Microsecond
		}
	}
	type fn struct {
		name string
		d    time.Duration
	}
	byName := map[string]time.Duration{}
	var total time.Duration
	for _, n := range p.Nodes {
		f := n.CallFrame
		name := f.FunctionName
		if name == "" {
			name = "(anonymous)"
		}
		if f.URL != "" {
			name += fmt.Sprintf(" %s:%d", path.Base(f.URL), f.LineNumber+1)
		}
		byName[name] += self[n.ID]
		total += self[n.ID]
	}
	var fns []fn
	for name, d := range byName {
		fns = append(fns, fn{name, d})
	}
	slices.SortFunc(fns, func(a, b fn) int { return cmp.Compare(b.d, a.d) })
	fmt.Fprintf(out, "self time over %s sampled:\n", total.Round(time.Millisecond))
	for _, f := range fns[:min(top, len(fns))] {
		fmt.Fprintf(out, "  %7.1f ms  %4.1f%%  %s\n", float64(f.d)/1e6, 100*float64(f.d)/float64(max(total, 1)), f.name)
	}
}
