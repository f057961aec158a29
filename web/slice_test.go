package web

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"html"
	"maps"
	"math"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stridescope/stridescope/ops/slice1"

	"github.com/PuerkitoBio/goquery"
	"github.com/gorilla/websocket"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/live"
	"github.com/stridescope/stridescope/picture"
)

// slicePageCase is one example of the DirectML DML_SLICE1 page
// (testdata/slice1_page_examples.json; the copy lines are the page's, in
// the step-through's notation).
type slicePageCase struct {
	Name          string   `json:"name"`
	InputSizes    []int64  `json:"inputSizes"`
	WindowOffsets []int64  `json:"inputWindowOffsets"`
	WindowSizes   []int64  `json:"inputWindowSizes"`
	WindowStrides []int64  `json:"inputWindowStrides"`
	CopyStart     []int64  `json:"copyStart"`
	OutputSizes   []int64  `json:"outputSizes"`
	Output        []string `json:"output"`
	Copies        []string `json:"copies"`
}

func loadSlicePageCases(t *testing.T) []slicePageCase {
	t.Helper()
	b, err := os.ReadFile("testdata/slice1_page_examples.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Cases []slicePageCase }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f.Cases
}

func (ex slicePageCase) query() string {
	return fmt.Sprintf("dt=FLOAT32&sizes=%s&woff=%s&wsize=%s&wstride=%s", csv(ex.InputSizes), csv(ex.WindowOffsets), csv(ex.WindowSizes), csv(ex.WindowStrides))
}

// one is the text of the single element sel finds in d.
func one(t *testing.T, d *goquery.Document, sel string) string {
	t.Helper()
	s := d.Find(sel)
	if s.Length() != 1 {
		t.Fatalf("%d elements match %s, want 1", s.Length(), sel)
	}
	return strings.TrimSpace(s.Text())
}

func TestSlicePageReproducesTheDirectMLExamples(t *testing.T) {
	for _, ex := range loadSlicePageCases(t) {
		t.Run(ex.Name, func(t *testing.T) {
			res, d := page(t, "/slice?"+ex.query())
			if res.StatusCode != 200 {
				t.Fatalf("status %d", res.StatusCode)
			}
			if got := texts(d.Find("#slice-output "+tid("outcell")), ".lbl"); strings.Join(got, ",") != strings.Join(ex.Output, ",") {
				t.Errorf("output %v, want %v", got, ex.Output)
			}
			if got := one(t, d, tid("fact-copystart")+" dd:not(.hint)"); got != "{"+csv(ex.CopyStart)+"}" {
				t.Errorf("CopyStart %s", got)
			}
			if got := one(t, d, tid("fact-outputsizes")+" dd:not(.hint)"); got != "{"+csv(ex.OutputSizes)+"}" {
				t.Errorf("OutputSizes %s", got)
			}
			// Before the first step the step text says what Play and Step
			// do, in words set as words.
			if !d.Find(tid("step-text")).HasClass("prose") {
				t.Errorf("the step text before the first step is not set as prose")
			}
			// Every copy line of the page is a step of the step-through.
			for k, want := range ex.Copies {
				_, sd := page(t, fmt.Sprintf("/slice?%s&t=%d", ex.query(), 1+len(ex.InputSizes)+k))
				if got := one(t, sd, tid("step-text")); got != want {
					t.Errorf("copy %d: %q, want the page's %q", k, got, want)
				}
				if sd.Find(tid("step-text")).HasClass("prose") {
					t.Errorf("copy %d: its formula is set as prose", k)
				}
				if sd.Find("ol.code li.active").AttrOr("data-line", "") != "6" {
					t.Errorf("copy %d does not highlight the copy line", k)
				}
			}
		})
	}
}

func TestSlicePageExample2InDetail(t *testing.T) {
	_, d := page(t, "/slice?preset=example2")
	// The window on the input: 12 cells inside, 4 copied with their order,
	// CopyStart at (0,0,3,1).
	if n := d.Find("#slice-input .lc.win").Length(); n != 12 {
		t.Errorf("%d cells in the window, want 12", n)
	}
	var order []string
	d.Find("#slice-input .lc.read").Each(func(_ int, c *goquery.Selection) {
		order = append(order, c.AttrOr("data-c", "")+"#"+c.Find(".badge-n").AttrOr("data-n", ""))
	})
	if got := strings.Join(order, " "); got != "0,0,1,1#2 0,0,1,3#3 0,0,3,1#0 0,0,3,3#1" {
		t.Errorf("copied cells %s", got)
	}
	if got := d.Find("#slice-input .lc.start").AttrOr("data-c", ""); got != "0,0,3,1" {
		t.Errorf("CopyStart cell %q", got)
	}
	if got := strings.Join(attrs(d.Find("#slice-input .lc.out"), "data-c"), " "); got != "0,0,0,0 0,0,1,0 0,0,2,0 0,0,3,0" {
		t.Errorf("outside the window: %s", got)
	}
	// Each output cell links to its input cell; each copied input cell back.
	if got := strings.Join(attrs(d.Find("#slice-output .lc"), "data-link"), ","); got != "13,15,5,7" {
		t.Errorf("output links %s", got)
	}
	if got := d.Find("#in-13").AttrOr("data-link", ""); got != "0" {
		t.Errorf("input (0,0,3,1) links to %q", got)
	}
	// The buffer: the four cells read.
	if got := strings.Join(attrs(d.Find("#slice-buffer .bc.read"), "data-o"), ","); got != "5,7,13,15" {
		t.Errorf("buffer cells read %s", got)
	}
	// Per dimension, with the numbers, and E2 next to it.
	if got := one(t, d, tid("maxcopied-2")); got != "1 + (4 − 1) / |-2| = 1 + 3 / 2 = 2" {
		t.Errorf("MaxCopiedElements of axis 2: %q", got)
	}
	if got := one(t, d, tid("e2-note")); !strings.Contains(got, "for axis 2 that gives 1 + (4 − 1) / -2 = 0") || !strings.Contains(got, "Erratum E2") {
		t.Errorf("E2 note %q", got)
	}
	if got := one(t, d, tid("e3-note")); !strings.Contains(got, "erratum E3") {
		t.Errorf("E3 note %q", got)
	}
	// Exports.
	cpp := one(t, d, tid("export-cpp"))
	for _, want := range []string{"DML_BUFFER_TENSOR_DESC inputBufferDesc", "DML_BUFFER_TENSOR_DESC outputBufferDesc", "INT inputWindowStrides[4] = {1, 1, -2, 2};", "DML_OPERATOR_DESC opDesc = { DML_OPERATOR_SLICE1, &sliceDesc };"} {
		if !strings.Contains(cpp, want) {
			t.Errorf("C++ lacks %q", want)
		}
	}
	if got := one(t, d, tid("export-numpy")); got != "y = x[0:1, 0:1, 3:0:-2, 1:4:2]" {
		t.Errorf("NumPy %q", got)
	}
	if got := one(t, d, tid("export-onnx")); got != "starts = [0, 0, 3, 1]\nends   = [1, 1, 0, 4]\naxes   = [0, 1, 2, 3]\nsteps  = [1, 1, -2, 2]" {
		t.Errorf("ONNX %q", got)
	}
	// The form holds the state; the NumPy box says the same window.
	if got := d.Find(tid("np")).AttrOr("value", ""); got != "x[0:1, 0:1, 3:0:-2, 1:4:2]" {
		t.Errorf("NumPy box %q", got)
	}
	if got := d.Find(tid("out-2")).AttrOr("placeholder", ""); got != "2" {
		t.Errorf("output size placeholder %q", got)
	}
	if d.Find(`form[method=get][action="/slice"]`).Length() != 1 {
		t.Error("the form is not a GET form to /slice")
	}
}

func TestSlicePageStepThroughWithoutJavaScript(t *testing.T) {
	_, d := page(t, "/slice?preset=example2&t=3")
	if got := one(t, d, tid("step-text")); got != "axis 2: InputWindowStrides[2] = -2 < 0, so CopyStart[2] += InputWindowSizes[2] - 1: 0 + 4 - 1 = 3" {
		t.Errorf("step 4 %q", got)
	}
	if got := strings.Join(attrs(d.Find("ol.code li.active"), "data-line"), ","); got != "2,3,4" {
		t.Errorf("active lines %s", got)
	}
	if got := one(t, d, tid("step-note")); !strings.HasPrefix(got, "Erratum E1: at this step the DirectML page's Example 2 writes InputWindowSizes[0]; the term is InputWindowSizes[2]") {
		t.Errorf("E1 note %q", got)
	}
	if got := one(t, d, tid("step-sub")); got != "CopyStart = {0,0,3,1}" {
		t.Errorf("sub %q", got)
	}
	next, prev := d.Find(tid("step-next")).AttrOr("href", ""), d.Find(tid("step-back")).AttrOr("href", "")
	if !strings.HasSuffix(next, "&t=4") || !strings.HasSuffix(prev, "&t=2") || !strings.HasPrefix(next, "/slice?dt=FLOAT32&sizes=1,1,4,4") {
		t.Errorf("links %q %q", prev, next)
	}
	if got := one(t, d, tid("step-count")); got != "step 4 of 9" {
		t.Errorf("count %q", got)
	}
	// The step's cells are marked as the script marks them: CopyStart so
	// far, every output element still to copy.
	if got := strings.Join(attrs(d.Find(".cur"), "id"), " "); got != "in-13" {
		t.Errorf("marked %q", got)
	}
	if n := d.Find("#slice-output .pending").Length(); n != 4 {
		t.Errorf("%d output cells pending", n)
	}
	_, d6 := page(t, "/slice?preset=example2&t=6")
	if got := strings.Join(attrs(d6.Find(".cur"), "id"), " "); got != "in-15 out-1 b-15" {
		t.Errorf("step 7 marks %q", got)
	}
	if got := strings.Join(attrs(d6.Find(".pending"), "id"), " "); got != "out-2 out-3" {
		t.Errorf("step 7 pending %q", got)
	}
	// A reversed axis other than axis 2 has no erratum: the page's
	// Example 2 misprints axis 2's step only (at axis 0 its misprint,
	// InputWindowSizes[0], would be the right term).
	for _, path := range []string{
		"/slice?dt=FLOAT32&sizes=3,4&woff=0,0&wsize=3,4&wstride=-1,-1&t=1",
		"/slice?dt=FLOAT32&sizes=3,4&woff=0,0&wsize=3,4&wstride=-1,-1&t=2",
		"/slice?dt=FLOAT32&sizes=2,2,3,4&woff=0,0,0,0&wsize=2,2,3,4&wstride=1,1,1,-1&t=4",
	} {
		_, d := page(t, path)
		if !strings.Contains(one(t, d, tid("step-text")), "< 0, so CopyStart") {
			t.Errorf("%s: not a reversed axis's step: %q", path, one(t, d, tid("step-text")))
		}
		if _, hidden := d.Find(tid("step-note")).Attr("hidden"); !hidden {
			t.Errorf("%s: a note %q at a reversed axis other than axis 2", path, one(t, d, tid("step-note")))
		}
	}
	// A positive stride's step says why CopyStart stays, without a note.
	_, d = page(t, "/slice?preset=example2&t=4")
	if got := one(t, d, tid("step-text")); got != "axis 3: InputWindowStrides[3] = 2 > 0, so CopyStart[3] stays InputWindowOffsets[3] = 1" {
		t.Errorf("step 5 %q", got)
	}
	if _, hidden := d.Find(tid("step-note")).Attr("hidden"); !hidden {
		t.Error("a note at a step without an erratum")
	}
	// Past the end or nonsense: the step-through has not started.
	_, d = page(t, "/slice?preset=example2&t=99")
	if got := one(t, d, tid("step-count")); got != "9 steps" {
		t.Errorf("t=99: %q", got)
	}
}

func TestSlicePageReportsEveryRuleAtItsField(t *testing.T) {
	// Rank 2 at feature level 2_1 (rule 2), a 4-bit type (rule 3), an
	// empty window (4), a window past the input (5), a zero stride (6), an
	// output size too large (7), all at once.
	_, d := page(t, "/slice?dt=INT4&sizes=4,4&woff=2,0&wsize=3,0&wstride=0,1&out=1,1&fl=2_1")
	want := map[string]string{
		"inputSizes":            "DimensionCount 2: DimensionCount must be 4 or 5 before DML_FEATURE_LEVEL_3_0 (this is 2_1)",
		"dataType":              "DataType INT4 not supported by DML_OPERATOR_SLICE1 at feature level 2_1 (no feature level supports 4-bit types for DML_SLICE1)",
		"inputWindowSizes[1]":   "axis 1: InputWindowSizes[1] == 0 (the window must not be empty)",
		"inputWindowOffsets[0]": "axis 0: InputWindowOffsets[0] + InputWindowSizes[0] = 5 > InputTensor.Sizes[0] = 4",
		"inputWindowStrides[0]": "axis 0: InputWindowStrides[0] == 0 (strides may not be 0)",
	}
	for field, msg := range want {
		if got := ruleOf(one(t, d, tid("err-"+field))); got != msg {
			t.Errorf("%s: %q, want %q", field, got, msg)
		}
	}
	if got := d.Find(tid("wsize-1")).AttrOr("aria-invalid", ""); got != "true" {
		t.Errorf("wsize-1 aria-invalid %q", got)
	}
	// No valid slice and no last one: nothing is drawn, rather than an
	// example nobody entered (issue #13, 7).
	if got := one(t, d, tid("stale")); !strings.Contains(got, "fix them to see a picture") {
		t.Errorf("stale %q", got)
	}
	if n := d.Find(tid("slice-input") + " .lc, " + tid("slice-output") + " .lc, " + tid("export-numpy")).Length(); n != 0 {
		t.Errorf("an invalid slice drew %d cells or exports", n)
	}
	if d.Find(tid("logical-empty")).Length() != 2 || d.Find(tid("buffer-empty")).Length() != 1 || d.Find(tid("facts-empty")).Length() != 1 {
		t.Errorf("the empty views do not say why")
	}
	// Rule 7 with its reason in the per-dimension table.
	_, d = page(t, "/slice?preset=example2&out=1,1,3,2")
	if got := ruleOf(one(t, d, tid("err-outputSizes[2]"))); got != "axis 2: OutputSizes[2] = 3 not in [1, MaxCopiedElements = 2] (1 + (4 - 1) / |-2|)" {
		t.Errorf("out[2]: %q", got)
	}
	if got := one(t, d, tid("verdict-2")); got != "no: 3 > MaxCopiedElements = 2; a window of 4 at |stride| 2 reaches only 2 (indices 3, 1)" {
		t.Errorf("verdict %q", got)
	}
	if got := one(t, d, tid("verdict-3")); got != "yes: 1 ≤ 2 ≤ 2" {
		t.Errorf("verdict 3 %q", got)
	}
	// Parse errors name the field, once, and leave the rest of the rules alone.
	_, d = page(t, "/slice?sizes=4,x&woff=0,0&wsize=4,2&wstride=1,one")
	if got := one(t, d, tid("err-inputSizes[1]")); got != `The size of dimension W, "x", is not a whole number: give a size of at least 1` {
		t.Errorf("sizes[1]: %q", got)
	}
	if got := one(t, d, tid("err-inputWindowStrides[1]")); got != `The window's stride on axis 1 (W), "one", is not a whole number: give a signed window stride, not 0` {
		t.Errorf("wstride[1]: %q", got)
	}
	if d.Find(".field-error:not([hidden])").Length() != 2 {
		t.Errorf("errors: %v", texts(d.Find(".field-error:not([hidden])"), ""))
	}
}

func TestSlicePageNumpyExpression(t *testing.T) {
	_, d := page(t, "/slice?sizes=5,6&np="+url.QueryEscape("x[1:4, ::-2]"))
	for id, want := range map[string]string{"woff-0": "1", "woff-1": "1", "wsize-0": "3", "wsize-1": "5", "wstride-0": "1", "wstride-1": "-2", "out-0": "", "out-1": ""} {
		if got := d.Find(tid(id)).AttrOr("value", ""); got != want {
			t.Errorf("%s = %q, want %q", id, got, want)
		}
	}
	if got := strings.Join(texts(d.Find("#slice-output .lc"), ".lbl"), ","); got != "12,10,8,18,16,14,24,22,20" {
		t.Errorf("output %s", got)
	}
	// With use=np the expression wins over the window fields; an integer
	// index is dropped afterwards by NumPy, which the export says.
	_, d = page(t, "/slice?sizes=5,6&woff=0,0&wsize=5,6&wstride=1,1&use=np&np="+url.QueryEscape("x[2]"))
	if got := strings.Join(texts(d.Find("#slice-output .lc"), ".lbl"), ","); got != "13,14,15,16,17,18" {
		t.Errorf("x[2] output %s", got)
	}
	if !strings.Contains(d.Find(tid("slice-facts")).Text(), "drops axis 0 afterwards") {
		t.Error("no note on the dropped axis")
	}
	// An empty selection is an error at the box.
	_, d = page(t, "/slice?sizes=4&np="+url.QueryEscape("x[2:-1:-1]"))
	if got := one(t, d, tid("err-expression")); !strings.Contains(got, "no DML_SLICE1 exists for an empty NumPy selection") {
		t.Errorf("expression error %q", got)
	}
	if got := d.Find(tid("np")).AttrOr("value", ""); got != "x[2:-1:-1]" {
		t.Errorf("the typed expression is gone: %q", got)
	}
}

func TestSlicePageValues(t *testing.T) {
	// Typed values repeat to fill the input.
	_, d := page(t, "/slice?preset=example2&vals=10,20,30")
	// Input elements 13, 15, 5, 7 hold vals[13%3], vals[15%3], ...
	if got := strings.Join(texts(d.Find("#slice-output .lc"), ".lbl"), ","); got != "20,10,30,20" {
		t.Errorf("output %s", got)
	}
	// FLOAT16 rounds: 0.1 is 0.099975586.
	_, d = page(t, "/slice?dt=FLOAT16&sizes=2&woff=0&wsize=2&wstride=-1&vals=0.1,65504")
	if got := strings.Join(texts(d.Find("#slice-output .lc"), ".lbl"), ","); got != "65504,0.099975586" {
		t.Errorf("FLOAT16 output %s", got)
	}
	// Below 65520 a FLOAT16 rounds to at most 65504 (to nearest, ties to
	// even); from 65520 on it would be infinity.
	for _, tc := range []struct{ vals, want string }{
		{"65519", "65504,65504,65504,65504"},
		{"65519.99,-65519.99", "65504,-65504,65504,-65504"},
		{"65504,-65504", "65504,-65504,65504,-65504"},
	} {
		_, d = page(t, "/slice?dt=FLOAT16&sizes=2,2&woff=0,0&wsize=2,2&wstride=1,1&vals="+tc.vals)
		if e := d.Find(tid("err-values")); strings.TrimSpace(e.Text()) != "" {
			t.Errorf("vals=%s: refused: %q", tc.vals, e.Text())
		}
		if got := strings.Join(texts(d.Find("#slice-output .lc"), ".lbl"), ","); got != tc.want {
			t.Errorf("vals=%s: output %s, want %s", tc.vals, got, tc.want)
		}
	}
	for _, tc := range []struct{ q, want string }{
		{"dt=INT8&sizes=2&vals=1,300", `value "300" is not an INT8 (a whole number from -128 to 127)`},
		{"dt=UINT16&sizes=2&vals=-1,2", `value "-1" is not a UINT16 (a whole number from 0 to 65535)`},
		{"dt=FLOAT16&sizes=2&vals=1e6", `value "1e6" is not a finite FLOAT16 (at most ±65504)`},
		{"dt=FLOAT16&sizes=2&vals=65520", `value "65520" is not a finite FLOAT16 (at most ±65504)`},
		{"dt=FLOAT16&sizes=2&vals=1,-65520", `value "-65520" is not a finite FLOAT16 (at most ±65504)`},
		{"dt=INT32&sizes=2&vals=1.5", `value "1.5" is not an INT32 (a whole number from -2147483648 to 2147483647)`},
		{"sizes=2&vals=" + strings.Repeat("1,", 4097), "4097 values: the page takes at most 4096 (they repeat to fill the input); leave the box empty for 1..N"},
	} {
		_, d := page(t, "/slice?"+tc.q)
		if got := one(t, d, tid("err-values")); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.q[:min(len(tc.q), 40)], got, tc.want)
		}
	}
	// Values that meet in a broadcast cell: one value per cell.
	_, d = page(t, "/slice?preset=broadcast&vals=1,2,3,4,5,6,7,8,9,10,11,12")
	if got := one(t, d, tid("warn-values")); got != "element (1,0) shares buffer cell 0 with an earlier element, so it reads 1, not 5: a cell holds one value (the first element's)" {
		t.Errorf("warning %q", got)
	}
	// The default 1..N wraps in a small integer type, and says so.
	_, d = page(t, "/slice?dt=UINT8&sizes=16,16&woff=0,0&wsize=16,16&wstride=1,1")
	if !strings.Contains(d.Find(tid("slice-facts")).Text(), "UINT8 holds at most 255: the values 1..N wrap around past it.") {
		t.Error("no wrap note")
	}
	if got := d.Find("#in-255 .lbl").Text(); got != "0" {
		t.Errorf("element 255 holds %q, want 256 mod 256 = 0", got)
	}
}

func TestSlicePageLargeInputsAreCanvasesOrFactsOnly(t *testing.T) {
	// 2^22 elements: canvases (with a note for pages without JavaScript),
	// the output still copied by compute.
	_, d := page(t, "/slice?sizes=2048,2048&woff=0,2045&wsize=2,3&wstride=1,-1")
	if d.Find("#slice-input .lc").Length() != 0 || d.Find("#slice-buffer .bc").Length() != 0 {
		t.Error("grids drawn for a large input")
	}
	if d.Find("#slice-in-canvas").Length() != 1 || d.Find("#slice-buf-canvas").Length() != 1 || d.Find("#slice-out-canvas").Length() != 0 {
		t.Error("want canvases for the input and its buffer, a grid for the output")
	}
	if got := d.Find(tid("slice-in-canvas")).Text(); !strings.Contains(got, "This view has 4194304 cells") {
		t.Errorf("no noscript note: %q", got)
	}
	if got := strings.Join(texts(d.Find("#slice-output .lc"), ".lbl"), ","); got != "2048,2047,2046,4096,4095,4094" {
		t.Errorf("output %s", got)
	}
	// Above 2^24 elements: facts only.
	_, d = page(t, "/slice?dt=UINT8&sizes=4097,4096&woff=0,0&wsize=4097,4096&wstride=-1,2")
	if got := one(t, d, "#slice-input .too-large"); !strings.HasPrefix(got, "The input has 16781312 elements") {
		t.Errorf("note %q", got)
	}
	if got := one(t, d, "#slice-buffer .too-large"); !strings.HasPrefix(got, "The input's buffer has 16781312 cells") {
		t.Errorf("buffer note %q", got)
	}
	if d.Find("canvas").Length() != 1 || d.Find("#slice-out-canvas").Length() != 1 {
		t.Error("the output of 2^23 elements is a canvas, nothing else")
	}
	// A buffer too large to fill: the facts, no values.
	_, d = page(t, "/slice?sizes=2,2&strides=1073741824,1&woff=0,0&wsize=2,2&wstride=1,1")
	if !strings.Contains(d.Find(tid("slice-facts")).Text(), "The values are not computed") {
		t.Error("no note on the values")
	}
	if got := one(t, d, tid("fact-base")+" dd:not(.hint)"); got != "0" {
		t.Errorf("base %q", got)
	}
	// A broadcast input of 2^32-2^17+1 elements in one cell: filling it
	// would write every element (about 40 s); the values are skipped.
	start := time.Now()
	_, d = page(t, "/slice?dt=UINT8&sizes=65535,65535&strides=0,0&woff=0,0&wsize=1,1&wstride=1,1")
	if el := time.Since(start); el > 5*time.Second {
		t.Errorf("the page took %v", el)
	}
	if !strings.Contains(d.Find(tid("slice-facts")).Text(), "The values are not computed") {
		t.Error("no note on the values of the broadcast input")
	}
}

func TestSlicePageRefusesLongQueries(t *testing.T) {
	ts := newTestServer(t)
	res, err := http.Get(ts.URL + "/slice?vals=" + strings.Repeat("1", slice1.MaxQueryLen))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusBadRequest {
		t.Errorf("status %d", res.StatusCode)
	}
}

func TestSliceStateRoundTrips(t *testing.T) {
	for _, q := range []string{
		"dt=FLOAT32&sizes=1,1,4,4&woff=0,0,0,1&wsize=1,1,4,3&wstride=1,1,-2,2",
		"dt=INT16&sizes=4,4&strides=6,1&woff=0,1&wsize=4,3&wstride=-2,2&out=1,2&fl=3_0&vals=1,2,3&t=4",
		"dt=INT16&sizes=4,4&strides=6,1&total=100&align=8&woff=0,1&wsize=4,3&wstride=-2,2",
	} {
		st, vs := slice1.StateFromQuery(mustQuery(t, q))
		if len(vs) > 0 {
			t.Fatalf("%s: %v", q, vs)
		}
		if got := st.CanonicalQuery(false); got != q {
			t.Errorf("%s round-trips to %s", q, got)
		}
	}
	// Rank 4 -> 2 drops leading axes; 2 -> 3 adds a one-element window.
	st, _ := slice1.StateFromQuery(mustQuery(t, "preset=example2&rank=2"))
	if got := st.CanonicalQuery(false); got != "dt=FLOAT32&sizes=4,4&woff=0,1&wsize=4,3&wstride=-2,2" {
		t.Errorf("rank 2: %s", got)
	}
	st, _ = slice1.StateFromQuery(mustQuery(t, "sizes=4,4&strides=6,1&rank=3"))
	if got := st.CanonicalQuery(false); got != "dt=FLOAT32&sizes=1,4,4&strides=24,6,1&woff=0,0,0&wsize=1,4,4&wstride=1,1,1" {
		t.Errorf("rank 3: %s", got)
	}
}

// ---- the websocket ----

func sendSliceEdit(t *testing.T, c *websocket.Conn, seq int64, query string) {
	t.Helper()
	if err := c.WriteJSON(map[string]any{"v": 2, "type": "edit", "page": "slice", "seq": seq, "query": query}); err != nil {
		t.Fatal(err)
	}
}

// readSlice reads the answer to slice edit seq: its result, and whether
// a done followed.
func readSlice(t *testing.T, c *websocket.Conn, seq int64) (slice1.Result, bool) {
	t.Helper()
	var r slice1.Result
	for {
		var m map[string]any
		typ, data, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		if typ == websocket.BinaryMessage {
			continue // a canvas's frames (collectSlice decodes them)
		}
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatalf("not JSON: %s", data)
		}
		if s, _ := m["seq"].(float64); int64(s) != seq {
			continue
		}
		switch m["type"] {
		case "result":
			if err := json.Unmarshal(data, &r); err != nil {
				t.Fatal(err)
			}
			if !r.OK {
				return r, false
			}
		case "done":
			return r, true
		default:
			t.Fatalf("unexpected %s", data)
		}
	}
}

func TestWSSliceEditAnswersWithFragments(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	c := dial(t, ts, nil)
	sendSliceEdit(t, c, 1, "preset=padded")
	r, done := readSlice(t, c, 1)
	if !r.OK || !done || r.Page != "slice" {
		t.Fatalf("result %+v done %v", r, done)
	}
	if r.Query != "dt=FLOAT32&sizes=4,4&strides=6,1&woff=0,1&wsize=4,3&wstride=-2,2" {
		t.Errorf("query %q", r.Query)
	}
	m := r.Meta
	if strings.Join(m.Values, ",") != "14,16,6,8" || csv(m.CopyStart) != "3,1" || csv(m.MaxCopied) != "2,2" || m.Steps != 7 || m.Cells != 22 {
		t.Errorf("meta %+v", m)
	}
	if m.InputMode != "dom" || m.BufferMode != "dom" || m.OutputMode != "dom" {
		t.Errorf("modes %+v", m)
	}
	if strings.Count(r.HTML.Input, `data-testid="incell"`) != 16 || strings.Count(r.HTML.Output, `data-testid="outcell"`) != 4 {
		t.Error("the fragments are not the grids")
	}
	for _, o := range []string{"7", "9", "19", "21"} {
		if !strings.Contains(r.HTML.Buffer, `class="bc used read" role="gridcell" data-testid="bcell" id="b-`+o+`"`) {
			t.Errorf("buffer cell %s is not marked read", o)
		}
	}
	if !strings.Contains(r.HTML.Facts, "DML_SLICE1_OPERATOR_DESC") || !strings.Contains(r.HTML.Dims, "1 + (4 − 1) / |-2|") || !strings.Contains(r.HTML.Steps, `data-testid="code-6"`) {
		t.Error("facts, dims or steps missing")
	}
	if strings.Join(r.Form.Strides, ",") != "6,1" || r.Form.NP != "x[3:0:-2, 1:4:2]" || strings.Join(r.Form.OutMax, ",") != "2,2" || strings.Join(r.Form.DimLabels, "") != "HW" {
		t.Errorf("form %+v", r.Form)
	}
}

func TestWSSliceInvalidEditKeepsThePicture(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	c := dial(t, ts, nil)
	sendSliceEdit(t, c, 1, "preset=example2&out=1,1,3,2")
	r, done := readSlice(t, c, 1)
	if r.OK || done || r.Meta != nil || r.HTML.Input != "" {
		t.Fatalf("an invalid edit must send no picture: %+v", r)
	}
	if len(r.Errors) != 1 || r.Errors[0].Field != "outputSizes[2]" {
		t.Errorf("errors %+v", r.Errors)
	}
	if !strings.Contains(r.HTML.Dims, "no: 3 &gt; MaxCopiedElements = 2") {
		t.Error("the per-dimension table does not say why")
	}
	if !strings.Contains(r.Query, "out=1,1,3,2") {
		t.Errorf("query %q", r.Query)
	}
	// The packed strides stay filled in, the expression is left to the page.
	if strings.Join(r.Form.Strides, ",") != "16,16,4,1" || r.Form.NP != "" || strings.Join(r.Form.OutMax, ",") != "1,1,2,2" {
		t.Errorf("form %+v", r.Form)
	}
	// The session goes on, and the layout explorer's edits too.
	sendSliceEdit(t, c, 2, "np="+url.QueryEscape("x[::-1]")+"&sizes=3")
	r, done = readSlice(t, c, 2)
	if !r.OK || !done || strings.Join(r.Meta.Values, ",") != "3,2,1" || r.Form.NP != "x[2::-1]" {
		t.Errorf("x[::-1]: %+v", r)
	}
	sendEdit(t, c, 3, "dt=FLOAT32&sizes=2,3")
	if got := collect(t, c, 3); !got.result.OK || csv32(got.offsets) != "0,1,2,3,4,5" {
		t.Errorf("layout edit after slice edits: %+v", got.result)
	}
}

func TestWSSliceRejectsBadMessages(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	c := dial(t, ts, nil)
	if err := c.WriteJSON(map[string]any{"v": 2, "type": "edit", "page": "tensor", "seq": 1, "query": ""}); err != nil {
		t.Fatal(err)
	}
	var e live.ErrorMsg
	readJSON(t, c, &e)
	if e.Type != "error" || !strings.Contains(e.Message, `unknown page "tensor"`) {
		t.Errorf("%+v", e)
	}
	sendSliceEdit(t, c, 2, "vals="+strings.Repeat("1", slice1.MaxQueryLen))
	readJSON(t, c, &e)
	if e.Type != "error" || e.Seq != 2 || e.Message != "the query is too long" {
		t.Errorf("%+v", e)
	}
}

func mustQuery(t *testing.T, q string) url.Values {
	t.Helper()
	v, err := url.ParseQuery(q)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestSlicePageSurvivesOddQueries(t *testing.T) {
	ts := newTestServer(t)
	for _, q := range []string{
		"sizes=1,1,1,1,1,1,1,1,1",
		"sizes=-3&woff=-1&wsize=-1&wstride=-2147483649",
		"sizes=4294967296,2&woff=0,0&wsize=1,1&wstride=1,1",
		"sizes=4,4&woff=0&wsize=4,4,4&wstride=1,1",
		"sizes=4,4&out=0,9&rank=0",
		"sizes=3&t=-5&preset=nope&dt=&fl=9_9",
		"sizes=65536,65536&woff=0,0&wsize=65536,65536&wstride=1,1",
		"sizes=4096,4097&woff=0,0&wsize=4096,4097&wstride=4096,-4097",
		"dt=FLOAT64&sizes=2,2&vals=1e308,-1e308,5e-324",
		"dt=UINT64&sizes=2&vals=18446744073709551615,0",
		"np=" + url.QueryEscape("x[[1]]"),
		"np=" + url.QueryEscape("x[..., ..., 1]") + "&sizes=2,2",
		"mode=explicit&sizes=2,2&strides=,",
	} {
		res, err := http.Get(ts.URL + "/slice?" + q)
		if err != nil {
			t.Fatal(err)
		}
		d, err := goquery.NewDocumentFromReader(res.Body)
		res.Body.Close()
		if err != nil || res.StatusCode != 200 {
			t.Errorf("%s: status %d, %v", q, res.StatusCode, err)
			continue
		}
		errs := texts(d.Find(".field-error:not([hidden])"), "")
		valid := d.Find(tid("stale")).AttrOr("hidden", "x") != "x"
		if len(errs) == 0 && !valid {
			t.Errorf("%s: stale without an error", q)
		}
	}
}

func TestSliceDimsShowNoWrappedNumbers(t *testing.T) {
	st := slice1.State{Off: []string{"9223372036854775807", "0"}, Win: []string{"2", "9223372036854775807"}, Step: []string{"-9223372036854775808", "1"}, Out: []string{"3", ""}}
	st.In.Sizes = []string{"4", "4"}
	d := slice1.DimsIn(context.Background(), st)
	for _, r := range d.Rows {
		for _, s := range []string{r.Window, r.MaxCopied, r.CopyStart, r.Verdict} {
			if strings.Contains(s, "-92233") || strings.Contains(s, "−92233") {
				t.Errorf("axis %d shows a wrapped number: %q", r.Axis, s)
			}
		}
	}
}

// sliceFrames is everything one slice edit sent, its arrays decoded from
// the binary frames.
type sliceFrames struct {
	result  slice1.Result
	done    bool
	headers []live.FrameHeader
	copied  []bool   // per input element
	offsets []uint32 // per input element, as the page computes them
	read    []bool   // per input buffer cell
}

// collectSlice reads the answer to slice edit seq up to its done,
// skipping other edits' messages and frames.
func collectSlice(t *testing.T, c *websocket.Conn, seq int64) sliceFrames {
	t.Helper()
	var got sliceFrames
	bits := func(dst []bool, first uint64, p []byte) {
		for i := 0; i+8 <= len(p); i += 8 {
			w := binary.LittleEndian.Uint64(p[i:])
			for b := range 64 {
				if k := (int(first)+i/8)*64 + b; w&(1<<b) != 0 {
					if k >= len(dst) {
						t.Fatalf("bit %d set past the %d items", k, len(dst))
					}
					dst[k] = true
				}
			}
		}
	}
	for {
		_ = c.SetReadDeadline(time.Now().Add(60 * time.Second))
		typ, data, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		if typ == websocket.BinaryMessage {
			h, ok := live.ParseFrameHeader(data)
			if !ok {
				t.Fatalf("short frame of %d bytes", len(data))
			}
			if int64(h.Seq) != seq {
				continue
			}
			if got.result.Meta == nil {
				t.Fatal("a frame before the result")
			}
			got.headers = append(got.headers, h)
			p := data[live.FrameHeaderLen:]
			switch h.Kind {
			case live.FrameCopied:
				bits(got.copied, h.First, p)
			case live.FrameTouched:
				bits(got.read, h.First, p)
			default:
				t.Fatalf("unknown frame kind %d", h.Kind)
			}
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		if s, ok := m["seq"].(float64); !ok || int64(s) != seq {
			continue
		}
		switch m["type"] {
		case "result":
			if err := json.Unmarshal(data, &got.result); err != nil {
				t.Fatal(err)
			}
			r := got.result
			if !r.OK {
				t.Fatalf("invalid: %+v", r.Errors)
			}
			got.copied, got.offsets = make([]bool, r.Meta.InputCount), pageOffsets(r.Meta.Sizes, r.Meta.Strides)
			got.read = make([]bool, r.Meta.Cells)
		case "done":
			got.done = true
			return got
		default:
			t.Fatalf("unexpected %s", data)
		}
	}
}

// naiveSlice is what a slice query's frames must hold, worked out
// element by element with core's rules alone.
type naiveSlice struct {
	s         *core.Slice1
	copied    []bool // per input element: copied
	read      []bool // per input buffer cell: read
	readCells int    // how many
}

func naive(t *testing.T, query string) naiveSlice {
	t.Helper()
	st, vs := slice1.StateFromQuery(mustQuery(t, query))
	v := slice1.Validate(st, vs)
	if v.Slice == nil {
		t.Fatalf("%s: %v", query, v.Errors)
	}
	s := v.Slice
	in := s.Input
	ns := naiveSlice{s: s, copied: make([]bool, in.LogicalElementCount()), read: make([]bool, in.BufferElementCount())}
	for k := range s.OutputElementCount() {
		ic := s.InputCoordinate(k)
		o, err := in.Offset(ic)
		if err != nil {
			t.Fatal(err)
		}
		if !ns.read[o] {
			ns.readCells++
		}
		ns.copied[picture.RowMajorIndex(in.Sizes, ic)], ns.read[o] = true, true
	}
	return ns
}

// check compares the decoded frames with the naive expectation.
func (ns naiveSlice) check(t *testing.T, got sliceFrames) {
	t.Helper()
	r := got.result
	if !got.done || r.Stream == nil {
		t.Fatalf("no stream: %+v", r)
	}
	if len(got.headers) != r.Stream.Total() {
		t.Errorf("%d frames, announced %+v", len(got.headers), *r.Stream)
	}
	for _, h := range got.headers {
		if h.Version != live.ProtocolVersion || h.Chunks == 0 || h.Chunk >= h.Chunks {
			t.Errorf("header %+v", h)
		}
	}
	in := ns.s.Input
	if r.Stream.Copied > 0 {
		for i, c := range got.copied {
			if c != ns.copied[i] {
				t.Fatalf("input element %d copied: %v, want %v", i, c, !c)
			}
		}
		for i, o := range got.offsets {
			want, _ := in.Offset(in.Coordinate(int64(i)))
			if int64(o) != want {
				t.Fatalf("offset of input element %d: %d, want %d", i, o, want)
			}
		}
	}
	if r.Stream.Read > 0 {
		for o, rd := range got.read {
			if rd != ns.read[o] {
				t.Fatalf("buffer cell %d read: %v, want %v", o, rd, !rd)
			}
		}
		if ns.readCells == 0 {
			t.Fatal("nothing read")
		}
	}
	// The page fills the values itself (static/fill.js, checked against
	// slice1.FillInput in e2e/fill_test.go): the meta must say how.
	if !r.Meta.Fill {
		t.Error("the meta does not let the page fill the values")
	}
}

func TestWSSliceLargeInputsStreamCanvases(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	c := dial(t, ts, nil)
	for seq, tc := range []struct {
		name, query       string
		in, buffer, out   string
		stream            slice1.Stream
		readCells, values int
	}{
		// The learner's x[10:90, ::-2] on a 100x100 input whose rows are
		// padded to 104 elements: 4000 output elements, a grid.
		{name: "padded", query: "dt=FLOAT32&sizes=100,100&strides=104,1&np=" + url.QueryEscape("x[10:90, ::-2]") + "&use=np",
			in: "canvas", buffer: "canvas", out: "canvas", stream: slice1.Stream{Copied: 1, Read: 1}, readCells: 4000},
		// A crop of an NHWC image: channels 1-2, rows 3..62, columns
		// reversed: 7680 output elements on a canvas too.
		{name: "nhwc", query: "dt=FLOAT32&sizes=1,3,64,64&strides=12288,1,192,3&woff=0,1,3,0&wsize=1,2,60,64&wstride=1,1,1,-1",
			in: "canvas", buffer: "canvas", out: "canvas", stream: slice1.Stream{Copied: 1, Read: 1}, readCells: 7680},
		// Typed INT16 values repeating over a broadcast input: rows share
		// buffer cells, which hold the first row's values.
		{name: "broadcast", query: "dt=INT16&sizes=300,50&strides=0,1&woff=0,0&wsize=300,50&wstride=-3,2&vals=" + url.QueryEscape("7,-8,9"),
			in: "canvas", buffer: "dom", out: "canvas", stream: slice1.Stream{Copied: 1}, readCells: 25},
		// 2^24 UINT8 elements, the largest interactive input: several
		// frames of every kind.
		{name: "16M", query: "dt=UINT8&sizes=4096,4096&woff=5,0&wsize=4000,4096&wstride=-3,-2",
			in: "canvas", buffer: "canvas", out: "canvas", stream: slice1.Stream{Copied: 2, Read: 2}, readCells: 1334 * 2048},
	} {
		seq := int64(seq + 1)
		sendSliceEdit(t, c, seq, tc.query)
		got := collectSlice(t, c, seq)
		m := got.result.Meta
		if m.InputMode != tc.in || m.BufferMode != tc.buffer || m.OutputMode != tc.out {
			t.Errorf("%s: modes %s %s %s", tc.name, m.InputMode, m.BufferMode, m.OutputMode)
		}
		if got.result.Stream == nil || *got.result.Stream != tc.stream {
			t.Errorf("%s: stream %+v, want %+v", tc.name, got.result.Stream, tc.stream)
		}
		ns := naive(t, tc.query)
		if ns.readCells != tc.readCells {
			t.Errorf("%s: %d cells read, want %d", tc.name, ns.readCells, tc.readCells)
		}
		ns.check(t, got)
		if t.Failed() {
			t.Fatalf("%s failed", tc.name)
		}
	}
}

func TestWSSliceLargeEditIsSuperseded(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	c := dial(t, ts, nil)
	// The large edit's frames queue up while the test does not read;
	// the next edit cancels it and its own answer arrives complete.
	sendSliceEdit(t, c, 1, "dt=FLOAT32&sizes=4096,4096&woff=0,0&wsize=4096,4096&wstride=1,-1")
	time.Sleep(50 * time.Millisecond)
	sendSliceEdit(t, c, 2, "dt=FLOAT32&sizes=64,65&strides=66,1&woff=1,1&wsize=60,60&wstride=2,3")
	got := collectSlice(t, c, 2)
	naive(t, "dt=FLOAT32&sizes=64,65&strides=66,1&woff=1,1&wsize=60,60&wstride=2,3").check(t, got)
}

// ---- the input's TotalTensorSizeInBytes and GuaranteedBaseOffsetAlignment ----

// example2With is the DirectML page's Example 2 with the input's buffer
// keys added: 16 FLOAT32 elements, DMLCalcBufferTensorSize 64 bytes.
func example2With(keys string) string {
	return "dt=FLOAT32&sizes=1,1,4,4&" + keys + "&woff=0,0,0,1&wsize=1,1,4,3&wstride=1,1,-2,2"
}

func TestSliceInputTotalAndAlignment(t *testing.T) {
	ts := newTestServer(t)
	c := dial(t, ts, nil)
	tests := []struct {
		name, query string
		// A valid slice: the buffer's cells (the unused tail past the
		// input's last element, 15) and what the C++ export says.
		cells, tail int64
		query2      string // the canonical query
		cpp         []string
		buffer      string // the buffer fact
		warnings    map[string]string
		// An invalid one: every field's error, exactly these fields.
		errors map[string]string
	}{
		{
			name: "a total above the minimum lengthens the buffer", query: example2With("total=96&align=16"),
			cells: 24, tail: 8, query2: example2With("total=96&align=16"),
			cpp: []string{"inputBufferDesc.TotalTensorSizeInBytes = 96; // DMLCalcBufferTensorSize gives 64\n",
				"inputBufferDesc.GuaranteedBaseOffsetAlignment = 16;\n", "outputBufferDesc.TotalTensorSizeInBytes = 16; // DMLCalcBufferTensorSize\n"},
			buffer: "96 bytes = 24 elements",
		},
		{
			name: "the minimum itself", query: example2With("total=64&align=0"),
			cells: 16, tail: 0, query2: example2With("total=64"),
			cpp:    []string{"inputBufferDesc.TotalTensorSizeInBytes = 64; // DMLCalcBufferTensorSize gives 64\n", "inputBufferDesc.GuaranteedBaseOffsetAlignment = 0;\n"},
			buffer: "64 bytes = 16 elements",
		},
		{
			name: "not a multiple of 4 only warns", query: example2With("total=70"),
			cells: 17, tail: 1, query2: example2With("total=70"),
			cpp:      []string{"inputBufferDesc.TotalTensorSizeInBytes = 70; // DMLCalcBufferTensorSize gives 64\n"},
			buffer:   "70 bytes = 17 elements and 2 bytes left over",
			warnings: map[string]string{"inputTotalTensorSizeInBytes": "inputTotalTensorSizeInBytes 70 is not a multiple of 4: the DirectML helper functions page requires every bound buffer's total size to be DWORD-aligned (use 72)"},
		},
		{
			name: "below the minimum and not a power of two, with a window rule",
			// The window runs past the input on axis 3 too.
			query: "dt=FLOAT32&sizes=1,1,4,4&total=60&align=3&woff=0,0,0,2&wsize=1,1,4,3&wstride=1,1,-2,2",
			errors: map[string]string{
				"inputTotalTensorSizeInBytes":        "inputTotalTensorSizeInBytes 60 < DMLCalcBufferTensorSize 64: the buffer must hold every element",
				"inputGuaranteedBaseOffsetAlignment": "inputGuaranteedBaseOffsetAlignment 3 must be 0 or a power of two",
				"inputWindowOffsets[3]":              "axis 3: InputWindowOffsets[3] + InputWindowSizes[3] = 5 > InputTensor.Sizes[3] = 4",
			},
		},
		{
			name: "not a number, and an alignment below the element size", query: example2With("total=lots&align=2"),
			errors: map[string]string{
				"inputTotalTensorSizeInBytes":        `inputTotalTensorSizeInBytes = "lots" is not a whole number: give a byte count, or leave it empty for the minimum`,
				"inputGuaranteedBaseOffsetAlignment": "inputGuaranteedBaseOffsetAlignment 2 must be at least the element size (4 bytes)",
			},
		},
		{
			name: "negative", query: example2With("total=-8"),
			errors: map[string]string{"inputTotalTensorSizeInBytes": "inputTotalTensorSizeInBytes -8 is negative: it is a UINT64 byte count"},
		},
		{
			name: "past 64 bits", query: example2With("total=18446744073709551616"),
			errors: map[string]string{"inputTotalTensorSizeInBytes": "inputTotalTensorSizeInBytes = 18446744073709551616 does not fit in 64 bits: DirectML values are UINT (at most 2^32-1) or UINT64"},
		},
		{
			// Without a data type the minimum is unknown: only the type is reported.
			name: "no data type yet", query: "dt=&sizes=1,1,4,4&total=8&align=16&woff=0,0,0,1&wsize=1,1,4,3&wstride=1,1,-2,2",
			errors: map[string]string{"dataType": "choose a data type (e.g. FLOAT32)"},
		},
		{
			// Rows padded to 6: the minimum is 22 cells; the preset clears
			// a total typed for another tensor.
			name: "a preset clears them", query: "preset=padded&total=4&align=3",
			cells: 22, tail: 0, query2: "dt=FLOAT32&sizes=4,4&strides=6,1&woff=0,1&wsize=4,3&wstride=-2,2",
			cpp:    []string{"inputBufferDesc.TotalTensorSizeInBytes = 88; // DMLCalcBufferTensorSize\n"},
			buffer: "88 bytes = 22 elements",
		},
	}
	for seq, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// The page, without JavaScript.
			_, d := page(t, "/slice?"+tt.query)
			for field, msg := range tt.errors {
				if got := ruleOf(one(t, d, tid("err-"+field))); got != msg {
					t.Errorf("page: %s: %q, want %q", field, got, msg)
				}
			}
			if got := d.Find(".field-error:not([hidden])").Length(); got != len(tt.errors) {
				t.Errorf("page: %d errors shown, want %d: %q", got, len(tt.errors), texts(d.Find(".field-error:not([hidden])"), ""))
			}
			for field, msg := range tt.warnings {
				if got := one(t, d, tid("warn-"+field)); got != msg {
					t.Errorf("page: warning %s: %q, want %q", field, got, msg)
				}
			}
			_, badTotal := tt.errors["inputTotalTensorSizeInBytes"]
			if got := d.Find(tid("total")).AttrOr("aria-invalid", ""); got != fmt.Sprint(badTotal) {
				t.Errorf("page: total aria-invalid %q", got)
			}
			if tt.errors == nil {
				if got := d.Find("#slice-buffer .bc").Length(); int64(got) != tt.cells {
					t.Errorf("page: %d buffer cells, want %d", got, tt.cells)
				}
				if got := d.Find("#slice-buffer .bc.tail").Length(); int64(got) != tt.tail {
					t.Errorf("page: %d unused tail cells, want %d", got, tt.tail)
				}
				if got := one(t, d, tid("fact-buffer")+" dd:not(.hint)"); got != tt.buffer {
					t.Errorf("page: buffer fact %q, want %q", got, tt.buffer)
				}
				cpp := d.Find(tid("export-cpp")).Text()
				for _, want := range tt.cpp {
					if !strings.Contains(cpp, want) {
						t.Errorf("page: the C++ lacks %q:\n%s", want, cpp)
					}
				}
			}

			// The same edit over the websocket.
			sendSliceEdit(t, c, int64(seq+1), tt.query)
			r, done := readSlice(t, c, int64(seq+1))
			if r.OK != (tt.errors == nil) || done != r.OK {
				t.Fatalf("ws: ok %v done %v, errors %+v", r.OK, done, r.Errors)
			}
			got := map[string]string{}
			for _, e := range r.Errors {
				got[e.Field] = ruleOf(e.Message)
			}
			if len(tt.errors) > 0 && !maps.Equal(got, tt.errors) {
				t.Errorf("ws: errors %q, want %q", got, tt.errors)
			}
			warned := map[string]string{}
			for _, w := range r.Warnings {
				warned[w.Field] = w.Message
			}
			if len(warned) != len(tt.warnings) || !maps.Equal(warned, tt.warnings) && tt.warnings != nil {
				t.Errorf("ws: warnings %q, want %q", warned, tt.warnings)
			}
			if !r.OK {
				return
			}
			if r.Query != tt.query2 {
				t.Errorf("ws: query %q, want %q", r.Query, tt.query2)
			}
			if r.Meta.Cells != tt.cells || r.Meta.Last != tt.cells-tt.tail-1 || r.Meta.BufferMode != "dom" {
				t.Errorf("ws: %d cells, last %d, %s; want %d cells, last %d", r.Meta.Cells, r.Meta.Last, r.Meta.BufferMode, tt.cells, tt.cells-tt.tail-1)
			}
			if n := int64(strings.Count(r.HTML.Buffer, `data-testid="bcell"`)); n != tt.cells {
				t.Errorf("ws: %d buffer cells in the fragment, want %d", n, tt.cells)
			}
			if n := int64(strings.Count(r.HTML.Buffer, `class="bc tail"`)); n != tt.tail {
				t.Errorf("ws: %d unused tail cells in the fragment, want %d", n, tt.tail)
			}
			for _, want := range tt.cpp {
				if !strings.Contains(r.HTML.Facts, html.EscapeString(want)) {
					t.Errorf("ws: the C++ lacks %q", want)
				}
			}
			if strings.Join(r.Meta.Values, ",") != "14,16,6,8" {
				t.Errorf("ws: values %v", r.Meta.Values)
			}
		})
	}
}

// TestSliceHugeTotalsCostNothing: a TotalTensorSizeInBytes of 4 GiB or
// 2^63-1 bytes is described (its buffer too large to draw) and one of
// 16 MiB on a 64-byte tensor is a canvas whose frames stop at the last
// element: no edit allocates or sends anything in proportion to the total.
func TestSliceHugeTotalsCostNothing(t *testing.T) {
	ts := newTestServer(t)
	c := dial(t, ts, nil)
	tests := []struct {
		name, query string
		mode        string
		cells       int64
		stream      *slice1.Stream
	}{
		{name: "4 GiB", query: example2With("total=4294967296"), mode: "none", cells: 1 << 30},
		{name: "4 GiB - 4", query: example2With("total=4294967292"), mode: "none", cells: 1<<30 - 1},
		{name: "2^63-1 bytes", query: example2With("total=9223372036854775807"), mode: "none", cells: math.MaxInt64 / 4},
		{name: "2^24 cells on a canvas", query: "dt=UINT8&sizes=8,8&total=16777216&woff=0,0&wsize=8,8&wstride=-1,1", mode: "canvas", cells: 1 << 24,
			stream: &slice1.Stream{Read: 1}},
	}
	for seq, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ms0, ms1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms0)
			start := time.Now()
			sendSliceEdit(t, c, int64(seq+1), tt.query)
			r, done := readSlice(t, c, int64(seq+1))
			took := time.Since(start)
			runtime.ReadMemStats(&ms1)
			if !r.OK || !done {
				t.Fatalf("errors %+v", r.Errors)
			}
			if r.Meta.BufferMode != tt.mode || r.Meta.Cells != tt.cells {
				t.Errorf("buffer %s of %d cells, want %s of %d", r.Meta.BufferMode, r.Meta.Cells, tt.mode, tt.cells)
			}
			if (r.Stream == nil) != (tt.stream == nil) || r.Stream != nil && *r.Stream != *tt.stream {
				t.Errorf("stream %+v, want %+v", r.Stream, tt.stream)
			}
			// Measured: well under 1 MiB and a few ms. Filling, counting or
			// sending the tail would take tens of MiB (or all memory).
			alloc := ms1.TotalAlloc - ms0.TotalAlloc
			t.Logf("%s: %v, %d bytes allocated", tt.name, took, alloc)
			if alloc > 8<<20 {
				t.Errorf("allocated %d bytes", alloc)
			}
			if took > 2*time.Second {
				t.Errorf("took %v", took)
			}
		})
	}
	// The page without JavaScript says so too.
	start := time.Now()
	_, d := page(t, "/slice?"+example2With("total=9223372036854775807"))
	if got := one(t, d, "#slice-buffer .too-large"); !strings.HasPrefix(got, "The input's buffer has 2305843009213693951 cells holding 16 elements") {
		t.Errorf("note %q", got)
	}
	if got := one(t, d, tid("fact-buffer")+" dd:not(.hint)"); got != "9223372036854775807 bytes = 2305843009213693951 elements and 3 bytes left over" {
		t.Errorf("buffer fact %q", got)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the page took %v", took)
	}
}

// TestSliceNumbersHaveLegends: every number a cell shows is explained,
// and copy-order badges are left off grids too dense for them, where they
// would cover the values (issue #13, 5).
func TestSliceNumbersHaveLegends(t *testing.T) {
	_, d := page(t, "/slice?preset=example2")
	for _, id := range []string{"input-corner-legend", "output-corner-legend", "buffer-corner-legend"} {
		if d.Find(tid(id)).Length() != 1 {
			t.Errorf("no %s", id)
		}
	}
	if got := d.Find(tid("input-legend")).Text(); strings.Contains(got, "numbered in copy order (output element 2)") {
		t.Errorf("the input legend still reads %q", got)
	}
	if n := d.Find(tid("slice-input") + " .badge-n").Length(); n != 4 {
		t.Errorf("Example 2: %d copy-order badges on the input, want 4", n)
	}
	_, d = page(t, "/slice?sizes=12,16&woff=0,0&wsize=12,16&wstride=1,-1")
	if n := d.Find(tid("slice-input") + " .badge-n, " + tid("slice-buffer") + " .badge-n").Length(); n != 0 {
		t.Errorf("a 12×16 input: %d badges over its values", n)
	}
	if n := d.Find(tid("slice-input") + " .lc[data-link]").Length(); n != 192 {
		t.Errorf("a 12×16 input: %d cells linked to the output, want 192", n)
	}
	_, d = page(t, "/")
	if d.Find(tid("logical-corner-legend")).Length() != 1 || d.Find(tid("buffer-corner-legend")).Length() != 1 {
		t.Error("the layout explorer's corner numbers have no legend")
	}
}

// TestPagesUseNoGoNames: what a learner reads names no Go package or
// function (compute.Slice, compute.Touched, picture.*, core.*) (issue #13, 9).
func TestPagesUseNoGoNames(t *testing.T) {
	for _, path := range []string{"/", "/?sizes=4096,4096", "/slice?preset=example2", "/slice?preset=nhwc&vals=1,2,3", "/tour/10", "/tour/11", "/embed/slice?preset=padded"} {
		_, d := page(t, path)
		d.Find("script, noscript").Remove()
		text := d.Find("body").Text()
		for _, pkg := range []string{"compute.", "picture.", "core.", "views.", "live."} {
			if i := strings.Index(text, pkg); i >= 0 {
				t.Errorf("%s: %q", path, text[max(i-40, 0):min(i+40, len(text))])
			}
		}
	}
}

// TestSliceSignedFieldsGetAMinusKey: a window stride may be negative, so
// its field does not ask phones for the numeric keypad (iOS's has no
// minus key); the unsigned fields do.
func TestSliceSignedFieldsGetAMinusKey(t *testing.T) {
	_, d := page(t, "/slice?preset=example2")
	for _, name := range []string{"sizes", "strides", "woff", "wsize", "wstride", "out"} {
		fields := d.Find(`#controls input[name="` + name + `"]`)
		if fields.Length() == 0 {
			t.Fatalf("no %s fields", name)
		}
		fields.Each(func(_ int, f *goquery.Selection) {
			mode, has := f.Attr("inputmode")
			if name == "wstride" && has {
				t.Errorf("%s (%s): inputmode=%q on a signed field", name, f.AttrOr("id", ""), mode)
			}
			if name != "wstride" && mode != "numeric" {
				t.Errorf("%s (%s): inputmode=%q, want numeric", name, f.AttrOr("id", ""), mode)
			}
		})
	}
}

// TestSliceWindowPastTheInputMarksItsSize: a window that runs out of the
// input is reported at its offset, and the page marks its size invalid
// too (the learner typed either).
func TestSliceWindowPastTheInputMarksItsSize(t *testing.T) {
	_, d := page(t, "/slice?dt=FLOAT32&sizes=1,1,4,4&woff=0,0,0,2&wsize=1,1,4,3&wstride=1,1,1,1")
	for id, want := range map[string]string{"f-woff-3": "true", "f-wsize-3": "true", "f-wsize-2": "false", "f-woff-2": "false"} {
		if got := d.Find("#"+id).AttrOr("aria-invalid", ""); got != want {
			t.Errorf("%s: aria-invalid %q, want %q", id, got, want)
		}
	}
}
