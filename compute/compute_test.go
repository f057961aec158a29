package compute

// These tests compare every path of the engine (each mode, each kernel,
// each element size, the safe kernels, 1-3 goroutines) with a naive
// reference that finds each element by division. They exercise the unsafe
// kernels and are meant to pass under
//
//	go test ./compute
//	go test -race ./compute
//	go test -gcflags=all=-d=checkptr ./compute
//
// FuzzCopy is a differential fuzz target: go test -fuzz=FuzzCopy
// -fuzztime=30s ./compute. No test here is timed.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/stridescope/stridescope/core"
)

// naiveOffsets lists the offsets of w by division, per element.
func naiveOffsets(w Walk) []int64 {
	n := w.Len()
	out := make([]int64, n)
	for i := range n {
		rem, off := i, w.Base
		for d := len(w.Sizes) - 1; d >= 0; d-- {
			c := rem % w.Sizes[d]
			rem /= w.Sizes[d]
			off += c * w.Strides[d]
		}
		out[i] = off
	}
	return out
}

// naiveCopy returns the gathered bytes, or ok=false when some offset is
// outside src.
func naiveCopy(w Walk, src []byte, e int) ([]byte, bool) {
	offs := naiveOffsets(w)
	out := make([]byte, len(offs)*e)
	for i, o := range offs {
		if o < 0 || (o+1)*int64(e) > int64(len(src)) {
			return nil, false
		}
		copy(out[i*e:(i+1)*e], src[o*int64(e):])
	}
	return out, true
}

func span(w Walk) (lo, hi int64) {
	lo, hi = w.Base, w.Base
	for i, s := range w.Sizes {
		t := (s - 1) * w.Strides[i]
		if t < 0 {
			lo += t
		} else {
			hi += t
		}
	}
	return lo, hi
}

// randWalk draws a walk the way slices produce them: an input tensor
// (packed, permuted or padded strides), a window per dimension with a
// signed step, sometimes raw strides (zero included) and extra size-1
// dimensions. Sizes are small, with an occasional long inner row so that
// the unrolled loops and the read-ahead run.
func randWalk(rng *rand.Rand, maxElems int64) Walk {
	rank := 1 + rng.IntN(8)
	in := make([]int64, rank)
	for i := range in {
		switch rng.IntN(6) {
		case 0:
			in[i] = 1
		case 1:
			in[i] = 16 + rng.Int64N(40)
		default:
			in[i] = 2 + rng.Int64N(6)
		}
	}
	if rng.IntN(3) == 0 {
		in[rank-1] = 64 + rng.Int64N(600)
	}
	// Keep the input (and so src) below about 2^17 elements.
	for {
		n := int64(1)
		for _, v := range in {
			n *= v
		}
		if n <= 1<<17 {
			break
		}
		i := rng.IntN(rank)
		in[i] = (in[i] + 1) / 2
	}
	// Input strides: packed, permuted packed, or padded.
	perm := make([]int, rank)
	for i := range perm {
		perm[i] = i
	}
	if rng.IntN(3) == 0 {
		rng.Shuffle(rank, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	}
	inStr := make([]int64, rank)
	p := int64(1)
	for k := rank - 1; k >= 0; k-- {
		d := perm[k]
		inStr[d] = p
		p *= in[d]
		if rng.IntN(5) == 0 {
			p += rng.Int64N(3)
		}
	}
	sizes := make([]int64, rank)
	strides := make([]int64, rank)
	for i := range rank {
		step := int64(1)
		switch rng.IntN(6) {
		case 0:
			step = -1
		case 1:
			step = 2
		case 2:
			step = -2 - rng.Int64N(2)
		case 3:
			step = 1 + rng.Int64N(3)
		}
		win := 1 + rng.Int64N(in[i])
		sizes[i] = 1 + (win-1)/abs(step)
		strides[i] = step * inStr[i]
		if rng.IntN(12) == 0 {
			strides[i] = rng.Int64N(21) - 10 // raw, zero included
		}
	}
	// Keep the element count bounded.
	for {
		n := int64(1)
		for _, s := range sizes {
			n *= s
		}
		if n <= maxElems {
			break
		}
		i := rng.IntN(rank)
		sizes[i] = (sizes[i] + 1) / 2
	}
	// Extra size-1 dimensions anywhere (up to 10 in all).
	for range rng.IntN(3) {
		at := rng.IntN(len(sizes) + 1)
		sizes = append(sizes[:at], append([]int64{1}, sizes[at:]...)...)
		strides = append(strides[:at], append([]int64{rng.Int64N(100) - 50}, strides[at:]...)...)
	}
	w := Walk{Sizes: sizes, Strides: strides}
	lo, _ := span(w)
	w.Base = -lo + rng.Int64N(3)
	return w
}

func randBytes(rng *rand.Rand, n int64) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(rng.Uint32())
	}
	return b
}

// setMode forces an execution mode and the fast or safe kernels for the
// rest of a test, with the parallel threshold lowered so that small walks
// split too.
func setMode(t *testing.T, v variant) {
	t.Helper()
	oldMode, oldFast, oldMin := forceMode, useFast, parallelMin
	oldStream, oldTA, oldTB, oldBlock := streamMin, streamTileA, streamTileBytes, streamBlockBytes
	oldAVX, oldAVX512 := useAVX, useAVX512
	forceMode, useFast, parallelMin = v.mode, v.fast && fastArch, 64
	useAVX = useAVX && !v.narrow
	// The permute mode needs AVX-512; the rows kernels that have an
	// AVX-512 path (evenRows4) take the narrow one.
	useAVX512 = useAVX512 && (!v.narrow || v.mode == int(modePerm))
	if v.stream {
		// Small blocks of small tiles, so that the test sizes have
		// several of each, and their edges.
		streamMin, streamTileA, streamTileBytes, streamBlockBytes = 0, 3, 16, 64
	}
	t.Cleanup(func() {
		forceMode, useFast, parallelMin = oldMode, oldFast, oldMin
		streamMin, streamTileA, streamTileBytes, streamBlockBytes = oldStream, oldTA, oldTB, oldBlock
		useAVX, useAVX512 = oldAVX, oldAVX512
	})
}

// setPieces shrinks the read-ahead distance and the pieces long rows are
// cut into, so that short test rows run through the piece code.
func setPieces(t *testing.T, touch, pc, whole int64) {
	t.Helper()
	oldT, oldP, oldW := touchDist, piece, fwdWhole
	touchDist, piece, fwdWhole = touch, pc, whole
	t.Cleanup(func() { touchDist, piece, fwdWhole = oldT, oldP, oldW })
}

var elemSizes = []int{1, 2, 4, 8}

type variant struct {
	mode   int
	fast   bool
	stream bool // from any output size (see stream.go)
	narrow bool // the SSE2 kernels where an AVX one exists
}

var variants = []variant{
	{-1, true, false, false}, {int(modeRows), true, false, false}, {int(modeTable), true, false, false}, {int(modeTile), true, false, false}, {-1, false, false, false},
	{-1, true, true, false}, {int(modeRows), true, true, false}, {int(modeTable), true, true, false}, {int(modeTile), true, true, false},
	{int(modeRows), true, true, true},
	{int(modePerm), true, false, false}, {int(modePerm), true, true, false},
}

func (v variant) String() string {
	m := "auto"
	if v.mode >= 0 {
		m = mode(v.mode).String()
	}
	if !v.fast {
		m += "/safe"
	}
	if v.stream {
		m += "/stream"
	}
	if v.narrow {
		m += "/sse2"
	}
	return m
}

// dstShifts counts checkCopy's destinations, to vary their alignment.
var dstShifts atomic.Int64

// checkCopy runs Copy and CopyParallel with 1-3 goroutines under the
// current mode against the reference.
func checkCopy(t *testing.T, w Walk, src []byte, e int) {
	t.Helper()
	want, ok := naiveCopy(w, src, e)
	if !ok {
		t.Fatalf("test walk %+v reads outside src", w)
	}
	for threads := 1; threads <= 3; threads++ {
		// dst at a different distance from a 64-byte line each time (all
		// of 0..63 over the calls, now and then not a multiple of the
		// element size), inside guard bytes that must stay untouched.
		n := dstShifts.Add(1)
		shift := int(n*5) * e % 64
		switch {
		case threads == 2:
			shift = 0 // on a line: the whole-line kernels
		case n%7 == 0:
			shift |= 1
		}
		buf := make([]byte, len(want)+192)
		shift += int(-uintptr(unsafe.Pointer(&buf[0]))&63) + 64
		for i := range buf {
			buf[i] = 0xA5
		}
		got := buf[shift : shift+len(want) : shift+len(want)]
		var err error
		if threads == 1 {
			err = Copy(got, src, w, e)
		} else {
			err = CopyParallel(got, src, w, e, threads)
		}
		if err != nil {
			t.Fatalf("walk %+v e=%d threads=%d: %v", w, e, threads, err)
		}
		for i, b := range buf {
			if (i < shift || i >= shift+len(want)) && b != 0xA5 {
				t.Fatalf("walk %+v e=%d threads=%d: byte %d outside dst written", w, e, threads, i-shift)
			}
		}
		if !bytes.Equal(got, want) {
			i := 0
			for i < len(got) && got[i] == want[i] {
				i++
			}
			var x exec
			_ = x.p.initWalk(w)
			x.e = int64(e)
			x.choose()
			t.Fatalf("walk %+v e=%d threads=%d mode=%v kind=%d plan=%v/%v: first difference at byte %d (element %d)",
				w, e, threads, x.mode, x.kind, x.p.size[:x.p.rank], x.p.stride[:x.p.rank], i, i/e)
		}
	}
}

func TestCopyRandom(t *testing.T) {
	iters := 400
	if testing.Short() {
		iters = 120
	}
	for _, v := range variants {
		t.Run(v.String(), func(t *testing.T) {
			setMode(t, v)
			seed := uint64(v.mode + 10)
			if v.stream {
				seed += 100
			}
			rng := rand.New(rand.NewPCG(1, seed))
			for range iters {
				w := randWalk(rng, 3000)
				e := elemSizes[rng.IntN(4)]
				_, hi := span(w)
				src := randBytes(rng, (hi+1+rng.Int64N(4))*int64(e))
				checkCopy(t, w, src, e)
			}
		})
	}
}

// TestKernels drives each kernel through its unrolled loop, its tail and
// (for the reverse kernels) the read-ahead, at each element size.
func TestKernels(t *testing.T) {
	for _, v := range variants {
		t.Run(v.String(), func(t *testing.T) {
			setMode(t, v)
			rng := rand.New(rand.NewPCG(2, 3))
			for _, e := range elemSizes {
				for _, n := range []int64{1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 129, 300} {
					for _, step := range []int64{1, -1, 2, -2, 3, -3, 0, 7, 64, -100} {
						for _, rows := range []int64{1, 3} {
							// rows x n with a row stride that keeps rows apart.
							rs := abs(step)*n + 5
							w := Walk{Sizes: []int64{rows, n}, Strides: []int64{rs, step}}
							if rng.IntN(2) == 0 {
								w.Strides[0] = -rs
							}
							lo, hi := span(w)
							w.Base = -lo
							src := randBytes(rng, (hi-lo+1)*int64(e))
							checkCopy(t, w, src, e)
						}
					}
				}
			}
		})
	}
}

// TestPieces runs rows cut into pieces, with and without read-ahead.
func TestPieces(t *testing.T) {
	for _, pc := range [][3]int64{{64, 64, 128}, {0, 64, 128}, {128, 24, 1 << 20}, {40, 8, 16}} {
		t.Run(fmt.Sprint(pc), func(t *testing.T) {
			setMode(t, variant{mode: -1, fast: true})
			setPieces(t, pc[0], pc[1], pc[2])
			rng := rand.New(rand.NewPCG(14, uint64(pc[1])))
			for range 150 {
				w := randWalk(rng, 3000)
				e := elemSizes[rng.IntN(4)]
				_, hi := span(w)
				checkCopy(t, w, randBytes(rng, (hi+1)*int64(e)), e)
			}
		})
	}
}

// TestTranspose covers the tile mode on transposes and permutations.
func TestTranspose(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 5))
	for _, v := range variants {
		t.Run(v.String(), func(t *testing.T) {
			setMode(t, v)
			for _, e := range elemSizes {
				for _, sz := range [][2]int64{{1, 70}, {4, 4}, {17, 33}, {64, 64}, {100, 9}, {3, 200}, {18, 16}, {7, 32}, {3, 17}, {37, 20}} {
					h, wd := sz[0], sz[1]
					src := randBytes(rng, h*wd*int64(e))
					checkCopy(t, Walk{Sizes: []int64{wd, h}, Strides: []int64{1, wd}}, src, e)
					checkCopy(t, Walk{Sizes: []int64{wd, h}, Strides: []int64{-1, -wd}, Base: h*wd - 1}, src, e)
					if h%2 == 0 {
						checkCopy(t, Walk{Sizes: []int64{2, wd, h / 2}, Strides: []int64{wd * h / 2, 1, wd}}, src, e)
					}
				}
			}
		})
	}
}

// TestSliceRandom goes through core.NewSlice1 and Slice.
func TestSliceRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 7))
	types := []core.DataType{core.UInt8, core.Int16, core.Float32, core.Float64}
	for i := range 300 {
		rank := 1 + rng.IntN(8)
		in := make([]int64, rank)
		for k := range in {
			in[k] = 1 + rng.Int64N(6)
		}
		d := core.Slice1Desc{Input: core.TensorDesc{DataType: types[rng.IntN(4)], Sizes: in}}
		if rng.IntN(2) == 0 {
			d.Input.Strides = core.PackedStrides(in)
			rng.Shuffle(rank, func(a, b int) { d.Input.Strides[a], d.Input.Strides[b] = d.Input.Strides[b], d.Input.Strides[a] })
		}
		for k := range rank {
			off := rng.Int64N(in[k])
			size := 1 + rng.Int64N(in[k]-off)
			step := 1 + rng.Int64N(3)
			if rng.IntN(2) == 0 {
				step = -step
			}
			d.WindowOffsets = append(d.WindowOffsets, off)
			d.WindowSizes = append(d.WindowSizes, size)
			d.WindowStrides = append(d.WindowStrides, step)
		}
		s, err := core.NewSlice1(d)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		e := int(s.Input.DataType.Bits() / 8)
		src := randBytes(rng, (s.Input.IndexOfLastElement()+1)*int64(e))
		want, ok := naiveCopy(SliceWalk(s), src, e)
		if !ok {
			t.Fatalf("case %d: slice reads outside its input", i)
		}
		offs, err := s.InputOffsets(1 << 20)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(offs) != fmt.Sprint(naiveOffsets(SliceWalk(s))) {
			t.Fatalf("case %d: SliceWalk disagrees with core's InputOffsets", i)
		}
		got := make([]byte, len(want))
		if err := Slice(got, src, s); err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d: Slice differs from the reference", i)
		}
		got2 := make([]byte, len(want))
		if err := SliceParallel(got2, src, s, 2); err != nil || !bytes.Equal(got2, want) {
			t.Fatalf("case %d: SliceParallel differs (%v)", i, err)
		}
	}
}

func TestLayoutWalk(t *testing.T) {
	l, err := core.NewLayout(core.TensorDesc{DataType: core.Float32, Sizes: []int64{2, 3}, Strides: []int64{5, 1}})
	if err != nil {
		t.Fatal(err)
	}
	w := LayoutWalk(l)
	if got := fmt.Sprint(naiveOffsets(w)); got != "[0 1 2 5 6 7]" || w.Len() != 6 {
		t.Fatalf("LayoutWalk offsets %s len %d", got, w.Len())
	}
	w.Sizes[0] = 9
	if l.Sizes[0] != 2 {
		t.Fatal("LayoutWalk shares the layout's slices")
	}
}

func TestOffsetsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for range 500 {
		w := randWalk(rng, 5000)
		want := naiveOffsets(w)
		n := int64(len(want))
		first := rng.Int64N(n + 1)
		cnt := rng.Int64N(n - first + 1)
		if rng.IntN(4) == 0 {
			first, cnt = 0, n
		}
		got := make([]int64, cnt)
		Offsets(w, first, got)
		for i := range got {
			if got[i] != want[first+int64(i)] {
				t.Fatalf("walk %+v range [%d,+%d): element %d is %d, want %d", w, first, cnt, first+int64(i), got[i], want[first+int64(i)])
			}
		}
	}
}

func TestOffsetsPanics(t *testing.T) {
	w := Walk{Sizes: []int64{2, 3}, Strides: []int64{3, 1}}
	for _, c := range []struct {
		first int64
		n     int
	}{{-1, 1}, {0, 7}, {6, 1}, {7, 0}} {
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("Offsets(first=%d, len=%d) did not panic", c.first, c.n)
				}
			}()
			Offsets(w, c.first, make([]int64, c.n))
		}()
	}
	Offsets(w, 6, nil) // empty range at the end is fine
}

func naiveCounts(w Walk, cells int64) []uint32 {
	c := make([]uint32, cells)
	for _, o := range naiveOffsets(w) {
		if o >= 0 && o < cells && c[o] < math.MaxUint32 {
			c[o]++
		}
	}
	return c
}

func TestCellCountsTouched(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 11))
	ctx := context.Background()
	for i := range 400 {
		w := randWalk(rng, 4000)
		if i%5 == 0 {
			// Broadcast dimension (stride 0).
			w.Sizes = append(w.Sizes, 1+rng.Int64N(3))
			w.Strides = append(w.Strides, 0)
		}
		_, hi := span(w)
		cells := hi + 1 + rng.Int64N(70) - 35 // sometimes short: out-of-range elements are ignored
		cells = max(cells, 0)
		want := naiveCounts(w, cells)
		got, err := CellCounts(ctx, w, cells)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("walk %+v cells %d: CellCounts\n got %v\nwant %v", w, cells, got, want)
		}
		bm, err := Touched(ctx, w, cells)
		if err != nil {
			t.Fatal(err)
		}
		if int64(len(bm)) != (cells+63)/64 {
			t.Fatalf("bitmap has %d words for %d cells", len(bm), cells)
		}
		for k := range cells {
			if (bm[k/64]>>(k%64)&1 == 1) != (want[k] > 0) {
				t.Fatalf("walk %+v cells %d: Touched bit %d wrong", w, cells, k)
			}
		}
		reuse := make([]uint64, len(bm)+3)
		for k := range reuse {
			reuse[k] = ^uint64(0)
		}
		bm2, err := TouchedInto(ctx, w, cells, reuse)
		if err != nil || fmt.Sprint(bm2) != fmt.Sprint(bm) || (len(bm2) > 0 && &bm2[0] != &reuse[0]) {
			t.Fatalf("TouchedInto differs from Touched or did not reuse the bitmap (%v)", err)
		}
		dirty := make([]uint32, cells+5)
		for k := range dirty {
			dirty[k] = 7
		}
		got2, err := CellCountsInto(ctx, w, cells, dirty)
		if err != nil || fmt.Sprint(got2) != fmt.Sprint(want) || (len(got2) > 0 && &got2[0] != &dirty[0]) {
			t.Fatalf("CellCountsInto differs from CellCounts or did not reuse the counts (%v)", err)
		}
		for k := cells; k < int64(len(bm))*64; k++ {
			if bm[k/64]>>(k%64)&1 == 1 {
				t.Fatalf("Touched set bit %d past %d cells", k, cells)
			}
		}
	}
}

func TestCellCountsSaturate(t *testing.T) {
	// 2^16 x 2^16 elements all on cell 0 through stride-0 dimensions.
	w := Walk{Sizes: []int64{1 << 16, 1 << 16, 2}, Strides: []int64{0, 0, 1}}
	c, err := CellCounts(context.Background(), w, 3)
	if err != nil {
		t.Fatal(err)
	}
	if c[0] != math.MaxUint32 || c[1] != math.MaxUint32 || c[2] != 0 {
		t.Fatalf("counts %v", c)
	}
}

// TestCellCountsRows covers both ways of counting unit-step rows: the
// difference array, and per element when some cell could saturate.
func TestCellCountsRows(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct {
		name  string
		w     Walk
		cells int64
	}{
		{"overlap 1,1", Walk{Sizes: []int64{300, 300}, Strides: []int64{1, 1}}, 599},
		{"overlap, cut short", Walk{Sizes: []int64{300, 300}, Strides: []int64{1, 1}}, 250},
		{"overlap from a negative base", Walk{Base: -40, Sizes: []int64{50, 70}, Strides: []int64{2, 1}}, 200},
		{"reversed rows", Walk{Base: 500, Sizes: []int64{20, 30}, Strides: []int64{-7, 1}}, 600},
		{"broadcast rows", Walk{Sizes: []int64{5, 64, 64}, Strides: []int64{0, 3, 1}}, 300},
		// 2^32 x 2 elements per cell: per element, saturating.
		{"saturating rows", Walk{Sizes: []int64{1 << 16, 1 << 16, 2, 3}, Strides: []int64{0, 0, 1, 1}}, 5},
	} {
		var want []uint32
		if c.name == "saturating rows" { // too many elements for the naive walk
			want = []uint32{math.MaxUint32, math.MaxUint32, math.MaxUint32, math.MaxUint32, 0}
		} else {
			want = naiveCounts(c.w, c.cells)
		}
		got, err := CellCounts(ctx, c.w, c.cells)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: CellCounts = %v, %v\nwant %v", c.name, got, err, want)
		}
	}
}

// cancelAfter is a context whose Err turns to Canceled after n calls.
type cancelAfter struct {
	context.Context
	n int
}

func (c *cancelAfter) Err() error {
	if c.n <= 0 {
		return context.Canceled
	}
	c.n--
	return nil
}

func TestCancel(t *testing.T) {
	w := Walk{Sizes: []int64{1 << 12, 1 << 10}, Strides: []int64{1 << 10, 1}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := CellCounts(ctx, w, 1<<22); !errors.Is(err, context.Canceled) {
		t.Errorf("CellCounts on a canceled context: %v", err)
	}
	if _, err := Touched(ctx, w, 1<<22); !errors.Is(err, context.Canceled) {
		t.Errorf("Touched on a canceled context: %v", err)
	}
	// Canceled between chunks (4 M elements, chunks of 1 M).
	for _, f := range []func(context.Context) error{
		func(ctx context.Context) error { _, err := CellCounts(ctx, w, 1<<22); return err },
		func(ctx context.Context) error { _, err := Touched(ctx, w, 1<<22); return err },
	} {
		c := &cancelAfter{Context: context.Background(), n: 2}
		if err := f(c); !errors.Is(err, context.Canceled) {
			t.Errorf("canceled mid-run: %v", err)
		}
		if c.n != 0 {
			t.Errorf("ctx looked at fewer times than expected")
		}
	}
}

func TestErrors(t *testing.T) {
	w := Walk{Sizes: []int64{2, 3}, Strides: []int64{4, -1}, Base: 2}
	// Offsets 2,1,0,6,5,4: src needs 7 elements.
	src := make([]byte, 7*4)
	dst := make([]byte, 6*4)
	if err := Copy(dst, src, w, 4); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name     string
		dst, src []byte
		w        Walk
		e        int
		is       error
	}{
		{"short src", dst, src[:27], w, 4, ErrOutOfBounds},
		{"negative offset", dst, src, Walk{Sizes: w.Sizes, Strides: w.Strides, Base: 1}, 4, ErrOutOfBounds},
		{"short dst", dst[:23], src, w, 4, nil},
		{"long dst", append(dst, 0), src, w, 4, nil},
		{"element size", dst, src, w, 3, ErrInvalidWalk},
		{"lengths", dst, src, Walk{Sizes: []int64{2, 3}, Strides: []int64{1}}, 4, ErrInvalidWalk},
		{"negative size", dst, src, Walk{Sizes: []int64{-2, -3}, Strides: []int64{1, 1}}, 4, ErrInvalidWalk},
		{"nine dims", make([]byte, 512), make([]byte, 1<<12), Walk{Sizes: []int64{2, 2, 2, 2, 2, 2, 2, 2, 2}, Strides: []int64{1, 3, 1, 3, 1, 3, 1, 3, 1}}, 1, ErrInvalidWalk},
		{"huge", nil, src, Walk{Sizes: []int64{1 << 40, 1 << 40}, Strides: []int64{1, 1}}, 1, ErrInvalidWalk},
		{"overflow", dst[:12], src, Walk{Sizes: []int64{3}, Strides: []int64{math.MaxInt64}}, 4, ErrInvalidWalk},
	}
	for _, c := range cases {
		for threads := 1; threads <= 2; threads++ {
			err := CopyParallel(c.dst, c.src, c.w, c.e, threads)
			if err == nil || c.is != nil && !errors.Is(err, c.is) {
				t.Errorf("%s: err = %v", c.name, err)
			}
		}
	}
	// Empty walks need an empty dst and no src.
	if err := Copy(nil, nil, Walk{Sizes: []int64{3, 0}, Strides: []int64{1, 1}, Base: -5}, 4); err != nil {
		t.Errorf("empty walk: %v", err)
	}
	if err := Copy(make([]byte, 4), nil, Walk{Sizes: []int64{3, 0}, Strides: []int64{1, 1}}, 4); err == nil {
		t.Errorf("empty walk with a non-empty dst accepted")
	}
	// Slice errors.
	s, err := core.NewSlice1(core.Slice1Desc{
		Input:         core.TensorDesc{DataType: core.Float32, Sizes: []int64{4, 4}},
		WindowOffsets: []int64{0, 0}, WindowSizes: []int64{4, 4}, WindowStrides: []int64{1, -1},
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := Slice(make([]byte, 64), make([]byte, 60), s); !errors.Is(err, ErrOutOfBounds) {
		t.Errorf("Slice with a short src: %v", err)
	}
	if err := Slice(make([]byte, 60), make([]byte, 64), s); err == nil {
		t.Errorf("Slice with a short dst accepted")
	}
	if err := Slice(make([]byte, 64), make([]byte, 64), nil); err == nil {
		t.Errorf("Slice(nil) accepted")
	}
	if _, err := CellCounts(context.Background(), Walk{Sizes: []int64{1}, Strides: nil}, 4); err == nil {
		t.Errorf("CellCounts accepted mismatched lengths")
	}
	if _, err := Touched(context.Background(), w, -1); err == nil {
		t.Errorf("Touched accepted negative cells")
	}
}

// TestParallelLarge runs the real threshold (outputs >= 1 MiB) in every
// mode with 2 and 3 goroutines.
func TestParallelLarge(t *testing.T) {
	rng := rand.New(rand.NewPCG(12, 13))
	src := randBytes(rng, 3<<20)
	walks := []Walk{
		{Sizes: []int64{3 << 20}, Strides: []int64{1}},                                  // one run
		{Sizes: []int64{1 << 20}, Strides: []int64{-1}, Base: 1<<20 - 1},                // one reversed run
		{Sizes: []int64{512, 700}, Strides: []int64{1024, -1}, Base: 699},               // reversed rows
		{Sizes: []int64{1024, 1024}, Strides: []int64{1, 1024}},                         // transpose
		{Sizes: []int64{512, 16, 4, 8}, Strides: []int64{1024, 2, 256, -16}, Base: 112}, // short rows
	}
	for _, w := range walks {
		for _, e := range []int{1, 4} {
			_, hi := span(w)
			if (hi+1)*int64(e) > int64(len(src)) {
				continue
			}
			want, _ := naiveCopy(w, src, e)
			for threads := 2; threads <= 3; threads++ {
				got := make([]byte, len(want))
				if err := CopyParallel(got, src, w, e, threads); err != nil || !bytes.Equal(got, want) {
					t.Fatalf("walk %v e=%d threads=%d differs (%v)", w.Sizes, e, threads, err)
				}
			}
		}
	}
}

// smallSlices are S1 and S2 of benchmarks.md.
func smallSlices(t testing.TB) []*core.Slice1 {
	s1, err := core.NewSlice1(core.Slice1Desc{
		Input:         core.TensorDesc{DataType: core.Float32, Sizes: []int64{16, 16, 16}},
		WindowOffsets: []int64{4, 4, 4}, WindowSizes: []int64{8, 8, 8}, WindowStrides: []int64{1, 1, -1},
	})
	if err != nil {
		t.Fatal(err)
	}
	s2, err := core.NewSlice1(core.Slice1Desc{
		Input:         core.TensorDesc{DataType: core.UInt16, Sizes: []int64{2, 3, 2, 3, 2, 3, 2, 3}},
		WindowOffsets: []int64{0, 0, 0, 0, 0, 0, 0, 0}, WindowSizes: []int64{2, 3, 2, 3, 2, 3, 2, 3},
		WindowStrides: []int64{-1, 2, 1, -2, -1, 1, 1, -2},
	})
	if err != nil {
		t.Fatal(err)
	}
	return []*core.Slice1{s1, s2}
}

func TestSmallCallsDoNotAllocate(t *testing.T) {
	for i, s := range smallSlices(t) {
		e := s.Input.DataType.Bits() / 8
		src := make([]byte, (s.Input.IndexOfLastElement()+1)*e)
		dst := make([]byte, s.OutputElementCount()*e)
		w := SliceWalk(s)
		if n := testing.AllocsPerRun(100, func() {
			if err := Slice(dst, src, s); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("S%d: Slice allocates %v times per call", i+1, n)
		}
		if n := testing.AllocsPerRun(100, func() {
			if err := Copy(dst, src, w, int(e)); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("S%d: Copy allocates %v times per call", i+1, n)
		}
	}
}

// FuzzCopy compares Copy/CopyParallel with the reference on walks decoded
// from the input (at most 8 dimensions of size <= 8, strides -16..15),
// including walks that read outside src, which must be refused.
func FuzzCopy(f *testing.F) {
	f.Add([]byte{3, 2, 4, 5, 8, 3, 1, 9, 0, 1, 2})
	f.Add([]byte{1, 7, 200, 6, 31, 5, 17, 2})
	f.Add([]byte{0, 0, 8, 8, 8, 8, 8, 8, 8, 8, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		e := elemSizes[data[0]&3]
		threads := 1 + int(data[0]>>2&3)
		rank := 1 + int(data[1]%8)
		slack := int64(data[2]%5) - 2 // src shorter or longer than needed
		data = data[3:]
		next := func() byte {
			if len(data) == 0 {
				return 1
			}
			b := data[0]
			data = data[1:]
			return b
		}
		w := Walk{Sizes: make([]int64, rank), Strides: make([]int64, rank)}
		for i := range rank {
			w.Sizes[i] = int64(next() % 9)
			w.Strides[i] = int64(next()%32) - 16
		}
		lo, hi := span(w)
		w.Base = -lo + int64(next()%3)
		var srcLen int64
		if w.Len() > 0 {
			srcLen = max(hi+w.Base+1+slack, 0)
		}
		src := make([]byte, srcLen*int64(e))
		for i := range src {
			src[i] = byte(i*7 + 3)
		}
		want, ok := naiveCopy(w, src, e)
		variant := variants[int(next())%len(variants)]
		setMode(t, variant)
		got := make([]byte, w.Len()*int64(e))
		err := CopyParallel(got, src, w, e, threads)
		switch {
		case !ok && err == nil:
			t.Fatalf("walk %+v e=%d src %d elements: out-of-bounds walk accepted", w, e, srcLen)
		case ok && err != nil:
			t.Fatalf("walk %+v e=%d: %v", w, e, err)
		case ok && !bytes.Equal(got, want):
			t.Fatalf("walk %+v e=%d threads=%d %v: differs", w, e, threads, variant)
		}
	})
}

// TestInitSliceSmall checks that the one-pass planning of small slices
// (initSliceSmall) builds exactly the plan of the general path, and falls
// back to it outside its range: random slices with values near the 2^19
// limit on both sides, size-1 and size-0 dimensions and up to 8 (and, to
// force the fallback, 9) dimensions.
func TestInitSliceSmall(t *testing.T) {
	rng := rand.New(rand.NewPCG(20, 21))
	val := func() int64 {
		switch rng.IntN(8) {
		case 0:
			return smallLim - 2 + rng.Int64N(4) // around the limit
		case 1:
			return -smallLim - 2 + rng.Int64N(4)
		case 2:
			return rng.Int64N(1 << 40)
		default:
			return rng.Int64N(21) - 10
		}
	}
	fast := 0
	for i := range 20000 {
		n := 1 + rng.IntN(9)
		s := &core.Slice1{Input: &core.Layout{}}
		for range n {
			sz := 1 + rng.Int64N(4)
			switch rng.IntN(10) {
			case 0:
				sz = 0
			case 1:
				sz = val()
			}
			s.OutputSizes = append(s.OutputSizes, sz)
			s.WindowStrides = append(s.WindowStrides, val())
			s.CopyStart = append(s.CopyStart, val())
			s.Input.Strides = append(s.Input.Strides, val())
		}
		if rng.IntN(3) == 0 { // chained strides, so that dimensions merge
			st := int64(1)
			for k := n - 1; k >= 0; k-- {
				s.WindowStrides[k], s.Input.Strides[k] = 1, st
				st *= max(s.OutputSizes[k], 1)
				if st >= smallLim {
					st = 1
				}
			}
		}
		var want plan
		want.reset()
		// The general path (initSlice with the fast path skipped).
		for k := range n {
			st, ok := mul64(s.WindowStrides[k], s.Input.Strides[k])
			if !ok {
				want.fail("overflow")
				break
			}
			want.push(s.OutputSizes[k], st)
		}
		var base int64
		ok := want.err == nil
		for k := range n {
			o, ok2 := mul64(s.CopyStart[k], s.Input.Strides[k])
			if ok2 {
				base, ok2 = add64(base, o)
			}
			ok = ok && ok2
		}
		var wantErr error
		if ok {
			wantErr = want.finish(base)
		} else {
			wantErr = errors.New("overflow")
		}
		var got plan
		gotErr := got.initSlice(s)
		var small plan
		if small.initSliceSmall(s) {
			fast++
			if wantErr != nil || small != want {
				t.Fatalf("case %d %+v: fast plan %+v, general %+v (%v)", i, s, small, want, wantErr)
			}
		}
		if (gotErr != nil) != (wantErr != nil) || wantErr == nil && got != want {
			t.Fatalf("case %d %+v: initSlice %+v (%v), general %+v (%v)", i, s, got, gotErr, want, wantErr)
		}
	}
	if fast < 1000 {
		t.Fatalf("only %d of 20000 slices took the fast path", fast)
	}
}

// TestStreamDefaultSizes runs outputs above streamMin with the streaming
// tiles, blocks and rows at their real sizes (the other tests shrink them).
func TestStreamDefaultSizes(t *testing.T) {
	if testing.Short() {
		t.Skip("5 MiB walks")
	}
	rng := rand.New(rand.NewPCG(30, 31))
	cases := []struct {
		name string
		w    Walk
		e    int
	}{
		{"transpose", Walk{Sizes: []int64{1100, 1030}, Strides: []int64{1, 1100}}, 4},
		{"transpose, 2-byte, reversed", Walk{Sizes: []int64{1500, 1800}, Strides: []int64{-1, 1500}, Base: 1499}, 2},
		{"reversed rows", Walk{Sizes: []int64{1030, 1100}, Strides: []int64{1100, -1}, Base: 1099}, 4},
		{"reversed whole lines", Walk{Sizes: []int64{1024, 1024}, Strides: []int64{1024, -1}, Base: 1023}, 8},
		{"960-byte rows", Walk{Sizes: []int64{4600, 240}, Strides: []int64{256, 1}, Base: 8}, 4},
		{"480-byte rows", Walk{Sizes: []int64{1, 9000, 240}, Strides: []int64{0, 256, 1}, Base: 3}, 2},
		{"stride-2 gather", Walk{Sizes: []int64{1100000}, Strides: []int64{2}}, 4},
		{"stride-2 rows to the end of src", Walk{Sizes: []int64{1100, 1000}, Strides: []int64{2001, 2}, Base: 1}, 4},
		{"strided rows, 8-byte", Walk{Sizes: []int64{700, 1000}, Strides: []int64{-3001, 3}, Base: 700 * 3001}, 8},
		{"R8's table with an extra dimension", Walk{Sizes: []int64{2, 6, 8, 4, 8, 7, 8, 8},
			Strides: []int64{-32768, 64, 2097152, 2, -4096, 8, 262144, -512}, Base: 32768 + 4096*7 + 512*7}, 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.w.Len()*int64(c.e) < streamMin {
				t.Fatalf("%d bytes: below streamMin", c.w.Len()*int64(c.e))
			}
			_, hi := span(c.w)
			src := randBytes(rng, (hi+1)*int64(c.e))
			checkCopy(t, c.w, src, c.e)
			if useAVX || useAVX512 {
				oldAVX, oldAVX512 := useAVX, useAVX512
				useAVX, useAVX512 = false, false
				defer func() { useAVX, useAVX512 = oldAVX, oldAVX512 }()
				checkCopy(t, c.w, src, c.e)
			}
		})
	}
}

// TestExplainSaysStreamed checks that Explain names the streamed plans:
// large outputs of every streaming kind, not small ones.
func TestExplainSaysStreamed(t *testing.T) {
	for _, c := range []struct {
		w    Walk
		e    int
		want bool
	}{
		{Walk{Sizes: []int64{4600, 240}, Strides: []int64{256, 1}}, 4, true},
		{Walk{Sizes: []int64{64, 240}, Strides: []int64{256, 1}}, 4, false},
		{Walk{Sizes: []int64{1 << 20}, Strides: []int64{-1}, Base: 1<<20 - 1}, 8, true},
		{Walk{Sizes: []int64{1100, 1030}, Strides: []int64{1, 1100}}, 4, true},
		{Walk{Sizes: []int64{1 << 20}, Strides: []int64{2}}, 8, true},
		{Walk{Sizes: []int64{1 << 22}, Strides: []int64{1}}, 4, false}, // one copy(), which streams itself
	} {
		got, err := Explain(c.w, c.e)
		if err != nil {
			t.Fatal(err)
		}
		if want := c.want && haveSSE; strings.HasSuffix(got, " streamed") != want {
			t.Errorf("Explain(%v, %d) = %q, want streamed %v", c.w, c.e, got, want)
		}
	}
}
