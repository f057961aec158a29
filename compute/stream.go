package compute

import "unsafe"

// Streaming: when the output is larger than the caches, dst is written
// with non-temporal stores. A plain store to a line that is not cached
// first reads the line from memory; a non-temporal one does not, so the
// copy moves two thirds of the bytes (Go's copy() does the same for blocks
// of 1 MiB or more, which is what the engine is measured against). Rows
// go straight from src to dst, reversed or gathered in SSE registers where
// needed; tiles and table blocks, whose dst runs are short or scattered,
// are gathered into a buffer in L1 first. Staging plain rows that way was
// tried and was slower than plain stores.

// streamMin is the output size from which the copy streams; the tests
// lower it.
var streamMin int64 = 4 << 20

// ntWrite writes b to dst byte q: the whole 64-byte lines with
// non-temporal stores, the partial lines at either end with plain ones.
func ntWrite(dp unsafe.Pointer, q int64, b []byte) {
	n := int64(len(b))
	if n == 0 {
		return
	}
	d := unsafe.Add(dp, q)
	head := min(int64(-uintptr(d)&63), n)
	body := (n - head) &^ 63
	if head > 0 {
		copy(unsafe.Slice((*byte)(d), head), b[:head])
	}
	if body > 0 {
		ntCopy(unsafe.Add(d, head), unsafe.Pointer(&b[head]), int(body))
	}
	if tail := n - head - body; tail > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Add(d, head+body)), tail), b[head+body:])
	}
}

// streamRows executes the rows mode's units [first, first+cnt) of a
// unit-step, reversed or (streamGather) strided plan: the whole lines of
// dst with non-temporal stores, the partial lines at the ends of each row
// with plain ones.
func (x *exec) streamRows(dst, src []byte, first, cnt int64) (sink uint64) {
	p := &x.p
	e := x.e
	dp := base(dst)
	if x.kind == kindFwd {
		sp := base(src)
		p.walkRange(first, cnt, func(d, off, n, rows, rs int64) {
			if n*e&15 == 0 && (uintptr(dp)+uintptr(d*e))&15 == 0 { // whole 16-byte chunks: one call
				copyRows(unsafe.Add(dp, d*e), unsafe.Add(sp, off*e), int(n*e/16), int(rows), int(rs*e), useAVX)
				return
			}
			// Per row, the partial lines at the ends with plain stores (an
			// assembly loop that did the same was slower on 240-byte rows:
			// 0.38 against 0.65 x memcpy).
			for r := range rows {
				o := (off + r*rs) * e
				ntWrite(dp, (d+r*n)*e, src[o:o+n*e])
			}
		})
		sfence()
		return 0
	}
	if x.kind != kindRev {
		return x.streamGather(dst, src, first, cnt)
	}
	revLines := [...]func(dst, srcLow unsafe.Pointer, lines, rows, srcStride int){1: revLines1, 2: revLines2, 4: revLines4, 8: revLines8}[e]
	sp := base(src)
	per := 64 / e // elements per line
	p.walkRange(first, cnt, func(d, off, n, rows, rs int64) {
		if n%per == 0 && (uintptr(dp)+uintptr(d*e))&63 == 0 { // whole lines: one call
			revLines(unsafe.Add(dp, d*e), unsafe.Add(sp, (off-n+1)*e), int(n/per), int(rows), int(rs*e))
			return
		}
		sink += x.perRow(dst, src, d, off, n, rows, rs, 64, per, func(q, o, lines int64) {
			revLines(unsafe.Add(dp, q*e), unsafe.Add(sp, (o-lines*per+1)*e), int(lines), 1, 0)
		})
	})
	sfence()
	return sink
}

// Streamed tiles: the plane of the tile dimension a and the inner one is
// cut into blocks of streamBlock(e) x streamBlock(e) elements, whose src
// and dst pages together fit the TLB (a sweep of whole rows of tiles
// touched every page of dst once per row: a page walk per tile row). A
// block is copied in tiles of streamTileA elements along a by
// streamTileBytes of inner elements, each gathered into a buffer in L1 and
// written out in whole lines, while the next tile's src lines are read
// ahead.
var (
	streamTileA      int64 = 64
	streamTileBytes  int64 = 256
	streamBlockBytes int64 = 2048
)

// streamBlock is the side of a block: 2 KiB of elements, at most 1024.
func streamBlock(e int64) int64 { return max(min(streamBlockBytes/e, 1024), 1) }

// streamTiles executes the tile mode's units (blocks) [first, first+cnt)
// through a staging buffer.
func (x *exec) streamTiles(dst, src []byte, first, cnt int64) (sink uint64) {
	p := &x.p
	var stage [64 * 1024]byte
	e := x.e
	na, sa, da, sbk := p.size[x.a], p.stride[x.a], x.da, x.ta
	nb, sb := p.size[p.rank-1], p.stride[p.rank-1]
	tb := max(streamTileBytes/e, 1)
	ta := max(min(streamTileA, int64(len(stage))/(tb*e)), 1) // a tile fits stage
	dp, sp := base(dst), base(src)
	// staged copies the n x m tile at src element off, dst element doff.
	staged := func(off, doff, n, m int64) {
		switch e {
		case 1:
			tileStage[uint8](stage[:], src, off, sa, sb, n, m)
		case 2:
			tileStage[uint16](stage[:], src, off, sa, sb, n, m)
		case 4:
			tileStage[uint32](stage[:], src, off, sa, sb, n, m)
		default:
			tileStage[uint64](stage[:], src, off, sa, sb, n, m)
		}
		row := m * e
		for a := range n {
			ntWrite(dp, (doff+a*da)*e, stage[a*row:(a+1)*row])
		}
	}
	// 4-byte elements contiguous along a, and dst rows on 16-byte
	// boundaries: 4x4 transposes in registers, straight to dst.
	simd := e == 4 && sa == 1 && da*e%16 == 0
	x.lp.run(first, cnt, p.base, func(boff, bdoff, ca, cb int64) {
		bna, bnb := min(sbk, na-ca*sbk), min(sbk, nb-cb*sbk) // this block
		b0 := int64(0)
		if simd && (uintptr(dp)+uintptr(bdoff*e))&15 == 0 {
			a4 := bna &^ 3
			for ; b0+16 <= bnb; b0 += 16 {
				transpose4x16(unsafe.Add(dp, (bdoff+b0)*e), int(da*e), unsafe.Add(sp, (boff+b0*sb)*e), int(sb*e), int(a4))
				if a4 < bna {
					staged(boff+a4*sa+b0*sb, bdoff+a4*da+b0, bna-a4, 16)
				}
			}
		}
		for ; b0 < bnb; b0 += tb {
			m := min(tb, bnb-b0)
			for a0 := int64(0); a0 < bna; a0 += ta {
				n := min(ta, bna-a0)
				off, doff := boff+a0*sa+b0*sb, bdoff+a0*da+b0
				if next := min(ta, bna-a0-ta); next > 0 {
					// Read the next tile's lines ahead (loads: prefetch
					// instructions, which the hardware may drop, did worse).
					sink += touchBlock(src, e, off+ta*sa, sa, sb, next, m, max(64/max(abs(sa)*e, 1), 1))
				}
				staged(off, doff, n, m)
			}
		}
	})
	sfence()
	return sink
}

// perRow executes rows rows of n elements (row r: dst element d+r*n on,
// src element off+r*rs on, the plan's inner step) one at a time: the
// elements before dst's next align-byte boundary and after the last whole
// unit of per elements with the plain row kernel, the units between with
// body(dst element, src element, units).
func (x *exec) perRow(dst, src []byte, d, off, n, rows, rs, align, per int64, body func(q, o, units int64)) (sink uint64) {
	e, k, s := x.e, x.kind, x.p.stride[x.p.rank-1]
	dp := base(dst)
	for r := range rows {
		q, o := d+r*n, off+r*rs
		h := min(int64(-(uintptr(dp)+uintptr(q*e))&uintptr(align-1))/e, n)
		if h > 0 {
			sink += rowsKernel(k, e, dst, src, q, o, h, s, 1, 0, 0)
		}
		units := (n - h) / per
		if units > 0 {
			body(q+h, o+h*s, units)
		}
		if t := n - h - units*per; t > 0 {
			j := h + units*per
			sink += rowsKernel(k, e, dst, src, q+j, o+j*s, t, s, 1, 0, 0)
		}
	}
	return sink
}

// revRows4 reverses rows of 4-byte elements whose length is a multiple of
// four with revChunks4: dst[d+r*n+j] = src[off+r*rs-j].
func revRows4(dst, src []byte, d, off, n, rows, rs int64) {
	revChunks4(unsafe.Add(base(dst), d*4), unsafe.Add(base(src), (off-n+1)*4), int(n/4), int(rows), int(rs*4))
}

// streamGather executes the rows mode's units [first, first+cnt) of a plan
// of 4- or 8-byte elements with an inner step other than +-1: whole
// 16-byte chunks of dst gathered in SSE registers and written with
// non-temporal stores, the elements before the first and after the last
// whole chunk of a row with plain ones.
func (x *exec) streamGather(dst, src []byte, first, cnt int64) (sink uint64) {
	p := &x.p
	e, s := x.e, p.stride[p.rank-1]
	gather := gatherRows8
	if e == 4 {
		gather = gatherRows4
	}
	dp, sp := base(dst), base(src)
	if e == 4 && s == 2 && useAVX512 {
		p.walkRange(first, cnt, func(d, off, n, rows, rs int64) { sink += x.evenRows4(dst, src, d, off, n, rows, rs) })
		sfence()
		return sink
	}
	per := 16 / e // elements per chunk
	p.walkRange(first, cnt, func(d, off, n, rows, rs int64) {
		if n%per == 0 && (uintptr(dp)+uintptr(d*e))&15 == 0 { // whole chunks: one call
			gather(unsafe.Add(dp, d*e), unsafe.Add(sp, off*e), int(n/per), int(rows), int(rs*e), int(s*e))
			return
		}
		sink += x.perRow(dst, src, d, off, n, rows, rs, 16, per, func(q, o, chunks int64) {
			gather(unsafe.Add(dp, q*e), unsafe.Add(sp, o*e), int(chunks), 1, 0, int(s*e))
		})
	})
	sfence()
	return sink
}

// evenRows4 streams rows of 4-byte elements at a step of 2 (C3: every
// other element) with evenLines4, one 64-byte line of dst from two 64-byte
// loads of src: rows rows of n elements, dst element d+r*n on, src element
// off+r*rs on. A line reads one element past the last it keeps, which for
// a row's last line may lie past src: that line is gathered by
// gatherRows4, which reads only the elements it keeps.
func (x *exec) evenRows4(dst, src []byte, d, off, n, rows, rs int64) (sink uint64) {
	dp, sp, elems := base(dst), base(src), int64(len(src))/4
	// The highest element a batch's lines read is one past the last
	// element of its highest row.
	hiRow := off + max(rs*(rows-1), 0)
	if n%16 == 0 && (uintptr(dp)+uintptr(d*4))&63 == 0 && hiRow+2*n <= elems { // whole lines: one call
		evenLines4(unsafe.Add(dp, d*4), unsafe.Add(sp, off*4), int(n/16), int(rows), int(rs*4))
		return 0
	}
	return x.perRow(dst, src, d, off, n, rows, rs, 64, 16, func(q, o, lines int64) {
		if o+32*lines > elems {
			lines--
			gatherRows4(unsafe.Add(dp, (q+16*lines)*4), unsafe.Add(sp, (o+32*lines)*4), 4, 1, 0, 8)
		}
		evenLines4(unsafe.Add(dp, q*4), unsafe.Add(sp, o*4), int(lines), 1, 0)
	})
}

// scatterAhead is how many elements ahead of the block it copies
// streamScatter asks for src lines: 14 of R8's blocks of 256, which did
// better than 7, 21, 28 or 56, and PREFETCHT1 (into L2) better than
// PREFETCHT0 (docs/benchmarks.md at b579cd6, "R8 with its rows asked for
// ahead").
const scatterAhead = 14 * 256

// streamScatter is scatterRun through a buffer: each block is gathered
// into stage, extra dimension outermost, and written out as its ne runs of
// nt elements, ds elements apart in dst.
func streamScatter[T elem](dst, src []byte, lp *loop, first, cnt, start int64, st, sp []int32, ne, nt, ds int64) {
	var stage [maxScatter * 8]byte
	sz := int64(unsafe.Sizeof(T(0)))
	var coord [maxDims + 1]int64
	off, doff := start, int64(0)
	if lp.n > 0 {
		off, doff = lp.start(first, start, &coord)
	}
	dp, run := base(dst), nt*sz
	// A second odometer runs ahead blocks in front and asks for the line
	// of each of that block's rows. The rows are far apart (R8: 64 rows
	// 2 KiB and 1 MiB apart), more streams than the hardware prefetchers
	// follow, so without it every block's loads wait on memory.
	ahead := max(1, scatterAhead/int64(len(st)))
	var ac [maxDims + 1]int64
	pre, aoff := int64(0), int64(0)
	if lp.n > 0 && cnt > ahead {
		pre = cnt - ahead
		aoff, _ = lp.start(first+ahead, start, &ac)
	}
	sb := base(src)
	for {
		if pre > 0 {
			prefetchRows(unsafe.Add(sb, aoff*sz), &st[0], int(nt), int(ne))
			aoff, _ = lp.step(&ac, aoff, 0)
			pre--
		}
		scatterBlock[T](stage[:], src, 0, off*sz, st, sp)
		for c := range ne {
			ntWrite(dp, (doff+c*ds)*sz, stage[c*run:(c+1)*run])
		}
		if cnt--; cnt == 0 {
			break
		}
		off, doff = lp.step(&coord, off, doff)
	}
	sfence()
}

// streamTo writes b to dst from byte q as ntWrite does, after the bounds
// check that ntWrite leaves to its callers: AxisCopy's runs. The caller
// calls sfence after its last.
func streamTo(dst []byte, q int64, b []byte) {
	if len(b) == 0 {
		return
	}
	_ = dst[q : q+int64(len(b))]
	ntWrite(unsafe.Pointer(unsafe.SliceData(dst)), q, b)
}
