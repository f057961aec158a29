package core

import (
	"slices"
	"sort"
)

// Limits on the enumeration fallback of distinctOffsets: past them the
// count is reported as unknown rather than paid for.
const (
	distinctEnumerateMaxElements = 1 << 22
	distinctBitmapMaxSpan        = 1 << 26
	// Past the bitmap span, a tensor this small is still counted by
	// sorting its offsets: a few elements with huge strides are small.
	distinctSortMaxElements = 1 << 16
)

// distinctOffsets counts the distinct values of dot(coord, strides). It is
// settled from the structure of the strides where possible (no element is
// visited) and by enumeration only for small tensors. Size-1 and stride-0
// (broadcast) dimensions add no offsets, so the enumeration walks the
// others only: a broadcast of millions of copies of a small odd pattern is
// small.
func distinctOffsets(sizes, strides []int64, _, indexOfLast int64) (int64, bool) {
	if n, ok := distinctFromStructure(sizes, strides); ok {
		return n, true
	}
	var walked, steps []int64
	logical := int64(1) // of the walked dimensions: at most the tensor's, which fits
	for i, n := range sizes {
		if n > 1 && strides[i] > 0 {
			walked, steps = append(walked, n), append(steps, strides[i])
			logical *= n
		}
	}
	sizes, strides = walked, steps
	if logical > distinctEnumerateMaxElements {
		return 0, false
	}
	if indexOfLast >= distinctBitmapMaxSpan {
		if logical > distinctSortMaxElements {
			return 0, false
		}
		offs := make([]int64, 0, logical)
		forEachOffset(sizes, strides, 0, func(o int64) { offs = append(offs, o) })
		slices.Sort(offs)
		return int64(len(slices.Compact(offs))), true
	}
	seen := make([]uint64, indexOfLast/64+1)
	var n int64
	forEachOffset(sizes, strides, 0, func(o int64) {
		w, b := o/64, uint64(1)<<(o%64)
		if seen[w]&b == 0 {
			seen[w] |= b
			n++
		}
	})
	return n, true
}

// distinctFromStructure builds the offset set one dimension at a time,
// smallest stride first, keeping it in one of two shapes it can count
// exactly: an arithmetic progression {0, g, 2g, ..., span}, or a set whose
// elements are all distinct sums (each new stride exceeds the span so
// far). Size-1 and stride-0 dimensions add no offsets.
func distinctFromStructure(sizes, strides []int64) (int64, bool) {
	type dim struct{ size, stride int64 }
	var dims []dim
	for i, s := range sizes {
		if s > 1 && strides[i] > 0 {
			dims = append(dims, dim{s, strides[i]})
		}
	}
	if len(dims) == 0 {
		return 1, true
	}
	sort.Slice(dims, func(a, b int) bool { return dims[a].stride < dims[b].stride })
	count := dims[0].size
	span := (dims[0].size - 1) * dims[0].stride
	step := dims[0].stride // > 0 while the set is an arithmetic progression
	for _, d := range dims[1:] {
		switch {
		case d.stride > span:
			// Disjoint translates: every sum is new.
			if step > 0 && d.stride == span+step {
				// The progression continues.
			} else {
				step = 0
			}
			count *= d.size
			span += (d.size - 1) * d.stride
		case step > 0 && d.stride%step == 0:
			// Overlapping translates of a progression stay a progression.
			span += (d.size - 1) * d.stride
			count = span/step + 1
		default:
			return 0, false
		}
	}
	return count, true
}
