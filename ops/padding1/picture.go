package padding1

import (
	"context"
	"encoding/base64"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// PictureView is everything drawn for one valid padding: the input and
// the output grids, each output cell linked to the input cell it reads
// or marked as the padding value, each axis's index map, the notes and
// the exports.
type PictureView struct {
	Input, Output       views.Logical
	InputSub, OutputSub string
	Mode                string
	Axes                []AxisRow
	Notes               []string
	CPP, NumPy, ONNX    string
	// ONNXModel is the one-node Pad model in base64, "" where ONNX
	// computes another map (the notes say why).
	ONNXModel string
	// Alt names the padding drawn. Every valid padding has an SVG
	// picture (binned past the DOM's cells).
	Alt string
}

// HasCanvas is whether the picture is drawn on canvases: its page then
// preloads their module (axismap-canvas.js), which a picture of cells
// loads only after its first frame.
func (p PictureView) HasCanvas() bool { return p.Input.Mode == views.ModeCanvas }

// AxisRow is one axis's index map: output coordinate o reads input
// coordinate Map[o] ("·" for the padding value), the first maxAxisShown
// of them.
type AxisRow struct {
	Label            string
	Size, Start, End int64
	Out              int64
	Map              []AxisCell
	More             bool
}

// AxisCell is one output coordinate of an axis and what it reads.
type AxisCell struct {
	O    int64
	From string
	Pad  bool // in the padding, not the input's own place
}

// maxAxisShown is the most entries of an axis's map the facts print.
const maxAxisShown = 48

// Meta is what the page's script links the grids by (docs/protocol.md,
// "The padding explorer"): for each output element, row-major, the input
// element it reads, -1 for the padding value; listed when the grids are
// in the HTML.
//
// Past the DOM's limit the grids are canvases (InputMode and OutputMode
// "canvas"), drawn from the sizes and Axes: per output axis, the input
// coordinate each output coordinate reads (-1: the padding value).
type Meta struct {
	InCount    int64     `json:"inCount"`
	OutCount   int64     `json:"outCount"`
	Mode       string    `json:"mode"`
	Sources    []int64   `json:"sources,omitempty"`
	InputMode  string    `json:"inputMode"`
	OutputMode string    `json:"outputMode"`
	InSizes    []int64   `json:"inSizes,omitempty"`
	OutSizes   []int64   `json:"outSizes,omitempty"`
	Labels     []string  `json:"labels,omitempty"`
	Axes       [][]int64 `json:"axes,omitempty"`
	Value      string    `json:"value,omitempty"`
	Values     []string  `json:"values,omitempty"`
}

// maxCanvasAxes bounds the per-axis tables a canvas answer carries: the
// sum of the output sizes.
const maxCanvasAxes = 1 << 16

// viewMode is how both grids are drawn: in the HTML up to
// views.MaxDOMCells cells each, on canvases up to
// picture.MaxInteractive elements each (the axes' tables within
// maxCanvasAxes), else not at all.
func viewMode(p *core.Padding1) string {
	switch {
	case domDrawn(p):
		return views.ModeDOM
	case p.Input.LogicalElementCount() <= picture.MaxInteractive && p.Output.LogicalElementCount() <= picture.MaxInteractive && axesLen(p.Output.Sizes) <= maxCanvasAxes:
		return views.ModeCanvas
	}
	return views.ModeNone
}

func axesLen(sizes []int64) int64 {
	var n int64
	for _, s := range sizes {
		n += s
	}
	return n
}

// domDrawn reports whether both grids are drawn in the HTML.
func domDrawn(p *core.Padding1) bool {
	return p.Input.LogicalElementCount() <= views.MaxDOMCells && p.Output.LogicalElementCount() <= views.MaxDOMCells
}

func emptyPicture(ctx context.Context) PictureView {
	return PictureView{
		Input:  views.Logical{Mode: views.ModeEmpty, Note: i18n.T(ctx, "empty.inputs")},
		Output: views.Logical{Mode: views.ModeEmpty, Note: i18n.T(ctx, "empty.inputs")},
	}
}

// NewPicture draws v's padding.
func NewPicture(ctx context.Context, v Validated) (PictureView, Meta) {
	p := v.P
	in, out := p.Input, p.Output
	n, outN := in.LogicalElementCount(), out.LogicalElementCount()
	pv := PictureView{
		InputSub: sub(ctx, in), OutputSub: sub(ctx, out), Mode: modeText(ctx, p),
		CPP: p.CPP(), NumPy: p.NumPy(), Alt: alt(ctx, p),
	}
	for _, nt := range picture.Localised(ctx, p.Notes) {
		pv.Notes = append(pv.Notes, nt.Field+": "+nt.Message)
	}
	pv.Axes = axisRows(p)
	if o, ok := p.ONNX(); ok {
		pv.ONNX = onnxText(o)
		if m, ok := p.ONNXModel(); ok {
			pv.ONNXModel = base64.StdEncoding.EncodeToString(m)
		}
	}
	mode := viewMode(p)
	meta := Meta{InCount: n, OutCount: outN, Mode: p.Mode.String(), InputMode: mode, OutputMode: mode}
	if mode == views.ModeCanvas {
		meta.InSizes, meta.OutSizes, meta.Labels = in.Sizes, out.Sizes, core.DimensionLabels(in.Rank())
		meta.Axes, meta.Values = make([][]int64, out.Rank()), v.Values
		for d := range meta.Axes {
			meta.Axes[d] = p.AxisSources(d)
		}
		meta.Value = strconv.FormatFloat(p.PaddingValue, 'g', -1, 64)
		pv.Input = views.Logical{Mode: views.ModeCanvas, Count: n, Slot: "pad-in", Note: i18n.T(ctx, "padding.canvas.in", i18n.Args{"n": i18n.Num(ctx, n)})}
		pv.Output = views.Logical{Mode: views.ModeCanvas, Count: outN, Slot: "pad-out", Note: i18n.T(ctx, "padding.canvas.out", i18n.Args{"n": i18n.Num(ctx, outN)})}
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
	padText := strconv.FormatFloat(p.PaddingValue, 'g', -1, 64)
	// The input grid: each cell linked to the output cell that holds it
	// in the input's own place (coordinate + StartPadding).
	inOffs := picture.LayoutOffsets(in)
	pv.Input = views.Logical{Mode: views.ModeDOM, Count: n}
	pv.Input.Bands = picture.LogicalBands(in, inOffs, views.LabelIndex, nil, -1)
	eachCell(pv.Input.Bands, i18n.T(ctx, "aria.panel.in"), func(c *views.LogicalCell) {
		coord := in.Coordinate(c.Index)
		for d := range coord {
			coord[d] += p.StartPadding[d]
		}
		c.Grid, c.Label = "in", label(c.Index)
		c.Link = "out-" + strconv.FormatInt(picture.RowMajorIndex(out.Sizes, coord), 10)
		c.Aria = i18n.T(ctx, "aria.in", i18n.Args{"coord": c.Coord, "value": c.Label, "offset": c.Offset})
	})
	// The output grid: each cell the input element it reads, or the
	// padding value.
	meta.Sources = make([]int64, outN)
	own := make([]int64, outN)
	for k := range own {
		own[k] = int64(k)
	}
	pv.Output = views.Logical{Mode: views.ModeDOM, Count: outN}
	pv.Output.Bands = picture.LogicalBands(out, own, views.LabelIndex, nil, -1)
	eachCell(pv.Output.Bands, i18n.T(ctx, "aria.panel.out"), func(c *views.LogicalCell) {
		c.Grid = "out"
		src := p.InputCoordinate(c.Index)
		if src == nil {
			meta.Sources[c.Index] = -1
			c.Label, c.Class = padText, "pad"
			c.Aria = i18n.T(ctx, "padding.aria.pad", i18n.Args{"coord": c.Coord, "value": c.Label})
			return
		}
		i := picture.RowMajorIndex(in.Sizes, src)
		meta.Sources[c.Index] = i
		c.Label, c.Link = label(i), "in-"+strconv.FormatInt(i, 10)
		if !inside(p, out.Coordinate(c.Index)) {
			c.Class = "mirror"
		}
		c.Aria = i18n.T(ctx, "padding.aria.out", i18n.Args{"coord": c.Coord, "value": c.Label, "from": picture.JoinCoord(src)})
	})
	return pv, meta
}

// svgURL is the address of v's SVG picture, in ctx's language: what a
// canvas shows without JavaScript, and a grid too large for one always.
func svgURL(ctx context.Context, v Validated) string {
	return Kind{}.Routes().SVG + "?" + StateOf(v).CanonicalQuery(false) + picture.LangParam(ctx)
}

// sub is a grid's subtitle: its sizes and element count.
func sub(ctx context.Context, l *core.Layout) string {
	return views.LogicalSubIn(ctx, views.Meta{Sizes: l.Sizes, Labels: core.DimensionLabels(l.Rank()), LogicalCount: l.LogicalElementCount()})
}

// modeText says what p's mode reads, in ctx's locale.
func modeText(ctx context.Context, p *core.Padding1) string {
	return i18n.T(ctx, i18n.Key("padding.mode."+strings.ToLower(p.Mode.String())))
}

// alt names the padding drawn: the pictures' title.
func alt(ctx context.Context, p *core.Padding1) string {
	in := p.Input
	return i18n.T(ctx, "padding.alt", i18n.Args{"dt": in.DataType.String(), "sizes": views.JoinInts(in.Sizes), "mode": p.Mode.String(),
		"start": views.JoinInts(p.StartPadding), "end": views.JoinInts(p.EndPadding), "out": views.JoinInts(p.Output.Sizes)})
}

// inside reports whether output coordinate c is the input's own place,
// not the padding.
func inside(p *core.Padding1, c []int64) bool {
	for d, x := range c {
		if x < p.StartPadding[d] || x >= p.StartPadding[d]+p.Input.Sizes[d] {
			return false
		}
	}
	return true
}

func axisRows(p *core.Padding1) []AxisRow {
	labels := core.DimensionLabels(p.Input.Rank())
	rows := make([]AxisRow, p.Input.Rank())
	for d := range rows {
		size, start := p.Input.Sizes[d], p.StartPadding[d]
		r := AxisRow{Label: labels[d], Size: size, Start: start, End: p.EndPadding[d], Out: p.Output.Sizes[d]}
		for o := range min(r.Out, maxAxisShown) {
			src := core.PadSource(p.Mode, size, start, o)
			c := AxisCell{O: o, From: "·", Pad: o < start || o >= start+size}
			if src >= 0 {
				c.From = strconv.FormatInt(src, 10)
			}
			r.Map = append(r.Map, c)
		}
		r.More = r.Out > maxAxisShown
		rows[d] = r
	}
	return rows
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

// onnxText is the ONNX Pad node as the exports print it.
func onnxText(o core.ONNXPad) string {
	s := "Pad(mode=\"" + o.Mode + "\", pads=[" + strings.Join(picture.FormatInts(o.Pads), ", ") + "]"
	if o.ConstantValue != nil {
		s += ", constant_value=" + strconv.FormatFloat(*o.ConstantValue, 'g', -1, 64)
	}
	return s + ")  # opset " + strconv.Itoa(o.Opset)
}
