package depthspace

import (
	"context"
	"fmt"
	"strconv"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// PictureView is everything drawn for one valid state: the input, the
// output in depth-column-row order and the output in column-row-depth
// order side by side, each output cell linked to the input element it
// reads, and the facts and exports of both orders.
type PictureView struct {
	Input, DCR, CRD  views.Logical
	InputSub, OutSub string
	Operator         string
	Lesson           string
	Erratum          string
	Orders           []OrderFacts
	Level            string
	Warnings         []string
	Alt              string
}

// HasCanvas is whether the picture is drawn on canvases: its page then
// preloads their module (depthspace-canvas.js), which a picture of cells
// loads only after its first frame.
func (p PictureView) HasCanvas() bool { return p.Input.Mode == views.ModeCanvas }

// OrderFacts is one order's formula and exports.
type OrderFacts struct {
	Order   string // DEPTH_COLUMN_ROW
	Short   string // DCR
	Formula string
	View    string
	CPP     string
	NumPy   string
	ONNX    string
}

// Meta is what the page's script links the views by (docs/protocol.md,
// "The depth-space explorer"): for each output element in row-major
// order, the input element (row-major index) it reads in each order, and
// each input element's buffer offset. Listed only when the views are
// drawn in the HTML.
type Meta struct {
	Count     int64    `json:"count"`
	InSizes   []int64  `json:"inSizes"`
	InStrides []int64  `json:"inStrides"`
	OutSizes  []int64  `json:"outSizes"`
	Labels    []string `json:"labels"`
	Mode      string   `json:"mode"`
	// Views are each order's index maps as strided views over row-major
	// indices: to gives output element j's input element (j row-major
	// over to.sizes, the dot product with to.strides), back input
	// element k's output element (the inverse operator's view). The
	// canvases are drawn and linked from them alone.
	Views     map[string]IndexMaps `json:"views"`
	DCR       []int64              `json:"dcr,omitempty"`
	CRD       []int64              `json:"crd,omitempty"`
	InOffsets []int64              `json:"inOffsets,omitempty"`
	Values    []int64              `json:"values,omitempty"`
}

// IndexMaps are one order's views both ways.
type IndexMaps struct {
	To   View `json:"to"`
	Back View `json:"back"`
}

// indexMaps are s's views over row-major indices: s on a packed input,
// and the inverse operator on the packed output. ok is false if either
// is refused, which a valid s never is (the same sizes and block, no
// strides).
func indexMaps(s *core.DepthSpace) (IndexMaps, bool) {
	view := func(op core.DepthSpaceOp, sizes []int64) (View, bool) {
		p, err := core.NewDepthSpace(core.DepthSpaceDesc{Op: op, Input: core.TensorDesc{DataType: s.Input.DataType, Sizes: sizes}, BlockSize: s.BlockSize, Order: s.Order})
		if err != nil {
			return View{}, false
		}
		sz, st := p.View()
		return View{Sizes: sz, Strides: st}, true
	}
	to, ok1 := view(s.Op, s.Input.Sizes)
	back, ok2 := view(s.Op^1, s.Output.Sizes)
	return IndexMaps{To: to, Back: back}, ok1 && ok2
}

// domDrawn reports whether the views are drawn in the HTML: every view
// holds the input's element count.
func domDrawn(s *core.DepthSpace) bool { return s.Input.LogicalElementCount() <= views.MaxDOMCells }

// ViewMode is how the three views are drawn: in the HTML up to
// views.MaxDOMCells elements, on canvases the page works out from the
// meta up to picture.MaxInteractive, else not at all (the facts
// describe the operator).
func ViewMode(s *core.DepthSpace) string {
	switch n := s.Input.LogicalElementCount(); {
	case n <= views.MaxDOMCells:
		return views.ModeDOM
	case n <= picture.MaxInteractive:
		return views.ModeCanvas
	}
	return views.ModeNone
}

// sources lists, for each output element of s in row-major order, the
// input element (row-major index) it reads.
func sources(s *core.DepthSpace) []int64 {
	out := make([]int64, s.OutputElementCount())
	for i := range out {
		out[i] = picture.RowMajorIndex(s.Input.Sizes, s.InputCoordinate(int64(i)))
	}
	return out
}

// NewPicture draws v, a valid state: both orders, as grids, canvases or
// a note, and the facts and exports of each.
func NewPicture(ctx context.Context, v Validated) (PictureView, Meta) {
	dcr, crd := v.DCR, v.CRD
	in := dcr.Input
	n := in.LogicalElementCount()
	labels := core.DimensionLabels(4)
	pv := PictureView{
		InputSub: views.LogicalSubIn(ctx, views.Meta{Sizes: in.Sizes, Labels: labels, LogicalCount: n}),
		OutSub:   views.LogicalSubIn(ctx, views.Meta{Sizes: dcr.Output.Sizes, Labels: labels, LogicalCount: n}),
		Operator: dcr.Op.OperatorName(),
		Level:    i18n.T(ctx, "depthspace.level", i18n.Args{"level": dcr.MinFeatureLevel().String()}),
	}
	pv.Lesson = lesson(ctx, dcr)
	if dcr.Op == core.SpaceToDepth {
		pv.Erratum = i18n.T(ctx, "depthspace.erratum")
	}
	for _, s := range []*core.DepthSpace{dcr, crd} {
		pv.Orders = append(pv.Orders, orderFacts(s))
	}
	for _, w := range picture.Localised(ctx, v.Warnings) {
		pv.Warnings = append(pv.Warnings, w.Message)
	}
	pv.Alt = alt(ctx, dcr)
	meta := Meta{Count: n, InSizes: in.Sizes, InStrides: in.Strides, OutSizes: dcr.Output.Sizes, Labels: labels, Mode: ViewMode(dcr), Views: map[string]IndexMaps{}}
	for name, s := range map[string]*core.DepthSpace{"dcr": dcr, "crd": crd} {
		m, ok := indexMaps(s)
		if !ok {
			meta.Mode = views.ModeNone
		}
		meta.Views[name] = m
	}
	switch meta.Mode {
	case views.ModeNone:
		note := i18n.T(ctx, "depthspace.toolarge", i18n.Args{"n": i18n.Grouped(ctx, n), "max": i18n.Grouped(ctx, int64(picture.MaxInteractive))})
		pv.Input = views.Logical{Mode: views.ModeNone, Count: n, Note: note}
		pv.DCR, pv.CRD = pv.Input, pv.Input
		pv.Input.NoScript.SVG = svgURL(ctx, v)
		return pv, meta
	case views.ModeCanvas:
		canvas := func(slot string, key i18n.Key) views.Logical {
			return views.Logical{Mode: views.ModeCanvas, Count: n, Last: n - 1, Slot: slot,
				Note: i18n.T(ctx, key, i18n.Args{"n": i18n.Grouped(ctx, n)})}
		}
		pv.Input, pv.DCR, pv.CRD = canvas("ds-in", "depthspace.canvas.in"), canvas("ds-dcr", "depthspace.canvas.out"), canvas("ds-crd", "depthspace.canvas.out")
		picture.NoScriptSVG(svgURL(ctx, v), picture.CanvasView{Mode: pv.Input.Mode, NS: &pv.Input.NoScript},
			picture.CanvasView{Mode: pv.DCR.Mode, NS: &pv.DCR.NoScript}, picture.CanvasView{Mode: pv.CRD.Mode, NS: &pv.CRD.NoScript})
		return pv, meta
	}
	meta.InOffsets = make([]int64, n)
	compute.Offsets(compute.LayoutWalk(in), 0, meta.InOffsets)
	meta.DCR, meta.CRD = sources(dcr), sources(crd)
	meta.Values = v.Vals
	value := func(k int64) string {
		if v.Vals != nil {
			return strconv.FormatInt(v.Vals[k], 10)
		}
		return strconv.FormatInt(k, 10)
	}
	inv := func(src []int64) []int64 {
		out := make([]int64, len(src))
		for i, k := range src {
			out[k] = int64(i)
		}
		return out
	}
	dcrOf := inv(meta.DCR)
	pv.Input = grid(in, meta.InOffsets, "in", func(cl *views.LogicalCell) {
		k := cl.Index
		cl.Label, cl.Link = value(k), "dcr-"+views.Itoa(dcrOf[k])
		cl.Aria = i18n.T(ctx, "depthspace.aria.in", i18n.Args{"value": cl.Label, "coord": cl.Coord, "offset": cl.Offset})
	})
	out := func(s *core.DepthSpace, src []int64, name string) views.Logical {
		return grid(s.Output, packedOffsets(n), name, func(cl *views.LogicalCell) {
			k := src[cl.Index]
			cl.Label, cl.Link = value(k), "in-"+views.Itoa(k)
			cl.Aria = i18n.T(ctx, "depthspace.aria.out", i18n.Args{"value": cl.Label, "coord": cl.Coord,
				"from": views.JoinInts(in.Coordinate(k)), "offset": meta.InOffsets[k]})
		})
	}
	pv.DCR, pv.CRD = out(dcr, meta.DCR, "dcr"), out(crd, meta.CRD, "crd")
	return pv, meta
}

// lesson is what s's page teaches, in ctx's locale.
func lesson(ctx context.Context, s *core.DepthSpace) string {
	b := s.BlockSize
	if s.Op == core.DepthToSpace {
		return i18n.T(ctx, "depthspace.lesson.d2s", i18n.Args{"b": b, "bb": b * b})
	}
	return i18n.T(ctx, "depthspace.lesson.s2d", i18n.Args{"b": b, "bb": b * b})
}

// alt names the state drawn: the pictures' title.
func alt(ctx context.Context, s *core.DepthSpace) string {
	return i18n.T(ctx, "depthspace.alt", i18n.Args{"op": s.Op.OperatorName(), "dt": s.Input.DataType.String(), "sizes": views.JoinInts(s.Input.Sizes),
		"b": s.BlockSize, "out": views.JoinInts(s.Output.Sizes)})
}

// grid is one tensor's logical view, its cells named by grid and
// labelled and linked by cell.
func grid(l *core.Layout, offsets []int64, name string, cell func(*views.LogicalCell)) views.Logical {
	bands := picture.LogicalBands(l, offsets, views.LabelIndex, nil, -1)
	for b := range bands {
		for p := range bands[b].Panels {
			for r := range bands[b].Panels[p].Rows {
				cells := bands[b].Panels[p].Rows[r].Cells
				for c := range cells {
					cells[c].Grid = name
					cell(&cells[c])
				}
			}
		}
	}
	return views.Logical{Mode: views.ModeDOM, Count: int64(len(offsets)), Last: int64(len(offsets)) - 1, Bands: bands}
}

func packedOffsets(n int64) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = int64(i)
	}
	return out
}

// orderFacts are one order's formula, view and exports.
func orderFacts(s *core.DepthSpace) OrderFacts {
	f := OrderFacts{Order: s.Order.String(), Short: "DCR", CPP: s.CPP(), NumPy: s.NumPy()}
	if s.Order == core.ColumnRowDepth {
		f.Short = "CRD"
	}
	f.ONNX, _ = s.ONNX()
	sizes, strides := s.View()
	f.View = fmt.Sprintf("sizes {%s}, strides {%s}", views.JoinInts(sizes), views.JoinInts(strides))
	f.Formula = formula(s.Op, s.Order)
	return f
}

// formula is the index map in symbols: b is BlockSize, C′ the output's
// channels (depth-to-space) or C the input's (space-to-depth), y and x
// the row and column inside a block.
func formula(op core.DepthSpaceOp, o core.DepthSpaceOrder) string {
	switch {
	case op == core.DepthToSpace && o == core.DepthColumnRow:
		return "Output[n, c, h·b + y, w·b + x] = Input[n, (y·b + x)·C′ + c, h, w]"
	case op == core.DepthToSpace:
		return "Output[n, c, h·b + y, w·b + x] = Input[n, c·b² + y·b + x, h, w]"
	case o == core.DepthColumnRow:
		return "Output[n, (y·b + x)·C + c, h, w] = Input[n, c, h·b + y, w·b + x]"
	}
	return "Output[n, c·b² + y·b + x, h, w] = Input[n, c, h·b + y, w·b + x]"
}
