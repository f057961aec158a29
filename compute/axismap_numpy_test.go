package compute

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	osexec "os/exec"
	"slices"
	"testing"

	"github.com/stridescope/stridescope/core"
)

// numpyPad pads a strided view of an arange buffer (each cell holds its
// own offset, so a broadcast input stays readable) with np.pad, -1 as
// the constant, and prints the selected offsets twice: "side" pads one
// side of one axis at a time, "once" is a single np.pad call. NumPy
// (1.24) builds a large padding in chunks that, when only one side's pad
// reaches the size, reflect or wrap through the other side's padding, so
// "once" stops being periodic there; "side" pads each side of each axis
// from the unpadded array alone, the periodic map every example of the
// DirectML page prints.
const numpyPad = `
import sys, json
import numpy as np
from numpy.lib.stride_tricks import as_strided
for line in sys.stdin:
    c = json.loads(line)
    buf = np.arange(c["elems"], dtype=np.int64)
    x = as_strided(buf, shape=c["sizes"], strides=[s * 8 for s in c["strides"]])
    kw = {"constant_values": -1} if c["mode"] == "constant" else {}
    y = np.array(x)
    for d in range(len(c["sizes"])):
        n, s, e = y.shape[d], c["start"][d], c["end"][d]
        w = [(0, 0)] * y.ndim
        w[d] = (s, 0)
        left = np.take(np.pad(y, w, mode=c["mode"], **kw), range(s), axis=d)
        w[d] = (0, e)
        right = np.take(np.pad(y, w, mode=c["mode"], **kw), range(n, n + e), axis=d)
        y = np.concatenate([left, y, right], axis=d)
    once = np.pad(np.array(x), list(zip(c["start"], c["end"])), mode=c["mode"], **kw)
    print(json.dumps({"side": y.ravel().tolist(), "once": once.ravel().tolist()}), flush=True)
`

// pythonWithNumPy is Debian's python3 when it has NumPy (apt-get install
// python3-numpy puts it there), else the one on PATH, else "".
func pythonWithNumPy() string {
	for _, c := range []string{"/usr/bin/python3", "python3"} {
		if p, err := osexec.LookPath(c); err == nil && osexec.Command(p, "-c", "import numpy").Run() == nil {
			return p
		}
	}
	return ""
}

// randomPadding is a DML_PADDING1 of rank 1 to 5, sizes 1 to 5, paddings
// 0 to 7 at ranks 1 and 2 (often past the size), fewer above, on a packed, padded, broadcast (stride 0)
// or permuted input.
func randomPadding(r *rand.Rand, mode core.PaddingMode) core.Padding1Desc {
	rank := 1 + r.IntN(5)
	d := core.Padding1Desc{
		Input:        core.TensorDesc{DataType: core.Int64, Sizes: make([]int64, rank)},
		Mode:         mode,
		PaddingValue: -1,
		StartPadding: make([]int64, rank),
		EndPadding:   make([]int64, rank),
	}
	// Paddings shrink with the rank so that an output stays near 4,096
	// elements at most.
	maxPad := []int64{8, 8, 6, 3, 2}[rank-1]
	for i := range rank {
		d.Input.Sizes[i] = 1 + r.Int64N(5)
		d.StartPadding[i] = r.Int64N(maxPad)
		d.EndPadding[i] = r.Int64N(maxPad)
	}
	switch r.IntN(4) {
	case 0: // packed
	case 1: // padded rows and planes
		d.Input.Strides = core.PackedStrides(d.Input.Sizes)
		pitch := int64(1)
		for i := rank - 1; i >= 0; i-- {
			d.Input.Strides[i] = pitch
			pitch = pitch*d.Input.Sizes[i] + r.Int64N(3)
		}
	case 2: // broadcast some axes
		d.Input.Strides = core.PackedStrides(d.Input.Sizes)
		for i := range rank {
			if r.IntN(2) == 0 {
				d.Input.Strides[i] = 0
			}
		}
	case 3: // permuted
		perm := r.Perm(rank)
		d.Input.Strides = make([]int64, rank)
		pitch := int64(1)
		for _, i := range perm {
			d.Input.Strides[i] = pitch
			pitch *= d.Input.Sizes[i]
		}
	}
	return d
}

// TestPaddingMatchesNumPy: for 1,000 random paddings of every mode, the
// input offset each output element reads (AxisCopy of a buffer whose
// cells hold their offsets, and Sources) equals what np.pad selects,
// one side at a time; a single np.pad call agrees too whenever every
// padding is below its size. It needs python3 with NumPy (CI installs
// python3-numpy).
func TestPaddingMatchesNumPy(t *testing.T) {
	py := pythonWithNumPy()
	if py == "" {
		t.Skip("no python3 with NumPy: apt-get install python3-numpy")
	}
	cmd := osexec.Command(py, "-c", numpyPad)
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { stdin.Close(); _ = cmd.Wait() }()
	out := bufio.NewScanner(stdout)
	out.Buffer(nil, 1<<26)
	r := rand.New(rand.NewPCG(40, 3))
	for _, mode := range core.PaddingModes() {
		onceDiffers := 0
		for c := range 1000 {
			desc := randomPadding(r, mode)
			p, err := core.NewPadding1(desc)
			if err != nil {
				t.Fatalf("%v case %d: %+v: %v", mode, c, desc, err)
			}
			got := padThroughEngine(t, p)
			line, _ := json.Marshal(map[string]any{"mode": mode.NumPy(), "elems": p.Input.BufferElementCount(),
				"sizes": p.Input.Sizes, "strides": p.Input.Strides, "start": p.StartPadding, "end": p.EndPadding})
			if _, err := stdin.Write(append(line, '\n')); err != nil {
				t.Fatalf("writing to python3: %v (%s)", err, stderr.String())
			}
			if !out.Scan() {
				t.Fatalf("no answer from NumPy: %v %s", out.Err(), stderr.String())
			}
			var want struct{ Side, Once []int64 }
			if err := json.Unmarshal(out.Bytes(), &want); err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, want.Side) {
				t.Fatalf("%v case %d: sizes %v strides %v start %v end %v:\nengine %v\n NumPy %v", mode, c, p.Input.Sizes, p.Input.Strides, p.StartPadding, p.EndPadding, got, want.Side)
			}
			if !slices.Equal(got, want.Once) {
				onceDiffers++
				if padsBelowSizes(p) {
					t.Fatalf("%v case %d: every padding below its size, yet one np.pad call selects %v, the engine %v", mode, c, want.Once, got)
				}
			}
		}
		t.Logf("%v: 1000 cases, 0 mismatches; a single np.pad call differs in %d (a padding at or past the size on one side only)", mode, onceDiffers)
	}
}

// padThroughEngine is the offset each output element reads, by AxisCopy
// over a buffer of int64s holding their own offsets (-1 the fill), held
// equal to Sources and to core's coordinates.
func padThroughEngine(t *testing.T, p *core.Padding1) []int64 {
	t.Helper()
	m := PaddingMap(p)
	elems := p.Input.BufferElementCount()
	src := make([]byte, elems*8)
	for i := range elems {
		binary.LittleEndian.PutUint64(src[i*8:], uint64(i))
	}
	dst := make([]byte, m.Len()*8)
	fill := binary.LittleEndian.AppendUint64(nil, ^uint64(0))
	if err := AxisCopy(context.Background(), dst, src, m, 8, fill); err != nil {
		t.Fatal(err)
	}
	got := make([]int64, m.Len())
	for i := range got {
		got[i] = int64(binary.LittleEndian.Uint64(dst[i*8:]))
	}
	srcs := make([]int64, m.Len())
	m.Sources(0, srcs)
	if !slices.Equal(srcs, got) {
		t.Fatalf("Sources %v, AxisCopy %v", srcs, got)
	}
	for i, off := range got {
		c := p.InputCoordinate(int64(i))
		if c == nil {
			if off != -1 {
				t.Fatalf("element %d: core says padding, the engine reads %d", i, off)
			}
			continue
		}
		if want, _ := p.Input.Offset(c); want != off {
			t.Fatalf("element %d: core reads %v at %d, the engine %d", i, c, want, off)
		}
	}
	return got
}

func padsBelowSizes(p *core.Padding1) bool {
	for i, s := range p.Input.Sizes {
		if p.StartPadding[i] >= s || p.EndPadding[i] >= s {
			return false
		}
	}
	return true
}
