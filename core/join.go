package core

import (
	"fmt"
	"slices"
	"strings"
)

// JoinDesc is a DML_JOIN_OPERATOR_DESC as a user typed it: the tensors
// to concatenate along Axis, and the output they are written into.
type JoinDesc struct {
	Inputs []TensorDesc
	// Output nil means the one the inputs call for: their sizes with the
	// axis summed, packed, of their data type.
	Output       *TensorDesc
	Axis         int64
	FeatureLevel FeatureLevel // zero: the newest
}

// SplitDesc is a DML_SPLIT_OPERATOR_DESC as a user typed it: one tensor
// cut along Axis into Outputs, whose sizes along the axis sum to its.
type SplitDesc struct {
	Input        TensorDesc
	Outputs      []TensorDesc
	Axis         int64
	FeatureLevel FeatureLevel // zero: the newest
}

// Join is a validated DML_JOIN. Input k is written to the output's
// window Starts[k] .. Starts[k]+Inputs[k].Sizes[Axis]-1 along Axis.
type Join struct {
	Inputs       []*Layout
	Output       *Layout
	Axis         int
	Starts       []int64
	FeatureLevel FeatureLevel
}

// Split is a validated DML_SPLIT. Output k is the input's window
// Starts[k] .. Starts[k]+Outputs[k].Sizes[Axis]-1 along Axis: a
// DML_SLICE1 of window strides 1 (Slice1Desc).
type Split struct {
	Input        *Layout
	Outputs      []*Layout
	Axis         int
	Starts       []int64
	FeatureLevel FeatureLevel
}

var fl31 = FeatureLevel{3, 1}

// AxisOpDataTypes returns the data types DML_JOIN and DML_SPLIT accept
// at a feature level (their pages' tensor support tables): the 16- and
// 32-bit types from 1_0, INT8 and UINT8 from 2_1, the 64-bit types from
// 4_1, never the 4-bit types.
func AxisOpDataTypes(f FeatureLevel) []DataType {
	ts := []DataType{Float32, Float16, Int32, Int16, UInt32, UInt16}
	if f.AtLeast(fl21) {
		ts = append(ts, Int8, UInt8)
	}
	if f.AtLeast(fl41) {
		ts = append(ts, Float64, Int64, UInt64)
	}
	return ts
}

// JoinRankOK reports whether DML_JOIN takes rank at f: 4 before 3_0, 4
// or 5 at 3_0, 1 to 8 from 3_1. The JOIN page's table gives 1 to 8 only
// from 4_1; the feature level history page lists JOIN among the
// operators whose dimensions went from 4 to 8 at 3_1, and the other
// operators of that list (PADDING, TILE) say 3_1 on their own pages: the
// history page is taken.
func JoinRankOK(f FeatureLevel, rank int) bool {
	lo, hi := joinRanks(f)
	return rank >= lo && rank <= hi
}

// SplitRankOK reports whether DML_SPLIT takes rank at f: 4 before 3_0,
// 1 to 8 from 3_0 (its page's table).
func SplitRankOK(f FeatureLevel, rank int) bool {
	lo, hi := splitRanks(f)
	return rank >= lo && rank <= hi
}

// tensorFieldsAt names the fields of tensor i of an array ("inputs[2].sizes").
func tensorFieldsAt(array string, i int) fieldNames {
	p := fmt.Sprintf("%s[%d].", array, i)
	return fieldNames{p + "dataType", p + "sizes", p + "strides", p + "totalTensorSizeInBytes", p + "guaranteedBaseOffsetAlignment"}
}

var joinOutputFields = fieldNames{"outputDataType", "outputSizes", "outputStrides", "outputTotalTensorSizeInBytes", "outputGuaranteedBaseOffsetAlignment"}

// axisOp is what DML_JOIN and DML_SPLIT share: one tensor (the join's
// output, the split's input) and many (the join's inputs, the split's
// outputs) that agree on every size but the axis's, whose sizes along
// the axis sum to the one's.
type axisOp struct {
	op        string // DML_OPERATOR_JOIN, DML_OPERATOR_SPLIT
	one       TensorDesc
	oneFields fieldNames
	oneName   string // OutputTensor, InputTensor
	many      []TensorDesc
	manyField string // inputs, outputs
	manyName  string // InputTensors, OutputTensors
	// manyAreOutputs: the many are written (split), so none may overlap
	// itself.
	manyAreOutputs, oneIsOutput bool
	// oneDerived: the one tensor was not typed but worked out from the
	// many (a join's output by default): its own rules are the many's.
	oneDerived bool
	axis       int64
	fl         FeatureLevel
	rankOK     func(FeatureLevel, int) bool
	rankRange  func(FeatureLevel) (lo, hi int)
}

// check reports every violation of o, all at once.
func (o axisOp) check() violations {
	var vs violations
	if len(o.many) == 0 {
		vs.add(o.manyField, "axisop.count.zero", "{name} is empty: {op} needs at least one tensor ({count} must be greater than 0)", Args{"name": o.manyName, "op": o.op, "count": strings.TrimSuffix(o.manyName, "Tensors") + "Count"})
		if o.oneDerived {
			return vs // nothing else to judge: the output is the inputs'
		}
	}
	// One data type for all: judged once, at "dataType", when they agree.
	dt := o.one.DataType
	same := true
	for _, m := range o.many {
		same = same && m.DataType == dt
	}
	fieldsOf := func(f fieldNames) fieldNames {
		if same {
			f.dataType = "dataType"
		}
		return f
	}
	var tvs violations
	if !o.oneDerived {
		checkTensor(&tvs, o.one, fieldsOf(o.oneFields))
	}
	for i, m := range o.many {
		checkTensor(&tvs, m, fieldsOf(tensorFieldsAt(o.manyField, i)))
	}
	vs = append(vs, dedupe(tvs)...)
	if !same {
		for i, m := range o.many {
			if m.DataType != dt {
				f := tensorFieldsAt(o.manyField, i).dataType
				vs.add(f, "axisop.datatype.same", "{field} {type} != {of} {want}: {op} requires one DataType for every tensor", Args{"field": f, "type": m.DataType, "of": o.oneFields.dataType, "want": dt, "op": o.op})
			}
		}
	}
	if dt.Valid() {
		switch {
		case dt.Bits() == 4:
			vs.add("dataType", "axisop.datatype.4bit", "DataType {type} is not supported by {op} at any feature level (no 4-bit types)", Args{"type": dt, "op": o.op})
		case !containsType(AxisOpDataTypes(o.fl), dt):
			since := FeatureLevel{2, 1}
			if dt.Bits() == 64 {
				since = fl41
			}
			vs.add("dataType", "axisop.datatype.level", "DataType {type} is not supported by {op} at DML_FEATURE_LEVEL_{level}: it needs {since} or later", Args{"type": dt, "op": o.op, "level": o.fl, "since": since})
		}
	}
	// DimensionCount: the same everywhere, and one the level takes.
	rank := len(o.one.Sizes)
	if rank >= 1 && rank <= MaxDimensionCount && !o.rankOK(o.fl, rank) {
		lo, hi := o.rankRange(o.fl)
		if lo == hi {
			vs.add(o.oneFields.sizes, "axisop.rank.level.one", "DimensionCount {rank}: {op} takes exactly {min} dimensions at DML_FEATURE_LEVEL_{level}", Args{"rank": rank, "op": o.op, "min": lo, "level": o.fl})
		} else {
			vs.add(o.oneFields.sizes, "axisop.rank.level", "DimensionCount {rank}: {op} takes {min} to {max} dimensions at DML_FEATURE_LEVEL_{level}", Args{"rank": rank, "op": o.op, "min": lo, "max": hi, "level": o.fl})
		}
	}
	rankSame := make([]bool, len(o.many))
	for i, m := range o.many {
		f := tensorFieldsAt(o.manyField, i).sizes
		if len(m.Sizes) != rank {
			vs.add(f, "axisop.rank.same", "{field} has DimensionCount {rank}, {of} {want}: {op} requires the same DimensionCount for every tensor", Args{"field": f, "rank": len(m.Sizes), "of": o.oneName, "want": rank, "op": o.op})
			continue
		}
		rankSame[i] = true
	}
	// The axis.
	axisOK := o.axis >= 0 && o.axis < int64(rank) && rank >= 1
	if !axisOK {
		vs.add("axis", "axisop.axis.range", "Axis {axis} is not in [0, DimensionCount - 1] = [0, {last}]: it names a dimension of the tensors", Args{"axis": o.axis, "last": int64(rank) - 1})
	}
	// Every size but the axis's agrees with the one tensor's.
	if !axisOK {
		return vs
	}
	a := int(o.axis)
	var sum uint64
	sumOK := true
	for i, m := range o.many {
		if !rankSame[i] {
			sumOK = false
			continue
		}
		f := tensorFieldsAt(o.manyField, i).sizes
		for d, s := range m.Sizes {
			if d == a {
				continue
			}
			if s != o.one.Sizes[d] && s >= 1 && o.one.Sizes[d] >= 1 {
				vs.add(indexed(f, d), "axisop.size.same", "{field} = {size} != {of}.Sizes[{dim}] = {want}: every size but the axis's ({axis}) must be the same for every tensor", Args{"field": indexed(f, d), "size": s, "of": o.oneName, "dim": d, "want": o.one.Sizes[d], "axis": a})
			}
		}
		s := m.Sizes[a]
		if s < 1 || s > MaxUINT {
			sumOK = false
			continue
		}
		sum, _ = addU(sum, uint64(s)) // at most 2^32 terms below 2^32: no wrap
	}
	if want := o.one.Sizes[a]; sumOK && !o.oneDerived && len(o.many) > 0 && want >= 1 && want <= MaxUINT && sum != uint64(want) {
		field := o.manyField
		if o.oneIsOutput {
			field = indexed(o.oneFields.sizes, a)
		}
		vs.add(field, "axisop.sum", "the sizes of {many} along axis {axis} sum to {sum}, {of}.Sizes[{axis}] = {want}: they must sum to it exactly", Args{"many": o.manyName, "axis": a, "sum": sum, "of": o.oneName, "want": want})
	}
	// A written tensor may not have two elements in one cell.
	if o.oneIsOutput && !o.oneDerived && o.one.Strides != nil && shapeOK(o.one, o.oneFields) {
		checkWriteRace(&vs, o.one.Sizes, o.one.Strides)
	}
	if o.manyAreOutputs {
		for i, m := range o.many {
			f := tensorFieldsAt(o.manyField, i)
			if m.Strides == nil || !shapeOK(m, f) {
				continue
			}
			var rvs violations
			checkWriteRace(&rvs, m.Sizes, m.Strides)
			for _, v := range rvs {
				vs = append(vs, v.Renamed(strings.Replace(v.Field, "outputStrides", f.strides, 1)))
			}
		}
	}
	return vs
}

// dedupe drops a violation repeated at the same field with the same
// message (the shared data type judged once per tensor).
func dedupe(vs violations) violations {
	var out violations
	for _, v := range vs {
		if !slices.ContainsFunc(out, func(w Violation) bool { return w.Field == v.Field && w.Message == v.Message }) {
			out = append(out, v)
		}
	}
	return out
}

// JoinOutputSizes are the sizes of the output inputs call for: theirs
// with the axis summed. ok is false when the inputs do not line up or
// the sum is no UINT.
func JoinOutputSizes(inputs []TensorDesc, axis int64) ([]int64, bool) {
	if len(inputs) == 0 || axis < 0 || axis >= int64(len(inputs[0].Sizes)) {
		return nil, false
	}
	out := slices.Clone(inputs[0].Sizes)
	var sum int64
	for _, in := range inputs {
		if len(in.Sizes) != len(out) {
			return nil, false
		}
		s := in.Sizes[axis]
		if s < 1 || s > MaxUINT {
			return nil, false
		}
		sum += s // below 2^32 terms below 2^32
		if sum > MaxUINT {
			return nil, false
		}
	}
	out[axis] = sum
	return out, true
}

// NewJoin validates d against DML_JOIN_OPERATOR_DESC's rules: each
// tensor's own (directml-rules.md section 2), at least one input, one
// DataType and DimensionCount everywhere, both supported at the feature
// level, the axis in range, every size but the axis's equal, the
// inputs' sizes along the axis summing to the output's, and an output
// whose elements have cells of their own. Every violation at once.
func NewJoin(d JoinDesc) (*Join, error) {
	fl := d.FeatureLevel
	if fl == (FeatureLevel{}) {
		fl = NewestFeatureLevel
	}
	derived := d.Output == nil
	var out TensorDesc
	if derived {
		out.DataType = Float32
		if len(d.Inputs) > 0 {
			out.DataType = d.Inputs[0].DataType
			out.Sizes = slices.Clone(d.Inputs[0].Sizes)
		}
		if s, ok := JoinOutputSizes(d.Inputs, d.Axis); ok {
			out.Sizes = s
		}
	} else {
		out = *d.Output
	}
	o := axisOp{op: "DML_OPERATOR_JOIN", one: out, oneFields: joinOutputFields, oneName: "OutputTensor",
		many: d.Inputs, manyField: "inputs", manyName: "InputTensors", oneIsOutput: true,
		axis: d.Axis, fl: fl, rankOK: JoinRankOK, rankRange: joinRanks}
	o.oneDerived = derived
	if derived && len(d.Inputs) > 0 {
		// The output is the inputs' own: its rank and sizes are judged
		// at the inputs, its count at the sum.
		o.oneFields = tensorFieldsAt("inputs", 0)
		o.oneFields.dataType = "dataType"
		o.oneName = "InputTensors[0]"
	}
	vs := o.check()
	if derived && len(d.Inputs) > 0 {
		checkDerivedOutput(&vs, d.Inputs, d.Axis)
	}
	if err := vs.err(); err != nil {
		return nil, err
	}
	j := &Join{Output: newLayoutUnchecked(out), Axis: int(d.Axis), FeatureLevel: fl}
	j.Output.Warnings = dwordWarnings(joinOutputFields.total, out.TotalTensorSizeInBytes)
	var at int64
	for i, in := range d.Inputs {
		l := newLayoutUnchecked(in)
		l.Warnings = dwordWarnings(tensorFieldsAt("inputs", i).total, in.TotalTensorSizeInBytes)
		j.Inputs = append(j.Inputs, l)
		j.Starts = append(j.Starts, at)
		at += in.Sizes[d.Axis]
	}
	return j, nil
}

// checkDerivedOutput judges the output a join's inputs call for: its
// size along the axis is a UINT, its element count at most 2^32-1. Only
// inputs that line up (one rank, the axis in it, every size a UINT) are
// judged: otherwise their own violations say what is wrong.
func checkDerivedOutput(vs *violations, inputs []TensorDesc, axis int64) {
	rank := len(inputs[0].Sizes)
	if axis < 0 || axis >= int64(rank) || rank > MaxDimensionCount {
		return
	}
	var sum int64
	for i, in := range inputs {
		if len(in.Sizes) != rank {
			return
		}
		for _, s := range in.Sizes {
			if s < 1 || s > MaxUINT {
				return
			}
		}
		sum += in.Sizes[axis] // below 2^32 terms below 2^32: no wrap
		if sum > MaxUINT {
			vs.add(indexed(tensorFieldsAt("inputs", i).sizes, int(axis)), "join.sum.uint", "the inputs' sizes along axis {axis} sum to {sum} at this input, past 2^32-1: OutputTensor.Sizes[{axis}] is a UINT", Args{"axis": axis, "sum": sum})
			return
		}
	}
	out := slices.Clone(inputs[0].Sizes)
	out[axis] = sum
	if _, ok := logicalCountOf(out); !ok {
		vs.add("inputs", "join.count.logical", "the output's logical element count {count} > 2^32-1: a tensor holds at most 4294967295 elements", Args{"count": productText(out)})
	}
}

// joinRanks are the DimensionCounts DML_JOIN takes at f (JoinRankOK).
func joinRanks(f FeatureLevel) (lo, hi int) {
	switch {
	case f.AtLeast(fl31):
		return 1, MaxDimensionCount
	case f.AtLeast(fl30):
		return 4, 5
	}
	return 4, 4
}

// splitRanks are the DimensionCounts DML_SPLIT takes at f (SplitRankOK).
func splitRanks(f FeatureLevel) (lo, hi int) {
	if f.AtLeast(fl30) {
		return 1, MaxDimensionCount
	}
	return 4, 4
}

// SplitOutputs are packed outputs of data type dt cutting sizes along
// axis into the given sizes (the API's outputSizes).
func SplitOutputs(dt DataType, sizes []int64, axis int64, along []int64) []TensorDesc {
	outs := make([]TensorDesc, len(along))
	for i, s := range along {
		o := slices.Clone(sizes)
		if axis >= 0 && axis < int64(len(o)) {
			o[axis] = s
		}
		outs[i] = TensorDesc{DataType: dt, Sizes: o}
	}
	return outs
}

// NewSplit validates d against DML_SPLIT_OPERATOR_DESC's rules, as
// NewJoin does the join's with the roles turned round.
func NewSplit(d SplitDesc) (*Split, error) {
	fl := d.FeatureLevel
	if fl == (FeatureLevel{}) {
		fl = NewestFeatureLevel
	}
	o := axisOp{op: "DML_OPERATOR_SPLIT", one: d.Input, oneFields: slice1InputFields, oneName: "InputTensor",
		many: d.Outputs, manyField: "outputs", manyName: "OutputTensors", manyAreOutputs: true,
		axis: d.Axis, fl: fl, rankOK: SplitRankOK, rankRange: splitRanks}
	if err := o.check().err(); err != nil {
		return nil, err
	}
	s := &Split{Input: newLayoutUnchecked(d.Input), Axis: int(d.Axis), FeatureLevel: fl}
	s.Input.Warnings = dwordWarnings(slice1InputFields.total, d.Input.TotalTensorSizeInBytes)
	var at int64
	for i, out := range d.Outputs {
		l := newLayoutUnchecked(out)
		l.Warnings = dwordWarnings(tensorFieldsAt("outputs", i).total, out.TotalTensorSizeInBytes)
		s.Outputs = append(s.Outputs, l)
		s.Starts = append(s.Starts, at)
		at += out.Sizes[d.Axis]
	}
	return s, nil
}

// Source is where output element i (row-major) of the join comes from:
// its input and its coordinate there.
func (j *Join) Source(i int64) (input int, coord []int64) {
	c := coordOf(j.Output.Sizes, i)
	return j.SourceOf(c)
}

// SourceOf is Source of an output coordinate, c changed in place.
func (j *Join) SourceOf(c []int64) (input int, coord []int64) {
	x := c[j.Axis]
	// The last input starting at or before x: Starts ascend strictly.
	k, found := slices.BinarySearch(j.Starts, x)
	if !found {
		k--
	}
	c[j.Axis] = x - j.Starts[k]
	return k, c
}

// OutputWindow is where input k is written: the output's offsets
// (elements) of input k's elements in row-major order are Base + dot(c,
// Strides) over input k's sizes.
func (j *Join) OutputWindow(k int) (base int64, strides []int64) {
	return j.Starts[k] * j.Output.Strides[j.Axis], slices.Clone(j.Output.Strides)
}

// Slice1Desc is output k as the DML_SLICE1 that copies it: the whole
// input but for the axis, where the window starts at Starts[k] and is
// output k's size long, every window stride 1.
func (s *Split) Slice1Desc(k int) Slice1Desc {
	n := s.Input.Rank()
	off, size, stride := make([]int64, n), slices.Clone(s.Input.Sizes), make([]int64, n)
	for d := range n {
		stride[d] = 1
	}
	off[s.Axis] = s.Starts[k]
	size[s.Axis] = s.Outputs[k].Sizes[s.Axis]
	return Slice1Desc{Input: s.Input.Desc(), WindowOffsets: off, WindowSizes: size, WindowStrides: stride, FeatureLevel: NewestFeatureLevel}
}

// Slice1 is output k's DML_SLICE1, validated: the split's rules imply
// the slice's, so it is never refused but for a data type DML_SLICE1
// does not know (none is: DML_SPLIT's are DML_SLICE1's).
func (s *Split) Slice1(k int) (*Slice1, error) { return NewSlice1(s.Slice1Desc(k)) }

// MinFeatureLevel is the oldest feature level that accepts the join.
func (j *Join) MinFeatureLevel() FeatureLevel {
	return minAxisOpLevel(j.Output.DataType, j.Output.Rank(), JoinRankOK)
}

// MinFeatureLevel is the oldest feature level that accepts the split.
func (s *Split) MinFeatureLevel() FeatureLevel {
	return minAxisOpLevel(s.Input.DataType, s.Input.Rank(), SplitRankOK)
}

func minAxisOpLevel(dt DataType, rank int, rankOK func(FeatureLevel, int) bool) FeatureLevel {
	for _, f := range FeatureLevels {
		if containsType(AxisOpDataTypes(f), dt) && rankOK(f, rank) {
			return f
		}
	}
	return NewestFeatureLevel
}
