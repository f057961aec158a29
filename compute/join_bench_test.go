package compute

import (
	"context"
	"testing"

	"github.com/stridescope/stridescope/core"
)

// The join and split of two 2048×2048 FLOAT32 tensors (16 MiB each) along
// either axis, against one memcpy of the same 32 MiB: along axis 0 each
// input is one contiguous run of the output, along axis 1 2,048 rows of
// 8 KiB each, interleaved.
func benchJoin(b *testing.B, axis int64) {
	d := core.JoinDesc{Inputs: []core.TensorDesc{{DataType: core.Float32, Sizes: []int64{2048, 2048}}, {DataType: core.Float32, Sizes: []int64{2048, 2048}}}, Axis: axis}
	j, err := core.NewJoin(d)
	if err != nil {
		b.Fatal(err)
	}
	srcs := [][]byte{make([]byte, 16<<20), make([]byte, 16<<20)}
	dst := make([]byte, 32<<20)
	b.SetBytes(32 << 20)
	b.ResetTimer()
	for range b.N {
		if err := Join(context.Background(), dst, srcs, j); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkJoinAxis0(b *testing.B) { benchJoin(b, 0) }
func BenchmarkJoinAxis1(b *testing.B) { benchJoin(b, 1) }

func benchSplit(b *testing.B, axis int64) {
	in := core.TensorDesc{DataType: core.Float32, Sizes: []int64{2048, 4096}}
	s, err := core.NewSplit(core.SplitDesc{Input: in, Outputs: core.SplitOutputs(core.Float32, in.Sizes, 1, []int64{2048, 2048}), Axis: 1})
	if axis == 0 {
		in.Sizes = []int64{4096, 2048}
		s, err = core.NewSplit(core.SplitDesc{Input: in, Outputs: core.SplitOutputs(core.Float32, in.Sizes, 0, []int64{2048, 2048}), Axis: 0})
	}
	if err != nil {
		b.Fatal(err)
	}
	src := make([]byte, 32<<20)
	dsts := [][]byte{make([]byte, 16<<20), make([]byte, 16<<20)}
	b.SetBytes(32 << 20)
	b.ResetTimer()
	for range b.N {
		if err := Split(context.Background(), dsts, src, s); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkSplitAxis0(b *testing.B) { benchSplit(b, 0) }
func BenchmarkSplitAxis1(b *testing.B) { benchSplit(b, 1) }

// BenchmarkJoinMemcpy is the floor: the same 32 MiB in one copy().
func BenchmarkJoinMemcpy(b *testing.B) {
	src, dst := make([]byte, 32<<20), make([]byte, 32<<20)
	b.SetBytes(32 << 20)
	b.ResetTimer()
	for range b.N {
		copy(dst, src)
	}
}
