package compute

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/bits"

	"github.com/stridescope/stridescope/core"
)

// AxisMap is a separable index map, the shape of DML_PADDING1 and
// DML_TILE (and DML_JOIN along its axis): output element (o_0, ..., o_n-1),
// row-major, reads the input buffer element Base + sum Strides[d] *
// Tables[d][o_d], or takes the fill value where any Tables[d][o_d] is -1.
// Tables[d] has one entry per output coordinate of axis d, so a map costs
// the sum of the output sizes in memory, not their product.
type AxisMap struct {
	Tables  [][]int64
	Strides []int64 // signed, in elements
	Base    int64
}

// ErrAxisMap is the error of a map that does not fit its buffers.
var ErrAxisMap = errors.New("compute: axis map")

// PaddingMap is DML_PADDING1's map: per output axis the input coordinate
// PadSource gives, over the input's strides.
func PaddingMap(p *core.Padding1) AxisMap {
	m := AxisMap{Tables: make([][]int64, p.Output.Rank()), Strides: append([]int64(nil), p.Input.Strides...)}
	for d := range m.Tables {
		m.Tables[d] = p.AxisSources(d)
	}
	return m
}

// TileMap is DML_TILE's map: per output axis o mod the input's size,
// over the input's strides.
func TileMap(t *core.Tile) AxisMap {
	m := AxisMap{Tables: make([][]int64, t.Output.Rank()), Strides: append([]int64(nil), t.Input.Strides...)}
	for d := range m.Tables {
		m.Tables[d] = t.AxisSources(d)
	}
	return m
}

// Len is the number of output elements: the product of the tables'
// lengths (math.MaxInt64 when it overflows).
func (m AxisMap) Len() int64 {
	p := uint64(1)
	for _, t := range m.Tables {
		hi, lo := bits.Mul64(p, uint64(len(t)))
		if hi != 0 || lo > math.MaxInt64 {
			return math.MaxInt64
		}
		p = lo
	}
	return int64(p)
}

// Sizes are the output sizes, the tables' lengths.
func (m AxisMap) Sizes() []int64 {
	s := make([]int64, len(m.Tables))
	for d, t := range m.Tables {
		s[d] = int64(len(t))
	}
	return s
}

// check proves once that every offset the map can read lies in
// [0, elems) of the source, with no overflow on the way, and that every
// table entry is a coordinate or -1.
func (m AxisMap) check(elems int64) error {
	if len(m.Strides) != len(m.Tables) || len(m.Tables) == 0 {
		return fmt.Errorf("%w: %d tables, %d strides", ErrAxisMap, len(m.Tables), len(m.Strides))
	}
	lo, hi := m.Base, m.Base
	for d, t := range m.Tables {
		mn, mx, any := int64(math.MaxInt64), int64(math.MinInt64), false
		for _, c := range t {
			if c < -1 {
				return fmt.Errorf("%w: axis %d reads coordinate %d", ErrAxisMap, d, c)
			}
			if c >= 0 {
				mn, mx, any = min(mn, c), max(mx, c), true
			}
		}
		if !any {
			continue
		}
		a, ok1 := mul64(mn, m.Strides[d])
		b, ok2 := mul64(mx, m.Strides[d])
		if !ok1 || !ok2 {
			return fmt.Errorf("%w: axis %d's offsets overflow", ErrAxisMap, d)
		}
		var ok3, ok4 bool
		lo, ok3 = add64(lo, min(a, b))
		hi, ok4 = add64(hi, max(a, b))
		if !ok3 || !ok4 {
			return fmt.Errorf("%w: offsets overflow", ErrAxisMap)
		}
	}
	if lo < 0 || hi >= elems {
		return fmt.Errorf("%w: reads offsets %d to %d of a buffer of %d elements", ErrAxisMap, lo, hi, elems)
	}
	return nil
}

// noSource marks a fill entry of an offset table (offsets of a checked
// map are at least -2^62 in magnitude, never this).
const noSource = math.MinInt64

// offsets is axis d's table as element offsets, noSource for a fill.
func (m AxisMap) offsets(d int, scale int64) []int64 {
	t := m.Tables[d]
	out := make([]int64, len(t))
	for o, c := range t {
		if c < 0 {
			out[o] = noSource
		} else {
			out[o] = c * m.Strides[d] * scale
		}
	}
	return out
}

// Sources writes the source element offset of output elements first,
// first+1, ... into dst (-1 where the element takes the fill value),
// row-major, and returns how many it wrote: len(dst) or fewer at the end.
// A caller streams a large map in chunks of its own size. It does not
// prove that the offsets lie in any buffer.
func (m AxisMap) Sources(first int64, dst []int64) int {
	n := m.Len()
	if first < 0 || first >= n || len(m.Tables) == 0 || len(m.Strides) != len(m.Tables) {
		return 0
	}
	count := int(min(int64(len(dst)), n-first))
	rank := len(m.Tables)
	offs := make([][]int64, rank)
	for d := range offs {
		offs[d] = m.offsets(d, 1)
	}
	coord := make([]int64, rank)
	rest := first
	for d := rank - 1; d >= 0; d-- {
		s := int64(len(m.Tables[d]))
		coord[d], rest = rest%s, rest/s
	}
	inner := offs[rank-1]
	for i := 0; i < count; {
		outer, fill := m.Base, false
		for d := range rank - 1 {
			o := offs[d][coord[d]]
			fill = fill || o == noSource
			outer += o
		}
		for c := coord[rank-1]; c < int64(len(inner)) && i < count; c++ {
			if fill || inner[c] == noSource {
				dst[i] = -1
			} else {
				dst[i] = outer + inner[c]
			}
			i++
		}
		coord[rank-1] = 0
		for d := rank - 2; d >= 0; d-- {
			if coord[d]++; coord[d] < int64(len(m.Tables[d])) {
				break
			}
			coord[d] = 0
		}
	}
	return count
}

// segment is a piece of the innermost axis: n elements from byte offset
// src (relative to the row's), copied as one run, or n fill values.
type segment struct {
	src  int64
	n    int
	fill bool
}

// rowSegments cuts the innermost axis into runs: consecutive output
// coordinates whose sources are consecutive elements of src are one
// copy (the middle of a padded row is one memmove), fills one copy of
// the fill row.
func rowSegments(off []int64, elemSize int64) []segment {
	var segs []segment
	for _, b := range off {
		if len(segs) > 0 {
			last := &segs[len(segs)-1]
			switch {
			case b == noSource && last.fill:
				last.n++
				continue
			case b != noSource && !last.fill && b == last.src+int64(last.n)*elemSize:
				last.n++
				continue
			}
		}
		segs = append(segs, segment{src: b, n: 1, fill: b == noSource})
	}
	return segs
}

// AxisCopy writes m's output into dst, packed and row-major: each
// element the elemSize bytes at its source offset in src, or fill. dst
// must hold exactly m.Len() elements and every offset m reads must lie in
// src, which it proves once before writing anything. It does no call per
// element: the innermost axis is cut once into runs (rowSegments), and
// each output row is a few copy()s at the row's source offset, found by
// an odometer over the outer axes' offset tables. It looks at ctx
// between rows, at least every million elements or so.
func AxisCopy(ctx context.Context, dst, src []byte, m AxisMap, elemSize int, fill []byte) error {
	if elemSize < 1 || len(fill) != elemSize {
		return fmt.Errorf("%w: element size %d, fill of %d bytes", ErrAxisMap, elemSize, len(fill))
	}
	e := int64(elemSize)
	if err := m.check(int64(len(src)) / e); err != nil {
		return err
	}
	n := m.Len()
	if n == math.MaxInt64 || int64(len(dst)) != n*e {
		return fmt.Errorf("%w: dst holds %d bytes, the output is %d elements of %d", ErrAxisMap, len(dst), n, elemSize)
	}
	rank := len(m.Tables)
	width := int64(len(m.Tables[rank-1]))
	if n == 0 {
		return nil
	}
	segs := rowSegments(m.offsets(rank-1, e), e)
	fillRow := make([]byte, width*e)
	for i := 0; i < len(fillRow); i += elemSize {
		copy(fillRow[i:], fill)
	}
	outer := make([][]int64, rank-1)
	for d := range outer {
		outer[d] = m.offsets(d, e)
	}
	coord := make([]int64, rank-1)
	rowBytes := width * e
	checkEvery := max(1, (1<<20)/width)
	base := m.Base * e
	// Past the caches, dst's whole lines are written with non-temporal
	// stores, as Copy's rows are (stream.go): a plain store reads each
	// line first.
	w := rowWriter{dst: dst, stream: haveSSE && useFast && int64(len(dst)) >= streamMin}
	if w.stream {
		defer sfence()
	}
	for row, at := int64(0), int64(0); at < int64(len(dst)); row, at = row+1, at+rowBytes {
		if row%checkEvery == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		off, isFill := base, false
		for d, c := range coord {
			o := outer[d][c]
			isFill = isFill || o == noSource
			off += o
		}
		if isFill {
			w.put(at, fillRow)
		} else {
			w.row(at, src, off, segs, fillRow, elemSize)
		}
		for d := rank - 2; d >= 0; d-- {
			if coord[d]++; coord[d] < int64(len(outer[d])) {
				break
			}
			coord[d] = 0
		}
	}
	return nil
}

// rowWriter writes AxisCopy's output rows, streaming the long runs.
type rowWriter struct {
	dst    []byte
	stream bool
}

// streamRun is the shortest run worth non-temporal stores: one whole
// line at least, between the partial lines at its ends.
const streamRun = 256

func (w rowWriter) put(at int64, b []byte) {
	if w.stream && len(b) >= streamRun {
		streamTo(w.dst, at, b)
		return
	}
	copy(w.dst[at:at+int64(len(b))], b)
}

// row writes one output row, at byte at of dst, from its segments at
// source offset off.
func (w rowWriter) row(at int64, src []byte, off int64, segs []segment, fillRow []byte, elemSize int) {
	pos := at
	for _, s := range segs {
		k := int64(s.n * elemSize)
		if s.fill {
			w.put(pos, fillRow[:k])
		} else {
			from := off + s.src
			w.put(pos, src[from:from+k])
		}
		pos += k
	}
}
