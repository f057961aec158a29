package slice1

import (
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
	"github.com/stridescope/stridescope/views"
	"github.com/stridescope/stridescope/views/viewstest"
)

// example2 is the DirectML page's Example 2 drawn by hand: a 1×1×4×4
// input holding 1..16, the window {0,0,0,1} + {1,1,4,3}, strides
// {1,1,-2,2}; the output 14 16 / 6 8.
func example2() PageModel {
	var inRows []views.LogicalRow
	order := map[int64]string{13: "0", 15: "1", 5: "2", 7: "3"}
	for r := range int64(4) {
		row := views.LogicalRow{Head: r}
		for c := range int64(4) {
			i := r*4 + c
			cell := views.LogicalCell{Index: i, Coord: "0,0," + views.Itoa(r) + "," + views.Itoa(c), Label: views.Itoa(i + 1), Offset: i, Grid: "in", Class: "win", Tab: i == 0}
			if c == 0 {
				cell.Class = "out"
			}
			if k, ok := order[i]; ok {
				cell.Class += " read"
				cell.Badge, cell.Link = k, k
			}
			if i == 13 {
				cell.Class += " start"
			}
			row.Cells = append(row.Cells, cell)
		}
		inRows = append(inRows, row)
	}
	var outRows []views.LogicalRow
	vals, src := []string{"14", "16", "6", "8"}, []string{"13", "15", "5", "7"}
	for r := range int64(2) {
		row := views.LogicalRow{Head: r}
		for c := range int64(2) {
			k := r*2 + c
			row.Cells = append(row.Cells, views.LogicalCell{Index: k, Coord: "0,0," + views.Itoa(r) + "," + views.Itoa(c), Label: vals[k], Offset: k, Grid: "out", Class: "copied", Link: src[k]})
		}
		outRows = append(outRows, row)
	}
	var bcells []views.BufferCell
	for o := range int64(16) {
		c := views.BufferCell{Offset: o, Label: views.Itoa(o + 1), Count: 1, State: views.CellUsed, Byte: views.Itoa(o * 4)}
		if k, ok := order[o]; ok {
			c.Class, c.Badge = "read", k
		}
		bcells = append(bcells, c)
	}
	dims := make([]DimRow, views.MaxRank)
	for i := range dims {
		dims[i] = DimRow{Index: i}
	}
	for i, l := range []string{"N", "C", "H", "W"} {
		dims[i] = DimRow{Index: i, Label: l, Active: true, Size: []string{"1", "1", "4", "4"}[i], Stride: []string{"16", "16", "4", "1"}[i],
			Off: []string{"0", "0", "0", "1"}[i], Win: []string{"1", "1", "4", "3"}[i], Step: []string{"1", "1", "-2", "2"}[i], OutMax: []string{"1", "1", "2", "2"}[i]}
	}
	var code []CodeLine
	for i, l := range Code {
		code = append(code, CodeLine{N: i + 1, Text: l, Active: i+1 == 6})
	}
	return PageModel{
		Form: FormModel{DataType: "FLOAT32", DataTypes: []string{"FLOAT32", "INT4"}, Rank: 4, Packed: true, FeatureLevel: "6_4", FeatureLevels: []string{"2_1", "6_4"},
			Dims: dims, NumPy: "x[0:1, 0:1, 3:0:-2, 1:4:2]", T: "5",
			Errors: map[string][]string{"outputSizes[2]": {"axis 2: OutputSizes[2] = 3 not in [1, MaxCopiedElements = 2]"}}},
		Presets: []views.Preset{{Name: "example2", Title: "Example 2", Href: "/slice?preset=example2", Page: true}},
		Dims: Dims{Rows: []DimFact{{Axis: 2, Label: "H", Window: "[0, 3]", Stride: "-2", CopyStart: "0 + 4 − 1 = 3", MaxCopied: "1 + (4 − 1) / |-2| = 1 + 3 / 2 = 2", Out: "3", Verdict: "no: 3 > MaxCopiedElements = 2"}},
			E2: "MaxCopiedElements divides by |stride| (erratum E2)."},
		Picture: PictureView{
			Input:  views.Logical{Mode: views.ModeDOM, Count: 16, Bands: []views.Band{{Panels: []views.Panel{{RowLabel: "H", ColLabel: "W", ColHeads: []int64{0, 1, 2, 3}, Rows: inRows, What: "input elements"}}}}},
			Output: views.Logical{Mode: views.ModeDOM, Count: 4, Bands: []views.Band{{Panels: []views.Panel{{RowLabel: "H", ColLabel: "W", ColHeads: []int64{0, 1}, Rows: outRows, What: "output elements"}}}}},
			Buffer: views.Buffer{Mode: views.ModeDOM, Cells: 16, Cols: 16, Last: 15, Rows: []views.BufferRow{{Start: 0, Cells: bcells}}},
			Steps: Steps{Code: code, Total: 9, Cur: 5, Header: "step 6 of 9",
				Text: "Output[{0,0,0,0}] = Input[{0,0,3,1} + {1,1,-2,2} * {0,0,0,0}] = Input[{0,0,3,1}] = 14",
				Prev: "/slice?preset=example2&t=4", Next: "/slice?preset=example2&t=6"},
			Facts:  []views.Fact{{Name: "CopyStart", Value: "{0,0,3,1}", TestID: "fact-copystart"}},
			Export: Export{CPP: "DML_SLICE1_OPERATOR_DESC sliceDesc = {};", NumPy: "y = x[0:1, 0:1, 3:0:-2, 1:4:2]", ONNX: "starts = [0, 0, 3, 1]"},
		},
		LastValid: "dt=FLOAT32&sizes=1,1,4,4&woff=0,0,0,1&wsize=1,1,4,3&wstride=1,1,-2,2",
	}
}

func TestSlicePageIsAGETFormWithAWindowRowPerDimension(t *testing.T) {
	d := viewstest.Doc(t, PageView(example2()))
	form := d.Find(`form` + viewstest.TID("form"))
	if form.AttrOr("method", "") != "get" || form.AttrOr("action", "") != "/slice" {
		t.Fatalf("form %v %v", form.AttrOr("method", ""), form.AttrOr("action", ""))
	}
	// One window row per axis, so that the form sends one entry per axis.
	if n := d.Find(viewstest.TID("window-dims") + " tr.dim:not([hidden])").Length(); n != 4 {
		t.Errorf("%d visible window rows", n)
	}
	if n := d.Find(viewstest.TID("window-dims") + " tr.dim").Length(); n != 4 {
		t.Errorf("%d window rows", n)
	}
	for id, want := range map[string]string{"woff-3": "1", "wsize-2": "4", "wstride-2": "-2", "size-3": "4", "stride-0": "16"} {
		if got := d.Find(viewstest.TID(id)).AttrOr("value", ""); got != want {
			t.Errorf("%s = %q, want %q", id, got, want)
		}
	}
	if got := d.Find(viewstest.TID("out-2")).AttrOr("placeholder", ""); got != "2" {
		t.Errorf("output placeholder %q", got)
	}
	if _, ok := d.Find(viewstest.TID("stride-0")).Attr("readonly"); !ok {
		t.Error("packed strides are editable")
	}
	// The expression has its own submit button, so the GET form says which
	// of the two wins.
	use := d.Find(viewstest.TID("use-np"))
	if use.AttrOr("type", "") != "submit" || use.AttrOr("name", "") != "use" || use.AttrOr("value", "") != "np" {
		t.Errorf("Use button %v", use.Nodes)
	}
	if got := d.Find(viewstest.TID("np")).AttrOr("value", ""); got != "x[0:1, 0:1, 3:0:-2, 1:4:2]" {
		t.Errorf("np %q", got)
	}
	if got := d.Find(viewstest.TID("t")).AttrOr("value", ""); got != "5" {
		t.Errorf("t %q", got)
	}
	if d.Find(`a[href="/slice"]`+viewstest.TID("nav-slice")).Length() != 1 {
		t.Error("no nav link to /slice")
	}
}

func TestSliceErrorsSitAtTheirFields(t *testing.T) {
	d := viewstest.Doc(t, PageView(example2()))
	wide := example2() // every axis's slots: the rows of a rank-8 tensor
	wide.Form.Dims = append([]DimRow(nil), wide.Form.Dims...)
	for i := range wide.Form.Dims {
		wide.Form.Dims[i].Active = true
	}
	dw := viewstest.Doc(t, PageView(wide))
	slot := d.Find(viewstest.TID("err-outputSizes[2]"))
	if _, hidden := slot.Attr("hidden"); hidden || !strings.Contains(slot.Text(), "MaxCopiedElements = 2") {
		t.Errorf("slot %q hidden=%v", slot.Text(), hidden)
	}
	// The slot sits in the error row right under the output size's row.
	if got := slot.Closest("tr.dim-errors").AttrOr("data-dim", ""); got != "2" {
		t.Errorf("the slot is in row %q", got)
	}
	in := d.Find(viewstest.TID("out-2"))
	if in.AttrOr("aria-invalid", "") != "true" || in.AttrOr("aria-describedby", "") != "err-outputSizes[2]" {
		t.Errorf("out-2 aria %q %q", in.AttrOr("aria-invalid", ""), in.AttrOr("aria-describedby", ""))
	}
	// Every field a rule of DML_SLICE1 names has a slot, even when empty.
	for _, f := range []string{"dataType", "inputSizes", "featureLevel", "expression", "values", "inputWindowOffsets[3]", "inputWindowSizes[0]", "inputWindowStrides[1]", "outputSizes[7]", "inputSizes[0]", "inputStrides[3]",
		"inputTotalTensorSizeInBytes", "inputGuaranteedBaseOffsetAlignment"} {
		if dw.Find(viewstest.TID("err-"+f)).Length() != 1 {
			t.Errorf("no error slot for %s", f)
		}
	}
	if d.Find(viewstest.TID("warn-inputTotalTensorSizeInBytes")).Length() != 1 {
		t.Error("no warning slot for the total")
	}
	// The input's buffer fields: named as the query keys, described by
	// their slots, as typed.
	m := example2()
	m.Form.Total, m.Form.Align = "60", "3"
	m.Form.Errors = map[string][]string{"inputTotalTensorSizeInBytes": {"inputTotalTensorSizeInBytes 60 < DMLCalcBufferTensorSize 64: the buffer must hold every element"}}
	d = viewstest.Doc(t, PageView(m))
	for id, want := range map[string][3]string{"total": {"total", "60", "true"}, "align": {"align", "3", "false"}} {
		in := d.Find(viewstest.TID(id))
		if got := [3]string{in.AttrOr("name", ""), in.AttrOr("value", ""), in.AttrOr("aria-invalid", "")}; got != want {
			t.Errorf("%s: name, value, aria-invalid %q, want %q", id, got, want)
		}
	}
	if got := d.Find(viewstest.TID("total")).AttrOr("aria-describedby", ""); got != "err-inputTotalTensorSizeInBytes warn-inputTotalTensorSizeInBytes hint-total" {
		t.Errorf("total aria-describedby %q", got)
	}
	if got := d.Find(viewstest.TID("err-inputTotalTensorSizeInBytes")).Text(); !strings.Contains(got, "< DMLCalcBufferTensorSize 64") {
		t.Errorf("total error %q", got)
	}
	if got := d.Find(viewstest.TID("verdict-2")).Text(); got != "no: 3 > MaxCopiedElements = 2" {
		t.Errorf("verdict %q", got)
	}
	if !d.Find(viewstest.TID("dimfact-2")).HasClass("bad") {
		t.Error("the disallowed axis is not marked")
	}
	if !strings.Contains(d.Find(viewstest.TID("e2-note")).Text(), "erratum E2") {
		t.Error("no E2 note")
	}
}

func TestSliceGridsLinkBothWays(t *testing.T) {
	d := viewstest.Doc(t, PageView(example2()))
	in := d.Find("#slice-input " + viewstest.TID("incell"))
	if in.Length() != 16 {
		t.Fatalf("%d input cells", in.Length())
	}
	c := d.Find("#in-13")
	if !c.HasClass("lc") || !c.HasClass("read") || !c.HasClass("start") || c.AttrOr("data-link", "") != "0" || c.Find(".badge-n").AttrOr("data-n", "") != "0" {
		t.Errorf("input (0,0,3,1): class %q link %q badge %q", c.AttrOr("class", ""), c.AttrOr("data-link", ""), c.Find(".badge-n").AttrOr("data-n", ""))
	}
	if _, ok := d.Find("#in-0").Attr("data-link"); ok {
		t.Error("a cell outside the window links somewhere")
	}
	out := d.Find("#slice-output " + viewstest.TID("outcell"))
	if got := strings.Join(out.Map(func(_ int, s *goquery.Selection) string { return s.AttrOr("data-link", "") }), ","); got != "13,15,5,7" {
		t.Errorf("output links %s", got)
	}
	if got := d.Find("#out-2").Closest("[role=grid]").AttrOr("aria-label", ""); got != "output elements" {
		t.Errorf("output grid label %q", got)
	}
	b := d.Find("#b-13")
	if !b.HasClass("read") || b.Find(".badge-n").AttrOr("data-n", "") != "0" {
		t.Errorf("buffer cell 13: %q", b.AttrOr("class", ""))
	}
	// One cell of each grid is in the tab order.
	if n := d.Find(`#slice-input [tabindex="0"]`).Length(); n != 1 {
		t.Errorf("%d input cells in the tab order", n)
	}
}

func TestSliceStepsWorkWithoutJavaScript(t *testing.T) {
	d := viewstest.Doc(t, PageView(example2()))
	if got := d.Find("ol.code li").Length(); got != len(Code) {
		t.Errorf("%d code lines", got)
	}
	if got := d.Find("ol.code li.active").AttrOr("data-line", ""); got != "6" {
		t.Errorf("active line %q", got)
	}
	if d.Find(viewstest.TID("step-next")).AttrOr("href", "") != "/slice?preset=example2&t=6" || d.Find(viewstest.TID("step-back")).AttrOr("href", "") != "/slice?preset=example2&t=4" {
		t.Error("the step links")
	}
	// Play and Pause need the script: hidden until it runs.
	for _, id := range []string{"step-play", "step-pause"} {
		if _, hidden := d.Find(viewstest.TID(id)).Attr("hidden"); !hidden {
			t.Errorf("%s is shown without JavaScript", id)
		}
	}
	if _, hidden := d.Find(viewstest.TID("step-note")).Attr("hidden"); !hidden {
		t.Error("an empty erratum note is shown")
	}
	if got := strings.TrimSpace(d.Find(viewstest.TID("step-text")).Text()); !strings.HasSuffix(got, "= 14") {
		t.Errorf("step text %q", got)
	}
}

func TestSliceCanvasViewsNeedJavaScriptOnly(t *testing.T) {
	d := viewstest.Doc(t, GridView("slice-in", views.Logical{Mode: views.ModeCanvas, Count: 10000, Note: "the input's 10000 elements"}))
	if got, _ := d.Find("canvas#slice-in-canvas").Attr("aria-label"); got != "the input's 10000 elements" {
		t.Errorf("canvas label %q", got)
	}
	if !strings.Contains(d.Find(viewstest.TID("slice-in-canvas")+" noscript").Text(), "This view has 10000 cells") {
		t.Error("no note for pages without JavaScript")
	}
	if d.Find(viewstest.TID("slice-in-legend")).Length() != 1 || d.Find(viewstest.TID("slice-out-legend")).Length() != 0 {
		t.Error("the input canvas's legend")
	}
	d = viewstest.Doc(t, GridView("slice-out", views.Logical{Mode: views.ModeCanvas, Count: 5000}))
	if d.Find("#slice-out-canvas").Length() != 1 || d.Find(viewstest.TID("slice-out-legend")+" .vmax").Length() != 1 {
		t.Error("the output canvas and its colour scale")
	}
	d = viewstest.Doc(t, BufferView(views.Buffer{Mode: views.ModeCanvas, Cells: 5000, Note: "the input's buffer"}))
	if d.Find("#slice-buf-canvas").Length() != 1 || d.Find(viewstest.TID("slice-buf-legend")).Length() != 1 {
		t.Error("the buffer canvas and its legend")
	}
	// Grids and notes are the explorer's views.
	if viewstest.Doc(t, GridView("slice-in", views.Logical{Mode: views.ModeNone, Note: "too large"})).Find(viewstest.TID("logical-too-large")).Text() != "too large" {
		t.Error("no too-large note")
	}
	if viewstest.Doc(t, BufferView(views.Buffer{Mode: views.ModeNone, Note: "too large"})).Find(viewstest.TID("buffer-too-large")).Text() != "too large" {
		t.Error("no too-large note on the buffer")
	}
}
