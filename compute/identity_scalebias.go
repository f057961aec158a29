package compute

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"sort"

	"github.com/stridescope/stridescope/core"
)

// ErrScaleBiasType is returned for a ScaleBias on an integer tensor: the
// DirectML page defines g(x) = x * scale + bias with FLOAT scale and
// bias, and says nothing of how an integer result is rounded or
// saturated, so no value is made up for it.
var ErrScaleBiasType = errors.New("compute: ScaleBias on a tensor that is not FLOAT16, FLOAT32 or FLOAT64")

// IdentityOf runs the whole DML_ELEMENT_WISE_IDENTITY id from src into
// dst: the strided copy (IdentityContext) and, when id has one, its
// ScaleBias, g(x) = x * Scale + Bias applied to each input element
// before it is written.
//
// Scale and Bias are FLOATs (DML_SCALE_BIAS), so they are taken as
// float32 values. A FLOAT32 element is multiplied and then added in
// float32, each step rounded (no fused multiply-add); a FLOAT16 element
// is widened to float32, computed the same way and rounded once to the
// nearest half (ties to even); a FLOAT64 element is computed in float64
// with the two float32 values widened. This is what the NumPy export
// writes (core.Identity.NumPy), and TestIdentityScaleBiasMatchesNumPy
// holds the two equal. DirectML does not say in which precision a GPU
// computes g; this is the model the page uses.
//
// With a ScaleBias and dst and src in one buffer (in place), the copy
// goes element after element in row-major order, reading, computing and
// writing each before the next: the order the operator's definition
// reads. Apart, it copies as IdentityContext does and then computes each
// output cell in place, which gives the same values.
func IdentityOf(ctx context.Context, dst, src []byte, id *core.Identity) error {
	in, out := IdentityWalks(id)
	e := int(id.Input.DataType.Bits() / 8)
	if id.ScaleBias == nil {
		return IdentityContext(ctx, dst, src, in, out, e)
	}
	g, err := scaleBiasOf(id.Input.DataType, *id.ScaleBias)
	if err != nil {
		return err
	}
	if err := checkIdentity(dst, src, in, out, e); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if overlaps(dst, src) {
		return identityEach(ctx, dst, src, in, out, int64(e), g)
	}
	// Apart, the copy runs in its fastest order and then g runs over the
	// output's cells in place: each is written once (core refuses an
	// output whose elements share a cell), so this is the same result.
	if err := IdentityContext(ctx, dst, src, in, out, e); err != nil {
		return err
	}
	cells := memoryOrder(out)
	return identityEach(ctx, dst, dst, cells, cells, int64(e), g)
}

// memoryOrder is w's cells walked in the order they lie in memory
// (dimensions by stride, largest first), so that a pass over the cells
// that cares not in which order the elements come reads and writes runs.
func memoryOrder(w Walk) Walk {
	d := make([]int, len(w.Sizes))
	for k := range d {
		d[k] = k
	}
	sort.SliceStable(d, func(a, b int) bool { return w.Strides[d[a]] > w.Strides[d[b]] })
	m := Walk{Base: w.Base, Sizes: make([]int64, len(d)), Strides: make([]int64, len(d))}
	for k, from := range d {
		m.Sizes[k], m.Strides[k] = w.Sizes[from], w.Strides[from]
	}
	return m
}

// scaleRun is g over a run of n elements, read from src at byte i and
// written to dst at byte o, si and so bytes apart (little-endian, as
// DirectML's buffers are).
type scaleRun func(dst, src []byte, o, i, so, si, n int64)

// scaleBiasOf is g for dt, a run at a time: one call a run keeps the
// per-element work to the arithmetic.
func scaleBiasOf(dt core.DataType, sb core.ScaleBias) (scaleRun, error) {
	s, b := float32(sb.Scale), float32(sb.Bias)
	switch dt {
	case core.Float32:
		return func(dst, src []byte, o, i, so, si, n int64) {
			for range n {
				x := math.Float32frombits(binary.LittleEndian.Uint32(src[i:]))
				binary.LittleEndian.PutUint32(dst[o:], math.Float32bits(ScaleBias32(x, s, b)))
				o, i = o+so, i+si
			}
		}, nil
	case core.Float16:
		return func(dst, src []byte, o, i, so, si, n int64) {
			for range n {
				x := F16ToF32(binary.LittleEndian.Uint16(src[i:]))
				binary.LittleEndian.PutUint16(dst[o:], F32ToF16(ScaleBias32(x, s, b)))
				o, i = o+so, i+si
			}
		}, nil
	case core.Float64:
		s64, b64 := float64(s), float64(b)
		return func(dst, src []byte, o, i, so, si, n int64) {
			for range n {
				x := math.Float64frombits(binary.LittleEndian.Uint64(src[i:]))
				p := float64(x * s64) // the conversion forbids a fused multiply-add
				binary.LittleEndian.PutUint64(dst[o:], math.Float64bits(p+b64))
				o, i = o+so, i+si
			}
		}, nil
	}
	return nil, fmt.Errorf("%w: %v", ErrScaleBiasType, dt)
}

// ScaleBias32 is g(x) = x*s + b in float32, the product rounded before
// the sum (the conversion forbids a fused multiply-add).
func ScaleBias32(x, s, b float32) float32 {
	p := float32(x * s)
	return float32(p + b)
}

// identityEach copies element after element in row-major order, each
// through g.
func identityEach(ctx context.Context, dst, src []byte, in, out Walk, e int64, g scaleRun) error {
	p := pairOf(in, out)
	n := len(p.sizes)
	var coord [maxDims]int64
	ioff, ooff := in.Base*e, out.Base*e
	inner, si, so := p.sizes[n-1], p.in[n-1]*e, p.out[n-1]*e
	done := int64(0)
	for {
		g(dst, src, ooff, ioff, so, si, inner)
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

// F32ToF16 rounds a float32 to the nearest IEEE half, ties to even, as
// NumPy's astype(np.float16) does: past the largest half it is an
// infinity, and a NaN stays a NaN with the top bits of its payload (a
// payload that would vanish becomes a quiet NaN's).
func F32ToF16(f float32) uint16 {
	b := math.Float32bits(f)
	sign := uint16(b>>16) & 0x8000
	exp := int(b>>23) & 0xff
	mant := b & (1<<23 - 1)
	if exp == 0xff {
		if mant == 0 {
			return sign | 0x7c00
		}
		h := uint16(0x7c00 | mant>>13)
		if h == 0x7c00 {
			h++
		}
		return sign | h
	}
	e := exp - 127 + 15
	switch {
	case e >= 0x1f:
		return sign | 0x7c00
	case e <= 0:
		// A subnormal half (or zero): the value is mant24 * 2^(exp-150),
		// in units of 2^-24 that is mant24 >> (126 - exp) = >> (14 - e).
		if e < -10 {
			return sign // below half the smallest subnormal: zero
		}
		m := mant | 1<<23
		shift := uint(14 - e)
		h, rem, mid := m>>shift, m&(1<<shift-1), uint32(1)<<(shift-1)
		if rem > mid || rem == mid && h&1 == 1 {
			h++
		}
		return sign | uint16(h)
	}
	h := uint32(e)<<10 | mant>>13
	if rem := mant & (1<<13 - 1); rem > 1<<12 || rem == 1<<12 && h&1 == 1 {
		h++ // a carry into the exponent is the right rounding too, up to +Inf
	}
	return sign | uint16(h)
}

// F16ToF32 widens an IEEE half exactly (a NaN keeps its payload).
func F16ToF32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case exp == 0:
		f := float32(mant) / (1 << 24)
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+112)<<23 | mant<<13)
}
