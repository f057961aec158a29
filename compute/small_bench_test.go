package compute

import (
	"testing"

	"github.com/stridescope/stridescope/core"
)

// The small calls of cmd/bench (S1, S2), as Go benchmarks, for profiling
// the cost of one call: go test ./compute -run XXX -bench Small -cpuprofile
// cpu.pprof.
func benchmarkSmall(b *testing.B, desc core.Slice1Desc, elems int64) {
	s, err := core.NewSlice1(desc)
	if err != nil {
		b.Fatal(err)
	}
	e := int64(desc.Input.DataType.Bits() / 8)
	src := make([]byte, elems*e)
	dst := make([]byte, SliceWalk(s).Len()*e)
	b.ReportAllocs()
	for b.Loop() {
		if err := Slice(dst, src, s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSmallS1(b *testing.B) {
	benchmarkSmall(b, core.Slice1Desc{
		Input:         core.TensorDesc{DataType: core.Float32, Sizes: []int64{16, 16, 16}},
		WindowOffsets: []int64{4, 4, 4}, WindowSizes: []int64{8, 8, 8}, WindowStrides: []int64{1, 1, -1},
	}, 16*16*16)
}

func BenchmarkSmallS2(b *testing.B) {
	benchmarkSmall(b, core.Slice1Desc{
		Input:         core.TensorDesc{DataType: core.UInt16, Sizes: []int64{2, 3, 2, 3, 2, 3, 2, 3}},
		WindowOffsets: make([]int64, 8),
		WindowSizes:   []int64{2, 3, 2, 3, 2, 3, 2, 3},
		WindowStrides: []int64{-1, 2, 1, -2, -1, 1, 1, -2},
	}, 1296)
}
