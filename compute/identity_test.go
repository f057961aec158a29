package compute

import (
	"bytes"
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stridescope/stridescope/core"
)

// naiveIdentity is the copy as its definition says it, written apart
// from Identity: element i's coordinate by division, each side's offset
// a dot product, the element's bytes copied one by one.
func naiveIdentity(dst, src []byte, sizes, in, out []int64, e int64) {
	n := int64(1)
	for _, s := range sizes {
		n *= s
	}
	for i := range n {
		rest, io, oo := i, int64(0), int64(0)
		for d := len(sizes) - 1; d >= 0; d-- {
			c := rest % sizes[d]
			rest /= sizes[d]
			io += c * in[d]
			oo += c * out[d]
		}
		for b := range e {
			dst[oo*e+b] = src[io*e+b]
		}
	}
}

// randomCopy draws a conversion: ranks 1 to 8, every data type the
// identity accepts, an output that is a permutation of the dimensions,
// packed or padded, and an input that is packed, permuted, padded or
// broadcast along some axes.
func randomCopy(r *rand.Rand) core.IdentityDesc {
	types := core.IdentityDataTypes(core.NewestFeatureLevel)
	dt := types[r.IntN(len(types))]
	rank := 1 + r.IntN(8)
	sizes := make([]int64, rank)
	budget := int64(2048)
	for d := range sizes {
		s := int64(1 + r.IntN(4))
		if r.IntN(3) == 0 {
			s = 1
		}
		if budget/s < 1 {
			s = 1
		}
		budget /= s
		sizes[d] = s
	}
	strided := func(broadcast bool) []int64 {
		perm := r.Perm(rank)
		st := make([]int64, rank)
		pitch := int64(1)
		for k := rank - 1; k >= 0; k-- {
			d := perm[k]
			st[d] = pitch
			pitch = pitch*sizes[d] + int64(r.IntN(2)*r.IntN(3)) // sometimes padded
			if broadcast && r.IntN(4) == 0 {
				st[d] = 0
			}
		}
		return st
	}
	in := strided(r.IntN(3) == 0)
	if r.IntN(4) == 0 {
		in = nil // packed, Strides = nullptr
	}
	return core.IdentityDesc{
		Input:  core.TensorDesc{DataType: dt, Sizes: sizes, Strides: in},
		Output: core.TensorDesc{DataType: dt, Sizes: sizes, Strides: strided(false)},
	}
}

// TestIdentityMatchesNaiveCopy: for 2,500 random conversions the output
// buffer Identity writes equals the naive copy's byte for byte, the
// cells no element reaches included: a reference written in Go, which
// runs everywhere; TestIdentityMatchesNumPy holds both to NumPy where
// python3 has it (CI).
func TestIdentityMatchesNaiveCopy(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 1))
	seen := map[string]bool{}
	for c := range 2500 {
		desc := randomCopy(r)
		id, err := core.NewIdentity(desc)
		if err != nil {
			t.Fatalf("case %d: %+v: %v", c, desc, err)
		}
		e := id.Input.DataType.Bits() / 8
		src := make([]byte, id.Input.BufferSizeInBytes())
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		got := bytes.Repeat([]byte{0xA5}, int(id.Output.BufferSizeInBytes()))
		want := slices.Clone(got)
		in, out := IdentityWalks(id)
		if err := Identity(got, src, in, out, int(e)); err != nil {
			t.Fatalf("case %d: %v", c, err)
		}
		naiveIdentity(want, src, id.Input.Sizes, id.Input.Strides, id.Output.Strides, e)
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d: %v sizes %v in %v out %v: buffers differ", c, id.Input.DataType, id.Input.Sizes, id.Input.Strides, id.Output.Strides)
		}
		seen[id.Input.DataType.String()] = true
		seen["rank"+string(rune('0'+id.Input.Rank()))] = true
		if id.Input.HasBroadcast() {
			seen["broadcast"] = true
		}
		if id.Output.IsPadded() == core.TriTrue {
			seen["padded"] = true
		}
	}
	if len(seen) < 11+8+2 {
		t.Errorf("the cases covered only %v", seen)
	}
}

func TestIdentityRefusesWalksOutsideTheBuffers(t *testing.T) {
	w := Walk{Sizes: []int64{2, 3}, Strides: []int64{3, 1}}
	cases := []struct {
		name     string
		dst, src int
		in, out  Walk
		e        int
		want     error
	}{
		{"fits", 24, 24, w, w, 4, nil},
		{"source short", 24, 23, w, w, 4, ErrOutOfBounds},
		{"destination short", 20, 24, w, w, 4, ErrOutOfBounds},
		{"sizes differ", 24, 24, w, Walk{Sizes: []int64{3, 2}, Strides: []int64{2, 1}}, 4, ErrInvalidWalk},
		{"negative stride", 24, 24, Walk{Sizes: []int64{2, 3}, Strides: []int64{3, -1}, Base: 2}, w, 4, ErrInvalidWalk},
		{"huge stride", 24, 24, Walk{Sizes: []int64{2, 3}, Strides: []int64{1 << 62, 1}}, w, 4, ErrOutOfBounds},
	}
	for _, c := range cases {
		err := Identity(make([]byte, c.dst), make([]byte, c.src), c.in, c.out, c.e)
		if !errors.Is(err, c.want) || (c.want == nil) != (err == nil) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}

// TestInPlaceAgreesWithRunningIt: copying within one buffer in row-major
// order gives the out-of-place result exactly when InPlace finds no
// element overwritten before it is read; the element it names is.
func TestInPlaceAgreesWithRunningIt(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 2))
	clobbered, safe, race := 0, 0, 0
	for c := range 1500 {
		desc := randomCopy(r)
		desc.Input.DataType, desc.Output.DataType = core.Int32, core.Int32
		id, err := core.NewIdentity(desc)
		if err != nil {
			t.Fatal(err)
		}
		in, out := IdentityWalks(id)
		rep, err := InPlace(context.Background(), in, out)
		if err != nil || !rep.Known {
			t.Fatalf("case %d: %+v %v", c, rep, err)
		}
		cells := max(id.Input.BufferElementCount(), id.Output.BufferElementCount())
		buf := make([]int64, cells)
		for i := range buf {
			buf[i] = int64(i) + 1000 // every cell a value of its own
		}
		orig := slices.Clone(buf)
		ins, outs := make([]int64, in.Len()), make([]int64, in.Len())
		Offsets(in, 0, ins)
		Offsets(out, 0, outs)
		for i := range ins {
			buf[outs[i]] = buf[ins[i]]
		}
		differs := false
		for i := range ins {
			if buf[outs[i]] != orig[ins[i]] {
				differs = true
			}
		}
		switch {
		case rep.Safe:
			safe++
			if differs {
				t.Fatalf("case %d: reported safe, the copy differs", c)
			}
		case rep.Clobbered:
			clobbered++
			if !differs || rep.Writer >= rep.Reader || outs[rep.Writer] != rep.Cell || ins[rep.Reader] != rep.Cell {
				t.Fatalf("case %d: %+v, differs %v", c, rep, differs)
			}
		default:
			race++
			if differs || !rep.Race || outs[rep.Writer] != rep.Cell || ins[rep.Reader] != rep.Cell || rep.Reader >= rep.Writer {
				t.Fatalf("case %d: %+v, differs %v", c, rep, differs)
			}
		}
	}
	if clobbered == 0 || safe == 0 || race == 0 {
		t.Errorf("safe %d, clobbered %d, race %d: some kind never came up", safe, clobbered, race)
	}
}

func TestInPlaceLargeIsUnknownUnlessSameStrides(t *testing.T) {
	sizes := []int64{65535, 65537}
	same, _ := InPlace(context.Background(), Walk{Sizes: sizes, Strides: []int64{65537, 1}}, Walk{Sizes: sizes, Strides: []int64{65537, 1}})
	if !same.Known || !same.Safe {
		t.Errorf("same strides: %+v", same)
	}
	tr, _ := InPlace(context.Background(), Walk{Sizes: sizes, Strides: []int64{65537, 1}}, Walk{Sizes: sizes, Strides: []int64{1, 65535}})
	if tr.Known {
		t.Errorf("a transpose of 2^32-1 elements was visited: %+v", tr)
	}
}
