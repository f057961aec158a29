package compute

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// naiveWalks is the identity by its definition, bases included: element
// i's coordinate by division, each side's offset a dot product, its
// bytes copied one by one, in row-major order.
func naiveWalks(dst, src []byte, in, out Walk, e int64) {
	n := in.Len()
	for i := range n {
		rest, io, oo := i, in.Base, out.Base
		for d := len(in.Sizes) - 1; d >= 0; d-- {
			c := rest % in.Sizes[d]
			rest /= in.Sizes[d]
			io += c * in.Strides[d]
			oo += c * out.Strides[d]
		}
		for b := range e {
			dst[oo*e+b] = src[io*e+b]
		}
	}
}

// layoutStrides are the strides of a layout of sizes whose dimensions,
// outermost first, are order, each padded by pad[k] elements beyond the
// span of the ones inside it (pad nil: packed).
func layoutStrides(sizes []int64, order []int, pad []int64) []int64 {
	st := make([]int64, len(sizes))
	pitch := int64(1)
	for k := len(order) - 1; k >= 0; k-- {
		d := order[k]
		st[d] = pitch
		pitch *= sizes[d]
		if pad != nil {
			pitch += pad[k]
		}
	}
	return st
}

// walkCells is the number of cells a walk's buffer needs.
func walkCells(w Walk) int64 {
	last, _ := lastOffset(w)
	return last + 1
}

type idCase struct {
	name    string
	in, out Walk
}

// identityCases are the edge cases of the tiled copy: sizes that are not
// multiples of a tile (16 x 16 for 4-byte elements, 8 x 8 for 8-byte
// ones, 64/e elements along I) or of a block, rank 1, size-1 dimensions,
// a broadcast input, padded outputs (the portable tiles rather than the
// gather), bases, ranks up to 8.
func identityCases() []idCase {
	var cs []idCase
	add := func(name string, sizes, in, out []int64, inBase, outBase int64) {
		cs = append(cs, idCase{name, Walk{Sizes: sizes, Strides: in, Base: inBase}, Walk{Sizes: sizes, Strides: out, Base: outBase}})
	}
	for _, sz := range [][2]int64{{16, 16}, {17, 33}, {31, 47}, {64, 64}, {100, 37}, {3, 200}, {200, 3}, {48, 1000}, {1000, 48}, {1, 40}, {40, 1}} {
		r, c := sz[0], sz[1]
		add(fmt.Sprintf("transpose-%dx%d", r, c), []int64{r, c}, []int64{c, 1}, []int64{1, r}, 0, 0)
	}
	add("rank1", []int64{37}, []int64{1}, []int64{1}, 0, 0)
	add("rank1-strided", []int64{37}, []int64{3}, []int64{2}, 1, 2)
	add("single", []int64{1}, []int64{0}, []int64{0}, 4, 3)
	add("size1-dims", []int64{1, 17, 1, 19, 1}, []int64{323, 19, 19, 1, 1}, []int64{1, 1, 17, 17, 323}, 0, 0)
	nchw := []int64{2, 5, 7, 9}
	nhwc := layoutStrides(nchw, []int{0, 2, 3, 1}, nil)
	add("nchw-nhwc", nchw, layoutStrides(nchw, []int{0, 1, 2, 3}, nil), nhwc, 0, 0)
	add("nhwc-nchw", nchw, nhwc, layoutStrides(nchw, []int{0, 1, 2, 3}, nil), 0, 0)
	big := []int64{1, 32, 16, 48}
	add("nchw-nhwc-32x16x48", big, layoutStrides(big, []int{0, 1, 2, 3}, nil), layoutStrides(big, []int{0, 2, 3, 1}, nil), 0, 0)
	add("nhwc-nchw-32x16x48", big, layoutStrides(big, []int{0, 2, 3, 1}, nil), layoutStrides(big, []int{0, 1, 2, 3}, nil), 0, 0)
	odd := []int64{3, 19, 5, 21}
	add("nchw-nhwc-padded-out", odd, layoutStrides(odd, []int{0, 1, 2, 3}, nil), layoutStrides(odd, []int{0, 2, 3, 1}, []int64{0, 5, 2, 3}), 0, 0)
	add("nchw-nhwc-padded-in", odd, layoutStrides(odd, []int{0, 1, 2, 3}, []int64{1, 0, 7, 0}), layoutStrides(odd, []int{0, 2, 3, 1}, nil), 0, 0)
	add("transpose-bases", []int64{23, 29}, []int64{29, 1}, []int64{1, 23}, 5, 7)
	add("transpose-padded-out", []int64{40, 70}, []int64{70, 1}, []int64{1, 43}, 0, 1)
	add("broadcast-rows", []int64{13, 21}, []int64{0, 1}, []int64{1, 13}, 0, 0)
	add("broadcast-inner", []int64{21, 13}, []int64{1, 0}, []int64{1, 21}, 2, 0)
	add("broadcast-3d", []int64{5, 7, 9}, []int64{9, 0, 1}, layoutStrides([]int64{5, 7, 9}, []int{2, 0, 1}, nil), 0, 0)
	add("broadcast-all", []int64{6, 20}, []int64{0, 0}, []int64{1, 6}, 3, 0)
	add("strided-both", []int64{20, 30}, []int64{2, 60}, []int64{90, 3}, 0, 0)
	eight := []int64{2, 3, 2, 3, 2, 3, 2, 3}
	add("rank8-reversed", eight, layoutStrides(eight, []int{0, 1, 2, 3, 4, 5, 6, 7}, nil), layoutStrides(eight, []int{7, 6, 5, 4, 3, 2, 1, 0}, nil), 0, 0)
	wide := []int64{2, 1, 2, 3, 1, 2, 17, 18}
	add("rank8-tiles", wide, layoutStrides(wide, []int{0, 1, 2, 3, 4, 5, 6, 7}, nil), layoutStrides(wide, []int{3, 0, 7, 1, 2, 4, 5, 6}, nil), 0, 0)
	add("rank8-padded", wide, layoutStrides(wide, []int{5, 1, 2, 3, 4, 0, 7, 6}, []int64{1, 0, 2, 0, 0, 1, 3, 0}), layoutStrides(wide, []int{0, 1, 2, 3, 4, 5, 7, 6}, []int64{0, 0, 0, 0, 2, 0, 1, 5}), 1, 2)
	r := rand.New(rand.NewPCG(39, 3))
	for k := range 12 {
		rank := 2 + r.IntN(7)
		sizes := make([]int64, rank)
		for d := range sizes {
			sizes[d] = 1 + r.Int64N(5)
		}
		sizes[r.IntN(rank)] = 16 + r.Int64N(20)
		sizes[r.IntN(rank)] = 16 + r.Int64N(20)
		pad := func() []int64 {
			if r.IntN(2) == 0 {
				return nil
			}
			p := make([]int64, rank)
			for d := range p {
				p[d] = r.Int64N(3)
			}
			return p
		}
		in, out := layoutStrides(sizes, r.Perm(rank), pad()), layoutStrides(sizes, r.Perm(rank), pad())
		if r.IntN(4) == 0 {
			in[r.IntN(rank)] = 0
		}
		add(fmt.Sprintf("random-%d", k), sizes, in, out, r.Int64N(3), r.Int64N(3))
	}
	return cs
}

type idVariant struct {
	force  idMode // or -1
	fast   bool
	small  bool // blocks of 16 elements, non-temporal stores from any size
	along  int  // idAlongO
	avx512 bool
}

func (v idVariant) String() string {
	m := "auto"
	if v.force != 255 {
		m = [...]string{"rows", "tile", "tile-avx512", "gather"}[v.force]
	}
	if !v.fast {
		m += "/safe"
	}
	if v.small {
		m += "/small"
	}
	m += fmt.Sprintf("/along%d", v.along)
	if !v.avx512 {
		m += "/noavx512"
	}
	return m
}

var idVariants = func() []idVariant {
	var vs []idVariant
	for _, f := range []idMode{255, idRows, idTile, idTileWide, idGather} {
		for _, small := range []bool{false, true} {
			vs = append(vs, idVariant{f, true, small, -1, true})
		}
	}
	vs = append(vs,
		idVariant{idTileWide, true, true, 0, true}, idVariant{idTileWide, true, true, 1, true},
		idVariant{255, true, false, -1, false}, idVariant{idTile, true, true, -1, false},
		idVariant{255, false, false, -1, true}, idVariant{idTile, false, true, -1, true}, idVariant{idGather, false, false, -1, true})
	return vs
}()

func setIdentityVariant(t testing.TB, v idVariant) {
	oldForce, oldFast, oldBI, oldBO, oldAlong, old512, oldStream := idForce, useFast, identityBlockI, identityBlockO, idAlongO, useAVX512, streamMin
	idForce = int(v.force)
	if v.force == 255 {
		idForce = -1
	}
	useFast = v.fast && fastArch
	idAlongO = v.along
	useAVX512 = useAVX512 && v.avx512
	if v.small {
		identityBlockI, identityBlockO, streamMin = 1, 1, 0
	}
	t.Cleanup(func() {
		idForce, useFast, identityBlockI, identityBlockO, idAlongO, useAVX512, streamMin = oldForce, oldFast, oldBI, oldBO, oldAlong, old512, oldStream
	})
}

// TestIdentityTilesMatchNaive runs every edge case at every element size
// through every execution that applies (forced, with small blocks and
// non-temporal stores from any size, both strip directions, the portable
// and the safe kernels) against the naive copy, byte for byte, the
// cells no element reaches included, and checks that each execution
// came up.
func TestIdentityTilesMatchNaive(t *testing.T) {
	seen := map[string]bool{}
	for _, v := range idVariants {
		t.Run(v.String(), func(t *testing.T) {
			setIdentityVariant(t, v)
			for _, c := range identityCases() {
				for _, e := range []int64{1, 2, 4, 8} {
					src := make([]byte, walkCells(c.in)*e+int64(e)*3)
					for i := range src {
						src[i] = byte(i*7 + 3 + i>>8)
					}
					// dst in the middle of a larger buffer, off the line
					// boundaries by a few bytes in some cases.
					back := bytes.Repeat([]byte{0xA5}, int(walkCells(c.out)*e+128))
					skew := int(e) * int(c.out.Base%2) * 3
					got := back[skew : skew+int(walkCells(c.out)*e)]
					want := bytes.Repeat([]byte{0xA5}, len(got))
					naiveWalks(want, src, c.in, c.out, e)
					if err := Identity(got, src, c.in, c.out, int(e)); err != nil {
						t.Fatalf("%s e=%d: %v", c.name, e, err)
					}
					plan, _ := ExplainIdentity(c.in, c.out, int(e))
					if !bytes.Equal(got, want) {
						t.Fatalf("%s e=%d (%s): the buffers differ", c.name, e, plan)
					}
					seen[strings.Fields(plan)[0]] = true
					seen[fmt.Sprintf("%s/e%d", strings.Fields(plan)[0], e)] = true
				}
			}
		})
	}
	for _, m := range []string{"rows/copy", "rows/strided", "tile", "gather"} {
		if !seen[m] {
			t.Errorf("no case ran as %s: %v", m, seen)
		}
	}
	if useAVX512 && fastArch && (!seen["tile-avx512/e4"] || !seen["tile-avx512/e8"]) {
		t.Errorf("no case ran as tile-avx512 with 4- or 8-byte elements: %v", seen)
	}
}

// TestIdentityPlans: the conversions of the benchmark take the tiled and
// merged paths, an output two elements share runs in row-major order.
func TestIdentityPlans(t *testing.T) {
	nchw := []int64{1, 64, 512, 512}
	packed := layoutStrides(nchw, []int{0, 1, 2, 3}, nil)
	nhwc := layoutStrides(nchw, []int{0, 2, 3, 1}, nil)
	tiled := "tile"
	if useAVX512 && useFast {
		tiled = "tile-avx512 streamed"
	}
	for _, c := range []struct {
		in, out Walk
		e       int
		want    string
	}{
		{Walk{Sizes: nchw, Strides: packed}, Walk{Sizes: nchw, Strides: nhwc}, 4, tiled + " sizes=[262144 64] in=[1 262144] out=[64 1] I=0 O=1"},
		{Walk{Sizes: nchw, Strides: nhwc}, Walk{Sizes: nchw, Strides: packed}, 4, tiled + " sizes=[64 262144] in=[1 64] out=[262144 1] I=0 O=1"},
		{Walk{Sizes: nchw, Strides: nhwc}, Walk{Sizes: nchw, Strides: packed}, 2, "gather sizes=[64 262144] in=[1 64] out=[262144 1]: "},
		{Walk{Sizes: nchw, Strides: packed}, Walk{Sizes: nchw, Strides: packed}, 4, "rows/copy sizes=[16777216] in=[1] out=[1]"},
		{Walk{Sizes: []int64{4, 5}, Strides: []int64{5, 1}}, Walk{Sizes: []int64{4, 5}, Strides: []int64{1, 1}}, 4, "ordered"},
	} {
		got, err := ExplainIdentity(c.in, c.out, c.e)
		if err != nil || !strings.HasPrefix(got, c.want) {
			t.Errorf("%v -> %v e=%d: %q, %v; want %q", c.in.Strides, c.out.Strides, c.e, got, err, c.want)
		}
	}
}

// TestIdentityOverlappingWritesInRowMajorOrder: an output whose elements
// share cells (which core refuses) gets the last element's value, as
// the row-major definition has it.
func TestIdentityOverlappingWritesInRowMajorOrder(t *testing.T) {
	in := Walk{Sizes: []int64{3, 4}, Strides: []int64{4, 1}}
	out := Walk{Sizes: []int64{3, 4}, Strides: []int64{1, 1}}
	src := make([]byte, 12)
	for i := range src {
		src[i] = byte(10 + i)
	}
	got, want := make([]byte, 6), make([]byte, 6)
	naiveWalks(want, src, in, out, 1)
	if err := Identity(got, src, in, out, 1); err != nil || !bytes.Equal(got, want) {
		t.Errorf("%v %v, want %v", got, err, want)
	}
}

// TestIdentityInPlaceIsRowMajor: with dst and src one buffer (DirectML
// lets the output alias the input) the copy runs in row-major order, the
// order InPlace reports on, whatever the tiled path would do.
func TestIdentityInPlaceIsRowMajor(t *testing.T) {
	sizes := []int64{40, 48}
	in := Walk{Sizes: sizes, Strides: []int64{48, 1}}
	out := Walk{Sizes: sizes, Strides: []int64{1, 40}}
	for _, e := range []int64{1, 4} {
		buf := make([]byte, 40*48*e)
		for i := range buf {
			buf[i] = byte(i * 5)
		}
		want := slices.Clone(buf)
		// Row-major, element by element, in one buffer.
		ins, outs := make([]int64, 40*48), make([]int64, 40*48)
		Offsets(in, 0, ins)
		Offsets(out, 0, outs)
		for i := range ins {
			copy(want[outs[i]*e:outs[i]*e+e], want[ins[i]*e:ins[i]*e+e])
		}
		if err := Identity(buf, buf, in, out, int(e)); err != nil || !bytes.Equal(buf, want) {
			t.Errorf("e=%d: in place differs from row-major (%v)", e, err)
		}
		// A dst that is a part of src's buffer overlaps it too.
		buf2 := make([]byte, 2*40*48*e)
		if err := Identity(buf2[e:e+40*48*e], buf2[:40*48*e], in, out, int(e)); err != nil {
			t.Error(err)
		}
	}
}

// countCtx is done after its Err has been asked n times.
type countCtx struct {
	context.Context
	n, asked int
}

func (c *countCtx) Err() error {
	c.asked++
	if c.asked > c.n {
		return context.Canceled
	}
	return nil
}

// TestIdentityLooksAtTheContext: a copy of 4 Mi elements asks its
// context a few times on every path and stops when it is done.
func TestIdentityLooksAtTheContext(t *testing.T) {
	sizes := []int64{2048, 2048}
	src := make([]byte, 2*2048*2048*4)
	dst := make([]byte, len(src))
	for _, c := range []struct {
		name    string
		in, out []int64
	}{
		{"tiles", []int64{2048, 1}, []int64{1, 2048}},
		{"rows", []int64{4096, 2}, []int64{2048, 1}},
		{"ordered", []int64{2048, 1}, []int64{0, 1}},
	} {
		for _, force := range []idMode{255, idGather, idTile} {
			v := idVariant{force, true, false, -1, true}
			t.Run(c.name+"/"+v.String(), func(t *testing.T) {
				setIdentityVariant(t, v)
				in, out := Walk{Sizes: sizes, Strides: c.in}, Walk{Sizes: sizes, Strides: c.out}
				ctx := &countCtx{Context: context.Background(), n: 1 << 30}
				if err := IdentityContext(ctx, dst, src, in, out, 4); err != nil {
					t.Fatal(err)
				}
				if ctx.asked < 3 {
					t.Errorf("asked the context %d times", ctx.asked)
				}
				ctx = &countCtx{Context: context.Background(), n: 2}
				if err := IdentityContext(ctx, dst, src, in, out, 4); !errors.Is(err, context.Canceled) {
					t.Errorf("a context done midway: %v", err)
				}
			})
		}
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	in := Walk{Sizes: sizes, Strides: []int64{2048, 1}}
	if err := IdentityContext(cancelled, dst, src, in, in, 4); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled context: %v", err)
	}
}

// FuzzIdentity: walks drawn from the fuzzer's bytes (ranks 1 to 8, sizes
// up to 40, strides up to 40 on either side, zeros included, bases),
// through the automatic choice or a forced execution, against the naive
// copy; an output that shares cells too.
func FuzzIdentity(f *testing.F) {
	f.Add([]byte{2, 1, 17, 33, 1, 17, 33, 1, 0, 0})
	f.Add([]byte{4, 3, 20, 5, 19, 1, 20, 95, 1, 5, 19, 0, 1})
	f.Add([]byte{8, 0, 2, 3, 2, 3, 2, 3, 2, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		e := int64(elemSizes[data[0]&3])
		v := idVariants[int(data[0]>>2)%len(idVariants)]
		rank := 1 + int(data[1]%8)
		data = data[2:]
		next := func() int64 {
			if len(data) == 0 {
				return 1
			}
			b := data[0]
			data = data[1:]
			return int64(b)
		}
		in := Walk{Sizes: make([]int64, rank), Strides: make([]int64, rank)}
		out := Walk{Sizes: in.Sizes, Strides: make([]int64, rank)}
		for d := range rank {
			in.Sizes[d] = 1 + next()%40
			in.Strides[d] = next() % 41
			out.Strides[d] = next() % 41
		}
		in.Base, out.Base = next()%4, next()%4
		if in.Len() > 1<<16 || walkCells(in) > 1<<18 || walkCells(out) > 1<<18 {
			return
		}
		setIdentityVariant(t, v)
		src := make([]byte, walkCells(in)*e)
		for i := range src {
			src[i] = byte(i*7 + 3)
		}
		got := bytes.Repeat([]byte{0xA5}, int(walkCells(out)*e))
		want := slices.Clone(got)
		naiveWalks(want, src, in, out, e)
		if err := Identity(got, src, in, out, int(e)); err != nil {
			t.Fatalf("%+v %+v e=%d: %v", in, out, e, err)
		}
		if !bytes.Equal(got, want) {
			plan, _ := ExplainIdentity(in, out, int(e))
			t.Fatalf("%+v -> %+v e=%d %v (%s): differs", in, out, e, v, plan)
		}
	})
}
