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

// numpyTile tiles a strided view of an arange buffer (each cell holds
// its offset) with np.tile and prints the offsets selected.
const numpyTile = `
import sys, json
import numpy as np
from numpy.lib.stride_tricks import as_strided
for line in sys.stdin:
    c = json.loads(line)
    buf = np.arange(c["elems"], dtype=np.int64)
    x = as_strided(buf, shape=c["sizes"], strides=[s * 8 for s in c["strides"]])
    print(json.dumps(np.tile(x, c["repeats"]).ravel().tolist()), flush=True)
`

// TestTileMatchesNumPy: for 1,000 random tilings (ranks 1 to 5, packed,
// padded, broadcast and permuted inputs), the input offset each output
// element reads through the axis-map engine (AxisCopy and Sources)
// equals what np.tile selects: 0 mismatches.
func TestTileMatchesNumPy(t *testing.T) {
	py := pythonWithNumPy()
	if py == "" {
		t.Skip("no python3 with NumPy: apt-get install python3-numpy")
	}
	cmd := osexec.Command(py, "-c", numpyTile)
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
	r := rand.New(rand.NewPCG(40, 5))
	for c := range 1000 {
		// The padding's random inputs, their paddings read as repeats.
		pd := randomPadding(r, core.PadEdge)
		repeats := make([]int64, len(pd.Input.Sizes))
		for i := range repeats {
			repeats[i] = 1 + r.Int64N([]int64{6, 5, 4, 3, 2}[len(repeats)-1])
		}
		tl, err := core.NewTile(core.TileDesc{Input: pd.Input, Repeats: repeats})
		if err != nil {
			t.Fatalf("case %d: %v", c, err)
		}
		m := TileMap(tl)
		elems := tl.Input.BufferElementCount()
		src := make([]byte, elems*8)
		for i := range elems {
			binary.LittleEndian.PutUint64(src[i*8:], uint64(i))
		}
		dst := make([]byte, m.Len()*8)
		if err := AxisCopy(context.Background(), dst, src, m, 8, make([]byte, 8)); err != nil {
			t.Fatal(err)
		}
		got := make([]int64, m.Len())
		for i := range got {
			got[i] = int64(binary.LittleEndian.Uint64(dst[i*8:]))
		}
		srcs := make([]int64, m.Len())
		m.Sources(0, srcs)
		if !slices.Equal(srcs, got) {
			t.Fatalf("case %d: Sources %v, AxisCopy %v", c, srcs, got)
		}
		line, _ := json.Marshal(map[string]any{"elems": elems, "sizes": tl.Input.Sizes, "strides": tl.Input.Strides, "repeats": repeats})
		if _, err := stdin.Write(append(line, '\n')); err != nil {
			t.Fatalf("writing to python3: %v (%s)", err, stderr.String())
		}
		if !out.Scan() {
			t.Fatalf("no answer from NumPy: %v %s", out.Err(), stderr.String())
		}
		var want []int64
		if err := json.Unmarshal(out.Bytes(), &want); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("case %d: sizes %v strides %v repeats %v:\nengine %v\nnp.tile %v", c, tl.Input.Sizes, tl.Input.Strides, repeats, got, want)
		}
	}
	t.Log("1000 tilings, 0 mismatches with np.tile")
}
