package core

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"
)

type padding1Examples struct {
	Input struct {
		Sizes  []int64   `json:"sizes"`
		Values []float64 `json:"values"`
	} `json:"input"`
	Examples []struct {
		Name        string    `json:"name"`
		Mode        string    `json:"mode"`
		Value       float64   `json:"value"`
		Start       []int64   `json:"start"`
		End         []int64   `json:"end"`
		OutputSizes []int64   `json:"outputSizes"`
		Output      []float64 `json:"output"`
	} `json:"examples"`
}

// TestPadding1PageExamples reproduces every example the DML_PADDING1 page
// prints, number for number (copied into testdata/padding1_examples.json).
func TestPadding1PageExamples(t *testing.T) {
	raw, err := os.ReadFile("testdata/padding1_examples.json")
	if err != nil {
		t.Fatal(err)
	}
	var ex padding1Examples
	if err := json.Unmarshal(raw, &ex); err != nil {
		t.Fatal(err)
	}
	if len(ex.Examples) != 4 {
		t.Fatalf("%d examples, the page prints 4", len(ex.Examples))
	}
	for _, e := range ex.Examples {
		t.Run(e.Name, func(t *testing.T) {
			mode, err := ParsePaddingMode(e.Mode)
			if err != nil {
				t.Fatal(err)
			}
			p, err := NewPadding1(Padding1Desc{
				Input: TensorDesc{DataType: Float32, Sizes: ex.Input.Sizes},
				Mode:  mode, PaddingValue: e.Value, StartPadding: e.Start, EndPadding: e.End,
				OutputSizes: e.OutputSizes, FeatureLevel: FeatureLevel{5, 0},
			})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(p.Output.Sizes, e.OutputSizes) {
				t.Fatalf("output sizes %v, the page %v", p.Output.Sizes, e.OutputSizes)
			}
			coords, all := p.InputCoordinates(1 << 20)
			if !all || len(coords) != len(e.Output) {
				t.Fatalf("%d coordinates (all %v), the page prints %d values", len(coords), all, len(e.Output))
			}
			for i, c := range coords {
				got := e.Value
				if c != nil {
					off, err := p.Input.Offset(c)
					if err != nil {
						t.Fatal(err)
					}
					got = ex.Input.Values[off]
				}
				if got != e.Output[i] {
					t.Errorf("output element %d (%v) reads %v = %v, the page prints %v", i, p.Output.Coordinate(int64(i)), c, got, e.Output[i])
				}
			}
		})
	}
}

func TestPadSource(t *testing.T) {
	tests := []struct {
		mode        PaddingMode
		size, start int64
		want        []int64 // for o = 0..len-1
	}{
		{PadConstant, 3, 2, []int64{-1, -1, 0, 1, 2, -1}},
		{PadEdge, 3, 2, []int64{0, 0, 0, 1, 2, 2, 2}},
		// Folded twice: period 2(size-1) = 4.
		{PadReflection, 3, 5, []int64{1, 0, 1, 2, 1, 0, 1, 2, 1, 0, 1, 2}},
		{PadReflection, 1, 2, []int64{0, 0, 0, 0}},
		{PadReflection, 2, 3, []int64{1, 0, 1, 0, 1, 0, 1}},
		// Period 2*size = 6, the edge repeated.
		{PadSymmetric, 3, 4, []int64{2, 2, 1, 0, 0, 1, 2, 2, 1, 0, 0, 1}},
		{PadSymmetric, 1, 2, []int64{0, 0, 0, 0}},
		{PadWrap, 3, 4, []int64{2, 0, 1, 2, 0, 1, 2, 0}},
		// 64-bit: a start near 2^32 with a coordinate far from it.
		{PadWrap, MaxUINT, MaxUINT, []int64{0, 1}},
	}
	for _, tt := range tests {
		var got []int64
		for o := range int64(len(tt.want)) {
			got = append(got, PadSource(tt.mode, tt.size, tt.start, o))
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%v size %d start %d: %v, want %v", tt.mode, tt.size, tt.start, got, tt.want)
		}
	}
	// The far end of the largest axis stays in range.
	if got := PadSource(PadReflection, MaxUINT, MaxUINT, 3*MaxUINT-1); got < 0 || got >= MaxUINT {
		t.Errorf("reflection at 3*(2^32-1)-1 reads %d", got)
	}
}

func TestParsePaddingMode(t *testing.T) {
	for s, want := range map[string]PaddingMode{
		"CONSTANT": PadConstant, "dml_padding_mode_edge": PadEdge, "reflect": PadReflection,
		"Reflection": PadReflection, "SYMMETRIC": PadSymmetric, "wrap": PadWrap,
	} {
		if got, err := ParsePaddingMode(s); err != nil || got != want {
			t.Errorf("%q: %v, %v; want %v", s, got, err, want)
		}
	}
	if _, err := ParsePaddingMode("mirror"); err == nil {
		t.Error("mirror parsed")
	}
}

func p1desc(mod func(*Padding1Desc)) Padding1Desc {
	d := Padding1Desc{
		Input:        TensorDesc{DataType: Float32, Sizes: []int64{2, 3}},
		Mode:         PadConstant,
		StartPadding: []int64{1, 1},
		EndPadding:   []int64{0, 2},
	}
	if mod != nil {
		mod(&d)
	}
	return d
}

// TestPadding1Violations holds each rule to its field and code; several
// broken at once are all reported.
func TestPadding1Violations(t *testing.T) {
	type fc struct{ field, code string }
	tests := []struct {
		name string
		desc Padding1Desc
		want []fc
	}{
		{"valid", p1desc(nil), nil},
		{"level before 5_0", p1desc(func(d *Padding1Desc) { d.FeatureLevel = FeatureLevel{4, 1} }), []fc{{"featureLevel", "padding1.level.old"}}},
		{"wrap before 6_4", p1desc(func(d *Padding1Desc) { d.Mode, d.FeatureLevel = PadWrap, FeatureLevel{6, 3} }), []fc{{"paddingMode", "padding1.mode.level"}}},
		{"wrap at 6_4", p1desc(func(d *Padding1Desc) { d.Mode, d.FeatureLevel = PadWrap, FeatureLevel{6, 4} }), nil},
		{"symmetric at 5_0", p1desc(func(d *Padding1Desc) { d.Mode, d.FeatureLevel = PadSymmetric, FeatureLevel{5, 0} }), nil},
		{"mode unknown", p1desc(func(d *Padding1Desc) { d.Mode = 7 }), []fc{{"paddingMode", "padding1.mode.invalid"}}},
		{"4-bit", p1desc(func(d *Padding1Desc) { d.Input.DataType = Int4 }), []fc{{"dataType", "padding1.datatype.4bit"}}},
		{"output type", p1desc(func(d *Padding1Desc) { d.OutputDataType = Float16 }), []fc{{"outputDataType", "padding1.datatype.output"}}},
		{"start count", p1desc(func(d *Padding1Desc) { d.StartPadding = []int64{1} }), []fc{{"startPadding", "padding1.rank.mismatch"}}},
		{"end count and negative", p1desc(func(d *Padding1Desc) { d.EndPadding = []int64{-1, 0, 0} }), []fc{{"endPadding", "padding1.rank.mismatch"}, {"endPadding[0]", "padding1.pad.uint"}}},
		{"pad past UINT", p1desc(func(d *Padding1Desc) { d.StartPadding = []int64{1 << 32, 0} }), []fc{{"startPadding[0]", "padding1.pad.uint"}}},
		{"output size past UINT", p1desc(func(d *Padding1Desc) { d.StartPadding = []int64{MaxUINT, 0} }), []fc{{"outputSizes[0]", "tensor.size.uint"}}},
		{"output count past 2^32-1", p1desc(func(d *Padding1Desc) { d.StartPadding = []int64{1 << 16, 1 << 16} }), []fc{{"outputSizes", "tensor.count.logical"}}},
		{"output sizes given wrong", p1desc(func(d *Padding1Desc) { d.OutputSizes = []int64{3, 7} }), []fc{{"outputSizes[1]", "padding1.output.size"}}},
		{"output sizes given right", p1desc(func(d *Padding1Desc) { d.OutputSizes = []int64{3, 6} }), nil},
		{"output sizes count", p1desc(func(d *Padding1Desc) { d.OutputSizes = []int64{3} }), []fc{{"outputSizes", "padding1.rank.mismatch"}}},
		{"int8 value 300", p1desc(func(d *Padding1Desc) { d.Input.DataType, d.PaddingValue = Int8, 300 }), []fc{{"paddingValue", "padding1.value.int"}}},
		{"int32 value 1.5", p1desc(func(d *Padding1Desc) { d.Input.DataType, d.PaddingValue = Int32, 1.5 }), []fc{{"paddingValue", "padding1.value.int"}}},
		{"uint8 value -1", p1desc(func(d *Padding1Desc) { d.Input.DataType, d.PaddingValue = UInt8, -1 }), []fc{{"paddingValue", "padding1.value.int"}}},
		{"uint8 value 255", p1desc(func(d *Padding1Desc) { d.Input.DataType, d.PaddingValue = UInt8, 255 }), nil},
		{"float16 value 70000", p1desc(func(d *Padding1Desc) { d.Input.DataType, d.PaddingValue = Float16, 70000 }), []fc{{"paddingValue", "padding1.value.float"}}},
		{"value ignored by EDGE", p1desc(func(d *Padding1Desc) { d.Input.DataType, d.PaddingValue, d.Mode = Int8, 300, PadEdge }), nil},
		{"bad input sizes hide no padding rule", p1desc(func(d *Padding1Desc) {
			d.Input.Sizes = []int64{0, 3}
			d.EndPadding = []int64{0, -2}
		}), []fc{{"inputSizes[0]", "tensor.size.zero"}, {"endPadding[1]", "padding1.pad.uint"}}},
		{"all at once", p1desc(func(d *Padding1Desc) {
			d.FeatureLevel = FeatureLevel{6, 0}
			d.Mode = PadWrap
			d.OutputDataType = Int8
			d.StartPadding = []int64{1, 2, 3}
			d.EndPadding = []int64{0, 1 << 33}
		}), []fc{{"outputDataType", "padding1.datatype.output"}, {"paddingMode", "padding1.mode.level"}, {"startPadding", "padding1.rank.mismatch"}, {"endPadding[1]", "padding1.pad.uint"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := NewPadding1(tt.desc)
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

func TestPadding1Notes(t *testing.T) {
	tests := []struct {
		name string
		desc Padding1Desc
		want []string // fields
	}{
		{"reflection below the size", p1desc(func(d *Padding1Desc) { d.Mode = PadReflection }), nil},
		{"reflection at the size (Example 3's width)", p1desc(func(d *Padding1Desc) { d.Mode, d.EndPadding = PadReflection, []int64{0, 3} }), []string{"endPadding[1]"}},
		{"reflection of one element", p1desc(func(d *Padding1Desc) {
			d.Mode, d.Input.Sizes = PadReflection, []int64{1, 3}
		}), []string{"startPadding[0]", "inputSizes[0]"}},
		{"symmetric", p1desc(func(d *Padding1Desc) { d.Mode = PadSymmetric }), []string{"paddingMode"}},
		{"wrap", p1desc(func(d *Padding1Desc) { d.Mode = PadWrap }), []string{"paddingMode"}},
		{"constant", p1desc(nil), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := NewPadding1(tt.desc)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, n := range p.Notes {
				got = append(got, n.Field)
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("notes at %v, want %v", got, tt.want)
			}
		})
	}
}

func TestPadding1InputCoordinatesTruncated(t *testing.T) {
	p, err := NewPadding1(p1desc(nil))
	if err != nil {
		t.Fatal(err)
	}
	c, all := p.InputCoordinates(4)
	if all || len(c) != 4 {
		t.Fatalf("%d coordinates, all %v", len(c), all)
	}
	// Output 3x6, start {1,1}: row 0 is padding, (1,1) reads (0,0).
	if c[0] != nil || c[3] != nil {
		t.Errorf("row 0 reads %v", c)
	}
	if got := p.InputCoordinate(7); !slices.Equal(got, []int64{0, 0}) {
		t.Errorf("output (1,1) reads %v", got)
	}
}

func TestPadding1Exports(t *testing.T) {
	p, err := NewPadding1(Padding1Desc{
		Input: TensorDesc{DataType: Float16, Sizes: []int64{1, 1, 4, 4}},
		Mode:  PadConstant, PaddingValue: 9, StartPadding: []int64{0, 0, 1, 2}, EndPadding: []int64{0, 0, 3, 4},
	})
	if err != nil {
		t.Fatal(err)
	}
	cpp := p.CPP()
	for _, want := range []string{"UINT startPadding[4] = {0, 0, 1, 2};", "paddingDesc.PaddingMode = DML_PADDING_MODE_CONSTANT;",
		"paddingDesc.PaddingValue.UInt16 = 0x4880; // FLOAT16 bits of 9\n", "DML_OPERATOR_PADDING1, &paddingDesc }; // needs DML_FEATURE_LEVEL_5_0"} {
		if !strings.Contains(cpp, want) {
			t.Errorf("C++ lacks %q:\n%s", want, cpp)
		}
	}
	if np := p.NumPy(); !strings.Contains(np, `y = np.pad(x, ((0, 0), (0, 0), (1, 3), (2, 4)), mode="constant", constant_values=9)`) {
		t.Errorf("NumPy:\n%s", np)
	}
	p.Mode = PadReflection
	if np := p.NumPy(); !strings.Contains(np, "for axis, (s, t) in enumerate(") {
		t.Errorf("reflection by the size in one np.pad call:\n%s", np)
	}
}

func TestPadding1ONNX(t *testing.T) {
	for _, tt := range []struct {
		mode PaddingMode
		want string
		ok   bool
	}{
		{PadConstant, `{"mode":"constant","pads":[0,1,1,2],"constantValue":0,"opset":13}`, true},
		{PadReflection, `{"mode":"reflect","pads":[0,1,1,2],"opset":13}`, true},
		{PadWrap, `{"mode":"wrap","pads":[0,1,1,2],"opset":19}`, true},
		{PadSymmetric, ``, false},
	} {
		p, err := NewPadding1(p1desc(func(d *Padding1Desc) { d.Mode, d.StartPadding, d.EndPadding = tt.mode, []int64{0, 1}, []int64{1, 2} }))
		if err != nil {
			t.Fatal(err)
		}
		o, ok := p.ONNX()
		b, _ := json.Marshal(o)
		if ok != tt.ok || ok && string(b) != tt.want {
			t.Errorf("%v: %s %v, want %s %v", tt.mode, b, ok, tt.want, tt.ok)
		}
	}
}
