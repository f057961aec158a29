package core

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
)

// IdentityDesc is a DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC as a user
// typed it: two buffer tensor descriptions of one logical tensor, and an
// optional DML_SCALE_BIAS. A layout conversion is this operator with
// different strides on each side.
type IdentityDesc struct {
	Input, Output TensorDesc
	// ScaleBias nil is the desc's nullptr: f(x) = x.
	ScaleBias *ScaleBias
}

// ScaleBias is a DML_SCALE_BIAS: g(x) = x*Scale + Bias applied to each
// input element first. Its fields are FLOATs; they are held as typed so
// that a value no FLOAT can hold is reported rather than rounded away.
type ScaleBias struct {
	Scale float64 `json:"scale"`
	Bias  float64 `json:"bias"`
}

// Identity is a validated DML_ELEMENT_WISE_IDENTITY with both layouts.
// Every fact it gives is found from the sizes and strides alone (no
// element is visited), so a tensor of 2^32-1 elements is described at
// once.
type Identity struct {
	Input, Output *Layout
	ScaleBias     *ScaleBias
}

// The identity's fields as its API names them: the data type and the
// sizes are shared (DirectML requires them equal), the strides and the
// buffer are each side's.
var (
	identityInputFields  = fieldNames{"dataType", "sizes", "inputStrides", "inputTotalTensorSizeInBytes", "inputGuaranteedBaseOffsetAlignment"}
	identityOutputFields = fieldNames{"outputDataType", "outputSizes", "outputStrides", "outputTotalTensorSizeInBytes", "outputGuaranteedBaseOffsetAlignment"}
)

var fl10 = FeatureLevel{1, 0}

// IdentityDataTypes returns the data types DML_ELEMENT_WISE_IDENTITY
// accepts at a feature level (its page's tensor support tables):
// FLOAT32 and FLOAT16 from 1_0, the 8-, 16- and 32-bit integers from
// 2_1, the 64-bit types from 4_1, never the 4-bit types.
func IdentityDataTypes(f FeatureLevel) []DataType {
	ts := []DataType{Float32, Float16}
	if f.AtLeast(fl21) {
		ts = append(ts, Int32, Int16, Int8, UInt32, UInt16, UInt8)
	}
	if f.AtLeast(fl41) {
		ts = append(ts, Float64, Int64, UInt64)
	}
	return ts
}

// NewIdentity validates d: each tensor against the buffer tensor rules
// (directml-rules.md section 2), then the operator's own: the same data
// type, DimensionCount and sizes on both sides, a data type the operator
// supports, and an output on which no two elements share a cell (they
// would be written at once, in no set order: a write race). An input
// whose elements share cells (a broadcast) is allowed. Every violation
// is reported at once.
func NewIdentity(d IdentityDesc) (*Identity, error) {
	var vs violations
	checkTensor(&vs, d.Input, identityInputFields)
	in, out := d.Input, d.Output
	same := out.DataType == in.DataType && slices.Equal(out.Sizes, in.Sizes)
	if same {
		// The shared fields were judged with the input: judge the
		// output's own (strides, buffer) only, at their names.
		var ovs violations
		f := identityOutputFields
		f.dataType, f.sizes = identityInputFields.dataType, identityInputFields.sizes
		checkTensor(&ovs, out, f)
		for _, v := range ovs {
			if v.Field != f.dataType && v.Field != f.sizes && !strings.HasPrefix(v.Field, f.sizes+"[") {
				vs = append(vs, v)
			}
		}
	} else {
		checkTensor(&vs, out, identityOutputFields)
		if out.DataType != in.DataType {
			vs.add("outputDataType", "identity.datatype.same", "OutputTensor's DataType {output} != InputTensor's {input}: DML_ELEMENT_WISE_IDENTITY requires the same DataType on both sides", Args{"output": out.DataType, "input": in.DataType})
		}
		if len(out.Sizes) != len(in.Sizes) {
			vs.add("outputSizes", "identity.rank.same", "OutputTensor has DimensionCount {output}, InputTensor {input}: DML_ELEMENT_WISE_IDENTITY requires the same DimensionCount on both sides", Args{"output": len(out.Sizes), "input": len(in.Sizes)})
		} else {
			for i, s := range out.Sizes {
				if s != in.Sizes[i] {
					vs.add(indexed("outputSizes", i), "identity.size.same", "OutputTensor.Sizes[{axis}] = {output} != InputTensor.Sizes[{axis}] = {input}: DML_ELEMENT_WISE_IDENTITY requires the same Sizes on both sides", Args{"axis": i, "output": s, "input": in.Sizes[i]})
				}
			}
		}
	}
	if dt := in.DataType; dt.Valid() && !containsType(IdentityDataTypes(NewestFeatureLevel), dt) {
		vs.add("dataType", "identity.datatype.4bit", "DataType {type} is not supported by DML_OPERATOR_ELEMENT_WISE_IDENTITY at any feature level (no 4-bit types)", Args{"type": dt})
	}
	if shapeOK(out, identityOutputFields) && out.Strides != nil {
		checkWriteRace(&vs, out.Sizes, out.Strides)
	}
	if sb := d.ScaleBias; sb != nil {
		for _, f := range []struct {
			field string
			v     float64
		}{{"scaleBias.scale", sb.Scale}, {"scaleBias.bias", sb.Bias}} {
			if math.IsNaN(f.v) || math.Abs(f.v) > math.MaxFloat32 {
				vs.add(f.field, "identity.scalebias.float", "{field} = {value} is not a FLOAT (a finite 32-bit float, at most 3.4028235e38 in magnitude)", Args{"field": f.field, "value": f.v})
			}
		}
	}
	if err := vs.err(); err != nil {
		return nil, err
	}
	id := &Identity{Input: newLayoutUnchecked(in), Output: newLayoutUnchecked(out)}
	id.Input.Warnings = dwordWarnings(identityInputFields.total, in.TotalTensorSizeInBytes)
	id.Output.Warnings = dwordWarnings(identityOutputFields.total, out.TotalTensorSizeInBytes)
	if d.ScaleBias != nil {
		sb := *d.ScaleBias
		id.ScaleBias = &sb
	}
	return id, nil
}

// shapeOK reports whether d's sizes and strides alone are a valid tensor
// (its buffer fields aside), so that facts of its offsets can be judged.
func shapeOK(d TensorDesc, f fieldNames) bool {
	var vs violations
	d.TotalTensorSizeInBytes, d.GuaranteedBaseOffsetAlignment = nil, 0
	d.DataType = Float32
	checkTensor(&vs, d, f)
	return len(vs) == 0
}

// Bounds on finding two output elements that share a cell by visiting
// them: past them the count alone is given.
const (
	raceExampleMaxElements = 1 << 16
)

// checkWriteRace refuses an output on which two elements share a cell.
// A broadcast dimension (stride 0, size > 1) is reported at its stride;
// any other overlap at the strides, with two elements that collide when
// the tensor is small enough to find them. When the overlap cannot be
// settled without enumerating a large tensor, the output is refused too:
// a copy that might race is not one DirectML promises anything about.
func checkWriteRace(vs *violations, sizes, strides []int64) {
	broadcast := false
	for i, s := range sizes {
		if s > 1 && strides[i] == 0 {
			broadcast = true
			vs.add(indexed("outputStrides", i), "identity.output.broadcast", "a stride of 0 at axis {axis}, whose size is {size}: the {size} output elements along it would all be written to one cell at once (a write race); only the input may broadcast", Args{"axis": i, "size": s})
		}
	}
	if broadcast {
		return
	}
	last, _ := indexOfLastOf(sizes, strides)
	count, _ := logicalCountOf(sizes)
	distinct, known := distinctOffsets(sizes, strides, int64(count), int64(last))
	switch {
	case known && distinct == int64(count):
		return
	case known:
		args := Args{"count": int64(count), "distinct": distinct}
		if a, b, off, ok := collision(sizes, strides); ok {
			args["a"], args["b"], args["offset"] = coordText(a), coordText(b), off
			vs.add("outputStrides", "identity.output.overlap.at", "output elements {a} and {b} would both be written to cell {offset} (a write race): the {count} output elements must have {count} distinct cells, these strides give {distinct}", args)
			return
		}
		vs.add("outputStrides", "identity.output.overlap", "the {count} output elements would be written to only {distinct} distinct cells (a write race): on the output no two elements may share a cell", args)
	default:
		vs.add("outputStrides", "identity.output.unproven", "these output strides could not be shown to give each of the {count} output elements a cell of its own without visiting them all: choose strides in which each stride exceeds the span of the smaller ones (every layout made of packed, padded or permuted strides does)", Args{"count": int64(count)})
	}
}

// collision finds two elements of a small tensor at the same offset, in
// row-major order.
func collision(sizes, strides []int64) (a, b []int64, off int64, ok bool) {
	count, _ := logicalCountOf(sizes)
	if count > raceExampleMaxElements {
		return nil, nil, 0, false
	}
	seen := make(map[int64]int64, count)
	var i int64
	found := int64(-1)
	var at, first int64
	forEachOffset(sizes, strides, 0, func(o int64) {
		if found < 0 {
			if j, dup := seen[o]; dup {
				found, first, at = i, j, o
			} else {
				seen[o] = i
			}
		}
		i++
	})
	if found < 0 {
		return nil, nil, 0, false
	}
	return coordOf(sizes, first), coordOf(sizes, found), at, true
}

func coordOf(sizes []int64, i int64) []int64 {
	c := make([]int64, len(sizes))
	for d := len(sizes) - 1; d >= 0; d-- {
		c[d] = i % sizes[d]
		i /= sizes[d]
	}
	return c
}

func coordText(c []int64) string {
	parts := make([]string, len(c))
	for i, v := range c {
		parts[i] = fmt.Sprint(v)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

// MinFeatureLevel is the oldest feature level that accepts the copy: 4 or
// 5 dimensions and FLOAT32/FLOAT16 from 1_0, integer types from 2_1, 1 to
// 8 dimensions from 3_0, 64-bit types from 4_1.
func (id *Identity) MinFeatureLevel() FeatureLevel {
	for _, f := range FeatureLevels {
		if !containsType(IdentityDataTypes(f), id.Input.DataType) {
			continue
		}
		if r := id.Input.Rank(); !f.AtLeast(fl30) && r != 4 && r != 5 {
			continue
		}
		return f
	}
	return NewestFeatureLevel
}

// SameMemory reports a copy that moves nothing: every element has the
// same offset on both sides (the strides agree wherever a size exceeds
// 1), so the output is the input's memory read another way, a reshape
// or a view, and no copy is needed when the two share a buffer.
func (id *Identity) SameMemory() bool {
	for i, s := range id.Input.Sizes {
		if s > 1 && id.Input.Strides[i] != id.Output.Strides[i] {
			return false
		}
	}
	return true
}

// NoCopyNeeded reports SameMemory with no scale and bias (or 1 and 0):
// the values do not change either.
func (id *Identity) NoCopyNeeded() bool {
	return id.SameMemory() && (id.ScaleBias == nil || id.ScaleBias.Scale == 1 && id.ScaleBias.Bias == 0)
}

// Runs describes one side's accesses in the copy's order (the logical
// row-major order): Count runs of Length elements each, every run a
// stretch of consecutive cells, and Stride the step of the innermost
// loop (the stride of the last dimension whose size exceeds 1; 0 for a
// single element).
type Runs struct {
	Count, Length, Stride int64
}

// RunsOf finds the runs of l from its strides: dimensions of size 1 are
// left out and neighbours whose strides chain (stride[d-1] =
// size[d]*stride[d]) merge, so the innermost merged dimension is a run
// when its stride is 1 and single elements otherwise. Two runs never
// join: they would have merged.
func RunsOf(l *Layout) Runs {
	var size, stride int64 = 1, 0
	first := true
	for d := len(l.Sizes) - 1; d >= 0; d-- {
		s, st := l.Sizes[d], l.Strides[d]
		if s == 1 {
			continue
		}
		if first {
			size, stride, first = s, st, false
			continue
		}
		if st == size*stride && stride != 0 {
			size *= s
			continue
		}
		break
	}
	r := Runs{Count: l.LogicalElementCount(), Length: 1}
	for d := len(l.Sizes) - 1; d >= 0; d-- {
		if l.Sizes[d] > 1 {
			r.Stride = l.Strides[d]
			break
		}
	}
	if l.LogicalElementCount() == 1 {
		r.Count = 1
		return r
	}
	if stride == 1 {
		r.Length = size
		r.Count = l.LogicalElementCount() / size
	}
	return r
}

// Permutation is p when the output holds the input transposed by p and
// packed: output offset = row-major index in the tensor of sizes
// sizes[p[0]], sizes[p[1]], ... (NumPy's ascontiguousarray(x.transpose(p))
// and ONNX's Transpose(perm=p)). ok is false when the output is not
// such a layout (padded, or strides no permutation packs).
func (id *Identity) Permutation() ([]int, bool) {
	l := id.Output
	if l.IsPacked() != TriTrue {
		return nil, false
	}
	return permutationBySearch(l)
}

// permutationBySearch orders the dimensions of size above 1 by stride,
// larger first, and leaves the size-1 ones (whose strides do not matter)
// where they are: the permutation moves only what it must.
func permutationBySearch(l *Layout) ([]int, bool) {
	n := l.Rank()
	var big []int
	for d := range n {
		if l.Sizes[d] > 1 {
			big = append(big, d)
		}
	}
	sort.SliceStable(big, func(a, b int) bool { return l.Strides[big[a]] > l.Strides[big[b]] })
	pitch := int64(1)
	for k := len(big) - 1; k >= 0; k-- {
		if l.Strides[big[k]] != pitch {
			return nil, false
		}
		pitch *= l.Sizes[big[k]]
	}
	p := make([]int, 0, n)
	k := 0
	for d := range n {
		if l.Sizes[d] > 1 {
			p = append(p, big[k])
			k++
		} else {
			p = append(p, d)
		}
	}
	return p, true
}

// CheckWritten judges a tensor an operator writes as a model describes
// it (PADDING1's, TILE's or DEPTH_TO_SPACE1's OutputTensor, which the
// explorers draw packed): its own rules (directml-rules.md section 2)
// and, when its strides are given, no two of its elements in one cell.
// The fields are the output's: outputSizes, outputStrides[2] ...
func CheckWritten(d TensorDesc) []Violation {
	var vs violations
	checkTensor(&vs, d, joinOutputFields)
	if len(vs) == 0 && d.Strides != nil {
		checkWriteRace(&vs, d.Sizes, d.Strides)
	}
	return vs
}
