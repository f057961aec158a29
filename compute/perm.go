package compute

// The permute mode (AVX-512): the trailing dimensions whose elements all
// lie within one 64-byte window form a group, gathered by one masked
// load, one lane permute and one masked store (perm_amd64.s) instead of
// one load and store per element. S2's 384 elements are 32 groups of 12
// 2-byte elements, each within 18 elements of src.

// minGroup is the smallest group the permute mode takes on its own: for
// fewer elements the table gather does as well.
const minGroup = 4

// setPerm chooses the permute mode for the plan if it applies, and
// reports whether it did: a group of at least minGroup elements (any
// number when the tests force the mode), its window within 64 bytes, the
// group starts of the dimensions outside it tabulated (at most maxTable),
// an odometer over the rest.
func (x *exec) setPerm() bool {
	p := &x.p
	e, r := x.e, p.rank
	if !useAVX512 || e == 1 && !useAVX512VBMI {
		return false
	}
	lanes := 64 / e
	g, span, lo := int64(1), int64(1), int64(0)
	gk := r
	for gk > 0 {
		i := gk - 1
		ns := span + (p.size[i]-1)*abs(p.stride[i])
		if ns > lanes || g*p.size[i] > lanes {
			break
		}
		span, g = ns, g*p.size[i]
		if p.stride[i] < 0 {
			lo += (p.size[i] - 1) * p.stride[i]
		}
		gk--
	}
	if g < minGroup && forceMode != int(modePerm) || gk == r {
		return false
	}
	k, nb := gk, int64(1)
	for k > 0 && nb*p.size[k-1] <= maxTable {
		k--
		nb *= p.size[k]
	}
	// Byte offsets of the group starts must fit the int32 table.
	if p.spanFrom(k)*e >= 1<<31 {
		return false
	}
	x.mode, x.k, x.gk, x.g, x.gspan, x.gmin, x.blk = modePerm, k, gk, g, span, lo, g*nb
	x.blockLoop(k)
	return true
}

// permTables fills starts with the byte offset of each group's window
// from the block's first element (dimensions k..gk-1), and ctl with the
// window lane of each element of a group (dimensions gk..rank-1), one per
// e-byte lane.
func (x *exec) permTables(starts []int32, ctl *[64]byte) {
	p := &x.p
	e := x.e
	starts[0] = int32(x.gmin * e)
	shiftedCopies(starts, 1, p.size[x.k:x.gk], p.stride[x.k:x.gk], e)
	// Lane indexes below 64 wrap correctly in bytes.
	var idx [64]byte
	idx[0] = byte(-x.gmin)
	shiftedCopies(idx[:], 1, p.size[x.gk:p.rank], p.stride[x.gk:p.rank], 1)
	for j, v := range idx[:x.g] {
		ctl[int64(j)*e] = v
	}
}

// shiftedCopies extends the n entries t starts with (the offsets of the
// trailing dimensions' elements) over the dimensions sizes and strides
// before them, strides times scale: each dimension, the last first, as
// shifted copies of the part built so far.
func shiftedCopies[T int32 | byte](t []T, n int64, sizes, strides []int64, scale int64) {
	for i := len(sizes) - 1; i >= 0; i-- {
		bs := T(strides[i] * scale)
		cs := T(0)
		for c := int64(1); c < sizes[i]; c++ {
			cs += bs
			u := t[c*n : (c+1)*n]
			for j, v := range t[:n] {
				u[j] = v + cs
			}
		}
		n *= sizes[i]
	}
}

// runPerm executes the blocks [first, first+cnt) of the permute mode.
func (x *exec) runPerm(dst, src []byte, first, cnt int64) {
	var starts [maxTable]int32
	var ctl [64]byte
	nb := x.blk / x.g
	x.permTables(starts[:nb], &ctl)
	// Shifts by 64 give 0 in Go: a full window is all ones.
	lmask := uint64(1)<<uint(x.gspan) - 1
	smask := uint64(1)<<uint(x.g) - 1
	permRun(x.e, dst, src, &x.lp, first, cnt, x.p.base, starts[:nb], &ctl, x.g, lmask, smask)
}
