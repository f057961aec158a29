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
	bad := func(field, code, tmpl string, args Args) {
		vs = append(vs, NewMsg(code, tmpl, args).At(prefix+field))
	}
	r := len(inputSizes)
	if r == 0 || r > MaxDimensionCount {
		bad("inputShape", "onnx.rank", "the input has {rank}; DML_SLICE1 takes 1 to {max}", Args{"rank": Count{int64(r), "dimensions"}, "max": MaxDimensionCount})
	}
	for i, s := range inputSizes {
		if s < 1 || s > math.MaxUint32 {
			bad(fmt.Sprintf("inputShape[%d]", i), "onnx.shape.range", "inputShape[{axis}] = {value}: every dimension must be 1 to 2^32-1 (DirectML sizes are UINT and never 0)", Args{"axis": i, "value": s})
		}
	}
	if len(ends) != len(starts) {
		bad("ends", "onnx.ends.count", "ends has {count} and starts {starts}: ONNX Slice needs one end per start", Args{"count": Count{int64(len(ends)), "values"}, "starts": len(starts)})
	}
	if axes != nil && len(axes) != len(starts) {
		bad("axes", "onnx.axes.count", "axes has {count} and starts {starts}: ONNX Slice needs one axis per start", Args{"count": Count{int64(len(axes)), "values"}, "starts": len(starts)})
	}
	if steps != nil && len(steps) != len(starts) {
		bad("steps", "onnx.steps.count", "steps has {count} and starts {starts}: ONNX Slice needs one step per start", Args{"count": Count{int64(len(steps)), "values"}, "starts": len(starts)})
	}
	// A rank out of range, or lists that do not pair up, leave nothing to
	// judge per axis; a size out of range still leaves each axis's step and axis to judge, and
	// they are reported with it, all at once.
	if r == 0 || r > MaxDimensionCount || len(ends) != len(starts) || axes != nil && len(axes) != len(starts) || steps != nil && len(steps) != len(starts) {
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
				bad(fmt.Sprintf("axes[%d]", k), "onnx.axis.range", "axes[{k}] = {value} is not an axis of an input of {dims} (-{rank} to {last})", Args{"k": k, "value": axes[k], "dims": Count{int64(r), "dimensions"}, "rank": r, "last": r - 1})
				continue
			}
			if seen[axis] > 0 {
				bad(fmt.Sprintf("axes[%d]", k), "onnx.axis.repeat", "axes[{k}] = {value} repeats axis {axis} (axes[{first}]): ONNX Slice axes must be unique", Args{"k": k, "value": axes[k], "axis": axis, "first": seen[axis] - 1})
				continue
			}
		} else if k >= r {
			bad(fmt.Sprintf("starts[%d]", k), "onnx.starts.count", "starts has {count} for an input of {rank}; without axes there is one per axis", Args{"count": Count{int64(len(starts)), "values"}, "rank": Count{int64(r), "dimensions"}})
			break
		}
		seen[axis] = k + 1
		step := int64(1)
		if steps != nil {
			step = steps[k]
		}
		if step == 0 {
			bad(fmt.Sprintf("steps[%d]", k), "onnx.step.zero", "steps[{k}] = 0: a step cannot be zero", Args{"k": k})
			continue
		}
		dim := inputSizes[axis]
		if dim < 1 || dim > math.MaxUint32 {
			continue // reported above
		}
		start, end := onnxClamp(starts[k], dim, step, true), onnxClamp(ends[k], dim, step, false)
		w.Indices[axis] = [3]int64{start, end, step}
		n := sliceLen(start, end, step)
		if n == 0 {
			bad(fmt.Sprintf("starts[%d]", k), "onnx.empty", "axis {axis}: starts[{k}] = {start}, ends[{k}] = {end}, step {step} select no element of {size} (start {cstart}, end {cend} after clamping): DML_SLICE1 has no empty window, so no DML_SLICE1 exists for an empty ONNX Slice", Args{"axis": axis, "k": k, "start": starts[k], "end": ends[k], "step": step, "size": dim, "cstart": start, "cend": end})
			continue
		}
		if step < math.MinInt32 || step > math.MaxInt32 {
			if n > 1 {
				bad(fmt.Sprintf("steps[%d]", k), "onnx.step.int", "steps[{k}] = {step} selects {count} elements, but DML_SLICE1's InputWindowStrides are INT (-2^31 to 2^31-1)", Args{"k": k, "step": step, "count": n})
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
