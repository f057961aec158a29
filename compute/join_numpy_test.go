package compute

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	osexec "os/exec"
	"slices"
	"testing"

	"github.com/stridescope/stridescope/core"
)

// numpyJoinSplit answers one JSON case a line: a join concatenates the
// inputs' strided views (np.concatenate) and assigns the result to the
// output's strided view; a split cuts the input's view at the sizes'
// running sums (np.split) and assigns each part to its output's view.
// It prints the output buffers in hex, then the source of every output
// element: the same operation on labelled arrays (input k's element of
// row-major index n labelled k*2^32+n), so that the coordinates each
// output element is taken from are NumPy's to say.
const numpyJoinSplit = `
import sys, json
import numpy as np
from numpy.lib.stride_tricks import as_strided
kinds = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
def view(buf, dt, e, sizes, strides):
    b = bytearray(bytes.fromhex(buf))
    b += bytes(-len(b) % e)
    a = np.frombuffer(b, dtype=dt)
    return b, as_strided(a, shape=sizes, strides=[s * e for s in strides])
def labels(k, sizes):
    return np.arange(int(np.prod(sizes)), dtype=np.int64).reshape(sizes) + (k << 32)
for line in sys.stdin:
    c = json.loads(line)
    e, dt, ax = c["e"], kinds[c["e"]], c["axis"]
    if c["op"] == "join":
        xs = [view(t["buf"], dt, e, t["sizes"], t["strides"])[1] for t in c["ins"]]
        o = c["outs"][0]
        raw, y = view(o["buf"], dt, e, o["sizes"], o["strides"])
        y[...] = np.concatenate(xs, axis=ax)
        outs = [bytes(raw[:len(o["buf"]) // 2]).hex()]
        src = np.concatenate([labels(k, t["sizes"]) for k, t in enumerate(c["ins"])], axis=ax).reshape(-1).tolist()
    else:
        t = c["ins"][0]
        x = view(t["buf"], dt, e, t["sizes"], t["strides"])[1]
        cuts = np.cumsum([o["sizes"][ax] for o in c["outs"]])[:-1]
        outs, src = [], []
        parts = np.split(x, cuts, axis=ax)
        lparts = np.split(labels(0, t["sizes"]), cuts, axis=ax)
        for o, p, l in zip(c["outs"], parts, lparts):
            raw, y = view(o["buf"], dt, e, o["sizes"], o["strides"])
            y[...] = p
            outs.append(bytes(raw[:len(o["buf"]) // 2]).hex())
            src += l.reshape(-1).tolist()
    print(json.dumps({"outs": outs, "src": src}), flush=True)
`

// joinTypes are the data types JOIN and SPLIT accept, of every element
// size.
var joinTypes = core.AxisOpDataTypes(core.NewestFeatureLevel)

// randomStrides are strides for sizes: packed (nil), padded row-major,
// a padded permutation, or (broadcast set) one of those with a
// dimension read at stride 0.
func randomStrides(r *rand.Rand, sizes []int64, broadcast bool) []int64 {
	n := len(sizes)
	mode := r.IntN(4)
	if mode == 0 {
		return nil
	}
	order := make([]int, n) // innermost first
	for i := range order {
		order[i] = n - 1 - i
	}
	if mode >= 2 {
		r.Shuffle(n, func(a, b int) { order[a], order[b] = order[b], order[a] })
	}
	st := make([]int64, n)
	pitch := int64(1)
	for _, d := range order {
		st[d] = pitch
		pitch = pitch*sizes[d] + int64(r.IntN(3))
	}
	if mode == 3 && broadcast {
		st[r.IntN(n)] = 0
	}
	return st
}

type jsTensor struct {
	Sizes   []int64 `json:"sizes"`
	Strides []int64 `json:"strides"`
	Buf     string  `json:"buf"`
}

type jsCase struct {
	Op   string     `json:"op"`
	E    int64      `json:"e"`
	Axis int        `json:"axis"`
	Ins  []jsTensor `json:"ins"`
	Outs []jsTensor `json:"outs"`
}

type jsAnswer struct {
	Outs []string `json:"outs"`
	Src  []int64  `json:"src"`
}

func randomBytes(r *rand.Rand, l *core.Layout) []byte {
	b := make([]byte, l.BufferSizeInBytes())
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

func tensorOf(l *core.Layout, buf []byte) jsTensor {
	return jsTensor{Sizes: l.Sizes, Strides: l.Strides, Buf: hex.EncodeToString(buf)}
}

// randomJoin is a join of 1 to 8 inputs, ranks 1 to 5, sizes 1 to 4,
// inputs packed, padded, permuted or broadcast, the output packed or
// padded.
func randomJoin(r *rand.Rand) core.JoinDesc {
	rank := 1 + r.IntN(5)
	dt := joinTypes[r.IntN(len(joinTypes))]
	axis := r.IntN(rank)
	sizes := make([]int64, rank)
	for d := range sizes {
		sizes[d] = 1 + r.Int64N(4)
	}
	d := core.JoinDesc{Axis: int64(axis)}
	var sum int64
	for range 1 + r.IntN(8) {
		s := slices.Clone(sizes)
		s[axis] = 1 + r.Int64N(4)
		sum += s[axis]
		d.Inputs = append(d.Inputs, core.TensorDesc{DataType: dt, Sizes: s, Strides: randomStrides(r, s, true)})
	}
	if r.IntN(2) == 0 {
		s := slices.Clone(sizes)
		s[axis] = sum
		d.Output = &core.TensorDesc{DataType: dt, Sizes: s, Strides: randomStrides(r, s, false)}
	}
	return d
}

// randomSplit is a split of one input (ranks 1 to 5, sizes 1 to 6,
// packed, padded, permuted or broadcast) into 1 to 6 outputs, packed or
// padded.
func randomSplit(r *rand.Rand) core.SplitDesc {
	rank := 1 + r.IntN(5)
	dt := joinTypes[r.IntN(len(joinTypes))]
	axis := r.IntN(rank)
	sizes := make([]int64, rank)
	for d := range sizes {
		sizes[d] = 1 + r.Int64N(4)
	}
	sizes[axis] = 1 + r.Int64N(6)
	d := core.SplitDesc{Axis: int64(axis), Input: core.TensorDesc{DataType: dt, Sizes: sizes, Strides: randomStrides(r, sizes, true)}}
	for left := sizes[axis]; left > 0; {
		n := 1 + r.Int64N(left)
		left -= n
		s := slices.Clone(sizes)
		s[axis] = n
		d.Outputs = append(d.Outputs, core.TensorDesc{DataType: dt, Sizes: s, Strides: randomStrides(r, s, false)})
	}
	return d
}

// rowMajor is the row-major index of c in sizes.
func rowMajor(sizes, c []int64) int64 {
	var i int64
	for d, s := range sizes {
		i = i*s + c[d]
	}
	return i
}

// TestJoinSplitMatchNumPy: for 1,500 random joins and 1,500 random
// splits (ranks 1 to 5, every data type, padded, permuted and broadcast
// inputs, packed and padded outputs) the buffers Join and Split write
// equal NumPy's np.concatenate and np.split assigned to the same
// strided outputs byte for byte (the cells no element reaches
// included), and the input and coordinate core gives each output
// element (Join.Source, the split's DML_SLICE1 InputCoordinate) are
// the ones NumPy selects. It needs python3 with NumPy (CI installs
// python3-numpy).
func TestJoinSplitMatchNumPy(t *testing.T) {
	cmd := osexec.Command(numpyPython(t), "-c", numpyJoinSplit)
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
	ask := func(c int, q jsCase) jsAnswer {
		line, _ := json.Marshal(q)
		if _, err := stdin.Write(append(line, '\n')); err != nil {
			t.Fatalf("case %d: writing to python3: %v (%s)", c, err, stderr.String())
		}
		if !out.Scan() {
			t.Fatalf("case %d: no answer from NumPy: %v %s", c, out.Err(), stderr.String())
		}
		var a jsAnswer
		if err := json.Unmarshal(out.Bytes(), &a); err != nil {
			t.Fatalf("case %d: %v", c, err)
		}
		return a
	}
	r := rand.New(rand.NewPCG(40, 4))
	ctx := context.Background()
	mismatches := 0
	for c := range 1500 {
		desc := randomJoin(r)
		j, err := core.NewJoin(desc)
		if err != nil {
			t.Fatalf("join %d: %+v: %v", c, desc, err)
		}
		q := jsCase{Op: "join", E: j.Output.DataType.Bits() / 8, Axis: j.Axis}
		var srcs [][]byte
		for _, in := range j.Inputs {
			b := randomBytes(r, in)
			srcs = append(srcs, b)
			q.Ins = append(q.Ins, tensorOf(in, b))
		}
		dst := bytes.Repeat([]byte{0xA5}, int(j.Output.BufferSizeInBytes()))
		q.Outs = []jsTensor{tensorOf(j.Output, dst)}
		a := ask(c, q)
		if err := Join(ctx, dst, srcs, j); err != nil {
			t.Fatalf("join %d: %v", c, err)
		}
		if hex.EncodeToString(dst) != a.Outs[0] {
			mismatches++
			t.Errorf("join %d: %+v: the output buffer differs from NumPy's", c, q)
		}
		for i := range j.Output.LogicalElementCount() {
			k, coord := j.Source(i)
			if got := int64(k)<<32 + rowMajor(j.Inputs[k].Sizes, coord); got != a.Src[i] {
				mismatches++
				t.Errorf("join %d: output element %d from input %d %v, NumPy takes input %d element %d", c, i, k, coord, a.Src[i]>>32, a.Src[i]&(1<<32-1))
				break
			}
		}
	}
	for c := range 1500 {
		desc := randomSplit(r)
		s, err := core.NewSplit(desc)
		if err != nil {
			t.Fatalf("split %d: %+v: %v", c, desc, err)
		}
		src := randomBytes(r, s.Input)
		q := jsCase{Op: "split", E: s.Input.DataType.Bits() / 8, Axis: s.Axis, Ins: []jsTensor{tensorOf(s.Input, src)}}
		var dsts [][]byte
		for _, o := range s.Outputs {
			b := bytes.Repeat([]byte{0x5A}, int(o.BufferSizeInBytes()))
			dsts = append(dsts, b)
			q.Outs = append(q.Outs, tensorOf(o, b))
		}
		a := ask(c, q)
		if err := Split(ctx, dsts, src, s); err != nil {
			t.Fatalf("split %d: %v", c, err)
		}
		at := 0
		for k := range s.Outputs {
			if hex.EncodeToString(dsts[k]) != a.Outs[k] {
				mismatches++
				t.Errorf("split %d output %d: %+v: the buffer differs from NumPy's", c, k, q)
			}
			sl, err := s.Slice1(k)
			if err != nil {
				t.Fatal(err)
			}
			for i := range sl.OutputElementCount() {
				if got := rowMajor(s.Input.Sizes, sl.InputCoordinate(i)); got != a.Src[at] {
					mismatches++
					t.Errorf("split %d output %d element %d: input element %d, NumPy takes %d", c, k, i, got, a.Src[at])
				}
				at++
			}
		}
	}
	if mismatches > 0 {
		t.Fatalf("%d mismatches with NumPy", mismatches)
	}
	t.Log("3000 cases, 0 mismatches with NumPy")
}
