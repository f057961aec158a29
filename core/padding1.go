package core

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// PaddingMode is a DML_PADDING_MODE.
type PaddingMode int

// The DML_PADDING_MODE values, in DirectML.h order.
const (
	PadConstant PaddingMode = iota
	PadEdge
	PadReflection
	PadSymmetric
	PadWrap
)

var paddingModeNames = [...]string{"CONSTANT", "EDGE", "REFLECTION", "SYMMETRIC", "WRAP"}

// PaddingModes lists every DML_PADDING_MODE.
func PaddingModes() []PaddingMode {
	return []PaddingMode{PadConstant, PadEdge, PadReflection, PadSymmetric, PadWrap}
}

// String is the name without the DML_PADDING_MODE_ prefix.
func (m PaddingMode) String() string {
	if !m.Valid() {
		return fmt.Sprintf("PaddingMode(%d)", int(m))
	}
	return paddingModeNames[m]
}

// CName is the DirectML.h enumerator, e.g. DML_PADDING_MODE_REFLECTION.
func (m PaddingMode) CName() string { return "DML_PADDING_MODE_" + m.String() }

// Valid reports whether m is one of the five modes.
func (m PaddingMode) Valid() bool { return m >= PadConstant && m <= PadWrap }

// NumPy is np.pad's name for the mode: the same index map (see
// PadSource) under NumPy's own word.
func (m PaddingMode) NumPy() string {
	return [...]string{"constant", "edge", "reflect", "symmetric", "wrap"}[m]
}

// ParsePaddingMode accepts DirectML's name with or without its
// DML_PADDING_MODE_ prefix, or NumPy's ("reflect"), in any case.
func ParsePaddingMode(s string) (PaddingMode, error) {
	n := strings.TrimPrefix(strings.ToUpper(strings.TrimSpace(s)), "DML_PADDING_MODE_")
	for _, m := range PaddingModes() {
		if n == m.String() || n == strings.ToUpper(m.NumPy()) {
			return m, nil
		}
	}
	return 0, NewMsg("padding.mode.unknown", "unknown padding mode {name:q} (expected one of {names})", Args{"name": s, "names": strings.Join(paddingModeNames[:], ", ")})
}

// fl64 is the level WRAP arrived at (fl50, PADDING1's own, is
// depthspace.go's too).
var fl64 = FeatureLevel{6, 4}

// Padding1Since is the feature level from which DML_PADDING1 accepts
// mode m: the operator arrived at 5_0 with CONSTANT, EDGE, REFLECTION
// and SYMMETRIC (SYMMETRIC itself dates from 3_0, for DML_PADDING);
// WRAP came at 6_4 (the feature level history page; the PADDING1 page
// never mentions it).
func Padding1Since(m PaddingMode) FeatureLevel {
	if m == PadWrap {
		return fl64
	}
	return fl50
}

// Padding1DataTypes returns the data types DML_PADDING1 accepts at a
// feature level: none before 5_0, then the eleven 8- to 64-bit types of
// its tensor support table; never the 4-bit types.
func Padding1DataTypes(f FeatureLevel) []DataType {
	if !f.AtLeast(fl50) {
		return nil
	}
	return []DataType{Float64, Float32, Float16, Int64, Int32, Int16, Int8, UInt64, UInt32, UInt16, UInt8}
}

// Padding1Desc is a DML_PADDING1_OPERATOR_DESC as a user typed it.
type Padding1Desc struct {
	Input TensorDesc
	// OutputDataType Unknown means "same as the input".
	OutputDataType DataType
	// OutputSizes nil means input + start + end in every dimension.
	OutputSizes  []int64
	FeatureLevel FeatureLevel
	Mode         PaddingMode
	// PaddingValue is the DML_SCALAR_UNION read as the output's type
	// (PaddingValueDataType must be that type).
	PaddingValue float64
	StartPadding []int64
	EndPadding   []int64
}

// Padding1 is a validated DML_PADDING1.
type Padding1 struct {
	Input        *Layout
	Output       *Layout // packed, the input's data type
	FeatureLevel FeatureLevel
	Mode         PaddingMode
	PaddingValue float64
	StartPadding []int64
	EndPadding   []int64
	// Notes are where another runtime would refuse or read the same
	// description differently: reported, not errors.
	Notes []Violation
}

var (
	padding1InputFields  = fieldNames{"dataType", "inputSizes", "inputStrides", "inputTotalTensorSizeInBytes", "inputGuaranteedBaseOffsetAlignment"}
	padding1OutputFields = fieldNames{"outputDataType", "outputSizes", "outputStrides", "outputTotalTensorSizeInBytes", "outputGuaranteedBaseOffsetAlignment"}
)

// NewPadding1 validates d against the DML_PADDING1 page: the input
// tensor's own rules, the feature level, the data type, the mode, the
// DimensionCount of both padding arrays, each padding a UINT, the output
// sizes input + start + end as a valid tensor, and the padding value
// representable in the data type. Every violation is reported at once.
func NewPadding1(d Padding1Desc) (*Padding1, error) {
	var vs violations
	checkTensor(&vs, d.Input, padding1InputFields)
	fl := d.FeatureLevel
	if fl == (FeatureLevel{}) {
		fl = NewestFeatureLevel
	}
	n := len(d.Input.Sizes)
	dt := d.Input.DataType
	if !fl.AtLeast(fl50) {
		vs.add("featureLevel", "padding1.level.old", "DML_PADDING1 was introduced in DML_FEATURE_LEVEL_5_0; {level} is older", Args{"level": fl})
	} else if dt.Valid() && !containsType(Padding1DataTypes(fl), dt) {
		vs.add("dataType", "padding1.datatype.4bit", "DataType {type} is not supported by DML_OPERATOR_PADDING1 at any feature level (no 4-bit types)", Args{"type": dt})
	}
	out := d.OutputDataType
	if out == Unknown {
		out = dt
	}
	if out != dt {
		vs.add("outputDataType", "padding1.datatype.output", "{field} {output} != {of} {input}: InputTensor and OutputTensor must have the same DataType", Args{"field": "outputDataType", "of": "dataType", "output": out, "input": dt})
	}
	checkPaddingMode(&vs, d.Mode, fl)
	startOK := checkPaddingArray(&vs, "startPadding", d.StartPadding, n)
	endOK := checkPaddingArray(&vs, "endPadding", d.EndPadding, n)
	if d.OutputSizes != nil && len(d.OutputSizes) != n {
		vs.add("outputSizes", "padding1.rank.mismatch", "{field} has {count}: DimensionCount must match the DimensionCount of the input and output tensors ({rank})", Args{"field": "outputSizes", "count": Count{int64(len(d.OutputSizes)), "entries"}, "rank": n})
	}
	var outSizes []int64
	if startOK && endOK && shapeOK(d.Input, padding1InputFields) {
		outSizes = paddedSizes(d.Input.Sizes, d.StartPadding, d.EndPadding)
		checkPaddedOutput(&vs, d.OutputSizes, outSizes)
	}
	if d.Mode == PadConstant && dt.Valid() {
		checkPaddingValue(&vs, dt, d.PaddingValue)
	}
	if err := vs.err(); err != nil {
		return nil, err
	}
	p := &Padding1{
		Input:        newLayoutUnchecked(d.Input),
		Output:       newLayoutUnchecked(TensorDesc{DataType: dt, Sizes: outSizes}),
		FeatureLevel: fl,
		Mode:         d.Mode,
		PaddingValue: d.PaddingValue,
		StartPadding: slices.Clone(d.StartPadding),
		EndPadding:   slices.Clone(d.EndPadding),
	}
	p.Input.Warnings = dwordWarnings(padding1InputFields.total, d.Input.TotalTensorSizeInBytes)
	p.Notes = padding1Notes(p)
	return p, nil
}

func checkPaddingMode(vs *violations, m PaddingMode, fl FeatureLevel) {
	switch {
	case !m.Valid():
		vs.add("paddingMode", "padding1.mode.invalid", "PaddingMode {value} is not a DML_PADDING_MODE (CONSTANT, EDGE, REFLECTION, SYMMETRIC or WRAP)", Args{"value": int(m)})
	case fl.AtLeast(fl50) && !fl.AtLeast(Padding1Since(m)):
		vs.add("paddingMode", "padding1.mode.level", "{mode} is accepted by DML_PADDING1 from DML_FEATURE_LEVEL_{since}; {level} is older", Args{"mode": m.CName(), "since": Padding1Since(m), "level": fl})
	}
}

// checkPaddingArray judges StartPadding or EndPadding: DimensionCount
// entries, each a UINT. It reports whether the array can be used.
func checkPaddingArray(vs *violations, field string, pads []int64, rank int) bool {
	ok := true
	if len(pads) != rank {
		ok = false
		vs.add(field, "padding1.rank.mismatch", "{field} has {count}: DimensionCount must match the DimensionCount of the input and output tensors ({rank})", Args{"field": field, "count": Count{int64(len(pads)), "entries"}, "rank": rank})
	}
	for i, p := range pads {
		if p < 0 || p > MaxUINT {
			ok = false
			vs.add(indexed(field, i), "padding1.pad.uint", "{field} = {value} is not a UINT (0 to 2^32-1)", Args{"field": indexed(field, i), "value": p})
		}
	}
	return ok
}

// paddedSizes is Sizes[i] + StartPadding[i] + EndPadding[i]: three
// values below 2^32 each, so the int64 sum is exact.
func paddedSizes(sizes, start, end []int64) []int64 {
	out := make([]int64, len(sizes))
	for i, s := range sizes {
		out[i] = s + start[i] + end[i]
	}
	return out
}

// checkPaddedOutput judges the output the paddings make as a tensor (each
// size a UINT, at most 2^32-1 elements) and, when the user gave output
// sizes, that they are the ones the page's formula gives.
func checkPaddedOutput(vs *violations, given, want []int64) {
	var ovs violations
	checkTensor(&ovs, TensorDesc{DataType: Float32, Sizes: want}, padding1OutputFields)
	*vs = append(*vs, ovs...)
	if given == nil || len(given) != len(want) {
		return
	}
	for i, g := range given {
		if g != want[i] {
			vs.add(indexed("outputSizes", i), "padding1.output.size", "OutputTensor.Sizes[{axis}] = {value} != InputTensor.Sizes[{axis}] + StartPadding[{axis}] + EndPadding[{axis}] = {want}", Args{"axis": i, "value": g, "want": want[i]})
		}
	}
}

// checkPaddingValue judges v as a value of dt (PaddingValueDataType
// must be the output's type): a whole number in range for an integer
// type, a finite value in range for a float type (FLOAT16 and FLOAT32
// round it to the type, as the union holds it).
func checkPaddingValue(vs *violations, dt DataType, v float64) {
	if dt.IsFloat() {
		// FLOAT16 rounds up to 65519.99... to 65504, and from 65520 to
		// infinity; FLOAT32's bound is its largest value itself.
		ok := !math.IsNaN(v) && !math.IsInf(v, 0)
		text := "1.7976931348623157e308"
		switch dt {
		case Float32:
			ok, text = ok && math.Abs(v) <= math.MaxFloat32, "3.4028235e38"
		case Float16:
			ok, text = ok && math.Abs(v) < 65520, "65504"
		}
		if !ok {
			vs.add("paddingValue", "padding1.value.float", "PaddingValue {value} is not a {type}: a finite value, at most {max} in magnitude", Args{"value": v, "type": dt, "max": text})
		}
		return
	}
	// Integral v is at most 2^k-1 exactly when it is below 2^k, which a
	// float64 holds exactly even for k = 64.
	bits := int(dt.Bits())
	lo, end, loText := 0.0, math.Ldexp(1, bits), "0"
	if dt.IsSigned() {
		lo, end, loText = -math.Ldexp(1, bits-1), math.Ldexp(1, bits-1), fmt.Sprintf("-2^%d", bits-1)
	}
	if v != math.Trunc(v) || v < lo || v >= end {
		vs.add("paddingValue", "padding1.value.int", "PaddingValue {value} is not a {type}: a whole number from {min} to {max}", Args{"value": v, "type": dt, "min": loText, "max": fmt.Sprintf("2^%d-1", int(math.Log2(end)))})
	}
}

// padding1Notes says where ONNX, WebNN or the page's silence differ from
// the DirectML page this description follows: at the padding that
// causes it, never as an error.
func padding1Notes(p *Padding1) []Violation {
	var notes []Violation
	switch p.Mode {
	case PadReflection:
		for i, size := range p.Input.Sizes {
			for _, side := range []struct {
				field string
				pad   int64
			}{{"startPadding", p.StartPadding[i]}, {"endPadding", p.EndPadding[i]}} {
				if side.pad >= size && side.pad > 0 {
					notes = append(notes, NewMsg("padding1.note.reflect.large", "{field} = {pad} >= InputTensor.Sizes[{axis}] = {size}: DirectML folds the reflection again over the padding already made (the page's Example 3); ONNX Pad (mode reflect) and WebNN pad (reflection) refuse a padding this large", Args{"field": indexed(side.field, i), "pad": side.pad, "axis": i, "size": size}).At(indexed(side.field, i)))
				}
			}
			if size == 1 && p.StartPadding[i]+p.EndPadding[i] > 0 {
				notes = append(notes, NewMsg("padding1.note.reflect.one", "InputTensor.Sizes[{axis}] = 1: a reflection without its edge has nothing to reflect, and the page does not say what DirectML reads; this explorer reads the one element, as NumPy does", Args{"axis": i}).At(indexed("inputSizes", i)))
			}
		}
	case PadSymmetric:
		notes = append(notes, NewMsg("padding1.note.symmetric", "ONNX Pad and WebNN pad have no symmetric mode (NumPy's np.pad mode symmetric is the same map)", nil).At("paddingMode"))
	case PadWrap:
		notes = append(notes, NewMsg("padding1.note.wrap", "DirectML documents WRAP only as arriving at DML_FEATURE_LEVEL_6_4: this explorer reads it as ONNX Pad's wrap and NumPy's, the input repeated (output coordinate o reads (o - StartPadding) mod size); WebNN pad has no wrap mode", nil).At("paddingMode"))
		notes = append(notes, wrapLargeNotes(p)...)
	}
	return notes
}

// wrapLargeNotes says where a WRAP padding reaches its axis's size:
// there ONNX Runtime's Pad (wrap) reads other elements than the input
// repeated (measured with onnxruntime 1.30: 61 of 100 such paddings of
// one axis differ), so no ONNX model is exported.
func wrapLargeNotes(p *Padding1) []Violation {
	var notes []Violation
	for i, size := range p.Input.Sizes {
		for _, side := range []struct {
			field string
			pad   int64
		}{{"startPadding", p.StartPadding[i]}, {"endPadding", p.EndPadding[i]}} {
			if side.pad >= size && side.pad > 0 {
				notes = append(notes, NewMsg("padding1.note.wrap.large", "{field} = {pad} >= InputTensor.Sizes[{axis}] = {size}: DirectML repeats the input again; ONNX Runtime's Pad (mode wrap) reads other elements for a padding this large, so no ONNX model is exported", Args{"field": indexed(side.field, i), "pad": side.pad, "axis": i, "size": size}).At(indexed(side.field, i)))
			}
		}
	}
	return notes
}

// PadSource is the input coordinate that output coordinate o of one axis
// reads, for an axis of size >= 1 padded by start before it, or -1 where
// the output takes the padding value (CONSTANT only). REFLECTION and
// SYMMETRIC repeat with periods 2(size-1) and 2*size, which is the page's
// "folding new padding regions over previous padding regions" (Examples 3
// and 4); WRAP repeats with period size. All values are below 2^34, so
// the int64 arithmetic is exact.
func PadSource(m PaddingMode, size, start, o int64) int64 {
	k := o - start
	switch m {
	case PadEdge:
		return min(max(k, 0), size-1)
	case PadReflection:
		if size == 1 {
			return 0
		}
		p := 2 * (size - 1)
		j := mod64(k, p)
		if j < size {
			return j
		}
		return p - j
	case PadSymmetric:
		p := 2 * size
		j := mod64(k, p)
		if j < size {
			return j
		}
		return p - 1 - j
	case PadWrap:
		return mod64(k, size)
	}
	if k < 0 || k >= size {
		return -1
	}
	return k
}

func mod64(a, m int64) int64 {
	r := a % m
	if r < 0 {
		r += m
	}
	return r
}

// AxisSources is PadSource for every output coordinate of axis i.
func (p *Padding1) AxisSources(i int) []int64 {
	out := make([]int64, p.Output.Sizes[i])
	for o := range out {
		out[o] = PadSource(p.Mode, p.Input.Sizes[i], p.StartPadding[i], int64(o))
	}
	return out
}

// InputCoordinate is the input coordinate output element i (row-major)
// reads, or nil where it takes the padding value.
func (p *Padding1) InputCoordinate(i int64) []int64 {
	c := p.Output.Coordinate(i)
	for d := range c {
		c[d] = PadSource(p.Mode, p.Input.Sizes[d], p.StartPadding[d], c[d])
		if c[d] < 0 {
			return nil
		}
	}
	return c
}

// InputCoordinates is InputCoordinate of the first min(limit, count)
// output elements, and whether that is all of them.
func (p *Padding1) InputCoordinates(limit int64) ([][]int64, bool) {
	n := min(p.Output.LogicalElementCount(), max(limit, 0))
	out := make([][]int64, n)
	for i := range n {
		out[i] = p.InputCoordinate(i)
	}
	return out, n == p.Output.LogicalElementCount()
}
