package core

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"slices"
	"testing"
)

func dsOf(op DepthSpaceOp, dt DataType, sizes []int64, b int64, o DepthSpaceOrder) DepthSpaceDesc {
	return DepthSpaceDesc{Op: op, Input: TensorDesc{DataType: dt, Sizes: sizes}, BlockSize: b, Order: o}
}

// TestDepthSpaceRules: each rule of the two pages, every violation at
// its field, all at once.
func TestDepthSpaceRules(t *testing.T) {
	at := func(d DepthSpaceDesc, fl FeatureLevel) DepthSpaceDesc { d.FeatureLevel = fl; return d }
	strided := func(d DepthSpaceDesc, st []int64) DepthSpaceDesc { d.Input.Strides = st; return d }
	cases := []struct {
		name string
		desc DepthSpaceDesc
		want []fieldCode
	}{
		{"the pages' depth-to-space input", dsOf(DepthToSpace, UInt32, []int64{1, 8, 2, 3}, 2, DepthColumnRow), nil},
		{"the pages' space-to-depth input", dsOf(SpaceToDepth, UInt32, []int64{1, 2, 4, 6}, 2, ColumnRowDepth), nil},
		{"block size 1 is the identity", dsOf(DepthToSpace, Float32, []int64{2, 3, 4, 5}, 1, DepthColumnRow), nil},
		{"padded NHWC input", strided(dsOf(DepthToSpace, Float16, []int64{1, 4, 2, 2}, 2, ColumnRowDepth), []int64{40, 1, 20, 5}), nil},
		{"broadcast input", strided(dsOf(SpaceToDepth, Int8, []int64{1, 1, 2, 2}, 2, DepthColumnRow), []int64{0, 0, 0, 1}), nil},
		{"channels not a multiple of block²", dsOf(DepthToSpace, Float32, []int64{1, 6, 2, 3}, 2, DepthColumnRow),
			[]fieldCode{{"inputSizes[1]", "depthspace.channels.divisible"}}},
		{"block² past the channels", dsOf(DepthToSpace, Float32, []int64{1, 4, 1, 1}, 65536, DepthColumnRow),
			[]fieldCode{{"inputSizes[1]", "depthspace.channels.divisible"}}},
		{"height and width not multiples", dsOf(SpaceToDepth, Float32, []int64{1, 1, 3, 5}, 2, DepthColumnRow),
			[]fieldCode{{"inputSizes[2]", "depthspace.height.divisible"}, {"inputSizes[3]", "depthspace.width.divisible"}}},
		{"block size 0", dsOf(DepthToSpace, Float32, []int64{1, 4, 1, 1}, 0, DepthColumnRow),
			[]fieldCode{{"blockSize", "depthspace.block.min"}}},
		{"block size negative", dsOf(SpaceToDepth, Float32, []int64{1, 4, 1, 1}, -2, DepthColumnRow),
			[]fieldCode{{"blockSize", "depthspace.block.min"}}},
		{"block size past a UINT", dsOf(SpaceToDepth, Float32, []int64{1, 4, 1, 1}, 1<<32, DepthColumnRow),
			[]fieldCode{{"blockSize", "depthspace.block.uint"}}},
		{"no output size can pass a UINT: the input's count is held first", dsOf(DepthToSpace, UInt8, []int64{1, 4, 1 << 31, 1}, 2, DepthColumnRow),
			[]fieldCode{{"inputSizes", "tensor.count.logical"}}},
		{"the largest output height", dsOf(DepthToSpace, UInt8, []int64{1, 4, 1<<30 - 1, 1}, 2, DepthColumnRow), nil},
		{"three dimensions", dsOf(DepthToSpace, Float32, []int64{4, 2, 3}, 2, DepthColumnRow),
			[]fieldCode{{"inputSizes", "depthspace.rank"}}},
		{"five dimensions", dsOf(SpaceToDepth, Float32, []int64{1, 1, 4, 2, 2}, 2, DepthColumnRow),
			[]fieldCode{{"inputSizes", "depthspace.rank"}}},
		{"unknown order", dsOf(DepthToSpace, Float32, []int64{1, 4, 1, 1}, 2, DepthSpaceOrder(2)),
			[]fieldCode{{"order", "depthspace.order.unknown"}}},
		{"before 2_1", at(dsOf(DepthToSpace, Float32, []int64{1, 4, 1, 1}, 2, DepthColumnRow), FeatureLevel{2, 0}),
			[]fieldCode{{"featureLevel", "depthspace.level.old"}}},
		{"64-bit at 4_1", at(dsOf(DepthToSpace, Int64, []int64{1, 4, 1, 1}, 2, DepthColumnRow), FeatureLevel{4, 1}),
			[]fieldCode{{"dataType", "depthspace.datatype.level64"}}},
		{"64-bit at 5_0", at(dsOf(DepthToSpace, Float64, []int64{1, 4, 1, 1}, 2, DepthColumnRow), FeatureLevel{5, 0}), nil},
		{"8-bit at 2_1", at(dsOf(SpaceToDepth, UInt8, []int64{1, 1, 2, 2}, 2, DepthColumnRow), FeatureLevel{2, 1}), nil},
		{"4-bit never", dsOf(DepthToSpace, Int4, []int64{1, 4, 1, 1}, 2, DepthColumnRow),
			[]fieldCode{{"dataType", "depthspace.datatype.4bit"}}},
		{"negative stride", strided(dsOf(DepthToSpace, Float32, []int64{1, 4, 1, 1}, 2, DepthColumnRow), []int64{4, -1, 1, 1}),
			[]fieldCode{{"inputStrides[1]", "tensor.stride.negative"}}},
		{"all at once", DepthSpaceDesc{Op: SpaceToDepth, Input: TensorDesc{DataType: UInt64, Sizes: []int64{1, 1, 3, 3},
			GuaranteedBaseOffsetAlignment: 3}, FeatureLevel: FeatureLevel{4, 0}, BlockSize: 2, Order: DepthSpaceOrder(7)},
			[]fieldCode{
				{"inputGuaranteedBaseOffsetAlignment", "tensor.alignment.pow2"},
				{"dataType", "depthspace.datatype.level64"},
				{"order", "depthspace.order.unknown"},
				{"inputSizes[2]", "depthspace.height.divisible"},
				{"inputSizes[3]", "depthspace.width.divisible"},
			}},
		{"zero size, rank and block at once", dsOf(DepthToSpace, Float32, []int64{0, 4, 1}, 0, DepthColumnRow),
			[]fieldCode{{"inputSizes[0]", "tensor.size.zero"}, {"blockSize", "depthspace.block.min"}, {"inputSizes", "depthspace.rank"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s, err := NewDepthSpace(c.desc)
			got := violationsOf(t, err)
			if !slices.Equal(got, c.want) {
				t.Fatalf("violations %v, want %v", got, c.want)
			}
			if c.want == nil && s == nil {
				t.Fatal("valid desc gave no operator")
			}
		})
	}
}

// TestDepthSpaceOutputSizes: {N, C/b², H·b, W·b} one way, {N, C·b², H/b,
// W/b} the other (the SPACE_TO_DEPTH1 page's examples, not its
// OutputTensor text, which states the first shape).
func TestDepthSpaceOutputSizes(t *testing.T) {
	cases := []struct {
		op   DepthSpaceOp
		in   []int64
		b    int64
		want []int64
	}{
		{DepthToSpace, []int64{1, 8, 2, 3}, 2, []int64{1, 2, 4, 6}},
		{SpaceToDepth, []int64{1, 2, 4, 6}, 2, []int64{1, 8, 2, 3}},
		{DepthToSpace, []int64{3, 27, 5, 1}, 3, []int64{3, 3, 15, 3}},
		{SpaceToDepth, []int64{2, 3, 9, 6}, 3, []int64{2, 27, 3, 2}},
		{DepthToSpace, []int64{1, 1, 7, 7}, 1, []int64{1, 1, 7, 7}},
		{DepthToSpace, []int64{1, 8, 2, 3}, 3, nil},
		{SpaceToDepth, []int64{1, 2, 4, 6}, 4, nil},
		{SpaceToDepth, []int64{1, 2, 4, 6}, 0, nil},
	}
	for _, c := range cases {
		got, ok := DepthSpaceOutputSizes(c.op, c.in, c.b)
		if !slices.Equal(got, c.want) || ok != (c.want != nil) {
			t.Errorf("%v %v b=%d: %v %v, want %v", c.op.OperatorName(), c.in, c.b, got, ok, c.want)
		}
	}
}

// depthSpaceExample is one example the two pages print.
type depthSpaceExample struct {
	Name        string  `json:"name"`
	Operator    string  `json:"operator"`
	Order       string  `json:"order"`
	BlockSize   int64   `json:"blockSize"`
	DataType    string  `json:"dataType"`
	InputSizes  []int64 `json:"inputSizes"`
	Input       []int64 `json:"input"`
	OutputSizes []int64 `json:"outputSizes"`
	Output      []int64 `json:"output"`
}

// TestDepthSpacePageExamples: every example of both pages, its input
// values (not an arange: 9c + 3h + w) read through the input
// coordinates and through the offsets, reproduces the printed output.
func TestDepthSpacePageExamples(t *testing.T) {
	raw, err := os.ReadFile("testdata/depthspace-examples.json")
	if err != nil {
		t.Fatal(err)
	}
	var file struct {
		Examples []depthSpaceExample `json:"examples"`
	}
	if err := json.Unmarshal(raw, &file); err != nil {
		t.Fatal(err)
	}
	if len(file.Examples) != 4 {
		t.Fatalf("%d examples, want the pages' 4", len(file.Examples))
	}
	for _, ex := range file.Examples {
		t.Run(ex.Name, func(t *testing.T) {
			op := DepthToSpace
			if ex.Operator == "SPACE_TO_DEPTH1" {
				op = SpaceToDepth
			}
			o, ok := ParseDepthSpaceOrder(ex.Order)
			dt, err := ParseDataType(ex.DataType)
			if !ok || err != nil {
				t.Fatalf("order %q, type %q: %v", ex.Order, ex.DataType, err)
			}
			s, err := NewDepthSpace(dsOf(op, dt, ex.InputSizes, ex.BlockSize, o))
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(s.Output.Sizes, ex.OutputSizes) {
				t.Fatalf("output sizes %v, the page %v", s.Output.Sizes, ex.OutputSizes)
			}
			coords, _ := s.InputCoordinates(1 << 16)
			offs, _ := s.InputOffsets(1 << 16)
			for i, c := range coords {
				off, _ := s.Input.Offset(c)
				if got := ex.Input[off]; got != ex.Output[i] || offs[i] != off {
					t.Fatalf("output element %d reads input %v = %d (offset %d, walk %d), the page prints %d", i, c, got, off, offs[i], ex.Output[i])
				}
			}
		})
	}
}

// TestDepthSpaceViewIsTheFormula: for random shapes, strides and both
// orders the 6-D view's offsets are the coordinate formula's, and the two
// operators undo each other.
func TestDepthSpaceViewIsTheFormula(t *testing.T) {
	r := rand.New(rand.NewPCG(40, 2))
	for range 500 {
		b := int64(1 + r.IntN(3))
		sizes := []int64{1 + r.Int64N(2), 1 + r.Int64N(3), 1 + r.Int64N(3), 1 + r.Int64N(3)}
		for _, op := range []DepthSpaceOp{DepthToSpace, SpaceToDepth} {
			in := slices.Clone(sizes)
			if op == DepthToSpace {
				in[1] *= b * b
			} else {
				in[2], in[3] = in[2]*b, in[3]*b
			}
			for _, o := range DepthSpaceOrders {
				st := PackedStrides(in)
				if r.IntN(2) == 0 { // NHWC, padded
					st = []int64{in[1] * in[2] * (in[3] + 1), 1, in[1] * (in[3] + 1), in[1]}
				}
				s, err := NewDepthSpace(DepthSpaceDesc{Op: op, Input: TensorDesc{DataType: Float32, Sizes: in, Strides: st}, BlockSize: b, Order: o})
				if err != nil {
					t.Fatal(err)
				}
				offs, _ := s.InputOffsets(1 << 20)
				back := op ^ 1
				inv, err := NewDepthSpace(dsOf(back, Float32, s.Output.Sizes, b, o))
				if err != nil {
					t.Fatal(err)
				}
				for i := range s.OutputElementCount() {
					c := s.InputCoordinate(i)
					if off, _ := s.Input.Offset(c); off != offs[i] {
						t.Fatalf("%s %v %v b=%d: element %d at %v = offset %d, the view %d", op.OperatorName(), o, in, b, i, c, off, offs[i])
					}
				}
				for i := range inv.OutputElementCount() {
					c := inv.InputCoordinate(i)
					k, _ := inv.Input.Offset(c) // packed: the row-major index
					if got := s.InputCoordinate(k); !slices.Equal(got, inv.Output.Coordinate(i)) {
						t.Fatalf("%s then its inverse (%v, b=%d, %v): element %d goes to %v, not back", op.OperatorName(), in, b, o, i, got)
					}
				}
			}
		}
	}
}

func TestParseDepthSpaceOrder(t *testing.T) {
	for s, want := range map[string]DepthSpaceOrder{
		"DEPTH_COLUMN_ROW": DepthColumnRow, "DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH": ColumnRowDepth,
		"COLUMN_ROW_DEPTH": ColumnRowDepth, "DML_DEPTH_SPACE_ORDER_DEPTH_COLUMN_ROW": DepthColumnRow,
	} {
		if got, ok := ParseDepthSpaceOrder(s); !ok || got != want {
			t.Errorf("%q: %v %v", s, got, ok)
		}
	}
	for _, s := range []string{"DCR", "CRD", "", "depth_column_row", "DML_DEPTH_SPACE_ORDER_"} {
		if _, ok := ParseDepthSpaceOrder(s); ok {
			t.Errorf("%q parsed", s)
		}
	}
}

// FuzzDepthSpace: any desc is refused with violations or gives an
// operator whose view stays inside the input (its largest offset is the
// input's last element at most) and whose coordinates are the view's.
func FuzzDepthSpace(f *testing.F) {
	f.Add(int64(1), int64(8), int64(2), int64(3), int64(0), int64(2), uint8(0), uint8(0))
	f.Add(int64(1), int64(2), int64(4), int64(6), int64(1), int64(2), uint8(1), uint8(1))
	f.Add(int64(1), int64(1<<30), int64(2), int64(2), int64(0), int64(65536), uint8(1), uint8(0))
	f.Add(int64(-1), int64(0), int64(1<<40), int64(3), int64(5), int64(-7), uint8(3), uint8(9))
	f.Fuzz(func(t *testing.T, n, c, h, w, pad, b int64, op, order uint8) {
		sizes := []int64{n, c, h, w}
		d := DepthSpaceDesc{Op: DepthSpaceOp(op % 2), Input: TensorDesc{DataType: Float32, Sizes: sizes}, BlockSize: b, Order: DepthSpaceOrder(order % 3)}
		if pad > 0 && pad < 1<<20 && c > 0 && h > 0 && w > 0 && c < 1<<20 && h < 1<<20 && w < 1<<20 {
			d.Input.Strides = []int64{c * h * (w + pad), 1, c * (w + pad), c} // NHWC, padded rows
		}
		s, err := NewDepthSpace(d)
		if err != nil {
			return
		}
		sizes6, strides6 := s.View()
		var last int64
		for i, z := range sizes6 {
			last += (z - 1) * strides6[i]
		}
		if last != s.Input.IndexOfLastElement() {
			t.Fatalf("%+v: the view ends at %d, the input at %d", d, last, s.Input.IndexOfLastElement())
		}
		for _, i := range []int64{0, s.OutputElementCount() / 2, s.OutputElementCount() - 1} {
			off, err := s.Input.Offset(s.InputCoordinate(i))
			if err != nil || off < 0 || off > last {
				t.Fatalf("%+v: element %d at %v: %d %v", d, i, s.InputCoordinate(i), off, err)
			}
		}
	})
}
