package core

import (
	"math/big"
	"strings"
)

// RowStrides are the strides of sizes (in DirectML's order, {N,C,H,W} and
// so on) laid out in memory in order, a NamedLayouts name of their rank
// ("" for DirectML's own order), with each row padded to a multiple of
// pitch elements: the dimension just outside the row in memory gets the
// row's extent rounded up to pitch, as a texture's row pitch pads its
// rows. The row is the dimension W with every dimension inside it (in
// NHWC, W and C: one image row of pixels); at ranks 6 to 8, which have
// no W, the innermost dimension. A pitch of 1 gives the order's packed
// strides, which core.LayoutStrides gives for a named layout.
//
// The strides follow the sizes: a learner who pads NHWC rows to 8
// elements and changes C sees the padded strides of the new C without
// working them out. Every error is a Msg; sizes below 1 count as 1 (their
// own rule reports them).
func RowStrides(order string, sizes []int64, pitch int64) ([]int64, error) {
	n := len(sizes)
	if n < 1 || n > MaxDimensionCount {
		return nil, NewMsg("rows.rank", "padded rows need 1 to {max} dimensions, not {rank}", Args{"max": MaxDimensionCount, "rank": n})
	}
	labels := DimensionLabels(n)
	perm := make([]int, n) // memory order, outermost first
	order = strings.ToUpper(strings.TrimSpace(order))
	if order == "" {
		for i := range perm {
			perm[i] = i
		}
	} else {
		if !isNamedLayout(order) || len(order) != n {
			return nil, NewMsg("rows.order", "{order:q} is not an order of {rank} dimensions: choose one of {names}, or DirectML's own order",
				Args{"order": order, "rank": n, "names": strings.Join(NamedLayoutsOf(n), ", ")})
		}
		for k := range order {
			perm[k] = indexOf(labels, order[k:k+1])
		}
	}
	if pitch < 1 || pitch > MaxUINT {
		return nil, NewMsg("rows.pitch", "the row pitch is {pitch}: give a whole number of elements from 1 to 4294967295", Args{"pitch": pitch})
	}
	row := indexOf(labels, "W")
	if row < 0 {
		row = n - 1
	}
	strides := make([]int64, n)
	span := big.NewInt(1) // exact: a product of UINTs may pass 64 bits
	for k := n - 1; k >= 0; k-- {
		d := perm[k]
		strides[d] = span.Int64() // at most MaxUINT, checked below
		if k == 0 {
			if d == row && pitch > 1 {
				return nil, NewMsg("rows.outermost", "in the order {order}, {row} is the outermost dimension: no dimension lies outside a row to pad it; choose an order with {row} inside, or a pitch of 1",
					Args{"order": strings.Join(orderLabels(labels, perm), ""), "row": labels[row]})
			}
			break
		}
		span.Mul(span, big.NewInt(max(sizes[d], 1)))
		if d == row && pitch > 1 {
			p := big.NewInt(pitch)
			span.Add(span, p).Sub(span, big.NewInt(1)).Div(span, p).Mul(span, p)
		}
		if span.Cmp(big.NewInt(MaxUINT)) > 0 {
			return nil, NewMsg("rows.overflow", "the stride of {dim} would be {stride}, past 4294967295 (a UINT)", Args{"dim": labels[perm[k-1]], "stride": span.String()})
		}
	}
	return strides, nil
}

// NamedLayoutsOf are the NamedLayouts of rank n.
func NamedLayoutsOf(n int) []string {
	var out []string
	for _, l := range NamedLayouts {
		if len(l) == n {
			out = append(out, l)
		}
	}
	return out
}

// orderLabels names the dimensions of perm, outermost first.
func orderLabels(labels []string, perm []int) []string {
	out := make([]string, len(perm))
	for k, d := range perm {
		out[k] = labels[d]
	}
	return out
}
