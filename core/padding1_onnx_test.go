package core

import (
	"bytes"
	"encoding/hex"
	"slices"
	"testing"
)

// TestPadding1ONNXModelOnlyWhereONNXAgrees: a model is exported for every
// mode ONNX shares while each padding is below its size, and none for
// SYMMETRIC or a REFLECTION or WRAP padding reaching the size, where a
// note at that padding says why.
func TestPadding1ONNXModelOnlyWhereONNXAgrees(t *testing.T) {
	for _, tt := range []struct {
		mode       PaddingMode
		start, end []int64
		model      bool
		note       string // a note's code at noteAt
		noteAt     string
	}{
		{PadConstant, []int64{0, 5}, []int64{9, 0}, true, "", ""},
		{PadEdge, []int64{4, 5}, []int64{9, 0}, true, "", ""},
		{PadReflection, []int64{1, 2}, []int64{1, 2}, true, "", ""},
		{PadReflection, []int64{1, 3}, []int64{1, 0}, false, "padding1.note.reflect.large", "startPadding[1]"},
		{PadWrap, []int64{1, 2}, []int64{1, 2}, true, "", ""},
		{PadWrap, []int64{0, 0}, []int64{2, 0}, false, "padding1.note.wrap.large", "endPadding[0]"},
		{PadSymmetric, []int64{0, 0}, []int64{1, 1}, false, "padding1.note.symmetric", "paddingMode"},
	} {
		p, err := NewPadding1(p1desc(func(d *Padding1Desc) { d.Mode, d.StartPadding, d.EndPadding = tt.mode, tt.start, tt.end }))
		if err != nil {
			t.Fatal(err)
		}
		m, ok := p.ONNXModel()
		if ok != tt.model || ok != (len(m) > 0) {
			t.Errorf("%v %v %v: model %v (%d bytes), want %v", tt.mode, tt.start, tt.end, ok, len(m), tt.model)
		}
		if ok && !bytes.Contains(m, []byte("Pad")) {
			t.Errorf("%v: the model has no Pad node: %x", tt.mode, m)
		}
		found := tt.note == ""
		for _, n := range p.Notes {
			found = found || n.Code == tt.note && n.Field == tt.noteAt
		}
		if !found {
			t.Errorf("%v %v %v: no note %s at %s in %v", tt.mode, tt.start, tt.end, tt.note, tt.noteAt, p.Notes)
		}
	}
}

// TestPadding1ONNXModelBytes: the whole model of a small CONSTANT
// padding, field by field, so that a change to the writer shows: pads
// every start then every end, the value a FLOAT32 scalar's raw bytes.
func TestPadding1ONNXModelBytes(t *testing.T) {
	p, err := NewPadding1(p1desc(func(d *Padding1Desc) { d.PaddingValue = 1.5 }))
	if err != nil {
		t.Fatal(err)
	}
	m, _ := p.ONNXModel()
	for _, part := range []string{
		"0a01780a04706164730a0e636f6e7374616e745f76616c75651201791a037061642203506164", // node: x, pads, constant_value -> y, "pad", "Pad"
		"0804100738013801380038024204706164",                                           // pads: dims 4, INT64, 1 1 0 2
		"1001420e636f6e7374616e745f76616c75654a040000c03f",                             // constant_value: FLOAT, raw 1.5f
	} {
		want, _ := hex.DecodeString(part)
		if !bytes.Contains(m, want) {
			t.Errorf("the model lacks %s:\n%x", part, m)
		}
	}
}

func TestPaddingValueBytes(t *testing.T) {
	for _, tt := range []struct {
		dt   DataType
		v    float64
		want []byte
	}{
		{Float64, -2, []byte{0, 0, 0, 0, 0, 0, 0, 0xc0}},
		{Float32, 1.5, []byte{0, 0, 0xc0, 0x3f}},
		{Float16, 65504, []byte{0xff, 0x7b}},
		{Int8, -1, []byte{0xff}},
		{Int16, -2, []byte{0xfe, 0xff}},
		{UInt16, 65535, []byte{0xff, 0xff}},
		{Int32, -3, []byte{0xfd, 0xff, 0xff, 0xff}},
		{UInt32, 4294967295, []byte{0xff, 0xff, 0xff, 0xff}},
		{Int64, -1, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}},
		{UInt64, 1 << 63, []byte{0, 0, 0, 0, 0, 0, 0, 0x80}},
		{UInt8, 200, []byte{200}},
	} {
		if got := PaddingValueBytes(tt.dt, tt.v); !slices.Equal(got, tt.want) {
			t.Errorf("%v %v: %x, want %x", tt.dt, tt.v, got, tt.want)
		}
	}
}

// TestTileONNXModel: a Tile node with its repeats as an INT64
// initializer, for every type DML_TILE takes.
func TestTileONNXModel(t *testing.T) {
	for _, dt := range TileDataTypes(NewestFeatureLevel) {
		ti, err := NewTile(TileDesc{Input: TensorDesc{DataType: dt, Sizes: []int64{2, 3}}, Repeats: []int64{3, 1}})
		if err != nil {
			t.Fatal(err)
		}
		m, ok := ti.ONNXModel()
		repeats, _ := hex.DecodeString("0802100738033801420772657065617473") // dims 2, INT64, 3 1, "repeats"
		if !ok || !bytes.Contains(m, []byte("Tile")) || !bytes.Contains(m, repeats) {
			t.Errorf("%v: %v %x", dt, ok, m)
		}
	}
}
