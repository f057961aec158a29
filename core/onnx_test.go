package core

import (
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// onnxSelected is the ONNX Slice-13 specification read literally, one axis
// at a time: the indices selected, in order.
func onnxSelected(start, end, step, dim int64) []int64 {
	adj := func(v int64) int64 {
		if v < 0 {
			if v < -dim {
				return -1 << 40
			}
			return v + dim
		}
		return v
	}
	s, e := adj(start), adj(end)
	if step > 0 {
		s, e = min(max(s, 0), dim), min(max(e, 0), dim)
	} else {
		s, e = min(max(s, 0), dim-1), min(max(e, -1), dim-1)
	}
	var out []int64
	for i := s; (step > 0 && i < e) || (step < 0 && i > e); i += step {
		out = append(out, i)
	}
	return out
}

// windowSelected is what a DML_SLICE1 window copies along one axis.
func windowSelected(off, size, stride, n int64) []int64 {
	first := CopyStart(off, size, stride)
	out := make([]int64, n)
	for j := range n {
		out[j] = first + j*stride
	}
	return out
}

func TestONNXSliceWindowMatchesTheSpecification(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 1))
	pick := func(dim int64) int64 {
		switch rng.IntN(10) {
		case 0:
			return math.MaxInt64
		case 1:
			return math.MinInt64
		case 2:
			return math.MaxInt32
		}
		return rng.Int64N(4*dim+5) - 2*dim - 2
	}
	checked, pythonSame := 0, 0
	for range 20000 {
		r := 1 + rng.IntN(4)
		sizes := make([]int64, r)
		for d := range sizes {
			sizes[d] = 1 + rng.Int64N(7)
		}
		// A random subset of the axes, in a random order, some negative.
		perm := rng.Perm(r)[:1+rng.IntN(r)]
		var starts, ends, axes, steps []int64
		for _, a := range perm {
			dim := sizes[a]
			step := 1 + rng.Int64N(4)
			if rng.IntN(2) == 0 {
				step = -step
			}
			ax := int64(a)
			if rng.IntN(3) == 0 {
				ax -= int64(r)
			}
			starts, ends, axes, steps = append(starts, pick(dim)), append(ends, pick(dim)), append(axes, ax), append(steps, step)
		}
		w, vs := ONNXSliceWindow(sizes, starts, ends, axes, steps, "onnx.")
		empty := false
		for k, a := range perm {
			if len(onnxSelected(starts[k], ends[k], steps[k], sizes[a])) == 0 {
				empty = true
			}
		}
		if empty {
			if w != nil || len(vs) == 0 || !strings.Contains(vs[0].Message, "select no element") {
				t.Fatalf("sizes %v starts %v ends %v axes %v steps %v: an empty selection gave %+v, %v", sizes, starts, ends, axes, steps, w, vs)
			}
			continue
		}
		if len(vs) > 0 {
			t.Fatalf("sizes %v starts %v ends %v axes %v steps %v: %v", sizes, starts, ends, axes, steps, vs)
		}
		for d := range r {
			want := []int64{}
			for i := range sizes[d] {
				want = append(want, i)
			}
			k := slices.Index(perm, d)
			if k >= 0 {
				want = onnxSelected(starts[k], ends[k], steps[k], sizes[d])
				// Python's slice.indices agrees except for a negative step
				// starting before the first element.
				py := numpyItem{start: &starts[k], stop: &ends[k], step: &steps[k]}
				ps, pe, pst, _ := sliceIndices(py, sizes[d])
				if !(steps[k] < 0 && starts[k] < -sizes[d]) {
					var got []int64
					for i := ps; (pst > 0 && i < pe) || (pst < 0 && i > pe); i += pst {
						got = append(got, i)
					}
					if !slices.Equal(got, want) {
						t.Fatalf("axis %d: Python selects %v, ONNX %v (start %d end %d step %d dim %d)", d, got, want, starts[k], ends[k], steps[k], sizes[d])
					}
					pythonSame++
				}
			}
			got := windowSelected(w.WindowOffsets[d], w.WindowSizes[d], w.WindowStrides[d], w.OutputSizes[d])
			if !slices.Equal(got, want) {
				t.Fatalf("sizes %v starts %v ends %v axes %v steps %v: axis %d copies %v, want %v", sizes, starts, ends, axes, steps, d, got, want)
			}
			if w.WindowOffsets[d] < 0 || w.WindowOffsets[d]+w.WindowSizes[d] > sizes[d] {
				t.Fatalf("axis %d: window %d+%d outside %d", d, w.WindowOffsets[d], w.WindowSizes[d], sizes[d])
			}
		}
		checked++
	}
	if checked < 3000 || pythonSame < 3000 {
		t.Fatalf("only %d non-empty cases (%d axes compared with Python)", checked, pythonSame)
	}
}

func TestONNXSliceWindowDiffersFromPythonOnlyBeforeTheStart(t *testing.T) {
	// dim 5, start -10, end -20, step -1: ONNX starts at 0 and copies it;
	// Python's slice(-10, -20, -1).indices(5) is (-1, -1, -1): empty.
	w, vs := ONNXSliceWindow([]int64{5}, []int64{-10}, []int64{-20}, nil, []int64{-1}, "")
	if len(vs) > 0 || w.OutputSizes[0] != 1 || CopyStart(w.WindowOffsets[0], w.WindowSizes[0], w.WindowStrides[0]) != 0 {
		t.Fatalf("got %+v, %v; want element 0", w, vs)
	}
}

func TestONNXSliceWindowReportsEveryViolation(t *testing.T) {
	_, vs := ONNXSliceWindow([]int64{4, 0, 3}, []int64{0, 1, 2}, []int64{4, 1}, []int64{0, 5, 0}, []int64{1, 0, 1}, "onnx.")
	var fields []string
	for _, v := range vs {
		fields = append(fields, v.Field)
	}
	want := []string{"onnx.inputShape[1]", "onnx.ends"}
	if !slices.Equal(fields, want) {
		t.Errorf("fields %v, want %v (%v)", fields, want, vs)
	}
	_, vs = ONNXSliceWindow([]int64{4, 2, 3}, []int64{0, 1, 2}, []int64{4, 1, 3}, []int64{0, 5, -3}, []int64{1, 1, 0}, "onnx.")
	fields = fields[:0]
	for _, v := range vs {
		fields = append(fields, v.Field)
	}
	want = []string{"onnx.axes[1]", "onnx.axes[2]"}
	if !slices.Equal(fields, want) {
		t.Errorf("fields %v, want %v (%v)", fields, want, vs)
	}
	_, vs = ONNXSliceWindow([]int64{4, 2, 3}, []int64{0, 1}, []int64{4, 1}, nil, []int64{0, 1}, "onnx.")
	fields = fields[:0]
	for _, v := range vs {
		fields = append(fields, v.Field)
	}
	want = []string{"onnx.steps[0]", "onnx.starts[1]"}
	if !slices.Equal(fields, want) {
		t.Errorf("fields %v, want %v (%v)", fields, want, vs)
	}
}

// TestONNXRoundTrip: the ONNX Slice stridescope exports for a slice imports
// as the same window.
func TestONNXRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 2))
	for range 3000 {
		r := 1 + rng.IntN(8)
		d := Slice1Desc{Input: TensorDesc{DataType: Float32, Sizes: make([]int64, r)}}
		for i := range r {
			size := 1 + rng.Int64N(6)
			d.Input.Sizes[i] = size
			off := rng.Int64N(size)
			win := 1 + rng.Int64N(size-off)
			st := 1 + rng.Int64N(3)
			if rng.IntN(2) == 0 {
				st = -st
			}
			// The tight window: the export gives what is copied, and a
			// loose one imports as its tight equivalent.
			n := MaxCopiedElements(win, st)
			win = (n-1)*abs64(st) + 1
			d.WindowOffsets, d.WindowSizes, d.WindowStrides = append(d.WindowOffsets, off), append(d.WindowSizes, win), append(d.WindowStrides, st)
		}
		s, err := NewSlice1(d)
		if err != nil {
			t.Fatal(err)
		}
		o := s.ONNX()
		w, vs := ONNXSliceWindow(d.Input.Sizes, o.Starts, o.Ends, o.Axes, o.Steps, "")
		if len(vs) > 0 {
			t.Fatalf("%+v: %v", o, vs)
		}
		if !slices.Equal(w.WindowOffsets, s.WindowOffsets) || !slices.Equal(w.WindowSizes, s.WindowSizes) || !slices.Equal(w.WindowStrides, s.WindowStrides) || !slices.Equal(w.OutputSizes, s.OutputSizes) {
			t.Fatalf("exported %+v from %+v, imported %+v", o, d, w)
		}
	}
}
