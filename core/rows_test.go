package core

import (
	"slices"
	"strings"
	"testing"
)

func TestRowStrides(t *testing.T) {
	for _, tc := range []struct {
		name  string
		order string
		sizes []int64
		pitch int64
		want  []int64
		code  string
	}{
		// The strides page's padding example: 2x3, rows of 5.
		{"HW rows of 3 padded to 5", "", []int64{2, 3}, 5, []int64{5, 1}, ""},
		{"HW named", "HW", []int64{2, 3}, 5, []int64{5, 1}, ""},
		{"pitch 1 is packed", "", []int64{2, 3}, 1, []int64{3, 1}, ""},
		{"a row already a multiple", "", []int64{2, 8}, 4, []int64{8, 1}, ""},
		// NHWC: a row is W pixels of C channels, 5x3 = 15 padded to 16.
		{"NHWC C=3", "NHWC", []int64{1, 3, 2, 5}, 8, []int64{32, 1, 16, 3}, ""},
		// Changing C changes the padded strides with it: 5x4 = 20 -> 24.
		{"NHWC C=4", "nhwc", []int64{1, 4, 2, 5}, 8, []int64{48, 1, 24, 4}, ""},
		{"NHWC packed", "NHWC", []int64{1, 3, 2, 5}, 1, []int64{30, 1, 15, 3}, ""},
		{"NCHW", "NCHW", []int64{2, 3, 2, 5}, 8, []int64{48, 16, 8, 1}, ""},
		{"NCDHW", "NCDHW", []int64{1, 2, 2, 2, 3}, 4, []int64{32, 16, 8, 4, 1}, ""},
		{"NDHWC", "NDHWC", []int64{1, 2, 2, 2, 3}, 4, []int64{32, 1, 16, 8, 2}, ""},
		{"DHW", "DHW", []int64{2, 2, 3}, 4, []int64{8, 4, 1}, ""},
		// Ranks 6 to 8 have no W: the innermost dimension is the row.
		{"rank 6", "", []int64{1, 1, 1, 1, 2, 3}, 4, []int64{8, 8, 8, 8, 4, 1}, ""},
		{"WH: W outermost", "WH", []int64{2, 3}, 4, nil, "rows.outermost"},
		{"WH packed", "WH", []int64{2, 3}, 1, []int64{1, 2}, ""},
		{"rank 1", "", []int64{7}, 4, nil, "rows.outermost"},
		{"rank 1 packed", "", []int64{7}, 1, []int64{1}, ""},
		{"order of another rank", "NHWC", []int64{2, 3}, 4, nil, "rows.order"},
		{"not an order", "HWC", []int64{2, 3, 4}, 4, nil, "rows.order"},
		{"pitch 0", "", []int64{2, 3}, 0, nil, "rows.pitch"},
		{"pitch past a UINT", "", []int64{2, 3}, MaxUINT + 1, nil, "rows.pitch"},
		{"the largest pitch", "", []int64{1, 3}, MaxUINT, []int64{MaxUINT, 1}, ""},
		{"a stride past a UINT", "", []int64{2, 2, 3}, MaxUINT, nil, "rows.overflow"},
		// (2^32-1)^2 passes 64 bits: the message gives it exactly.
		{"a stride past 64 bits", "", []int64{2, MaxUINT, MaxUINT}, 1, nil, "rows.overflow"},
		{"no dimensions", "", nil, 1, nil, "rows.rank"},
		// A size that breaks its own rule counts as 1 here.
		{"size 0", "", []int64{2, 0}, 4, []int64{4, 1}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := RowStrides(tc.order, tc.sizes, tc.pitch)
			if tc.code != "" {
				m, ok := err.(Msg)
				if !ok || m.Code != tc.code {
					t.Fatalf("RowStrides = %v, %v; want the error %s", got, err, tc.code)
				}
				if tc.name == "a stride past 64 bits" && !strings.Contains(err.Error(), "the stride of D would be 18446744065119617025") {
					t.Errorf("%v, want the exact stride of D", err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("RowStrides = %v, %v; want %v", got, err, tc.want)
			}
			// Pitch 1 is the packed strides of the order.
			if tc.pitch == 1 && tc.order != "" {
				if ls, _ := LayoutStrides(tc.order, tc.sizes); !slices.Equal(ls, got) {
					t.Errorf("pitch 1 gives %v, LayoutStrides %v", got, ls)
				}
			}
		})
	}
}

// TestRowStridesPadEveryRow: for random shapes, orders and pitches, the
// strides of the dimension just outside the row are a multiple of the
// pitch at least the row's extent, every element of the tensor has its
// own offset, and the strides are the packed ones at pitch 1.
func TestRowStridesPadEveryRow(t *testing.T) {
	for _, order := range []string{"HW", "DHW", "NCHW", "NHWC", "NCDHW", "NDHWC"} {
		n := len(order)
		labels := DimensionLabels(n)
		for seed := int64(1); seed <= 40; seed++ {
			sizes := make([]int64, n)
			for i := range sizes {
				sizes[i] = 1 + (seed*int64(7+3*i)+int64(i))%5
			}
			pitch := 1 + seed%9
			s, err := RowStrides(order, sizes, pitch)
			if err != nil {
				t.Fatalf("%s %v pitch %d: %v", order, sizes, pitch, err)
			}
			w := indexOf(labels, "W")
			k := indexOf(orderLabels(labels, memoryOrder(order, labels)), "W")
			outer := indexOf(labels, order[k-1:k])
			if s[outer]%pitch != 0 || s[outer] < s[w]*sizes[w] {
				t.Errorf("%s %v pitch %d: strides %v, the row's outer stride %d", order, sizes, pitch, s, s[outer])
			}
			l, err := NewLayout(TensorDesc{DataType: Float32, Sizes: sizes, Strides: s})
			if err != nil {
				t.Fatalf("%s %v: %v", order, sizes, err)
			}
			if l.HasOverlap() != TriFalse {
				t.Errorf("%s %v pitch %d: strides %v overlap", order, sizes, pitch, s)
			}
			if pitch > 1 {
				continue
			}
			if want, _ := LayoutStrides(order, sizes); !slices.Equal(s, want) {
				t.Errorf("%s %v pitch 1: %v, packed %v", order, sizes, s, want)
			}
		}
	}
}

func memoryOrder(order string, labels []string) []int {
	perm := make([]int, len(order))
	for k := range order {
		perm[k] = indexOf(labels, order[k:k+1])
	}
	return perm
}
