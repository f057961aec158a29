package compute

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	osexec "os/exec"
	"slices"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/core"
)

// numpyDepthSpace is each operator as ONNX documents it, a reshape and
// a transpose (DepthToSpace's DCR and CRD formulas; SpaceToDepth's DCR
// formula, and for CRD the inverse of DepthToSpace's), applied to an
// arange of the logical elements (which input element each output
// element is) and to the input buffer's bytes seen through
// as_strided. One JSON case a line in; one JSON line out.
const numpyDepthSpace = `
import sys, json
import numpy as np
from numpy.lib.stride_tricks import as_strided
kinds = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
def d2s(x, bs, order):
    b, c, h, w = x.shape
    if order == "DEPTH_COLUMN_ROW":
        t = x.reshape(b, bs, bs, c // (bs * bs), h, w).transpose(0, 3, 4, 1, 5, 2)
    else:
        t = x.reshape(b, c // (bs * bs), bs, bs, h, w).transpose(0, 1, 4, 2, 5, 3)
    return t.reshape(b, c // (bs * bs), h * bs, w * bs)
def s2d(x, bs, order):
    b, c, h, w = x.shape
    t = x.reshape(b, c, h // bs, bs, w // bs, bs)
    if order == "DEPTH_COLUMN_ROW":
        t = t.transpose(0, 3, 5, 1, 2, 4)
    else:
        t = t.transpose(0, 1, 3, 5, 2, 4)
    return t.reshape(b, c * bs * bs, h // bs, w // bs)
for line in sys.stdin:
    c = json.loads(line)
    e, f = c["e"], d2s if c["op"] == "d2s" else s2d
    src = np.frombuffer(bytes.fromhex(c["src"]), dtype=kinds[e])
    x = as_strided(src, shape=c["sizes"], strides=[s * e for s in c["strides"]])
    idx = np.arange(int(np.prod(c["sizes"]))).reshape(c["sizes"])
    print(json.dumps({"index": f(idx, c["b"], c["order"]).ravel().tolist(),
        "out": np.ascontiguousarray(f(x, c["b"], c["order"])).tobytes().hex()}), flush=True)
`

// randomDepthSpace is a random valid operator: a block of 1 to 4, sizes
// the block divides, every data type the newest level accepts, and an
// input packed, permuted (NHWC and others), padded or broadcast.
func randomDepthSpace(r *rand.Rand, op core.DepthSpaceOp, o core.DepthSpaceOrder) core.DepthSpaceDesc {
	types := core.DepthSpaceDataTypes(core.NewestFeatureLevel)
	b := int64(1 + r.IntN(4))
	sizes := []int64{1 + r.Int64N(2), 1 + r.Int64N(3), 1 + r.Int64N(3), 1 + r.Int64N(3)}
	if op == core.DepthToSpace {
		sizes[1] *= b * b
	} else {
		sizes[2] *= b
		sizes[3] *= b
	}
	var st []int64
	if r.IntN(4) != 0 {
		st = make([]int64, 4)
		pitch := int64(1)
		for _, d := range r.Perm(4) {
			st[d] = pitch
			pitch = pitch*sizes[d] + int64(r.IntN(2)*r.IntN(4)) // sometimes padded
			if r.IntN(8) == 0 {
				st[d] = 0 // broadcast
			}
		}
	}
	return core.DepthSpaceDesc{Op: op, Order: o, BlockSize: b,
		Input: core.TensorDesc{DataType: types[r.IntN(len(types))], Sizes: sizes, Strides: st}}
}

// TestDepthSpaceMatchesNumPy: for 1,000 random cases of each operator in
// each order, the input element every output element reads (the
// coordinate core gives, as a row-major index) is the one ONNX's
// reshape-transpose formulas select on an arange, and the bytes Copy
// gathers through the 6-D walk from a padded, permuted or broadcast
// buffer are NumPy's, byte for byte: 0 mismatches. It needs python3 with
// NumPy (CI installs python3-numpy).
func TestDepthSpaceMatchesNumPy(t *testing.T) {
	cmd := osexec.Command(numpyPython(t), "-c", numpyDepthSpace)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); _ = cmd.Wait() }()
	out := bufio.NewScanner(stdout)
	out.Buffer(nil, 1<<24)
	r := rand.New(rand.NewPCG(40, 2))
	cases := 0
	for _, op := range []core.DepthSpaceOp{core.DepthToSpace, core.SpaceToDepth} {
		for _, o := range core.DepthSpaceOrders {
			for c := range 1000 {
				desc := randomDepthSpace(r, op, o)
				s, err := core.NewDepthSpace(desc)
				if err != nil {
					t.Fatalf("%s %v case %d: %+v: %v", op.OperatorName(), o, c, desc, err)
				}
				e := int(s.Input.DataType.Bits() / 8)
				src := make([]byte, s.Input.BufferSizeInBytes())
				for i := range src {
					src[i] = byte(r.Uint32())
				}
				got := make([]byte, s.OutputElementCount()*int64(e))
				if err := DepthSpace(got, src, s); err != nil {
					t.Fatal(err)
				}
				packed := core.PackedStrides(s.Input.Sizes)
				index := make([]int64, 0, s.OutputElementCount())
				for i := range s.OutputElementCount() {
					var k int64
					for d, x := range s.InputCoordinate(i) {
						k += x * packed[d]
					}
					index = append(index, k)
				}
				name := map[core.DepthSpaceOp]string{core.DepthToSpace: "d2s", core.SpaceToDepth: "s2d"}[op]
				line, _ := json.Marshal(map[string]any{"op": name, "order": o.String(), "b": s.BlockSize, "e": e,
					"sizes": s.Input.Sizes, "strides": s.Input.Strides, "src": hex.EncodeToString(src)})
				if _, err := stdin.Write(append(line, '\n')); err != nil {
					t.Fatalf("writing to python3: %v (%s)", err, stderr.String())
				}
				if !out.Scan() {
					t.Fatalf("no answer from NumPy: %v %s", out.Err(), stderr.String())
				}
				var want struct {
					Index []int64 `json:"index"`
					Out   string  `json:"out"`
				}
				if err := json.Unmarshal([]byte(strings.TrimSpace(out.Text())), &want); err != nil {
					t.Fatal(err)
				}
				if !slices.Equal(index, want.Index) {
					t.Fatalf("%s %v b=%d sizes %v: input elements %v, NumPy's formula %v", op.OperatorName(), o, s.BlockSize, s.Input.Sizes, index, want.Index)
				}
				if hex.EncodeToString(got) != want.Out {
					t.Fatalf("%s %v b=%d %v sizes %v strides %v: Copy and NumPy differ", op.OperatorName(), o, s.BlockSize, s.Input.DataType, s.Input.Sizes, s.Input.Strides)
				}
				cases++
			}
		}
	}
	t.Logf("%d cases, 0 mismatches", cases)
}

// numpyDepthSpaceExport runs the NumPy the page exports (core.DepthSpace.NumPy)
// on the given input buffer and prints y's bytes.
const numpyDepthSpaceExport = `
import sys, json
import numpy as np
for line in sys.stdin:
    c = json.loads(line)
    code = c["code"].replace("input_buffer = np.zeros(", "input_buffer = given  # np.zeros(")
    env = {"given": np.frombuffer(bytes.fromhex(c["src"]), dtype=c["dtype"]).copy()}
    exec(code, env)
    print(np.ascontiguousarray(env["y"]).tobytes().hex(), flush=True)
`

// TestDepthSpaceNumPyExportRuns: the NumPy code the page and the API
// export, run on the input buffer, gives the bytes Copy gives, for 400
// random operators (both operators and orders, packed, padded, permuted
// and broadcast inputs).
func TestDepthSpaceNumPyExportRuns(t *testing.T) {
	cmd := osexec.Command(numpyPython(t), "-c", numpyDepthSpaceExport)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); _ = cmd.Wait() }()
	out := bufio.NewScanner(stdout)
	out.Buffer(nil, 1<<24)
	r := rand.New(rand.NewPCG(40, 3))
	for c := range 400 {
		op := []core.DepthSpaceOp{core.DepthToSpace, core.SpaceToDepth}[c%2]
		s, err := core.NewDepthSpace(randomDepthSpace(r, op, core.DepthSpaceOrders[c/2%2]))
		if err != nil {
			t.Fatal(err)
		}
		e := int(s.Input.DataType.Bits() / 8)
		src := make([]byte, s.Input.BufferSizeInBytes()/int64(e)*int64(e))
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		want := make([]byte, s.OutputElementCount()*int64(e))
		if err := DepthSpace(want, src, s); err != nil {
			t.Fatal(err)
		}
		line, _ := json.Marshal(map[string]any{"code": s.NumPy(), "src": hex.EncodeToString(src), "dtype": core.NumpyDType(s.Input.DataType)})
		if _, err := stdin.Write(append(line, '\n')); err != nil {
			t.Fatalf("writing to python3: %v (%s)", err, stderr.String())
		}
		if !out.Scan() {
			t.Fatalf("no answer from NumPy: %v %s", out.Err(), stderr.String())
		}
		if got := strings.TrimSpace(out.Text()); got != hex.EncodeToString(want) {
			t.Fatalf("case %d: the exported NumPy gives other bytes than Copy:\n%s", c, s.NumPy())
		}
	}
}
