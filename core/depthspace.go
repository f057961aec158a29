package core

import (
	"fmt"
	"strings"
)

// DepthSpaceOp is which of the two inverse operators a desc is.
type DepthSpaceOp int8

const (
	// DepthToSpace is DML_OPERATOR_DEPTH_TO_SPACE1: channels into blocks
	// of rows and columns.
	DepthToSpace DepthSpaceOp = iota
	// SpaceToDepth is DML_OPERATOR_SPACE_TO_DEPTH1: blocks of rows and
	// columns into channels.
	SpaceToDepth
)

// OperatorName is the DML_OPERATOR_TYPE's name without its prefix.
func (o DepthSpaceOp) OperatorName() string {
	if o == SpaceToDepth {
		return "DML_SPACE_TO_DEPTH1"
	}
	return "DML_DEPTH_TO_SPACE1"
}

// DepthSpaceOrder is a DML_DEPTH_SPACE_ORDER.
type DepthSpaceOrder int8

const (
	// DepthColumnRow is DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW (DCR): the
	// depth is (BlockHeight, BlockWidth, Channels), the channel fastest.
	DepthColumnRow DepthSpaceOrder = iota
	// ColumnRowDepth is DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH (CRD): the
	// depth is (Channels, BlockHeight, BlockWidth), the block's column
	// fastest.
	ColumnRowDepth
)

// DepthSpaceOrders are both orders, as the enum lists them.
var DepthSpaceOrders = []DepthSpaceOrder{DepthColumnRow, ColumnRowDepth}

func (o DepthSpaceOrder) String() string {
	switch o {
	case DepthColumnRow:
		return "DEPTH_COLUMN_ROW"
	case ColumnRowDepth:
		return "COLUMN_ROW_DEPTH"
	}
	return fmt.Sprintf("DML_DEPTH_SPACE_ORDER(%d)", int(o))
}

// Valid reports whether o is one of the enum's two values.
func (o DepthSpaceOrder) Valid() bool { return o == DepthColumnRow || o == ColumnRowDepth }

// ParseDepthSpaceOrder accepts "DEPTH_COLUMN_ROW" or
// "DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW" (and the same for
// COLUMN_ROW_DEPTH), exactly: "DCR" is a name ONNX uses, not DirectML.
func ParseDepthSpaceOrder(s string) (DepthSpaceOrder, bool) {
	t := strings.TrimPrefix(s, "DML_DEPTH_SPACE_ORDER_")
	for _, o := range DepthSpaceOrders {
		if t == o.String() {
			return o, true
		}
	}
	return 0, false
}

var fl50 = FeatureLevel{5, 0}

// DepthSpaceDataTypes returns the data types DML_DEPTH_TO_SPACE1 and
// DML_SPACE_TO_DEPTH1 accept at a feature level (both pages' tensor
// support tables): none before 2_1, the 8-, 16- and 32-bit types from
// 2_1, the 64-bit types from 5_0, never the 4-bit types.
func DepthSpaceDataTypes(f FeatureLevel) []DataType {
	if !f.AtLeast(fl21) {
		return nil
	}
	ts := []DataType{Float32, Float16, Int32, Int16, Int8, UInt32, UInt16, UInt8}
	if f.AtLeast(fl50) {
		ts = append(ts, Float64, Int64, UInt64)
	}
	return ts
}

// DepthSpaceDesc is a DML_DEPTH_TO_SPACE1_OPERATOR_DESC or a
// DML_SPACE_TO_DEPTH1_OPERATOR_DESC as a user typed it. The output is
// the packed tensor of the sizes the operator derives.
type DepthSpaceDesc struct {
	Op           DepthSpaceOp
	Input        TensorDesc
	FeatureLevel FeatureLevel // zero: the newest
	BlockSize    int64        // a UINT
	Order        DepthSpaceOrder
}

// DepthSpace is a validated depth-to-space or space-to-depth.
type DepthSpace struct {
	Op           DepthSpaceOp
	Input        *Layout
	Output       *Layout // packed, same data type
	FeatureLevel FeatureLevel
	BlockSize    int64
	Order        DepthSpaceOrder
}

var depthSpaceInputFields = fieldNames{"dataType", "inputSizes", "inputStrides", "inputTotalTensorSizeInBytes", "inputGuaranteedBaseOffsetAlignment"}

// DepthSpaceOutputSizes returns the output sizes of op on the NCHW sizes
// in with block size b: depth-to-space gives {N, C/b², H·b, W·b}, and
// space-to-depth {N, C·b², H/b, W/b}. The SPACE_TO_DEPTH1 page's
// OutputTensor field states the depth-to-space shape; its examples
// ({1,2,4,6} -> {1,8,2,3}) and the operator being the inverse say this
// one. ok is false when b is not at least 1 or a size is not a UINT.
func DepthSpaceOutputSizes(op DepthSpaceOp, in []int64, b int64) ([]int64, bool) {
	if len(in) != 4 || b < 1 || b > MaxUINT {
		return nil, false
	}
	bb, ok := mulLimit(uint64(b), uint64(b), MaxUINT)
	if op == DepthToSpace {
		h, okH := mulLimit(uint64(in[2]), uint64(b), MaxUINT)
		w, okW := mulLimit(uint64(in[3]), uint64(b), MaxUINT)
		if !ok || !okH || !okW || in[1]%int64(bb) != 0 {
			return nil, false
		}
		return []int64{in[0], in[1] / int64(bb), int64(h), int64(w)}, true
	}
	c, okC := mulLimit(uint64(in[1]), bb, MaxUINT)
	if !ok || !okC || in[2]%b != 0 || in[3]%b != 0 {
		return nil, false
	}
	return []int64{in[0], int64(c), in[2] / b, in[3] / b}, true
}

// NewDepthSpace validates d against its page's rules, reporting every
// violation at once, each at its field: the input tensor's own rules,
// the feature level (2_1 and later), the data type at that level,
// DimensionCount 4, a BlockSize of at least 1 (the pages do not say so,
// but a block of 0 rows moves nothing and divides the channels by 0),
// the channels a multiple of BlockSize² (depth-to-space) or the height
// and width multiples of BlockSize (space-to-depth), and the order one of
// the enum's.
func NewDepthSpace(d DepthSpaceDesc) (*DepthSpace, error) {
	var vs violations
	checkTensor(&vs, d.Input, depthSpaceInputFields)
	fl := d.FeatureLevel
	if fl == (FeatureLevel{}) {
		fl = NewestFeatureLevel
	}
	op := d.Op.OperatorName()
	if !fl.AtLeast(fl21) {
		vs.add("featureLevel", "depthspace.level.old", "{op} was introduced in DML_FEATURE_LEVEL_2_1; {level} is older", Args{"op": op, "level": fl})
	} else if dt := d.Input.DataType; dt.Valid() && !containsType(DepthSpaceDataTypes(fl), dt) {
		args := Args{"type": dt, "op": op, "level": fl}
		switch dt.Bits() {
		case 64:
			vs.add("dataType", "depthspace.datatype.level64", "DataType {type} not supported by {op} at feature level {level} (64-bit types need 5_0 or later)", args)
		case 4:
			vs.add("dataType", "depthspace.datatype.4bit", "DataType {type} not supported by {op} at feature level {level} (no feature level supports 4-bit types for it)", args)
		default:
			vs.add("dataType", "depthspace.datatype.level", "DataType {type} not supported by {op} at feature level {level}", args)
		}
	}
	if !d.Order.Valid() {
		vs.add("order", "depthspace.order.unknown", "Order {value} is not a DML_DEPTH_SPACE_ORDER (DEPTH_COLUMN_ROW or COLUMN_ROW_DEPTH)", Args{"value": int(d.Order)})
	}
	b := d.BlockSize
	blockOK := b >= 1 && b <= MaxUINT
	switch {
	case b < 1:
		vs.add("blockSize", "depthspace.block.min", "BlockSize = {value}: a block is at least 1 row and 1 column (0 would divide the channels by 0)", Args{"value": b})
	case b > MaxUINT:
		vs.add("blockSize", "depthspace.block.uint", "BlockSize = {value} exceeds the UINT maximum 2^32-1", Args{"value": b})
	}
	n := len(d.Input.Sizes)
	if n != 4 {
		vs.add("inputSizes", "depthspace.rank", "DimensionCount {rank}: {op}'s InputTensor and OutputTensor have exactly 4 dimensions { Batch, Channels, Height, Width }", Args{"rank": n, "op": op})
	}
	if n == 4 && blockOK {
		checkDepthSpaceSizes(&vs, d.Op, d.Input.Sizes, b)
	}
	if err := vs.err(); err != nil {
		return nil, err
	}
	out, _ := DepthSpaceOutputSizes(d.Op, d.Input.Sizes, b)
	s := &DepthSpace{Op: d.Op, FeatureLevel: fl, BlockSize: b, Order: d.Order}
	s.Input = newLayoutUnchecked(d.Input)
	s.Input.Warnings = dwordWarnings(depthSpaceInputFields.total, d.Input.TotalTensorSizeInBytes)
	// The output has as many elements as the input's logical count, which
	// checkTensor held to a UINT; each of its sizes was checked above.
	s.Output = newLayoutUnchecked(TensorDesc{DataType: d.Input.DataType, Sizes: out})
	return s, nil
}

// checkDepthSpaceSizes reports the sizes the block does not divide, each
// at its input size. No output size needs a rule of its own: the output
// holds the input's elements, at most 2^32-1 (checkTensor), and each of
// its sizes is a factor of that count.
func checkDepthSpaceSizes(vs *violations, op DepthSpaceOp, in []int64, b int64) {
	for _, s := range in {
		if s < 1 || s > MaxUINT {
			return // said by checkTensor
		}
	}
	// b is a UINT, so b² < 2^64 is exact in a uint64.
	bb := uint64(b) * uint64(b)
	if op == DepthToSpace {
		if uint64(in[1])%bb != 0 {
			vs.add("inputSizes[1]", "depthspace.channels.divisible", "Channels = {value} is not a multiple of BlockSize × BlockSize = {square}: OutputChannelCount = InputChannelCount / (BlockSize × BlockSize) must be whole", Args{"value": in[1], "square": bb})
		}
		return
	}
	if in[2]%b != 0 {
		vs.add("inputSizes[2]", "depthspace.height.divisible", "Height = {value} is not a multiple of BlockSize {block}: the blocks must tile the input exactly", Args{"value": in[2], "block": b})
	}
	if in[3]%b != 0 {
		vs.add("inputSizes[3]", "depthspace.width.divisible", "Width = {value} is not a multiple of BlockSize {block}: the blocks must tile the input exactly", Args{"value": in[3], "block": b})
	}
}

// ViewSizes and ViewStrides are the operator as a 6-D strided view of
// the input: the output's row-major order split at the block (so its
// element i is element i of the view), each of the six dimensions
// stepping the input buffer by its stride.
//
// Depth-to-space reads output (n, c, h·b+y, w·b+x), view {N, C', H, b,
// W, b}, from input channel (y·b+x)·C'+c in DCR and c·b²+y·b+x in CRD.
// Space-to-depth writes output channel (y·b+x)·C+c (DCR) or c·b²+y·b+x
// (CRD) at (n, ·, h, w) from input (n, c, h·b+y, w·b+x): view {N, b, b,
// C, H', W'} in DCR, {N, C, b, b, H', W'} in CRD.
func (s *DepthSpace) View() (sizes, strides []int64) {
	b := s.BlockSize
	st := s.Input.Strides
	if s.Op == DepthToSpace {
		o := s.Output.Sizes
		in := s.Input.Sizes
		cOut := o[1]
		if s.Order == DepthColumnRow {
			return []int64{in[0], cOut, in[2], b, in[3], b},
				[]int64{st[0], st[1], st[2], b * cOut * st[1], st[3], cOut * st[1]}
		}
		return []int64{in[0], cOut, in[2], b, in[3], b},
			[]int64{st[0], b * b * st[1], st[2], b * st[1], st[3], st[1]}
	}
	in := s.Input.Sizes
	h, w := in[2]/b, in[3]/b
	if s.Order == DepthColumnRow {
		return []int64{in[0], b, b, in[1], h, w}, []int64{st[0], st[2], st[3], st[1], b * st[2], b * st[3]}
	}
	return []int64{in[0], in[1], b, b, h, w}, []int64{st[0], st[1], st[2], st[3], b * st[2], b * st[3]}
}

// OutputElementCount is product(OutputSizes), the input's count.
func (s *DepthSpace) OutputElementCount() int64 { return s.Output.LogicalElementCount() }

// InputCoordinate returns the input coordinate the output element with
// row-major index i reads.
func (s *DepthSpace) InputCoordinate(i int64) []int64 {
	c := s.Output.Coordinate(i)
	b := s.BlockSize
	if s.Op == DepthToSpace {
		n, ch, h, w := c[0], c[1], c[2], c[3]
		y, x := h%b, w%b
		in := ch*b*b + y*b + x
		if s.Order == DepthColumnRow {
			in = (y*b+x)*s.Output.Sizes[1] + ch
		}
		return []int64{n, in, h / b, w / b}
	}
	n, ch, h, w := c[0], c[1], c[2], c[3]
	cIn := s.Input.Sizes[1]
	var y, x, src int64
	if s.Order == DepthColumnRow {
		blk := ch / cIn
		y, x, src = blk/b, blk%b, ch%cIn
	} else {
		src, y, x = ch/(b*b), ch%(b*b)/b, ch%b
	}
	return []int64{n, src, h*b + y, w*b + x}
}

// InputCoordinates returns the input coordinate read by every output
// element in row-major order; ErrTooMany past limit.
func (s *DepthSpace) InputCoordinates(limit int64) ([][]int64, error) {
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

// InputOffsets returns, for every output element in row-major order, the
// input buffer offset it reads; ErrTooMany past limit.
func (s *DepthSpace) InputOffsets(limit int64) ([]int64, error) {
	n := s.OutputElementCount()
	if n > limit {
		return nil, fmt.Errorf("%w: %d output elements > %d", ErrTooMany, n, limit)
	}
	sizes, strides := s.View()
	out := make([]int64, 0, n)
	forEachOffset(sizes, strides, 0, func(o int64) { out = append(out, o) })
	return out, nil
}
