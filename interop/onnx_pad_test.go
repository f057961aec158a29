package interop

import (
	"bufio"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
)

// ortPadTypes are the types onnxruntime-node 1.30's CPU Pad runs: every
// type DML_PADDING1 takes but INT16 and UINT16, which it has no kernel
// for ("Could not find an implementation for Pad(11)"). Its Tile runs
// every type DML_TILE takes.
var ortPadTypes = []core.DataType{core.Float64, core.Float32, core.Float16, core.Int64, core.Int32, core.Int8, core.UInt64, core.UInt32, core.UInt8}

// padModes are the modes that export a Pad model.
var padModes = []core.PaddingMode{core.PadConstant, core.PadEdge, core.PadReflection, core.PadWrap}

// randomONNXPadding is a padding of mode and dt ONNX Pad computes as
// DirectML does: ranks 1 to 4, sizes 1 to 5, every REFLECTION or WRAP
// padding below its size, an output of at most a few thousand elements,
// a padding value dt holds; its input packed, or (one in three) with
// rows and planes padded in its buffer.
func randomONNXPadding(r *rand.Rand, mode core.PaddingMode, dt core.DataType) core.Padding1Desc {
	rank := 1 + r.IntN(4)
	maxPad := []int64{8, 6, 4, 2}[rank-1]
	d := core.Padding1Desc{Input: core.TensorDesc{DataType: dt, Sizes: make([]int64, rank)}, Mode: mode,
		StartPadding: make([]int64, rank), EndPadding: make([]int64, rank)}
	for i := range rank {
		s := 1 + r.Int64N(5)
		d.Input.Sizes[i] = s
		limit := maxPad
		if mode == core.PadReflection || mode == core.PadWrap {
			limit = min(limit, s)
		}
		d.StartPadding[i], d.EndPadding[i] = r.Int64N(limit), r.Int64N(limit)
	}
	d.Input.Strides = maybePitched(r, d.Input.Sizes)
	d.PaddingValue = float64(r.Int64N(100))
	if dt.IsSigned() {
		d.PaddingValue -= 50
	}
	if dt.IsFloat() {
		d.PaddingValue /= 4
	}
	return d
}

// maybePitched is nil (packed) two times in three, else strides whose
// rows and planes are 0 to 2 elements apart in the buffer.
func maybePitched(r *rand.Rand, sizes []int64) []int64 {
	if r.IntN(3) != 0 {
		return nil
	}
	strides := make([]int64, len(sizes))
	pitch := int64(1)
	for i := len(sizes) - 1; i >= 0; i-- {
		strides[i] = pitch
		pitch = pitch*sizes[i] + r.Int64N(3)
	}
	return strides
}

// ortPadOf runs p's model on src in onnxruntime-node: its output's dims
// and bytes, or ok false when p exports none.
func ortPadOf(t *testing.T, enc *json.Encoder, out *bufio.Scanner, c string, p *core.Padding1, src []byte) (dims []int64, data string, ok bool) {
	model, ok := p.ONNXModel()
	if !ok {
		return nil, "", false
	}
	a := ortRun(t, enc, out, c, model, []ortTensor{{Name: "x", Type: strings.ToLower(p.Input.DataType.String()), Dims: p.Input.Sizes, Input: hex.EncodeToString(src)}})
	if a.Error != "" || len(a.Outputs) != 1 {
		t.Fatalf("%s: onnxruntime-node: %q (%d outputs)", c, a.Error, len(a.Outputs))
	}
	return a.Outputs[0].Dims, a.Outputs[0].Data, true
}

// denseOf is the logical elements of l in buf, row-major: the dense
// tensor ONNX reads, gathered one element at a time through l.Offsets.
func denseOf(t *testing.T, l *core.Layout, buf []byte) []byte {
	offs, err := l.Offsets(l.LogicalElementCount())
	if err != nil {
		t.Fatal(err)
	}
	e := l.DataType.Bits() / 8
	var b []byte
	for _, o := range offs {
		b = append(b, buf[o*e:(o+1)*e]...)
	}
	return b
}

// axisCopyOf is compute's output of m over src: the bytes ORT must give.
func axisCopyOf(t *testing.T, m compute.AxisMap, src []byte, dt core.DataType, fill []byte) string {
	e := int(dt.Bits() / 8)
	dst := make([]byte, m.Len()*int64(e))
	if err := compute.AxisCopy(context.Background(), dst, src, m, e, fill); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(dst)
}

// randomElements is n elements of dt as random bytes, but no FLOAT16
// NaN: onnxruntime-node 1.30 (Node 20) hands every float16 NaN back as
// 0x7E00 or 0xFE00, whatever its payload, so a NaN's bits would differ
// from what any copy gives. Such an element becomes an infinity.
func randomElements(r *rand.Rand, dt core.DataType, n int64) []byte {
	b := make([]byte, n*dt.Bits()/8)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	if dt == core.Float16 {
		for i := 0; i < len(b); i += 2 {
			if v := binary.LittleEndian.Uint16(b[i:]); v&0x7c00 == 0x7c00 {
				binary.LittleEndian.PutUint16(b[i:], v&0xfc00)
			}
		}
	}
	return b
}

// padCases runs 300 random paddings per mode (the types of ortPadTypes
// in turn) through onnxruntime-node and compute.AxisCopy with
// PaddingMap; scramble gives ORT the model of the pads interleaved
// (start0, end0, start1, ...), ONNX's order mistaken for a per-axis one.
// It returns the cases compared and how many differ.
func padCases(t *testing.T, scramble bool) (cases, mismatches int) {
	enc, out := onnxRuntime(t)
	r := rand.New(rand.NewPCG(40, 19))
	for _, mode := range padModes {
		for c := range 300 {
			dt := ortPadTypes[c%len(ortPadTypes)]
			d := randomONNXPadding(r, mode, dt)
			p, err := core.NewPadding1(d)
			if err != nil {
				t.Fatal(err)
			}
			src := randomElements(r, dt, p.Input.BufferElementCount())
			want := axisCopyOf(t, compute.PaddingMap(p), src, dt, core.PaddingValueBytes(dt, p.PaddingValue))
			dense := denseOf(t, p.Input, src)
			name := fmt.Sprintf("%v %d: %v %v pads %v %v", mode, c, dt, d.Input.Sizes, d.StartPadding, d.EndPadding)
			run := p
			if scramble {
				if run = interleaved(d); run == nil {
					continue
				}
			}
			dims, got, ok := ortPadOf(t, enc, out, name, run, dense)
			if !ok {
				t.Fatalf("%s: no ONNX model", name)
			}
			cases++
			if !slices.Equal(dims, p.Output.Sizes) || got != want {
				mismatches++
				if !scramble {
					t.Errorf("%s: onnxruntime's Pad (dims %v) and compute's AxisCopy (%v) differ", name, dims, p.Output.Sizes)
				}
			}
		}
	}
	return cases, mismatches
}

// interleaved is d with its pads written per axis (start0, end0, start1,
// end1, ...) where ONNX wants every start then every end; nil when that
// is d again or not a padding ONNX computes.
func interleaved(d core.Padding1Desc) *core.Padding1 {
	n := len(d.StartPadding)
	var pads []int64
	for i := range n {
		pads = append(pads, d.StartPadding[i], d.EndPadding[i])
	}
	if slices.Equal(pads, append(slices.Clone(d.StartPadding), d.EndPadding...)) {
		return nil
	}
	d.StartPadding, d.EndPadding = pads[:n], pads[n:]
	p, err := core.NewPadding1(d)
	if err != nil {
		return nil
	}
	if _, ok := p.ONNXModel(); !ok {
		return nil
	}
	return p
}

// TestPadRunsInOnnxRuntime: the ONNX Pad model of 300 random paddings
// of each mode ONNX shares with DirectML (constant, edge, reflect, wrap
// at opset 19), of every type ORT's Pad runs, gives in onnxruntime-node
// the bytes compute.AxisCopy copies through PaddingMap from the same
// random input bytes.
func TestPadRunsInOnnxRuntime(t *testing.T) {
	cases, mismatches := padCases(t, false)
	t.Logf("%d paddings, %d mismatches", cases, mismatches)
	if cases != 4*300 {
		t.Fatalf("%d paddings compared, want 1200", cases)
	}
}

// TestPadScrambledPadsFailInOnnxRuntime: the comparison catches pads in
// the wrong order: with the pads interleaved, every case that changes
// (and stays a padding ONNX computes) differs.
func TestPadScrambledPadsFailInOnnxRuntime(t *testing.T) {
	cases, mismatches := padCases(t, true)
	t.Logf("%d scrambled paddings, %d differ", cases, mismatches)
	if cases < 500 || mismatches != cases {
		t.Fatalf("only %d of %d scrambled paddings differ from compute's: the comparison would miss a pads order bug", mismatches, cases)
	}
}

// TestTileRunsInOnnxRuntime: the ONNX Tile model of 300 random tilings
// (ranks 1 to 4, sizes 1 to 4, repeats 1 to 8, every type DML_TILE
// takes, a third on pitched inputs) gives in onnxruntime-node, on the
// input's dense elements, the bytes compute.AxisCopy copies through
// TileMap from its buffer.
func TestTileRunsInOnnxRuntime(t *testing.T) {
	enc, out := onnxRuntime(t)
	r := rand.New(rand.NewPCG(40, 13))
	types := core.TileDataTypes(core.NewestFeatureLevel)
	mismatches := 0
	for c := range 300 {
		dt := types[c%len(types)]
		rank := 1 + r.IntN(4)
		d := core.TileDesc{Input: core.TensorDesc{DataType: dt, Sizes: make([]int64, rank)}, Repeats: make([]int64, rank)}
		for i := range rank {
			d.Input.Sizes[i], d.Repeats[i] = 1+r.Int64N(4), 1+r.Int64N([]int64{8, 4, 3, 2}[rank-1])
		}
		d.Input.Strides = maybePitched(r, d.Input.Sizes)
		ti, err := core.NewTile(d)
		if err != nil {
			t.Fatal(err)
		}
		model, ok := ti.ONNXModel()
		if !ok {
			t.Fatalf("tile %d: no model", c)
		}
		src := randomElements(r, dt, ti.Input.BufferElementCount())
		want := axisCopyOf(t, compute.TileMap(ti), src, dt, make([]byte, dt.Bits()/8))
		name := fmt.Sprintf("tile %d: %v %v repeats %v", c, dt, d.Input.Sizes, d.Repeats)
		a := ortRun(t, enc, out, name, model, []ortTensor{{Name: "x", Type: strings.ToLower(dt.String()), Dims: d.Input.Sizes, Input: hex.EncodeToString(denseOf(t, ti.Input, src))}})
		if a.Error != "" || len(a.Outputs) != 1 {
			t.Fatalf("%s: onnxruntime-node: %q", name, a.Error)
		}
		if !slices.Equal(a.Outputs[0].Dims, ti.Output.Sizes) || a.Outputs[0].Data != want {
			mismatches++
			t.Errorf("%s: onnxruntime's Tile (dims %v) and compute's AxisCopy (%v) differ", name, a.Outputs[0].Dims, ti.Output.Sizes)
		}
	}
	t.Logf("300 tilings, %d mismatches", mismatches)
}

// TestPadTypesOnnxRuntimeLacks: ortPadTypes leaves out only what
// onnxruntime-node's Pad refuses: INT16 and UINT16 models load with no
// kernel. When an ORT update brings one, this fails, to add the type.
func TestPadTypesOnnxRuntimeLacks(t *testing.T) {
	enc, out := onnxRuntime(t)
	for _, dt := range core.Padding1DataTypes(core.NewestFeatureLevel) {
		p, err := core.NewPadding1(core.Padding1Desc{Input: core.TensorDesc{DataType: dt, Sizes: []int64{2, 3}}, Mode: core.PadEdge,
			StartPadding: []int64{1, 0}, EndPadding: []int64{0, 2}})
		if err != nil {
			t.Fatal(err)
		}
		model, _ := p.ONNXModel()
		a := ortRun(t, enc, out, dt.String(), model, []ortTensor{{Name: "x", Type: strings.ToLower(dt.String()), Dims: []int64{2, 3},
			Input: hex.EncodeToString(make([]byte, 6*dt.Bits()/8))}})
		runs := a.Error == ""
		if want := slices.Contains(ortPadTypes, dt); runs != want || !runs && !strings.Contains(a.Error, "Could not find an implementation for Pad") {
			t.Errorf("%v: onnxruntime runs it %v (%q), ortPadTypes says %v", dt, runs, a.Error, want)
		}
	}
}
