package compute

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"math"
	"math/rand/v2"
	osexec "os/exec"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/core"
)

func TestF32ToF16(t *testing.T) {
	for _, c := range []struct {
		f    float32
		want uint16
	}{
		{1, 0x3c00}, {-2, 0xc000}, {0.5, 0x3800}, {0, 0}, {float32(math.Copysign(0, -1)), 0x8000},
		{65504, 0x7bff}, {65519, 0x7bff}, {65520, 0x7c00}, {1e10, 0x7c00}, {-1e10, 0xfc00},
		{float32(math.Inf(1)), 0x7c00}, {float32(math.Inf(-1)), 0xfc00},
		{1.0 / (1 << 24), 0x0001},      // the smallest subnormal half
		{1.0 / (1 << 25), 0x0000},      // half of it: a tie, to even (zero)
		{1.5 / (1 << 25), 0x0001},      // above the tie
		{3.0 / (1 << 25), 0x0002},      // 1.5 units: a tie, to even (2)
		{1.0 / (1 << 14), 0x0400},      // the smallest normal half
		{1 + 1.0/2048, 0x3c00},         // a tie between 1 and its next half: to even
		{1 + 3.0/2048, 0x3c02},         // a tie the other way: to even
		{2049, 0x6800}, {2051, 0x6802}, // whole numbers past 2048 round to even
		{float32(65504 + 16), 0x7c00},              // a tie past the largest: to +Inf
		{math.Float32frombits(0x7fc00000), 0x7e00}, // a quiet NaN
		{math.Float32frombits(0x7f800001), 0x7c01}, // a NaN whose payload would vanish stays a NaN
	} {
		if got := F32ToF16(c.f); got != c.want {
			t.Errorf("F32ToF16(%g) = %#04x, want %#04x", c.f, got, c.want)
		}
	}
	// Every half widens exactly and rounds back to itself.
	for h := range 1 << 16 {
		if got := F32ToF16(F16ToF32(uint16(h))); got != uint16(h) {
			t.Fatalf("half %#04x widens to %g and rounds back to %#04x", h, F16ToF32(uint16(h)), got)
		}
	}
}

// values is n elements of dt holding 1, 2, ... n.
func values(dt core.DataType, n int) []byte {
	e := int(dt.Bits() / 8)
	b := make([]byte, n*e)
	for i := range n {
		v := float64(i + 1)
		switch dt {
		case core.Float16:
			binary.LittleEndian.PutUint16(b[i*e:], F32ToF16(float32(v)))
		case core.Float32:
			binary.LittleEndian.PutUint32(b[i*e:], math.Float32bits(float32(v)))
		case core.Float64:
			binary.LittleEndian.PutUint64(b[i*e:], math.Float64bits(v))
		default:
			b[i*e] = byte(i + 1)
		}
	}
	return b
}

func TestIdentityOfAppliesScaleBias(t *testing.T) {
	for _, c := range []struct {
		name        string
		dt          core.DataType
		sizes       []int64
		in, out     []int64
		scale, bias float64
		want        []byte
		err         error
	}{
		{name: "the page's ScaleBias example", dt: core.Float32, sizes: []int64{2, 3}, scale: 2, bias: 1,
			want: f32s(3, 5, 7, 9, 11, 13)},
		{name: "a transpose scaled", dt: core.Float32, sizes: []int64{2, 3}, out: []int64{1, 2}, scale: 0.5, bias: -1,
			want: f32s(-0.5, 1, 0, 1.5, 0.5, 2)},
		{name: "FLOAT16 rounds once to a half", dt: core.Float16, sizes: []int64{3}, scale: 1000, bias: 0.25,
			// 1000.25 and 2000.25 round to 1000 and 2000; 3000.25 to 3000 (halves are 2 apart there).
			want: f16s(1000, 2000, 3000)},
		{name: "FLOAT64 with a FLOAT scale", dt: core.Float64, sizes: []int64{2}, scale: 0.1, bias: 0,
			want: f64s(float64(float32(0.1)), 2*float64(float32(0.1)))},
		{name: "an integer tensor is refused", dt: core.Int32, sizes: []int64{2}, scale: 2, bias: 1, err: ErrScaleBiasType},
	} {
		t.Run(c.name, func(t *testing.T) {
			id, err := core.NewIdentity(core.IdentityDesc{
				Input:     core.TensorDesc{DataType: c.dt, Sizes: c.sizes, Strides: c.in},
				Output:    core.TensorDesc{DataType: c.dt, Sizes: c.sizes, Strides: c.out},
				ScaleBias: &core.ScaleBias{Scale: c.scale, Bias: c.bias},
			})
			if err != nil {
				t.Fatal(err)
			}
			src := values(c.dt, int(id.Input.LogicalElementCount()))
			src = append(src, make([]byte, id.Input.BufferSizeInBytes()-int64(len(src)))...)
			dst := make([]byte, id.Output.BufferSizeInBytes())
			err = IdentityOf(context.Background(), dst, src, id)
			if !errors.Is(err, c.err) {
				t.Fatalf("err %v, want %v", err, c.err)
			}
			if c.err == nil && !bytes.Equal(dst[:len(c.want)], c.want) {
				t.Errorf("output % x, want % x", dst[:len(c.want)], c.want)
			}
		})
	}
}

// TestIdentityOfInPlaceScalesEachElementOnce: in place with the same
// strides on both sides every element is read, scaled and written once;
// a copy that overwrites a cell before it is read (a shift by one) reads
// the new value, in row-major order, as the definition does.
func TestIdentityOfInPlaceScalesEachElementOnce(t *testing.T) {
	id, err := core.NewIdentity(core.IdentityDesc{
		Input:     core.TensorDesc{DataType: core.Float32, Sizes: []int64{4}},
		Output:    core.TensorDesc{DataType: core.Float32, Sizes: []int64{4}},
		ScaleBias: &core.ScaleBias{Scale: 2, Bias: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	buf := values(core.Float32, 4)
	if err := IdentityOf(context.Background(), buf, buf, id); err != nil {
		t.Fatal(err)
	}
	if want := f32s(3, 5, 7, 9); !bytes.Equal(buf, want) {
		t.Errorf("in place % x, want % x", buf, want)
	}
	// Output element i at cell i+1 of the same buffer: element 1 reads
	// cell 1 after element 0 wrote 1×2+1 = 3 there.
	in, out := Walk{Sizes: []int64{3}, Strides: []int64{1}}, Walk{Sizes: []int64{3}, Strides: []int64{1}, Base: 1}
	g, _ := scaleBiasOf(core.Float32, core.ScaleBias{Scale: 2, Bias: 1})
	buf = values(core.Float32, 4)
	if err := identityEach(context.Background(), buf, buf, in, out, 4, g); err != nil {
		t.Fatal(err)
	}
	if want := f32s(1, 3, 7, 15); !bytes.Equal(buf, want) {
		t.Errorf("shifted in place % x, want % x", buf, want)
	}
}

func TestIdentityOfStopsWhenCancelled(t *testing.T) {
	id, err := core.NewIdentity(core.IdentityDesc{
		Input:     core.TensorDesc{DataType: core.Float32, Sizes: []int64{4, 1 << 20}},
		Output:    core.TensorDesc{DataType: core.Float32, Sizes: []int64{4, 1 << 20}, Strides: []int64{1, 4}},
		ScaleBias: &core.ScaleBias{Scale: 2, Bias: 1},
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	buf := make([]byte, 16<<20)
	if err := IdentityOf(ctx, buf, make([]byte, 16<<20), id); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v", err)
	}
	if err := IdentityOf(context.Background(), buf[:100], make([]byte, 16<<20), id); !errors.Is(err, ErrOutOfBounds) {
		t.Errorf("a short output buffer: %v", err)
	}
}

func f32s(xs ...float32) []byte {
	b := make([]byte, 4*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(x))
	}
	return b
}

func f16s(xs ...float32) []byte {
	b := make([]byte, 2*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint16(b[2*i:], F32ToF16(x))
	}
	return b
}

func f64s(xs ...float64) []byte {
	b := make([]byte, 8*len(xs))
	for i, x := range xs {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(x))
	}
	return b
}

// numpyExport runs the NumPy export of a conversion (core.Identity.NumPy)
// on given buffers: its two np.zeros lines are replaced by the buffers
// sent, the rest is executed as written. One JSON case a line in, the
// output buffer in hex out.
const numpyExport = `
import sys, json
import numpy as np
for line in sys.stdin:
    c = json.loads(line)
    dt = np.dtype(c["dt"]).newbyteorder("<")
    code = "\n".join(l for l in c["code"].split("\n") if not l.startswith(("input_buffer = ", "output_buffer = ")))
    ns = {"np": np,
          "input_buffer": np.frombuffer(bytes.fromhex(c["src"]), dtype=dt).copy(),
          "output_buffer": np.frombuffer(bytes.fromhex(c["dst"]), dtype=dt).copy()}
    with np.errstate(all="ignore"):
        exec(code, ns)
    print(ns["output_buffer"].tobytes().hex(), flush=True)
`

// TestIdentityScaleBiasMatchesNumPy: for 1,500 random conversions, three
// in four of the float types with a random ScaleBias two times in three,
// the others of any data type the identity takes, the NumPy export the page and the API give, executed by NumPy on random
// buffers (any bits: NaNs, infinities, subnormals), leaves the output
// buffer IdentityOf writes: byte for byte, except that a NaN may be any
// NaN (the payload of x * scale is the hardware's). It needs python3
// with NumPy (CI installs python3-numpy).
func TestIdentityScaleBiasMatchesNumPy(t *testing.T) {
	py := ""
	for _, c := range []string{"/usr/bin/python3", "python3"} {
		if p, err := osexec.LookPath(c); err == nil && osexec.Command(p, "-c", "import numpy").Run() == nil {
			py = p
			break
		}
	}
	if py == "" {
		t.Skip("no python3 with NumPy: apt-get install python3-numpy")
	}
	cmd := osexec.Command(py, "-c", numpyExport)
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
	r := rand.New(rand.NewPCG(39, 3))
	scales := []float64{2, 0.5, -1.25, 0.1, 3.3, 1e-3, 1, 0, -0.0, 1e30, 7e-6}
	biases := []float64{1, 0, -0.5, 0.1, 100, -3.75, 1e-8, 65504}
	floats := []core.DataType{core.Float16, core.Float32, core.Float64}
	scaled := 0
	for c := range 1500 {
		desc := randomCopy(r) // every data type
		if c%4 != 0 {
			desc.Input.DataType = floats[r.IntN(len(floats))]
			desc.Output.DataType = desc.Input.DataType
		}
		if desc.Input.DataType.IsFloat() && r.IntN(3) > 0 {
			desc.ScaleBias = &core.ScaleBias{Scale: scales[r.IntN(len(scales))], Bias: biases[r.IntN(len(biases))]}
			scaled++
		}
		id, err := core.NewIdentity(desc)
		if err != nil {
			t.Fatalf("case %d: %+v: %v", c, desc, err)
		}
		src := make([]byte, id.Input.BufferSizeInBytes())
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		if r.IntN(2) == 0 {
			// Ordinary values as well as random bits: small whole
			// numbers, where rounding decides more often.
			e := int(id.Input.DataType.Bits() / 8)
			copy(src, values(id.Input.DataType, len(src)/e))
		}
		got := bytes.Repeat([]byte{0xA5}, int(id.Output.BufferSizeInBytes()))
		before := bytes.Clone(got)
		if err := IdentityOf(context.Background(), got, src, id); err != nil {
			t.Fatalf("case %d: %v", c, err)
		}
		code := id.NumPy()
		line, _ := json.Marshal(map[string]any{"dt": core.NumpyDType(id.Input.DataType), "code": code,
			"src": hex.EncodeToString(src), "dst": hex.EncodeToString(before)})
		if _, err := stdin.Write(append(line, '\n')); err != nil {
			t.Fatalf("case %d: writing to python3: %v (%s)", c, err, stderr.String())
		}
		if !out.Scan() {
			t.Fatalf("case %d: no answer from NumPy: %v %s", c, out.Err(), stderr.String())
		}
		want, err := hex.DecodeString(strings.TrimSpace(out.Text()))
		if err != nil {
			t.Fatalf("case %d: %v", c, err)
		}
		if i := firstDifference(got, want, id.Input.DataType); i >= 0 {
			t.Fatalf("case %d: %v sizes %v in %v out %v scale-bias %+v: element at byte %d is % x, NumPy's % x\n%s",
				c, id.Input.DataType, id.Input.Sizes, id.Input.Strides, id.Output.Strides, id.ScaleBias, i,
				got[i:i+int(id.Input.DataType.Bits()/8)], want[i:i+int(id.Input.DataType.Bits()/8)], code)
		}
	}
	t.Logf("1,500 conversions, %d with a ScaleBias: 0 differences from NumPy", scaled)
	if scaled < 600 {
		t.Fatalf("only %d cases with a ScaleBias", scaled)
	}
}

// firstDifference is the byte offset of the first element of dt that
// differs between a and b (a float NaN equals any NaN), or -1.
func firstDifference(a, b []byte, dt core.DataType) int {
	if len(a) != len(b) {
		return 0
	}
	e := int(dt.Bits() / 8)
	nan := func(x []byte) bool {
		switch dt {
		case core.Float16:
			h := binary.LittleEndian.Uint16(x)
			return h&0x7c00 == 0x7c00 && h&0x3ff != 0
		case core.Float32:
			return math.IsNaN(float64(math.Float32frombits(binary.LittleEndian.Uint32(x))))
		case core.Float64:
			return math.IsNaN(math.Float64frombits(binary.LittleEndian.Uint64(x)))
		}
		return false // integers compare bit for bit
	}
	for i := 0; i+e <= len(a); i += e {
		if !bytes.Equal(a[i:i+e], b[i:i+e]) && !(nan(a[i:i+e]) && nan(b[i:i+e])) {
			return i
		}
	}
	if !bytes.Equal(a[len(a)/e*e:], b[len(b)/e*e:]) {
		return len(a) / e * e
	}
	return -1
}

// BenchmarkIdentityOf: NCHW -> NHWC of 1x64x512x512 FLOAT32 (2^24
// elements) as a plain copy (tiled) and with a ScaleBias (element after
// element, through g).
func BenchmarkIdentityOf(b *testing.B) {
	sizes := []int64{1, 64, 512, 512}
	for _, c := range []struct {
		name string
		sb   *core.ScaleBias
	}{{"copy", nil}, {"scalebias", &core.ScaleBias{Scale: 2, Bias: 1}}} {
		b.Run(c.name, func(b *testing.B) {
			id, err := core.NewIdentity(core.IdentityDesc{
				Input:     core.TensorDesc{DataType: core.Float32, Sizes: sizes},
				Output:    core.TensorDesc{DataType: core.Float32, Sizes: sizes, Strides: []int64{64 * 512 * 512, 1, 512 * 64, 64}},
				ScaleBias: c.sb,
			})
			if err != nil {
				b.Fatal(err)
			}
			src := make([]byte, id.Input.BufferSizeInBytes())
			dst := make([]byte, id.Output.BufferSizeInBytes())
			b.SetBytes(int64(len(src)))
			for b.Loop() {
				if err := IdentityOf(context.Background(), dst, src, id); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
