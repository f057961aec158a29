package slice1

import (
	"context"
	"encoding/json"
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// MaxSliceBytes bounds the input buffer the page fills with values and
// the output it copies them into, each.
const MaxSliceBytes = 64 << 20

// Picture is one valid slice drawn: the view model, and what the
// websocket sends beside it.
type Picture struct {
	View     PictureView
	Meta     Meta
	Warnings []core.Violation // about the typed values

	// What live streams to the canvases beside the meta: the slice, and
	// the bitmap of the buffer cells read up to the input's last element
	// (nil above MaxInteractive cells). Cells past the last element (a
	// TotalTensorSizeInBytes above the minimum) are never read, so they
	// cost nothing but their count. The values the canvases show are
	// computed by the page (Meta.Fill).
	Slice   *core.Slice1
	Touched []uint64
}

// Meta is what the page's script steps and links by.
type Meta struct {
	Sizes         []int64  `json:"sizes"`
	Strides       []int64  `json:"strides"`
	Labels        []string `json:"labels"`
	WindowOffsets []int64  `json:"windowOffsets"`
	WindowSizes   []int64  `json:"windowSizes"`
	WindowStrides []int64  `json:"windowStrides"`
	CopyStart     []int64  `json:"copyStart"`
	MaxCopied     []int64  `json:"maxCopied"`
	OutputSizes   []int64  `json:"outputSizes"`
	InputCount    int64    `json:"inputCount"`
	OutputCount   int64    `json:"outputCount"`
	Cells         int64    `json:"cells"`
	Last          int64    `json:"last"` // index of the input's last element: buffer cells past it are unused tail
	DataType      string   `json:"dataType"`
	Steps         int64    `json:"steps"`
	InputMode     string   `json:"inputMode"`
	BufferMode    string   `json:"bufferMode"`
	OutputMode    string   `json:"outputMode"`
	// Values are the output's values in row-major order, as text: all of
	// them up to MaxDOMCells, else the first ones; none when the buffer
	// was too large to fill.
	Values []string `json:"values"`
	Query  string   `json:"query"`
	// Fill says the page computes the values its canvases show, as
	// FillInput and compute.Slice do: the input buffer filled with the
	// values in row-major order (a cell several elements share holds the
	// first one's), the output read from it. Pattern holds the typed
	// values, base64 of their raw little-endian elements, which repeat
	// over the elements; empty: 1, 2, 3 ... N. Fill is false when the
	// input buffer or the output would exceed MaxSliceBytes.
	Fill    bool   `json:"fill"`
	Pattern string `json:"pattern,omitempty"`
}

// MaxListedValues is how many of the output's values a slice picture
// lists as text (meta.values, the facts' first values).
const MaxListedValues = 4096

// Mode is how a view of n cells is drawn: as DOM cells, on a canvas
// the page's script fills from binary frames, or not at all (the facts
// maxBadged is the most cells a grid numbers in copy order with badges:
// in a denser grid the cells are too small and a badge would cover the
// value (pointing at a cell still says where it goes).
const maxBadged = 36

// are complete).
func Mode(n int64) string {
	switch {
	case n <= views.MaxDOMCells:
		return views.ModeDOM
	case n <= picture.MaxInteractive:
		return views.ModeCanvas
	}
	return views.ModeNone
}

// bufferMode is Mode for the input's buffer. A canvas also
// walks every input element (which cells hold one), so, as in the layout
// explorer, both counts must be drawable.
func bufferMode(cells, n int64) string {
	if m := Mode(cells); m != views.ModeCanvas || n <= picture.MaxInteractive {
		return m
	}
	return views.ModeNone
}

// NewPicture draws a valid slice. The output values are the input
// buffer, filled with the values, copied by compute.Slice; the cells read
// come from compute.Touched and compute.Offsets. Only the cells the DOM
// and the step-through show are read (see SparseCellValues): the
// canvases' values are the page's to compute (Meta.Fill).
func NewPicture(ctx context.Context, v Validated, query, stepHref string) (*Picture, error) {
	s := v.Slice
	in := s.Input
	dt := in.DataType
	e := dt.Bits() / 8
	n, cells, outN := in.LogicalElementCount(), in.BufferElementCount(), s.OutputElementCount()
	used := in.IndexOfLastElement() + 1 // the cells an element can occupy: the rest is unused tail
	p := &Picture{Slice: s, Meta: Meta{
		Sizes: in.Sizes, Strides: in.Strides, Labels: core.DimensionLabels(in.Rank()),
		WindowOffsets: s.WindowOffsets, WindowSizes: s.WindowSizes, WindowStrides: s.WindowStrides,
		CopyStart: s.CopyStart, MaxCopied: s.MaxCopied, OutputSizes: s.OutputSizes,
		InputCount: n, OutputCount: outN, Cells: cells, Last: in.IndexOfLastElement(), DataType: dt.String(), Steps: stepCount(s),
		InputMode: Mode(n), BufferMode: bufferMode(cells, n), OutputMode: Mode(outN), Values: []string{}, Query: query,
	}}
	pv := &p.View
	pv.Title = Title(s.WindowOffsets, s.WindowSizes, s.WindowStrides)
	pv.Alt = Alt(ctx, pv.Title, dt.String(), in.Sizes, in.Strides, in.TotalTensorSizeInBytes)

	// Which input element each output element reads, and where.
	var reads []int64 // buffer offset read by each output element
	var srcIdx []int64
	orderOf := map[int64]int64{} // input element -> the output element that copies it
	if outN <= views.MaxDOMCells {
		reads = make([]int64, outN)
		compute.Offsets(compute.SliceWalk(s), 0, reads)
		srcIdx = make([]int64, outN)
		for k := range outN {
			srcIdx[k] = picture.RowMajorIndex(in.Sizes, s.InputCoordinate(k))
			orderOf[srcIdx[k]] = k
		}
	}
	var touched []uint64
	var readCells int64 = -1
	if cells <= picture.MaxInteractive {
		var err error
		if touched, err = compute.Touched(ctx, compute.SliceWalk(s), used); err != nil {
			return nil, err
		}
		readCells = 0
		for _, w := range touched {
			readCells += int64(bits.OnesCount64(w))
		}
		p.Touched = touched
	}
	var inOffs []int64
	if p.Meta.InputMode == views.ModeDOM {
		inOffs = make([]int64, n)
		compute.Offsets(compute.LayoutWalk(in), 0, inOffs)
	}
	var counts []uint32
	if p.Meta.BufferMode == views.ModeDOM {
		var err error
		if counts, err = compute.CellCounts(ctx, compute.LayoutWalk(in), cells); err != nil {
			return nil, err
		}
	}

	// The values: the input buffer filled, the output copied from it.
	// Filling writes every logical element, so their count is bounded
	// too: a broadcast input can hold 2^32 elements in one cell. Only the
	// cells the DOM and the step-through show are read here.
	valuesOK := e > 0 && used*e <= MaxSliceBytes && n*e <= MaxSliceBytes && outN*e <= MaxSliceBytes
	p.Meta.Fill = valuesOK
	if valuesOK && len(v.Values) > 0 {
		p.Meta.Pattern = valuePattern(dt, v.Values)
	}
	m := min(outN, MaxListedValues)
	var cv *CellValues
	valueReads := reads
	if valuesOK {
		if valueReads == nil {
			valueReads = make([]int64, m)
			compute.Offsets(compute.SliceWalk(s), 0, valueReads)
		}
		wanted := append(append([]int64(nil), valueReads...), inOffs...)
		for o, c := range counts {
			if c > 0 {
				wanted = append(wanted, int64(o))
			}
		}
		var err error
		if cv, err = SparseCellValues(ctx, in, v.Values, wanted); err != nil {
			return nil, err
		}
	}
	if valuesOK {
		for k := range m {
			p.Meta.Values = append(p.Meta.Values, cv.Text(valueReads[k]))
		}
	}
	valueAt := func(off int64) string {
		if cv == nil {
			return "·"
		}
		return cv.Text(off)
	}

	// The cells the step-through's step marks (static/slice.js marks the
	// same ones as it steps).
	stepIn, stepK := stepCells(s, v.T)
	stepInIdx, stepOff := int64(-1), int64(-1)
	if stepIn != nil {
		stepInIdx = picture.RowMajorIndex(in.Sizes, stepIn)
	}
	if stepK >= 0 && stepK < int64(len(reads)) {
		stepOff = reads[stepK]
	}

	// The input grid, with the window, CopyStart and the copy order.
	pv.Input = views.Logical{Mode: p.Meta.InputMode, Count: n}
	if pv.Input.Mode == views.ModeDOM {
		pv.Input.Bands = picture.LogicalBands(in, inOffs, views.LabelIndex, nil, -1)
		eachCell(pv.Input.Bands, i18n.T(ctx, "aria.panel.in"), func(c *views.LogicalCell) {
			coord := in.Coordinate(c.Index)
			c.Grid, c.Label = "in", valueAt(c.Offset)
			c.Class, c.Aria = windowClasses(s, coord), i18n.T(ctx, "aria.in", i18n.Args{"coord": c.Coord, "value": c.Label, "offset": c.Offset})
			if k, ok := orderOf[c.Index]; ok {
				c.Class += " read"
				c.Link = strconv.FormatInt(k, 10)
				if n <= maxBadged {
					c.Badge = c.Link
				}
				c.Aria += i18n.T(ctx, "aria.in.copied", i18n.Args{"k": k})
			} else if strings.Contains(c.Class, "win") {
				c.Aria += i18n.T(ctx, "aria.in.skipped")
			} else {
				c.Aria += i18n.T(ctx, "aria.in.outside")
			}
			if strings.Contains(c.Class, "start") {
				c.Aria += ", CopyStart"
			}
			if c.Index == stepInIdx {
				c.Class += " cur"
			}
		})
	} else if pv.Input.Mode == views.ModeCanvas {
		pv.Input.Note = i18n.T(ctx, "note.sin.canvas", i18n.Args{"n": i18n.Num(ctx, n), "k": i18n.Num(ctx, outN)})
	} else {
		pv.Input.Note = i18n.T(ctx, "note.sin.none", i18n.Args{"n": i18n.Num(ctx, n), "max": i18n.Num(ctx, int64(picture.MaxInteractive)), "dom": i18n.Num(ctx, views.MaxDOMCells)})
	}

	// The output grid, each cell linked to the input element it came from.
	pv.Output = views.Logical{Mode: p.Meta.OutputMode, Count: outN}
	if pv.Output.Mode == views.ModeDOM {
		own := make([]int64, outN)
		for k := range own {
			own[k] = int64(k)
		}
		pv.Output.Bands = picture.LogicalBands(s.Output, own, views.LabelIndex, nil, -1)
		eachCell(pv.Output.Bands, i18n.T(ctx, "aria.panel.out"), func(c *views.LogicalCell) {
			c.Grid, c.Class = "out", "copied"
			switch {
			case v.T < 0:
			case c.Index == stepK:
				c.Class += " cur"
			case stepK < 0 || c.Index > stepK:
				c.Class += " pending"
			}
			c.Label = "·"
			if int(c.Index) < len(p.Meta.Values) {
				c.Label = p.Meta.Values[c.Index]
			}
			src := srcIdx[c.Index]
			c.Link = strconv.FormatInt(src, 10)
			c.Aria = i18n.T(ctx, "aria.out", i18n.Args{"coord": c.Coord, "value": c.Label, "index": c.Index, "from": picture.JoinCoord(in.Coordinate(src)), "offset": reads[c.Index]})
		})
	} else {
		pv.Output.Note = i18n.T(ctx, "note.sout.none", i18n.Args{"n": i18n.Num(ctx, outN), "max": i18n.Num(ctx, int64(picture.MaxInteractive)), "dom": i18n.Num(ctx, views.MaxDOMCells)})
		if pv.Output.Mode == views.ModeCanvas {
			pv.Output.Note = i18n.T(ctx, "note.sout.canvas", i18n.Args{"n": i18n.Num(ctx, outN)})
		}
		pv.First = p.Meta.Values[:min(len(p.Meta.Values), 64)]
	}

	// The input's buffer, the cells read highlighted.
	pv.Buffer = views.Buffer{Mode: p.Meta.BufferMode, Cells: cells, Last: in.IndexOfLastElement()}
	if pv.Buffer.Mode == views.ModeDOM {
		firstRead := map[int64]int64{}
		readBy := map[int64]int{}
		for k := len(reads) - 1; k >= 0; k-- {
			firstRead[reads[k]] = int64(k)
			readBy[reads[k]]++
		}
		pv.Buffer.Cols, pv.Buffer.Rows = picture.BufferRows(in, counts, nil, views.LabelOffset, -1, -1)
		for r := range pv.Buffer.Rows {
			for j := range pv.Buffer.Rows[r].Cells {
				c := &pv.Buffer.Rows[r].Cells[j]
				if c.Count == 0 {
					continue
				}
				c.Label = valueAt(c.Offset)
				c.Aria = i18n.T(ctx, "aria.sbuf", i18n.Args{"offset": c.Offset, "byte": c.Byte, "value": c.Label})
				if touched[c.Offset>>6]&(1<<(c.Offset&63)) == 0 {
					c.Aria += i18n.T(ctx, "aria.sbuf.notread")
					continue
				}
				c.Class = "read"
				if c.Offset == stepOff {
					c.Class += " cur"
				}
				c.Aria += i18n.T(ctx, "aria.sbuf.read")
				if k, ok := firstRead[c.Offset]; ok {
					if pv.Buffer.Cells <= maxBadged {
						c.Badge = strconv.FormatInt(k, 10)
						if readBy[c.Offset] > 1 {
							c.Badge += "+"
						}
					}
					c.Aria += i18n.T(ctx, "aria.sbuf.first", i18n.Args{"k": k, "n": readBy[c.Offset]})
				}
			}
		}
	} else if pv.Buffer.Mode == views.ModeCanvas {
		pv.Buffer.Note = i18n.T(ctx, "note.sbuf.canvas", i18n.Args{"cells": i18n.Num(ctx, cells), "read": readNoteIn(ctx, readCells)})
		if cells > used {
			pv.Buffer.Note += i18n.T(ctx, "note.sbuf.tail", i18n.Args{"from": i18n.Num(ctx, used), "to": i18n.Num(ctx, cells-1)})
		}
	} else {
		pv.Buffer.Note = i18n.T(ctx, "note.sbuf.none", i18n.Args{"cells": i18n.Num(ctx, cells), "n": i18n.Num(ctx, n), "max": i18n.Num(ctx, int64(picture.MaxInteractive)), "dom": i18n.Num(ctx, views.MaxDOMCells), "read": i18n.UpperFirst(readNoteIn(ctx, readCells))})
	}

	pv.InputSub = i18n.T(ctx, "ssub.input", i18n.Args{"extent": i18n.Extent(ctx, len(in.Sizes), sizesText(in.Sizes), i18n.Count(ctx, n, i18n.Num(ctx, n), "elements")), "type": dt,
		"strides": "{" + picture.JoinCoord(in.Strides) + "}", "offsets": "{" + picture.JoinCoord(s.WindowOffsets) + "}", "wsizes": "{" + picture.JoinCoord(s.WindowSizes) + "}"})
	pv.OutputSub = i18n.T(ctx, "ssub.output", i18n.Args{"extent": i18n.Extent(ctx, len(s.OutputSizes), sizesText(s.OutputSizes), i18n.Count(ctx, outN, i18n.Num(ctx, outN), "elements"))})
	sub := i18n.Args{"cells": i18n.Count(ctx, cells, i18n.Num(ctx, cells), "elements"), "bits": dt.Bits(), "bytes": i18n.Count(ctx, in.BufferSizeInBytes(), i18n.Num(ctx, in.BufferSizeInBytes()), "bytes"), "read": readNoteIn(ctx, readCells)}
	if over := picture.BytesOver(in); over > 0 { // the cells alone do not make the bytes
		sub["over"] = i18n.Count(ctx, over, i18n.Num(ctx, over), "bytes")
		pv.BufferSub = i18n.T(ctx, "ssub.buffer.over", sub)
	} else {
		pv.BufferSub = i18n.T(ctx, "ssub.buffer", sub)
	}
	if cells > used {
		pv.BufferSub += i18n.T(ctx, "ssub.unused", i18n.Args{"count": i18n.Num(ctx, cells-used)})
	}
	pv.Steps = steps(ctx, s, v.T, p.Meta.Values, stepHref)
	pv.Facts = facts(ctx, s, readCells)
	pv.Export = export(ctx, s, v.Dropped)
	if !valuesOK {
		pv.Notes = append(pv.Notes, i18n.T(ctx, "values.none", i18n.Args{"used": i18n.Num(ctx, used*e), "n": i18n.Num(ctx, n), "nbytes": i18n.Num(ctx, n*e), "obytes": i18n.Num(ctx, outN*e), "mib": MaxSliceBytes >> 20}))
	} else if len(v.Values) == 0 {
		pv.Notes = append(pv.Notes, i18n.T(ctx, "values.default", i18n.Args{"n": n}))
	} else {
		pv.Notes = append(pv.Notes, i18n.T(ctx, "values.typed", i18n.Args{"count": i18n.Num(ctx, int64(len(v.Values))), "n": i18n.Num(ctx, n)}))
	}
	if note := ValuesNoteIn(ctx, dt, n, len(v.Values) > 0); note != "" {
		pv.Notes = append(pv.Notes, note)
	}
	if valuesOK && len(v.Values) > 0 && inOffs != nil {
		p.Warnings = sharedValueWarnings(in, inOffs, cv, v.Values)
	}
	p.View.MetaJSON = mustJSON(p.Meta)
	if n <= views.MaxSVGCells && outN <= views.MaxSVGCells && used*e <= MaxSliceBytes {
		picture.NoScriptSVG("/api/v1/slice1.svg?"+query+picture.LangParam(ctx),
			picture.CanvasView{Mode: pv.Input.Mode, NS: &pv.Input.NoScript},
			picture.CanvasView{Mode: pv.Output.Mode, NS: &pv.Output.NoScript},
			picture.CanvasView{Mode: pv.Buffer.Mode, NS: &pv.Buffer.NoScript})
	}
	return p, nil
}

// readNoteIn says how many buffer cells the slice reads, in ctx's locale.
func readNoteIn(ctx context.Context, readCells int64) string {
	switch readCells {
	case -1:
		return i18n.T(ctx, "read.none")
	case 1:
		return i18n.T(ctx, "read.one")
	}
	return i18n.T(ctx, "read.many", i18n.Args{"count": i18n.Num(ctx, readCells)})
}

func sizesText(sizes []int64) string { return strings.ReplaceAll(picture.JoinCoord(sizes), ",", "×") }

// eachCell visits every cell of a grid and names its panels.
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

// windowClasses marks an input element: inside the window ("win", with
// the window's edges in the last two dimensions: wt, wb, wl, wr),
// outside ("out"), and CopyStart ("start").
func windowClasses(s *core.Slice1, coord []int64) string {
	r := len(coord)
	for d, c := range coord {
		if c < s.WindowOffsets[d] || c >= s.WindowOffsets[d]+s.WindowSizes[d] {
			return "out"
		}
	}
	cls := []string{"win"}
	edge := func(d int, lo, hi string) {
		if d < 0 {
			cls = append(cls, lo, hi)
			return
		}
		if coord[d] == s.WindowOffsets[d] {
			cls = append(cls, lo)
		}
		if coord[d] == s.WindowOffsets[d]+s.WindowSizes[d]-1 {
			cls = append(cls, hi)
		}
	}
	edge(r-2, "wt", "wb")
	edge(r-1, "wl", "wr")
	start := true
	for d, c := range coord {
		start = start && c == s.CopyStart[d]
	}
	if start {
		cls = append(cls, "start")
	}
	return strings.Join(cls, " ")
}

// sharedValueWarnings says where typed values meet in one buffer cell (a
// broadcast input): the cell holds one value, the first element's.
func sharedValueWarnings(in *core.Layout, offs []int64, cv *CellValues, vals []Value) []core.Violation {
	dt := in.DataType
	e := dt.Bits() / 8
	tmp, cell := make([]byte, e), make([]byte, e)
	for i, o := range offs {
		putValue(tmp, dt, vals[int64(i)%int64(len(vals))])
		cv.put(cell, o)
		if string(tmp) != string(cell) {
			return []core.Violation{core.NewMsg("values.shared",
				"element ({coord}) shares buffer cell {cell} with an earlier element, so it reads {reads}, not {typed}: a cell holds one value (the first element's)",
				core.Args{"coord": picture.JoinCoord(in.Coordinate(int64(i))), "cell": o, "reads": ValueText(cell, dt), "typed": ValueText(tmp, dt)}).At("values")}
		}
	}
	return nil
}

// stepCount is how many steps the step-through has: CopyStart, one
// per dimension, one per output element.
func stepCount(s *core.Slice1) int64 {
	return 1 + int64(len(s.CopyStart)) + s.OutputElementCount()
}

// step works step t of the copy out with its numbers, as the page's
// script does (static/slice.js, stepOf): the pseudo-code lines it runs,
// the text, the line under it and the erratum that concerns it.
func step(ctx context.Context, s *core.Slice1, t int64, values []string) (lines []int, text, sub, note string) {
	r := int64(len(s.CopyStart))
	cs := append([]int64(nil), s.WindowOffsets...)
	switch {
	case t == 0:
		return []int{1}, fmt.Sprintf("CopyStart = InputWindowOffsets = {%s}", picture.JoinCoord(cs)), "", ""
	case t <= r:
		i := t - 1
		for d := range i + 1 {
			cs[d] = s.CopyStart[d]
		}
		sub = fmt.Sprintf("CopyStart = {%s}", picture.JoinCoord(cs))
		st := s.WindowStrides[i]
		if st < 0 {
			text = i18n.T(ctx, "js.step.neg", i18n.Args{"i": i, "s": st, "off": s.WindowOffsets[i], "size": s.WindowSizes[i], "cs": s.CopyStart[i]})
			if i == erratumE1Axis {
				note = i18n.T(ctx, "js.step.e1", i18n.Args{"i": i})
			}
			return []int{2, 3, 4}, text, sub, note
		}
		text = i18n.T(ctx, "js.step.pos", i18n.Args{"i": i, "s": st, "off": s.WindowOffsets[i]})
		return []int{2, 3}, text, sub, ""
	}
	k := t - r - 1
	c := s.Output.Coordinate(k)
	ic := s.InputCoordinate(k)
	text = fmt.Sprintf("Output[{%s}] = Input[{%s} + {%s} * {%s}] = Input[{%s}]", picture.JoinCoord(c), picture.JoinCoord(s.CopyStart), picture.JoinCoord(s.WindowStrides), picture.JoinCoord(c), picture.JoinCoord(ic))
	if k < int64(len(values)) {
		text += " = " + values[k]
	}
	return []int{6}, text, i18n.T(ctx, "js.step.sub", i18n.Args{"dot": picture.DotText(ic, s.Input.Strides)}), ""
}

// erratumE1Axis is the axis whose step the DirectML page's Example 2
// misprints (erratum E1: InputWindowSizes[0] for InputWindowSizes[2]):
// the note comes with a reversed axis's step there only, since at any
// other axis the page says nothing wrong (and at axis 0 its misprint is
// the right term).
const erratumE1Axis = 2

// stepCells are the cells step t marks: the input element at CopyStart as
// it stands after the step, or the input element that output element k
// copies (k is -1 for the CopyStart steps and before the first).
func stepCells(s *core.Slice1, t int64) (in []int64, k int64) {
	r := int64(len(s.CopyStart))
	switch {
	case t < 0:
		return nil, -1
	case t <= r:
		cs := append([]int64(nil), s.WindowOffsets...)
		copy(cs[:t], s.CopyStart[:t])
		return cs, -1
	}
	k = t - r - 1
	return s.InputCoordinate(k), k
}

// steps is the step-through at step t (-1: before the first). href
// turns a step into the page's URL, for the links without JavaScript.
func steps(ctx context.Context, s *core.Slice1, t int64, values []string, href string) Steps {
	total := stepCount(s)
	st := Steps{Total: total, Cur: t}
	active := map[int]bool{}
	if t < 0 {
		st.Text = i18n.T(ctx, "js.step.intro")
		st.Header = i18n.T(ctx, "js.steps", i18n.Args{"total": i18n.Num(ctx, total)})
	} else {
		var lines []int
		lines, st.Text, st.Sub, st.Note = step(ctx, s, t, values)
		for _, l := range lines {
			active[l] = true
		}
		st.Header = i18n.T(ctx, "js.step.of", i18n.Args{"n": i18n.Num(ctx, t+1), "total": i18n.Num(ctx, total)})
	}
	for i, l := range Code {
		st.Code = append(st.Code, CodeLine{N: i + 1, Text: l, Active: active[i+1]})
	}
	at := func(t int64) string {
		if t < 0 {
			return href
		}
		return href + "&t=" + strconv.FormatInt(t, 10)
	}
	st.Prev, st.Next = at(max(t-1, -1)), at(min(t+1, total-1))
	return st
}

// facts are the slice's derived numbers.
func facts(ctx context.Context, s *core.Slice1, readCells int64) []views.Fact {
	t := func(key i18n.Key, args ...i18n.Args) string { return i18n.T(ctx, key, args...) }
	in := s.Input
	stridesHint := t("fact.strides.given")
	if in.StridesImplicit {
		stridesHint = t("fact.strides.packed")
	}
	read := t("sfact.read.unknown")
	if readCells >= 0 {
		read = i18n.Num(ctx, readCells)
	}
	buffer := "DMLCalcBufferTensorSize"
	if in.TotalTensorSizeInBytes != 0 {
		buffer = t("sfact.total.given", i18n.Args{"min": in.MinimumBufferSizeInBytes()})
	}
	switch cells, used := in.BufferElementCount(), in.IndexOfLastElement()+1; {
	case cells == used+1:
		buffer += t("sfact.tail.one", i18n.Args{"cell": i18n.Num(ctx, used)})
	case cells > used:
		buffer += t("sfact.tail.many", i18n.Args{"from": i18n.Num(ctx, used), "to": i18n.Num(ctx, cells-1)})
	}
	align := t("sfact.align.none")
	if a := in.GuaranteedBaseOffsetAlignment; a != 0 {
		align = fmt.Sprintf("%d %s", a, t("unit.bytes"))
	}
	return []views.Fact{
		{Name: "CopyStart", Value: "{" + picture.JoinCoord(s.CopyStart) + "}", Hint: t("sfact.copystart.hint"), TestID: "fact-copystart"},
		{Name: "MaxCopiedElements", Value: "{" + picture.JoinCoord(s.MaxCopied) + "}", Hint: t("sfact.maxcopied.hint"), TestID: "fact-maxcopied"},
		{Name: "OutputSizes", Value: "{" + picture.JoinCoord(s.OutputSizes) + "}", Hint: t("sfact.outputs", i18n.Args{"count": i18n.Num(ctx, s.OutputElementCount())}), TestID: "fact-outputsizes"},
		{Name: t("sfact.instrides"), Value: "{" + picture.JoinCoord(in.Strides) + "}", Hint: stridesHint, TestID: "fact-instrides"},
		{Name: t("sfact.base"), Value: strconv.FormatInt(s.BaseOffset(), 10), Hint: t("sfact.base.hint"), TestID: "fact-base"},
		{Name: t("sfact.walk"), Value: "{" + picture.JoinCoord(s.SourceStrides()) + "}", Hint: t("sfact.walk.hint"), TestID: "fact-walk"},
		{Name: t("sfact.inbuffer"), Value: picture.BufferFact(ctx, in, i18n.Num[int64]), Hint: buffer, TestID: "fact-buffer"},
		{Name: "GuaranteedBaseOffsetAlignment", Value: align, Hint: t("sfact.align.hint"), TestID: "fact-align"},
		{Name: t("sfact.read"), Value: read, Hint: t("sfact.read.hint"), TestID: "fact-read"},
		{Name: t("sfact.fl"), Value: "DML_FEATURE_LEVEL_" + s.FeatureLevel.String(), Hint: t("sfact.fl.hint"), TestID: "fact-fl"},
	}
}

// export is the same slice as C++, NumPy and ONNX Slice.
func export(ctx context.Context, s *core.Slice1, dropped []int) Export {
	o := s.ONNX()
	list := func(vs []int64) string { return "[" + strings.ReplaceAll(picture.JoinCoord(vs), ",", ", ") + "]" }
	x := Export{
		CPP:   s.CPP(),
		NumPy: "y = " + s.Numpy(),
		ONNX: fmt.Sprintf("starts = %s\nends   = %s\naxes   = %s\nsteps  = %s",
			list(o.Starts), list(o.Ends), list(o.Axes), list(o.Steps)),
	}
	if len(dropped) > 0 {
		ds := make([]string, len(dropped))
		for i, d := range dropped {
			ds[i] = strconv.Itoa(d)
		}
		x.NumPyNote = i18n.T(ctx, "note.numpy.drops", i18n.Args{"axes": strings.Join(ds, ", ")})
	}
	return x
}

// DimsIn is the per-dimension table of the form as typed, in ctx's
// locale: CopyStart and MaxCopiedElements with their numbers, and why
// each output size is or is not allowed.
func DimsIn(ctx context.Context, st State) Dims {
	t := func(key i18n.Key, args ...i18n.Args) string { return i18n.T(ctx, key, args...) }
	var d Dims
	// Numbers far outside UINT/INT range are shown as "?": the field's
	// own error says why, and the arithmetic below stays exact.
	num := func(xs []string, i int) (int64, bool) {
		if i >= len(xs) {
			return 0, false
		}
		n, err := strconv.ParseInt(xs[i], 10, 64)
		return n, err == nil && n >= -1<<32 && n <= 1<<32
	}
	labels := core.DimensionLabels(min(max(len(st.In.Sizes), 1), core.MaxDimensionCount))
	for i := range min(len(st.In.Sizes), core.MaxDimensionCount) {
		r := DimFact{Axis: i, Label: labels[i], Window: "?", Stride: "?", CopyStart: "?", MaxCopied: "?", Out: "?", Verdict: "?"}
		in, inOK := num(st.In.Sizes, i)
		off, offOK := num(st.Off, i)
		win, winOK := num(st.Win, i)
		step, stepOK := num(st.Step, i)
		if offOK && winOK {
			r.Window = fmt.Sprintf("[%d, %d]", off, off+win-1)
			if inOK && off+win > in {
				r.Window += t("dims.past", i18n.Args{"n": in})
			}
		}
		if stepOK {
			r.Stride = strconv.FormatInt(step, 10)
		}
		maxc := int64(0)
		switch {
		case !winOK || !stepOK:
		case step == 0:
			r.MaxCopied = t("dims.none.zero")
		case win < 1:
			r.MaxCopied = t("dims.none.empty")
		default:
			maxc = core.MaxCopiedElements(win, step)
			r.MaxCopied = fmt.Sprintf("1 + (%d − 1) / |%d| = 1 + %d / %d = %d", win, step, win-1, abs64(step), maxc)
			if signed := 1 + (win-1)/step; step < 0 && signed != maxc && d.E2 == "" {
				d.E2 = t("dims.e2", i18n.Args{"axis": i, "win": win, "step": step, "signed": signed, "max": maxc})
			}
			if offOK {
				r.CopyStart = strconv.FormatInt(off, 10)
				if step < 0 {
					r.CopyStart = fmt.Sprintf("%d + %d − 1 = %d", off, win, core.CopyStart(off, win, step))
				}
			}
		}
		out, outOK := num(st.Out, i)
		given := i < len(st.Out) && st.Out[i] != ""
		switch {
		case !given && maxc > 0:
			r.Out, r.OK = t("dims.default", i18n.Args{"n": maxc}), true
			r.Verdict = t("dims.yes.default")
		case !given:
		case !outOK:
			r.Out, r.Verdict = st.Out[i], t("dims.no.number")
		case out < 1:
			r.Out, r.Verdict = st.Out[i], t("dims.no.empty")
		case maxc == 0:
			r.Out = st.Out[i]
		case out > maxc:
			r.Out = st.Out[i]
			r.Verdict = t("dims.no.max", i18n.Args{"out": out, "max": maxc, "win": win, "step": abs64(step), "reached": reached(ctx, off, win, step, maxc, offOK)})
		default:
			r.Out, r.OK = st.Out[i], true
			r.Verdict = t("dims.yes", i18n.Args{"out": out, "max": maxc})
			if out < maxc {
				r.Verdict += t("dims.keeps", i18n.Args{"out": out})
			}
		}
		d.Rows = append(d.Rows, r)
	}
	return d
}

// reached lists the input indices a window reaches along one axis.
func reached(ctx context.Context, off, win, step, n int64, offOK bool) string {
	if !offOK {
		return i18n.T(ctx, "dims.reached.n", i18n.Args{"n": n})
	}
	cs := core.CopyStart(off, win, step)
	var parts []string
	for k := range min(n, 6) {
		parts = append(parts, strconv.FormatInt(cs+k*step, 10))
	}
	if n > 6 {
		parts = append(parts, "…")
	}
	return i18n.T(ctx, "dims.reached.list", i18n.Args{"n": n, "list": strings.Join(parts, ", ")})
}

func abs64(v int64) int64 {
	if v < 0 {
		return -v
	}
	return v
}

// mustJSON is v as JSON text; v is one of this package's own types, which
// always marshal.
func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}
