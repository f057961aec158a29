package compute

import (
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/stridescope/stridescope/core"
)

// maxDims is the largest number of dimensions a walk may have after
// normalisation (DML_TENSOR_DIMENSION_COUNT_MAX1).
const maxDims = core.MaxDimensionCount

// maxCount bounds the element count of a walk so that count*8 bytes and
// every offset computation stay far from int64 overflow.
const maxCount = 1 << 56

// Walk is a normalised strided walk: element i of the packed output
// (row-major over Sizes, the last dimension fastest) reads buffer element
// Base + dot(coord(i), Strides). Strides are signed and counted in
// elements.
type Walk struct {
	Sizes   []int64
	Strides []int64
	Base    int64
}

// LayoutWalk walks the logical elements of a layout in row-major order and
// yields their buffer offsets.
func LayoutWalk(l *core.Layout) Walk {
	return Walk{
		Sizes:   append([]int64(nil), l.Sizes...),
		Strides: append([]int64(nil), l.Strides...),
	}
}

// SliceWalk walks the output elements of a DML_SLICE1 in row-major order
// and yields the input buffer offsets they read: the strides are window
// stride times input stride, the base is the offset of CopyStart.
func SliceWalk(s *core.Slice1) Walk {
	return Walk{
		Sizes:   append([]int64(nil), s.OutputSizes...),
		Strides: s.SourceStrides(),
		Base:    s.BaseOffset(),
	}
}

// Len is the number of elements of the walk: the product of its sizes (0
// when a size is 0 or negative, math.MaxInt64 when the product overflows).
func (w Walk) Len() int64 {
	p := uint64(1)
	for _, s := range w.Sizes {
		if s <= 0 {
			return 0
		}
		hi, lo := bits.Mul64(p, uint64(s))
		if hi != 0 || lo > math.MaxInt64 {
			return math.MaxInt64
		}
		p = lo
	}
	return int64(p)
}

// Errors a walk can be refused with.
var (
	ErrInvalidWalk = errors.New("compute: invalid walk")
	ErrOutOfBounds = errors.New("compute: walk reads outside the source buffer")
)

// plan is a walk after normalisation: no size-1 dimension, no two adjacent
// dimensions whose strides chain, at least one dimension (a single element
// is the dimension {1} with stride 0). It lives on the stack.
type plan struct {
	rank   int
	size   [maxDims]int64
	stride [maxDims]int64
	base   int64
	count  int64 // 0 for an empty walk
	minOff int64 // smallest offset read (valid when count > 0)
	maxOff int64 // largest offset read
	err    error
}

func mul64(a, b int64) (int64, bool) {
	// No division: multiply the magnitudes and check the high word.
	ua, ub := uint64(a), uint64(b)
	neg := false
	if a < 0 {
		ua, neg = -ua, !neg
	}
	if b < 0 {
		ub, neg = -ub, !neg
	}
	hi, lo := bits.Mul64(ua, ub)
	if hi != 0 || lo > math.MaxInt64 {
		return 0, false
	}
	if neg {
		return -int64(lo), true
	}
	return int64(lo), true
}

func add64(a, b int64) (int64, bool) {
	c := a + b
	if (c > a) != (b > 0) {
		return 0, false
	}
	return c, true
}

func (p *plan) fail(format string, args ...any) {
	if p.err == nil {
		p.err = fmt.Errorf("%w: "+format, append([]any{ErrInvalidWalk}, args...)...)
	}
}

func (p *plan) reset() {
	*p = plan{count: 1}
}

// push appends the next dimension (outer to inner), dropping it when its
// size is 1 and merging it into the previous one when their strides chain.
func (p *plan) push(size, stride int64) {
	switch {
	case size < 0:
		p.fail("size %d is negative", size)
		return
	case size == 0:
		p.count = 0
		return
	case size == 1:
		return
	}
	if p.count != 0 {
		c, ok := mul64(p.count, size)
		if !ok || c > maxCount {
			p.fail("more than 2^56 elements")
			return
		}
		p.count = c
	}
	if p.rank > 0 {
		q := p.rank - 1
		if span, ok := mul64(stride, size); ok && span == p.stride[q] {
			p.size[q] *= size // <= count, no overflow
			p.stride[q] = stride
			return
		}
	}
	if p.rank == maxDims {
		p.fail("more than %d dimensions after dropping size-1 dimensions and merging", maxDims)
		return
	}
	p.size[p.rank], p.stride[p.rank] = size, stride
	p.rank++
}

// finish computes the offset range; it returns p.err.
func (p *plan) finish(base int64) error {
	if p.err != nil {
		return p.err
	}
	p.base = base
	if p.count == 0 {
		p.rank = 0
		return nil
	}
	if p.rank == 0 {
		p.rank, p.size[0], p.stride[0] = 1, 1, 0
	}
	lo, hi := base, base
	for i := range p.rank {
		t, ok := mul64(p.size[i]-1, p.stride[i])
		if ok {
			if t < 0 {
				lo, ok = add64(lo, t)
			} else {
				hi, ok = add64(hi, t)
			}
		}
		if !ok {
			p.fail("offsets overflow int64")
			return p.err
		}
	}
	p.minOff, p.maxOff = lo, hi
	return nil
}

// initWalk builds the plan of w.
func (p *plan) initWalk(w Walk) error {
	p.reset()
	if len(w.Sizes) != len(w.Strides) {
		p.fail("%d sizes but %d strides", len(w.Sizes), len(w.Strides))
		return p.err
	}
	for i, s := range w.Sizes {
		p.push(s, w.Strides[i])
	}
	return p.finish(w.Base)
}

// initSlice builds the plan of SliceWalk(s) without allocating.
func (p *plan) initSlice(s *core.Slice1) error {
	if s != nil && s.Input != nil && p.initSliceSmall(s) {
		return nil
	}
	p.reset()
	if s == nil || s.Input == nil {
		p.fail("nil slice")
		return p.err
	}
	n := len(s.OutputSizes)
	in := s.Input.Strides
	if len(s.WindowStrides) != n || len(in) != n || len(s.CopyStart) != n {
		p.fail("slice arrays of different lengths")
		return p.err
	}
	var base int64
	for i := range n {
		st, ok := mul64(s.WindowStrides[i], in[i])
		o, ok2 := mul64(s.CopyStart[i], in[i])
		if ok2 {
			base, ok2 = add64(base, o)
		}
		if !ok || !ok2 {
			p.fail("offsets overflow int64")
			return p.err
		}
		p.push(s.OutputSizes[i], st)
	}
	return p.finish(base)
}

// smallLim bounds every size, stride, window stride and start that
// initSliceSmall accepts: with |values| < 2^19 and at most 8 dimensions,
// a source stride is below 2^38, (size-1)*stride below 2^57, the base
// below 2^41 and the offset range below 2^61, so nothing can overflow.
const smallLim = 1 << 19

// initSliceSmall is initSlice without overflow checks for the common case
// of small, valid, non-empty slices (every size in [1, 2^19), every
// stride, window stride and start in (-2^19, 2^19), at most 8 dimensions,
// at most 2^32 elements). It builds the same plan as the general path in
// one pass, or returns false, having set nothing that the general path
// does not reset, when the slice is outside that case.
func (p *plan) initSliceSmall(s *core.Slice1) bool {
	sizes, ws, in, cs := s.OutputSizes, s.WindowStrides, s.Input.Strides, s.CopyStart
	n := len(sizes)
	if n > maxDims || len(ws) != n || len(in) != n || len(cs) != n {
		return false
	}
	ws, in, cs = ws[:n], in[:n], cs[:n]
	var base, lo, hi int64
	count, rank := int64(1), 0
	for i, sz := range sizes {
		w, is, c := ws[i], in[i], cs[i]
		if uint64(sz-1) >= smallLim-1 || uint64(w+smallLim) >= 2*smallLim ||
			uint64(is+smallLim) >= 2*smallLim || uint64(c+smallLim) >= 2*smallLim {
			return false
		}
		base += c * is
		if sz == 1 {
			continue
		}
		st := w * is
		if count *= sz; count > 1<<32 {
			return false
		}
		if t := (sz - 1) * st; t < 0 {
			lo += t
		} else {
			hi += t
		}
		if rank > 0 && st*sz == p.stride[rank-1] {
			p.size[rank-1] *= sz
			p.stride[rank-1] = st
			continue
		}
		p.size[rank], p.stride[rank] = sz, st
		rank++
	}
	if rank == 0 {
		p.size[0], p.stride[0], rank = 1, 0, 1
	}
	p.rank, p.count, p.base = rank, count, base
	p.minOff, p.maxOff = base+lo, base+hi
	p.err = nil
	return true
}

// walkRange visits the elements [first, first+n) in batches of rows: a
// batch is rows rows of cnt elements each, row r starting at buffer offset
// off + r*rs and stepping by the inner stride, written to output elements
// d + r*cnt onwards. The caller ensures 0 <= first, n >= 1 and first+n <=
// count. Only the start is found by division; the rest is an odometer.
func (p *plan) walkRange(first, n int64, visit func(d, off, cnt, rows, rs int64)) {
	r := p.rank
	L, s := p.size[r-1], p.stride[r-1]
	if r == 1 {
		visit(first, p.base+first*s, n, 1, 0)
		return
	}
	g := r - 2
	G, rs := p.size[g], p.stride[g]
	if r == 3 && first == 0 && n == p.count {
		// The whole of a 3-D walk: a batch a plane, the odometer one
		// counter (a small call makes few batches, and advance's loop
		// was a fifth of its cost).
		off, ps := p.base, p.stride[0]
		for d := int64(0); d < n; d += G * L {
			visit(d, off, L, G, rs)
			off += ps
		}
		return
	}
	var coord [maxDims]int64
	off := p.base
	var col int64
	if first != 0 { // the start by division, once
		var row int64
		row, col = first/L, first%L
		for k := g; k >= 0; k-- {
			c := row % p.size[k]
			row /= p.size[k]
			coord[k] = c
			off += c * p.stride[k]
		}
	}
	d := first
	if col != 0 {
		k := min(L-col, n)
		visit(d, off+col*s, k, 1, 0)
		d += k
		n -= k
		if n == 0 {
			return
		}
		off = p.advance(&coord, off, 1)
	}
	for n >= L {
		rows := min(G-coord[g], n/L)
		visit(d, off, L, rows, rs)
		d += rows * L
		n -= rows * L
		if n == 0 {
			return
		}
		off = p.advance(&coord, off, rows)
	}
	visit(d, off, n, 1, 0)
}

// advance moves the row odometer (dimensions 0..rank-2) on by k rows, where
// coord[rank-2]+k <= size[rank-2], and returns the new row offset.
func (p *plan) advance(coord *[maxDims]int64, off, k int64) int64 {
	g := p.rank - 2
	coord[g] += k
	off += k * p.stride[g]
	for d := g; d > 0 && coord[d] == p.size[d]; d-- {
		off -= coord[d] * p.stride[d]
		coord[d] = 0
		coord[d-1]++
		off += p.stride[d-1]
	}
	return off
}

// Offsets fills dst with the buffer offsets of the elements [first,
// first+len(dst)) of w, for streaming a walk in chunks. It panics when w is
// invalid (see Copy) or the range is outside [0, w.Len()].
func Offsets(w Walk, first int64, dst []int64) {
	var p plan
	p.initOffsets(w, first, int64(len(dst)))
	if len(dst) == 0 {
		return
	}
	s := p.stride[p.rank-1]
	p.walkRange(first, int64(len(dst)), func(d, off, cnt, rows, rs int64) {
		out := dst[d-first : d-first+cnt*rows]
		for r := range rows {
			o := off + r*rs
			row := out[r*cnt : (r+1)*cnt]
			for j := range row {
				row[j] = o
				o += s
			}
		}
	})
}

// initOffsets plans w for Offsets and checks the range.
func (p *plan) initOffsets(w Walk, first, n int64) {
	if err := p.initWalk(w); err != nil {
		panic(err)
	}
	if first < 0 || first > p.count || n > p.count-first {
		panic(fmt.Sprintf("compute.Offsets: range [%d, %d) outside [0, %d)", first, first+n, p.count))
	}
}
