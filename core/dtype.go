package core

import (
	"fmt"
	"math"
	"strings"
)

// DataType is a DML_TENSOR_DATA_TYPE.
type DataType int

// The DML_TENSOR_DATA_TYPE values, in directml.h order.
const (
	Unknown DataType = iota
	Float32
	Float16
	UInt32
	UInt16
	UInt8
	Int32
	Int16
	Int8
	Float64
	UInt64
	Int64
	UInt4
	Int4
)

var dataTypeNames = [...]string{
	Unknown: "UNKNOWN",
	Float32: "FLOAT32",
	Float16: "FLOAT16",
	UInt32:  "UINT32",
	UInt16:  "UINT16",
	UInt8:   "UINT8",
	Int32:   "INT32",
	Int16:   "INT16",
	Int8:    "INT8",
	Float64: "FLOAT64",
	UInt64:  "UINT64",
	Int64:   "INT64",
	UInt4:   "UINT4",
	Int4:    "INT4",
}

// DataTypes lists every valid data type (UNKNOWN excluded).
func DataTypes() []DataType {
	return []DataType{Float32, Float16, UInt32, UInt16, UInt8, Int32, Int16, Int8, Float64, UInt64, Int64, UInt4, Int4}
}

// String returns the name without the DML_TENSOR_DATA_TYPE_ prefix.
func (d DataType) String() string {
	if d < 0 || int(d) >= len(dataTypeNames) {
		return fmt.Sprintf("DataType(%d)", int(d))
	}
	return dataTypeNames[d]
}

// CName returns the directml.h enumerator, e.g. DML_TENSOR_DATA_TYPE_FLOAT32.
func (d DataType) CName() string { return "DML_TENSOR_DATA_TYPE_" + d.String() }

// ParseDataType accepts a name with or without the DML_TENSOR_DATA_TYPE_
// prefix, in any case. UNKNOWN parses (so it can be reported as invalid by
// validation) but no other unknown name does.
func ParseDataType(name string) (DataType, error) {
	n := strings.ToUpper(strings.TrimSpace(name))
	n = strings.TrimPrefix(n, "DML_TENSOR_DATA_TYPE_")
	for i, s := range dataTypeNames {
		if s == n {
			return DataType(i), nil
		}
	}
	return Unknown, NewMsg("datatype.unknown", "unknown data type {name:q} (expected one of {names})", Args{"name": name, "names": strings.Join(validNames(), ", ")})
}

func validNames() []string {
	var out []string
	for _, d := range DataTypes() {
		out = append(out, d.String())
	}
	return out
}

// Bits returns the element size in bits: 4, 8, 16, 32 or 64, and 0 for
// UNKNOWN or an out-of-range value.
func (d DataType) Bits() int64 {
	switch d {
	case Float32, UInt32, Int32:
		return 32
	case Float16, UInt16, Int16:
		return 16
	case UInt8, Int8:
		return 8
	case Float64, UInt64, Int64:
		return 64
	case UInt4, Int4:
		return 4
	}
	return 0
}

// Valid reports whether d is a known type other than UNKNOWN.
func (d DataType) Valid() bool { return d.Bits() != 0 }

// IsFloat reports whether values of d are floating point.
func (d DataType) IsFloat() bool { return d == Float32 || d == Float16 || d == Float64 }

// IsSigned reports whether d is a signed integer or float type.
func (d DataType) IsSigned() bool {
	switch d {
	case Int32, Int16, Int8, Int64, Int4, Float32, Float16, Float64:
		return true
	}
	return false
}

// Float16Bits rounds a float64 to the nearest IEEE half (ties to even) in
// one step: through a float32, a value just below a tie between two halves
// (65519.999) would round up to the tie and then away from it (to +Inf).
func Float16Bits(f float64) uint16 {
	b := math.Float64bits(f)
	sign := uint16(b>>48) & 0x8000
	exp := int(b>>52) & 0x7ff
	mant := b & (1<<52 - 1)
	if exp == 0x7ff {
		if mant != 0 {
			return sign | 0x7e00
		}
		return sign | 0x7c00
	}
	e := exp - 1023 + 15
	switch {
	case e >= 0x1f:
		return sign | 0x7c00
	case e <= 0:
		if e < -10 {
			return sign
		}
		mant |= 1 << 52
		shift := uint(43 - e)
		h, rem, mid := mant>>shift, mant&(1<<shift-1), uint64(1)<<(shift-1)
		if rem > mid || rem == mid && h&1 == 1 {
			h++
		}
		return sign | uint16(h)
	}
	h := uint64(e)<<10 | mant>>42
	if rem := mant & (1<<42 - 1); rem > 1<<41 || rem == 1<<41 && h&1 == 1 {
		h++ // a carry into the exponent is still the right rounding, up to +Inf
	}
	return sign | uint16(h)
}
