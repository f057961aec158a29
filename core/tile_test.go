package core

import (
	"slices"
	"testing"
)

// TestTilePageExample: the DML_TILE page's example (whose output the page
// labels InputTensor, erratum 7 of the operators' README), number for
// number.
func TestTilePageExample(t *testing.T) {
	tl, err := NewTile(TileDesc{Input: TensorDesc{DataType: Float32, Sizes: []int64{1, 1, 2, 3}}, Repeats: []int64{1, 1, 3, 3}, FeatureLevel: FeatureLevel{1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(tl.Output.Sizes, []int64{1, 1, 6, 9}) {
		t.Fatalf("output sizes %v", tl.Output.Sizes)
	}
	in := []int64{1, 2, 3, 4, 5, 6}
	want := []int64{1, 2, 3, 1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6, 4, 5, 6, 1, 2, 3, 1, 2, 3, 1, 2, 3,
		4, 5, 6, 4, 5, 6, 4, 5, 6, 1, 2, 3, 1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 5, 6, 4, 5, 6}
	for i, w := range want {
		c := tl.InputCoordinate(int64(i))
		off, _ := tl.Input.Offset(c)
		if in[off] != w {
			t.Errorf("output %d reads %v = %d, the page prints %d", i, c, in[off], w)
		}
	}
	if got := tl.AxisSources(3); !slices.Equal(got, []int64{0, 1, 2, 0, 1, 2, 0, 1, 2}) {
		t.Errorf("axis 3 %v", got)
	}
}

func TestTileViolations(t *testing.T) {
	type fc struct{ field, code string }
	base := func(mod func(*TileDesc)) TileDesc {
		d := TileDesc{Input: TensorDesc{DataType: Float32, Sizes: []int64{2, 3}}, Repeats: []int64{2, 1}}
		if mod != nil {
			mod(&d)
		}
		return d
	}
	tests := []struct {
		name string
		desc TileDesc
		want []fc
	}{
		{"valid", base(nil), nil},
		{"rank 2 at 3_0", base(func(d *TileDesc) { d.FeatureLevel = FeatureLevel{3, 0} }), []fc{{"inputSizes", "tile.rank.level"}}},
		{"rank 2 at 3_1", base(func(d *TileDesc) { d.FeatureLevel = FeatureLevel{3, 1} }), nil},
		{"INT8 at 1_0, rank 4", base(func(d *TileDesc) {
			d.FeatureLevel, d.Input.DataType, d.Input.Sizes, d.Repeats = FeatureLevel{1, 0}, Int8, []int64{1, 1, 2, 3}, []int64{1, 1, 2, 2}
		}), []fc{{"dataType", "tile.datatype.level"}}},
		{"INT64 at 4_0", base(func(d *TileDesc) { d.FeatureLevel, d.Input.DataType = FeatureLevel{4, 0}, Int64 }), []fc{{"dataType", "tile.datatype.level64"}}},
		{"FLOAT64 never", base(func(d *TileDesc) { d.Input.DataType = Float64 }), []fc{{"dataType", "tile.datatype.never"}}},
		{"output type", base(func(d *TileDesc) { d.OutputDataType = Float16 }), []fc{{"outputDataType", "tile.datatype.output"}}},
		{"repeats count", base(func(d *TileDesc) { d.Repeats = []int64{2} }), []fc{{"repeats", "tile.rank.mismatch"}}},
		{"repeat 0 and past UINT", base(func(d *TileDesc) { d.Repeats = []int64{0, 1 << 32} }), []fc{{"repeats[0]", "tile.repeat.range"}, {"repeats[1]", "tile.repeat.range"}}},
		{"output size past UINT, 64-bit", base(func(d *TileDesc) { d.Input.Sizes, d.Repeats = []int64{MaxUINT, 1}, []int64{MaxUINT, 1} }), []fc{{"outputSizes[0]", "tile.output.uint"}}},
		{"output count past 2^32-1", base(func(d *TileDesc) { d.Repeats = []int64{1 << 16, 1 << 16} }), []fc{{"outputSizes", "tensor.count.logical"}}},
		{"output sizes given wrong", base(func(d *TileDesc) { d.OutputSizes = []int64{4, 4} }), []fc{{"outputSizes[1]", "tile.output.size"}}},
		{"output sizes count", base(func(d *TileDesc) { d.OutputSizes = []int64{4} }), []fc{{"outputSizes", "tile.output.rank"}}},
		{"all at once", base(func(d *TileDesc) {
			d.Input.Sizes, d.Input.DataType, d.OutputDataType, d.Repeats = []int64{0, 3}, Float64, Float32, []int64{1, 0, 1}
		}), []fc{{"inputSizes[0]", "tensor.size.zero"}, {"dataType", "tile.datatype.never"}, {"outputDataType", "tile.datatype.output"}, {"repeats", "tile.rank.mismatch"}, {"repeats[1]", "tile.repeat.range"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewTile(tt.desc)
			var got []fc
			if ve, ok := err.(*ValidationError); ok {
				for _, v := range ve.Violations {
					got = append(got, fc{v.Field, v.Code})
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("violations %v, want %v", got, tt.want)
			}
		})
	}
}
