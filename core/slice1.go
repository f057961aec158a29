package core

import (
	"errors"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
)

// FeatureLevel is a DML_FEATURE_LEVEL such as 3_0.
type FeatureLevel struct{ Major, Minor int }

// FeatureLevels are the DirectML feature levels, oldest first.
var FeatureLevels = []FeatureLevel{
	{1, 0}, {2, 0}, {2, 1}, {3, 0}, {3, 1}, {4, 0}, {4, 1},
	{5, 0}, {5, 1}, {5, 2}, {6, 0}, {6, 1}, {6, 2}, {6, 3}, {6, 4},
}

// NewestFeatureLevel is the default when none is asked for.
var NewestFeatureLevel = FeatureLevels[len(FeatureLevels)-1]

func (f FeatureLevel) String() string { return fmt.Sprintf("%d_%d", f.Major, f.Minor) }

// AtLeast reports f >= o.
func (f FeatureLevel) AtLeast(o FeatureLevel) bool {
	return f.Major > o.Major || f.Major == o.Major && f.Minor >= o.Minor
}

// ParseFeatureLevel accepts "3_0", "3.0" or "DML_FEATURE_LEVEL_3_0".
func ParseFeatureLevel(s string) (FeatureLevel, error) {
	t := strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(s)), "DML_FEATURE_LEVEL_")
	t = strings.ReplaceAll(t, ".", "_")
	for _, f := range FeatureLevels {
		if f.String() == t {
			return f, nil
		}
	}
	names := make([]string, len(FeatureLevels))
	for i, f := range FeatureLevels {
		names[i] = f.String()
	}
	return FeatureLevel{}, fmt.Errorf("unknown feature level %q (expected one of %s)", s, strings.Join(names, ", "))
}

var (
	fl21 = FeatureLevel{2, 1}
	fl30 = FeatureLevel{3, 0}
	fl41 = FeatureLevel{4, 1}
)

// SliceV1DataTypes returns the data types DML_SLICE (version 1) accepts
// at a feature level: from 2_1 those of DML_SLICE1; at 1_0 and 2_0 the
// 16- and 32-bit types (INT8 and UINT8 came with 2_1, as for DML_JOIN
// and DML_SPLIT; DML_SLICE_OPERATOR_DESC's tensor support table).
func SliceV1DataTypes(f FeatureLevel) []DataType {
	if f.AtLeast(fl21) {
		return Slice1DataTypes(f)
	}
	return []DataType{Float32, Float16, Int32, Int16, UInt32, UInt16}
}

// Slice1DataTypes returns the data types DML_SLICE1 accepts at a feature
// level: none before 2_1, the 8/16/32-bit types from 2_1, the 64-bit types
// from 4_1, and never the 4-bit types.
func Slice1DataTypes(f FeatureLevel) []DataType {
	if !f.AtLeast(fl21) {
		return nil
	}
	ts := []DataType{Float32, Float16, Int32, Int16, Int8, UInt32, UInt16, UInt8}
	if f.AtLeast(fl41) {
		ts = append(ts, Float64, Int64, UInt64)
	}
	return ts
}

// Slice1Desc is a DML_SLICE1_OPERATOR_DESC as a user typed it.
type Slice1Desc struct {
	Input TensorDesc
	// OutputDataType Unknown means "same as the input".
	OutputDataType DataType
	FeatureLevel   FeatureLevel
	WindowOffsets  []int64
	WindowSizes    []int64
	WindowStrides  []int64
	// OutputSizes nil means MaxCopiedElements in every dimension.
	OutputSizes []int64
	// sliceV1: the desc is a DML_SLICE converted (NewSliceV1), judged by
	// DML_SLICE's feature levels: it exists from 1_0, where DML_SLICE1
	// does not.
	sliceV1 bool
}

// Slice1 is a validated DML_SLICE1 with its derived values.
type Slice1 struct {
	Input         *Layout
	Output        *Layout // packed, same data type
	FeatureLevel  FeatureLevel
	WindowOffsets []int64
	WindowSizes   []int64
	WindowStrides []int64
	OutputSizes   []int64
	MaxCopied     []int64
	CopyStart     []int64
}

var slice1InputFields = fieldNames{"dataType", "inputSizes", "inputStrides", "inputTotalTensorSizeInBytes", "inputGuaranteedBaseOffsetAlignment"}

// MaxCopiedElements is 1 + (size-1)/|stride| (directml-rules.md section 5;
// the page prints the signed stride, erratum E2).
func MaxCopiedElements(size, stride int64) int64 {
	if size < 1 || stride == 0 {
		return 0
	}
	return 1 + (size-1)/abs64(stride)
}

// CopyStart is offset + (size-1) for a negative stride, else offset.
func CopyStart(offset, size, stride int64) int64 {
	if stride < 0 {
		return offset + size - 1
	}
	return offset
}

// NewSlice1 validates d against every rule of directml-rules.md section 5
// (and the input tensor against section 2), reporting all violations.
func NewSlice1(d Slice1Desc) (*Slice1, error) {
	var vs violations
	checkTensor(&vs, d.Input, slice1InputFields)
	fl := d.FeatureLevel
	if fl == (FeatureLevel{}) {
		fl = NewestFeatureLevel
	}
	n := len(d.Input.Sizes)

	// 1. DimensionCount agrees everywhere.
	lensOK := true
	for _, a := range []struct {
		field string
		vals  []int64
	}{
		{"inputWindowOffsets", d.WindowOffsets},
		{"inputWindowSizes", d.WindowSizes},
		{"inputWindowStrides", d.WindowStrides},
		{"outputSizes", d.OutputSizes},
	} {
		if a.field == "outputSizes" && a.vals == nil {
			continue
		}
		if len(a.vals) != n {
			lensOK = false
			vs.add(a.field, "slice1.rank.mismatch", "{field} has {count}: DimensionCount must match the DimensionCount of the input and output tensors ({rank})", Args{"field": a.field, "count": Count{int64(len(a.vals)), "entries"}, "rank": n})
		}
	}
	// 2. DimensionCount range at the feature level.
	if !fl.AtLeast(fl21) && !d.sliceV1 {
		vs.add("featureLevel", "slice1.level.old", "DML_SLICE1 was introduced in DML_FEATURE_LEVEL_2_1; {level} is older", Args{"level": fl})
	} else if !fl.AtLeast(fl30) {
		if n != 4 && n != 5 {
			vs.add("inputSizes", "slice1.rank.level", "DimensionCount {rank}: DimensionCount must be 4 or 5 before DML_FEATURE_LEVEL_3_0 (this is {level})", Args{"rank": n, "level": fl})
		}
	}
	// 3. Data types.
	out := d.OutputDataType
	if out == Unknown {
		out = d.Input.DataType
	}
	if out != d.Input.DataType {
		vs.add("outputDataType", "slice1.datatype.output", "{field} {output} != {of} {input}: InputTensor and OutputTensor must have the same DataType", Args{"field": "outputDataType", "of": slice1InputFields.dataType, "output": out, "input": d.Input.DataType})
	}
	if d.sliceV1 && !fl.AtLeast(fl21) {
		if d.Input.DataType.Valid() && !containsType(SliceV1DataTypes(fl), d.Input.DataType) {
			vs.add("dataType", "slice.datatype.level", "DataType {type} not supported by DML_OPERATOR_SLICE at feature level {level} (FLOAT32, FLOAT16, INT32, INT16, UINT32 and UINT16 before 2_1)", Args{"type": d.Input.DataType, "level": fl})
		}
	} else if d.Input.DataType.Valid() && fl.AtLeast(fl21) && !containsType(Slice1DataTypes(fl), d.Input.DataType) {
		args := Args{"type": d.Input.DataType, "level": fl}
		switch d.Input.DataType.Bits() {
		case 64:
			vs.add("dataType", "slice1.datatype.level64", "DataType {type} not supported by DML_OPERATOR_SLICE1 at feature level {level} (64-bit types need 4_1 or later)", args)
		case 4:
			vs.add("dataType", "slice1.datatype.4bit", "DataType {type} not supported by DML_OPERATOR_SLICE1 at feature level {level} (no feature level supports 4-bit types for DML_SLICE1)", args)
		default:
			vs.add("dataType", "slice1.datatype.level", "DataType {type} not supported by DML_OPERATOR_SLICE1 at feature level {level}", args)
		}
	}
	// 4. Each value against its own type, whether or not the arrays line
	// up: a wrong length hides no other violation.
	for i, off := range d.WindowOffsets {
		if off < 0 || off > MaxUINT {
			vs.add(indexed("inputWindowOffsets", i), "slice1.offset.uint", "InputWindowOffsets[{axis}] = {value} is not a UINT (0 to 2^32-1)", Args{"axis": i, "value": off})
		}
	}
	sizeOK := make([]bool, len(d.WindowSizes))
	for i, size := range d.WindowSizes {
		switch {
		case size == 0:
			vs.add(indexed("inputWindowSizes", i), "slice1.window.empty", "axis {axis}: InputWindowSizes[{axis}] == 0 (the window must not be empty)", Args{"axis": i})
		case size < 0 || size > MaxUINT:
			vs.add(indexed("inputWindowSizes", i), "slice1.window.uint", "InputWindowSizes[{axis}] = {value} is not a UINT of at least 1", Args{"axis": i, "value": size})
		default:
			sizeOK[i] = true
		}
	}
	strideOK := make([]bool, len(d.WindowStrides))
	for i, stride := range d.WindowStrides {
		switch {
		case stride == 0:
			vs.add(indexed("inputWindowStrides", i), "slice1.stride.zero", "axis {axis}: InputWindowStrides[{axis}] == 0 (strides may not be 0)", Args{"axis": i})
		case stride < -1<<31 || stride > 1<<31-1:
			vs.add(indexed("inputWindowStrides", i), "slice1.stride.int", "InputWindowStrides[{axis}] = {value} is not an INT (-2^31 to 2^31-1)", Args{"axis": i, "value": stride})
		default:
			strideOK[i] = true
		}
	}
	lined := lensOK && n <= MaxDimensionCount
	for i, o := range d.OutputSizes {
		// An axis whose MaxCopiedElements is known says the whole range (7).
		if o < 1 && !(lined && sizeOK[i] && strideOK[i]) {
			vs.add(indexed("outputSizes", i), "slice1.output.min", "OutputSizes[{axis}] = {value}: an output size is at least 1", Args{"axis": i, "value": o})
		}
	}
	// 5-7 per dimension, only where the arrays line up.
	s := &Slice1{FeatureLevel: fl}
	if lined {
		s.MaxCopied = make([]int64, n)
		s.CopyStart = make([]int64, n)
		s.OutputSizes = make([]int64, n)
		for i := range n {
			off, size, stride := d.WindowOffsets[i], d.WindowSizes[i], d.WindowStrides[i]
			// 5. The window stays inside the input (no 32-bit wrap: int64).
			if sizeOK[i] && off >= 0 && off <= MaxUINT && i < len(d.Input.Sizes) {
				if in := d.Input.Sizes[i]; in >= 1 && off+size > in {
					vs.add(indexed("inputWindowOffsets", i), "slice1.window.outside", "axis {axis}: InputWindowOffsets[{axis}] + InputWindowSizes[{axis}] = {end} > InputTensor.Sizes[{axis}] = {size}", Args{"axis": i, "end": off + size, "size": in})
				}
			}
			if !sizeOK[i] || !strideOK[i] {
				continue
			}
			s.MaxCopied[i] = MaxCopiedElements(size, stride)
			s.CopyStart[i] = CopyStart(off, size, stride)
			// 7. Output sizes.
			o := s.MaxCopied[i]
			if d.OutputSizes != nil {
				o = d.OutputSizes[i]
				if o < 1 || o > s.MaxCopied[i] {
					vs.add(indexed("outputSizes", i), "slice1.output.range", "axis {axis}: OutputSizes[{axis}] = {value} not in [1, MaxCopiedElements = {max}] (1 + ({size} - 1) / |{stride}|)", Args{"axis": i, "value": o, "max": s.MaxCopied[i], "size": size, "stride": stride})
				}
			}
			s.OutputSizes[i] = o
		}
	}
	if err := vs.err(); err != nil {
		return nil, err
	}
	s.Input = newLayoutUnchecked(d.Input)
	s.Input.Warnings = dwordWarnings(slice1InputFields.total, d.Input.TotalTensorSizeInBytes)
	s.WindowOffsets = append([]int64(nil), d.WindowOffsets...)
	s.WindowSizes = append([]int64(nil), d.WindowSizes...)
	s.WindowStrides = append([]int64(nil), d.WindowStrides...)
	// The output has at most as many elements as the input's logical count.
	s.Output = newLayoutUnchecked(TensorDesc{DataType: out, Sizes: s.OutputSizes})
	return s, nil
}

func containsType(ts []DataType, t DataType) bool {
	for _, x := range ts {
		if x == t {
			return true
		}
	}
	return false
}

// OutputElementCount is product(OutputSizes).
func (s *Slice1) OutputElementCount() int64 { return s.Output.LogicalElementCount() }

// InputCoordinate returns CopyStart + strides * c for the output element
// with row-major index i (Output[c] = Input[CopyStart + Strides * c]).
func (s *Slice1) InputCoordinate(i int64) []int64 {
	c := s.Output.Coordinate(i)
	for d := range c {
		c[d] = s.CopyStart[d] + s.WindowStrides[d]*c[d]
	}
	return c
}

// SourceStrides are the input buffer strides the output walks: window
// stride times input stride, per dimension, signed.
func (s *Slice1) SourceStrides() []int64 {
	st := make([]int64, len(s.WindowStrides))
	for i, w := range s.WindowStrides {
		st[i] = w * s.Input.Strides[i]
	}
	return st
}

// BaseOffset is the input buffer offset of CopyStart, the first element read.
func (s *Slice1) BaseOffset() int64 {
	var o int64
	for i, c := range s.CopyStart {
		o += c * s.Input.Strides[i]
	}
	return o
}

// InputOffsets returns, for every output element in row-major order, the
// input buffer offset it reads; ErrTooMany past limit.
func (s *Slice1) InputOffsets(limit int64) ([]int64, error) {
	n := s.OutputElementCount()
	if n > limit {
		return nil, fmt.Errorf("%w: %d output elements > %d", ErrTooMany, n, limit)
	}
	out := make([]int64, 0, n)
	forEachOffset(s.OutputSizes, s.SourceStrides(), s.BaseOffset(), func(o int64) { out = append(out, o) })
	return out, nil
}

// InputCoordinates returns the input coordinate read by every output
// element in row-major order; ErrTooMany past limit.
func (s *Slice1) InputCoordinates(limit int64) ([][]int64, error) {
	n := s.OutputElementCount()
	if n > limit {
		return nil, fmt.Errorf("%w: %d output elements > %d", ErrTooMany, n, limit)
	}
	out := make([][]int64, 0, n)
	for i := range n {
		out = append(out, s.InputCoordinate(i))
	}
	return out, nil
}

// SliceDesc is a DML_SLICE_OPERATOR_DESC (version 1): unsigned offsets,
// sizes and strides, where Sizes are the output sizes.
type SliceDesc struct {
	Input   TensorDesc
	Offsets []int64
	Sizes   []int64
	Strides []int64
}

// ToSlice1 converts DML_SLICE to the DML_SLICE1 that copies the same
// elements: the window spans (size-1)*stride+1 input elements from the
// offset, the stride keeps its (non-negative) value, and the output sizes
// are the slice sizes. Negative or zero sizes, negative offsets and zero
// strides are left for NewSlice1 to report. A negative stride, which
// DML_SLICE's UINT strides cannot hold, is passed through unchanged (and
// would be a DML_SLICE1 reversal): NewSliceV1 validates and rejects it.
func (d SliceDesc) ToSlice1(fl FeatureLevel) Slice1Desc {
	n := len(d.Sizes)
	win := make([]int64, n)
	for i := range n {
		win[i] = d.Sizes[i]
		if i < len(d.Strides) && d.Sizes[i] >= 1 && d.Strides[i] >= 1 {
			if span, ok := mulLimit(uint64(d.Sizes[i]-1), uint64(d.Strides[i]), MaxUINT); ok {
				win[i] = int64(span) + 1
			}
		}
	}
	strides := append([]int64(nil), d.Strides...)
	for i := range min(n, len(strides)) {
		// One element read: its stride is never applied, so a UINT
		// stride past INT has the exact DML_SLICE1 stride 1.
		if d.Sizes[i] == 1 && strides[i] > math.MaxInt32 && strides[i] <= MaxUINT {
			strides[i] = 1
		}
	}
	return Slice1Desc{
		Input:         d.Input,
		FeatureLevel:  fl,
		WindowOffsets: append([]int64(nil), d.Offsets...),
		WindowSizes:   win,
		WindowStrides: strides,
		OutputSizes:   append([]int64(nil), d.Sizes...),
	}
}

// NewSliceV1 validates a DML_SLICE (version 1) and returns the DML_SLICE1
// that copies the same elements. Negative strides, which DML_SLICE's UINT
// strides cannot hold, are reported with every DML_SLICE1 violation.
func NewSliceV1(d SliceDesc, fl FeatureLevel) (*Slice1, error) {
	var vs violations
	for i, st := range d.Strides {
		if st < 0 {
			vs.add(indexed("strides", i), "slice.stride.negative", "strides[{axis}] = {value}: DML_SLICE_OPERATOR_DESC::Strides is const UINT*, so it cannot reverse (DML_SLICE1's signed InputWindowStrides can)", Args{"axis": i, "value": st})
		}
		if st > MaxUINT {
			vs.add(indexed("strides", i), "slice.stride.uint", "strides[{axis}] = {value}: DML_SLICE_OPERATOR_DESC::Strides is const UINT*, at most 2^32-1", Args{"axis": i, "value": st})
		}
	}
	desc := d.ToSlice1(fl)
	desc.sliceV1 = true
	for i := range min(len(d.Sizes), len(d.Strides)) {
		size, st := d.Sizes[i], d.Strides[i]
		if st > MaxUINT {
			// Said at the stride: the axis is neutral for the rest.
			desc.WindowSizes[i], desc.WindowStrides[i], desc.OutputSizes[i] = 1, 1, 1
			continue
		}
		if size < 1 || st < 1 {
			continue
		}
		// A window past a UINT is reported with its converted size, and
		// the axis is neutral for the rest of the rules, which would
		// otherwise judge the unconverted size.
		hi, lo := bits.Mul64(uint64(size-1), uint64(st))
		if hi == 0 && lo < MaxUINT {
			continue
		}
		var span any = NewMsg("slice.window.span64", "more than 2^64", nil)
		if hi == 0 && lo < math.MaxUint64 {
			span = strconv.FormatUint(lo+1, 10)
		}
		vs.add(indexed("sizes", i), "slice.window.span", "sizes[{axis}] = {size} with strides[{axis}] = {stride}: as DML_SLICE1 the input window spans ({size} - 1) × {stride} + 1 = {span} elements, more than a UINT holds ({max})",
			Args{"axis": i, "size": size, "stride": st, "span": span, "max": uint64(MaxUINT)})
		desc.WindowSizes[i], desc.WindowStrides[i], desc.OutputSizes[i] = 1, 1, 1
	}
	s, err := NewSlice1(desc)
	var ve *ValidationError
	if errors.As(err, &ve) {
		vs = append(vs, ve.Violations...)
	}
	if err := vs.err(); err != nil {
		return nil, err
	}
	return s, nil
}
