package join

import (
	"context"
	"fmt"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// Past views.MaxDOMCells output elements, up to picture.MaxInteractive,
// the tensors are canvases that the page draws from the answer's meta
// alone (static/join-canvas.js): each tensor's sizes, the axis and where
// each window starts along it give every element's source, so the
// answer lists no element and sends no frame.

// canvasDrawn reports a state whose tensors are canvases.
func canvasDrawn(v Validated) bool {
	n := elementCount(v)
	return n > views.MaxDOMCells && n <= picture.MaxInteractive
}

// CanvasMeta is what the canvases are drawn from: One is a join's
// output or a split's input, Many the tensors on the other side, each
// the window of One along Axis from Starts[k].
type CanvasMeta struct {
	Join   bool           `json:"join"`
	Axis   int            `json:"axis"`
	Starts []int64        `json:"starts"`
	Labels []string       `json:"labels"`
	One    CanvasTensor   `json:"one"`
	Many   []CanvasTensor `json:"many"`
}

// CanvasTensor is one tensor's canvas: its slot (the canvas's id less
// "-canvas"), its name in the page's words and its sizes.
type CanvasTensor struct {
	Slot  string  `json:"slot"`
	Name  string  `json:"name"`
	Sizes []int64 `json:"sizes"`
}

// canvasMeta is v's canvases, nil when its tensors are not canvases.
func canvasMeta(v Validated) *CanvasMeta {
	if !canvasDrawn(v) {
		return nil
	}
	if j := v.Join; j != nil {
		m := &CanvasMeta{Join: true, Axis: j.Axis, Starts: j.Starts, Labels: core.DimensionLabels(j.Output.Rank()),
			One: CanvasTensor{Slot: "js-o0", Name: "OutputTensor", Sizes: j.Output.Sizes}}
		for k, in := range j.Inputs {
			m.Many = append(m.Many, CanvasTensor{Slot: fmt.Sprintf("js-i%d", k), Name: fmt.Sprintf("InputTensors[%d] (%s)", k, tensorName(k)), Sizes: in.Sizes})
		}
		return m
	}
	s := v.Split
	m := &CanvasMeta{Axis: s.Axis, Starts: s.Starts, Labels: core.DimensionLabels(s.Input.Rank()),
		One: CanvasTensor{Slot: "js-i0", Name: "InputTensor (x)", Sizes: s.Input.Sizes}}
	for k, o := range s.Outputs {
		m.Many = append(m.Many, CanvasTensor{Slot: fmt.Sprintf("js-o%d", k), Name: fmt.Sprintf("OutputTensors[%d] (y%d)", k, k), Sizes: o.Sizes})
	}
	return m
}

// canvasViews are v's tensors as canvases, inputs and outputs, the SVG
// picture shown in their place without JavaScript.
func canvasViews(ctx context.Context, v Validated) (ins, outs []TensorView) {
	m := canvasMeta(v)
	layouts := func() (one *core.Layout, many []*core.Layout) {
		if v.Join != nil {
			return v.Join.Output, v.Join.Inputs
		}
		return v.Split.Input, v.Split.Outputs
	}
	oneL, manyL := layouts()
	view := func(t CanvasTensor, l *core.Layout, input bool) TensorView {
		key := i18n.Key("padding.canvas.out")
		if input {
			key = "padding.canvas.in"
		}
		n := l.LogicalElementCount()
		return TensorView{Grid: t.Slot[len("js-"):], Heading: t.Name, Sub: tensorSub(ctx, l),
			Logical: views.Logical{Mode: views.ModeCanvas, Count: n, Last: n - 1, Slot: t.Slot, Note: i18n.T(ctx, key, i18n.Args{"n": i18n.Num(ctx, n)})}}
	}
	one := view(m.One, oneL, !m.Join)
	var many []TensorView
	for k, t := range m.Many {
		many = append(many, view(t, manyL[k], m.Join))
	}
	if m.Join {
		ins, outs = many, []TensorView{one}
	} else {
		ins, outs = []TensorView{one}, many
	}
	var cvs []picture.CanvasView
	for _, side := range [][]TensorView{ins, outs} {
		for i := range side {
			cvs = append(cvs, picture.CanvasView{Mode: views.ModeCanvas, NS: &side[i].Logical.NoScript})
		}
	}
	picture.NoScriptSVG(svgURL(ctx, v), cvs...)
	return ins, outs
}
