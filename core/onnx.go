package core

import (
	"fmt"
	"math"
)

// ONNXSliceWindow turns an ONNX Slice (opset 13: starts, ends, optional
// axes and steps, as ONNX Runtime's DirectML provider lowers it) on an
// input of the given sizes into the canonical tight DML_SLICE1 window
// (directml-rules.md section 7), reporting every violation at once under
// the fields' names prefixed by prefix ("onnx.starts[1]").
//
// The clamping is the ONNX specification's, which differs from Python's
// slice.indices in one case: a negative step whose start lies before the
// first element starts at element 0 in ONNX (Python's selection is
// empty). Ends past either end (INT64_MAX, INT64_MIN) clamp as in both.
func ONNXSliceWindow(inputSizes, starts, ends, axes, steps []int64, prefix string) (*NumpyWindow, []Violation) {
	var vs []Violation
	bad := func(field, format string, args ...any) {
		vs = append(vs, Violation{Field: prefix + field, Message: fmt.Sprintf(format, args...)})
	}
	r := len(inputSizes)
	if r == 0 || r > MaxDimensionCount {
		bad("inputShape", "the input has %d dimensions; DML_SLICE1 takes 1 to %d", r, MaxDimensionCount)
	}
	for i, s := range inputSizes {
		if s < 1 || s > math.MaxUint32 {
			bad(fmt.Sprintf("inputShape[%d]", i), "inputShape[%d] = %d: every dimension must be 1 to 2^32-1 (DirectML sizes are UINT and never 0)", i, s)
		}
	}
	if len(ends) != len(starts) {
		bad("ends", "ends has %d values and starts %d: ONNX Slice needs one end per start", len(ends), len(starts))
	}
	if axes != nil && len(axes) != len(starts) {
		bad("axes", "axes has %d values and starts %d: ONNX Slice needs one axis per start", len(axes), len(starts))
	}
	if steps != nil && len(steps) != len(starts) {
		bad("steps", "steps has %d values and starts %d: ONNX Slice needs one step per start", len(steps), len(starts))
	}
	if len(vs) > 0 {
		return nil, vs
	}

	w := &NumpyWindow{
		WindowOffsets: make([]int64, r),
		WindowSizes:   append([]int64(nil), inputSizes...),
		WindowStrides: make([]int64, r),
		OutputSizes:   append([]int64(nil), inputSizes...),
		Indices:       make([][3]int64, r),
	}
	for d := range r {
		w.WindowStrides[d] = 1
		w.Indices[d] = [3]int64{0, inputSizes[d], 1}
	}
	seen := make([]int, r)
	for k := range starts {
		axis := int64(k)
		if axes != nil {
			axis = axes[k]
			if axis < 0 {
				axis += int64(r)
			}
			if axis < 0 || axis >= int64(r) {
				bad(fmt.Sprintf("axes[%d]", k), "axes[%d] = %d is not an axis of a %d-dimensional input (-%d to %d)", k, axes[k], r, r, r-1)
				continue
			}
			if seen[axis] > 0 {
				bad(fmt.Sprintf("axes[%d]", k), "axes[%d] = %d repeats axis %d (axes[%d]): ONNX Slice axes must be unique", k, axes[k], axis, seen[axis]-1)
				continue
			}
		} else if k >= r {
			bad(fmt.Sprintf("starts[%d]", k), "starts has %d values for a %d-dimensional input; without axes there is one per axis", len(starts), r)
			break
		}
		seen[axis] = k + 1
		step := int64(1)
		if steps != nil {
			step = steps[k]
		}
		if step == 0 {
			bad(fmt.Sprintf("steps[%d]", k), "steps[%d] = 0: a step cannot be zero", k)
			continue
		}
		dim := inputSizes[axis]
		start, end := onnxClamp(starts[k], dim, step, true), onnxClamp(ends[k], dim, step, false)
		w.Indices[axis] = [3]int64{start, end, step}
		n := sliceLen(start, end, step)
		if n == 0 {
			bad(fmt.Sprintf("starts[%d]", k), "axis %d: starts[%d] = %d, ends[%d] = %d, step %d select no element of %d (start %d, end %d after clamping): DML_SLICE1 has no empty window, so no DML_SLICE1 exists for an empty ONNX Slice", axis, k, starts[k], k, ends[k], step, dim, start, end)
			continue
		}
		if step < math.MinInt32 || step > math.MaxInt32 {
			if n > 1 {
				bad(fmt.Sprintf("steps[%d]", k), "steps[%d] = %d selects %d elements, but DML_SLICE1's InputWindowStrides are INT (-2^31 to 2^31-1)", k, step, n)
				continue
			}
			step = 1 // one element: any stride copies it
		}
		abs := step
		if abs < 0 {
			abs = -abs
		}
		w.WindowStrides[axis], w.OutputSizes[axis] = step, n
		w.WindowSizes[axis] = (n-1)*abs + 1
		w.WindowOffsets[axis] = start
		if step < 0 {
			w.WindowOffsets[axis] = start - (n-1)*abs
		}
	}
	if len(vs) > 0 {
		return nil, vs
	}
	return w, nil
}

// onnxClamp is ONNX Slice's adjustment of a start or an end: a negative
// value counts from the end, then starts clamp to [0, dim] (positive step)
// or [0, dim-1] (negative), ends to [0, dim] or [-1, dim-1].
func onnxClamp(v, dim, step int64, isStart bool) int64 {
	if v < 0 {
		if v < -dim { // v + dim would be below every bound (and cannot wrap)
			v = -dim - 1
		}
		v += dim
	}
	lo, hi := int64(0), dim
	if step < 0 {
		hi = dim - 1
		if !isStart {
			lo = -1
		}
	}
	return min(max(v, lo), hi)
}
