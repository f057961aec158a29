package core

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// A naive reference for the rules of directml-rules.md, written for
// clarity rather than speed: every coordinate is built with div/mod, every
// offset with a dot product, distinct offsets are counted with a map.

func naiveProduct(sizes []int64) int64 {
	p := int64(1)
	for _, s := range sizes {
		p *= s
	}
	return p
}

// naiveCoordOf is the coordinate of the element with row-major index i.
func naiveCoordOf(sizes []int64, i int64) []int64 {
	c := make([]int64, len(sizes))
	for d := len(sizes) - 1; d >= 0; d-- {
		c[d] = i % sizes[d]
		i /= sizes[d]
	}
	return c
}

func naiveDot(c, strides []int64) int64 {
	var o int64
	for i := range c {
		o += c[i] * strides[i]
	}
	return o
}

func naiveOffsets(sizes, strides []int64) []int64 {
	n := naiveProduct(sizes)
	out := make([]int64, n)
	for i := range n {
		out[i] = naiveDot(naiveCoordOf(sizes, i), strides)
	}
	return out
}

// naivePackedStrides: the stride of a dimension is the distance, in
// row-major element order, between an element and its neighbour along that
// dimension.
func naivePackedStrides(sizes []int64) []int64 {
	st := make([]int64, len(sizes))
	for i := range sizes {
		unit := make([]int64, len(sizes))
		unit[i] = 1
		if sizes[i] == 1 {
			// No neighbour: the stride is the span of the lower dimensions.
			unit[i] = 0
			st[i] = naiveProduct(sizes[i+1:])
			continue
		}
		st[i] = rowMajorIndex(sizes, unit)
	}
	return st
}

type naiveFacts struct {
	logical, minImplied, distinct      int64
	packed, broadcast, overlap, padded bool
	offsets                            []int64
}

func naiveLayoutFacts(sizes, strides []int64) naiveFacts {
	offs := naiveOffsets(sizes, strides)
	seen := map[int64]bool{}
	var maxOff int64
	for _, o := range offs {
		seen[o] = true
		maxOff = max(maxOff, o)
	}
	f := naiveFacts{logical: int64(len(offs)), minImplied: maxOff + 1, distinct: int64(len(seen)), offsets: offs}
	for i, s := range sizes {
		if s > 1 && strides[i] == 0 {
			f.broadcast = true
		}
	}
	f.packed = f.distinct == f.logical && f.logical == f.minImplied
	f.overlap = f.distinct < f.logical
	f.padded = f.minImplied > f.distinct
	return f
}

// naiveBufferBytes is DMLCalcBufferTensorSize from its description: the
// elements the buffer must hold times the element size, in whole bytes,
// padded to a multiple of 4.
func naiveBufferBytes(bits int64, sizes, strides []int64) int64 {
	var elems int64
	if strides == nil {
		elems = naiveProduct(sizes)
	} else {
		elems = slices.Max(naiveOffsets(sizes, strides)) + 1
	}
	totalBits := elems * bits
	bytes := totalBits / 8
	if totalBits%8 != 0 {
		bytes++
	}
	for bytes%4 != 0 {
		bytes++
	}
	return bytes
}

// randomStrides returns strides for sizes in one of several families:
// implicit (nil), arbitrary 0..12, packed, a permuted packed layout (NHWC
// and the like), padded, broadcast and aliasing.
func randomStrides(r *rand.Rand, sizes []int64) ([]int64, string) {
	n := len(sizes)
	st := make([]int64, n)
	switch r.IntN(8) {
	case 0:
		return nil, "implicit"
	case 1:
		for i := range st {
			st[i] = r.Int64N(13)
		}
		return st, "arbitrary"
	case 2:
		return naivePackedStrides(sizes), "packed"
	case 3:
		// A permuted layout: dimensions ordered by a random permutation,
		// the last in that order fastest.
		order := r.Perm(n)
		p := int64(1)
		for k := n - 1; k >= 0; k-- {
			st[order[k]] = p
			p *= sizes[order[k]]
		}
		return st, "permuted"
	case 4:
		// Padded: each pitch leaves a random gap after the dimensions below.
		p := int64(1)
		for i := n - 1; i >= 0; i-- {
			st[i] = p
			p = p*sizes[i] + r.Int64N(4)
		}
		return st, "padded"
	case 5:
		st = naivePackedStrides(sizes)
		for i := range st {
			if r.IntN(2) == 0 {
				st[i] = 0
			}
		}
		return st, "broadcast"
	case 6:
		for i := range st {
			st[i] = 1
		}
		return st, "aliasing"
	default:
		for i := range st {
			st[i] = r.Int64N(4)
		}
		return st, "small"
	}
}

func randomSizes(r *rand.Rand, maxRank int, maxSize int64) []int64 {
	sizes := make([]int64, 1+r.IntN(maxRank))
	for i := range sizes {
		sizes[i] = 1 + r.Int64N(maxSize)
	}
	return sizes
}

func TestLayoutAgainstNaiveReference(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	// Fixed cases that must be among the shapes: aliasing {3,4}/{1,1}, the
	// padded and broadcast pictures of the strides page, NHWC.
	fixed := []struct{ sizes, strides []int64 }{
		{[]int64{3, 4}, []int64{1, 1}},
		{[]int64{2, 3}, []int64{5, 1}},
		{[]int64{2, 3}, []int64{0, 1}},
		{[]int64{1, 3, 2, 2}, []int64{12, 1, 6, 3}},
		{[]int64{2, 2}, []int64{0, 0}},
		{[]int64{4, 3}, []int64{2, 3}},
	}
	const randomCount = 3000
	for iter := range len(fixed) + randomCount {
		var sizes, strides []int64
		family := "fixed"
		if iter < len(fixed) {
			sizes, strides = fixed[iter].sizes, fixed[iter].strides
		} else {
			sizes = randomSizes(r, 5, 5)
			strides, family = randomStrides(r, sizes)
		}
		dts := DataTypes()
		dt := dts[r.IntN(len(dts))]
		name := fmt.Sprintf("%s sizes %v strides %v %s", family, sizes, strides, dt)
		l, err := NewLayout(TensorDesc{DataType: dt, Sizes: sizes, Strides: strides})
		if err != nil {
			t.Fatalf("%s: NewLayout: %v", name, err)
		}
		eff := strides
		if eff == nil {
			eff = naivePackedStrides(sizes)
		}
		if !eq(l.Strides, eff) {
			t.Fatalf("%s: effective strides %v, want %v", name, l.Strides, eff)
		}
		f := naiveLayoutFacts(sizes, eff)
		offs, err := l.Offsets(1 << 16)
		if err != nil {
			t.Fatalf("%s: Offsets: %v", name, err)
		}
		if !eq(offs, f.offsets) {
			t.Fatalf("%s: offsets %v, want %v", name, offs, f.offsets)
		}
		if l.LogicalElementCount() != f.logical || l.MinimumImpliedElementCount() != f.minImplied || l.IndexOfLastElement() != f.minImplied-1 {
			t.Fatalf("%s: counts logical %d implied %d last %d, want %d %d %d", name,
				l.LogicalElementCount(), l.MinimumImpliedElementCount(), l.IndexOfLastElement(), f.logical, f.minImplied, f.minImplied-1)
		}
		if n, ok := l.DistinctOffsetCount(); !ok || n != f.distinct {
			t.Fatalf("%s: distinct (%d, known %v), want %d known (a small tensor)", name, n, ok, f.distinct)
		}
		if n, ok := distinctFromStructure(sizes, eff); ok && n != f.distinct {
			t.Fatalf("%s: distinctFromStructure = %d, naive %d", name, n, f.distinct)
		}
		if l.HasBroadcast() != f.broadcast {
			t.Fatalf("%s: hasBroadcast %v, want %v", name, l.HasBroadcast(), f.broadcast)
		}
		if l.IsPacked() != triOf(f.packed) || l.HasOverlap() != triOf(f.overlap) || l.IsPadded() != triOf(f.padded) {
			t.Fatalf("%s: packed/overlap/padded %s/%s/%s, want %v/%v/%v", name,
				triName(l.IsPacked()), triName(l.HasOverlap()), triName(l.IsPadded()), f.packed, f.overlap, f.padded)
		}
		if got, want := l.MinimumBufferSizeInBytes(), naiveBufferBytes(dt.Bits(), sizes, strides); got != want {
			t.Fatalf("%s: buffer size %d, want %d", name, got, want)
		}
		if got, want := CalcBufferTensorSize(dt, sizes, strides).Result, naiveBufferBytes(dt.Bits(), sizes, strides); got != want {
			t.Fatalf("%s: CalcBufferTensorSize %d, want %d", name, got, want)
		}
		// The published helper is exact on small inputs (no wrap), except
		// that the documentation's copy has no 4-bit types.
		if dt.Bits() != 4 {
			if got := PublishedHelperResult(dt, sizes, strides, false); got != uint64(naiveBufferBytes(dt.Bits(), sizes, strides)) {
				t.Fatalf("%s: PublishedHelperResult %d", name, got)
			}
		}
		for i := range f.logical {
			c := naiveCoordOf(sizes, i)
			if got := l.Coordinate(i); !eq(got, c) {
				t.Fatalf("%s: Coordinate(%d) = %v, want %v", name, i, got, c)
			}
			if o, err := l.Offset(c); err != nil || o != f.offsets[i] {
				t.Fatalf("%s: Offset(%v) = %d, %v; want %d", name, c, o, err, f.offsets[i])
			}
		}
	}
}

// TestDistinctFromStructureAgainstNaive exercises the structural count on
// medium shapes with larger strides, where its progression and nesting
// cases interact; whenever it settles a count, the count is exact.
func TestDistinctFromStructureAgainstNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	settled := 0
	for range 600 {
		sizes := randomSizes(r, 3, 20)
		st := make([]int64, len(sizes))
		g := 1 + r.Int64N(3)
		for i := range st {
			switch r.IntN(3) {
			case 0:
				st[i] = g * r.Int64N(6)
			case 1:
				st[i] = g * r.Int64N(60)
			default:
				st[i] = r.Int64N(200)
			}
		}
		n, ok := distinctFromStructure(sizes, st)
		if !ok {
			continue
		}
		settled++
		if want := naiveLayoutFacts(sizes, st).distinct; n != want {
			t.Fatalf("sizes %v strides %v: distinctFromStructure %d, naive %d", sizes, st, n, want)
		}
	}
	if settled < 100 {
		t.Fatalf("only %d of 600 shapes settled structurally; the test exercises too little", settled)
	}
}

// naiveSliceReads applies Output[c] = Input[CopyStart + stride*c] with
// CopyStart and MaxCopiedElements found by walking the window.
func naiveSliceReads(t *testing.T, off, size, stride, out []int64) (copyStart, maxCopied []int64, coords [][]int64) {
	n := len(off)
	copyStart = make([]int64, n)
	maxCopied = make([]int64, n)
	for i := range n {
		lo, hi := off[i], off[i]+size[i]-1
		if stride[i] > 0 {
			copyStart[i] = lo
		} else {
			copyStart[i] = hi
		}
		for x := copyStart[i]; x >= lo && x <= hi; x += stride[i] {
			maxCopied[i]++
		}
	}
	for k := range naiveProduct(out) {
		oc := naiveCoordOf(out, k)
		ic := make([]int64, n)
		for i := range n {
			ic[i] = copyStart[i] + stride[i]*oc[i]
			if ic[i] < off[i] || ic[i] >= off[i]+size[i] {
				t.Fatalf("naive read %v leaves the window", ic)
			}
		}
		coords = append(coords, ic)
	}
	return copyStart, maxCopied, coords
}

func TestSlice1AgainstNaiveReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	types := Slice1DataTypes(NewestFeatureLevel)
	for iter := range 2500 {
		sizes := randomSizes(r, 5, 6)
		inStrides, family := randomStrides(r, sizes)
		n := len(sizes)
		off, size, stride, out := make([]int64, n), make([]int64, n), make([]int64, n), make([]int64, n)
		for i, s := range sizes {
			off[i] = r.Int64N(s)
			size[i] = 1 + r.Int64N(s-off[i])
			stride[i] = 1 + r.Int64N(size[i]+1)
			if r.IntN(2) == 0 {
				stride[i] = -stride[i]
			}
		}
		copyStart, maxCopied, _ := naiveSliceReads(t, off, size, stride, make([]int64, n))
		var outSizes []int64
		for i := range n {
			out[i] = 1 + r.Int64N(maxCopied[i])
		}
		if iter%4 == 0 {
			copy(out, maxCopied) // OutputSizes omitted: the maximum
		} else {
			outSizes = out
		}
		_, _, wantCoords := naiveSliceReads(t, off, size, stride, out)
		dt := types[r.IntN(len(types))]
		d := Slice1Desc{
			Input:         TensorDesc{DataType: dt, Sizes: sizes, Strides: inStrides},
			WindowOffsets: off, WindowSizes: size, WindowStrides: stride, OutputSizes: outSizes,
		}
		name := fmt.Sprintf("input %v strides %v (%s) window %v/%v/%v output %v", sizes, inStrides, family, off, size, stride, outSizes)
		s, err := NewSlice1(d)
		if err != nil {
			t.Fatalf("%s: NewSlice1: %v", name, err)
		}
		if !eq(s.CopyStart, copyStart) || !eq(s.MaxCopied, maxCopied) || !eq(s.OutputSizes, out) {
			t.Fatalf("%s: CopyStart %v MaxCopied %v OutputSizes %v, want %v %v %v", name, s.CopyStart, s.MaxCopied, s.OutputSizes, copyStart, maxCopied, out)
		}
		if !eq(s.Output.Sizes, out) || s.Output.DataType != dt || !eq(s.Output.Strides, naivePackedStrides(out)) {
			t.Fatalf("%s: output tensor %v %v %v", name, s.Output.DataType, s.Output.Sizes, s.Output.Strides)
		}
		coords := mustCoords(t, s)
		if !coordsEqual(coords, wantCoords) {
			t.Fatalf("%s: coordinates %v, want %v", name, coords, wantCoords)
		}
		eff := inStrides
		if eff == nil {
			eff = naivePackedStrides(sizes)
		}
		offs, err := s.InputOffsets(1 << 16)
		if err != nil {
			t.Fatalf("%s: InputOffsets: %v", name, err)
		}
		for k, c := range wantCoords {
			if offs[k] != naiveDot(c, eff) {
				t.Fatalf("%s: output %d reads offset %d, want %d", name, k, offs[k], naiveDot(c, eff))
			}
		}
		checkNumpyRoundTrip(t, s)
		checkONNXExport(t, s)
	}
}

// ---- NumPy slicing ----

const pySsizeMax = math.MaxInt64

// pyAdjust is CPython's PySlice_Unpack + PySlice_AdjustIndices, written
// from their C source: None becomes an extreme value first, then one
// adjustment clamps it.
func pyAdjust(start, stop, step *int64, length int64) (s, e, st int64, ok bool) {
	st = 1
	if step != nil {
		st = *step
	}
	if st == 0 {
		return 0, 0, 0, false
	}
	if start == nil {
		if st < 0 {
			s = pySsizeMax
		} else {
			s = 0
		}
	} else {
		s = *start
	}
	if stop == nil {
		if st < 0 {
			e = math.MinInt64
		} else {
			e = pySsizeMax
		}
	} else {
		e = *stop
	}
	adjust := func(v int64) int64 {
		if v < 0 {
			v += length
			if v < 0 {
				if st < 0 {
					return -1
				}
				return 0
			}
		} else if v >= length {
			if st < 0 {
				return length - 1
			}
			return length
		}
		return v
	}
	return adjust(s), adjust(e), st, true
}

// pyRange enumerates range(start, stop, step).
func pyRange(start, stop, step int64) []int64 {
	var out []int64
	for i := start; (step > 0 && i < stop) || (step < 0 && i > stop); i += step {
		out = append(out, i)
	}
	return out
}

type pyAxis struct {
	text    string
	isIndex bool
	index   int64
	start   *int64
	stop    *int64
	step    *int64
}

// randomPyInt returns a Python integer literal and its value as a slice
// bound (CPython clamps bounds past Py_ssize_t).
func randomPyInt(r *rand.Rand, n int64) (string, int64) {
	switch r.IntN(12) {
	case 0:
		return "100000000000000000000", pySsizeMax
	case 1:
		return "-100000000000000000000", math.MinInt64 + 1
	case 2:
		v := int64(1) << 40
		if r.IntN(2) == 0 {
			v = -v
		}
		return strconv.FormatInt(v, 10), v
	}
	v := r.Int64N(2*n+7) - n - 3
	return strconv.FormatInt(v, 10), v
}

func randomPyAxis(r *rand.Rand, n int64) pyAxis {
	if r.IntN(5) == 0 {
		v := r.Int64N(2*n+3) - n - 1
		return pyAxis{text: strconv.FormatInt(v, 10), isIndex: true, index: v}
	}
	var a pyAxis
	bound := func() (string, *int64) {
		if r.IntN(4) == 0 {
			if r.IntN(2) == 0 {
				return "None", nil
			}
			return "", nil
		}
		s, v := randomPyInt(r, n)
		return s, &v
	}
	var ss, es, ps string
	ss, a.start = bound()
	es, a.stop = bound()
	switch r.IntN(4) {
	case 0:
		a.text = ss + ":" + es
		return a
	case 1:
		a.text = ss + ":" + es + ":"
		return a
	}
	if r.IntN(15) == 0 {
		ps = "0"
		z := int64(0)
		a.step = &z
	} else {
		v := 1 + r.Int64N(4)
		if r.IntN(2) == 0 {
			v = -v
		}
		ps = strconv.FormatInt(v, 10)
		a.step = &v
	}
	a.text = ss + ":" + es + ":" + ps
	return a
}

func TestParseNumpyAgainstPythonSemantics(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	var empties, errorsSeen, oks int
	for range 4000 {
		sizes := randomSizes(r, 3, 7)
		n := len(sizes)
		k := n
		if r.IntN(4) == 0 {
			k = r.IntN(n + 1) // missing trailing axes (or the ellipsis) cover the rest
		}
		axes := make([]pyAxis, n)
		explicit := make([]bool, n)
		ell := -1
		if k < n && r.IntN(2) == 0 {
			ell = r.IntN(k + 1) // "..." before explicit item ell
		}
		var parts []string
		// Items map to the leading axes, and with an ellipsis the items
		// after it map to the trailing axes.
		for j := range k {
			ax := j
			if ell >= 0 && j >= ell {
				ax = n - k + j
			}
			if ell == j {
				parts = append(parts, "...")
			}
			axes[ax] = randomPyAxis(r, sizes[ax])
			explicit[ax] = true
			parts = append(parts, axes[ax].text)
		}
		if ell == k {
			parts = append(parts, "...")
		}
		expr := "x[" + strings.Join(parts, ", ") + "]"
		if len(parts) == 0 {
			expr = "x[...]"
		}

		var wantErr []string
		emptyAxis := false
		var lists [][]int64
		var triples [][3]int64
		var dropped []int
		for ax := range n {
			a := axes[ax]
			if !explicit[ax] {
				a = pyAxis{}
			}
			if a.isIndex {
				idx := a.index
				if idx < 0 {
					idx += sizes[ax]
				}
				if idx < 0 || idx >= sizes[ax] {
					wantErr = append(wantErr, "out of bounds")
					lists = append(lists, nil)
					triples = append(triples, [3]int64{})
					continue
				}
				lists = append(lists, []int64{idx})
				triples = append(triples, [3]int64{idx, idx + 1, 1})
				dropped = append(dropped, ax)
				continue
			}
			s, e, st, ok := pyAdjust(a.start, a.stop, a.step, sizes[ax])
			if !ok {
				wantErr = append(wantErr, "step cannot be zero")
				lists = append(lists, nil)
				triples = append(triples, [3]int64{})
				continue
			}
			l := pyRange(s, e, st)
			if len(l) == 0 {
				emptyAxis = true
			}
			lists = append(lists, l)
			triples = append(triples, [3]int64{s, e, st})
		}

		w, err := ParseNumpy(sizes, expr)
		name := fmt.Sprintf("ParseNumpy(%v, %q)", sizes, expr)
		switch {
		case len(wantErr) > 0:
			errorsSeen++
			if err == nil {
				t.Fatalf("%s succeeded, want an error (%v)", name, wantErr)
			}
			if !slices.ContainsFunc(wantErr, func(k string) bool { return strings.Contains(err.Error(), k) }) {
				t.Fatalf("%s: error %q states none of %v", name, err, wantErr)
			}
			continue
		case emptyAxis:
			empties++
			if err == nil || !strings.Contains(err.Error(), "selection is empty") {
				t.Fatalf("%s: error %v, want an empty-selection error", name, err)
			}
			continue
		case err != nil:
			t.Fatalf("%s: %v", name, err)
		}
		oks++
		if !eq(w.Indices, triples) {
			t.Fatalf("%s: Indices %v, want slice.indices %v", name, w.Indices, triples)
		}
		if !eq(w.DroppedAxes, dropped) {
			t.Fatalf("%s: DroppedAxes %v, want %v", name, w.DroppedAxes, dropped)
		}
		for ax, l := range lists {
			cs := CopyStart(w.WindowOffsets[ax], w.WindowSizes[ax], w.WindowStrides[ax])
			var got []int64
			for c := range w.OutputSizes[ax] {
				got = append(got, cs+w.WindowStrides[ax]*c)
			}
			if !eq(got, l) {
				t.Fatalf("%s: axis %d window selects %v, Python selects %v", name, ax, got, l)
			}
			// The canonical tight window (section 7 rules 3-5).
			lo, hi := slices.Min(l), slices.Max(l)
			wantStride := triples[ax][2]
			if w.WindowOffsets[ax] != lo || w.WindowSizes[ax] != hi-lo+1 || w.WindowStrides[ax] != wantStride {
				t.Fatalf("%s: axis %d window %d/%d/%d is not the tight %d/%d/%d", name, ax,
					w.WindowOffsets[ax], w.WindowSizes[ax], w.WindowStrides[ax], lo, hi-lo+1, wantStride)
			}
		}
		if _, err := sliceOnPacked(Float32, sizes, numpyWindow(w)); err != nil {
			t.Fatalf("%s: NewSlice1 rejects the window: %v", name, err)
		}
	}
	if empties < 100 || errorsSeen < 100 || oks < 1000 {
		t.Fatalf("too little variety: %d empty, %d errors, %d valid", empties, errorsSeen, oks)
	}
}

// ---- distinct offsets of large layouts ----

func TestDistinctFromStructureSettlesLargeLayouts(t *testing.T) {
	cases := []struct {
		name           string
		sizes, strides []int64
		want           int64 // from the arithmetic in the comment
	}{
		// Packed: every offset distinct, 65535*65537 = 2^32-1.
		{"packed 2^32-1 elements", []int64{65535, 65537}, []int64{65537, 1}, 1<<32 - 1},
		// A transpose is still a bijection onto 0..4096^2-1.
		{"transposed 4096x4096", []int64{4096, 4096}, []int64{1, 4096}, 4096 * 4096},
		// Offsets i+j: every value from 0 to 99999+39999.
		{"overlapping stride 1,1", []int64{100000, 40000}, []int64{1, 1}, 100000 + 40000 - 1},
		// Broadcast rows over one packed row.
		{"broadcast rows", []int64{65536, 65535}, []int64{0, 1}, 65535},
		{"broadcast channel", []int64{1000, 1000, 4000}, []int64{0, 4000, 1}, 1000 * 4000},
		// 3*(i+2j): i+2j covers 0..999+2*4999.
		{"overlapping progression", []int64{1000, 5000}, []int64{3, 6}, 999 + 2*4999 + 1},
		// Interleaved pair: 2j and 2j+1 cover 0..5999999.
		{"interleaved", []int64{3000000, 2}, []int64{2, 1}, 6000000},
		// Padded rows: offsets 4096*i + j, j < 4000, all distinct.
		{"padded rows", []int64{2000, 4000}, []int64{4096, 1}, 2000 * 4000},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, ok := distinctFromStructure(c.sizes, c.strides)
			if !ok || n != c.want {
				t.Fatalf("distinctFromStructure = (%d, %v), want (%d, true)", n, ok, c.want)
			}
			start := time.Now()
			l, err := NewLayout(TensorDesc{DataType: Float32, Sizes: c.sizes, Strides: c.strides})
			if err != nil {
				t.Fatalf("NewLayout: %v", err)
			}
			if n, ok := l.DistinctOffsetCount(); !ok || n != c.want {
				t.Fatalf("DistinctOffsetCount = (%d, %v), want (%d, true)", n, ok, c.want)
			}
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("NewLayout took %v: the count must come from the structure, not enumeration", d)
			}
			for _, f := range []Tri{l.IsPacked(), l.HasOverlap(), l.IsPadded()} {
				if !f.Known() {
					t.Errorf("a fact is unknown although the distinct count is known")
				}
			}
		})
	}
}

func TestDistinctUnknownGivesUnknownFacts(t *testing.T) {
	// Strides that neither nest nor form a progression, with more elements
	// than the enumeration fallback visits (2^22): the count is not settled.
	cases := []struct {
		name                    string
		sizes, strides          []int64
		overlap, padded, packed Tri
	}{
		// 2048*2049 > 2^22 elements in a span of 8388608 cells: more cells
		// than elements means holes; whether two elements share a cell does
		// not follow from the counts.
		{"coprime strides, span larger", []int64{2048, 2049}, []int64{2049, 2048}, TriUnknown, TriTrue, TriFalse},
		// 9,000,000 elements in a span of 6,001,000: pigeonhole overlap,
		// holes unknown.
		{"coprime strides, span smaller", []int64{3000, 3000}, []int64{1000, 1001}, TriTrue, TriUnknown, TriFalse},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if n := naiveProduct(c.sizes); n <= distinctEnumerateMaxElements {
				t.Fatalf("%d elements: the enumeration fallback would settle it", n)
			}
			if _, ok := distinctFromStructure(c.sizes, c.strides); ok {
				t.Fatalf("distinctFromStructure settled a layout whose strides neither nest nor progress")
			}
			l, err := NewLayout(TensorDesc{DataType: Float32, Sizes: c.sizes, Strides: c.strides})
			if err != nil {
				t.Fatalf("NewLayout: %v", err)
			}
			if n, ok := l.DistinctOffsetCount(); ok {
				t.Fatalf("DistinctOffsetCount = %d, reported known", n)
			}
			if l.HasOverlap() != c.overlap || l.IsPadded() != c.padded || l.IsPacked() != c.packed {
				t.Errorf("overlap/padded/packed = %s/%s/%s, want %s/%s/%s",
					triName(l.HasOverlap()), triName(l.IsPadded()), triName(l.IsPacked()),
					triName(c.overlap), triName(c.padded), triName(c.packed))
			}
		})
	}
}

// TestDistinctKnownThroughBroadcast: broadcast (stride 0) dimensions add
// no offsets, so millions of copies of a pattern whose strides neither
// nest nor progress are counted by walking the pattern once.
func TestDistinctKnownThroughBroadcast(t *testing.T) {
	cases := []struct{ sizes, strides []int64 }{
		// 4096*2048*9 elements; offsets 2a+3b for a, b < 3: 9 distinct.
		{[]int64{4096, 2048, 3, 3}, []int64{0, 0, 2, 3}},
		// The broadcast dimension between the others, and a size-1 one.
		{[]int64{300, 1, 2048, 301}, []int64{1000, 7, 0, 1001}},
	}
	for _, c := range cases {
		if n := naiveProduct(c.sizes); n <= distinctEnumerateMaxElements {
			t.Fatalf("%v: %d elements, within the enumeration limit already", c.sizes, n)
		}
		if _, ok := distinctFromStructure(c.sizes, c.strides); ok {
			t.Fatalf("%v/%v: settled by the structure; the case tests the walk", c.sizes, c.strides)
		}
		l, err := NewLayout(TensorDesc{DataType: Float32, Sizes: c.sizes, Strides: c.strides})
		if err != nil {
			t.Fatalf("%v/%v: NewLayout: %v", c.sizes, c.strides, err)
		}
		// The same count as the pattern alone, counted naively.
		var ps, pt []int64
		for i, n := range c.sizes {
			if c.strides[i] != 0 {
				ps, pt = append(ps, n), append(pt, c.strides[i])
			}
		}
		want := naiveLayoutFacts(ps, pt).distinct
		if n, ok := l.DistinctOffsetCount(); !ok || n != want {
			t.Errorf("%v/%v: DistinctOffsetCount = (%d, %v), want (%d, true)", c.sizes, c.strides, n, ok, want)
		}
		if l.HasOverlap() != TriTrue {
			t.Errorf("%v/%v: overlap %s, want yes (broadcast)", c.sizes, c.strides, triName(l.HasOverlap()))
		}
	}
}

// TestDistinctKnownForFewElementsWithHugeStrides: a tensor of a handful of
// elements is small whatever its strides; its distinct count is known.
func TestDistinctKnownForFewElementsWithHugeStrides(t *testing.T) {
	cases := []struct{ sizes, strides []int64 }{
		{[]int64{3, 3}, []int64{1 << 28, 1<<28 + 1}},
		{[]int64{2, 3, 2}, []int64{1 << 29, 1<<27 + 3, 1 << 27}},
		{[]int64{4, 4}, []int64{100000000, 100000001}},
	}
	for _, c := range cases {
		l, err := NewLayout(TensorDesc{DataType: UInt8, Sizes: c.sizes, Strides: c.strides})
		if err != nil {
			t.Fatalf("%v/%v: NewLayout: %v", c.sizes, c.strides, err)
		}
		f := naiveLayoutFacts(c.sizes, c.strides)
		n, ok := l.DistinctOffsetCount()
		if !ok || n != f.distinct {
			t.Errorf("%v/%v: DistinctOffsetCount = (%d, %v), want (%d, true)", c.sizes, c.strides, n, ok, f.distinct)
		}
		if l.HasOverlap() != triOf(f.overlap) || l.IsPadded() != triOf(f.padded) {
			t.Errorf("%v/%v: overlap %s padded %s, want %v %v", c.sizes, c.strides, triName(l.HasOverlap()), triName(l.IsPadded()), f.overlap, f.padded)
		}
	}
}
