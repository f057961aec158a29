package compute

import (
	"context"
	"fmt"
)

// The identity's copy in cache blocks. A layout conversion that permutes
// the dimensions (NCHW -> NHWC, a transpose) reads along one dimension,
// the one with the smallest input stride (I), and writes along another,
// the one with the smallest output stride (O). Element by element in
// row-major order, every read or every write lands on a cache line (and
// often a page) of its own: the copy waits on memory for each element
// (0.02 x memcpy on 2^24 float32). In blocks of the I x O plane, the
// lines a block reads and writes stay in L1 while it is copied: each
// input line is read once, each output line written once.
//
// The plane is cut into blocks of identityBlockI bytes along I by
// identityBlockO bytes along O (their pages fit the TLB), each copied in
// tiles of one cache line of input (64/e elements along I) by the
// block's extent along O. For 4- and 8-byte elements contiguous on both
// sides, with AVX-512 (useAVX512), a tile is 64/e x 64/e elements (16 x
// 16, 8 x 8) transposed in registers (identity_amd64.s), in strips along
// the block's longer side, and from streamMin bytes of output its 64-byte
// rows go out with non-temporal stores when they are whole lines: the
// lines go to memory without first being read in, as Go's copy() writes
// large blocks. (Strips along the longer side: NCHW -> NHWC, 64 channels,
// reads 16 channel planes along H*W and writes whole 256-byte pixels;
// NHWC -> NCHW writes 16 planes along H*W; the other direction, 64 planes
// a line at a time, ran at half the speed.)

// identityChunk is how many elements the identity copies between two
// looks at the context.
const identityChunk = 1 << 20

// identityBlockI and identityBlockO are the sides of a block in bytes
// along I and along O; idAlongO forces the direction of the strips of
// register tiles (tileWide).
var (
	identityBlockI int64 = 4096
	identityBlockO int64 = 4096
	idAlongO             = -1 // the tests force a direction: 0 along I, 1 along O
)

// idPlan is an identity after normalisation: no size-1 dimension, the
// dimensions by decreasing output stride, adjacent ones merged where both
// sides' strides chain, at least one dimension.
type idPlan struct {
	rank            int
	size, in, out   [maxDims]int64
	inBase, outBase int64
	count           int64
}

// normaliseIdentity builds the plan; ok is false when the output is not
// proven to give every element a cell of its own (then the order of the
// writes matters, and only the row-major order is right).
func normaliseIdentity(in, out Walk) (p idPlan, ok bool) {
	p.inBase, p.outBase, p.count = in.Base, out.Base, 1
	for d, s := range in.Sizes {
		p.count *= s
		if s == 1 {
			continue
		}
		// Insertion by decreasing output stride (stable).
		j := p.rank
		for ; j > 0 && p.out[j-1] < out.Strides[d]; j-- {
			p.size[j], p.in[j], p.out[j] = p.size[j-1], p.in[j-1], p.out[j-1]
		}
		p.size[j], p.in[j], p.out[j] = s, in.Strides[d], out.Strides[d]
		p.rank++
	}
	// Each output stride beyond the span of the dimensions inside it:
	// then no two elements share a cell. (The offsets are bounded by
	// the buffers, checked before, so nothing overflows.)
	span := int64(0)
	for k := p.rank - 1; k >= 0; k-- {
		if p.out[k] <= span {
			return p, false
		}
		span += (p.size[k] - 1) * p.out[k]
	}
	r := 0
	for k := range p.rank {
		if r > 0 && p.in[r-1] == p.in[k]*p.size[k] && p.out[r-1] == p.out[k]*p.size[k] {
			p.size[r-1] *= p.size[k]
			p.in[r-1], p.out[r-1] = p.in[k], p.out[k]
			continue
		}
		p.size[r], p.in[r], p.out[r] = p.size[k], p.in[k], p.out[k]
		r++
	}
	if r == 0 {
		r, p.size[0], p.in[0], p.out[0] = 1, 1, 0, 0
	}
	p.rank = r
	return p, true
}

// How an idPlan is executed.
type idMode uint8

const (
	idRows     idMode = iota // an odometer over rows of the innermost output dimension
	idTile                   // blocks of the I x O plane (portable kernel)
	idTileWide               // the same with AVX-512 transposes of 64-byte rows
	idGather                 // a packed output: the Copy engine's gather
)

// idForce lets the tests run every execution that applies to a plan.
var idForce = -1

// choose picks the execution and the two dimensions of the plane: O the
// innermost output dimension, I the dimension with the smallest nonzero
// input stride (O itself when O's is as small, or 0).
func (p *idPlan) choose(e int64) (m idMode, dimI, dimO int) {
	o := p.rank - 1
	dimI = o
	if p.in[o] != 0 {
		for d := range o {
			if p.in[d] > 0 && p.in[d] < p.in[dimI] {
				dimI = d
			}
		}
	}
	wide := dimI != o && useFast && useAVX512 && (e == 4 || e == 8) && p.in[dimI] == 1 && p.out[o] == 1
	switch idMode(idForce) {
	case idRows:
		return idRows, o, o
	case idTile:
		if dimI != o {
			return idTile, dimI, o
		}
	case idTileWide:
		if wide {
			return idTileWide, dimI, o
		}
	case idGather:
		if p.packed() {
			return idGather, dimI, o
		}
	}
	if dimI == o {
		return idRows, o, o
	}
	if wide && p.size[dimI] >= 64/e && p.size[o] >= 64/e {
		return idTileWide, dimI, o
	}
	if p.packed() {
		return idGather, dimI, o
	}
	if p.in[o]*e >= 64 {
		return idTile, dimI, o
	}
	return idRows, o, o
}

// packed: the output cells are count contiguous elements from outBase.
func (p *idPlan) packed() bool {
	st := int64(1)
	for k := p.rank - 1; k >= 0; k-- {
		if p.out[k] != st {
			return false
		}
		st *= p.size[k]
	}
	return true
}

// run executes the plan: dst and src are checked against it and do not
// overlap.
func (p *idPlan) run(ctx context.Context, dst, src []byte, e int64) error {
	m, dimI, dimO := p.choose(e)
	switch m {
	case idGather:
		return p.gather(ctx, dst, src, e)
	case idTile, idTileWide:
		return p.tiles(ctx, dst, src, e, dimI, dimO, m == idTileWide)
	}
	return p.rows(ctx, dst, src, e)
}

// rows copies the rows of the innermost dimension, one copy() each when
// both sides are contiguous.
func (p *idPlan) rows(ctx context.Context, dst, src []byte, e int64) error {
	r := p.rank
	n, si, so := p.size[r-1], p.in[r-1], p.out[r-1]
	var lp loop
	for k := range r - 1 {
		lp.add(p.size[k], p.in[k], p.out[k])
	}
	var err error // ctx's, between the pieces of a long row
	oerr := p.outer(ctx, &lp, n, func(ioff, ooff int64) {
		for c := int64(0); c < n && err == nil; c += identityChunk {
			if c > 0 {
				err = ctx.Err()
			}
			m := min(identityChunk, n-c)
			i, o := (ioff+c*si)*e, (ooff+c*so)*e
			if si == 1 && so == 1 {
				copy(dst[o:o+m*e], src[i:i+m*e])
				continue
			}
			copyStrided(dst, src, o, i, so*e, si*e, m, e)
		}
	})
	if err != nil {
		return err
	}
	return oerr
}

// outer runs unit for each unit of lp (with the input and output element
// offsets of the unit), looking at ctx every identityChunk elements
// (per elements each unit).
func (p *idPlan) outer(ctx context.Context, lp *loop, per int64, unit func(ioff, ooff int64)) error {
	ioff, ooff := p.inBase, p.outBase
	if lp.n == 0 {
		unit(ioff, ooff)
		return nil
	}
	var coord [maxDims + 1]int64
	done := int64(0)
	for u := lp.units(); ; {
		unit(ioff, ooff)
		if u--; u == 0 {
			return nil
		}
		if done += per; done >= identityChunk {
			done = 0
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		ioff, ooff = lp.step(&coord, ioff, ooff)
	}
}

// gather runs a packed output as Copy does, the input walked in the
// output's order: its tile, table and permute modes, streamed from
// streamMin bytes.
func (p *idPlan) gather(ctx context.Context, dst, src []byte, e int64) error {
	r := p.rank
	w := Walk{Sizes: p.size[:r:r], Strides: p.in[:r:r], Base: p.inBase}
	var x exec
	if err := x.p.initWalk(w); err != nil {
		return err
	}
	d := dst[p.outBase*e : (p.outBase+p.count)*e]
	if err := x.prepare(d, src, int(e)); err != nil {
		return err
	}
	if x.p.count == 0 {
		return nil
	}
	chunk := max(1, identityChunk/max(1, x.p.count/x.units)) // units
	for first := int64(0); first < x.units; first += chunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		keep(x.run(d, src, first, min(chunk, x.units-first)))
	}
	return nil
}

// tiles copies the plane of dimensions dimI and dimO (the innermost
// output dimension) in blocks, the other dimensions an odometer outside.
func (p *idPlan) tiles(ctx context.Context, dst, src []byte, e int64, dimI, dimO int, wide bool) error {
	var lp loop
	for k := range p.rank {
		if k != dimI && k != dimO {
			lp.add(p.size[k], p.in[k], p.out[k])
		}
	}
	nI, nO := p.size[dimI], p.size[dimO]
	sI, sO, dI, dO := p.in[dimI], p.in[dimO], p.out[dimI], p.out[dimO]
	bi, bo := max(identityBlockI/e, 16), max(identityBlockO/e, 16)
	stream := wide && p.count*e >= streamMin && dI*e%64 == 0
	var err error // ctx's, from inside a unit
	done := int64(0)
	oerr := p.outer(ctx, &lp, 0, func(ioff, ooff int64) {
		for o0 := int64(0); o0 < nO && err == nil; o0 += bo {
			for i0 := int64(0); i0 < nI; i0 += bi {
				ni, no := min(bi, nI-i0), min(bo, nO-o0)
				off, doff := ioff+i0*sI+o0*sO, ooff+i0*dI+o0*dO
				if wide {
					nt := stream && aligned64(dst, doff*e)
					tileWide(dst, src, e, doff, off, ni, no, sO, dI, nt, idAlongO == 1 || idAlongO < 0 && no > ni)
					// The rims: the columns past the last whole tile
					// along I, the rows past the last whole tile along O.
					w := 64 / e
					niw, now := ni/w*w, no/w*w
					tileAny(dst, src, e, doff+niw*dI, off+niw*sI, ni-niw, now, sI, sO, dI, dO)
					tileAny(dst, src, e, doff+now*dO, off+now*sO, ni, no-now, sI, sO, dI, dO)
				} else {
					tileAny(dst, src, e, doff, off, ni, no, sI, sO, dI, dO)
				}
				if done += ni * no; done >= identityChunk {
					done = 0
					if err = ctx.Err(); err != nil {
						return
					}
				}
			}
		}
	})
	if stream {
		sfence()
	}
	if err != nil {
		return err
	}
	return oerr
}

// tileAny copies the ni x no block dst[doff + i*dI + o*dO] = src[off +
// i*sI + o*sO] (element offsets) in tiles of one input line (64/e
// elements along i) by no: each tile reads its input lines once, along
// i, and writes ni lines of the output, which stay in L1 while o runs.
func tileAny(dst, src []byte, e, doff, off, ni, no, sI, sO, dI, dO int64) {
	if ni <= 0 || no <= 0 {
		return
	}
	t := max(64/e, 1)
	if !useFast {
		for i0 := int64(0); i0 < ni; i0 += t {
			for o := range no {
				n := min(t, ni-i0)
				copyStrided(dst, src, (doff+i0*dI+o*dO)*e, (off+i0*sI+o*sO)*e, dI*e, sI*e, n, e)
			}
		}
		return
	}
	switch e {
	case 1:
		tileKernel[uint8](dst, src, doff, off, ni, no, sI, sO, dI, dO, t)
	case 2:
		tileKernel[uint16](dst, src, doff, off, ni, no, sI, sO, dI, dO, t)
	case 4:
		tileKernel[uint32](dst, src, doff, off, ni, no, sI, sO, dI, dO, t)
	case 8:
		tileKernel[uint64](dst, src, doff, off, ni, no, sI, sO, dI, dO, t)
	default:
		for i0 := int64(0); i0 < ni; i0 += t {
			for o := range no {
				n := min(t, ni-i0)
				copyStrided(dst, src, (doff+i0*dI+o*dO)*e, (off+i0*sI+o*sO)*e, dI*e, sI*e, n, e)
			}
		}
	}
}

// ExplainIdentity describes how Identity executes the copy of in to out
// with elements of elemSize bytes (for dst and src apart): the
// normalised dimensions (size-1 ones dropped, by decreasing output
// stride, merged where both sides chain) with each side's strides, and
// the execution: rows (one copy() a row when both sides are contiguous),
// tiles of the plane of dimensions I and O (tile-avx512: the transposes
// in registers, "streamed" with non-temporal stores), gather (a packed
// output: Copy's engine, as Explain describes), or ordered (row-major,
// element after element: an output not proven free of shared cells).
func ExplainIdentity(in, out Walk, elemSize int) (string, error) {
	if elemSize < 1 || len(in.Sizes) != len(out.Sizes) || len(in.Strides) != len(in.Sizes) || len(out.Strides) != len(out.Sizes) {
		return "", fmt.Errorf("%w: element size %d, %d and %d dimensions", ErrInvalidWalk, elemSize, len(in.Sizes), len(out.Sizes))
	}
	p, ok := normaliseIdentity(in, out)
	if !ok {
		return "ordered", nil
	}
	e := int64(elemSize)
	r := p.rank
	dims := fmt.Sprintf("sizes=%v in=%v out=%v", p.size[:r], p.in[:r], p.out[:r])
	m, dimI, dimO := p.choose(e)
	switch m {
	case idGather:
		w := Walk{Sizes: p.size[:r:r], Strides: p.in[:r:r], Base: p.inBase}
		g, err := Explain(w, elemSize)
		if err != nil {
			return "", err
		}
		return fmt.Sprintf("gather %s: %s", dims, g), nil
	case idTile, idTileWide:
		kind := "tile"
		if m == idTileWide {
			kind = "tile-avx512"
			if p.count*e >= streamMin && p.out[dimI]*e%64 == 0 {
				kind += " streamed"
			}
		}
		return fmt.Sprintf("%s %s I=%d O=%d", kind, dims, dimI, dimO), nil
	}
	kind := "strided"
	if p.in[r-1] == 1 && p.out[r-1] == 1 {
		kind = "copy"
	}
	return fmt.Sprintf("rows/%s %s", kind, dims), nil
}
