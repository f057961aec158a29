package convert

import (
	"context"
	"strconv"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// PictureView is everything drawn for one valid conversion: the logical
// tensor once, the input buffer and the output buffer, each output cell
// linked to the input cell it is copied from, the copy order (each cell's
// badge is the step that writes it, or first reads it), and the facts.
type PictureView struct {
	Logical                         views.Logical
	Input, Output                   views.Buffer
	LogicalSub, InputSub, OutputSub string
	// Access is the access-pattern line: "Reads 24 runs of 1 element,
	// writes 1 run of 24 elements."; Inner, Bytes and Scattered the
	// lines that follow it.
	Access, Inner, Bytes, Scattered string
	// NoCopy says that no copy is needed ("" when one is).
	NoCopy    string
	InPlace   string
	Level     string
	ScaleBias string
	// ScaleBiasValues works the ScaleBias out on the values 1, 2, ...
	// in the data type (scaleBiasValues).
	ScaleBiasValues string
	CPP             string
	NumPy           string
	ONNX            string
	// ONNXModel is the one-node model file in base64 ("" when the
	// conversion is no Transpose), offered for download as a data URL.
	ONNXModel string
	Warnings  []string
	// Alt names the conversion drawn: the alt text of the Embed
	// popover's picture snippet.
	Alt string
}

// Meta is what the page's script draws and links the views by: the
// sizes and each side's strides give every element's offset on each
// side (docs/protocol.md, "The conversion explorer"); inOffsets and
// outOffsets list them too when the views are drawn in the HTML.
type Meta struct {
	Count      int64    `json:"count"`
	Sizes      []int64  `json:"sizes"`
	InStrides  []int64  `json:"inStrides"`
	OutStrides []int64  `json:"outStrides"`
	Labels     []string `json:"labels"`
	// InCells and OutCells are each buffer's cells; InLast and OutLast
	// the offset of each side's last element (cells past it are the
	// unused tail).
	InCells  int64 `json:"inCells"`
	OutCells int64 `json:"outCells"`
	InLast   int64 `json:"inLast"`
	OutLast  int64 `json:"outLast"`
	// LogicalMode, InputMode and OutputMode are each view's: dom,
	// canvas or none.
	LogicalMode string  `json:"logicalMode"`
	InputMode   string  `json:"inputMode"`
	OutputMode  string  `json:"outputMode"`
	InOffsets   []int64 `json:"inOffsets,omitempty"`
	OutOffsets  []int64 `json:"outOffsets,omitempty"`
}

// OnCanvas reports whether a view is drawn on a canvas.
func (p PictureView) OnCanvas() bool {
	return p.Logical.Mode == views.ModeCanvas || p.Input.Mode == views.ModeCanvas || p.Output.Mode == views.ModeCanvas
}

// domDrawn reports whether the views are drawn in the HTML: every view
// within views.MaxDOMCells cells (the cells of one view link to the
// others', so they are drawn alike).
func domDrawn(id *core.Identity) bool {
	n := id.Input.LogicalElementCount()
	return n <= views.MaxDOMCells && id.Input.BufferElementCount() <= views.MaxDOMCells && id.Output.BufferElementCount() <= views.MaxDOMCells
}

// ViewModes are the logical view's, the input buffer's and the output
// buffer's: all dom, or else each a canvas up to
// picture.MaxInteractive cells (a buffer's canvas walks every element
// too, so their count must be drawable as well), none above (its facts
// describe the copy).
func ViewModes(id *core.Identity) (logical, input, output string) {
	if domDrawn(id) {
		return views.ModeDOM, views.ModeDOM, views.ModeDOM
	}
	n := id.Input.LogicalElementCount()
	mode := func(cells int64) string {
		if cells <= picture.MaxInteractive && n <= picture.MaxInteractive {
			return views.ModeCanvas
		}
		return views.ModeNone
	}
	return mode(n), mode(id.Input.BufferElementCount()), mode(id.Output.BufferElementCount())
}

// NewPicture draws id, the state of the canonical query.
func NewPicture(ctx context.Context, id *core.Identity, resp Response, query string) (PictureView, Meta) {
	in, out := id.Input, id.Output
	n := in.LogicalElementCount()
	pv := PictureView{
		LogicalSub: views.LogicalSubIn(ctx, views.Meta{Sizes: in.Sizes, Labels: core.DimensionLabels(in.Rank()), LogicalCount: n}),
		InputSub:   views.BufferSubIn(ctx, bufferMeta(in)),
		OutputSub:  views.BufferSubIn(ctx, bufferMeta(out)),
		CPP:        resp.CPP, NumPy: resp.NumPy,
		Level: i18n.T(ctx, "convert.level", i18n.Args{"level": resp.FeatureLevel}),
	}
	pv.accessLines(ctx, resp)
	pv.InPlace = inPlaceText(ctx, resp.InPlace, n)
	if resp.NoCopyNeeded {
		pv.NoCopy = i18n.T(ctx, "convert.nocopy")
	} else if resp.SameMemory {
		pv.NoCopy = i18n.T(ctx, "convert.samememory")
	}
	if sb := id.ScaleBias; sb != nil {
		pv.ScaleBias = i18n.T(ctx, "convert.scalebias", i18n.Args{"scale": strconv.FormatFloat(sb.Scale, 'g', -1, 32), "bias": strconv.FormatFloat(sb.Bias, 'g', -1, 32)})
		pv.ScaleBiasValues = scaleBiasValues(ctx, id)
	}
	if o := resp.ONNX; o != nil {
		pv.ONNX = "Transpose(perm=" + views.JoinInts(intsOf(o.Perm)) + ")"
		pv.ONNXModel = o.Model
	}
	for _, w := range picture.Localised(ctx, resp.Warnings) {
		pv.Warnings = append(pv.Warnings, w.Message)
	}
	pv.Alt = i18n.T(ctx, "convert.alt", i18n.Args{"dt": in.DataType.String(), "sizes": views.JoinInts(in.Sizes),
		"in": views.JoinInts(in.Strides), "out": views.JoinInts(out.Strides)})
	meta := Meta{Count: n, Sizes: in.Sizes, InStrides: in.Strides, OutStrides: out.Strides, Labels: core.DimensionLabels(in.Rank()),
		InCells: in.BufferElementCount(), OutCells: out.BufferElementCount(), InLast: in.IndexOfLastElement(), OutLast: out.IndexOfLastElement()}
	meta.LogicalMode, meta.InputMode, meta.OutputMode = ViewModes(id)
	if meta.LogicalMode != views.ModeDOM {
		pv.Logical = views.Logical{Mode: meta.LogicalMode, Count: n, Last: n - 1, Slot: "convert-lg",
			Note: canvasNote(ctx, meta.LogicalMode, "convert.canvas.logical", n)}
		pv.Input = views.Buffer{Mode: meta.InputMode, Cells: meta.InCells, Last: meta.InLast, Slot: "convert-ib",
			Note: canvasNote(ctx, meta.InputMode, "convert.canvas.input", meta.InCells)}
		pv.Output = views.Buffer{Mode: meta.OutputMode, Cells: meta.OutCells, Last: meta.OutLast, Slot: "convert-ob",
			Note: canvasNote(ctx, meta.OutputMode, "convert.canvas.output", meta.OutCells)}
		picture.NoScriptSVG(svgURL(ctx, query),
			picture.CanvasView{Mode: pv.Logical.Mode, NS: &pv.Logical.NoScript},
			picture.CanvasView{Mode: pv.Input.Mode, NS: &pv.Input.NoScript},
			picture.CanvasView{Mode: pv.Output.Mode, NS: &pv.Output.NoScript})
		return pv, meta
	}
	ins, outs := resp.InputOffsets, resp.OutputOffsets
	if ins == nil { // not listed (never when drawn in the HTML)
		ins, outs = make([]int64, n), make([]int64, n)
		iw, ow := compute.IdentityWalks(id)
		compute.Offsets(iw, 0, ins)
		compute.Offsets(ow, 0, outs)
	}
	pv.Logical = logicalView(ctx, in, ins, outs)
	pv.Input, pv.Output = buffers(ctx, id, ins, outs)
	meta.InOffsets, meta.OutOffsets = ins, outs
	return pv, meta
}

// canvasNote is what a canvas view holds, its accessible name (key,
// with n its cells), or why a view is not drawn.
func canvasNote(ctx context.Context, mode string, key i18n.Key, n int64) string {
	if mode == views.ModeCanvas {
		return i18n.T(ctx, key, i18n.Args{"n": i18n.Grouped(ctx, n)})
	}
	return i18n.T(ctx, "convert.toolarge", i18n.Args{"n": i18n.Grouped(ctx, n), "max": i18n.Grouped(ctx, int64(picture.MaxInteractive))})
}

// svgURL is the address of the SVG picture of the state query.
func svgURL(ctx context.Context, query string) string {
	return Kind{}.Routes().SVG + "?" + query + picture.LangParam(ctx)
}

func intsOf(p []int) []int64 {
	out := make([]int64, len(p))
	for i, x := range p {
		out[i] = int64(x)
	}
	return out
}

func bufferMeta(l *core.Layout) views.Meta {
	return views.Meta{Sizes: l.Sizes, Bits: l.ElementSizeInBits(), Cells: l.BufferElementCount(), Over: picture.BytesOver(l)}
}

// accessLines say the copy's access pattern from the runs of each side.
func (pv *PictureView) accessLines(ctx context.Context, r Response) {
	runs := func(s SideFacts) (string, string) {
		return i18n.Count(ctx, s.Runs, i18n.Grouped(ctx, s.Runs), "runs"), i18n.Count(ctx, s.RunLength, i18n.Grouped(ctx, s.RunLength), "elements")
	}
	inRuns, inLen := runs(r.Input)
	outRuns, outLen := runs(r.Output)
	pv.Access = i18n.T(ctx, "convert.access", i18n.Args{"inRuns": inRuns, "inLen": inLen, "outRuns": outRuns, "outLen": outLen})
	pv.Inner = i18n.T(ctx, "convert.inner", i18n.Args{"in": i18n.Num(ctx, r.Input.InnerStride), "out": i18n.Num(ctx, r.Output.InnerStride)})
	bytes := func(n int64) string { return i18n.Count(ctx, n, i18n.Grouped(ctx, n), "bytes") }
	touched := func(s SideFacts) string {
		if s.BytesTouched == nil {
			return i18n.T(ctx, "convert.touched.unknown", i18n.Args{"span": bytes(s.SpanBytes)})
		}
		return i18n.T(ctx, "convert.touched", i18n.Args{"touched": bytes(*s.BytesTouched), "span": bytes(s.SpanBytes)})
	}
	pv.Bytes = i18n.T(ctx, "convert.bytes", i18n.Args{"copied": bytes(r.BytesCopied), "in": touched(r.Input), "out": touched(r.Output)})
	pv.Scattered = i18n.T(ctx, i18n.Key("convert.scattered."+r.Scattered))
}

// inPlaceText explains the copy with its output aliasing its input.
func inPlaceText(ctx context.Context, p InPlace, n int64) string {
	coord := func(c []int64) string { return views.JoinInts(c) }
	switch {
	case !p.Known:
		return i18n.T(ctx, "convert.inplace.unknown", i18n.Args{"n": i18n.Num(ctx, n), "max": i18n.Num(ctx, int64(compute.InPlaceLimit))})
	case p.Safe:
		return i18n.T(ctx, "convert.inplace.safe")
	case p.Clobbered:
		return i18n.T(ctx, "convert.inplace.clobbered", i18n.Args{"writer": coord(p.Writer), "reader": coord(p.Reader), "cell": *p.Cell})
	}
	return i18n.T(ctx, "convert.inplace.race", i18n.Args{"writer": coord(p.Writer), "reader": coord(p.Reader), "cell": *p.Cell})
}

// logicalView is the logical tensor once: each cell names its element
// and links to its input and output cells.
func logicalView(ctx context.Context, in *core.Layout, ins, outs []int64) views.Logical {
	bands := picture.LogicalBands(in, ins, views.LabelLetters, nil, -1)
	for b := range bands {
		for p := range bands[b].Panels {
			for r := range bands[b].Panels[p].Rows {
				cells := bands[b].Panels[p].Rows[r].Cells
				for c := range cells {
					cl := &cells[c]
					cl.Grid, cl.Link = "lg", "ob-"+views.Itoa(outs[cl.Index])
					cl.Aria = cl.Label + ", " + i18n.T(ctx, "convert.aria.element", i18n.Args{"coord": cl.Coord, "in": cl.Offset, "out": outs[cl.Index]})
				}
			}
		}
	}
	return views.Logical{Mode: views.ModeDOM, Count: int64(len(ins)), Last: in.IndexOfLastElement(), Bands: bands}
}

// buffers are the input and the output buffers: each used cell labelled
// with the element whose value it holds (letters, as the strides page
// names them), badged with the copy step that first reads it or writes
// it, and linked to its cell on the other side.
func buffers(ctx context.Context, id *core.Identity, ins, outs []int64) (views.Buffer, views.Buffer) {
	in, out := id.Input, id.Output
	inCells, outCells := in.BufferElementCount(), out.BufferElementCount()
	inCount, outCount := make([]uint32, inCells), make([]uint32, outCells)
	inFirst, outFirst := make([]int64, inCells), make([]int64, outCells)
	for i := range inFirst {
		inFirst[i] = -1
	}
	for i, o := range ins {
		if inFirst[o] < 0 {
			inFirst[o] = int64(i)
		}
		inCount[o]++
	}
	outElem := make([]int64, outCells) // the element written to each output cell
	for i, o := range outs {
		outCount[o]++
		outElem[o] = int64(i)
		outFirst[o] = inFirst[ins[i]] // the value it holds is named as the input's cell
	}
	bv := func(l *core.Layout, counts []uint32, first []int64) views.Buffer {
		cols, rows := picture.BufferRows(l, counts, first, views.LabelLetters, -1, -1)
		return views.Buffer{Mode: views.ModeDOM, Cells: int64(len(counts)), Cols: cols, Last: l.IndexOfLastElement(), Rows: rows}
	}
	ib, ob := bv(in, inCount, inFirst), bv(out, outCount, outFirst)
	for r := range ib.Rows {
		for c := range ib.Rows[r].Cells {
			cl := &ib.Rows[r].Cells[c]
			cl.Grid = "ib"
			if cl.Count > 0 {
				i := inFirst[cl.Offset]
				cl.Badge, cl.Link = views.Itoa(i+1), "ob-"+views.Itoa(outs[i])
				cl.Aria = cl.Label + ", " + i18n.T(ctx, "convert.aria.in", i18n.Args{"offset": cl.Offset, "byte": cl.Byte,
					"n": i18n.Count(ctx, int64(cl.Count), i18n.Num(ctx, int64(cl.Count)), "elements"), "coord": views.JoinInts(in.Coordinate(i)), "step": i + 1})
			}
		}
	}
	for r := range ob.Rows {
		for c := range ob.Rows[r].Cells {
			cl := &ob.Rows[r].Cells[c]
			cl.Grid = "ob"
			if cl.Count > 0 {
				i := outElem[cl.Offset]
				cl.Badge, cl.Link = views.Itoa(i+1), "ib-"+views.Itoa(ins[i])
				cl.Aria = cl.Label + ", " + i18n.T(ctx, "convert.aria.out", i18n.Args{"offset": cl.Offset, "byte": cl.Byte,
					"coord": views.JoinInts(in.Coordinate(i)), "from": ins[i], "step": i + 1})
			}
		}
	}
	return ib, ob
}
