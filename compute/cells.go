package compute

import (
	"context"
	"fmt"
	"math"
)

// cellChunk is how many elements CellCounts and Touched process between
// two looks at the context.
const cellChunk = 1 << 20

// initSet builds the plan of the multiset of offsets of w, in whatever
// order is fastest: negative strides are flipped (the base moves to the
// smallest offset), dimensions are sorted by decreasing stride and merged
// where they chain. Stride-0 dimensions are left out; weight is the
// product of their sizes (how often each offset repeats).
func (p *plan) initSet(w Walk) (weight int64, err error) {
	p.reset()
	if len(w.Sizes) != len(w.Strides) {
		p.fail("%d sizes but %d strides", len(w.Sizes), len(w.Strides))
		return 0, p.err
	}
	var sz, st [maxDims]int64
	n := 0
	base := w.Base
	weight = 1
	for i, s := range w.Sizes {
		t := w.Strides[i]
		switch {
		case s < 0:
			p.fail("size %d is negative", s)
			return 0, p.err
		case s == 0:
			p.count = 0
			continue
		case s == 1:
			continue
		case t == 0:
			weight, _ = mul64(weight, s)
			weight = min(max(weight, 0), maxCount)
			continue
		}
		if t < 0 {
			span, ok := mul64(s-1, t)
			if ok {
				base, ok = add64(base, span)
			}
			if !ok {
				p.fail("offsets overflow int64")
				return 0, p.err
			}
			t = -t
		}
		if n == maxDims {
			p.fail("more than %d dimensions with a stride", maxDims)
			return 0, p.err
		}
		// Insertion by decreasing stride.
		j := n
		for j > 0 && st[j-1] < t {
			sz[j], st[j] = sz[j-1], st[j-1]
			j--
		}
		sz[j], st[j] = s, t
		n++
	}
	empty := p.count == 0
	for i := range n {
		p.push(sz[i], st[i])
	}
	if empty {
		p.count = 0
	}
	return weight, p.finish(base)
}

// initCells plans a walk over the buffer cells [0, cells) for CellCounts
// and Touched: initSet's plan and weight, after checking cells and ctx.
func (p *plan) initCells(ctx context.Context, w Walk, cells int64) (int64, error) {
	weight, err := p.initSet(w)
	if err != nil {
		return 0, err
	}
	if cells < 0 {
		return 0, fmt.Errorf("%w: %d cells", ErrInvalidWalk, cells)
	}
	return weight, ctx.Err()
}

// CellCounts returns, for the buffer cells [0, cells), how many elements of
// w map to each, saturating at math.MaxUint32. Elements outside [0, cells)
// are not counted. ctx is looked at between chunks of about a million
// elements; when it is done, CellCounts returns ctx.Err().
func CellCounts(ctx context.Context, w Walk, cells int64) ([]uint32, error) {
	return CellCountsInto(ctx, w, cells, nil)
}

// CellCountsInto is CellCounts for callers that reuse the counts: it
// clears counts and fills it when it has room for cells counts
// (allocating a new slice otherwise) and returns it resliced to cells.
func CellCountsInto(ctx context.Context, w Walk, cells int64, counts []uint32) ([]uint32, error) {
	var p plan
	weight, err := p.initCells(ctx, w, cells)
	if err != nil {
		return nil, err
	}
	if int64(cap(counts)) >= cells {
		counts = counts[:cells]
		clear(counts)
	} else {
		counts = make([]uint32, cells)
	}
	if p.count == 0 || weight == 0 {
		return counts, nil
	}
	wt := uint32(min(weight, math.MaxUint32))
	s := p.stride[p.rank-1]
	// Unit-step rows that no cell's total can saturate are counted as a
	// difference array (+wt at a row's first cell, -wt past its last, in
	// uint32 arithmetic, which is exact as no true count wraps) and summed
	// once at the end: a row costs two additions whatever its length, so
	// heavily overlapping layouts (strides 1,1) cost O(rows + cells), not
	// O(elements).
	if s == 1 && uint64(p.count) <= math.MaxUint32/uint64(wt) {
		for first := int64(0); first < p.count; first += cellChunk {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			p.walkRange(first, min(cellChunk, p.count-first), func(_, off, cnt, rows, rs int64) {
				for r := range rows {
					o := off + r*rs
					lo, hi := max(o, 0), min(o+cnt, cells)
					if lo >= hi {
						continue
					}
					counts[lo] += wt
					if hi < cells {
						counts[hi] -= wt
					}
				}
			})
		}
		var run uint32
		for i, d := range counts {
			run += d
			counts[i] = run
		}
		return counts, nil
	}
	lim := math.MaxUint32 - wt
	add := func(i int64) {
		c := counts[i]
		if c > lim {
			counts[i] = math.MaxUint32
		} else {
			counts[i] = c + wt
		}
	}
	for first := int64(0); first < p.count; first += cellChunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p.walkRange(first, min(cellChunk, p.count-first), func(_, off, cnt, rows, rs int64) {
			for r := range rows {
				o := off + r*rs
				if s == 1 {
					lo, hi := max(o, 0), min(o+cnt, cells)
					if lo >= hi {
						continue
					}
					row := counts[lo:hi]
					for i, c := range row {
						if c > lim {
							row[i] = math.MaxUint32
						} else {
							row[i] = c + wt
						}
					}
					continue
				}
				for range cnt {
					if uint64(o) < uint64(cells) {
						add(o)
					}
					o += s
				}
			}
		})
	}
	return counts, nil
}

// Touched returns a bitmap of the buffer cells [0, cells) that w reads:
// bit k%64 of word k/64 is set when some element of w reads cell k.
// Elements outside [0, cells) are ignored. ctx is looked at between chunks
// of about a million elements; when it is done, Touched returns ctx.Err().
func Touched(ctx context.Context, w Walk, cells int64) ([]uint64, error) {
	return TouchedInto(ctx, w, cells, nil)
}

// TouchedInto is Touched for callers that reuse a bitmap: it clears bm and
// fills it when it has room for cells bits (allocating a new one
// otherwise) and returns it resliced to (cells+63)/64 words.
func TouchedInto(ctx context.Context, w Walk, cells int64, bm []uint64) ([]uint64, error) {
	var p plan
	weight, err := p.initCells(ctx, w, cells)
	if err != nil {
		return nil, err
	}
	words := (cells + 63) / 64
	if int64(cap(bm)) >= words {
		bm = bm[:words]
		clear(bm)
	} else {
		bm = make([]uint64, words)
	}
	if p.count == 0 || weight == 0 {
		return bm, nil
	}
	s := p.stride[p.rank-1]
	for first := int64(0); first < p.count; first += cellChunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		p.walkRange(first, min(cellChunk, p.count-first), func(_, off, cnt, rows, rs int64) {
			if s == 1 && rows > 1 && rs%64 == 0 && off >= 0 && off+(rows-1)*rs+cnt <= cells {
				// Every row has the same word pattern, rs/64 words apart.
				setRows(bm, off, off+cnt, rows, rs/64)
				return
			}
			for r := range rows {
				o := off + r*rs
				if s == 1 {
					setRange(bm, max(o, 0), min(o+cnt, cells))
					continue
				}
				if s > 0 && s <= 32 && 64%s == 0 && o >= 0 && o+(cnt-1)*s < cells {
					setStrided(bm, o, cnt, s)
					continue
				}
				for range cnt {
					if uint64(o) < uint64(cells) {
						bm[o>>6] |= 1 << (o & 63)
					}
					o += s
				}
			}
		})
	}
	return bm, nil
}

// stridePattern[s] has every s-th bit of a word set, from bit 0.
var stridePattern = [33]uint64{
	1: ^uint64(0), 2: 0x5555555555555555, 4: 0x1111111111111111, 8: 0x0101010101010101,
	16: 0x0001000100010001, 32: 0x0000000100000001,
}

// setStrided sets the bits o, o+s, ..., o+(cnt-1)*s for a stride s that
// divides 64: every word gets the same pattern, one OR per word.
func setStrided(bm []uint64, o, cnt, s int64) {
	last := o + (cnt-1)*s
	pat := stridePattern[s] << (o & 63 % s)
	wa, wb := o>>6, last>>6
	ma := ^uint64(0) << (o & 63)
	mb := ^uint64(0) >> (63 - last&63)
	if wa == wb {
		bm[wa] |= pat & ma & mb
		return
	}
	w := bm[wa : wb+1]
	w[0] |= pat & ma
	mid := w[1 : len(w)-1]
	for i := range mid {
		mid[i] |= pat
	}
	w[len(w)-1] |= pat & mb
}

// setRows sets the bits [a, b) and the same bits step words further on,
// rows times; the caller ensures they are inside bm.
func setRows(bm []uint64, a, b, rows, step int64) {
	wa, wb := a>>6, (b-1)>>6
	ma := ^uint64(0) << (a & 63)
	mb := ^uint64(0) >> (63 - (b-1)&63)
	if wa == wb {
		m := ma & mb
		for r := range rows {
			bm[wa+r*step] |= m
		}
		return
	}
	for r := range rows {
		w := bm[wa+r*step : wb+r*step+1]
		w[0] |= ma
		mid := w[1 : len(w)-1]
		for i := range mid {
			mid[i] = ^uint64(0)
		}
		w[len(w)-1] |= mb
	}
}

// setRange sets the bits [a, b).
func setRange(bm []uint64, a, b int64) {
	if a >= b {
		return
	}
	wa, wb := a>>6, (b-1)>>6
	ma := ^uint64(0) << (a & 63)
	mb := ^uint64(0) >> (63 - (b-1)&63)
	if wa == wb {
		bm[wa] |= ma & mb
		return
	}
	bm[wa] |= ma
	for i := wa + 1; i < wb; i++ {
		bm[i] = ^uint64(0)
	}
	bm[wb] |= mb
}
