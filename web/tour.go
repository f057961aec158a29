package web

import (
	"context"
	"net/http"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// tourStep is one step of the guided tour through the two DirectML pages:
// a live explorer state (query) or a DML_SLICE1 example (slice).
type tourStep struct {
	title    string
	text     []string
	question string
	answer   string
	query    string // the layout explorer's state
	slice    *tourSliceStep
}

// tourSliceStep is one of the DML_SLICE1 page's examples.
type tourSliceStep struct {
	preset string // the slice explorer's example
	desc   core.Slice1Desc
	errata []views.Fact
}

// sliceExample is the input of the DML_SLICE1 page's examples: 4×4,
// FLOAT32, values 1..16, the window of rows 0-3 and columns 1-3.
func sliceExample(strides ...int64) core.Slice1Desc {
	return core.Slice1Desc{
		Input:         core.TensorDesc{DataType: core.Float32, Sizes: []int64{1, 1, 4, 4}},
		WindowOffsets: []int64{0, 0, 0, 1},
		WindowSizes:   []int64{1, 1, 4, 3},
		WindowStrides: strides,
	}
}

// The errata of the DML_SLICE1 page the tour points out.
var (
	erratumE1 = views.Fact{Name: "E1", Value: "Example 2 writes CopyStart[2] = InputWindowOffsets[2] + InputWindowSizes[0] − 1. The size of axis 2 is meant: InputWindowSizes[2] = 4 gives 0 + 4 − 1 = 3, the page's own arithmetic (with InputWindowSizes[0] = 1 it would be 0).", TestID: "erratum-E1"}
	erratumE2 = views.Fact{Name: "E2", Value: "The page prints MaxCopiedElements = 1 + (InputWindowSize − 1) / InputWindowStrides with the signed stride: for axis 2 that is 1 + 3 / (−2) = 0 in integer division, which would reject its own Example 2. The magnitude is meant: 1 + 3 / |−2| = 2, as DirectMLX's dml::Slice computes it.", TestID: "erratum-E2"}
	erratumE3 = views.Fact{Name: "E3", Value: "The Members section types InputWindowStrides as const UINT*; the struct and the operator take const INT*, which is what lets the next example copy backwards.", TestID: "erratum-E3"}
)

// tourSteps walk through the strides page in its order, then the two
// examples of the DML_SLICE1 page.
var tourSteps = []tourStep{
	{
		title: "Logical versus physical",
		text: []string{
			"A tensor's sizes give its logical shape: this one is 2 high and 3 wide, six elements A to F. Its strides give the physical layout: how many buffer elements to step over to reach the next element along each dimension.",
			"The grid is the logical view, the row of cells under it the buffer in memory; point at a cell in either view to see where it lives in the other.",
		},
		question: "Point at E in the logical view. Which buffer offset holds it, and which dot product finds it?",
		answer:   "Offset 4: E is element {1,1}, and {1,1} · {3,1} = 1×3 + 1×1 = 4.",
		query:    "dt=FLOAT32&sizes=2,3&strides=3,1&sel=1,1",
	},
	{
		title: "Row-major: HW",
		text: []string{
			"C and C++ store a 2-D array row-major: the elements along the width are contiguous, so the W-stride is 1, and the H-stride is the width, 3 (from A to D).",
			"DirectML calls this layout HW: height is the highest-order dimension. It is also what packed strides are, so Strides = nullptr means exactly this.",
		},
		question: "Switch the strides to packed (Strides = nullptr). Which strides does DirectML use, and does any cell move?",
		answer:   "{3, 1}, the same strides: packed strides are row-major, so nothing moves; only the C++ now says Strides = nullptr.",
		query:    "preset=HW",
	},
	{
		title: "Column-major: WH",
		text: []string{
			"In column-major order the elements along the height are contiguous instead: the H-stride is 1 and the W-stride is the height, 2.",
			"The logical tensor is the same A B C / D E F; only the buffer changes, and now reads A D B E C F. DirectML calls this layout WH: width is the highest-order dimension.",
		},
		question: "Which logical element sits at buffer offset 3? Focus that buffer cell to check.",
		answer:   "E, element {1,1}: {1,1} · {1,2} = 1×1 + 1×2 = 3.",
		query:    "preset=WH",
	},
	{
		title: "Higher dimensions and the dot product",
		text: []string{
			"A depth of 2 makes two 2×3 grids, A to L, and in the DHW layout the packed stride of a dimension is the product of the sizes of the lower-order ones: D-stride 2×3 = 6, H-stride 3, W-stride 1.",
			"The offset of any element is the dot product of its coordinates and the strides. H is {1,0,1}, so it lives at 1×6 + 0×3 + 1×1 = 7, as the strides page works out.",
		},
		question: "Where does L, element {1,1,2}, live? Work it out, then point at it.",
		answer:   "Offset 11: {1,1,2} · {6,3,1} = 6 + 3 + 2, the last cell of the buffer.",
		query:    "preset=DHW",
	},
	{
		title: "Packed tensors",
		text: []string{
			"A tensor is packed when its buffer holds exactly its logical elements, each at an offset of its own: 12 elements in 12 cells, no gaps, no sharing.",
			"Packed strides are what DirectML assumes when Strides is nullptr. The facts panel works DMLCalcBufferTensorSize out: 12 elements × 4 bytes = 48 bytes.",
		},
		question: "Load the WHD example (width highest-order). Is the tensor still packed? What changed?",
		answer:   "Still packed: 12 elements in 12 cells, each its own. Only the order in the buffer changed (the strides become {1,2,4}).",
		query:    "dt=FLOAT32&sizes=2,2,3",
	},
	{
		title: "Broadcasting with strides",
		text: []string{
			"A stride of 0 repeats a dimension: with an H-stride of 0 both rows read the same three cells, so the logical 2×3 tensor A B C / A B C needs a buffer of only 3 elements.",
			"The buffer is smaller than the logical size, so elements must share cells: the cells marked ×2 hold two elements each.",
		},
		question: "Focus buffer offset 1: which elements share it? Then try strides {3, 0}: what does the tensor read?",
		answer:   "(0,1) and (1,1). With strides {3, 0} each row repeats one value, A A A / D D D, in a buffer of 4 elements with 2 unused between them.",
		query:    "dt=FLOAT32&sizes=2,3&strides=0,1&cell=1",
	},
	{
		title: "Padding with strides",
		text: []string{
			"A tensor is padded when its buffer is larger than its elements need. With an H-stride of 5 each row of 3 elements is followed by 2 unused cells: A B C x x D E F x x, the strides page's example.",
			"DMLCalcBufferTensorSize counts up to the last element only, 8 elements or 32 bytes; TotalTensorSizeInBytes = 40 keeps the trailing padding in the buffer.",
		},
		question: "Clear TotalTensorSizeInBytes. How many bytes does DMLCalcBufferTensorSize ask for, and which cells go?",
		answer:   "32 bytes, (1×5 + 2×1 + 1) × 4: the two tail cells, 8 and 9, go; the padding at 3 and 4 stays.",
		query:    "preset=padded",
	},
	{
		title: "DML_BUFFER_TENSOR_DESC: NCHW",
		text: []string{
			"Most DirectML operators take 4-D tensors whose sizes and strides are in the fixed order {N, C, H, W}; a 2-D 3×5 tensor is padded with leading 1s to {1, 1, 3, 5}.",
			"Data stored as NCHW is packed, so Strides may be nullptr; written out they are {15, 15, 5, 1}. The facts panel gives the DML_BUFFER_TENSOR_DESC in C++.",
		},
		question: "Switch to packed strides. Does the buffer change? Which line of the C++ does?",
		answer:   "The buffer does not change; the C++ drops the strides array and says Strides = nullptr.",
		query:    "preset=NCHW",
	},
	{
		title: "DML_BUFFER_TENSOR_DESC: NHWC",
		text: []string{
			"Data stored NHWC (channels innermost) keeps its sizes in {N, C, H, W} order; only the strides change, to {15, 1, 5, 1}: the C-stride is 1 and the W-stride is the C-size.",
			"With one channel the buffer is the same as NCHW. With more, the channels of a pixel sit next to each other.",
		},
		question: "Set C to 2 and the strides to NHWC's {30, 1, 10, 2}. Where does element (0,1,0,0) live? And with NCHW's {30, 15, 5, 1}?",
		answer:   "Offset 1 in NHWC, right after (0,0,0,0); offset 15 in NCHW, after the whole first channel.",
		query:    "preset=NHWC",
	},
	{
		title: "DML_SLICE1 Example 1: positive strides",
		text: []string{
			"DML_SLICE1 copies from a window of its input: offsets {0,0,0,1}, sizes {1,1,4,3} and strides {1,1,2,2} on the 4×4 input holding 1 to 16.",
			"With positive strides copying starts at the window's start, CopyStart = {0,0,0,1}, and each axis copies MaxCopiedElements = 1 + (size − 1) / |stride| elements. Output[c] = Input[CopyStart + InputWindowStrides × c].",
		},
		question: "Why may OutputSizes[3] not be 3? Which input element would a third output column read?",
		answer:   "MaxCopiedElements[3] = 1 + (3 − 1) / 2 = 2. A third column would read column 1 + 2×2 = 5, outside the window (columns 1 to 3) and the input.",
		slice:    &tourSliceStep{preset: "example1", desc: sliceExample(1, 1, 2, 2), errata: []views.Fact{erratumE3}},
	},
	{
		title: "DML_SLICE1 Example 2: negative strides",
		text: []string{
			"A negative window stride copies from the end of the window: CopyStart[2] = InputWindowOffsets[2] + InputWindowSizes[2] − 1 = 3, so rows 3 and then 1 are read.",
			"The same window with strides {1,1,−2,2} gives [[14, 16], [6, 8]]. The DirectML page has two slips here, noted below.",
		},
		question: "What does the output become when InputWindowStrides[3] is −2 as well?",
		answer:   "[[16, 14], [8, 6]]: CopyStart[3] = 1 + 3 − 1 = 3, so each row is read from column 3 back to column 1.",
		slice:    &tourSliceStep{preset: "example2", desc: sliceExample(1, 1, -2, 2), errata: []views.Fact{erratumE1, erratumE2}},
	},
}

// getTourStart sends /tour to the first step.
func (s *Server) getTourStart(c echo.Context) error {
	return c.Redirect(http.StatusFound, tourHref(1))
}

func tourHref(n int) string { return "/tour/" + strconv.Itoa(n) }

// getTourStep is /tour/N. A layout step shows the live explorer on the
// step's state, or on the state in the URL once it has been edited.
func (s *Server) getTourStep(c echo.Context) error {
	n, err := strconv.Atoi(c.Param("n"))
	if err != nil || n < 1 || n > len(tourSteps) || c.Param("n") != strconv.Itoa(n) {
		return echo.ErrNotFound
	}
	if done, err := formRedirect(c, tourSteps[n-1].slice != nil); done || err != nil {
		return err
	}
	t, err := tourModel(c, n)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.TourPage(t))
}

func tourModel(c echo.Context, n int) (views.Tour, error) {
	step := tourSteps[n-1]
	t := views.Tour{
		N: n, Total: len(tourSteps), Title: step.title, Text: step.text,
		Question: step.question, Answer: step.answer, Reset: tourHref(n),
	}
	for i, st := range tourSteps {
		t.Steps = append(t.Steps, views.TourLink{N: i + 1, Title: st.title, Href: tourHref(i + 1), Current: i+1 == n})
	}
	if n > 1 {
		t.Prev = tourHref(n - 1)
	}
	if n < len(tourSteps) {
		t.Next, t.NextTitle = tourHref(n+1), tourSteps[n].title
	} else {
		t.Next, t.NextTitle = "/slice?preset=example2", "the slice explorer"
	}
	ctx := c.Request().Context()
	if step.slice != nil {
		ts, err := tourSlice(ctx, step.slice)
		if err != nil {
			return t, err
		}
		t.Slice = &ts
		m, err := sliceAt(c, "preset="+step.slice.preset, tourHref(n), false)
		t.SliceExplorer = &m
		return t, err
	}
	m, err := layoutAt(c, step.query, tourHref(n), false)
	t.Explorer = &m
	return t, err
}

// tourSlice works a DML_SLICE1 example out with core and the slice engine.
func tourSlice(ctx context.Context, st *tourSliceStep) (views.TourSlice, error) {
	s, err := core.NewSlice1(st.desc)
	if err != nil {
		return views.TourSlice{}, err
	}
	d, err := sliceDiagram(ctx, s, nil)
	if err != nil {
		return views.TourSlice{}, err
	}
	brace := func(v []int64) string { return "{" + picture.JoinCoord(v) + "}" }
	return views.TourSlice{
		Href: "/slice?preset=" + st.preset,
		Numbers: []views.Fact{
			{Name: "InputTensor", Value: "FLOAT32 " + brace(s.Input.Sizes) + ", values 1 to 16", TestID: "tour-input"},
			{Name: "InputWindowOffsets", Value: brace(s.WindowOffsets), TestID: "tour-offsets"},
			{Name: "InputWindowSizes", Value: brace(s.WindowSizes), TestID: "tour-sizes"},
			{Name: "InputWindowStrides", Value: brace(s.WindowStrides), TestID: "tour-strides"},
			{Name: "CopyStart", Value: brace(s.CopyStart), Hint: "offset, or offset + size − 1 where the stride is negative", TestID: "tour-copystart"},
			{Name: "MaxCopiedElements", Value: brace(s.MaxCopied), Hint: "1 + (size − 1) / |stride|", TestID: "tour-maxcopied"},
			{Name: "OutputTensor", Value: "FLOAT32 " + brace(s.OutputSizes), TestID: "tour-outsizes"},
			{Name: "Output", Value: nested(s.OutputSizes, d.Output), Hint: "computed by the slice engine", TestID: "tour-output"},
		},
		Errata: st.errata,
	}, nil
}

// nested writes row-major values in brackets, leaving out leading size-1
// dimensions: [[2, 4], [10, 12]].
func nested(sizes []int64, vals []string) string {
	for len(sizes) > 1 && sizes[0] == 1 {
		sizes = sizes[1:]
	}
	var write func(sizes []int64, vals []string) string
	write = func(sizes []int64, vals []string) string {
		if len(sizes) == 1 {
			return "[" + strings.Join(vals, ", ") + "]"
		}
		per := int64(len(vals)) / sizes[0]
		parts := make([]string, sizes[0])
		for i := range parts {
			parts[i] = write(sizes[1:], vals[int64(i)*per:int64(i+1)*per])
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return write(sizes, vals)
}
