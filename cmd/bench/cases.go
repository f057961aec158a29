package main

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
)

// Case classes.
const (
	classCopy  = "copy"  // a DML_SLICE1 on the 64 MiB cube, GB/s
	classSmall = "small" // S1/S2: ns and allocations per call
	classHL    = "hl"    // the highlight bitmap (compute.Touched)
	// classID is a DML_ELEMENT_WISE_IDENTITY layout conversion
	// (compute.Identity) of the 2^24-element buffer, GB/s, one thread.
	classID = "identity"
)

// cubeElems is the element count of every large input: 256^3 = 4096^2 =
// 8^8.
const cubeElems = 1 << 24

// benchCase is one row of the matrix.
type benchCase struct {
	name  string
	class string
	dtype core.DataType
	n     int64 // input buffer elements (filled with the element index)
	desc  core.Slice1Desc
	// NumPy: setup defines names from flat (the arange buffer), expr is
	// the view.
	setup, expr string

	// identity cases: the conversion (input and output layouts of the
	// same sizes); NumPy times np.ascontiguousarray(view) beside
	// np.copyto.
	id      *core.IdentityDesc
	in, out compute.Walk

	// depth-to-space cases (class copy): the operator's 6-D walk, run by
	// compute.Copy / CopyParallel; NumPy times the reshape-transpose
	// view of ONNX's formula, whose shape and strides are the walk's.
	ds *core.DepthSpaceDesc

	slice *core.Slice1
	walk  compute.Walk
	e     int

	// padding cases: the desc, then the validated padding, its map and
	// np.pad's arguments.
	pad     *core.Padding1Desc
	padded  *core.Padding1
	axis    compute.AxisMap
	padArgs map[string]any
}

func (c *benchCase) outBytes() int64 {
	if c.pad != nil {
		return c.axis.Len() * int64(c.e)
	}
	return c.walk.Len() * int64(c.e)
}

var elemType = map[int]core.DataType{1: core.UInt8, 2: core.UInt16, 4: core.Float32, 8: core.Float64}

func numpyDtype(t core.DataType) string {
	switch t {
	case core.UInt8:
		return "uint8"
	case core.UInt16:
		return "uint16"
	case core.Float32:
		return "float32"
	case core.Float64:
		return "float64"
	}
	return "?"
}

func cube(name string, t core.DataType, off, size, stride []int64, expr string) benchCase {
	return benchCase{
		name: name, class: classCopy, dtype: t, n: cubeElems,
		desc: core.Slice1Desc{
			Input:         core.TensorDesc{DataType: t, Sizes: []int64{256, 256, 256}},
			WindowOffsets: off, WindowSizes: size, WindowStrides: stride,
		},
		setup: "A = flat.reshape(256, 256, 256)",
		expr:  expr,
	}
}

// transposeSides are the sides of the square transposes, the last one
// T-transpose's.
var transposeSides = []int64{64, 256, 1024, 2048, 4096}

// transposeCase names the transpose of side n.
func transposeCase(n int64) string {
	if n == transposeSides[len(transposeSides)-1] {
		return "T-transpose"
	}
	return fmt.Sprintf("T-%d", n)
}

// matrix returns the cases of benchmarks.md, in the order they run.
func matrix() ([]benchCase, error) {
	f32 := core.Float32
	full := []int64{256, 256, 256}
	zero := []int64{0, 0, 0}
	var cs []benchCase
	c1 := func(t core.DataType, sfx string) benchCase {
		return cube("C1-crop"+sfx, t, []int64{0, 1, 8}, []int64{256, 254, 240}, []int64{1, 1, 1}, "A[:, 1:255, 8:248]")
	}
	c3 := func(t core.DataType, sfx string) benchCase {
		return cube("C3-innerstep2"+sfx, t, zero, full, []int64{1, 1, 2}, "A[:, :, ::2]")
	}
	c4 := func(t core.DataType, sfx string) benchCase {
		return cube("C4-revinner"+sfx, t, zero, full, []int64{1, 1, -1}, "A[:, :, ::-1]")
	}
	cs = append(cs,
		cube("C0-full", f32, zero, full, []int64{1, 1, 1}, "A[:, :, :]"),
		c1(f32, ""),
		cube("C2-outerstep", f32, []int64{0, 1, 0}, []int64{256, 255, 256}, []int64{2, 1, 1}, "A[::2, 1:, :]"),
		c3(f32, ""),
		c4(f32, ""),
		cube("C5-mixed", f32, []int64{0, 1, 0}, []int64{256, 255, 256}, []int64{2, 1, -1}, "A[::2, 1:, ::-1]"),
		cube("C6-revall", f32, zero, full, []int64{-1, -1, -1}, "A[::-1, ::-1, ::-1]"),
		benchCase{
			name: "T-transpose", class: classCopy, dtype: f32, n: cubeElems,
			desc: core.Slice1Desc{
				Input:         core.TensorDesc{DataType: f32, Sizes: []int64{4096, 4096}, Strides: []int64{1, 4096}},
				WindowOffsets: []int64{0, 0}, WindowSizes: []int64{4096, 4096}, WindowStrides: []int64{1, 1},
			},
			setup: "M = flat.reshape(4096, 4096)", expr: "M.T",
		},
	)
	// Transposes of every size, for the cost per element as the matrix
	// outgrows the caches (T-transpose is the 4096 x 4096 one).
	for _, n := range transposeSides[:len(transposeSides)-1] {
		cs = append(cs, benchCase{
			name: transposeCase(n), class: classCopy, dtype: f32, n: cubeElems,
			desc: core.Slice1Desc{
				Input:         core.TensorDesc{DataType: f32, Sizes: []int64{n, n}, Strides: []int64{1, n}},
				WindowOffsets: []int64{0, 0}, WindowSizes: []int64{n, n}, WindowStrides: []int64{1, 1},
			},
			setup: fmt.Sprintf("M = flat[:%d].reshape(%d, %d)", n*n, n, n), expr: "M.T",
		})
	}
	cs = append(cs,
		benchCase{
			name: "R8-8d", class: classCopy, dtype: f32, n: cubeElems,
			desc: core.Slice1Desc{
				Input: core.TensorDesc{DataType: f32, Sizes: []int64{8, 8, 8, 8, 8, 8, 8, 8},
					Strides: []int64{32768, 64, 2097152, 1, 4096, 8, 262144, 512}},
				WindowOffsets: []int64{0, 1, 0, 0, 0, 0, 0, 0},
				WindowSizes:   []int64{8, 6, 8, 8, 8, 7, 8, 8},
				WindowStrides: []int64{-1, 1, 1, 2, -1, 1, 1, -1},
			},
			setup: "B = flat.reshape((8,) * 8)",
			expr:  "B.transpose(2, 5, 0, 7, 3, 6, 1, 4)[::-1, 1:7, :, ::2, ::-1, 0:7, :, ::-1]",
		},
	)
	for _, e := range []int{1, 2, 8} {
		sfx := fmt.Sprintf("/e%d", e)
		cs = append(cs, c1(elemType[e], sfx), c3(elemType[e], sfx), c4(elemType[e], sfx))
	}
	for _, l := range []int64{64, 256, 1024, 4096, 65536} {
		cs = append(cs, benchCase{
			name: fmt.Sprintf("RR-%d", l), class: classCopy, dtype: f32, n: cubeElems,
			desc: core.Slice1Desc{
				Input:         core.TensorDesc{DataType: f32, Sizes: []int64{cubeElems / l, l}},
				WindowOffsets: []int64{0, 0}, WindowSizes: []int64{cubeElems / l, l}, WindowStrides: []int64{1, -1},
			},
			setup: fmt.Sprintf("R = flat.reshape(-1, %d)", l), expr: "R[:, ::-1]",
		})
	}
	cs = append(cs,
		benchCase{
			name: "S1", class: classSmall, dtype: f32, n: 16 * 16 * 16,
			desc: core.Slice1Desc{
				Input:         core.TensorDesc{DataType: f32, Sizes: []int64{16, 16, 16}},
				WindowOffsets: []int64{4, 4, 4}, WindowSizes: []int64{8, 8, 8}, WindowStrides: []int64{1, 1, -1},
			},
			setup: "A = flat.reshape(16, 16, 16)", expr: "A[4:12, 4:12, 11:3:-1]",
		},
		benchCase{
			name: "S2", class: classSmall, dtype: core.UInt16, n: 1296,
			desc: core.Slice1Desc{
				Input:         core.TensorDesc{DataType: core.UInt16, Sizes: []int64{2, 3, 2, 3, 2, 3, 2, 3}},
				WindowOffsets: make([]int64, 8),
				WindowSizes:   []int64{2, 3, 2, 3, 2, 3, 2, 3},
				WindowStrides: []int64{-1, 2, 1, -2, -1, 1, 1, -2},
			},
			setup: "C = flat.reshape(2, 3, 2, 3, 2, 3, 2, 3)", expr: "C[::-1, ::2, :, ::-2, ::-1, :, :, ::-2]",
		},
	)
	cs = append(cs, identityCases()...)
	cs = append(cs, depthSpaceCases()...)
	cs = append(cs, paddingCases()...)
	// Highlight bitmaps of the input cells a slice touches.
	for _, c := range cs {
		switch c.name {
		case "C1-crop", "C3-innerstep2", "C4-revinner", "T-transpose", "R8-8d":
			h := c
			h.name = "HL-" + c.name
			h.class = classHL
			h.expr = ""
			cs = append(cs, h)
		}
	}
	for i := range cs {
		c := &cs[i]
		if c.ds != nil {
			if err := c.initDepthSpace(); err != nil {
				return nil, err
			}
			continue
		}
		if c.class == classID {
			if err := c.initIdentity(); err != nil {
				return nil, err
			}
			continue
		}
		if c.class == classPad {
			if err := c.initPadding(); err != nil {
				return nil, err
			}
			continue
		}
		s, err := core.NewSlice1(c.desc)
		if err != nil {
			return nil, fmt.Errorf("case %s: %w", c.name, err)
		}
		c.slice = s
		c.walk = compute.SliceWalk(s)
		c.e = int(c.dtype.Bits() / 8)
		if last := s.Input.IndexOfLastElement(); last >= c.n {
			return nil, fmt.Errorf("case %s: input reaches element %d of %d", c.name, last, c.n)
		}
	}
	return cs, nil
}

// identityCases are the layout conversions of issue #39: NCHW <-> NHWC
// of 1x64x512x512 float32 and the 4096 x 4096 transpose (2^24 elements
// each, 64 MiB), the same NCHW -> NHWC on float16 (as uint16) and on
// float64, the 8-D permutation of R8 without its window, and a packed
// copy (one copy() after normalisation) for reference. The logical
// sizes are the input's, as DirectML has them; the output's strides
// permute them.
func identityCases() []benchCase {
	nchw := []int64{1, 64, 512, 512}
	packed := func(sizes []int64) []int64 {
		st := make([]int64, len(sizes))
		p := int64(1)
		for d := len(sizes) - 1; d >= 0; d-- {
			st[d], p = p, p*sizes[d]
		}
		return st
	}
	nhwcStrides := []int64{512 * 512 * 64, 1, 512 * 64, 64} // of NCHW sizes
	idc := func(name string, t core.DataType, sizes, in, out []int64, setup, expr string) benchCase {
		return benchCase{
			name: name, class: classID, dtype: t, n: cubeElems, setup: setup, expr: expr,
			id: &core.IdentityDesc{
				Input:  core.TensorDesc{DataType: t, Sizes: sizes, Strides: in},
				Output: core.TensorDesc{DataType: t, Sizes: sizes, Strides: out},
			},
		}
	}
	f32 := core.Float32
	// R8's permutation: output dimension k is input dimension perm[k].
	perm8 := []int64{2, 5, 0, 7, 3, 6, 1, 4}
	eight := []int64{8, 8, 8, 8, 8, 8, 8, 8}
	out8 := make([]int64, 8)
	for k, p := range packed(eight) {
		out8[perm8[k]] = p
	}
	return []benchCase{
		idc("ID-NCHW-NHWC", f32, nchw, nil, nhwcStrides,
			"X = flat.reshape(1, 64, 512, 512)", "X.transpose(0, 2, 3, 1)"),
		idc("ID-NHWC-NCHW", f32, nchw, nhwcStrides, nil,
			"X = flat.reshape(1, 512, 512, 64)", "X.transpose(0, 3, 1, 2)"),
		idc("ID-T-4096", f32, []int64{4096, 4096}, nil, []int64{1, 4096},
			"M = flat.reshape(4096, 4096)", "M.T"),
		idc("ID-NCHW-NHWC/e2", core.UInt16, nchw, nil, nhwcStrides,
			"X = flat.reshape(1, 64, 512, 512)", "X.transpose(0, 2, 3, 1)"),
		idc("ID-NCHW-NHWC/e8", core.Float64, nchw, nil, nhwcStrides,
			"X = flat.reshape(1, 64, 512, 512)", "X.transpose(0, 2, 3, 1)"),
		idc("ID-8d", f32, eight, nil, out8,
			"B = flat.reshape((8,) * 8)", "B.transpose(2, 5, 0, 7, 3, 6, 1, 4)"),
		idc("ID-packed", f32, nchw, nil, nil,
			"X = flat.reshape(1, 64, 512, 512)", "X"),
	}
}

// initIdentity validates an identity case and sets its walks; walk is
// the input read in the order of the output's cells (the output's
// dimensions by decreasing stride), the view NumPy's expression makes.
func (c *benchCase) initIdentity() error {
	id, err := core.NewIdentity(*c.id)
	if err != nil {
		return fmt.Errorf("case %s: %w", c.name, err)
	}
	c.in, c.out = compute.IdentityWalks(id)
	c.e = int(c.dtype.Bits() / 8)
	if last := id.Input.IndexOfLastElement(); last >= c.n {
		return fmt.Errorf("case %s: input reaches element %d of %d", c.name, last, c.n)
	}
	if id.Output.IndexOfLastElement()+1 != c.in.Len() {
		return fmt.Errorf("case %s: the output is not packed", c.name)
	}
	order := make([]int, len(c.out.Sizes))
	for d := range order {
		order[d] = d
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(c.out.Strides[b], c.out.Strides[a]) })
	for _, d := range order {
		c.walk.Sizes = append(c.walk.Sizes, c.in.Sizes[d])
		c.walk.Strides = append(c.walk.Strides, c.in.Strides[d])
	}
	return nil
}

// depthSpaceCases are DML_DEPTH_TO_SPACE1 on 1x256x256x256 (2^24
// elements, block 4: 1x16x1024x1024) in both orders, float32, and DCR on
// float16 (as uint16): issue #40's benchmark, against memcpy and NumPy's
// reshape/transpose in the same run. NumPy's expression is ONNX's
// DepthToSpace formula before its last reshape, so that it is a view.
func depthSpaceCases() []benchCase {
	d2s := func(name string, t core.DataType, o core.DepthSpaceOrder, expr string) benchCase {
		return benchCase{
			name: name, class: classCopy, dtype: t, n: cubeElems,
			ds: &core.DepthSpaceDesc{Op: core.DepthToSpace, Order: o, BlockSize: 4,
				Input: core.TensorDesc{DataType: t, Sizes: []int64{1, 256, 256, 256}}},
			setup: "X = flat.reshape(1, 256, 256, 256)", expr: expr,
		}
	}
	dcr := "X.reshape(1, 4, 4, 16, 256, 256).transpose(0, 3, 4, 1, 5, 2)"
	crd := "X.reshape(1, 16, 4, 4, 256, 256).transpose(0, 1, 4, 2, 5, 3)"
	// The same two orders through compute.Identity: the view as its
	// input walk, the packed output as its output walk (its
	// cache-blocked transposes), one thread; NumPy times
	// np.ascontiguousarray of the same view.
	viaIdentity := func(c benchCase) benchCase {
		c.name, c.class = c.name+"/id", classID
		return c
	}
	return []benchCase{
		d2s("D2S-DCR", core.Float32, core.DepthColumnRow, dcr),
		d2s("D2S-CRD", core.Float32, core.ColumnRowDepth, crd),
		d2s("D2S-DCR/e2", core.UInt16, core.DepthColumnRow, dcr),
		viaIdentity(d2s("D2S-DCR", core.Float32, core.DepthColumnRow, dcr)),
		viaIdentity(d2s("D2S-CRD", core.Float32, core.ColumnRowDepth, crd)),
	}
}

// initDepthSpace validates a depth-to-space case and sets its walk.
func (c *benchCase) initDepthSpace() error {
	s, err := core.NewDepthSpace(*c.ds)
	if err != nil {
		return fmt.Errorf("case %s: %w", c.name, err)
	}
	c.walk = compute.DepthSpaceWalk(s)
	c.e = int(c.dtype.Bits() / 8)
	if c.class == classID {
		c.in, c.out = c.walk, compute.Walk{Sizes: c.walk.Sizes, Strides: core.PackedStrides(c.walk.Sizes)}
	}
	if last := s.Input.IndexOfLastElement(); last >= c.n {
		return fmt.Errorf("case %s: input reaches element %d of %d", c.name, last, c.n)
	}
	return nil
}
