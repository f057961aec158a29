package core

import (
	"errors"
	"fmt"
	"math"
	"math/big"
)

// MaxDimensionCount is DML_TENSOR_DIMENSION_COUNT_MAX1.
const MaxDimensionCount = 8

// TensorDesc is a DML_BUFFER_TENSOR_DESC as a user typed it: nothing is
// trusted until NewLayout validates it. Values are int64 so that negative or
// oversized input can be reported by field rather than lost in decoding.
type TensorDesc struct {
	DataType DataType
	Sizes    []int64
	// Strides nil means packed (row-major, last dimension fastest).
	Strides []int64
	// TotalTensorSizeInBytes nil means "not given" (the minimum is used).
	TotalTensorSizeInBytes *int64
	// GuaranteedBaseOffsetAlignment 0 means no guarantee.
	GuaranteedBaseOffsetAlignment int64
}

// Layout is a validated tensor description with its effective strides.
// Every count it holds is at most 2^32-1, so int64 arithmetic on them is
// exact; derived values that can exceed that are computed with care.
type Layout struct {
	DataType        DataType
	Sizes           []int64
	Strides         []int64 // effective: packed when none were given
	StridesImplicit bool
	// TotalTensorSizeInBytes is as given, or 0 when not given.
	TotalTensorSizeInBytes        int64
	GuaranteedBaseOffsetAlignment int64
	// Warnings are rules that only a helper page states (DWORD-aligned
	// total size): reported, not enforced.
	Warnings []Violation

	logicalCount  int64
	indexOfLast   int64
	distinct      int64
	distinctKnown bool
}

// NewLayout validates d in the documented order (directml-rules.md section
// 2) and returns every violation at once as a *ValidationError.
func NewLayout(d TensorDesc) (*Layout, error) {
	var vs violations
	checkTensor(&vs, d, tensorFields)
	if err := vs.err(); err != nil {
		return nil, err
	}
	l := newLayoutUnchecked(d)
	l.Warnings = dwordWarnings(tensorFields.total, d.TotalTensorSizeInBytes)
	return l, nil
}

// dwordWarnings is the rule that only the DirectML helper functions page
// states (DirectML itself accepts the buffer): a bound buffer's total size
// is a multiple of 4. field names the total in the report.
func dwordWarnings(field string, total *int64) []Violation {
	if total == nil || *total%4 == 0 {
		return nil
	}
	use := *total &^ 3 // near 2^63 rounding up would wrap; the minimum, a multiple of 4, is below
	if *total <= math.MaxInt64-3 {
		use = roundUp4(*total)
	}
	return []Violation{NewMsg("tensor.total.dword",
		"{field} {value} is not a multiple of 4: the DirectML helper functions page requires every bound buffer's total size to be DWORD-aligned (use {use})",
		Args{"field": field, "value": *total, "use": use}).At(field)}
}

// fieldNames lets the same checks report against a bare tensor ("sizes")
// or the input of an operator ("inputSizes").
type fieldNames struct {
	dataType, sizes, strides, total, alignment string
}

var tensorFields = fieldNames{"dataType", "sizes", "strides", "totalTensorSizeInBytes", "guaranteedBaseOffsetAlignment"}

func checkTensor(vs *violations, d TensorDesc, f fieldNames) {
	// 1. DataType.
	typeOK := d.DataType.Valid()
	if !typeOK {
		if d.DataType == Unknown {
			vs.add(f.dataType, "tensor.datatype.unknown", "DML_TENSOR_DATA_TYPE_UNKNOWN is never valid", nil)
		} else {
			vs.add(f.dataType, "tensor.datatype.invalid", "data type {value} is not a DML_TENSOR_DATA_TYPE", Args{"value": int(d.DataType)})
		}
	}
	// 2. DimensionCount.
	n := len(d.Sizes)
	rankOK := n >= 1 && n <= MaxDimensionCount
	switch {
	case n < 1:
		vs.add(f.sizes, "tensor.rank.zero", "DimensionCount 0 < 1: a tensor has at least one dimension", nil)
	case n > MaxDimensionCount:
		vs.add(f.sizes, "tensor.rank.max", "DimensionCount {rank} > {max} (DML_TENSOR_DIMENSION_COUNT_MAX1): DimensionCount must be between 1 and 8 (DML_FEATURE_LEVEL_3_0+)", Args{"rank": n, "max": MaxDimensionCount})
	}
	// 3. Lengths.
	stridesLenOK := d.Strides == nil || len(d.Strides) == n
	if !stridesLenOK {
		vs.add(f.strides, "tensor.strides.count", "{field} must have DimensionCount entries ({rank}), got {count}", Args{"field": f.strides, "rank": n, "count": Count{int64(len(d.Strides)), "entries"}})
	}
	// 4. Sizes >= 1 and representable as UINT.
	sizesOK := true
	for i, s := range d.Sizes {
		switch {
		case s == 0:
			sizesOK = false
			vs.add(indexed(f.sizes, i), "tensor.size.zero", "{field} == 0: specifying a size of zero in any dimension is invalid", Args{"field": indexed(f.sizes, i)})
		case s < 0:
			sizesOK = false
			vs.add(indexed(f.sizes, i), "tensor.size.negative", "{field} = {value} is negative: sizes are UINT and at least 1", Args{"field": indexed(f.sizes, i), "value": s})
		case s > MaxUINT:
			sizesOK = false
			vs.add(indexed(f.sizes, i), "tensor.size.uint", "{field} = {value} exceeds the UINT maximum 2^32-1", Args{"field": indexed(f.sizes, i), "value": s})
		}
	}
	// 5. Strides non-negative UINT.
	stridesOK := stridesLenOK
	for i, s := range d.Strides {
		switch {
		case s < 0:
			stridesOK = false
			vs.add(indexed(f.strides, i), "tensor.stride.negative", "{field} = {value}: DML_BUFFER_TENSOR_DESC::Strides is const UINT*, so negative strides cannot be expressed (use DML_SLICE1 negative window strides to reverse)", Args{"field": indexed(f.strides, i), "value": s})
		case s > MaxUINT:
			stridesOK = false
			vs.add(indexed(f.strides, i), "tensor.stride.uint", "{field} = {value} exceeds the UINT maximum 2^32-1", Args{"field": indexed(f.strides, i), "value": s})
		}
	}
	// 6. Element counts.
	countsOK := rankOK && sizesOK && stridesOK
	if rankOK && sizesOK {
		if _, ok := logicalCountOf(d.Sizes); !ok {
			countsOK = false
			vs.add(f.sizes, "tensor.count.logical", "the logical element count {count} > 2^32-1: a tensor holds at most 4294967295 elements", Args{"count": productText(d.Sizes)})
		}
	}
	if rankOK && sizesOK && stridesOK {
		if d.Strides != nil {
			if _, ok := indexOfLastOf(d.Sizes, d.Strides); !ok {
				countsOK = false
				vs.add(f.strides, "tensor.count.implied", "the minimum implied element count sum((size-1)*stride)+1 = {count} > 2^32-1", Args{"count": impliedText(d.Sizes, d.Strides)})
			}
		}
	}
	// 7. TotalTensorSizeInBytes.
	if d.TotalTensorSizeInBytes != nil {
		total := *d.TotalTensorSizeInBytes
		if total < 0 {
			vs.add(f.total, "tensor.total.negative", "{field} {value} is negative: it is a UINT64 byte count", Args{"field": f.total, "value": total})
		} else if countsOK && typeOK {
			if min := minimumBufferSize(d.DataType, d.Sizes, d.Strides); total < min {
				vs.add(f.total, "tensor.total.small", "{field} {value} < DMLCalcBufferTensorSize {min}: the buffer must hold every element", Args{"field": f.total, "value": total, "min": min})
			}
		}
	}
	// 8. GuaranteedBaseOffsetAlignment.
	if a := d.GuaranteedBaseOffsetAlignment; a != 0 {
		switch {
		case a < 0 || a&(a-1) != 0:
			vs.add(f.alignment, "tensor.alignment.pow2", "{field} {value} must be 0 or a power of two", Args{"field": f.alignment, "value": a})
		case a > MaxUINT:
			// A UINT: 2^32 and above cannot be written into the struct.
			vs.add(f.alignment, "tensor.alignment.uint", "{field} = {value} exceeds the UINT maximum 2^32-1", Args{"field": f.alignment, "value": a})
		case typeOK && a*8 < d.DataType.Bits():
			vs.add(f.alignment, "tensor.alignment.element", "{field} {value} must be at least the element size ({bytes})", Args{"field": f.alignment, "value": a, "bytes": Count{d.DataType.Bits() / 8, "bytes"}})
		}
	}
}

func newLayoutUnchecked(d TensorDesc) *Layout {
	l := &Layout{
		DataType:                      d.DataType,
		Sizes:                         append([]int64(nil), d.Sizes...),
		StridesImplicit:               d.Strides == nil,
		GuaranteedBaseOffsetAlignment: d.GuaranteedBaseOffsetAlignment,
	}
	if d.TotalTensorSizeInBytes != nil {
		l.TotalTensorSizeInBytes = *d.TotalTensorSizeInBytes
	}
	if d.Strides == nil {
		l.Strides = PackedStrides(d.Sizes)
	} else {
		l.Strides = append([]int64(nil), d.Strides...)
	}
	c, _ := logicalCountOf(l.Sizes)
	last, _ := indexOfLastOf(l.Sizes, l.Strides)
	l.logicalCount, l.indexOfLast = int64(c), int64(last)
	l.distinct, l.distinctKnown = distinctOffsets(l.Sizes, l.Strides, l.logicalCount, l.indexOfLast)
	return l
}

// logicalCountOf returns product(sizes) when it is at most 2^32-1.
func logicalCountOf(sizes []int64) (uint64, bool) {
	p := uint64(1)
	for _, s := range sizes {
		if s < 0 {
			return 0, false
		}
		var ok bool
		if p, ok = mulLimit(p, uint64(s), MaxUINT); !ok {
			return 0, false
		}
	}
	return p, true
}

// indexOfLastOf returns dot(sizes-1, strides) when index+1 is at most 2^32-1.
func indexOfLastOf(sizes, strides []int64) (uint64, bool) {
	var sum uint64
	for i, s := range sizes {
		if s < 1 || strides[i] < 0 {
			return 0, false
		}
		t, ok := mulLimit(uint64(s-1), uint64(strides[i]), MaxUINT-1)
		if !ok {
			return 0, false
		}
		if sum, ok = addLimit(sum, t, MaxUINT-1); !ok {
			return 0, false
		}
	}
	return sum, true
}

// productText and impliedText state an out-of-range count exactly in
// decimal (eight UINT sizes can reach 2^256), for the error message.
func productText(sizes []int64) string {
	p := big.NewInt(1)
	for _, s := range sizes {
		p.Mul(p, big.NewInt(s))
	}
	return p.String()
}

func impliedText(sizes, strides []int64) string {
	sum := big.NewInt(1)
	var t big.Int
	for i, s := range sizes {
		t.Mul(big.NewInt(s-1), big.NewInt(strides[i]))
		sum.Add(sum, &t)
	}
	return sum.String()
}

// PackedStrides returns the packed strides in DirectML order (the last
// dimension varies fastest): stride[i] = product(sizes[i+1:]). The caller
// ensures the product fits.
func PackedStrides(sizes []int64) []int64 {
	st := make([]int64, len(sizes))
	p := int64(1)
	for i := len(sizes) - 1; i >= 0; i-- {
		st[i] = p
		p *= sizes[i]
	}
	return st
}

// ErrTooMany is returned when a caller asks to enumerate more elements than
// its limit allows.
var ErrTooMany = errors.New("too many elements to enumerate")

// Rank is the DimensionCount.
func (l *Layout) Rank() int { return len(l.Sizes) }

// ElementSizeInBits is the size of one element.
func (l *Layout) ElementSizeInBits() int64 { return l.DataType.Bits() }

// LogicalElementCount is product(sizes).
func (l *Layout) LogicalElementCount() int64 { return l.logicalCount }

// IndexOfLastElement is dot(sizes-1, strides).
func (l *Layout) IndexOfLastElement() int64 { return l.indexOfLast }

// MinimumImpliedElementCount is IndexOfLastElement + 1.
func (l *Layout) MinimumImpliedElementCount() int64 { return l.indexOfLast + 1 }

// DistinctOffsetCount is the number of distinct buffer offsets the logical
// elements occupy; ok is false when it cannot be settled without
// enumerating a very large tensor.
func (l *Layout) DistinctOffsetCount() (n int64, ok bool) { return l.distinct, l.distinctKnown }

// HasBroadcast reports a dimension of size > 1 with stride 0.
func (l *Layout) HasBroadcast() bool {
	for i, s := range l.Sizes {
		if s > 1 && l.Strides[i] == 0 {
			return true
		}
	}
	return false
}

// Tri is a yes/no answer that may be unknown.
type Tri int8

// The values of a Tri.
const (
	TriUnknown Tri = iota
	TriFalse
	TriTrue
)

// TriOf is the settled Tri of b.
func TriOf(b bool) Tri {
	if b {
		return TriTrue
	}
	return TriFalse
}

// Known reports whether t is settled, and Bool its value.
func (t Tri) Known() bool { return t != TriUnknown }

// Bool is true only for TriTrue.
func (t Tri) Bool() bool { return t == TriTrue }

// HasOverlap: some logical elements share an offset.
func (l *Layout) HasOverlap() Tri {
	if l.distinctKnown {
		return TriOf(l.distinct < l.logicalCount)
	}
	if l.logicalCount > l.MinimumImpliedElementCount() || l.HasBroadcast() {
		return TriTrue // pigeonhole
	}
	return TriUnknown
}

// IsPadded: the span from offset 0 to the last element has holes.
func (l *Layout) IsPadded() Tri {
	if l.distinctKnown {
		return TriOf(l.MinimumImpliedElementCount() > l.distinct)
	}
	if l.logicalCount < l.MinimumImpliedElementCount() {
		return TriTrue
	}
	return TriUnknown
}

// IsPacked: distinct == logical == minimum implied.
func (l *Layout) IsPacked() Tri {
	if l.logicalCount != l.MinimumImpliedElementCount() {
		return TriFalse
	}
	if l.distinctKnown {
		return TriOf(l.distinct == l.logicalCount)
	}
	if l.HasBroadcast() {
		return TriFalse
	}
	return TriUnknown
}

// Offset returns dot(coord, strides). The coordinate must be in range.
func (l *Layout) Offset(coord []int64) (int64, error) {
	if len(coord) != len(l.Sizes) {
		return 0, fmt.Errorf("coordinate has %d dimensions, the tensor %d", len(coord), len(l.Sizes))
	}
	var off int64
	for i, c := range coord {
		if c < 0 || c >= l.Sizes[i] {
			return 0, fmt.Errorf("coordinate[%d] = %d is outside [0, %d)", i, c, l.Sizes[i])
		}
		off += c * l.Strides[i]
	}
	return off, nil
}

// Offsets returns the buffer offset of every logical element in row-major
// order, refusing with ErrTooMany when there are more than limit.
func (l *Layout) Offsets(limit int64) ([]int64, error) {
	if l.logicalCount > limit {
		return nil, fmt.Errorf("%w: %d logical elements > %d", ErrTooMany, l.logicalCount, limit)
	}
	out := make([]int64, 0, l.logicalCount)
	forEachOffset(l.Sizes, l.Strides, 0, func(o int64) { out = append(out, o) })
	return out, nil
}

// Coordinate returns the coordinate of the logical element with row-major
// index i.
func (l *Layout) Coordinate(i int64) []int64 {
	c := make([]int64, len(l.Sizes))
	for d := len(l.Sizes) - 1; d >= 0; d-- {
		c[d] = i % l.Sizes[d]
		i /= l.Sizes[d]
	}
	return c
}

// forEachOffset walks base + dot(coord, strides) in row-major order with
// an odometer (no division per element).
func forEachOffset(sizes, strides []int64, base int64, f func(int64)) {
	n := len(sizes)
	coord := make([]int64, n)
	off := base
	for {
		f(off)
		d := n - 1
		for ; d >= 0; d-- {
			coord[d]++
			off += strides[d]
			if coord[d] < sizes[d] {
				break
			}
			off -= coord[d] * strides[d]
			coord[d] = 0
		}
		if d < 0 {
			return
		}
	}
}

// MinimumBufferSizeInBytes is DMLCalcBufferTensorSize of the description.
func (l *Layout) MinimumBufferSizeInBytes() int64 {
	var st []int64
	if !l.StridesImplicit {
		st = l.Strides
	}
	return minimumBufferSize(l.DataType, l.Sizes, st)
}

// BufferSizeInBytes is the size of the buffer the picture shows: the
// larger of the minimum and TotalTensorSizeInBytes.
func (l *Layout) BufferSizeInBytes() int64 {
	return max(l.MinimumBufferSizeInBytes(), l.TotalTensorSizeInBytes)
}

// BufferElementCount is the number of whole elements the buffer holds.
// TotalTensorSizeInBytes may be any int64, so the count is found without
// multiplying the bytes by 8 (which would wrap from 2^60 bytes on); a
// 4-bit buffer (two elements a byte) of 2^62 bytes or more saturates at the int64 maximum.
func (l *Layout) BufferElementCount() int64 {
	bytes, bits := l.BufferSizeInBytes(), l.DataType.Bits()
	if bits >= 8 { // 8, 16, 32 or 64: whole bytes per element
		return bytes / (bits / 8)
	}
	if bytes > math.MaxInt64/2 {
		return math.MaxInt64
	}
	return bytes * 2
}

// Desc returns the description the layout was built from.
func (l *Layout) Desc() TensorDesc {
	d := TensorDesc{DataType: l.DataType, Sizes: l.Sizes, GuaranteedBaseOffsetAlignment: l.GuaranteedBaseOffsetAlignment}
	if !l.StridesImplicit {
		d.Strides = l.Strides
	}
	if l.TotalTensorSizeInBytes != 0 {
		t := l.TotalTensorSizeInBytes
		d.TotalTensorSizeInBytes = &t
	}
	return d
}
