package picture

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/views"
)

// MaxInteractive is the most logical elements (and buffer cells) the
// explorer draws; larger tensors get their facts only.
const MaxInteractive = 1 << 24

// OffsetChunk is how many offsets are computed at a time when a walk is
// enumerated.
const OffsetChunk = 1 << 16

// Picture is one valid layout drawn: the view model and the arrays the
// page's script links the views with.
type Picture struct {
	View    views.Picture
	Layout  *core.Layout
	Walk    compute.Walk
	Offsets []int64  // every logical element's offset, when the logical view is DOM
	Counts  []uint32 // every buffer cell's count, when the buffer view is DOM
}

// New draws v for a page or an edit: views of up to views.MaxDOMCells
// cells as DOM cells, larger ones as canvases. Every offset and count
// comes from compute.
func New(ctx context.Context, v Validated, query string) (*Picture, error) {
	return draw(ctx, v, query, views.MaxDOMCells)
}

// NewSVG draws v for the standalone SVG picture, which draws views of up
// to views.MaxSVGCells cells.
func NewSVG(ctx context.Context, v Validated, query string) (*Picture, error) {
	return draw(ctx, v, query, views.MaxSVGCells)
}

func draw(ctx context.Context, v Validated, query string, domMax int64) (*Picture, error) {
	l := v.Layout
	labelMode := v.State.Labels
	p := &Picture{Layout: l, Walk: compute.LayoutWalk(l)}
	n, cells := l.LogicalElementCount(), l.BufferElementCount()
	p.View.Meta = views.Meta{
		Sizes: l.Sizes, Strides: l.Strides, Labels: core.DimensionLabels(l.Rank()), Bits: l.ElementSizeInBits(),
		LogicalCount: n, Cells: cells, Over: BytesOver(l), Last: l.IndexOfLastElement(), LabelMode: labelMode, Query: query,
	}
	p.View.Facts = newFacts(ctx, l)
	p.View.Total = l.TotalTensorSizeInBytes
	p.View.Logical.Mode = viewMode(n, n, domMax)
	p.View.Logical.Count = n
	p.View.Logical.Last = l.IndexOfLastElement()
	p.View.Buffer.Mode = viewMode(cells, n, domMax)
	p.View.Buffer.Cells = cells
	p.View.Buffer.Last = l.IndexOfLastElement()
	switch p.View.Logical.Mode {
	case views.ModeCanvas:
		p.View.Logical.Note = i18n.T(ctx, "note.logical.canvas", i18n.Args{"n": i18n.Grouped(ctx, n)})
	case views.ModeNone:
		p.View.Logical.Note = i18n.T(ctx, "note.logical.none", i18n.Args{"n": i18n.Grouped(ctx, n), "max": i18n.Grouped(ctx, MaxInteractive)})
	}
	switch p.View.Buffer.Mode {
	case views.ModeCanvas:
		p.View.Buffer.Note = i18n.T(ctx, "note.buffer.canvas", i18n.Args{"n": i18n.Grouped(ctx, cells)})
	case views.ModeNone:
		p.View.Buffer.Note = i18n.T(ctx, "note.buffer.none", i18n.Args{"cells": i18n.Grouped(ctx, cells), "n": i18n.Grouped(ctx, n), "max": i18n.Grouped(ctx, MaxInteractive)})
	}

	if n <= views.MaxSVGCells && cells <= views.MaxSVGCells {
		NoScriptSVG("/api/v1/layout.svg?"+query+LangParam(ctx),
			CanvasView{p.View.Logical.Mode, &p.View.Logical.NoScript},
			CanvasView{p.View.Buffer.Mode, &p.View.Buffer.NoScript})
	}

	if p.View.Logical.Mode == views.ModeDOM {
		p.Offsets = make([]int64, n)
		compute.Offsets(p.Walk, 0, p.Offsets)
	}
	var first []int64 // first logical element stored in each cell
	if p.View.Buffer.Mode == views.ModeDOM {
		var err error
		if p.Counts, err = compute.CellCounts(ctx, p.Walk, cells); err != nil {
			return nil, err
		}
		if labelMode != views.LabelOffset {
			if first, err = firstElements(ctx, p.Walk, p.Offsets, p.Counts); err != nil {
				return nil, err
			}
		}
	}
	if p.View.Logical.Mode == views.ModeDOM {
		p.View.Logical.Bands = LogicalBands(l, p.Offsets, labelMode, v.Sel, v.Cell)
	}
	if p.View.Buffer.Mode == views.ModeDOM {
		var selOff int64 = -1
		if v.Sel != nil {
			selOff, _ = l.Offset(v.Sel)
		}
		p.View.Buffer.Cols, p.View.Buffer.Rows = BufferRows(l, p.Counts, first, labelMode, v.Cell, selOff)
	}
	if v.Sel != nil {
		p.View.Dot = DotText(v.Sel, l.Strides)
	} else if v.Cell >= 0 {
		p.View.Linked = linkedText(ctx, l, p.Walk, v.Cell)
	}
	return p, nil
}

// CanvasView is a view's mode and what it shows without JavaScript.
type CanvasView struct {
	Mode string
	NS   *views.NoScript
}

// NoScriptSVG has the canvas views, in page order, show the SVG picture at
// url without JavaScript: the first shows it, the others say it is above.
func NoScriptSVG(url string, vs ...CanvasView) {
	shown := false
	for _, v := range vs {
		if v.Mode != views.ModeCanvas {
			continue
		}
		if shown {
			v.NS.Above = true
		} else {
			v.NS.SVG, shown = url, true
		}
	}
}

// ViewMode is how a page draws a view of cells cells for a tensor of
// logical elements.
func ViewMode(cells, logical int64) string { return viewMode(cells, logical, views.MaxDOMCells) }

func viewMode(cells, logical, domMax int64) string {
	switch {
	case logical > MaxInteractive || cells > MaxInteractive:
		return views.ModeNone
	case cells > domMax:
		return views.ModeCanvas
	}
	return views.ModeDOM
}

// firstElements finds, for each buffer cell, the first logical element
// (row-major) stored there, or -1; the walk stops once every used cell is
// found.
func firstElements(ctx context.Context, w compute.Walk, offsets []int64, counts []uint32) ([]int64, error) {
	first := make([]int64, len(counts))
	var used int
	for i, c := range counts {
		first[i] = -1
		if c > 0 {
			used++
		}
	}
	visit := func(base int64, offs []int64) bool {
		for j, o := range offs {
			if o >= 0 && o < int64(len(first)) && first[o] < 0 {
				first[o] = base + int64(j)
				if used--; used == 0 {
					return false
				}
			}
		}
		return true
	}
	if offsets != nil {
		visit(0, offsets)
		return first, nil
	}
	n := w.Len()
	buf := make([]int64, min(n, OffsetChunk))
	for i := int64(0); i < n && used > 0; i += OffsetChunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		chunk := buf[:min(OffsetChunk, n-i)]
		compute.Offsets(w, i, chunk)
		if !visit(i, chunk) {
			break
		}
	}
	return first, nil
}

// cellLabel is what a cell shows for logical element i at offset off. In
// letters mode i is the first element stored at off, so that the letter is
// the value the element reads, as the strides page draws it: a broadcast
// 2x3 tensor reads A B C / A B C.
func cellLabel(mode string, i, off int64) string {
	switch mode {
	case views.LabelIndex:
		return strconv.FormatInt(i, 10)
	case views.LabelOffset:
		return strconv.FormatInt(off, 10)
	}
	return letters(i)
}

// letters names element i as the DirectML page does, A to Z, then AA, AB
// and so on.
func letters(i int64) string {
	var b []byte
	for i++; i > 0; i = (i - 1) / 26 {
		b = append(b, byte('A'+(i-1)%26))
	}
	for l, r := 0, len(b)-1; l < r; l, r = l+1, r-1 {
		b[l], b[r] = b[r], b[l]
	}
	return string(b)
}

// LogicalBands lays out the DOM logical view: the last two dimensions as a
// grid, the third-innermost as panels side by side, the rest as bands.
func LogicalBands(l *core.Layout, offsets []int64, labelMode string, sel []int64, cell int64) []views.Band {
	r := l.Rank()
	labels := core.DimensionLabels(r)
	rows, cols := int64(1), l.Sizes[r-1]
	rowLabel := ""
	if r >= 2 {
		rows, rowLabel = l.Sizes[r-2], labels[r-2]
	}
	panelsPer, bands := int64(1), int64(1)
	if r >= 3 {
		panelsPer = l.Sizes[r-3]
	}
	for d := 0; d < r-3; d++ {
		bands *= l.Sizes[d]
	}
	selIndex := int64(-1)
	if sel != nil {
		selIndex = RowMajorIndex(l.Sizes, sel)
	}
	tab := selIndex
	if tab < 0 {
		tab = 0
	}
	if cell >= 0 && selIndex < 0 {
		for i, o := range offsets {
			if o == cell {
				tab = int64(i)
				break
			}
		}
	}
	firstAt := make(map[int64]int64, len(offsets)) // offset -> first element stored there
	for i := len(offsets) - 1; i >= 0; i-- {
		firstAt[offsets[i]] = int64(i)
	}
	colHeads := make([]int64, cols)
	for i := range colHeads {
		colHeads[i] = int64(i)
	}
	out := make([]views.Band, bands)
	var i int64
	coord := make([]int64, r)
	for b := range bands {
		band := &out[b]
		for range panelsPer {
			panel := views.Panel{RowLabel: rowLabel, ColLabel: labels[r-1], ColHeads: colHeads}
			for rr := range rows {
				row := views.LogicalRow{Head: rr, Cells: make([]views.LogicalCell, cols)}
				for c := range cols {
					fillCoord(coord, l.Sizes, i)
					off := offsets[i]
					labelOf := i
					if labelMode == views.LabelLetters {
						labelOf = firstAt[off]
					}
					row.Cells[c] = views.LogicalCell{
						Index: i, Coord: JoinCoord(coord), Label: cellLabel(labelMode, labelOf, off), Offset: off,
						Tab: i == tab, Selected: i == selIndex, Linked: cell >= 0 && off == cell,
					}
					i++
				}
				panel.Rows = append(panel.Rows, row)
			}
			fillCoord(coord, l.Sizes, i-1)
			if r >= 3 && l.Sizes[r-3] > 1 {
				panel.Caption = fmt.Sprintf("%s=%d", labels[r-3], coord[r-3])
			}
			band.Panels = append(band.Panels, panel)
		}
		// Size-1 dimensions are always 0 and say nothing: left out.
		var parts []string
		for d := 0; d < r-3; d++ {
			if l.Sizes[d] > 1 {
				parts = append(parts, fmt.Sprintf("%s=%d", labels[d], coord[d]))
			}
		}
		band.Heading = strings.Join(parts, ", ")
	}
	return out
}

func fillCoord(coord, sizes []int64, i int64) {
	for d := len(sizes) - 1; d >= 0; d-- {
		coord[d] = i % sizes[d]
		i /= sizes[d]
	}
}

func RowMajorIndex(sizes, coord []int64) int64 {
	var i int64
	for d, s := range sizes {
		i = i*s + coord[d]
	}
	return i
}

// JoinCoord writes a coordinate or a list of sizes as "1,0,1".
func JoinCoord(c []int64) string { return views.JoinInts(c) }

// bufferCols is how many cells a row of the DOM buffer view holds: the
// whole buffer when it is short (as the strides page draws it), else 16.
func bufferCols(cells int64) int {
	if cells <= 16 {
		return int(cells)
	}
	return 16
}

// BufferRows lays out the DOM buffer view with its byte ruler.
func BufferRows(l *core.Layout, counts []uint32, first []int64, labelMode string, cell, selOff int64) (int, []views.BufferRow) {
	cells := int64(len(counts))
	cols := int64(bufferCols(cells))
	bits := l.ElementSizeInBits()
	last := l.IndexOfLastElement()
	tab := cell
	if tab < 0 {
		tab = max(selOff, 0)
	}
	var rows []views.BufferRow
	for start := int64(0); start < cells; start += cols {
		end := min(start+cols, cells)
		row := views.BufferRow{Start: start}
		for o := start; o < end; o++ {
			c := views.BufferCell{Offset: o, Count: counts[o], Byte: byteText(o, bits), Tab: o == tab, Selected: o == cell, Linked: o == selOff}
			switch {
			case counts[o] > 1:
				c.State = views.CellShared
			case counts[o] == 1:
				c.State = views.CellUsed
			case o <= last:
				c.State, c.Label = views.CellHole, "x"
			default:
				c.State, c.Label = views.CellTail, "x"
			}
			if counts[o] > 0 {
				if labelMode == views.LabelOffset || first == nil {
					c.Label = strconv.FormatInt(o, 10)
				} else {
					c.Label = cellLabel(labelMode, first[o], o)
				}
			}
			row.Cells = append(row.Cells, c)
		}
		if bits >= 8 {
			for o := start; o < end; o++ {
				row.Ruler = append(row.Ruler, views.RulerMark{Span: 1, Ticks: int(bits / 8), Text: strconv.FormatInt(o*bits/8, 10)})
			}
		} else {
			for o := start; o < end; o += 2 {
				row.Ruler = append(row.Ruler, views.RulerMark{Span: int(min(2, end-o)), Ticks: 1, Text: strconv.FormatInt(o/2, 10)})
			}
		}
		rows = append(rows, row)
	}
	return int(cols), rows
}

func byteText(off, bits int64) string {
	b := off * bits
	if b%8 == 0 {
		return strconv.FormatInt(b/8, 10)
	}
	return strconv.FormatInt(b/8, 10) + ".5"
}

// DotText is the dot product that finds an element:
// "{1,0,1} · {6,3,1} = 1×6 + 0×3 + 1×1 = 7".
func DotText(coord, strides []int64) string {
	terms := make([]string, len(coord))
	var sum int64
	for i, c := range coord {
		terms[i] = fmt.Sprintf("%d×%d", c, strides[i])
		sum += c * strides[i]
	}
	return fmt.Sprintf("{%s} · {%s} = %s = %d", JoinCoord(coord), JoinCoord(strides), strings.Join(terms, " + "), sum)
}

// linkedText says which logical elements a buffer cell holds.
func linkedText(ctx context.Context, l *core.Layout, w compute.Walk, cell int64) string {
	if cell > l.IndexOfLastElement() {
		return i18n.T(ctx, "dot.unused", i18n.Args{"o": cell, "last": l.IndexOfLastElement()})
	}
	const listed = 8
	var found []string
	var count int64
	n := w.Len()
	if n > MaxInteractive {
		return ""
	}
	buf := make([]int64, min(n, OffsetChunk))
	for i := int64(0); i < n; i += OffsetChunk {
		if ctx.Err() != nil {
			return ""
		}
		chunk := buf[:min(OffsetChunk, n-i)]
		compute.Offsets(w, i, chunk)
		for j, o := range chunk {
			if o == cell {
				count++
				if len(found) < listed {
					found = append(found, "("+JoinCoord(l.Coordinate(i+int64(j)))+")")
				}
			}
		}
	}
	switch count {
	case 0:
		return i18n.T(ctx, "js.buffer.padding", i18n.Args{"o": cell})
	case 1:
		return i18n.T(ctx, "js.buffer.holds", i18n.Args{"o": cell, "list": found[0]})
	}
	more := ""
	if count > listed {
		more = i18n.T(ctx, "js.more", i18n.Args{"n": count - listed})
	}
	return i18n.T(ctx, "js.buffer.shared", i18n.Args{"o": cell, "n": count, "list": strings.Join(found, ", ") + more})
}

// newFacts is the facts panel of l.
func newFacts(ctx context.Context, l *core.Layout) views.Facts {
	bits := l.ElementSizeInBits()
	f := views.Facts{
		DataType: l.DataType.String(), ElementBits: bits,
		Sizes: "{" + JoinCoord(l.Sizes) + "}", Strides: "{" + JoinCoord(l.Strides) + "}", StridesImplicit: l.StridesImplicit,
		CPP: core.CPPTensorDesc(l, "tensor"),
	}
	t := func(key i18n.Key, args ...i18n.Args) string { return i18n.T(ctx, key, args...) }
	distinct := t("fact.distinct.unknown")
	if d, ok := l.DistinctOffsetCount(); ok {
		distinct = i18n.Num(ctx, d)
	}
	sizesProduct := strings.ReplaceAll(JoinCoord(l.Sizes), ",", " × ")
	stridesNote := t("fact.strides.given")
	if l.StridesImplicit {
		stridesNote = t("fact.strides.packed")
	}
	f.Counts = []views.Fact{
		{Name: t("fact.dtype"), Value: t("fact.dtype.value", i18n.Args{"type": l.DataType, "bits": bits}), TestID: "fact-dtype"},
		{Name: t("fact.strides"), Value: f.Strides, Hint: stridesNote, TestID: "fact-strides"},
		{Name: t("fact.logical"), Value: i18n.Grouped(ctx, l.LogicalElementCount()), Hint: t("fact.logical.hint", i18n.Args{"product": sizesProduct}), TestID: "fact-logical"},
		{Name: t("fact.last"), Value: i18n.Grouped(ctx, l.IndexOfLastElement()), Hint: t("fact.last.hint"), TestID: "fact-last"},
		{Name: t("fact.implied"), Value: i18n.Grouped(ctx, l.MinimumImpliedElementCount()), Hint: t("fact.implied.hint"), TestID: "fact-implied"},
		{Name: t("fact.distinct"), Value: distinct, Hint: t("fact.distinct.hint"), TestID: "fact-distinct"},
		{Name: t("fact.buffer"), Value: BufferFact(ctx, l, i18n.Grouped[int64]), Hint: "max(DMLCalcBufferTensorSize, TotalTensorSizeInBytes)", TestID: "fact-buffer"},
	}
	f.Badges = []views.Badge{
		{Name: "packed", State: triState(l.IsPacked()), Why: t("badge.packed.why")},
		{Name: "broadcast", State: triState(core.TriOf(l.HasBroadcast())), Why: t("badge.broadcast.why")},
		{Name: "overlapping", State: triState(l.HasOverlap()), Why: t("badge.overlapping.why")},
		{Name: "padded", State: triState(l.IsPadded()), Why: t("badge.padded.why")},
	}
	steps := l.BufferSizeSteps()
	if steps.StridesGiven {
		f.Steps = append(f.Steps,
			views.Step{What: t("step.last"), Expr: dotOfLast(l), Value: "= " + i18n.Num(ctx, steps.IndexOfLastElement)},
			views.Step{What: t("step.elements"), Expr: fmt.Sprintf("%d + 1", steps.IndexOfLastElement), Value: "= " + i18n.Num(ctx, steps.ElementCount)})
	} else {
		f.Steps = append(f.Steps, views.Step{What: t("step.elements.packed"), Expr: sizesProduct, Value: "= " + i18n.Num(ctx, steps.ElementCount)})
	}
	f.Steps = append(f.Steps,
		views.Step{What: t("step.times"), Expr: fmt.Sprintf("%d × %d %s", steps.ElementCount, steps.ElementSizeInBits, t("unit.bits")), Value: "= " + i18n.Num(ctx, steps.SizeInBits) + " " + t("unit.bits")},
		views.Step{What: t("step.bytes"), Expr: fmt.Sprintf("ceil(%d ÷ 8)", steps.SizeInBits), Value: "= " + i18n.Num(ctx, steps.BytesBeforeRounding) + " " + t("unit.bytes")},
		views.Step{What: t("step.round"), Expr: fmt.Sprintf("roundUp4(%d)", steps.BytesBeforeRounding), Value: "= " + i18n.Num(ctx, steps.Result) + " " + t("unit.bytes")},
	)
	dmlx, docPage := l.PublishedHelperResults()
	f.HelperNotes = helperNotes(ctx, l.DataType, steps, dmlx, docPage)
	cells, last := l.BufferElementCount(), l.IndexOfLastElement()
	tail := ""
	if cells-1 > last {
		tail = t("total.tail.many", i18n.Args{"from": i18n.Num(ctx, last+1), "to": i18n.Num(ctx, cells-1)})
		if cells-1 == last+1 {
			tail = t("total.tail.one", i18n.Args{"cell": i18n.Num(ctx, last+1)})
		}
	}
	if l.TotalTensorSizeInBytes != 0 {
		args := i18n.Args{"total": l.TotalTensorSizeInBytes, "min": steps.Result, "bytes": i18n.Count(ctx, l.BufferSizeInBytes(), i18n.Num(ctx, l.BufferSizeInBytes()), "bytes"), "cells": i18n.Count(ctx, cells, i18n.Num(ctx, cells), "elements"), "tail": tail}
		key := i18n.Key("total.given")
		if over := BytesOver(l); over > 0 {
			key, args["over"] = "total.given.over", i18n.Count(ctx, over, i18n.Num(ctx, over), "bytes")
		}
		f.TotalNote = t(key, args)
	} else {
		f.TotalNote = t("total.minimum", i18n.Args{"bytes": i18n.Count(ctx, steps.Result, i18n.Num(ctx, steps.Result), "bytes"), "cells": i18n.Count(ctx, cells, i18n.Num(ctx, cells), "elements"), "tail": tail})
	}
	for _, w := range Localised(ctx, l.Warnings) {
		f.Warnings = append(f.Warnings, w.Message)
	}
	return f
}

// BytesOver is how many bytes of l's buffer lie past its last whole
// element. DirectML asks only that TotalTensorSizeInBytes be at least
// DMLCalcBufferTensorSize, so it need not be a whole number of elements;
// 4-bit elements, two to a byte, always fill it.
func BytesOver(l *core.Layout) int64 {
	bits := l.ElementSizeInBits()
	if bits < 8 {
		return 0
	}
	return l.BufferSizeInBytes() - l.BufferElementCount()*(bits/8)
}

// BufferFact is the facts panel's buffer size of l, "40 bytes = 10
// elements", with the bytes past the last element when there are any;
// num writes the numbers.
func BufferFact(ctx context.Context, l *core.Layout, num func(context.Context, int64) string) string {
	bytes, cells := l.BufferSizeInBytes(), l.BufferElementCount()
	args := i18n.Args{"bytes": i18n.Count(ctx, bytes, num(ctx, bytes), "bytes"), "elements": i18n.Count(ctx, cells, num(ctx, cells), "elements")}
	if over := BytesOver(l); over > 0 {
		args["over"] = i18n.Count(ctx, over, num(ctx, over), "bytes")
		return i18n.T(ctx, "fact.bytes.elements.over", args)
	}
	return i18n.T(ctx, "fact.bytes.elements", args)
}

// helperNotes says where the published C++ helpers return something other
// than the exact size s.Result: dmlx is DirectMLX.h's answer, docPage the
// documentation page's (core.PublishedHelperResult). For a valid layout
// DirectMLX.h's 32-bit index cannot wrap (validation keeps it below
// 2^32-1), so in practice only the documentation page's missing 4-bit case
// shows; the wrap note stays in case validation ever admits more.
func helperNotes(ctx context.Context, dt core.DataType, s core.BufferSizeSteps, dmlx, docPage uint64) []views.HelperNote {
	exact := uint64(s.Result)
	var notes []views.HelperNote
	if dmlx != exact {
		text := i18n.T(ctx, "helper.dmlx", i18n.Args{"got": i18n.Num(ctx, int64(dmlx))})
		if s.StridesGiven {
			text = i18n.T(ctx, "helper.dmlx.wrap", i18n.Args{"got": i18n.Num(ctx, int64(dmlx)), "last": s.IndexOfLastElement, "wrapped": uint32(s.IndexOfLastElement)})
		}
		notes = append(notes, views.HelperNote{
			Helper: "DirectMLX.h", TestID: "helper-note-directmlx",
			Text: text + i18n.T(ctx, "helper.exact", i18n.Args{"exact": i18n.Num(ctx, int64(exact))}),
		})
	}
	if docPage != dmlx {
		// The two helpers differ only in the 4-bit case the page lacks.
		text := i18n.T(ctx, "helper.doc", i18n.Args{"got": i18n.Num(ctx, int64(docPage)), "type": dt})
		if dmlx == exact {
			text += i18n.T(ctx, "helper.doc.exact", i18n.Args{"bits": i18n.Num(ctx, s.SizeInBits), "bytes": i18n.Num(ctx, s.BytesBeforeRounding), "exact": i18n.Num(ctx, int64(exact))})
		} else {
			text += i18n.T(ctx, "helper.doc.dmlx", i18n.Args{"got": i18n.Num(ctx, int64(dmlx))})
		}
		notes = append(notes, views.HelperNote{Helper: i18n.T(ctx, "helper.docpage"), TestID: "helper-note-doc-page", Text: text})
	}
	return notes
}

func dotOfLast(l *core.Layout) string {
	m := make([]int64, l.Rank())
	terms := make([]string, l.Rank())
	for i, s := range l.Sizes {
		m[i] = s - 1
		terms[i] = fmt.Sprintf("%d×%d", s-1, l.Strides[i])
	}
	return fmt.Sprintf("{%s} · {%s} = %s", JoinCoord(m), JoinCoord(l.Strides), strings.Join(terms, " + "))
}

func triState(t core.Tri) string {
	switch {
	case !t.Known():
		return "unknown"
	case t.Bool():
		return "yes"
	}
	return "no"
}
