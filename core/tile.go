package core

import (
	"fmt"
	"math/bits"
	"slices"
)

// TileDataTypes returns the data types DML_TILE accepts at a feature
// level (its page's tensor support tables): FLOAT32 and FLOAT16 from
// 1_0, the 8-, 16- and 32-bit integers from 2_1, INT64 and UINT64 from
// 4_1; never FLOAT64 nor the 4-bit types.
func TileDataTypes(f FeatureLevel) []DataType {
	ts := []DataType{Float32, Float16}
	if f.AtLeast(fl21) {
		ts = append(ts, Int32, Int16, Int8, UInt32, UInt16, UInt8)
	}
	if f.AtLeast(fl41) {
		ts = append(ts, Int64, UInt64)
	}
	return ts
}

// TileDesc is a DML_TILE_OPERATOR_DESC as a user typed it.
type TileDesc struct {
	Input TensorDesc
	// OutputDataType Unknown means "same as the input".
	OutputDataType DataType
	// OutputSizes nil means input * repeats in every dimension.
	OutputSizes  []int64
	FeatureLevel FeatureLevel
	Repeats      []int64
}

// Tile is a validated DML_TILE.
type Tile struct {
	Input        *Layout
	Output       *Layout // packed, the input's data type
	FeatureLevel FeatureLevel
	Repeats      []int64
}

var tileInputFields = fieldNames{"dataType", "inputSizes", "inputStrides", "inputTotalTensorSizeInBytes", "inputGuaranteedBaseOffsetAlignment"}

// NewTile validates d against the DML_TILE page: the input tensor's own
// rules, the data type and the DimensionCount at the feature level,
// RepeatsCount = DimensionCount, each repeat a UINT of at least 1, and
// the output sizes input * repeats as a valid tensor. Every violation is
// reported at once.
func NewTile(d TileDesc) (*Tile, error) {
	var vs violations
	checkTensor(&vs, d.Input, tileInputFields)
	fl := d.FeatureLevel
	if fl == (FeatureLevel{}) {
		fl = NewestFeatureLevel
	}
	n, dt := len(d.Input.Sizes), d.Input.DataType
	if dt.Valid() && !containsType(TileDataTypes(fl), dt) {
		args := Args{"type": dt, "level": fl}
		switch {
		case dt == Float64 || dt.Bits() == 4:
			vs.add("dataType", "tile.datatype.never", "DataType {type} is not supported by DML_OPERATOR_TILE at any feature level", args)
		case dt.Bits() == 64:
			vs.add("dataType", "tile.datatype.level64", "DataType {type} is not supported by DML_OPERATOR_TILE at feature level {level} (INT64 and UINT64 need 4_1 or later)", args)
		default:
			vs.add("dataType", "tile.datatype.level", "DataType {type} is not supported by DML_OPERATOR_TILE at feature level {level} (the integer types need 2_1 or later)", args)
		}
	}
	if !fl.AtLeast(fl31) && n >= 1 && n != 4 {
		vs.add("inputSizes", "tile.rank.level", "DimensionCount {rank}: DML_TILE takes 4 dimensions before DML_FEATURE_LEVEL_3_1 (this is {level})", Args{"rank": n, "level": fl})
	}
	out := d.OutputDataType
	if out == Unknown {
		out = dt
	}
	if out != dt {
		vs.add("outputDataType", "tile.datatype.output", "{field} {output} != {of} {input}: InputTensor and OutputTensor must have the same DataType", Args{"field": "outputDataType", "of": "dataType", "output": out, "input": dt})
	}
	repeatsOK := len(d.Repeats) == n
	if !repeatsOK {
		vs.add("repeats", "tile.rank.mismatch", "{field} has {count}: RepeatsCount must be InputTensor's DimensionCount ({rank})", Args{"field": "repeats", "count": Count{int64(len(d.Repeats)), "entries"}, "rank": n})
	}
	for i, r := range d.Repeats {
		if r < 1 || r > MaxUINT {
			repeatsOK = false
			vs.add(indexed("repeats", i), "tile.repeat.range", "{field} = {value}: each repeat is a UINT larger than 0", Args{"field": indexed("repeats", i), "value": r})
		}
	}
	if d.OutputSizes != nil && len(d.OutputSizes) != n {
		vs.add("outputSizes", "tile.output.rank", "{field} has {count}: OutputTensor must have InputTensor's DimensionCount ({rank})", Args{"field": "outputSizes", "count": Count{int64(len(d.OutputSizes)), "entries"}, "rank": n})
	}
	var outSizes []int64
	if repeatsOK && shapeOK(d.Input, tileInputFields) {
		outSizes = checkTiledOutput(&vs, d.Input.Sizes, d.Repeats, d.OutputSizes)
	}
	if err := vs.err(); err != nil {
		return nil, err
	}
	t := &Tile{
		Input:        newLayoutUnchecked(d.Input),
		Output:       newLayoutUnchecked(TensorDesc{DataType: dt, Sizes: outSizes}),
		FeatureLevel: fl,
		Repeats:      slices.Clone(d.Repeats),
	}
	t.Input.Warnings = dwordWarnings(tileInputFields.total, d.Input.TotalTensorSizeInBytes)
	return t, nil
}

// checkTiledOutput works the output sizes out, 64-bit checked (a size
// and a repeat are each below 2^32, their product below 2^64), judges
// them as a tensor's, and the given ones against them.
func checkTiledOutput(vs *violations, sizes, repeats, given []int64) []int64 {
	out := make([]int64, len(sizes))
	for i, s := range sizes {
		hi, lo := bits.Mul64(uint64(s), uint64(repeats[i]))
		if hi != 0 || lo > MaxUINT {
			vs.add(indexed("outputSizes", i), "tile.output.uint", "OutputTensor.Sizes[{axis}] = InputTensor.Sizes[{axis}] * Repeats[{axis}] = {size} * {repeat} exceeds the UINT maximum 2^32-1", Args{"axis": i, "size": s, "repeat": repeats[i]})
			return nil
		}
		out[i] = int64(lo)
	}
	var ovs violations
	checkTensor(&ovs, TensorDesc{DataType: Float32, Sizes: out}, fieldNames{"outputDataType", "outputSizes", "outputStrides", "outputTotalTensorSizeInBytes", "outputGuaranteedBaseOffsetAlignment"})
	*vs = append(*vs, ovs...)
	if len(given) == len(out) {
		for i, g := range given {
			if g != out[i] {
				vs.add(indexed("outputSizes", i), "tile.output.size", "OutputTensor.Sizes[{axis}] = {value} != InputTensor.Sizes[{axis}] * Repeats[{axis}] = {want}", Args{"axis": i, "value": g, "want": out[i]})
			}
		}
	}
	return out
}

// AxisSources is, for every output coordinate o of axis i, the input
// coordinate o mod InputTensor.Sizes[i] it reads.
func (t *Tile) AxisSources(i int) []int64 {
	out := make([]int64, t.Output.Sizes[i])
	size := t.Input.Sizes[i]
	for o := range out {
		out[o] = int64(o) % size
	}
	return out
}

// InputCoordinate is the input coordinate output element i (row-major)
// reads.
func (t *Tile) InputCoordinate(i int64) []int64 {
	c := t.Output.Coordinate(i)
	for d := range c {
		c[d] %= t.Input.Sizes[d]
	}
	return c
}

// NumPy is the tiling as np.tile over the input as NumPy sees it.
func (t *Tile) NumPy() string {
	in := t.Input
	return fmt.Sprintf("import numpy as np\ninput_buffer = np.zeros(%d, np.%s)  # InputTensor's buffer, %d bytes\ne = input_buffer.itemsize\nx = np.lib.stride_tricks.as_strided(input_buffer, shape=%s, strides=%s)\ny = np.tile(x, %s)\n",
		in.BufferElementCount(), NumpyDType(in.DataType), in.BufferSizeInBytes(), pyTuple(in.Sizes), pyStrides(in.Strides), pyTuple(t.Repeats))
}
