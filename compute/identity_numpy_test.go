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

// numpyCopy is the strided copy as NumPy does it: both buffers viewed
// with as_strided (element sizes as unsigned integers, so that bytes are
// copied as they are, NaNs and all) and the output view assigned from
// the input's. One JSON case a line in, the output buffer in hex out.
const numpyCopy = `
import sys, json
import numpy as np
from numpy.lib.stride_tricks import as_strided
kinds = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}
for line in sys.stdin:
    c = json.loads(line)
    e, dt = c["e"], kinds[c["e"]]
    pad = lambda b: b + bytes(-len(b) % e)
    src = np.frombuffer(pad(bytes.fromhex(c["src"])), dtype=dt)
    raw = bytearray(pad(bytes.fromhex(c["dst"])))
    dst = np.frombuffer(raw, dtype=dt)
    x = as_strided(src, shape=c["sizes"], strides=[s * e for s in c["in"]])
    y = as_strided(dst, shape=c["sizes"], strides=[s * e for s in c["out"]])
    y[...] = x
    print(bytes(raw[:len(c["dst"]) // 2]).hex(), flush=True)
`

// TestIdentityMatchesNumPy: for 2,000 random conversions (ranks 1 to 8,
// every data type the identity accepts, padded, broadcast input,
// permutations) the output buffer Identity writes equals NumPy's result
// of the same strided copy byte for byte, the cells no element reaches
// included. It needs python3 with NumPy (CI installs python3-numpy).
func TestIdentityMatchesNumPy(t *testing.T) {
	cmd := osexec.Command(numpyPython(t), "-c", numpyCopy)
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
	r := rand.New(rand.NewPCG(39, 2))
	for c := range 2000 {
		desc := randomCopy(r)
		id, err := core.NewIdentity(desc)
		if err != nil {
			t.Fatalf("case %d: %+v: %v", c, desc, err)
		}
		e := id.Input.DataType.Bits() / 8
		src := make([]byte, id.Input.BufferSizeInBytes())
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		got := bytes.Repeat([]byte{0xA5}, int(id.Output.BufferSizeInBytes()))
		before := slices.Clone(got)
		in, outW := IdentityWalks(id)
		if err := Identity(got, src, in, outW, int(e)); err != nil {
			t.Fatalf("case %d: %v", c, err)
		}
		line, _ := json.Marshal(map[string]any{"e": e, "sizes": id.Input.Sizes, "in": id.Input.Strides, "out": id.Output.Strides,
			"src": hex.EncodeToString(src), "dst": hex.EncodeToString(before)})
		if _, err := stdin.Write(append(line, '\n')); err != nil {
			t.Fatalf("case %d: writing to python3: %v (%s)", c, err, stderr.String())
		}
		if !out.Scan() {
			t.Fatalf("case %d: no answer from NumPy: %v %s", c, out.Err(), stderr.String())
		}
		if want := strings.TrimSpace(out.Text()); hex.EncodeToString(got) != want {
			t.Fatalf("case %d: %v sizes %v in %v out %v: Identity and NumPy differ", c, id.Input.DataType, id.Input.Sizes, id.Input.Strides, id.Output.Strides)
		}
	}
}

// numpyPython is a python3 that imports NumPy: Debian's first, where
// apt-get install python3-numpy puts NumPy, then the one on PATH
// (cmd/bench looks the same way). Without one the test is skipped.
func numpyPython(t *testing.T) string {
	t.Helper()
	for _, c := range []string{"/usr/bin/python3", "python3"} {
		if p, err := osexec.LookPath(c); err == nil && osexec.Command(p, "-c", "import numpy").Run() == nil {
			return p
		}
	}
	t.Skip("no python3 with NumPy: apt-get install python3-numpy")
	return ""
}
