package compute

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"math/rand/v2"
	"os"
	osexec "os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stridescope/stridescope/core"
)

// onnxRuntime is the node project of testdata/onnxrt with
// onnxruntime-node installed: in the user's cache (installed there once,
// npm install --ignore-scripts, the CPU runtime only), so that the
// repository holds no node_modules. Without node and npm, or without the
// registry, the test is skipped, saying why.
func onnxRuntime(t *testing.T) (node, dir string) {
	t.Helper()
	node, err := osexec.LookPath("node")
	if err != nil {
		t.Skip("no node: install Node.js and npm to run the ONNX Runtime check")
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Skipf("no cache directory for onnxruntime-node: %v", err)
	}
	dir = filepath.Join(cache, "stridescope-onnxrt")
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "onnxruntime-node")); err == nil {
		return node, dir
	}
	npm, err := osexec.LookPath("npm")
	if err != nil {
		t.Skip("no npm to install onnxruntime-node")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Skip(err)
	}
	pkg, _ := os.ReadFile("testdata/onnxrt/package.json")
	if err := os.WriteFile(filepath.Join(dir, "package.json"), pkg, 0o644); err != nil {
		t.Skip(err)
	}
	cmd := osexec.Command(npm, "install", "--ignore-scripts", "--no-audit", "--no-fund")
	cmd.Dir = dir
	done := make(chan error, 1)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Skipf("npm install onnxruntime-node: %v", err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Skipf("npm install onnxruntime-node failed (no registry?): %v\n%s", err, out.String())
		}
	case <-time.After(5 * time.Minute):
		_ = cmd.Process.Kill()
		t.Skip("npm install onnxruntime-node took over 5 minutes")
	}
	return node, dir
}

// TestDepthSpaceMatchesONNXRuntime: the ONNX model each operator
// exports (DepthToSpace with its mode, SpaceToDepth in DCR order), run
// by ONNX Runtime on an arange input, gives for every output element the
// input element core's coordinate names: 200 random operators, float32
// and float64.
func TestDepthSpaceMatchesONNXRuntime(t *testing.T) {
	if testing.Short() {
		t.Skip("starts ONNX Runtime")
	}
	node, dir := onnxRuntime(t)
	script, err := filepath.Abs("testdata/onnxrt/run.mjs")
	if err != nil {
		t.Fatal(err)
	}
	// The script imports onnxruntime-node from the cache's node_modules.
	run := filepath.Join(dir, "run.mjs")
	src, _ := os.ReadFile(script)
	if err := os.WriteFile(run, src, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := osexec.Command(node, run)
	cmd.Dir = dir
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
	r := rand.New(rand.NewPCG(40, 4))
	checked := 0
	for c := range 200 {
		op := []core.DepthSpaceOp{core.DepthToSpace, core.SpaceToDepth}[c%2]
		order := core.DepthSpaceOrders[c/2%2]
		if op == core.SpaceToDepth && order == core.ColumnRowDepth {
			order = core.DepthColumnRow // ONNX's SpaceToDepth has no CRD
		}
		d := randomDepthSpace(r, op, order)
		d.Input.DataType, d.Input.Strides = []core.DataType{core.Float32, core.Float64}[c/4%2], nil
		s, err := core.NewDepthSpace(d)
		if err != nil {
			t.Fatal(err)
		}
		model, ok := s.ONNXModel()
		if !ok {
			t.Fatalf("%s %v: no ONNX model", op.OperatorName(), order)
		}
		line, _ := json.Marshal(map[string]any{"model": base64.StdEncoding.EncodeToString(model), "type": core.NumpyDType(s.Input.DataType), "sizes": s.Input.Sizes})
		if _, err := stdin.Write(append(line, '\n')); err != nil {
			t.Fatalf("writing to node: %v (%s)", err, stderr.String())
		}
		if !out.Scan() {
			t.Fatalf("no answer from ONNX Runtime: %v %s", out.Err(), stderr.String())
		}
		var got struct {
			Values []float64 `json:"values"`
			Dims   []int64   `json:"dims"`
			Error  string    `json:"error"`
		}
		if err := json.Unmarshal(out.Bytes(), &got); err != nil || got.Error != "" {
			t.Fatalf("%s %v %v b=%d: %v %s", op.OperatorName(), order, s.Input.Sizes, s.BlockSize, err, got.Error)
		}
		if !slices.Equal(got.Dims, s.Output.Sizes) {
			t.Fatalf("%s %v: ONNX Runtime's output %v, core's %v", op.OperatorName(), order, got.Dims, s.Output.Sizes)
		}
		packed := core.PackedStrides(s.Input.Sizes)
		for i, v := range got.Values {
			var k int64
			for dd, x := range s.InputCoordinate(int64(i)) {
				k += x * packed[dd]
			}
			if float64(k) != v {
				t.Fatalf("%s %v %v b=%d: output element %d is input %v in ONNX Runtime, %d in core", op.OperatorName(), order, s.Input.Sizes, s.BlockSize, i, v, k)
			}
		}
		checked++
	}
	t.Logf("%d models, 0 mismatches", checked)
}
