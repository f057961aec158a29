package compute

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/stridescope/stridescope/core"
)

// ParallelMinBytes is the output size from which CopyParallel splits the
// work across goroutines.
const ParallelMinBytes = 1 << 20

// How a plan is executed (see the package comment).
type mode uint8

const (
	modeRows mode = iota
	modeTable
	modeTile
	modePerm
)

func (m mode) String() string {
	return [...]string{"rows", "table", "tile", "permute"}[m]
}

// Row kernels, chosen once per call from the element size and inner step.
type kind uint8

const (
	kindSafe kind = iota
	kindFwd
	kindRev
	kindGather
	kindGather4
	kindStep2
)

// fwdWhole is the row length from which a unit-step row is one copy().
var fwdWhole int64 = 16 << 10

// piece is the length in bytes of the pieces long rows are cut into.
var piece int64 = 4096

// parallelMin is ParallelMinBytes; the tests lower it.
var parallelMin int64 = ParallelMinBytes

// maxTable is the largest block the table mode tabulates (int32 offsets,
// so that the table the call zeroes on its stack stays small).
const maxTable = 128

// maxScatter is the largest block of the table mode with an extra
// dimension (two int32 tables on the stack).
const maxScatter = 512

// forceMode lets the tests run every mode that applies to a plan.
var forceMode = -1

// loop is an odometer over a subset of the plan's dimensions (and, in tile
// mode, over the tiles of one of them), tracking the src offset and the
// dst offset of each unit.
type loop struct {
	n       int
	size    [maxDims]int64
	sstride [maxDims]int64
	dstride [maxDims]int64
}

func (l *loop) add(size, sstride, dstride int64) {
	l.size[l.n], l.sstride[l.n], l.dstride[l.n] = size, sstride, dstride
	l.n++
}

func (l *loop) units() int64 {
	u := int64(1)
	for i := range l.n {
		u *= l.size[i]
	}
	return u
}

// run visits the units [first, first+cnt) in row-major order, passing
// each unit's offsets and the coordinates of the two innermost loop
// dimensions (c1 the innermost).
func (l *loop) run(first, cnt, off int64, visit func(off, doff, c1, c2 int64)) {
	if l.n == 0 {
		visit(off, 0, 0, 0)
		return
	}
	// coord[d+1] is the coordinate of loop dimension d; coord[0] stays 0
	// so that c2 exists when there is one loop dimension.
	var coord [maxDims + 1]int64
	off, doff := l.start(first, off, &coord)
	in := l.n - 1
	for {
		visit(off, doff, coord[in+1], coord[in])
		if cnt--; cnt == 0 {
			return
		}
		off, doff = l.step(&coord, off, doff)
	}
}

// start returns the odometer state of unit first: the coordinates
// (coord[d+1] for loop dimension d, as in run) and the offsets.
func (l *loop) start(first, off int64, coord *[maxDims + 1]int64) (int64, int64) {
	var doff int64
	u := first
	for d := l.n - 1; d >= 0 && u != 0; d-- {
		c := u % l.size[d]
		u /= l.size[d]
		coord[d+1] = c
		off += c * l.sstride[d]
		doff += c * l.dstride[d]
	}
	return off, doff
}

// step moves the odometer started by start on by one unit (l.n >= 1).
func (l *loop) step(coord *[maxDims + 1]int64, off, doff int64) (int64, int64) {
	in := l.n - 1
	coord[in+1]++
	off += l.sstride[in]
	doff += l.dstride[in]
	for d := in; d > 0 && coord[d+1] == l.size[d]; d-- {
		off -= coord[d+1] * l.sstride[d]
		doff -= coord[d+1] * l.dstride[d]
		coord[d+1] = 0
		coord[d]++
		off += l.sstride[d-1]
		doff += l.dstride[d-1]
	}
	return off, doff
}

// exec is a plan with its execution strategy, built once per call.
type exec struct {
	p     plan
	e     int64
	mode  mode
	kind  kind
	units int64
	lp    loop
	// table mode: the block is dimensions k..rank-1, and dimension extra
	// (< k) when it is not -1.
	k     int
	blk   int64
	extra int
	// tile mode: tiles of ta elements along dimension a by tb elements
	// along the inner dimension; da is a's dst stride.
	a, ta, tb int64
	da        int64
	// stream: dst written with non-temporal stores (see streams).
	stream bool
	// permute mode (perm.go): groups of g elements, dimensions gk..rank-1,
	// spanning gspan elements from the group's lowest offset, which is
	// gmin elements from its first; k..gk-1 (blk/g groups) are tabulated.
	g, gspan, gmin int64
	gk             int
}

func abs(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// prepare checks the buffers against the plan and chooses the execution.
func (x *exec) prepare(dst, src []byte, elemSize int) error {
	p := &x.p
	switch elemSize {
	case 1, 2, 4, 8:
	default:
		return fmt.Errorf("%w: element size %d is not 1, 2, 4 or 8 bytes", ErrInvalidWalk, elemSize)
	}
	e := int64(elemSize)
	x.e = e
	if int64(len(dst)) != p.count*e {
		return fmt.Errorf("compute: dst has %d bytes, the walk writes %d elements of %d bytes", len(dst), p.count, e)
	}
	if p.count == 0 {
		return nil
	}
	if p.minOff < 0 || p.maxOff >= int64(len(src))/e {
		return fmt.Errorf("%w: offsets %d..%d, src holds %d elements of %d bytes", ErrOutOfBounds, p.minOff, p.maxOff, int64(len(src))/e, e)
	}
	x.choose()
	if x.stream = x.streams(dst); x.stream && x.mode == modeTile {
		x.setTile(int(x.a)) // the streaming tile sizes
	}
	return nil
}

// streams reports whether the plan's writes are streamed (see stream.go):
// a large output of tiles, of table blocks with an extra dimension, or of
// rows that an SSE2 kernel writes (unit-step rows below the 1 MiB from
// which copy() streams them itself; reversed rows; strided 4- and 8-byte
// elements), dst holding whole elements.
func (x *exec) streams(dst []byte) bool {
	p := &x.p
	if !haveSSE || !useFast || p.count*x.e < streamMin {
		return false
	}
	if x.mode == modeTile || x.mode == modeTable && x.extra >= 0 {
		return true
	}
	if x.mode != modeRows {
		return false
	}
	switch x.kind {
	case kindFwd:
		return p.size[p.rank-1]*x.e < 1<<20
	case kindRev, kindGather4: // whole elements in each line of dst
		return uintptr(base(dst))%uintptr(x.e) == 0
	case kindGather:
		return x.e == 8 && uintptr(base(dst))%8 == 0
	}
	return false
}

// choose picks the mode and the row kernel.
func (x *exec) choose() {
	p := &x.p
	e := x.e
	r := p.rank
	L, s := p.size[r-1], p.stride[r-1]
	x.mode, x.units = modeRows, p.count
	switch {
	case !useFast:
		x.kind = kindSafe
	case s == 1:
		x.kind = kindFwd
	case s == -1:
		x.kind = kindRev
	case s == 2 && e <= 2:
		x.kind = kindStep2
	case e == 4:
		x.kind = kindGather4
	default:
		x.kind = kindGather
	}
	if !useFast || r < 2 || forceMode == int(modeRows) {
		return
	}
	// Tile: every inner element on its own cache line, and an outer
	// dimension whose neighbours share one.
	if forceMode < 0 && abs(s)*e >= 64 && L >= 4 || forceMode == int(modeTile) {
		a := -1
		for i := range r - 1 {
			st := abs(p.stride[i])
			// ... and whose elements fill at least a line: R8's dimension
			// of 4 elements 8 bytes apart made tiles of 32 elements, and
			// the tile mode 1.7 x slower than the table mode.
			fits := st != 0 && st*e <= 16 && p.size[i]*st*e >= 64 || forceMode == int(modeTile)
			if fits && (a < 0 || st < abs(p.stride[a])) {
				a = i
			}
		}
		if a >= 0 {
			x.setTile(a)
			return
		}
	}
	// Table: a short inner run; tabulate the trailing dimensions (not for
	// reversed rows of whole 16-byte chunks, which revChunks4 copies
	// faster: S1 261 -> 177 ns).
	sseRev := haveSSE && x.kind == kindRev && e == 4 && L%4 == 0
	if forceMode < 0 && L < 16 && !sseRev || forceMode == int(modePerm) {
		if x.setPerm() {
			return
		}
	}
	if forceMode < 0 && L < 16 && !sseRev || forceMode == int(modeTable) {
		k, blk := r-1, L
		// At least 8 blocks: below that, building the table costs as much
		// as the gathers it saves (S2: 384 elements, 4 blocks of 96).
		for k > 0 && blk*p.size[k-1] <= maxTable && p.count >= 8*blk*p.size[k-1] {
			k--
			blk *= p.size[k]
		}
		// Byte offsets inside the block must fit the int32 table.
		span := p.spanFrom(k)
		if k < r-1 && span*e < 1<<31 && (forceMode == int(modeTable) || blk >= 4*L) {
			x.mode, x.k, x.blk, x.extra = modeTable, k, blk, -1
			if x.pickExtra(span) {
				return
			}
			x.blockLoop(k)
		}
	}
}

// pickExtra adds to a table block whose elements each sit on a line of
// their own the outer dimension whose neighbouring elements share a line,
// tabulating dst offsets too (R8: a block of 8 x 8 elements 2 KiB and 1 MiB
// apart, all in two sets of the L1 cache, took in a dimension of 4
// elements 8 bytes apart). It reports whether it did.
func (x *exec) pickExtra(span int64) bool {
	p := &x.p
	e, k, r := x.e, x.k, p.rank
	for i := k; i < r; i++ {
		if abs(p.stride[i])*e < 64 {
			return false
		}
	}
	ds := p.packedStrides()
	extra := -1
	for i := range k {
		st := abs(p.stride[i])
		if st*e < 64 && p.size[i] >= 2 && x.blk*p.size[i] <= maxScatter &&
			(span+(p.size[i]-1)*st)*e < 1<<31 && (x.blk+(p.size[i]-1)*ds[i])*e < 1<<31 &&
			(extra < 0 || st < abs(p.stride[extra])) {
			extra = i
		}
	}
	if extra < 0 {
		return false
	}
	x.extra = extra
	x.blk *= p.size[extra]
	// The blocks in order of src stride, the smallest innermost, not in
	// dst order: every block writes whole runs of its own, and
	// neighbouring blocks then read the same pages (R8: its 6 x 7 blocks
	// 256 and 32 bytes apart came 448 blocks apart in dst order, every
	// one 32 pages of the 64 MiB input away from the last).
	var order [maxDims]int
	n := 0
	for i := range k {
		if i == extra {
			continue
		}
		j := n
		for ; j > 0 && abs(p.stride[order[j-1]]) < abs(p.stride[i]); j-- {
			order[j] = order[j-1]
		}
		order[j] = i
		n++
	}
	x.lp = loop{}
	for _, i := range order[:n] {
		x.lp.add(p.size[i], p.stride[i], ds[i])
	}
	x.units = x.lp.units()
	return true
}

// spanFrom is how many elements apart the lowest and the highest offset
// of dimensions k..rank-1 lie (at most maxOff-minOff).
func (p *plan) spanFrom(k int) int64 {
	var span int64
	for i := k; i < p.rank; i++ {
		span += (p.size[i] - 1) * abs(p.stride[i])
	}
	return span
}

// blockLoop makes lp the odometer over dimensions 0..k-1, each unit a
// block of x.blk elements of the packed dst.
func (x *exec) blockLoop(k int) {
	p := &x.p
	x.lp = loop{}
	for i := range k {
		x.lp.add(p.size[i], p.stride[i], 0)
	}
	for i := range k {
		x.lp.dstride[i] = x.blk * x.lp.unitsBelow(i)
	}
	x.units = x.lp.units()
}

// packedStrides are the dst strides of the plan's dimensions in the
// packed output.
func (p *plan) packedStrides() (ds [maxDims]int64) {
	ds[p.rank-1] = 1
	for i := p.rank - 2; i >= 0; i-- {
		ds[i] = ds[i+1] * p.size[i+1]
	}
	return ds
}

// tabulate fills t with the byte offsets in src of the trailing
// dimensions' block (k..rank-1): the innermost dimension directly, then each
// further one as shifted copies of the part built so far.
func (x *exec) tabulate(t []int32) {
	p := &x.p
	e := x.e
	n := p.size[p.rank-1]
	for c := range t[:n] {
		t[c] = int32(int64(c) * p.stride[p.rank-1] * e)
	}
	shiftedCopies(t, n, p.size[x.k:p.rank-1], p.stride[x.k:p.rank-1], e)
}

// runScatter executes the blocks [first, first+cnt) of a table block with
// an extra dimension: tables of src and dst byte offsets, the extra
// dimension innermost so that the elements that share a src line are read
// one after the other.
func (x *exec) runScatter(dst, src []byte, first, cnt int64) {
	p := &x.p
	e := x.e
	var inner [maxTable]int32
	ne := p.size[x.extra]
	nt := x.blk / ne // the trailing dimensions' part
	x.tabulate(inner[:nt])
	ds := p.packedStrides()[x.extra] // dst stride of the extra dimension
	var st, dt [maxScatter]int32
	for t := range nt {
		for c := range ne {
			j := t*ne + c
			st[j] = inner[t] + int32(c*p.stride[x.extra]*e)
			dt[j] = int32((t + c*ds) * e)
		}
	}
	if x.stream {
		var pos [maxScatter]int32 // stage positions: extra dimension outermost
		for t := range nt {
			for c := range ne {
				pos[t*ne+c] = int32((c*nt + t) * e)
			}
		}
		st, sp := st[:x.blk], pos[:x.blk]
		switch e {
		case 1:
			streamScatter[uint8](dst, src, &x.lp, first, cnt, p.base, st, sp, ne, nt, ds)
		case 2:
			streamScatter[uint16](dst, src, &x.lp, first, cnt, p.base, st, sp, ne, nt, ds)
		case 4:
			streamScatter[uint32](dst, src, &x.lp, first, cnt, p.base, st, sp, ne, nt, ds)
		default:
			streamScatter[uint64](dst, src, &x.lp, first, cnt, p.base, st, sp, ne, nt, ds)
		}
		return
	}
	switch e {
	case 1:
		scatterRun[uint8](dst, src, &x.lp, first, cnt, p.base, st[:x.blk], dt[:x.blk])
	case 2:
		scatterRun[uint16](dst, src, &x.lp, first, cnt, p.base, st[:x.blk], dt[:x.blk])
	case 4:
		scatterRun[uint32](dst, src, &x.lp, first, cnt, p.base, st[:x.blk], dt[:x.blk])
	default:
		scatterRun[uint64](dst, src, &x.lp, first, cnt, p.base, st[:x.blk], dt[:x.blk])
	}
}

// unitsBelow is the product of the sizes of the loop dimensions after i.
func (l *loop) unitsBelow(i int) int64 {
	u := int64(1)
	for j := i + 1; j < l.n; j++ {
		u *= l.size[j]
	}
	return u
}

// tileB is the tile length along the inner dimension: the src rows of a
// band of tileB inner elements stay in the TLB while the tiles along a
// sweep them, and each dst row receives tileB elements at a time.
const tileB = 256

// tileABytes is the tile length along a in bytes (two cache lines).
const tileABytes = 128

// setTile sets up tiles along dimension a against the inner dimension.
// The units are (other dimensions..., inner tile, a tile), a tile
// innermost, so that consecutive units read consecutive src lines.
func (x *exec) setTile(a int) {
	p := &x.p
	r := p.rank
	x.mode, x.a = modeTile, int64(a)
	x.ta = max(tileABytes/x.e, 8)
	x.tb = tileB
	if x.stream {
		x.ta, x.tb = streamBlock(x.e), streamBlock(x.e) // blocks of tiles
	}
	// dst strides of the packed output.
	ds := p.packedStrides()
	x.da = ds[a]
	x.lp = loop{}
	for i := range r - 1 {
		if i != a {
			x.lp.add(p.size[i], p.stride[i], ds[i])
		}
	}
	nb := p.size[r-1]
	x.lp.add((nb+x.tb-1)/x.tb, x.tb*p.stride[r-1], x.tb)
	x.lp.add((p.size[a]+x.ta-1)/x.ta, x.ta*p.stride[a], x.ta*ds[a])
	x.units = x.lp.units()
}

// run executes the units [first, first+cnt) (elements in rows mode).
func (x *exec) run(dst, src []byte, first, cnt int64) uint64 {
	p := &x.p
	s := p.stride[p.rank-1]
	e := x.e
	switch x.mode {
	case modeTable:
		if x.extra >= 0 {
			x.runScatter(dst, src, first, cnt)
			return 0
		}
		var tbl [maxTable]int32
		t := tbl[:x.blk]
		x.tabulate(t)
		switch e {
		case 1:
			tableRun[uint8](dst, src, &x.lp, first, cnt, p.base, t)
		case 2:
			tableRun[uint16](dst, src, &x.lp, first, cnt, p.base, t)
		case 4:
			tableRun[uint32](dst, src, &x.lp, first, cnt, p.base, t)
		default:
			tableRun[uint64](dst, src, &x.lp, first, cnt, p.base, t)
		}
		return 0
	case modePerm:
		x.runPerm(dst, src, first, cnt)
		return 0
	case modeTile:
		if x.stream {
			return x.streamTiles(dst, src, first, cnt)
		}
		na, sa, da, ta, tb, nb := p.size[x.a], p.stride[x.a], x.da, x.ta, x.tb, p.size[p.rank-1]
		x.lp.run(first, cnt, p.base, func(off, doff, ca, cb int64) {
			n := min(ta, na-ca*ta)
			m := min(tb, nb-cb*tb)
			switch e {
			case 1:
				tileBlock[uint8](dst, src, doff, da, off, sa, s, n, m)
			case 2:
				tileBlock[uint16](dst, src, doff, da, off, sa, s, n, m)
			case 4:
				tileBlock[uint32](dst, src, doff, da, off, sa, s, n, m)
			default:
				tileBlock[uint64](dst, src, doff, da, off, sa, s, n, m)
			}
		})
		return 0
	}
	if x.stream {
		return x.streamRows(dst, src, first, cnt)
	}
	var sink uint64
	k := x.kind
	td := touchDist
	p.walkRange(first, cnt, func(d, off, n, rows, rs int64) {
		end := (d + rows*n) * e
		// Long rows go in pieces so that the touch runs ahead of the
		// writes; a row of 1 MiB or more is one copy() (memmove then
		// streams it with non-temporal stores).
		if td > 0 && n*e > td && k != kindSafe && (k != kindFwd || n*e < fwdWhole) {
			pn := max(max(piece, td)/e, 1)
			for r := range rows {
				for c := int64(0); c < n; c += pn {
					sink += rowsKernel(k, e, dst, src, d+r*n+c, off+r*rs+c*s, min(pn, n-c), s, 1, 0, end)
				}
			}
			return
		}
		sink += rowsKernel(k, e, dst, src, d, off, n, s, rows, rs, end)
	})
	return sink
}

// rowsKernel runs the row kernel k on a batch of rows (see walkRange);
// end bounds the read-ahead touches of dst.
func rowsKernel(k kind, e int64, dst, src []byte, d, off, n, s, rows, rs, end int64) (sink uint64) {
	switch k {
	case kindFwd:
		td := touchDist
		for r := range rows {
			o, q := (off+r*rs)*e, (d+r*n)*e
			if td > 0 && n*e <= td {
				for x := (q + td + 63) &^ 63; x < min(q+td+n*e, end); x += 64 {
					sink += uint64(dst[x])
				}
			}
			copy(dst[q:q+n*e], src[o:o+n*e])
		}
	case kindRev:
		if haveSSE && e == 4 && n%4 == 0 && n*4 <= touchDist {
			// Short rows of whole 16-byte chunks: reversed in SSE registers.
			revRows4(dst, src, d, off, n, rows, rs)
			break
		}
		switch e {
		case 1:
			sink = rev1(dst, src, d, off, n, rows, rs, end)
		case 2:
			sink = rev2(dst, src, d, off, n, rows, rs, end)
		case 4:
			sink = rev4(dst, src, d, off, n, rows, rs, end)
		default:
			sink = rev8(dst, src, d, off, n, rows, rs, end)
		}
	case kindGather4:
		sink = gather4(dst, src, d, off, n, s, rows, rs, end)
	case kindStep2:
		if e == 1 {
			sink = gather1s2(dst, src, d, off, n, rows, rs, end)
		} else {
			sink = gather2s2(dst, src, d, off, n, rows, rs, end)
		}
	case kindGather:
		switch e {
		case 1:
			sink = gatherRows[uint8](dst, src, d, off, n, s, rows, rs, end)
		case 2:
			sink = gatherRows[uint16](dst, src, d, off, n, s, rows, rs, end)
		case 4:
			sink = gatherRows[uint32](dst, src, d, off, n, s, rows, rs, end)
		default:
			sink = gatherRows[uint64](dst, src, d, off, n, s, rows, rs, end)
		}
	default:
		safeRows(dst, src, e, d, off, n, s, rows, rs)
	}
	return sink
}

// safeRows is the portable kernel: bounds-checked, one element at a time,
// except that unit-step rows are one copy() each.
func safeRows(dst, src []byte, e, d, off, n, s, rows, rs int64) {
	for r := range rows {
		o, q := off+r*rs, (d+r*n)*e
		if s == 1 {
			copy(dst[q:q+n*e], src[o*e:(o+n)*e])
			continue
		}
		for range n {
			copy(dst[q:q+e], src[o*e:o*e+e])
			q += e
			o += s
		}
	}
}

// readAhead keeps the read-ahead loads of the reverse kernels alive.
var readAhead atomic.Uint64

func keep(sink uint64) {
	if sink == 1 { // practically never; the compare keeps the loads
		readAhead.Add(sink)
	}
}

// Copy gathers the elements of w from src into the packed dst: element i
// of dst (elemSize bytes) is element Base + dot(coord(i), Strides) of src.
// elemSize is 1, 2, 4 or 8. It checks once that every offset of the walk
// lies inside src and that dst has exactly w.Len()*elemSize bytes, and
// returns an error (it never panics) when not, or when w is invalid
// (sizes and strides of different lengths, a negative size, more than 8
// dimensions after normalisation, more than 2^56 elements). Copy does not
// allocate.
func Copy(dst, src []byte, w Walk, elemSize int) error {
	var x exec
	if err := x.p.initWalk(w); err != nil {
		return err
	}
	return x.copy(dst, src, elemSize, 1)
}

// CopyParallel is Copy split across threads goroutines (the calling one
// included) when the output is at least ParallelMinBytes; the result is
// identical to Copy's.
func CopyParallel(dst, src []byte, w Walk, elemSize, threads int) error {
	var x exec
	if err := x.p.initWalk(w); err != nil {
		return err
	}
	return x.copy(dst, src, elemSize, threads)
}

// Slice executes DML_SLICE1: Copy(dst, src, SliceWalk(s), element size of
// s.Input.DataType), without allocating. src is the input buffer, dst the
// packed output.
func Slice(dst, src []byte, s *core.Slice1) error {
	return SliceParallel(dst, src, s, 1)
}

// SliceParallel is Slice with CopyParallel's splitting.
func SliceParallel(dst, src []byte, s *core.Slice1, threads int) error {
	var x exec
	if err := x.p.initSlice(s); err != nil {
		return err
	}
	bits := s.Input.DataType.Bits()
	if bits%8 != 0 || bits == 0 {
		return fmt.Errorf("%w: data type %s has no whole-byte elements", ErrInvalidWalk, s.Input.DataType)
	}
	return x.copy(dst, src, int(bits/8), threads)
}

func (x *exec) copy(dst, src []byte, elemSize, threads int) error {
	if err := x.prepare(dst, src, elemSize); err != nil {
		return err
	}
	if x.p.count == 0 {
		return nil
	}
	if threads <= 1 || x.p.count*x.e < parallelMin || x.units < 2 {
		keep(x.run(dst, src, 0, x.units))
		return nil
	}
	x.parallel(dst, src, threads)
	return nil
}

// parallel splits the unit range into threads contiguous parts (in rows
// mode on 64-element boundaries, so no two goroutines share a cache line
// of dst).
func (x *exec) parallel(dst, src []byte, threads int) {
	// A heap copy for the goroutines, so that x itself stays on the
	// caller's stack (Copy does not allocate on its sequential path).
	h := new(exec)
	*h = *x
	u := h.units
	threads = int(min(int64(threads), u))
	part := (u + int64(threads) - 1) / int64(threads)
	if h.mode == modeRows && part > 64 {
		part = (part + 63) &^ 63
	}
	var wg sync.WaitGroup
	var sink atomic.Uint64
	for first := part; first < u; first += part {
		wg.Add(1)
		go func(first int64) {
			defer wg.Done()
			sink.Add(h.run(dst, src, first, min(part, u-first)))
		}(first)
	}
	s := h.run(dst, src, 0, min(part, u))
	wg.Wait()
	keep(s + sink.Load())
}

var kindNames = [...]string{"safe", "copy", "reverse", "gather", "gather4", "step2"}

// Explain describes how Copy executes w with elements of elemSize bytes:
// the normalised dimensions, the mode and the row kernel, and "streamed"
// when the writes go out with non-temporal stores (for a dst that starts
// on a cache line).
func Explain(w Walk, elemSize int) (string, error) {
	var x exec
	if err := x.p.initWalk(w); err != nil {
		return "", err
	}
	switch elemSize {
	case 1, 2, 4, 8:
	default:
		return "", fmt.Errorf("%w: element size %d is not 1, 2, 4 or 8 bytes", ErrInvalidWalk, elemSize)
	}
	x.e = int64(elemSize)
	if x.p.count == 0 {
		return "empty", nil
	}
	x.choose()
	x.stream = x.streams(nil) // as for a dst on a line
	p := &x.p
	desc := fmt.Sprintf("%v sizes=%v strides=%v", x.mode, p.size[:p.rank], p.stride[:p.rank])
	switch x.mode {
	case modeRows:
		desc = fmt.Sprintf("rows/%s sizes=%v strides=%v", kindNames[x.kind], p.size[:p.rank], p.stride[:p.rank])
	case modeTable:
		desc += fmt.Sprintf(" block=%d", x.blk)
		if x.extra >= 0 {
			desc += fmt.Sprintf(" extra-dim=%d", x.extra)
		}
	case modeTile:
		desc += fmt.Sprintf(" tile-dim=%d", x.a)
	case modePerm:
		desc += fmt.Sprintf(" group=%d groups=%d", x.g, x.blk/x.g)
	}
	if x.stream && x.mode == modeRows && x.kind == kindGather4 && p.stride[p.rank-1] == 2 && useAVX512 {
		desc += " avx512" // evenRows4
	}
	if x.stream {
		desc += " streamed"
	}
	return desc, nil
}
