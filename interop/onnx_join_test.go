package interop

import (
	"bufio"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/core"
)

type ortTensor struct {
	Name  string  `json:"name"`
	Type  string  `json:"type"`
	Dims  []int64 `json:"dims"`
	Input string  `json:"input"`
}

type ortAnswer struct {
	Outputs []struct {
		Dims []int64 `json:"dims"`
		Data string  `json:"data"`
	} `json:"outputs"`
	Error string `json:"error"`
}

// ortRun runs model in onnxruntime-node (onnxRuntime's run.cjs) on ins
// and returns its answer, an error onnxruntime gave in a.Error; c names
// the case in a failure.
func ortRun(t *testing.T, enc *json.Encoder, out *bufio.Scanner, c string, model []byte, ins []ortTensor) ortAnswer {
	t.Helper()
	if err := enc.Encode(map[string]any{"model": base64.StdEncoding.EncodeToString(model), "inputs": ins}); err != nil {
		t.Fatal(err)
	}
	if !out.Scan() {
		t.Fatalf("%s: no answer from onnxruntime-node: %v", c, out.Err())
	}
	var a ortAnswer
	if err := json.Unmarshal(out.Bytes(), &a); err != nil {
		t.Fatal(err)
	}
	return a
}

// denseIndex is c's row-major index in sizes: where an ONNX tensor, dense,
// holds the element.
func denseIndex(sizes, c []int64) int64 {
	var i int64
	for d, s := range sizes {
		i = i*s + c[d]
	}
	return i
}

// randomAxisOp is a join's tensors (or a split's outputs): 1 to 6 of
// ranks 1 to 5, sizes 1 to 4, agreeing on every size but the axis's.
func randomAxisOp(r *rand.Rand) (sizes [][]int64, axis int) {
	rank := 1 + r.IntN(5)
	axis = r.IntN(rank)
	base := make([]int64, rank)
	for d := range base {
		base[d] = 1 + r.Int64N(4)
	}
	for range 1 + r.IntN(6) {
		s := slices.Clone(base)
		s[axis] = 1 + r.Int64N(4)
		sizes = append(sizes, s)
	}
	return sizes, axis
}

// TestONNXJoinSplitRunInOnnxRuntime: the ONNX Concat and Split models of
// 150 random joins and 150 random splits (ranks 1 to 5, 1 to 6 tensors,
// every data type) run in onnxruntime-node, and each output element is
// the input element core names for it (Join.Source, the split's
// DML_SLICE1), byte for byte.
func TestONNXJoinSplitRunInOnnxRuntime(t *testing.T) {
	enc, out := onnxRuntime(t)
	r := rand.New(rand.NewPCG(40, 5))
	types := core.AxisOpDataTypes(core.NewestFeatureLevel)
	ask := func(c string, model []byte, ins []ortTensor) ortAnswer {
		a := ortRun(t, enc, out, c, model, ins)
		if a.Error != "" {
			t.Fatalf("%s: onnxruntime-node: %s", c, a.Error)
		}
		return a
	}
	random := func(n int64) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	for c := range 150 {
		sizes, axis := randomAxisOp(r)
		dt := types[r.IntN(len(types))]
		e := dt.Bits() / 8
		d := core.JoinDesc{Axis: int64(axis)}
		for _, s := range sizes {
			d.Inputs = append(d.Inputs, core.TensorDesc{DataType: dt, Sizes: s})
		}
		j, err := core.NewJoin(d)
		if err != nil {
			t.Fatal(err)
		}
		model, ok := j.ONNXModel()
		if !ok {
			t.Fatalf("join %d: no model", c)
		}
		var ins []ortTensor
		var bufs [][]byte
		for k, in := range j.Inputs {
			b := random(in.LogicalElementCount() * e)
			bufs = append(bufs, b)
			ins = append(ins, ortTensor{Name: fmt.Sprintf("x%d", k), Type: strings.ToLower(dt.String()), Dims: in.Sizes, Input: hex.EncodeToString(b)})
		}
		want := make([]byte, 0, j.Output.LogicalElementCount()*e)
		for i := range j.Output.LogicalElementCount() {
			k, coord := j.Source(i)
			at := denseIndex(j.Inputs[k].Sizes, coord) * e
			want = append(want, bufs[k][at:at+e]...)
		}
		a := ask(fmt.Sprintf("join %d", c), model, ins)
		if len(a.Outputs) != 1 || !slices.Equal(a.Outputs[0].Dims, j.Output.Sizes) || a.Outputs[0].Data != hex.EncodeToString(want) {
			t.Fatalf("join %d: %v %v axis %d: onnxruntime's Concat and Join.Source differ", c, dt, sizes, axis)
		}
	}
	for c := range 150 {
		sizes, axis := randomAxisOp(r)
		dt := types[r.IntN(len(types))]
		e := dt.Bits() / 8
		in := slices.Clone(sizes[0])
		in[axis] = 0
		d := core.SplitDesc{Axis: int64(axis)}
		for _, s := range sizes {
			in[axis] += s[axis]
			d.Outputs = append(d.Outputs, core.TensorDesc{DataType: dt, Sizes: s})
		}
		d.Input = core.TensorDesc{DataType: dt, Sizes: in}
		s, err := core.NewSplit(d)
		if err != nil {
			t.Fatal(err)
		}
		model, ok := s.ONNXModel()
		if !ok {
			t.Fatalf("split %d: no model", c)
		}
		src := random(s.Input.LogicalElementCount() * e)
		a := ask(fmt.Sprintf("split %d", c), model, []ortTensor{{Name: "x", Type: strings.ToLower(dt.String()), Dims: in, Input: hex.EncodeToString(src)}})
		if len(a.Outputs) != len(s.Outputs) {
			t.Fatalf("split %d: %d outputs, want %d", c, len(a.Outputs), len(s.Outputs))
		}
		for k, o := range s.Outputs {
			sl, err := s.Slice1(k)
			if err != nil {
				t.Fatal(err)
			}
			var want []byte
			for i := range o.LogicalElementCount() {
				at := denseIndex(in, sl.InputCoordinate(i)) * e
				want = append(want, src[at:at+e]...)
			}
			if !slices.Equal(a.Outputs[k].Dims, o.Sizes) || a.Outputs[k].Data != hex.EncodeToString(want) {
				t.Fatalf("split %d output %d: %v %v axis %d: onnxruntime's Split and the DML_SLICE1 differ", c, k, dt, sizes, axis)
			}
		}
	}
}
