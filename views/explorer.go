package views

import (
	"context"
	"html"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
)

// MaxDOMCells is the most cells a view draws as DOM elements; above it the
// view is a canvas that the page's script fills from the websocket. A DOM
// cell costs about eight elements and a hundred allocations to render, so
// thousands of them made pages of 64x64 take seconds; every example of the
// DirectML pages and the tour is far below this.
const MaxDOMCells = 256

// MaxSVGCells is the most cells a standalone SVG picture draws in each of
// its views. It is also the largest view a page without JavaScript still
// shows, as that SVG picture in place of its canvas.
const MaxSVGCells = 4096

// View modes of the logical and the buffer views.
const (
	ModeDOM    = "dom"    // every cell is an element, rendered here
	ModeCanvas = "canvas" // a canvas the script draws; the SVG picture or facts only without it
	ModeNone   = "none"   // too large to draw at all
	ModeEmpty  = "empty"  // no valid state to draw: the inputs have errors
)

// Label modes: what a cell shows.
const (
	LabelLetters = "letters" // A, B, C ... as on the DirectML strides page
	LabelIndex   = "index"   // the row-major logical index 0, 1, 2 ...
	LabelOffset  = "offset"  // the buffer offset
)

// LabelModes lists the label modes with their captions, in picker order.
var LabelModes = []Option{
	{Value: LabelLetters, Text: "letters (A, B, C…)"},
	{Value: LabelIndex, Text: "logical index"},
	{Value: LabelOffset, Text: "buffer offset"},
}

// Option is one entry of a select.
type Option struct{ Value, Text string }

// MaxRank is DML_TENSOR_DIMENSION_COUNT_MAX1.
const MaxRank = 8

// Preset is one click that fills the inputs with an example.
type Preset struct {
	Name  string
	Title string // what it shows, for the tooltip and screen readers
	Href  string
	Page  bool   // one of the DirectML strides page's own examples
	Key   string // Title's catalog key
	// Current: the state shown is this example (its tensor and window,
	// however it is shown).
	Current bool
}

// presetLabel is the chip's text: its word in ctx's locale where the
// catalogs have one (preset.name.*), else the name itself, which is code
// (HW, NCHW, nhwc); the name stays in the URL.
func presetLabel(ctx context.Context, p Preset) string {
	if k := i18n.Key("preset.name." + p.Name); i18n.Has(k) {
		return i18n.T(ctx, k)
	}
	return p.Name
}

// presetTitle is p's title in ctx's locale.
func presetTitle(ctx context.Context, p Preset) string {
	if p.Key == "" {
		return p.Title
	}
	return i18n.T(ctx, i18n.Key(p.Key))
}

// Picture is everything drawn for one valid layout.
type Picture struct {
	Meta    Meta
	Facts   Facts
	Logical Logical
	Buffer  Buffer
	// Dot is the dot product of the selected element, if any:
	// "{1,0,1} · {6,3,1} = 1×6 + 0×3 + 1×1 = 7".
	Dot string
	// Linked says what the selected buffer cell holds, if one is selected.
	Linked string
	// Total is TotalTensorSizeInBytes as given, 0 when it was not: the
	// picture's title names it.
	Total int64
	// NoSVG says why the layout has no standalone SVG picture, in the
	// page's language; empty when it has one.
	NoSVG string
}

// HasCanvas reports whether either of the picture's views is drawn on a
// canvas, which needs the canvases' module (static/explorer-canvas.js)
// at once.
func (p Picture) HasCanvas() bool {
	return p.Logical.Mode == ModeCanvas || p.Buffer.Mode == ModeCanvas
}

// Meta is what the page's script needs to draw and link the views.
type Meta struct {
	Sizes        []int64
	Strides      []int64
	Labels       []string // dimension labels
	Bits         int64
	LogicalCount int64
	Cells        int64 // buffer elements drawn
	Over         int64 // bytes past the last whole element (TotalTensorSizeInBytes need not end on one)
	Last         int64 // index of the last element
	LabelMode    string
	Query        string // canonical query of this picture
}

// Facts is the facts panel.
type Facts struct {
	DataType        string
	ElementBits     int64
	Sizes           string
	Strides         string
	StridesImplicit bool
	Counts          []Fact
	Badges          []Badge
	Steps           []Step
	TotalNote       string // how TotalTensorSizeInBytes relates to the minimum
	// HelperNotes say where a published C++ DMLCalcBufferTensorSize
	// returns something other than the exact size worked out in Steps.
	HelperNotes []HelperNote
	CPP         string
	Warnings    []string
}

// Fact is one labelled number.
type Fact struct {
	Name, Value, Hint, TestID string
}

// Badge is one classification: packed, broadcast, overlapping, padded.
type Badge struct {
	Name  string
	State string // "yes", "no" or "unknown"
	Why   string
}

// Step is one line of DMLCalcBufferTensorSize worked out.
type Step struct {
	What, Expr, Value string
}

// HelperNote is one published helper's wrong answer for the tensor.
type HelperNote struct {
	Helper string // whose: "DirectMLX.h" or "documentation page"
	Text   string
	TestID string // helper-note-directmlx, helper-note-doc-page
}

// Logical is the logical view: the last two dimensions as a grid, the
// outer ones as labelled small multiples.
type Logical struct {
	Mode  string
	Count int64
	Last  int64 // the largest offset, for the canvas's colour scale
	Bands []Band
	Note  string
	// NoScript is the SVG picture a page without JavaScript shows in place
	// of this view's canvas, when the state is small enough for one; in
	// a view too large for a canvas (ModeNone), its SVG is shown under
	// the note with or without JavaScript.
	NoScript NoScript
	// Slot names the canvas on a page with several logical views or
	// buffers (the conversion page's): its id is Slot + "-canvas"; ""
	// is the explorer's "logical" (Buffer: "buffer").
	Slot string
}

// SlotOr is slot, or def when it is "".
func SlotOr(slot, def string) string {
	if slot == "" {
		return def
	}
	return slot
}

// NoScript is what a canvas view shows without JavaScript: the standalone
// SVG picture of the whole state (at SVG), or a note that the picture
// shown with an earlier view holds this one too (Above).
type NoScript struct {
	SVG   string
	Above bool
}

// Band is one combination of the dimensions outside the innermost three:
// a row of panels, one per index of the third-innermost dimension.
type Band struct {
	Heading string
	Panels  []Panel
}

// Panel is one 2-D grid of the last two dimensions.
type Panel struct {
	Caption  string // "D=1", or "" for a tensor of rank 2 or less
	What     string // what the cells are, for screen readers: "logical elements" when ""
	RowLabel string // "H"
	ColLabel string // "W"
	ColHeads []int64
	Rows     []LogicalRow
}

// LogicalRow is one row of a panel.
type LogicalRow struct {
	Head  int64
	Cells []LogicalCell
}

// LogicalCell is one logical element.
type LogicalCell struct {
	Index    int64
	Coord    string // "1,0,1"
	Label    string
	Offset   int64
	Tab      bool // the one cell in the tab order
	Selected bool
	Linked   bool
	// Grid names the grid on a page with several (the slice page's "in"
	// and "out"): the id prefix and the test id; "" is the explorer's.
	Grid  string
	Class string // extra classes
	Badge string // a small mark in the corner (the slice's copy order)
	Link  string // data-link: the linked cell of the other grid
	Aria  string // the accessible name, when not the explorer's
}

// ID is the cell's element id: l-3, or in-3 on the slice page.
func (c LogicalCell) ID() string {
	if c.Grid == "" {
		return "l-" + Itoa(c.Index)
	}
	return c.Grid + "-" + Itoa(c.Index)
}

// TestID is the cell's test hook: lcell, incell, outcell.
func (c LogicalCell) TestID() string {
	if c.Grid == "" {
		return "lcell"
	}
	return c.Grid + "cell"
}

// AriaLabelIn is the cell's accessible name in ctx's locale.
func (c LogicalCell) AriaLabelIn(ctx context.Context) string {
	if c.Aria != "" {
		return c.Aria
	}
	// The name starts with the label the cell shows (WCAG 2.5.3).
	name := i18n.T(ctx, "aria.cell", i18n.Args{"coord": c.Coord, "offset": c.Offset})
	if c.Label != "" {
		name = c.Label + ", " + name
	}
	return name
}

// Buffer is the physical buffer view: every element from offset 0 to the
// end of the buffer, wrapped into rows.
type Buffer struct {
	Mode  string
	Cells int64
	Cols  int
	Last  int64 // index of the last element: cells past it are unused tail
	Rows  []BufferRow
	Note  string
	// NoScript is as in Logical.
	NoScript NoScript
	// Slot is as in Logical.
	Slot string
}

// BufferRow is one wrapped row of buffer cells and its byte ruler.
type BufferRow struct {
	Start int64
	Cells []BufferCell
	Ruler []RulerMark
}

// Cell states of the buffer view.
const (
	CellUsed   = "used"   // one logical element lives here
	CellShared = "shared" // several do
	CellHole   = "hole"   // padding between elements
	CellTail   = "tail"   // past the last element, still in the buffer
)

// BufferCell is one element-sized cell of the buffer.
type BufferCell struct {
	Offset   int64
	Label    string
	Count    uint32
	State    string
	Byte     string // byte offset, "28" or "3.5" for 4-bit types
	Tab      bool
	Selected bool
	Linked   bool
	Class    string // extra classes (the slice page's "read")
	Badge    string // a small mark (the slice's copy order)
	Aria     string // the accessible name, when not the explorer's
	// Grid names the buffer on a page with two (the conversion page's
	// "ib" and "ob"): the id prefix and the test id; "" is the explorer's.
	Grid string
	Link string // data-link: the linked cell of the other buffer
}

// ID is the cell's element id: b-3, or ob-3 on the conversion page.
func (c BufferCell) ID() string {
	if c.Grid == "" {
		return "b-" + Itoa(c.Offset)
	}
	return c.Grid + "-" + Itoa(c.Offset)
}

// TestID is the cell's test hook: bcell, ibcell, obcell.
func (c BufferCell) TestID() string {
	if c.Grid == "" {
		return "bcell"
	}
	return c.Grid + "cell"
}

// CountText is the mark of a cell that several elements share: "×2".
func (c BufferCell) CountText() string { return "×" + utoa(c.Count) }

// Shown is the text a shared cell shows, as its accessible name starts:
// its label and its count, "A ×2".
func (c BufferCell) Shown() string { return c.Label + " " + c.CountText() }

// AriaLabelIn is the cell's accessible name in ctx's locale.
func (c BufferCell) AriaLabelIn(ctx context.Context) string {
	name := c.Aria
	if name == "" {
		name = c.describeIn(ctx)
	}
	// A shared cell's name starts with the text it shows, "A ×2", as a
	// logical cell's does (WCAG 2.5.3, label in name): a description
	// ("2 elements share it, the first A") alone does not hold it. The
	// other cells' names hold their label already ("element A", "holds
	// 7"); padding and the tail show an "x" that stands for the word.
	if c.State == CellShared {
		name = c.Shown() + ", " + name
	}
	return name
}

// describeIn is the explorer's description of the cell in ctx's locale.
func (c BufferCell) describeIn(ctx context.Context) string {
	s := i18n.T(ctx, "aria.buf", i18n.Args{"offset": c.Offset, "byte": c.Byte})
	switch c.State {
	case CellUsed:
		return s + i18n.T(ctx, "aria.buf.element", i18n.Args{"label": c.Label})
	case CellShared:
		return s + i18n.T(ctx, "aria.buf.shared", i18n.Args{"n": i18n.Num(ctx, int64(c.Count)), "label": c.Label})
	case CellHole:
		return s + i18n.T(ctx, "aria.buf.padding")
	}
	return s + i18n.T(ctx, "aria.buf.unused")
}

// RulerMark is one labelled stretch of the byte ruler under a buffer row.
type RulerMark struct {
	Span  int    // cells covered: 1, or 2 for a byte of a 4-bit type
	Text  string // byte offset at its start
	Ticks int    // bytes in one cell (1 for 4-bit types)
}

func Itoa(v int64) string { return strconv.FormatInt(v, 10) }

// lblClass sizes a cell's label by its length, so that values such as
// 1100 or -3.25 stay inside their cell instead of running into the next.
// offClass is the class of a logical cell's corner number (its buffer
// offset): smaller as the number is longer, so that the corners of
// neighbouring cells (3000000, 3000001) do not run into each other.
func offClass(offset int64) string {
	switch n := len(strconv.FormatInt(offset, 10)); {
	case n <= 4:
		return "off"
	case n <= 6:
		return "off d6"
	case n <= 8:
		return "off d8"
	}
	return "off d10"
}

func lblClass(label string) string {
	switch n := utf8.RuneCountInString(label); {
	case n <= 3:
		return "lbl"
	case n == 4:
		return "lbl l4"
	case n == 5:
		return "lbl l5"
	case n <= 7:
		return "lbl l7"
	}
	return "lbl l8"
}

func utoa(v uint32) string { return strconv.FormatUint(uint64(v), 10) }

// JoinInts writes integers as "1,0,1".
func JoinInts(vs []int64) string {
	b := make([]byte, 0, len(vs)*3)
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, v, 10)
	}
	return string(b)
}

func JoinStrings(vs []string) string {
	b := make([]byte, 0, len(vs)*3)
	for i, v := range vs {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, v...)
	}
	return string(b)
}

func BoolAttr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func tabIndex(tab bool) string {
	if tab {
		return "0"
	}
	return "-1"
}

// LogicalSubIn is the logical view's subtitle in ctx's locale.
func LogicalSubIn(ctx context.Context, m Meta) string {
	if len(m.Sizes) == 0 {
		return ""
	}
	count := i18n.Count(ctx, m.LogicalCount, i18n.Grouped(ctx, m.LogicalCount), "elements")
	return i18n.T(ctx, "sub.logical", i18n.Args{"extent": i18n.Extent(ctx, len(m.Sizes), sizesText(m.Sizes, "×"), count), "labels": "{" + JoinStrings(m.Labels) + "}"})
}

// BufferSubIn is the buffer view's subtitle in ctx's locale.
func BufferSubIn(ctx context.Context, m Meta) string {
	if len(m.Sizes) == 0 {
		return ""
	}
	args := i18n.Args{
		"cells": i18n.Count(ctx, m.Cells, i18n.Grouped(ctx, m.Cells), "elements"),
		"bits":  Itoa(m.Bits),
		"bytes": i18n.Count(ctx, byteCount(m.Cells, m.Bits), bytesTextIn(ctx, m.Cells, m.Bits), "bytes"),
	}
	if m.Over == 0 {
		return i18n.T(ctx, "sub.buffer", args)
	}
	// The elements' bytes alone would fall short of the buffer size the
	// facts give: add the bytes left over (only ever with elements of
	// whole bytes; 4-bit ones fill every byte).
	bytes := m.Cells*(m.Bits/8) + m.Over
	args["bytes"] = i18n.Count(ctx, bytes, i18n.Grouped(ctx, bytes), "bytes")
	args["over"] = i18n.Count(ctx, m.Over, i18n.Grouped(ctx, m.Over), "bytes")
	return i18n.T(ctx, "sub.buffer.over", args)
}

// byteCount is 1 when cells elements of bits fill exactly one byte, and 2
// (any plural) otherwise: i18n.Count's n for bytesText.
func byteCount(cells, bits int64) int64 {
	if bits == 8 && cells == 1 || bits == 4 && cells == 2 {
		return 1
	}
	return 2
}

func sizesText(vs []int64, sep string) string {
	out := ""
	for i, v := range vs {
		if i > 0 {
			out += sep
		}
		out += Itoa(v)
	}
	return out
}

// bytesText is the size of cells elements of bits (4, 8, 16, 32 or 64)
// in bytes, without multiplying by bits first: cells can be nearly 2^63
// (a huge TotalTensorSizeInBytes).
// bytesTextIn is bytesText in ctx's locale: grouped its way, with its
// decimal separator for a half byte (45 000,5 octets).
func bytesTextIn(ctx context.Context, cells, bits int64) string {
	l := i18n.LocaleOf(ctx)
	switch {
	case l == i18n.English:
		return bytesText(cells, bits)
	case bits >= 8:
		return l.Number(cells * (bits / 8))
	case cells%2 == 0:
		return l.Number(cells / 2)
	}
	return l.Number(cells/2) + l.DecimalSeparator() + "5"
}

func bytesText(cells, bits int64) string {
	if bits >= 8 {
		return i18n.Group(cells * (bits / 8))
	}
	if cells%2 == 0 {
		return i18n.Group(cells / 2)
	}
	return i18n.Group(cells/2) + ".5"
}

func panelLabel(ctx context.Context, p Panel) string {
	s := i18n.T(ctx, "logical.panel")
	if p.What != "" {
		s = p.What
	}
	if p.Caption != "" {
		s = i18n.T(ctx, "aria.panel.at", i18n.Args{"what": s, "caption": p.Caption})
	}
	return s
}

func badgeMark(state string) string {
	switch state {
	case "yes":
		return "✓"
	case "no":
		return "–"
	}
	return "?"
}

// messageLines writes messages a line each, the rule a message cites after
// its words (" — rule") in a smaller span: the words are what a learner
// reads first, and on a phone the rule made each message a long block.
// static/live.js writes the answers' messages the same way.
func messageLines(msgs []string) templ.Component {
	return templ.ComponentFunc(func(_ context.Context, w io.Writer) error {
		var b strings.Builder
		for i, m := range msgs {
			if i > 0 {
				b.WriteByte('\n')
			}
			words, rule, ok := strings.Cut(m, " — ")
			b.WriteString(html.EscapeString(words))
			if ok {
				b.WriteString(`<span class="rule">`)
				b.WriteString(html.EscapeString(" — " + rule))
				b.WriteString(`</span>`)
			}
		}
		_, err := io.WriteString(w, b.String())
		return err
	})
}

// FieldName is the core FieldName name of one entry: inputWindowSizes[2].
func FieldName(name string, i int) string { return name + "[" + Itoa(int64(i)) + "]" }

// NewestLevel names the feature-level select's first option, the level
// a state without fl= is judged at: "DML_FEATURE_LEVEL_6_4 (newest)", as
// the other options name theirs.
func NewestLevel(ctx context.Context) string {
	return i18n.T(ctx, "form.featurelevel.newest", i18n.Args{"level": "DML_FEATURE_LEVEL_" + core.NewestFeatureLevel.String()})
}
