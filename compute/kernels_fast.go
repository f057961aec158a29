package compute

// This file holds the package's unsafe kernels (stream.go and
// stream_amd64.s hold the non-temporal writes). Each kernel reads
// src only at offsets of the walk being executed, or (the reverse and
// step-2 kernels, which move 8-byte words) at bytes between two offsets of
// the same row; it writes dst only inside the range of the batch it was
// handed, and reads dst (the read-ahead touches) only inside that range
// too, so goroutines that own other ranges are never read. Copy,
// CopyParallel and Slice prove once per call, before any kernel runs, that
// minOff >= 0, (maxOff+1)*elemSize <= len(src) and len(dst) ==
// count*elemSize, which bounds every access below. The kernels run only
// where fastArch holds (little-endian, unaligned loads allowed), since
// they combine or split elements inside 64-bit words; checkptr accepts
// their unaligned pointer-free loads.

import (
	"math/bits"
	"runtime"
	"unsafe"
)

// fastArch: little-endian 64-bit architectures with cheap unaligned loads.
const fastArch = runtime.GOARCH == "amd64" || runtime.GOARCH == "arm64"

// useFast selects the unsafe kernels; the tests turn it off to run the
// safe ones.
var useFast = fastArch

// touchDist is how far ahead of the row being written the copy and gather
// kernels read one byte of each 64-byte line of dst (below end, the end of
// the batch of rows being executed, which no other goroutine writes): the
// load brings the line into the cache before it is written, a prefetch
// for writing that the hardware does not do for short rows (C1: 0.70 ->
// 0.84 x memcpy in a test of 960-byte rows). Longer rows are executed in
// pieces (see piece). The load brings the line
// into the cache before it is written, so the store does not wait for it:
// a prefetch for writing that the hardware does not do for short or
// reversed rows.
var touchDist int64 = 4096

// touch loads one byte of each 64-byte line starting in [a, b) of the
// block at p.
func touch(p unsafe.Pointer, a, b int64) (sink uint64) {
	for x := (a + 63) &^ 63; x < b; x += 64 {
		sink += uint64(*(*uint8)(unsafe.Add(p, x)))
	}
	return sink
}

type elem interface {
	~uint8 | ~uint16 | ~uint32 | ~uint64
}

func base(b []byte) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(b)) }

func ld32(p unsafe.Pointer, byteOff int64) uint32 { return *(*uint32)(unsafe.Add(p, byteOff)) }
func ld64(p unsafe.Pointer, byteOff int64) uint64 { return *(*uint64)(unsafe.Add(p, byteOff)) }
func st64(p unsafe.Pointer, byteOff int64, v uint64) {
	*(*uint64)(unsafe.Add(p, byteOff)) = v
}

// swap16 reverses the four 16-bit lanes of a word.
func swap16(x uint64) uint64 {
	x = bits.RotateLeft64(x, 32)
	return (x>>16)&0x0000ffff0000ffff | (x&0x0000ffff0000ffff)<<16
}

// The reverse kernels read each row upwards from its lowest address and
// write dst downwards from the end of the row, and for every 64 bytes they
// write, read one byte of the next row of dst (same relative position) when
// it is in the batch. Of the orders and distances tried, this was the
// fastest (0.72-0.76 x memcpy on 256 B-4 KiB rows against 0.57-0.65
// without the interleaved read-ahead): the hardware prefetcher does not
// follow short backward or zig-zag rows, and the early read brings the
// dst line in before it is written.

// rev1 reverses rows of 1-byte elements: dst[d+r*n+j] = src[off+r*rs-j].
func rev1(dst, src []byte, d, off, n, rows, rs, end int64) (sink uint64) {
	dp, sp := base(dst), base(src)
	for r := range rows {
		o := off + r*rs
		lo := o - n + 1
		q := d + r*n
		t := q // the next row when it is in the batch, else this one
		if q+2*n <= end {
			t = q + n
		}
		k := int64(0)
		for ; k+64 <= n; k += 64 {
			p := lo + k
			x0, x1, x2, x3 := ld64(sp, p), ld64(sp, p+8), ld64(sp, p+16), ld64(sp, p+24)
			x4, x5, x6, x7 := ld64(sp, p+32), ld64(sp, p+40), ld64(sp, p+48), ld64(sp, p+56)
			sink += uint64(*(*uint8)(unsafe.Add(dp, t+k)))
			w := q + n - k - 64
			st64(dp, w, bits.ReverseBytes64(x7))
			st64(dp, w+8, bits.ReverseBytes64(x6))
			st64(dp, w+16, bits.ReverseBytes64(x5))
			st64(dp, w+24, bits.ReverseBytes64(x4))
			st64(dp, w+32, bits.ReverseBytes64(x3))
			st64(dp, w+40, bits.ReverseBytes64(x2))
			st64(dp, w+48, bits.ReverseBytes64(x1))
			st64(dp, w+56, bits.ReverseBytes64(x0))
		}
		// The first m = n-k elements of the row are left.
		m, j := n-k, int64(0)
		for ; j+8 <= m; j += 8 {
			st64(dp, q+j, bits.ReverseBytes64(ld64(sp, o-j-7)))
		}
		for ; j < m; j++ {
			*(*uint8)(unsafe.Add(dp, q+j)) = *(*uint8)(unsafe.Add(sp, o-j))
		}
	}
	return sink
}

// rev2 reverses rows of 2-byte elements.
func rev2(dst, src []byte, d, off, n, rows, rs, end int64) (sink uint64) {
	dp, sp := base(dst), base(src)
	for r := range rows {
		o := off + r*rs
		lo := o - n + 1
		q := (d + r*n) * 2
		t := q // the next row when it is in the batch, else this one
		if q+2*n*2 <= end {
			t = q + n*2
		}
		k := int64(0)
		for ; k+32 <= n; k += 32 {
			p := (lo + k) * 2
			x0, x1, x2, x3 := ld64(sp, p), ld64(sp, p+8), ld64(sp, p+16), ld64(sp, p+24)
			x4, x5, x6, x7 := ld64(sp, p+32), ld64(sp, p+40), ld64(sp, p+48), ld64(sp, p+56)
			sink += uint64(*(*uint8)(unsafe.Add(dp, t+k*2)))
			w := q + (n-k-32)*2
			st64(dp, w, swap16(x7))
			st64(dp, w+8, swap16(x6))
			st64(dp, w+16, swap16(x5))
			st64(dp, w+24, swap16(x4))
			st64(dp, w+32, swap16(x3))
			st64(dp, w+40, swap16(x2))
			st64(dp, w+48, swap16(x1))
			st64(dp, w+56, swap16(x0))
		}
		m, j := n-k, int64(0)
		for ; j+4 <= m; j += 4 {
			st64(dp, q+j*2, swap16(ld64(sp, (o-j-3)*2)))
		}
		for ; j < m; j++ {
			*(*uint16)(unsafe.Add(dp, q+j*2)) = *(*uint16)(unsafe.Add(sp, (o-j)*2))
		}
	}
	return sink
}

// rev4 reverses rows of 4-byte elements.
func rev4(dst, src []byte, d, off, n, rows, rs, end int64) (sink uint64) {
	dp, sp := base(dst), base(src)
	for r := range rows {
		o := off + r*rs
		lo := o - n + 1
		q := (d + r*n) * 4
		t := q // the next row when it is in the batch, else this one
		if q+2*n*4 <= end {
			t = q + n*4
		}
		k := int64(0)
		for ; k+16 <= n; k += 16 {
			p := (lo + k) * 4
			x0, x1, x2, x3 := ld64(sp, p), ld64(sp, p+8), ld64(sp, p+16), ld64(sp, p+24)
			x4, x5, x6, x7 := ld64(sp, p+32), ld64(sp, p+40), ld64(sp, p+48), ld64(sp, p+56)
			sink += uint64(*(*uint8)(unsafe.Add(dp, t+k*4)))
			w := q + (n-k-16)*4
			st64(dp, w, bits.RotateLeft64(x7, 32))
			st64(dp, w+8, bits.RotateLeft64(x6, 32))
			st64(dp, w+16, bits.RotateLeft64(x5, 32))
			st64(dp, w+24, bits.RotateLeft64(x4, 32))
			st64(dp, w+32, bits.RotateLeft64(x3, 32))
			st64(dp, w+40, bits.RotateLeft64(x2, 32))
			st64(dp, w+48, bits.RotateLeft64(x1, 32))
			st64(dp, w+56, bits.RotateLeft64(x0, 32))
		}
		m, j := n-k, int64(0)
		for ; j+2 <= m; j += 2 {
			st64(dp, q+j*4, bits.RotateLeft64(ld64(sp, (o-j-1)*4), 32))
		}
		if j < m {
			*(*uint32)(unsafe.Add(dp, q+j*4)) = ld32(sp, (o-j)*4)
		}
	}
	return sink
}

// rev8 reverses rows of 8-byte elements.
func rev8(dst, src []byte, d, off, n, rows, rs, end int64) (sink uint64) {
	dp, sp := base(dst), base(src)
	for r := range rows {
		o := off + r*rs
		lo := o - n + 1
		q := (d + r*n) * 8
		t := q // the next row when it is in the batch, else this one
		if q+2*n*8 <= end {
			t = q + n*8
		}
		k := int64(0)
		for ; k+8 <= n; k += 8 {
			p := (lo + k) * 8
			x0, x1, x2, x3 := ld64(sp, p), ld64(sp, p+8), ld64(sp, p+16), ld64(sp, p+24)
			x4, x5, x6, x7 := ld64(sp, p+32), ld64(sp, p+40), ld64(sp, p+48), ld64(sp, p+56)
			sink += uint64(*(*uint8)(unsafe.Add(dp, t+k*8)))
			w := q + (n-k-8)*8
			st64(dp, w, x7)
			st64(dp, w+8, x6)
			st64(dp, w+16, x5)
			st64(dp, w+24, x4)
			st64(dp, w+32, x3)
			st64(dp, w+40, x2)
			st64(dp, w+48, x1)
			st64(dp, w+56, x0)
		}
		for j := range n - k {
			st64(dp, q+j*8, ld64(sp, (o-j)*8))
		}
	}
	return sink
}

// gatherRows copies rows with any inner step s:
// dst[d+r*n+j] = src[off+r*rs+j*s], unrolled by four.
func gatherRows[T elem](dst, src []byte, d, off, n, s, rows, rs, end int64) (sink uint64) {
	sz := int64(unsafe.Sizeof(T(0)))
	dp, sp := base(dst), base(src)
	for r := range rows {
		o := (off + r*rs) * sz
		qo := (d + r*n) * sz
		sink += touch(dp, qo+touchDist, min(qo+touchDist+n*sz, end))
		gatherRun[T](unsafe.Add(dp, qo), sp, o, s*sz, sz, n)
	}
	return sink
}

// gatherRun copies n elements of type T, the first at byte o of sp and
// each next one bs bytes on, to q and every qs bytes after it, four at a
// time (the loads before the stores).
func gatherRun[T elem](q, sp unsafe.Pointer, o, bs, qs, n int64) {
	j := int64(0)
	for ; j+4 <= n; j += 4 {
		v0 := *(*T)(unsafe.Add(sp, o))
		v1 := *(*T)(unsafe.Add(sp, o+bs))
		v2 := *(*T)(unsafe.Add(sp, o+2*bs))
		v3 := *(*T)(unsafe.Add(sp, o+3*bs))
		w := unsafe.Add(q, j*qs)
		*(*T)(w) = v0
		*(*T)(unsafe.Add(w, qs)) = v1
		*(*T)(unsafe.Add(w, 2*qs)) = v2
		*(*T)(unsafe.Add(w, 3*qs)) = v3
		o += 4 * bs
	}
	for ; j < n; j++ {
		*(*T)(unsafe.Add(q, j*qs)) = *(*T)(unsafe.Add(sp, o))
		o += bs
	}
}

// gather4 is gatherRows for 4-byte elements, pairing elements into 8-byte
// stores.
func gather4(dst, src []byte, d, off, n, s, rows, rs, end int64) (sink uint64) {
	dp, sp := base(dst), base(src)
	bs := s * 4
	for r := range rows {
		o := (off + r*rs) * 4
		q := (d + r*n) * 4
		t := q // read-ahead: the next row when it is in the batch
		if q+2*n*4 <= end {
			t = q + n*4
		}
		j := int64(0)
		for ; j+16 <= n; j += 16 {
			sink += uint64(*(*uint8)(unsafe.Add(dp, t+j*4)))
			for k := int64(0); k < 16; k += 4 {
				v0, v1 := ld32(sp, o), ld32(sp, o+bs)
				v2, v3 := ld32(sp, o+2*bs), ld32(sp, o+3*bs)
				st64(dp, q+(j+k)*4, uint64(v0)|uint64(v1)<<32)
				st64(dp, q+(j+k)*4+8, uint64(v2)|uint64(v3)<<32)
				o += 4 * bs
			}
		}
		for ; j < n; j++ {
			*(*uint32)(unsafe.Add(dp, q+j*4)) = ld32(sp, o)
			o += bs
		}
	}
	return sink
}

// gather2s2 copies rows of 2-byte elements with step +2: each 8-byte load
// at an element of the walk holds that element and the next one (the load
// stays below the following element of the row, so it is used only while
// one follows).
func gather2s2(dst, src []byte, d, off, n, rows, rs, end int64) (sink uint64) {
	dp, sp := base(dst), base(src)
	const m = 0x0000ffff0000ffff
	for r := range rows {
		o := (off + r*rs) * 2
		q := (d + r*n) * 2
		sink += touch(dp, q+touchDist, min(q+touchDist+n*2, end))
		j := int64(0)
		// Elements j..j+3 sit at o+4j .. o+4j+12 bytes; the second load
		// reads up to byte o+4j+15, below element j+4 (j+4 < n).
		for ; j+4 < n; j += 4 {
			x0 := ld64(sp, o+j*4) & m
			x1 := ld64(sp, o+j*4+8) & m
			x0 = (x0 | x0>>16) & 0xffffffff
			x1 = (x1 | x1>>16) & 0xffffffff
			st64(dp, q+j*2, x0|x1<<32)
		}
		for ; j < n; j++ {
			*(*uint16)(unsafe.Add(dp, q+j*2)) = *(*uint16)(unsafe.Add(sp, o+j*4))
		}
	}
	return sink
}

// gather1s2 copies rows of 1-byte elements with step +2 (see gather2s2).
func gather1s2(dst, src []byte, d, off, n, rows, rs, end int64) (sink uint64) {
	dp, sp := base(dst), base(src)
	for r := range rows {
		o := off + r*rs
		q := d + r*n
		sink += touch(dp, q+touchDist, min(q+touchDist+n*1, end))
		j := int64(0)
		// Elements j..j+7 sit at bytes o+2j .. o+2j+14; the loads read up
		// to o+2j+15, below element j+8 (j+8 < n).
		for ; j+8 < n; j += 8 {
			x0 := pack8(ld64(sp, o+j*2))
			x1 := pack8(ld64(sp, o+j*2+8))
			st64(dp, q+j, x0|x1<<32)
		}
		for ; j < n; j++ {
			*(*uint8)(unsafe.Add(dp, q+j)) = *(*uint8)(unsafe.Add(sp, o+j*2))
		}
	}
	return sink
}

// pack8 gathers the even bytes of x into its low 32 bits.
func pack8(x uint64) uint64 {
	x &= 0x00ff00ff00ff00ff
	x = (x | x>>8) & 0x0000ffff0000ffff
	return (x | x>>16) & 0xffffffff
}

// tileBlock copies an na x nb block: dst[doff+a*da+b] = src[off+a*sa+b*sb].
// The b range is cut into chunks of 32 so that the src lines of a chunk
// (one per b) stay in L1 while a runs over them.
func tileBlock[T elem](dst, src []byte, doff, da, off, sa, sb, na, nb int64) {
	const chunk = 32
	sz := int64(unsafe.Sizeof(T(0)))
	dp, sp := base(dst), base(src)
	bsb := sb * sz
	for b0 := int64(0); b0 < nb; b0 += chunk {
		bn := min(chunk, nb-b0)
		for a := range na {
			q := unsafe.Add(dp, (doff+a*da+b0)*sz)
			o := (off + a*sa + b0*sb) * sz
			b := int64(0)
			for ; b+4 <= bn; b += 4 {
				v0 := *(*T)(unsafe.Add(sp, o))
				v1 := *(*T)(unsafe.Add(sp, o+bsb))
				v2 := *(*T)(unsafe.Add(sp, o+2*bsb))
				v3 := *(*T)(unsafe.Add(sp, o+3*bsb))
				w := unsafe.Add(q, b*sz)
				*(*T)(w) = v0
				*(*T)(unsafe.Add(w, sz)) = v1
				*(*T)(unsafe.Add(w, 2*sz)) = v2
				*(*T)(unsafe.Add(w, 3*sz)) = v3
				o += 4 * bsb
			}
			for ; b < bn; b++ {
				*(*T)(unsafe.Add(q, b*sz)) = *(*T)(unsafe.Add(sp, o))
				o += bsb
			}
		}
	}
}

// touchBlock reads elements a = 0, step, 2*step, ... < na of each row b
// < nb of the block at src element off (element off+a*sa+b*sb), so that
// their lines are on their way into the cache before the block is copied.
func touchBlock(src []byte, e, off, sa, sb, na, nb, step int64) (sink uint64) {
	sp := base(src)
	for b := range nb {
		for a := int64(0); a < na; a += step {
			sink += uint64(*(*uint8)(unsafe.Add(sp, (off+a*sa+b*sb)*e)))
		}
	}
	return sink
}

// tileStage gathers an na x nb block into stage, row after row:
// stage[a*nb+b] = src[off+a*sa+b*sb]. It reads along a, the dimension
// whose neighbours share a line of src, and writes stage's columns, which
// stay in L1.
func tileStage[T elem](stage, src []byte, off, sa, sb, na, nb int64) {
	sz := int64(unsafe.Sizeof(T(0)))
	qp, sp := base(stage), base(src)
	rs := nb * sz // a stage row
	bsa := sa * sz
	for b := range nb {
		gatherRun[T](unsafe.Add(qp, b*sz), sp, (off+b*sb)*sz, bsa, rs, na)
	}
}

// tableBlock gathers one block through its table of byte offsets:
// dst[doff+j] = the element tbl[j] bytes from src element off. off is an
// offset of the walk (the table starts with 0) and every off+tbl[j] is
// one, so p and each address stay inside src.
func tableBlock[T elem](dst, src []byte, doff, off int64, tbl []int32) {
	sz := int64(unsafe.Sizeof(T(0)))
	p := unsafe.Add(base(src), off*sz)
	q := unsafe.Add(base(dst), doff*sz)
	for len(tbl) >= 8 {
		v0 := *(*T)(unsafe.Add(p, tbl[0]))
		v1 := *(*T)(unsafe.Add(p, tbl[1]))
		v2 := *(*T)(unsafe.Add(p, tbl[2]))
		v3 := *(*T)(unsafe.Add(p, tbl[3]))
		v4 := *(*T)(unsafe.Add(p, tbl[4]))
		v5 := *(*T)(unsafe.Add(p, tbl[5]))
		v6 := *(*T)(unsafe.Add(p, tbl[6]))
		v7 := *(*T)(unsafe.Add(p, tbl[7]))
		*(*T)(q) = v0
		*(*T)(unsafe.Add(q, sz)) = v1
		*(*T)(unsafe.Add(q, 2*sz)) = v2
		*(*T)(unsafe.Add(q, 3*sz)) = v3
		*(*T)(unsafe.Add(q, 4*sz)) = v4
		*(*T)(unsafe.Add(q, 5*sz)) = v5
		*(*T)(unsafe.Add(q, 6*sz)) = v6
		*(*T)(unsafe.Add(q, 7*sz)) = v7
		tbl = tbl[8:]
		if len(tbl) > 0 {
			q = unsafe.Add(q, 8*sz) // stays inside dst
		}
	}
	for i, t := range tbl {
		*(*T)(unsafe.Add(q, int64(i)*sz)) = *(*T)(unsafe.Add(p, t))
	}
}

// tableRun gathers the blocks [first, first+cnt) of the table mode, the
// odometer lp giving each block's src offset (from base) and dst offset,
// in one call (no call per block).
func tableRun[T elem](dst, src []byte, lp *loop, first, cnt, base int64, tbl []int32) {
	if cnt <= 0 {
		return
	}
	var coord [maxDims + 1]int64
	off, doff := base, int64(0)
	if lp.n > 0 {
		off, doff = lp.start(first, base, &coord)
	}
	for {
		tableBlock[T](dst, src, doff, off, tbl)
		if cnt--; cnt == 0 {
			return
		}
		off, doff = lp.step(&coord, off, doff)
	}
}

// scatterRun gathers the blocks [first, first+cnt) of a table block with an
// extra dimension: dst[doff+dt[j]] = src[off+st[j]] (byte offsets), doff
// and off from the odometer lp. Every off+st[j] is an offset of the walk,
// and every doff+dt[j] an element of the block's units in dst.
func scatterRun[T elem](dst, src []byte, lp *loop, first, cnt, start int64, st, dt []int32) {
	if cnt <= 0 {
		return
	}
	sz := int64(unsafe.Sizeof(T(0)))
	var coord [maxDims + 1]int64
	off, doff := start, int64(0)
	if lp.n > 0 {
		off, doff = lp.start(first, start, &coord)
	}
	for {
		scatterBlock[T](dst, src, doff*sz, off*sz, st, dt)
		if cnt--; cnt == 0 {
			return
		}
		off, doff = lp.step(&coord, off, doff)
	}
}

// scatterBlock copies one block: dst[q+dt[j]] = src[o+st[j]], q and o in
// bytes.
func scatterBlock[T elem](dst, src []byte, q, o int64, st, dt []int32) {
	p, d := unsafe.Add(base(src), o), unsafe.Add(base(dst), q)
	dt = dt[:len(st)]
	j := 0
	for ; j+4 <= len(st); j += 4 {
		v0 := *(*T)(unsafe.Add(p, st[j]))
		v1 := *(*T)(unsafe.Add(p, st[j+1]))
		v2 := *(*T)(unsafe.Add(p, st[j+2]))
		v3 := *(*T)(unsafe.Add(p, st[j+3]))
		*(*T)(unsafe.Add(d, dt[j])) = v0
		*(*T)(unsafe.Add(d, dt[j+1])) = v1
		*(*T)(unsafe.Add(d, dt[j+2])) = v2
		*(*T)(unsafe.Add(d, dt[j+3])) = v3
	}
	for ; j < len(st); j++ {
		*(*T)(unsafe.Add(d, dt[j])) = *(*T)(unsafe.Add(p, st[j]))
	}
}

// permRun gathers the blocks [first, first+cnt) of the permute mode, the
// odometer lp giving each block's src offset (from base) and dst offset:
// the block's groups start at the byte offsets starts from its first
// element, and group j goes to dst element doff + j*g. Every window lane
// in lmask lies between two offsets of the walk (the lowest and the
// highest of its group), so inside src; each group writes its own g
// elements of dst.
func permRun(e int64, dst, src []byte, lp *loop, first, cnt, start int64, starts []int32, ctl *[64]byte, g int64, lmask, smask uint64) {
	if cnt <= 0 {
		return
	}
	var coord [maxDims + 1]int64
	off, doff := start, int64(0)
	if lp.n > 0 {
		off, doff = lp.start(first, start, &coord)
	}
	sp, dp := base(src), base(dst)
	for {
		permGroups(unsafe.Add(dp, doff*e), unsafe.Add(sp, off*e), &starts[0], len(starts), ctl, int(g*e), lmask, smask, int(e))
		if cnt--; cnt == 0 {
			return
		}
		off, doff = lp.step(&coord, off, doff)
	}
}

// overlaps reports whether a and b share a byte of memory.
func overlaps(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return false
	}
	pa, pb := uintptr(base(a)), uintptr(base(b))
	return pa < pb+uintptr(len(b)) && pb < pa+uintptr(len(a))
}

// aligned64 reports whether byte off of b is on a 64-byte boundary.
func aligned64(b []byte, off int64) bool {
	return (uintptr(base(b))+uintptr(off))%64 == 0
}

// tileWide copies the ni x no block of e-byte elements (4 or 8) dst[doff
// + i*dI + o] = src[off + i + o*sO] (element offsets; ni and no rounded
// down to multiples of w = 64/e) in w x w transposes of 64-byte rows
// (transpose16x16s4, transpose8x8s8): strips along o for each w
// elements along i when alongO (the writes of a strip run along w output
// rows), strips along i for each w along o otherwise (the reads run along
// w input rows); non-temporal stores when nt. Identity proves the
// block's offsets inside dst and src.
func tileWide(dst, src []byte, e, doff, off, ni, no, sO, dI int64, nt, alongO bool) {
	w := 64 / e
	nw, mw := ni/w, no/w
	if nw == 0 || mw == 0 {
		return
	}
	kernel := transpose16x16s4
	if e == 8 {
		kernel = transpose8x8s8
	}
	dp, sp := base(dst), base(src)
	if alongO {
		for i0 := int64(0); i0 < nw*w; i0 += w {
			kernel(unsafe.Add(dp, (doff+i0*dI)*e), int(dI*e), 64, unsafe.Add(sp, (off+i0)*e), int(sO*e), int(w*sO*e), int(mw), nt)
		}
		return
	}
	for o0 := int64(0); o0 < mw*w; o0 += w {
		kernel(unsafe.Add(dp, (doff+o0)*e), int(dI*e), int(w*dI*e), unsafe.Add(sp, (off+o0*sO)*e), int(sO*e), 64, int(nw), nt)
	}
}

// tileKernel copies the ni x no block dst[doff + i*dI + o*dO] = src[off
// + i*sI + o*sO] (element offsets) in tiles of t elements along i by no
// along o (see tileAny). Addresses are formed only for elements of the
// block.
func tileKernel[T elem](dst, src []byte, doff, off, ni, no, sI, sO, dI, dO, t int64) {
	sz := int64(unsafe.Sizeof(T(0)))
	dp, sp := base(dst), base(src)
	bsI, bdI, bsO, bdO := sI*sz, dI*sz, sO*sz, dO*sz
	for i0 := int64(0); i0 < ni; i0 += t {
		n := min(t, ni-i0)
		q0, s0 := (doff+i0*dI)*sz, (off+i0*sI)*sz
		for o := range no {
			q, s := q0+o*bdO, s0+o*bsO
			i := int64(0)
			for ; i+4 <= n; i += 4 {
				v0 := *(*T)(unsafe.Add(sp, s))
				v1 := *(*T)(unsafe.Add(sp, s+bsI))
				v2 := *(*T)(unsafe.Add(sp, s+2*bsI))
				v3 := *(*T)(unsafe.Add(sp, s+3*bsI))
				*(*T)(unsafe.Add(dp, q)) = v0
				*(*T)(unsafe.Add(dp, q+bdI)) = v1
				*(*T)(unsafe.Add(dp, q+2*bdI)) = v2
				*(*T)(unsafe.Add(dp, q+3*bdI)) = v3
				s += 4 * bsI
				q += 4 * bdI
			}
			for ; i < n; i++ {
				*(*T)(unsafe.Add(dp, q)) = *(*T)(unsafe.Add(sp, s))
				s += bsI
				q += bdI
			}
		}
	}
}
