package tile

import (
	"context"
	"encoding/base64"
	"strconv"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// PictureView is everything drawn for one valid tiling: the input and
// output grids, each output cell linked to the input cell it reads.
type PictureView struct {
	Input, Output       views.Logical
	InputSub, OutputSub string
	NumPy, ONNX         string
	// ONNXModel is the one-node Tile model in base64.
	ONNXModel string
	// Alt names the tiling drawn. Every valid tiling has an SVG picture
	// (binned past the DOM's cells).
	Alt string
}

// HasCanvas is whether the picture is drawn on canvases: its page then
// preloads their module (axismap-canvas.js), which a picture of cells
// loads only after its first frame.
func (p PictureView) HasCanvas() bool { return p.Input.Mode == views.ModeCanvas }

// svgURL is the address of v's SVG picture, in ctx's language: what a
// canvas shows without JavaScript, and a grid too large for one always.
func svgURL(ctx context.Context, v Validated) string {
	return Kind{}.Routes().SVG + "?" + StateOf(v).CanonicalQuery(false) + picture.LangParam(ctx)
}

// sub is a grid's subtitle: its sizes and element count.
func sub(ctx context.Context, l *core.Layout) string {
	return views.LogicalSubIn(ctx, views.Meta{Sizes: l.Sizes, Labels: core.DimensionLabels(l.Rank()), LogicalCount: l.LogicalElementCount()})
}

// alt names the tiling drawn: the pictures' title.
func alt(ctx context.Context, t *core.Tile) string {
	in := t.Input
	return i18n.T(ctx, "tile.alt", i18n.Args{"dt": in.DataType.String(), "sizes": views.JoinInts(in.Sizes), "repeats": views.JoinInts(t.Repeats), "out": views.JoinInts(t.Output.Sizes)})
}

// Meta is what the page's script links the grids by: for each output
// element, row-major, the input element it reads (as the padding
// explorer's, docs/protocol.md).
// Past the DOM's limit the grids are canvases drawn from the sizes and
// Axes (per output axis, the input coordinate each output coordinate
// reads), as the padding explorer's.
type Meta struct {
	InCount    int64     `json:"inCount"`
	OutCount   int64     `json:"outCount"`
	Sources    []int64   `json:"sources,omitempty"`
	InputMode  string    `json:"inputMode"`
	OutputMode string    `json:"outputMode"`
	InSizes    []int64   `json:"inSizes,omitempty"`
	OutSizes   []int64   `json:"outSizes,omitempty"`
	Labels     []string  `json:"labels,omitempty"`
	Axes       [][]int64 `json:"axes,omitempty"`
	Values     []string  `json:"values,omitempty"`
}

func domDrawn(t *core.Tile) bool {
	return t.Input.LogicalElementCount() <= views.MaxDOMCells && t.Output.LogicalElementCount() <= views.MaxDOMCells
}

// maxCanvasAxes bounds the per-axis tables a canvas answer carries.
const maxCanvasAxes = 1 << 16

func axesLen(sizes []int64) int64 {
	var n int64
	for _, s := range sizes {
		n += s
	}
	return n
}

// viewMode is how both grids are drawn: HTML, canvases, or not at all.
func viewMode(t *core.Tile) string {
	switch {
	case domDrawn(t):
		return views.ModeDOM
	case t.Input.LogicalElementCount() <= picture.MaxInteractive && t.Output.LogicalElementCount() <= picture.MaxInteractive && axesLen(t.Output.Sizes) <= maxCanvasAxes:
		return views.ModeCanvas
	}
	return views.ModeNone
}

// NewPicture draws v's tiling.
func NewPicture(ctx context.Context, v Validated) (PictureView, Meta) {
	t := v.T
	in, out := t.Input, t.Output
	n, outN := in.LogicalElementCount(), out.LogicalElementCount()
	pv := PictureView{
		InputSub: sub(ctx, in), OutputSub: sub(ctx, out),
		NumPy: t.NumPy(), ONNX: "Tile(repeats=[" + views.JoinInts(t.Repeats) + "])",
		Alt: alt(ctx, t),
	}
	if m, ok := t.ONNXModel(); ok {
		pv.ONNXModel = base64.StdEncoding.EncodeToString(m)
	}
	mode := viewMode(t)
	meta := Meta{InCount: n, OutCount: outN, InputMode: mode, OutputMode: mode}
	if mode == views.ModeCanvas {
		meta.InSizes, meta.OutSizes, meta.Labels = in.Sizes, out.Sizes, core.DimensionLabels(in.Rank())
		meta.Axes, meta.Values = make([][]int64, out.Rank()), v.Values
		for d := range meta.Axes {
			meta.Axes[d] = t.AxisSources(d)
		}
		pv.Input = views.Logical{Mode: views.ModeCanvas, Count: n, Slot: "tile-in", Note: i18n.T(ctx, "padding.canvas.in", i18n.Args{"n": i18n.Num(ctx, n)})}
		pv.Output = views.Logical{Mode: views.ModeCanvas, Count: outN, Slot: "tile-out", Note: i18n.T(ctx, "padding.canvas.out", i18n.Args{"n": i18n.Num(ctx, outN)})}
		picture.NoScriptSVG(svgURL(ctx, v), picture.CanvasView{Mode: pv.Input.Mode, NS: &pv.Input.NoScript}, picture.CanvasView{Mode: pv.Output.Mode, NS: &pv.Output.NoScript})
		return pv, meta
	}
	if mode != views.ModeDOM {
		note := i18n.T(ctx, "padding.too.large", i18n.Args{"n": i18n.Num(ctx, n), "k": i18n.Num(ctx, outN), "dom": i18n.Num(ctx, views.MaxDOMCells)})
		pv.Input = views.Logical{Mode: views.ModeNone, Count: n, Note: note, NoScript: views.NoScript{SVG: svgURL(ctx, v)}}
		pv.Output = views.Logical{Mode: views.ModeNone, Count: outN, Note: note}
		return pv, meta
	}
	label := func(i int64) string {
		if v.Values != nil {
			return v.Values[i]
		}
		return strconv.FormatInt(i+1, 10)
	}
	pv.Input = views.Logical{Mode: views.ModeDOM, Count: n}
	pv.Input.Bands = picture.LogicalBands(in, picture.LayoutOffsets(in), views.LabelIndex, nil, -1)
	eachCell(pv.Input.Bands, i18n.T(ctx, "aria.panel.in"), func(c *views.LogicalCell) {
		c.Grid, c.Label = "in", label(c.Index)
		// Its first copy in the output is at its own coordinate.
		c.Link = "out-" + strconv.FormatInt(picture.RowMajorIndex(out.Sizes, in.Coordinate(c.Index)), 10)
		c.Aria = i18n.T(ctx, "aria.in", i18n.Args{"coord": c.Coord, "value": c.Label, "offset": c.Offset})
	})
	meta.Sources = make([]int64, outN)
	own := make([]int64, outN)
	for k := range own {
		own[k] = int64(k)
	}
	pv.Output = views.Logical{Mode: views.ModeDOM, Count: outN}
	pv.Output.Bands = picture.LogicalBands(out, own, views.LabelIndex, nil, -1)
	eachCell(pv.Output.Bands, i18n.T(ctx, "aria.panel.out"), func(c *views.LogicalCell) {
		src := t.InputCoordinate(c.Index)
		i := picture.RowMajorIndex(in.Sizes, src)
		meta.Sources[c.Index] = i
		c.Grid, c.Label, c.Link = "out", label(i), "in-"+strconv.FormatInt(i, 10)
		if !firstCopy(out.Coordinate(c.Index), in.Sizes) {
			c.Class = "mirror"
		}
		c.Aria = i18n.T(ctx, "padding.aria.out", i18n.Args{"coord": c.Coord, "value": c.Label, "from": picture.JoinCoord(src)})
	})
	return pv, meta
}

// firstCopy reports whether output coordinate c is in the first copy of
// the input (every coordinate below its size).
func firstCopy(c, sizes []int64) bool {
	for d, x := range c {
		if x >= sizes[d] {
			return false
		}
	}
	return true
}

func eachCell(bands []views.Band, what string, f func(*views.LogicalCell)) {
	for b := range bands {
		for p := range bands[b].Panels {
			panel := &bands[b].Panels[p]
			panel.What = what
			for r := range panel.Rows {
				for c := range panel.Rows[r].Cells {
					f(&panel.Rows[r].Cells[c])
				}
			}
		}
	}
}
