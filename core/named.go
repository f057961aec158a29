package core

import (
	"fmt"
	"strings"
)

// NamedLayouts are the layouts the strides page names, letters from the
// highest-order dimension to the lowest.
var NamedLayouts = []string{"HW", "WH", "DHW", "WHD", "NCHW", "NHWC", "NCDHW", "NDHWC"}

// DimensionLabels returns DirectML's fixed order of dimension letters for a
// rank: {H,W}, {D,H,W}, {N,C,H,W}, {N,C,D,H,W}; W alone for rank 1 and
// d0..d7 for ranks 6 to 8.
func DimensionLabels(rank int) []string {
	switch rank {
	case 1:
		return []string{"W"}
	case 2:
		return []string{"H", "W"}
	case 3:
		return []string{"D", "H", "W"}
	case 4:
		return []string{"N", "C", "H", "W"}
	case 5:
		return []string{"N", "C", "D", "H", "W"}
	}
	out := make([]string, rank)
	for i := range out {
		out[i] = fmt.Sprintf("d%d", i)
	}
	return out
}

// LayoutStrides returns the packed strides of a named layout for sizes
// given in DirectML's order ({N,C,H,W} and so on): the layout changes only
// the strides. A dimension's stride is the product of the sizes of the
// dimensions the layout names after it.
func LayoutStrides(name string, sizes []int64) ([]int64, error) {
	name = strings.ToUpper(name)
	labels := DimensionLabels(len(sizes))
	if !isNamedLayout(name) {
		return nil, fmt.Errorf("unknown layout %q (expected one of %s)", name, strings.Join(NamedLayouts, ", "))
	}
	if len(name) != len(sizes) {
		return nil, fmt.Errorf("layout %s needs %d dimensions, sizes has %d", name, len(name), len(sizes))
	}
	if _, ok := logicalCountOf(sizes); !ok {
		return nil, fmt.Errorf("sizes %v hold more than 2^32-1 elements", sizes)
	}
	strides := make([]int64, len(sizes))
	p := int64(1)
	for k := len(name) - 1; k >= 0; k-- {
		i := indexOf(labels, string(name[k]))
		strides[i] = p
		p *= sizes[i]
	}
	return strides, nil
}

func isNamedLayout(name string) bool {
	for _, n := range NamedLayouts {
		if n == name {
			return true
		}
	}
	return false
}

func indexOf(xs []string, x string) int {
	for i, s := range xs {
		if s == x {
			return i
		}
	}
	return -1
}

// PadToRank prepends dimensions of size 1 to reach rank, as DirectML
// operators that need 4-D or 5-D tensors expect. A leading stride is
// LeadingStride of the dimensions below it, which is what packed strides
// give.
func PadToRank(sizes, strides []int64, rank int) ([]int64, []int64, error) {
	if len(sizes) > rank {
		return nil, nil, fmt.Errorf("cannot pad %d dimensions down to %d", len(sizes), rank)
	}
	if strides != nil && len(strides) != len(sizes) {
		return nil, nil, fmt.Errorf("strides has %d entries, sizes %d", len(strides), len(sizes))
	}
	pad := rank - len(sizes)
	ns := append(make([]int64, 0, rank), ones(pad)...)
	ns = append(ns, sizes...)
	if strides == nil {
		return ns, nil, nil
	}
	span := LeadingStride(sizes, strides)
	nst := make([]int64, 0, rank)
	for range pad {
		nst = append(nst, span)
	}
	return ns, append(nst, strides...), nil
}

// LeadingStride is the stride a new leading dimension gets: the span
// max(size*stride) of the dimensions below it (for packed strides, the
// product of the sizes; for a padded row, its pitch). When that span is
// not a UINT, the minimum implied element count is used instead, which a
// valid layout keeps in range. Values out of range give 1.
func LeadingStride(sizes, strides []int64) int64 {
	if len(strides) != len(sizes) {
		return 1
	}
	var span uint64 = 1
	for i, s := range sizes {
		if s < 1 || strides[i] < 0 {
			return 1
		}
		p, ok := mulLimit(uint64(s), uint64(strides[i]), MaxUINT)
		if !ok {
			last, ok := indexOfLastOf(sizes, strides)
			if !ok {
				return 1
			}
			return int64(last) + 1
		}
		span = max(span, p)
	}
	return int64(span)
}

func ones(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = 1
	}
	return out
}
