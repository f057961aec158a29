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

// naiveAxis is the definition of an AxisMap, element by element.
func naiveAxis(m AxisMap, src []byte, elemSize int, fill []byte) []byte {
	n := m.Len()
	out := make([]byte, 0, n*int64(elemSize))
	sizes := m.Sizes()
	coord := make([]int64, len(sizes))
	for range n {
		off, isFill := m.Base, false
		for d, c := range coord {
			t := m.Tables[d][c]
			if t < 0 {
				isFill = true
			}
			off += t * m.Strides[d]
		}
		if isFill {
			out = append(out, fill...)
		} else {
			out = append(out, src[off*int64(elemSize):(off+1)*int64(elemSize)]...)
		}
		for d := len(coord) - 1; d >= 0; d-- {
			if coord[d]++; coord[d] < sizes[d] {
				break
			}
			coord[d] = 0
		}
	}
	return out
}

// randomAxisMap draws a map over a source of elems elements: tables of
// fills, runs forwards and backwards and random coordinates, strides
// signed or 0, the base placing every read inside the source.
func randomAxisMap(r *rand.Rand) (AxisMap, int64) {
	rank := 1 + r.IntN(4)
	m := AxisMap{Tables: make([][]int64, rank), Strides: make([]int64, rank)}
	for d := range rank {
		in := int64(1 + r.IntN(6))
		t := make([]int64, r.IntN(9)+1)
		start := r.Int64N(in)
		for o := range t {
			switch r.IntN(4) {
			case 0:
				t[o] = -1
			case 1:
				t[o] = r.Int64N(in)
			default:
				t[o] = (start + int64(o)) % in
			}
		}
		m.Tables[d] = t
		m.Strides[d] = int64(r.IntN(13) - 4)
	}
	// Each axis's extremes bound its part of the sum.
	var lo, span int64
	for d, t := range m.Tables {
		var a, b int64
		for _, c := range t {
			if c >= 0 {
				a, b = min(a, c*m.Strides[d]), max(b, c*m.Strides[d])
			}
		}
		lo += a
		span += b - a
	}
	m.Base = -lo + int64(r.IntN(3))
	return m, m.Base + span + 1
}

// TestAxisCopyMatchesNaive: 3,000 random maps, element sizes 1 to 8,
// AxisCopy's output equals the definition's byte for byte, and Sources,
// in chunks of any size, gives the offsets the definition reads.
func TestAxisCopyMatchesNaive(t *testing.T) {
	r := rand.New(rand.NewPCG(40, 1))
	for c := range 3000 {
		m, elems := randomAxisMap(r)
		e := []int{1, 2, 4, 8, 3}[r.IntN(5)]
		src := make([]byte, elems*int64(e))
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		fill := bytes.Repeat([]byte{0xEE}, e)
		want := naiveAxis(m, src, e, fill)
		got := make([]byte, len(want))
		if err := AxisCopy(context.Background(), got, src, m, e, fill); err != nil {
			t.Fatalf("case %d: %+v: %v", c, m, err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d: %+v e %d:\n got %x\nwant %x", c, m, e, got, want)
		}
		// Sources in random chunks.
		all := make([]int64, 0, m.Len())
		for first := int64(0); first < m.Len(); {
			chunk := make([]int64, 1+r.IntN(7))
			k := m.Sources(first, chunk)
			if k == 0 {
				t.Fatalf("case %d: Sources(%d) wrote nothing", c, first)
			}
			all = append(all, chunk[:k]...)
			first += int64(k)
		}
		for i, off := range all {
			el := want[i*e : (i+1)*e]
			if off < 0 {
				if !bytes.Equal(el, fill) {
					t.Fatalf("case %d: Sources says element %d is a fill, the definition reads %x", c, i, el)
				}
			} else if !bytes.Equal(el, src[off*int64(e):(off+1)*int64(e)]) {
				t.Fatalf("case %d: element %d: Sources says offset %d", c, i, off)
			}
		}
	}
}

func TestAxisCopyRefuses(t *testing.T) {
	ok := AxisMap{Tables: [][]int64{{-1, 0, 1, -1}}, Strides: []int64{1}}
	tests := []struct {
		name      string
		m         AxisMap
		dst, src  int
		elemSize  int
		fillBytes int
	}{
		{"reads past src", ok, 16, 4, 4, 4},
		{"dst too short", ok, 12, 8, 4, 4},
		{"dst too long", ok, 20, 8, 4, 4},
		{"fill of the wrong size", ok, 16, 8, 4, 2},
		{"coordinate below -1", AxisMap{Tables: [][]int64{{-2}}, Strides: []int64{1}}, 4, 8, 4, 4},
		{"negative offset", AxisMap{Tables: [][]int64{{0, 1}}, Strides: []int64{-1}}, 8, 8, 4, 4},
		{"strides and tables disagree", AxisMap{Tables: [][]int64{{0}}, Strides: []int64{1, 1}}, 4, 8, 4, 4},
		{"offsets overflow", AxisMap{Tables: [][]int64{{1 << 40}}, Strides: []int64{1 << 40}}, 4, 8, 4, 4},
		{"no element size", ok, 0, 0, 0, 0},
	}
	for _, tt := range tests {
		err := AxisCopy(context.Background(), make([]byte, tt.dst), make([]byte, tt.src), tt.m, tt.elemSize, make([]byte, tt.fillBytes))
		if !errors.Is(err, ErrAxisMap) {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := AxisCopy(ctx, make([]byte, 16), make([]byte, 8), ok, 4, make([]byte, 4)); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

// TestRowSegments: the middle of a padded row is one run.
func TestRowSegments(t *testing.T) {
	// REFLECTION of 6 elements by 2 and 2, 4-byte elements, stride 1.
	off := []int64{8, 4, 0, 4, 8, 12, 16, 20, 16, 12}
	got := rowSegments(off, 4)
	want := []segment{{8, 1, false}, {4, 1, false}, {0, 6, false}, {16, 1, false}, {12, 1, false}}
	if !slices.Equal(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
	got = rowSegments([]int64{noSource, noSource, 0, 4, noSource}, 4)
	want = []segment{{noSource, 2, true}, {0, 2, false}, {noSource, 1, true}}
	if !slices.Equal(got, want) {
		t.Errorf("%v, want %v", got, want)
	}
}

// TestPaddingMapPageExample3 copies the page's Example 3 through the
// engine on a padded input (row pitch 6).
func TestPaddingMapPageExample3(t *testing.T) {
	p, err := core.NewPadding1(core.Padding1Desc{
		Input: core.TensorDesc{DataType: core.UInt8, Sizes: []int64{1, 1, 4, 4}, Strides: []int64{24, 24, 6, 1}},
		Mode:  core.PadReflection, StartPadding: []int64{0, 0, 1, 2}, EndPadding: []int64{0, 0, 3, 4},
	})
	if err != nil {
		t.Fatal(err)
	}
	src := []byte{1, 2, 3, 4, 0, 0, 5, 6, 7, 8, 0, 0, 1, 2, 3, 4, 0, 0, 5, 6, 7, 8}
	got := make([]byte, 80)
	if err := AxisCopy(context.Background(), got, src, PaddingMap(p), 1, []byte{0}); err != nil {
		t.Fatal(err)
	}
	row0, row1 := []byte{7, 6, 5, 6, 7, 8, 7, 6, 5, 6}, []byte{3, 2, 1, 2, 3, 4, 3, 2, 1, 2}
	for r := range 8 {
		want := row0
		if r%2 == 1 {
			want = row1
		}
		if !bytes.Equal(got[r*10:r*10+10], want) {
			t.Errorf("row %d: %v, the page prints %v", r, got[r*10:r*10+10], want)
		}
	}
}

// TestAxisCopyStreams holds the non-temporal path (long runs and fill
// rows written by streamTo, from any alignment) to the definition.
func TestAxisCopyStreams(t *testing.T) {
	if !haveSSE || !useFast {
		t.Skip("no non-temporal stores on this architecture")
	}
	old := streamMin
	streamMin = 0
	defer func() { streamMin = old }()
	r := rand.New(rand.NewPCG(40, 4))
	for c := range 300 {
		mode := core.PaddingModes()[r.IntN(5)]
		sizes := []int64{1 + r.Int64N(4), 1 + r.Int64N(400)}
		p, err := core.NewPadding1(core.Padding1Desc{
			Input: core.TensorDesc{DataType: core.UInt8, Sizes: sizes},
			Mode:  mode, StartPadding: []int64{r.Int64N(3), r.Int64N(70)}, EndPadding: []int64{r.Int64N(3), r.Int64N(70)},
		})
		if err != nil {
			t.Fatal(err)
		}
		e := []int{1, 2, 4, 8}[r.IntN(4)]
		m := PaddingMap(p)
		m.Strides = []int64{sizes[1], 1}
		src := make([]byte, sizes[0]*sizes[1]*int64(e))
		for i := range src {
			src[i] = byte(r.Uint32())
		}
		fill := bytes.Repeat([]byte{0xEE}, e)
		want := naiveAxis(m, src, e, fill)
		// dst at every alignment within a line.
		shift := r.IntN(64)
		buf := make([]byte, len(want)+shift)
		got := buf[shift:]
		if err := AxisCopy(context.Background(), got, src, m, e, fill); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("case %d: %v sizes %v e %d: streamed output differs", c, mode, sizes, e)
		}
	}
}
