package slice1

import "testing"

func TestNested(t *testing.T) {
	for _, tc := range []struct {
		sizes []int64
		vals  []string
		want  string
	}{
		{[]int64{1, 1, 2, 2}, []string{"2", "4", "10", "12"}, "[[2, 4], [10, 12]]"},
		{[]int64{3}, []string{"1", "2", "3"}, "[1, 2, 3]"},
		{[]int64{1}, []string{"7"}, "[7]"},
		{[]int64{2, 1, 2}, []string{"1", "2", "3", "4"}, "[[[1, 2]], [[3, 4]]]"},
	} {
		if got := nested(tc.sizes, tc.vals); got != tc.want {
			t.Errorf("nested(%v) = %q, want %q", tc.sizes, got, tc.want)
		}
	}
}
