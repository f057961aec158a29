package compute

import (
	"context"
	"fmt"

	"github.com/stridescope/stridescope/core"
)

// IdentityWalks are the two sides of a DML_ELEMENT_WISE_IDENTITY, each
// over the logical elements in row-major order: element i is read at
// in's offset i and written at out's.
func IdentityWalks(id *core.Identity) (in, out Walk) {
	return LayoutWalk(id.Input), LayoutWalk(id.Output)
}

// pair is the identity's two walks with the dimensions that move neither
// side (size 1) dropped, innermost last.
type pair struct {
	sizes, in, out []int64
}

func pairOf(in, out Walk) pair {
	var p pair
	for d, s := range in.Sizes {
		if s > 1 {
			p.sizes = append(p.sizes, s)
			p.in = append(p.in, in.Strides[d])
			p.out = append(p.out, out.Strides[d])
		}
	}
	if len(p.sizes) == 0 {
		p.sizes, p.in, p.out = []int64{1}, []int64{0}, []int64{0}
	}
	return p
}

// lastOffset is the largest offset of a walk with non-negative strides.
func lastOffset(w Walk) (int64, bool) {
	last := w.Base
	for d, s := range w.Sizes {
		if s < 1 || w.Strides[d] < 0 {
			return 0, false
		}
		t, ok := mul64(s-1, w.Strides[d])
		if !ok {
			return 0, false
		}
		if last, ok = add64(last, t); !ok {
			return 0, false
		}
	}
	return last, true
}

// Identity copies the elements of src read by in into dst at out's
// offsets, element i for element i, elemSize bytes each: the strided
// copy DML_ELEMENT_WISE_IDENTITY does between two layouts. dst and src
// are whole buffers; the cells of dst that out does not reach are left
// as they are. in and out must have the same sizes and non-negative
// strides, out no two elements at one offset (core refuses that output:
// a write race); both are checked against the buffers before anything
// is written. It is IdentityContext without a context.
func Identity(dst, src []byte, in, out Walk, elemSize int) error {
	return IdentityContext(context.Background(), dst, src, in, out, elemSize)
}

// IdentityContext is Identity that looks at ctx between chunks of about
// a million elements and returns ctx.Err() when it is done (dst then
// holds some of the elements). The copy runs in whatever order is
// fastest (identity_tile.go: runs that are contiguous on both sides are
// one copy(), permuting copies go in cache blocks), which gives the
// result of the row-major order whenever dst and src do not overlap and
// out gives each element a cell of its own; otherwise (an in-place
// copy, or an output core would refuse) it runs in row-major order, as
// the definition reads.
func IdentityContext(ctx context.Context, dst, src []byte, in, out Walk, elemSize int) error {
	if err := checkIdentity(dst, src, in, out, elemSize); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	e := int64(elemSize)
	if p, ok := normaliseIdentity(in, out); ok && !overlaps(dst, src) {
		return p.run(ctx, dst, src, e)
	}
	return identityOrdered(ctx, dst, src, in, out, e)
}

// checkIdentity checks the walks against each other and the buffers.
func checkIdentity(dst, src []byte, in, out Walk, elemSize int) error {
	if elemSize < 1 || len(in.Sizes) != len(out.Sizes) || len(in.Sizes) > maxDims {
		return fmt.Errorf("%w: element size %d, %d and %d dimensions", ErrInvalidWalk, elemSize, len(in.Sizes), len(out.Sizes))
	}
	for d, s := range in.Sizes {
		if out.Sizes[d] != s || len(in.Strides) != len(in.Sizes) || len(out.Strides) != len(out.Sizes) {
			return fmt.Errorf("%w: the two sides differ", ErrInvalidWalk)
		}
	}
	e := int64(elemSize)
	for _, side := range []struct {
		w   Walk
		buf []byte
	}{{in, src}, {out, dst}} {
		last, ok := lastOffset(side.w)
		if !ok || side.w.Base < 0 {
			return fmt.Errorf("%w: a size below 1 or a negative stride", ErrInvalidWalk)
		}
		if end, ok := mul64(last+1, e); !ok || end > int64(len(side.buf)) {
			return fmt.Errorf("%w: offset %d of %d-byte elements, buffer of %d bytes", ErrOutOfBounds, last, e, len(side.buf))
		}
	}
	return nil
}

// identityOrdered is the copy in row-major order, element after element
// (a run that is contiguous on both sides is one copy()): the order
// InPlace describes, for dst and src in one buffer.
func identityOrdered(ctx context.Context, dst, src []byte, in, out Walk, e int64) error {
	p := pairOf(in, out)
	n := len(p.sizes)
	inner, si, so := p.sizes[n-1], p.in[n-1]*e, p.out[n-1]*e
	contiguous := si == e && so == e
	var coord [maxDims]int64
	ioff, ooff := in.Base*e, out.Base*e
	done := int64(0)
	for {
		if contiguous {
			copy(dst[ooff:ooff+inner*e], src[ioff:ioff+inner*e])
		} else {
			copyStrided(dst, src, ooff, ioff, so, si, inner, e)
		}
		if done += inner; done >= identityChunk {
			done = 0
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		d := n - 2
		for ; d >= 0; d-- {
			coord[d]++
			ioff += p.in[d] * e
			ooff += p.out[d] * e
			if coord[d] < p.sizes[d] {
				break
			}
			ioff -= coord[d] * p.in[d] * e
			ooff -= coord[d] * p.out[d] * e
			coord[d] = 0
		}
		if d < 0 {
			return nil
		}
	}
}

// copyStrided copies n elements of e bytes, one a step on each side.
func copyStrided(dst, src []byte, o, i, so, si, n, e int64) {
	switch e {
	case 1:
		for range n {
			dst[o] = src[i]
			o, i = o+so, i+si
		}
	default:
		for range n {
			copy(dst[o:o+e], src[i:i+e])
			o, i = o+so, i+si
		}
	}
}

// InPlaceReport says what happens when the input and the output are the
// same buffer (DirectML lets the identity's output alias its input).
type InPlaceReport struct {
	// Known is false when the tensor was too large to visit.
	Known bool
	// Safe: no element's output cell is another element's input cell, so
	// the copy is right in any order, the GPU's included.
	Safe bool
	// Writer and Reader, when !Safe and Clobbered: in the copy's order
	// (row-major), element Writer writes cell Cell before element Reader
	// (> Writer) reads it: Reader copies the new value, not its own.
	// The first such write is reported.
	Clobbered      bool
	Writer, Reader int64
	Cell           int64
	// Race, when !Safe and !Clobbered: element Writer writes the cell
	// element Reader (< Writer) read earlier in this order; the row-major
	// order happens to be right, an order the GPU does not promise.
	Race bool
}

// InPlaceLimit is the most elements InPlace visits.
const InPlaceLimit = 1 << 20

// InPlaceCost is what InPlace allocates for walks of these spans: two
// int32 per input cell.
func InPlaceCost(inCells int64) int64 { return 8 * inCells }

// InPlace finds whether the copy of in to out within one buffer is safe:
// it is when no element writes, into a cell another element reads, a
// value other than the cell's own. The two
// sides' strides equal wherever a size exceeds 1 is safe without a visit;
// otherwise up to InPlaceLimit elements (and an input of as many cells)
// are visited, in row-major order, and the first element that overwrites
// a cell before another reads it is reported.
func InPlace(ctx context.Context, in, out Walk) (InPlaceReport, error) {
	same := in.Base == out.Base
	for d, s := range in.Sizes {
		if s > 1 && in.Strides[d] != out.Strides[d] {
			same = false
		}
	}
	if same {
		return InPlaceReport{Known: true, Safe: true}, nil
	}
	n := in.Len()
	last, ok := lastOffset(in)
	if !ok || n > InPlaceLimit || last >= InPlaceLimit {
		return InPlaceReport{}, nil
	}
	if err := ctx.Err(); err != nil {
		return InPlaceReport{}, err
	}
	cells := last + 1
	// first and final reader of each input cell, +1 (0: none).
	first := make([]int32, cells)
	final := make([]int32, cells)
	ins := make([]int64, n)
	Offsets(in, 0, ins)
	for j, k := range ins {
		if first[k] == 0 {
			first[k] = int32(j) + 1
		}
		final[k] = int32(j) + 1
	}
	outs := make([]int64, n)
	Offsets(out, 0, outs)
	r := InPlaceReport{Known: true, Safe: true}
	for i, k := range outs {
		if k < 0 || k >= cells || first[k] == 0 {
			continue
		}
		if ins[i] == k {
			// It writes back the value the cell holds (when it is read,
			// an earlier write has already been reported): no reader,
			// before or after, can tell.
			continue
		}
		fi, la := int64(first[k])-1, int64(final[k])-1
		r.Safe = false
		if la > int64(i) {
			// Some element after i reads k: the first of them.
			j := int64(i) + 1
			for ; ins[j] != k; j++ {
			}
			r.Clobbered, r.Writer, r.Reader, r.Cell = true, int64(i), j, k
			return r, nil
		}
		if !r.Race {
			r.Race, r.Writer, r.Reader, r.Cell = true, int64(i), fi, k
		}
	}
	return r, nil
}
