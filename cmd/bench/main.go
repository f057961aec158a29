// Command bench measures the slice engine (package compute) as
// docs/benchmarks.md and shared/reference/benchmarks.md describe: every
// figure is a ratio taken in the same run (against Go copy() interleaved
// with the case, and against NumPy's np.copyto on the identical view), at
// GOMAXPROCS 1 and 2, after checking each output byte for byte against a
// naive reference and its checksum against NumPy's.
//
//	go run ./cmd/bench            # full matrix, readable table
//	go run ./cmd/bench -quick     # about a minute
//	go run ./cmd/bench -json      # one JSON object per case and thread count
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/stridescope/stridescope/compute"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

type options struct {
	quick    bool
	json     bool
	md       bool
	only     string
	python   string
	minPairs int
	minTime  time.Duration
	threads  []int
}

// result is one line of -json output.
type result struct {
	Case        string   `json:"case"`
	Class       string   `json:"class"`
	Threads     int      `json:"threads"`
	ElemSize    int      `json:"elemSize"`
	OutBytes    int64    `json:"outBytes"`
	Plan        string   `json:"plan,omitempty"`
	GBps        *float64 `json:"gbps"`
	MemcpyGBps  *float64 `json:"memcpyGbps"`
	MemcpyRatio *float64 `json:"memcpyRatio"`
	RatioP25    *float64 `json:"memcpyRatioP25"`
	RatioP75    *float64 `json:"memcpyRatioP75"`
	NumpyGBps   *float64 `json:"numpyGbps"`
	NumpyRatio  *float64 `json:"numpyRatio"`
	// NumpyMemcpy is NumPy's own t_memcpy/t_view, measured interleaved in
	// the NumPy process; NumpyRatioNorm = MemcpyRatio / NumpyMemcpy
	// compares Go and NumPy each against a contiguous copy of the same
	// size, which cancels the machine's drift between the two runs.
	NumpyMemcpy    *float64 `json:"numpyMemcpyRatio"`
	NumpyRatioNorm *float64 `json:"numpyRatioNorm"`
	NsPerCall      *float64 `json:"nsPerCall,omitempty"`
	Allocs         *float64 `json:"allocsPerCall,omitempty"`
	Ms             *float64 `json:"ms,omitempty"`
	MsAlloc        *float64 `json:"msAlloc,omitempty"`
	GCellsPerS     *float64 `json:"gcellsPerSec,omitempty"`
	GElemsPerS     *float64 `json:"gelemsPerSec,omitempty"`
	// Identity cases: NumpyGBps is np.ascontiguousarray(view), which
	// allocates its output on every call (as the issue asks);
	// NumpyCopytoGBps is np.copyto(out, view) into a pre-faulted output,
	// the same copy without the allocation.
	NumpyCopytoGBps  *float64 `json:"numpyCopytoGbps,omitempty"`
	NumpyCopytoRatio *float64 `json:"numpyCopytoRatio,omitempty"`
	NumpyError       string   `json:"numpyError,omitempty"`
	Pairs            int      `json:"pairs"`
	Check            string   `json:"check"`

	checksum uint64
}

func ptr(v float64) *float64 { return &v }

func run() error {
	var o options
	flag.BoolVar(&o.quick, "quick", false, "whole matrix in about a minute (fewer repetitions)")
	flag.BoolVar(&o.json, "json", false, "one JSON object per line per case and thread count")
	flag.BoolVar(&o.md, "md", false, "the tables in Markdown (for docs/benchmarks.md)")
	flag.StringVar(&o.only, "only", "", "run only the cases whose name contains this (comma-separated)")
	flag.StringVar(&o.python, "python", "", "python3 with numpy for the NumPy reference (default: /usr/bin/python3, then python3 on PATH; \"none\" skips it)")
	flag.Parse()
	o.minPairs, o.minTime = 21, 600*time.Millisecond
	if o.quick {
		o.minPairs, o.minTime = 7, 120*time.Millisecond
	}
	o.threads = []int{1, 2}

	cases, err := matrix()
	if err != nil {
		return err
	}
	if o.only != "" {
		cases = slices.DeleteFunc(cases, func(c benchCase) bool {
			for _, p := range strings.Split(o.only, ",") {
				if strings.Contains(c.name, p) {
					return false
				}
			}
			return true
		})
	}
	start := time.Now()
	np := startNumpy(o)
	defer np.close()
	results, err := runGo(cases, o, np)
	if err != nil {
		return err
	}
	if o.json {
		enc := json.NewEncoder(os.Stdout)
		for _, r := range results {
			if err := enc.Encode(r); err != nil {
				return err
			}
		}
	} else {
		printTable(os.Stdout, results, np, time.Since(start), o.md)
		printTargets(os.Stdout, results, o.md)
	}
	for _, r := range results {
		if r.Check != "ok" {
			return fmt.Errorf("case %s (threads %d): %s", r.Case, r.Threads, r.Check)
		}
	}
	return nil
}

// fill writes the element index into buf as elements of e bytes (the
// integer wrapped to the size for 1 and 2 bytes, float32/float64 for 4
// and 8, as NumPy's arange of the case's dtype).
func fill(buf []byte, e int) {
	n := len(buf) / e
	for i := range n {
		switch e {
		case 1:
			buf[i] = byte(i)
		case 2:
			buf[2*i], buf[2*i+1] = byte(i), byte(i>>8)
		case 4:
			v := math.Float32bits(float32(i))
			buf[4*i], buf[4*i+1], buf[4*i+2], buf[4*i+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		case 8:
			v := math.Float64bits(float64(i))
			for k := range 8 {
				buf[8*i+k] = byte(v >> (8 * k))
			}
		}
	}
}

// checksum is sum((i*2654435761 + 1) * v_i) mod 2^64 over the elements
// read as little-endian unsigned integers (the NumPy script's formula).
func checksum(buf []byte, e int) uint64 {
	var sum uint64
	for i := range len(buf) / e {
		var v uint64
		for k := range e {
			v |= uint64(buf[i*e+k]) << (8 * k)
		}
		sum += (uint64(i)*2654435761 + 1) * v
	}
	return sum
}

// naiveOffsets walks w element by element with an odometer over its
// dimensions as given (no normalisation, no kernels): the reference.
func naiveOffsets(w compute.Walk, visit func(i, off int64)) {
	n := w.Len()
	coord := make([]int64, len(w.Sizes))
	off := w.Base
	for i := range n {
		visit(i, off)
		for d := len(coord) - 1; d >= 0; d-- {
			coord[d]++
			off += w.Strides[d]
			if coord[d] < w.Sizes[d] {
				break
			}
			off -= coord[d] * w.Strides[d]
			coord[d] = 0
		}
	}
}

// naiveCheck compares out with the naive gather of w from src, element by
// element, and returns the first differing byte or -1.
func naiveCheck(out, src []byte, w compute.Walk, e int) int64 {
	bad := int64(-1)
	e64 := int64(e)
	naiveOffsets(w, func(i, off int64) {
		if bad < 0 && !bytes.Equal(out[i*e64:(i+1)*e64], src[off*e64:(off+1)*e64]) {
			bad = i * e64
		}
	})
	return bad
}

// timing holds the interleaved samples of one case.
type timing struct {
	mem, cas []float64 // seconds per call
}

// interleave runs memcpy, case, memcpy, case, ... until there are at
// least minPairs pairs and minTime has passed (capped at 40x minTime and
// 5000 pairs). batch calls form one sample.
func interleave(o options, batch int, mem, cas func()) timing {
	var t timing
	start := time.Now()
	for len(t.cas) < o.minPairs || time.Since(start) < o.minTime {
		t0 := time.Now()
		for range batch {
			mem()
		}
		t1 := time.Now()
		for range batch {
			cas()
		}
		t2 := time.Now()
		t.mem = append(t.mem, t1.Sub(t0).Seconds()/float64(batch))
		t.cas = append(t.cas, t2.Sub(t1).Seconds()/float64(batch))
		if len(t.cas) >= 5000 || time.Since(start) > 40*o.minTime {
			break
		}
	}
	return t
}

func quantile(v []float64, q float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[int(q*float64(len(s)-1)+0.5)]
}

// batchFor picks how many calls form one sample so that a sample lasts
// about 100 us.
func batchFor(f func()) int {
	t0 := time.Now()
	f()
	d := time.Since(t0)
	if d <= 0 {
		d = time.Nanosecond
	}
	return int(max(1, min(100000, int64(100*time.Microsecond/d))))
}

// runGo measures every case at each thread count.
func runGo(cases []benchCase, o options, np *numpyProc) ([]result, error) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var results []result
	// One input buffer at a time, kept while consecutive cases share it.
	var src, dst []byte
	srcKey := ""
	releaseSrc, releaseDst := func() {}, func() {}
	defer func() { releaseSrc(); releaseDst() }()
	for ci := range cases {
		c := &cases[ci]
		if key := fmt.Sprintf("%d/%d", c.e, c.n); key != srcKey {
			releaseSrc()
			src, releaseSrc = nil, func() {}
			debug.FreeOSMemory()
			src, releaseSrc = buffer(c.n * int64(c.e))
			fill(src, c.e)
			srcKey = key
		}
		ob := c.outBytes()
		if int64(cap(dst)) < ob {
			releaseDst()
			dst, releaseDst = nil, func() {}
			debug.FreeOSMemory()
			dst, releaseDst = buffer(ob)
			for i := range dst {
				dst[i] = 1 // fault the pages in
			}
		}
		dst = dst[:ob]
		plan, err := explain(c)
		if err != nil {
			return nil, err
		}
		threads := o.threads
		if c.class == classID || c.class == classPad {
			threads = []int{1} // compute.Identity and AxisCopy are one goroutine
		}
		for _, th := range threads {
			runtime.GOMAXPROCS(th)
			runtime.GC()
			r := result{Case: c.name, Class: c.class, Threads: th, ElemSize: c.e, OutBytes: ob, Plan: plan}
			var err error
			switch c.class {
			case classHL:
				err = measureHL(&r, c, o)
			default:
				err = measureCopy(&r, c, o, src, dst, th)
			}
			if err != nil {
				return nil, err
			}
			if !o.json {
				fmt.Fprintf(os.Stderr, "%-22s threads=%d %s\n", c.name, th, short(r))
			}
			results = append(results, r)
		}
		if c.class != classHL {
			addNumpy(results[len(results)-len(threads):], c, np, o)
		}
	}
	return results, nil
}

// addNumpy times NumPy on the case just measured and adds its figure and
// checksum to the case's results.
func addNumpy(rs []result, c *benchCase, np *numpyProc, o options) {
	debug.FreeOSMemory()
	n, ok := np.run(c)
	if !ok {
		return
	}
	if !o.json {
		fmt.Fprintf(os.Stderr, "%-22s numpy     %s %s\n", c.name, fmtp(n.GBps, "%.2f GB/s"), n.Error)
	}
	for i := range rs {
		r := &rs[i]
		if n.Error != "" {
			r.NumpyError = n.Error
			continue
		}
		if n.GBps != nil && r.GBps != nil {
			r.NumpyGBps = n.GBps
			r.NumpyRatio = ptr(*r.GBps / *n.GBps)
		}
		if n.CopytoGBps != nil && r.GBps != nil {
			r.NumpyCopytoGBps = n.CopytoGBps
			r.NumpyCopytoRatio = ptr(*r.GBps / *n.CopytoGBps)
		}
		if n.Memcpy != nil && r.MemcpyRatio != nil && (r.Class == classCopy || r.Class == classID || r.Class == classPad) {
			r.NumpyMemcpy = n.Memcpy
			r.NumpyRatioNorm = ptr(*r.MemcpyRatio / *n.Memcpy)
		}
		if n.Checksum != fmt.Sprint(r.checksum) && r.Check == "ok" {
			r.Check = fmt.Sprintf("checksum %d, numpy %s", r.checksum, n.Checksum)
		}
	}
}

func short(r result) string {
	switch {
	case r.Class == classHL:
		return fmt.Sprintf("%.2f ms %s", *r.Ms, r.Check)
	case r.Class == classSmall:
		return fmt.Sprintf("%.0f ns/call %s", *r.NsPerCall, r.Check)
	}
	return fmt.Sprintf("%.2f GB/s x%.2f memcpy %s", *r.GBps, *r.MemcpyRatio, r.Check)
}

// explain is the plan compute chooses for the case.
func explain(c *benchCase) (string, error) {
	if c.class == classID {
		return compute.ExplainIdentity(c.in, c.out, c.e)
	}
	return compute.Explain(c.walk, c.e)
}

func measureCopy(r *result, c *benchCase, o options, src, dst []byte, threads int) error {
	call := func() error {
		switch {
		case c.class == classID:
			return compute.Identity(dst, src, c.in, c.out, c.e)
		case c.ds != nil:
			return compute.CopyParallel(dst, src, c.walk, c.e, threads)
		case c.class == classPad:
			return c.padCall(dst, src)
		case threads == 1:
			return compute.Slice(dst, src, c.slice)
		}
		return compute.SliceParallel(dst, src, c.slice, threads)
	}
	// Check before timing.
	for i := range dst {
		dst[i] = 0xEE
	}
	if err := call(); err != nil {
		return fmt.Errorf("case %s: %w", c.name, err)
	}
	r.Check = "ok"
	check := func() int64 { return naiveCheck(dst, src, c.walk, c.e) }
	if c.class == classPad {
		check = func() int64 { return c.padCheck(dst, src) }
	}
	if i := check(); i >= 0 {
		r.Check = fmt.Sprintf("byte %d differs from the naive reference", i)
	}
	r.checksum = checksum(dst, c.e)
	mem := func() { copy(dst, src[:len(dst)]) }
	cas := func() { _ = call() }
	batch := 1
	if c.class == classSmall {
		batch = batchFor(cas)
	}
	t := interleave(o, batch, mem, cas)
	ratios := make([]float64, len(t.cas))
	for i := range t.cas {
		ratios[i] = t.mem[i] / t.cas[i]
	}
	mc, mm := quantile(t.cas, 0.5), quantile(t.mem, 0.5)
	ob := float64(len(dst))
	r.GBps, r.MemcpyGBps = ptr(ob/mc/1e9), ptr(ob/mm/1e9)
	r.MemcpyRatio, r.RatioP25, r.RatioP75 = ptr(quantile(ratios, 0.5)), ptr(quantile(ratios, 0.25)), ptr(quantile(ratios, 0.75))
	r.Pairs = len(t.cas)
	if c.class == classSmall {
		r.NsPerCall = ptr(mc * 1e9)
		var m0, m1 runtime.MemStats
		const n = 1000
		runtime.ReadMemStats(&m0)
		for range n {
			cas()
		}
		runtime.ReadMemStats(&m1)
		r.Allocs = ptr(float64(m1.Mallocs-m0.Mallocs) / n)
	}
	return nil
}

func measureHL(r *result, c *benchCase, o options) error {
	ctx := context.Background()
	cells := c.n
	bm, err := compute.Touched(ctx, c.walk, cells)
	if err != nil {
		return fmt.Errorf("case %s: %w", c.name, err)
	}
	want := make([]uint64, (cells+63)/64)
	naiveOffsets(c.walk, func(_, off int64) { want[off>>6] |= 1 << (off & 63) })
	r.Check = "ok"
	if !slices.Equal(bm, want) {
		r.Check = "bitmap differs from the naive reference"
	}
	want = nil
	runtime.GC()
	// The engine's figure reuses one bitmap (compute.TouchedInto clears
	// and fills it); Touched, which allocates a fresh 2 MiB bitmap per
	// call, is timed too (msAlloc): its extra cost is the runtime's page
	// faults and GC, not the engine.
	var ts, ta []float64
	start := time.Now()
	for len(ts) < o.minPairs || time.Since(start) < o.minTime {
		t0 := time.Now()
		bm, _ = compute.TouchedInto(ctx, c.walk, cells, bm)
		t1 := time.Now()
		_, _ = compute.Touched(ctx, c.walk, cells)
		ts = append(ts, t1.Sub(t0).Seconds())
		ta = append(ta, time.Since(t1).Seconds())
		if len(ts) >= 5000 || time.Since(start) > 40*o.minTime {
			break
		}
	}
	r.MsAlloc = ptr(quantile(ta, 0.5) * 1e3)
	t := quantile(ts, 0.5)
	r.Ms = ptr(t * 1e3)
	r.GCellsPerS = ptr(float64(cells) / t / 1e9)
	r.GElemsPerS = ptr(float64(c.walk.Len()) / t / 1e9)
	r.Pairs = len(ts)
	r.OutBytes = (cells + 7) / 8
	return nil
}

func fmtp(v *float64, f string) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf(f, *v)
}

func printTable(w io.Writer, rs []result, np *numpyProc, took time.Duration, md bool) {
	fmt.Fprintf(w, "slice engine benchmark: %s, GOOS/GOARCH %s/%s, NumCPU %d, %s; took %.0f s\n\n",
		runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.NumCPU(), np.version, took.Seconds())
	t := newTable(w, md, "case", "thr", "e", "MB", "GB/s", "memcpy GB/s", "ratio (p25-p75)", "numpy GB/s", "np-ratio", "np-norm", "check", "plan")
	for _, r := range rs {
		if r.Class != classCopy {
			continue
		}
		t.row(r.Case, fmt.Sprint(r.Threads), fmt.Sprint(r.ElemSize), fmt.Sprintf("%.1f", float64(r.OutBytes)/(1<<20)),
			fmt.Sprintf("%.2f", *r.GBps), fmt.Sprintf("%.2f", *r.MemcpyGBps),
			fmt.Sprintf("%.2f (%.2f-%.2f)", *r.MemcpyRatio, *r.RatioP25, *r.RatioP75), fmtp(r.NumpyGBps, "%.2f"), fmtp(r.NumpyRatio, "%.2f"),
			fmtp(r.NumpyRatioNorm, "%.2f"), r.Check, t.code(r.Plan))
	}
	t.flush()
	t = newTable(w, md, "identity (one thread)", "e", "MB", "GB/s", "memcpy GB/s", "ratio (p25-p75)", "numpy GB/s", "np-ratio", "np copyto GB/s", "np-copyto-ratio", "check", "plan")
	for _, r := range rs {
		if r.Class != classID {
			continue
		}
		t.row(r.Case, fmt.Sprint(r.ElemSize), fmt.Sprintf("%.1f", float64(r.OutBytes)/(1<<20)),
			fmt.Sprintf("%.2f", *r.GBps), fmt.Sprintf("%.2f", *r.MemcpyGBps),
			fmt.Sprintf("%.2f (%.2f-%.2f)", *r.MemcpyRatio, *r.RatioP25, *r.RatioP75), fmtp(r.NumpyGBps, "%.2f"), fmtp(r.NumpyRatio, "%.2f"),
			fmtp(r.NumpyCopytoGBps, "%.2f"), fmtp(r.NumpyCopytoRatio, "%.2f"), r.Check, t.code(r.Plan))
	}
	t.flush()
	t = newTable(w, md, "padding (one thread)", "e", "MB out", "GB/s", "memcpy GB/s", "ratio (p25-p75)", "np.pad GB/s", "np-ratio", "np-norm", "check")
	for _, r := range rs {
		if r.Class != classPad {
			continue
		}
		t.row(r.Case, fmt.Sprint(r.ElemSize), fmt.Sprintf("%.1f", float64(r.OutBytes)/(1<<20)),
			fmt.Sprintf("%.2f", *r.GBps), fmt.Sprintf("%.2f", *r.MemcpyGBps),
			fmt.Sprintf("%.2f (%.2f-%.2f)", *r.MemcpyRatio, *r.RatioP25, *r.RatioP75), fmtp(r.NumpyGBps, "%.2f"), fmtp(r.NumpyRatio, "%.2f"),
			fmtp(r.NumpyRatioNorm, "%.2f"), r.Check)
	}
	t.flush()
	t = newTable(w, md, "small call", "thr", "ns/call", "allocs", "numpy GB/s", "np-ratio", "np-norm", "check")
	for _, r := range rs {
		if r.Class == classSmall {
			t.row(r.Case, fmt.Sprint(r.Threads), fmt.Sprintf("%.0f", *r.NsPerCall), fmt.Sprintf("%.2f", *r.Allocs),
				fmtp(r.NumpyGBps, "%.3f"), fmtp(r.NumpyRatio, "%.2f"), fmtp(r.NumpyRatioNorm, "%.2f"), r.Check)
		}
	}
	t.flush()
	t = newTable(w, md, "highlight bitmap", "thr", "ms", "G cells/s", "G elems/s", "ms (alloc)", "check")
	for _, r := range rs {
		if r.Class == classHL {
			t.row(r.Case, fmt.Sprint(r.Threads), fmt.Sprintf("%.2f", *r.Ms), fmt.Sprintf("%.2f", *r.GCellsPerS),
				fmt.Sprintf("%.2f", *r.GElemsPerS), fmt.Sprintf("%.2f", *r.MsAlloc), r.Check)
		}
	}
	t.flush()
}

// table writes rows as aligned text or, with md, as a Markdown table.
type table struct {
	w  io.Writer
	md bool
	tw *tabwriter.Writer
}

func newTable(w io.Writer, md bool, head ...string) *table {
	t := &table{w: w, md: md}
	if !md {
		t.tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	}
	t.row(head...)
	if md {
		fmt.Fprintln(w, "|"+strings.Repeat("---|", len(head)))
	}
	return t
}

func (t *table) row(cells ...string) {
	if t.md {
		fmt.Fprintln(t.w, "| "+strings.Join(cells, " | ")+" |")
		return
	}
	fmt.Fprintln(t.tw, strings.Join(cells, "\t"))
}

// code marks s as code in Markdown.
func (t *table) code(s string) string {
	if t.md && s != "" {
		return "`" + s + "`"
	}
	return s
}

func (t *table) flush() {
	if t.tw != nil {
		t.tw.Flush()
	}
	fmt.Fprintln(t.w)
}
