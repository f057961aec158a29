package main

import (
	"bytes"
	"context"
	"fmt"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
)

// classPad is a DML_PADDING1 (compute.AxisCopy) with a 2^24-element
// output, GB/s of output, one thread; NumPy times np.pad, which
// allocates its output on every call, as the Go side does not.
const classPad = "padding"

// paddingCases are issue #40's PADDING1 benchmarks: REFLECTION of a
// 4090 x 4090 float32 image by 3 on each side (4096^2 = 2^24 output
// elements), the 1-element REFLECTION and CONSTANT borders of a
// convolution on 1x64x510x510 (1x64x512x512 out), and REFLECTION on
// float16 (as uint16).
func paddingCases() []benchCase {
	pc := func(name string, t core.DataType, sizes, start, end []int64, mode core.PaddingMode, setup, expr string) benchCase {
		return benchCase{
			name: name, class: classPad, dtype: t, n: cubeElems, setup: setup, expr: expr,
			pad: &core.Padding1Desc{
				Input: core.TensorDesc{DataType: t, Sizes: sizes},
				Mode:  mode, StartPadding: start, EndPadding: end,
			},
		}
	}
	img := []int64{4090, 4090}
	nchw := []int64{1, 64, 510, 510}
	border := []int64{0, 0, 1, 1}
	return []benchCase{
		pc("PAD-REFLECT-4096", core.Float32, img, []int64{3, 3}, []int64{3, 3}, core.PadReflection,
			"M = flat[:4090 * 4090].reshape(4090, 4090)", "M"),
		pc("PAD-REFLECT-NCHW", core.Float32, nchw, border, border, core.PadReflection,
			"X = flat[:64 * 510 * 510].reshape(1, 64, 510, 510)", "X"),
		pc("PAD-CONST-NCHW", core.Float32, nchw, border, border, core.PadConstant,
			"X = flat[:64 * 510 * 510].reshape(1, 64, 510, 510)", "X"),
		pc("PAD-REFLECT-4096/e2", core.UInt16, img, []int64{3, 3}, []int64{3, 3}, core.PadReflection,
			"M = flat[:4090 * 4090].reshape(4090, 4090)", "M"),
	}
}

// initPadding validates a padding case and sets its map; walk is the
// input as NumPy's view has it, and padArgs np.pad's widths and mode.
func (c *benchCase) initPadding() error {
	p, err := core.NewPadding1(*c.pad)
	if err != nil {
		return fmt.Errorf("case %s: %w", c.name, err)
	}
	if last := p.Input.IndexOfLastElement(); last >= c.n {
		return fmt.Errorf("case %s: input reaches element %d of %d", c.name, last, c.n)
	}
	c.padded = p
	c.axis = compute.PaddingMap(p)
	c.e = int(c.dtype.Bits() / 8)
	c.walk = compute.LayoutWalk(p.Input)
	widths := make([][2]int64, len(p.StartPadding))
	for d := range widths {
		widths[d] = [2]int64{p.StartPadding[d], p.EndPadding[d]}
	}
	c.padArgs = map[string]any{"widths": widths, "mode": p.Mode.NumPy()}
	return nil
}

// padCall is one AxisCopy of the case; fill is the padding value 0.
func (c *benchCase) padCall(dst, src []byte) error {
	return compute.AxisCopy(context.Background(), dst, src, c.axis, c.e, make([]byte, c.e))
}

// padCheck compares dst with the definition, element by element: the
// input coordinate core gives each output element, or 0 for a fill.
// It returns the first differing byte or -1.
func (c *benchCase) padCheck(dst, src []byte) int64 {
	e := int64(c.e)
	zero := make([]byte, c.e)
	n := c.padded.Output.LogicalElementCount()
	for i := range n {
		want := zero
		if coord := c.padded.InputCoordinate(i); coord != nil {
			off, _ := c.padded.Input.Offset(coord)
			want = src[off*e : (off+1)*e]
		}
		if !bytes.Equal(dst[i*e:(i+1)*e], want) {
			return i * e
		}
	}
	return -1
}
