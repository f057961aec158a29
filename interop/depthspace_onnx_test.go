package interop

import (
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
)

// TestDepthSpaceRunsInOnnxRuntime: the ONNX model each depth-space
// operator exports (DepthToSpace with its mode, SpaceToDepth in DCR
// order; ONNX's has no CRD) runs in onnxruntime-node, and its output,
// given the input's bytes, is what compute gathers through the
// operator's 6-D walk, byte for byte: 200 random operators, blocks of 1
// to 4, float32 and float64.
func TestDepthSpaceRunsInOnnxRuntime(t *testing.T) {
	enc, out := onnxRuntime(t)
	r := rand.New(rand.NewPCG(40, 4))
	for c := range 200 {
		op := []core.DepthSpaceOp{core.DepthToSpace, core.SpaceToDepth}[c%2]
		order := core.DepthSpaceOrders[c/2%2]
		if op == core.SpaceToDepth {
			order = core.DepthColumnRow
		}
		b := int64(1 + r.IntN(4))
		sizes := []int64{1 + r.Int64N(2), 1 + r.Int64N(3), 1 + r.Int64N(3), 1 + r.Int64N(3)}
		if op == core.DepthToSpace {
			sizes[1] *= b * b
		} else {
			sizes[2], sizes[3] = sizes[2]*b, sizes[3]*b
		}
		dt := []core.DataType{core.Float32, core.Float64}[c/4%2]
		s, err := core.NewDepthSpace(core.DepthSpaceDesc{Op: op, Order: order, BlockSize: b, Input: core.TensorDesc{DataType: dt, Sizes: sizes}})
		if err != nil {
			t.Fatal(err)
		}
		model, ok := s.ONNXModel()
		if !ok {
			t.Fatalf("%s %v: no ONNX model", op.OperatorName(), order)
		}
		e := dt.Bits() / 8
		src := make([]byte, s.Input.LogicalElementCount()*e)
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		want := make([]byte, len(src))
		if err := compute.DepthSpace(want, src, s); err != nil {
			t.Fatal(err)
		}
		if err := enc.Encode(map[string]any{"model": base64.StdEncoding.EncodeToString(model), "type": strings.ToLower(dt.String()),
			"dims": sizes, "input": hex.EncodeToString(src)}); err != nil {
			t.Fatal(err)
		}
		if !out.Scan() {
			t.Fatalf("case %d: no answer from onnxruntime-node: %v", c, out.Err())
		}
		var got struct {
			Dims  []int64 `json:"dims"`
			Data  string  `json:"data"`
			Error string  `json:"error"`
		}
		if err := json.Unmarshal(out.Bytes(), &got); err != nil {
			t.Fatal(err)
		}
		if got.Error != "" {
			t.Fatalf("case %d: onnxruntime-node: %s", c, got.Error)
		}
		if !slices.Equal(got.Dims, s.Output.Sizes) || got.Data != hex.EncodeToString(want) {
			t.Fatalf("case %d: %s %v %v b=%d: onnxruntime's output (dims %v) and compute's (%v) differ", c, op.OperatorName(), order, sizes, b, got.Dims, s.Output.Sizes)
		}
	}
}
