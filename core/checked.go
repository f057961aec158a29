package core

import "math/bits"

// MaxUINT is the largest value a DirectML UINT (and so a size, a stride or an
// element count) can hold: 2^32-1.
const MaxUINT = 1<<32 - 1

// mulU multiplies without wrapping; ok is false when the product exceeds
// 2^64-1.
func mulU(a, b uint64) (uint64, bool) {
	hi, lo := bits.Mul64(a, b)
	return lo, hi == 0
}

// addU adds without wrapping; ok is false when the sum exceeds 2^64-1.
func addU(a, b uint64) (uint64, bool) {
	s, carry := bits.Add64(a, b, 0)
	return s, carry == 0
}

// mulLimit returns a*b when it is at most limit.
func mulLimit(a, b, limit uint64) (uint64, bool) {
	p, ok := mulU(a, b)
	return p, ok && p <= limit
}

// addLimit returns a+b when it is at most limit.
func addLimit(a, b, limit uint64) (uint64, bool) {
	s, ok := addU(a, b)
	return s, ok && s <= limit
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}
