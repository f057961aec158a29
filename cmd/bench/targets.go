package main

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// printTargets states each target of benchmarks.md against this run.
func printTargets(w io.Writer, rs []result, md bool) {
	get := func(name string, threads int) *result {
		for i := range rs {
			if rs[i].Case == name && rs[i].Threads == threads {
				return &rs[i]
			}
		}
		return nil
	}
	val := func(p *float64) float64 {
		if p == nil {
			return -1
		}
		return *p
	}
	fmt.Fprintf(w, "targets (one thread unless stated)\n\n")
	t := newTable(w, md, "target", "case", "verdict", "measured")
	defer t.flush()
	line := func(target, name string, ok bool, measured string) {
		mark := "met"
		if !ok {
			mark = "NOT MET"
		}
		t.row(target, name, mark, measured)
	}
	ratio := func(target, name string, memMin, npMin float64) {
		r := get(name, 1)
		if r == nil {
			return
		}
		ok := val(r.MemcpyRatio) >= memMin || memMin == 0
		var parts []string
		if memMin > 0 {
			parts = append(parts, fmt.Sprintf("memcpy x%.2f", val(r.MemcpyRatio)))
		}
		if npMin > 0 {
			ok = ok && val(r.NumpyRatio) >= npMin
			parts = append(parts, fmt.Sprintf("numpy x%s (drift-corrected x%s)", fmtp(r.NumpyRatio, "%.2f"), fmtp(r.NumpyRatioNorm, "%.2f")))
		}
		line(target, name, ok, strings.Join(parts, ", "))
	}
	// Issue #16's targets where it sets one (C1/C2, C4, T, R8 on two
	// threads), benchmarks.md's elsewhere.
	ratio(">= 0.95 x memcpy", "C0-full", 0.95, 0)
	for _, n := range []string{"C1-crop", "C1-crop/e1", "C1-crop/e2", "C1-crop/e8", "C2-outerstep"} {
		ratio(">= 0.85 x memcpy, >= 1.0 x numpy", n, 0.85, 1.0)
	}
	ratio(">= 0.80 x memcpy, >= 4 x numpy", "C4-revinner", 0.80, 4)
	ratio(">= 0.70 x memcpy, >= 3 x numpy", "C4-revinner/e8", 0.70, 3)
	ratio(">= 0.70 x memcpy, >= 3 x numpy", "C5-mixed", 0.70, 3)
	ratio(">= 0.70 x memcpy", "C6-revall", 0.70, 0)
	ratio(">= 0.50 x memcpy, >= 3 x numpy", "C4-revinner/e1", 0.50, 3)
	ratio(">= 0.50 x memcpy, >= 3 x numpy", "C4-revinner/e2", 0.50, 3)
	ratio(">= 0.50 x memcpy, >= 1.0 x numpy", "C3-innerstep2", 0.50, 1.0)
	ratio(">= 0.50 x memcpy, >= 1.0 x numpy", "C3-innerstep2/e8", 0.50, 1.0)
	ratio(">= 6 x numpy", "T-transpose", 0, 6)
	// No cliff: the cost per element of a transpose stays within twice
	// the cheapest side's as the matrix outgrows the caches.
	var sides []string
	lo, hi := math.Inf(1), 0.0
	for _, n := range transposeSides {
		r := get(transposeCase(n), 1)
		if r == nil || r.GBps == nil {
			continue
		}
		ns := float64(r.ElemSize) / *r.GBps // ns per element
		lo, hi = min(lo, ns), max(hi, ns)
		sides = append(sides, fmt.Sprintf("%d: %.2f", n, ns))
	}
	if len(sides) > 1 {
		line("ns per element within 2 x across sides", "T-64..T-4096", hi <= 2*lo, strings.Join(sides, ", ")+" ns")
	}
	// Issue #39: the permuting layout conversions at 2^24 elements.
	ratio(">= 0.6 x memcpy", "ID-NCHW-NHWC", 0.6, 0)
	ratio(">= 0.6 x memcpy", "ID-NHWC-NCHW", 0.6, 0)
	ratio(">= 1.0 x numpy", "R8-8d", 0, 1.0)
	if r := get("R8-8d", 2); r != nil {
		line(">= 2 x numpy with two threads", "R8-8d", val(r.NumpyRatio) >= 2, fmt.Sprintf("numpy x%s (drift-corrected x%s)", fmtp(r.NumpyRatio, "%.2f"), fmtp(r.NumpyRatioNorm, "%.2f")))
	}
	for _, n := range []string{"C0-full", "C1-crop", "C4-revinner", "R8-8d"} {
		r1, r2 := get(n, 1), get(n, 2)
		if r1 == nil || r2 == nil {
			continue
		}
		s := *r2.GBps / *r1.GBps
		line(">= 1.25 x one thread with two", n, s >= 1.25, fmt.Sprintf("x%.2f (%.2f -> %.2f GB/s)", s, *r1.GBps, *r2.GBps))
	}
	for _, n := range []string{"S1", "S2"} {
		if r := get(n, 1); r != nil {
			line("<= 250 ns per call, 0 allocations", n, *r.NsPerCall <= 250 && *r.Allocs == 0,
				fmt.Sprintf("%.0f ns, %.2f allocs", *r.NsPerCall, *r.Allocs))
		}
	}
	for _, n := range []string{"C1-crop", "C3-innerstep2", "C4-revinner", "T-transpose", "R8-8d"} {
		r := get("HL-"+n, 1)
		if r == nil {
			continue
		}
		switch n {
		case "C3-innerstep2", "R8-8d":
			line("<= 21 ms", r.Case, *r.Ms <= 21, fmt.Sprintf("%.2f ms", *r.Ms))
		default:
			line(">= 20 G cells/s and <= 21 ms (unit-step runs)", r.Case, *r.GCellsPerS >= 20 && *r.Ms <= 21,
				fmt.Sprintf("%.1f G cells/s, %.2f ms", *r.GCellsPerS, *r.Ms))
		}
	}
}
