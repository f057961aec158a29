package compute

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"math"

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
// With a ScaleBias the copy goes element after element in row-major
// order, reading, computing and writing each before the next: the order
// the operator's definition reads, which is also what an in-place copy
// (dst and src one buffer) does in that order.
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
	return identityEach(ctx, dst, src, in, out, int64(e), g)
}

// scaleBiasOf is g for one element of dt, read from src and written to
// dst (e bytes each, little-endian as DirectML's buffers are).
func scaleBiasOf(dt core.DataType, sb core.ScaleBias) (func(dst, src []byte), error) {
	s, b := float32(sb.Scale), float32(sb.Bias)
	switch dt {
	case core.Float32:
		return func(dst, src []byte) {
			x := math.Float32frombits(binary.LittleEndian.Uint32(src))
			binary.LittleEndian.PutUint32(dst, math.Float32bits(ScaleBias32(x, s, b)))
		}, nil
	case core.Float16:
		return func(dst, src []byte) {
			x := F16ToF32(binary.LittleEndian.Uint16(src))
			binary.LittleEndian.PutUint16(dst, F32ToF16(ScaleBias32(x, s, b)))
		}, nil
	case core.Float64:
		s64, b64 := float64(s), float64(b)
		return func(dst, src []byte) {
			x := math.Float64frombits(binary.LittleEndian.Uint64(src))
			p := float64(x * s64) // the conversion forbids a fused multiply-add
			binary.LittleEndian.PutUint64(dst, math.Float64bits(p+b64))
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
func identityEach(ctx context.Context, dst, src []byte, in, out Walk, e int64, g func(dst, src []byte)) error {
	p := pairOf(in, out)
	n := len(p.sizes)
	var coord [maxDims]int64
	ioff, ooff := in.Base*e, out.Base*e
	inner, si, so := p.sizes[n-1], p.in[n-1]*e, p.out[n-1]*e
	done := int64(0)
	for {
		o, i := ooff, ioff
		for range inner {
			g(dst[o:o+e], src[i:i+e])
			o, i = o+so, i+si
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
