package interop

import (
	"bufio"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/url"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/ops/convert"
)

// onnxRuntime starts testdata/onnxrun/run.cjs with onnxruntime-node,
// which it installs first (npm ci --ignore-scripts: the package carries
// its CPU binaries, and its install script would fetch GPU ones) into the
// user's cache directory, once per version. It skips the test, saying
// why, without node and npm or when the registry cannot be reached.
func onnxRuntime(t *testing.T) (in *json.Encoder, out *bufio.Scanner) {
	t.Helper()
	node, errNode := osexec.LookPath("node")
	npm, errNpm := osexec.LookPath("npm")
	if errNode != nil || errNpm != nil {
		t.Skip("no node and npm on PATH: install Node.js to run the ONNX exports in onnxruntime-node")
	}
	src, err := filepath.Abs("testdata/onnxrun")
	if err != nil {
		t.Fatal(err)
	}
	lock, err := os.ReadFile(filepath.Join(src, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	// One directory per lock file, so that a new pin installs afresh.
	dir := filepath.Join(cache, "stridescope", fmt.Sprintf("onnxrun-%x", hashOf(lock)))
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "onnxruntime-node", "package.json")); err != nil {
		tmp, err := os.MkdirTemp(filepath.Dir(mkdirAll(t, dir)), "onnxrun-install-")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(tmp)
		for _, f := range []string{"package.json", "package-lock.json"} {
			copyFile(t, filepath.Join(src, f), filepath.Join(tmp, f))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		cmd := osexec.CommandContext(ctx, npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund")
		cmd.Dir = tmp
		if b, err := cmd.CombinedOutput(); err != nil {
			t.Skipf("npm ci of onnxruntime-node failed (no registry?): %v\n%s", err, tail(b, 800))
		}
		if err := os.Rename(tmp, dir); err != nil && !os.IsExist(err) {
			if _, statErr := os.Stat(dir); statErr != nil {
				t.Fatal(err)
			}
		}
	}
	cmd := osexec.Command(node, filepath.Join(src, "run.cjs"))
	cmd.Env = append(os.Environ(), "NODE_PATH="+filepath.Join(dir, "node_modules"))
	stdin, _ := cmd.StdinPipe()
	stdout, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		stdin.Close()
		if err := cmd.Wait(); err != nil {
			t.Errorf("run.cjs: %v\n%s", err, stderr.String())
		}
	})
	out = bufio.NewScanner(stdout)
	out.Buffer(nil, 1<<24)
	return json.NewEncoder(stdin), out
}

// TestONNXTransposeRunsInOnnxRuntime: the ONNX model the conversion's API
// and page give for a permutation (the NCHW <-> NHWC examples, a 2-D
// transpose, 200 random permutations of ranks 1 to 6 in every data type
// the identity takes) runs in onnxruntime-node, and its output, given the
// input buffer, is the output buffer compute.IdentityOf writes, byte for
// byte, in the permuted shape.
func TestONNXTransposeRunsInOnnxRuntime(t *testing.T) {
	enc, out := onnxRuntime(t)
	r := rand.New(rand.NewPCG(39, 4))
	var ids []*core.Identity
	for _, q := range []string{"preset=nchw-nhwc", "preset=transpose", "dt=FLOAT16&sizes=1,2,2,3&imode=packed&omode=NHWC",
		"dt=INT64&sizes=2,3,4,5&imode=NCHW&omode=explicit&ostrides=60,1,15,3"} {
		ids = append(ids, identityOf(t, q))
	}
	types := core.IdentityDataTypes(core.NewestFeatureLevel)
	for range 200 {
		ids = append(ids, randomPermutation(t, r, types[r.IntN(len(types))]))
	}
	for c, id := range ids {
		resp, err := convert.NewResponse(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if resp.ONNX == nil || resp.ONNX.Model == "" {
			t.Fatalf("case %d (%v %v -> %v): no ONNX model", c, id.Input.Sizes, id.Input.Strides, id.Output.Strides)
		}
		model, err := base64.StdEncoding.DecodeString(resp.ONNX.Model)
		if err != nil {
			t.Fatal(err)
		}
		n := id.Input.LogicalElementCount()
		e := id.Input.DataType.Bits() / 8
		src := make([]byte, id.Input.BufferSizeInBytes())
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		dst := make([]byte, id.Output.BufferSizeInBytes())
		if err := compute.IdentityOf(context.Background(), dst, src, id); err != nil {
			t.Fatal(err)
		}
		if err := enc.Encode(map[string]any{"model": resp.ONNX.Model, "type": strings.ToLower(id.Input.DataType.String()),
			"dims": id.Input.Sizes, "input": hex.EncodeToString(src[:n*e])}); err != nil {
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
			t.Fatalf("case %d: onnxruntime-node: %s (%d-byte model)", c, got.Error, len(model))
		}
		wantDims := make([]int64, len(resp.ONNX.Perm))
		for i, d := range resp.ONNX.Perm {
			wantDims[i] = id.Input.Sizes[d]
		}
		if !slices.Equal(got.Dims, wantDims) {
			t.Errorf("case %d: output dims %v, want %v", c, got.Dims, wantDims)
		}
		if want := hex.EncodeToString(dst[:n*e]); got.Data != want {
			t.Fatalf("case %d: %v sizes %v perm %v: onnxruntime's Transpose and IdentityOf differ", c, id.Input.DataType, id.Input.Sizes, resp.ONNX.Perm)
		}
	}
}

// TestONNXModelOnlyForPermutations: a conversion whose input is not
// dense and row-major (NHWC, padded, broadcast) or whose output is
// padded has no ONNX tensor, so no model.
func TestONNXModelOnlyForPermutations(t *testing.T) {
	for q, want := range map[string]bool{
		"preset=nhwc-nchw": false, "preset=broadcast": false, "preset=padded": false,
		"preset=reshape": true, // NHWC with one channel is row-major: Transpose by the identity perm
		"dt=FLOAT32&sizes=2,3&imode=packed&omode=explicit&ostrides=1,3": false, // padded output
		"dt=FLOAT32&sizes=2,3&imode=packed&omode=explicit&ostrides=1,2": true,  // the transpose
		"preset=nchw-nhwc": true,
		"preset=scalebias": false, // x × 2 + 1 is not a Transpose
		"dt=FLOAT32&sizes=2,3&imode=packed&omode=WH&scale=1&bias=0": true,
	} {
		if _, ok := identityOf(t, q).ONNXModel(); ok != want {
			t.Errorf("%s: a model %v, want %v", q, ok, want)
		}
	}
}

func identityOf(t *testing.T, query string) *core.Identity {
	t.Helper()
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	v := convert.Validate(convert.StateFromQuery(q))
	if v.ID == nil {
		t.Fatalf("%s: %v", query, v.Errors)
	}
	return v.ID
}

// randomPermutation is a packed input copied to its packed transpose by a
// random permutation, ranks 1 to 6, sizes 1 to 4.
func randomPermutation(t *testing.T, r *rand.Rand, dt core.DataType) *core.Identity {
	rank := 1 + r.IntN(6)
	sizes := make([]int64, rank)
	for d := range sizes {
		sizes[d] = int64(1 + r.IntN(4))
	}
	perm := r.Perm(rank)
	strides := make([]int64, rank)
	pitch := int64(1)
	for k := rank - 1; k >= 0; k-- {
		strides[perm[k]] = pitch
		pitch *= sizes[perm[k]]
	}
	id, err := core.NewIdentity(core.IdentityDesc{
		Input:  core.TensorDesc{DataType: dt, Sizes: sizes},
		Output: core.TensorDesc{DataType: dt, Sizes: sizes, Strides: strides},
	})
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func hashOf(b []byte) uint64 {
	h := uint64(14695981039346656037)
	for _, c := range b {
		h = (h ^ uint64(c)) * 1099511628211
	}
	return h
}

func mkdirAll(t *testing.T, dir string) string {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func copyFile(t *testing.T, from, to string) {
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func tail(b []byte, n int) string {
	if len(b) > n {
		b = b[len(b)-n:]
	}
	return string(b)
}
