package views

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/views/viewstest"
)

// doc and tid are viewstest's, under the names these tests use.
var (
	doc = viewstest.Doc
	tid = viewstest.TID
)

// paddedPicture is the strides page's padding example drawn by hand: 2x3
// with height stride 5 in a 10-element FLOAT32 buffer.
func paddedPicture() Picture {
	offs := []int64{0, 1, 2, 5, 6, 7}
	letters := "ABCDEF"
	var rows []LogicalRow
	for r := range 2 {
		row := LogicalRow{Head: int64(r)}
		for c := range 3 {
			i := int64(r*3 + c)
			row.Cells = append(row.Cells, LogicalCell{Index: i, Coord: Itoa(int64(r)) + "," + Itoa(int64(c)), Label: letters[i : i+1], Offset: offs[i], Tab: i == 0})
		}
		rows = append(rows, row)
	}
	labels := []string{"A", "B", "C", "x", "x", "D", "E", "F", "x", "x"}
	states := []string{CellUsed, CellUsed, CellUsed, CellHole, CellHole, CellUsed, CellUsed, CellUsed, CellTail, CellTail}
	var cells []BufferCell
	var ruler []RulerMark
	for o := range int64(10) {
		n := uint32(0)
		if states[o] == CellUsed {
			n = 1
		}
		cells = append(cells, BufferCell{Offset: o, Label: labels[o], Count: n, State: states[o], Byte: Itoa(o * 4), Tab: o == 0})
		ruler = append(ruler, RulerMark{Span: 1, Ticks: 4, Text: Itoa(o * 4)})
	}
	return Picture{
		Meta:    Meta{Sizes: []int64{2, 3}, Strides: []int64{5, 1}, Labels: []string{"H", "W"}, Bits: 32, LogicalCount: 6, Cells: 10, Last: 7},
		Logical: Logical{Mode: ModeDOM, Count: 6, Bands: []Band{{Panels: []Panel{{RowLabel: "H", ColLabel: "W", ColHeads: []int64{0, 1, 2}, Rows: rows}}}}},
		Buffer:  Buffer{Mode: ModeDOM, Cells: 10, Cols: 10, Last: 7, Rows: []BufferRow{{Start: 0, Cells: cells, Ruler: ruler}}},
		Facts: Facts{
			Badges: []Badge{{Name: "packed", State: "no"}, {Name: "padded", State: "yes"}},
			Counts: []Fact{{Name: "logical elements", Value: "6", TestID: "fact-logical"}},
			Steps:  []Step{{What: "index of the last element", Expr: "{1,2} · {5,1}", Value: "= 7"}},
			CPP:    "DML_BUFFER_TENSOR_DESC tensorBufferDesc = {};",
		},
	}
}

func TestLogicalCellsAreAnAccessibleGrid(t *testing.T) {
	d := doc(t, LogicalView(paddedPicture().Logical))
	cells := d.Find(tid("lcell"))
	if cells.Length() != 6 {
		t.Fatalf("%d cells", cells.Length())
	}
	var labels []string
	cells.Each(func(_ int, s *goquery.Selection) { labels = append(labels, s.Find(".lbl").Text()) })
	if strings.Join(labels, "") != "ABCDEF" {
		t.Errorf("labels %v", labels)
	}
	e := cells.Eq(3)
	if name, _ := e.Attr("aria-label"); name != "D, element (1,0), offset 5" {
		t.Errorf("accessible name %q", name)
	}
	if r, _ := e.Attr("role"); r != "gridcell" {
		t.Errorf("role %q", r)
	}
	if d.Find(`[role=grid]`).Length() != 1 {
		t.Error("no grid")
	}
	if d.Find(`[data-testid=lcell][tabindex="0"]`).Length() != 1 {
		t.Error("roving tabindex: exactly one cell must be in the tab order")
	}
	if got := d.Find(`[role=columnheader].ch`).Length(); got != 3 {
		t.Errorf("%d column headers", got)
	}
}

func TestBufferCellsMarkPaddingTailAndSharing(t *testing.T) {
	b := paddedPicture().Buffer
	b.Rows[0].Cells[1].State, b.Rows[0].Cells[1].Count = CellShared, 2
	d := doc(t, BufferView(b))
	cells := d.Find(tid("bcell"))
	if cells.Length() != 10 {
		t.Fatalf("%d buffer cells", cells.Length())
	}
	if !cells.Eq(3).HasClass(CellHole) || !cells.Eq(8).HasClass(CellTail) || !cells.Eq(0).HasClass(CellUsed) {
		t.Error("cell states are not classes")
	}
	if got := cells.Eq(1).Find(".cnt").Text(); got != "×2" {
		t.Errorf("shared count %q", got)
	}
	if name, _ := cells.Eq(3).Attr("aria-label"); name != "buffer offset 3, byte 12: padding" {
		t.Errorf("accessible name %q", name)
	}
	if name, _ := cells.Eq(9).Attr("aria-label"); !strings.Contains(name, "unused") {
		t.Errorf("accessible name %q", name)
	}
	if got := d.Find(".ruler .rm").Length(); got != 10 {
		t.Errorf("%d ruler marks", got)
	}
	if got := d.Find(".ruler .rm").Eq(2).Text(); got != "8" {
		t.Errorf("ruler mark %q, want byte 8", got)
	}
}

// TestBufferCellNamesHoldTheirText: in every language a buffer cell's
// accessible name holds the text the cell shows (WCAG 2.5.3, axe's
// label-content-name-mismatch): "A ×2" of a shared cell included, with
// the explorer's description and with a page's own (the slice's).
// Padding and the tail show an "x" standing for the word they are named.
func TestBufferCellNamesHoldTheirText(t *testing.T) {
	b := paddedPicture().Buffer
	b.Rows[0].Cells[1].State, b.Rows[0].Cells[1].Count = CellShared, 2
	slice := paddedPicture().Buffer
	for j := range slice.Rows[0].Cells {
		c := &slice.Rows[0].Cells[j]
		c.Label, c.Aria = "7", "buffer offset, holds 7, read by the slice"
		if j < 3 {
			c.State, c.Count = CellShared, 3
		}
	}
	for _, l := range i18n.Locales {
		for name, view := range map[string]Buffer{"explorer": b, "slice": slice} {
			var out bytes.Buffer
			if err := BufferView(view).Render(i18n.WithLocale(context.Background(), l), &out); err != nil {
				t.Fatal(err)
			}
			d, err := goquery.NewDocumentFromReader(&out)
			if err != nil {
				t.Fatal(err)
			}
			shared := 0
			d.Find(tid("bcell")).Each(func(_ int, c *goquery.Selection) {
				c.Find("[aria-hidden]").Remove()
				text := strings.Join(strings.Fields(c.Text()), " ")
				aria := c.AttrOr("aria-label", "")
				if c.HasClass(CellShared) {
					shared++
					if !strings.HasPrefix(aria, text+", ") {
						t.Errorf("%s in %s: the shared cell %s shows %q, named %q", name, l, c.AttrOr("id", ""), text, aria)
					}
				}
				if text != "x" && !strings.Contains(aria, text) {
					t.Errorf("%s in %s: the cell %s shows %q, named %q", name, l, c.AttrOr("id", ""), text, aria)
				}
			})
			if shared == 0 {
				t.Errorf("%s in %s: no shared cell", name, l)
			}
		}
	}
}

func TestLargeViewsAreCanvasesThatSayTheyNeedJavaScript(t *testing.T) {
	d := doc(t, LogicalView(Logical{Mode: ModeCanvas, Count: 65536, Note: "65536 logical elements"}))
	if d.Find(`canvas#logical-canvas`).Length() != 1 {
		t.Error("no canvas")
	}
	if d.Find(tid("lcell")).Length() != 0 {
		t.Error("DOM cells drawn above the cap")
	}
	ns := d.Find("noscript").Text()
	if !strings.Contains(ns, "65536") || !strings.Contains(ns, "JavaScript") {
		t.Errorf("noscript text %q", ns)
	}
	d = doc(t, BufferView(Buffer{Mode: ModeNone, Note: "too large"}))
	if d.Find(tid("buffer-too-large")).Text() != "too large" {
		t.Error("no too-large note")
	}
}

func TestFactsShowBadgesStepsAndCPP(t *testing.T) {
	d := doc(t, FactsView(paddedPicture().Facts))
	if s, _ := d.Find(tid("badge-padded")).Attr("data-state"); s != "yes" {
		t.Errorf("padded badge %q", s)
	}
	if s, _ := d.Find(tid("badge-packed")).Attr("data-state"); s != "no" {
		t.Errorf("packed badge %q", s)
	}
	if !strings.Contains(d.Find(tid("steps")).Text(), "{1,2} · {5,1}") {
		t.Errorf("steps %q", d.Find(tid("steps")).Text())
	}
	if !strings.Contains(d.Find(tid("cpp")).Text(), "DML_BUFFER_TENSOR_DESC") {
		t.Error("no C++")
	}
	if d.Find(tid("fact-logical")+" dd").First().Text() != "6" {
		t.Error("logical count")
	}
}

func TestFactsMarkWherePublishedHelpersDiffer(t *testing.T) {
	int4 := HelperNote{Helper: "documentation page", TestID: "helper-note-doc-page", Text: "returns 0 bytes for this tensor: it has no case for UINT4 or INT4"}
	wrap := HelperNote{Helper: "DirectMLX.h", TestID: "helper-note-directmlx", Text: "returns 4 bytes for this tensor: it sums the index of the last element in a 32-bit UINT, which wraps"}
	for _, c := range []struct {
		name  string
		notes []HelperNote
	}{
		{"helpers agree", nil},
		{"4-bit type", []HelperNote{int4}},
		{"both", []HelperNote{wrap, int4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := paddedPicture().Facts
			f.HelperNotes = c.notes
			d := doc(t, FactsView(f))
			box := d.Find(tid("helper-notes"))
			if len(c.notes) == 0 {
				if box.Length() != 0 || d.Find(".helper-note").Length() != 0 {
					t.Fatalf("a helper note where the helpers agree: %q", box.Text())
				}
				return
			}
			if box.Length() != 1 {
				t.Fatalf("%d helper-notes boxes", box.Length())
			}
			if r, _ := box.Attr("role"); r != "note" {
				t.Errorf("role %q", r)
			}
			if box.Prev().Is(tid("steps")) == false {
				t.Errorf("the notes do not follow the steps")
			}
			if got := box.Find(".helper-note").Length(); got != len(c.notes) {
				t.Errorf("%d notes, want %d", got, len(c.notes))
			}
			for _, n := range c.notes {
				p := box.Find(tid(n.TestID))
				if p.Find(".helper-flag").Text() != "Published helper differs ("+n.Helper+"):" {
					t.Errorf("%s: flag %q", n.TestID, p.Find(".helper-flag").Text())
				}
				if !strings.Contains(p.Text(), n.Text) {
					t.Errorf("%s: %q lacks %q", n.TestID, p.Text(), n.Text)
				}
			}
		})
	}
}

func TestBufferSubStatesHugeBuffersWithoutWrapping(t *testing.T) {
	for _, c := range []struct {
		cells, bits int64
		want        string
	}{
		{10, 32, "10 elements of 32 bits = 40 bytes"},
		{5, 4, "5 elements of 4 bits = 2.5 bytes"},
		{6, 4, "6 elements of 4 bits = 3 bytes"},
		{1 << 59, 32, "576\u202f460\u202f752\u202f303\u202f423\u202f488 elements of 32 bits = 2\u202f305\u202f843\u202f009\u202f213\u202f693\u202f952 bytes"}, // cells*bits wraps to 0
		{1<<62 + 1, 4, "4\u202f611\u202f686\u202f018\u202f427\u202f387\u202f905 elements of 4 bits = 2\u202f305\u202f843\u202f009\u202f213\u202f693\u202f952.5 bytes"},
	} {
		if got := BufferSubIn(context.Background(), Meta{Sizes: []int64{2, 3}, Cells: c.cells, Bits: c.bits}); got != c.want {
			t.Errorf("BufferSub(%d cells of %d bits) = %q, want %q", c.cells, c.bits, got, c.want)
		}
	}
}

// TestLongLabelsAreSizedToTheirCell: values and offsets of four or more
// characters get a smaller label class, in the logical and buffer views.
func TestLongLabelsAreSizedToTheirCell(t *testing.T) {
	p := paddedPicture()
	want := map[string]string{"A": "lbl", "100": "lbl", "1100": "lbl l4", "-3.25": "lbl l5", "123456": "lbl l7", "-1.5e-07": "lbl l8", "5.028013e+06": "lbl l8"}
	var labels []string
	for l := range want {
		labels = append(labels, l)
	}
	cells := p.Logical.Bands[0].Panels[0].Rows[0].Cells[:0]
	bcells := p.Buffer.Rows[0].Cells[:0]
	for i, l := range labels {
		cells = append(cells, LogicalCell{Index: int64(i), Coord: Itoa(int64(i)), Label: l, Offset: int64(i)})
		bcells = append(bcells, BufferCell{Offset: int64(i), Label: l, Count: 1, State: CellUsed})
	}
	p.Logical.Bands[0].Panels[0].Rows = []LogicalRow{{Cells: cells}}
	p.Buffer.Rows = []BufferRow{{Cells: bcells}}
	for name, d := range map[string]*goquery.Document{"logical": doc(t, LogicalView(p.Logical)), "buffer": doc(t, BufferView(p.Buffer))} {
		n := 0
		d.Find(".lbl").Each(func(_ int, s *goquery.Selection) {
			n++
			if got, _ := s.Attr("class"); got != want[s.Text()] {
				t.Errorf("%s: label %q has class %q, want %q", name, s.Text(), got, want[s.Text()])
			}
		})
		if n != len(want) {
			t.Errorf("%s: %d labels, want %d", name, n, len(want))
		}
	}
}

func TestExplorerCellsKeepTheirHooks(t *testing.T) {
	d := doc(t, PictureView(paddedPicture(), false))
	c := d.Find("#l-3")
	if c.AttrOr("data-testid", "") != "lcell" || c.Find(".badge-n").Length() != 0 {
		t.Errorf("explorer cell %v", c.Nodes)
	}
	if _, ok := c.Attr("data-link"); ok {
		t.Error("an explorer cell has data-link")
	}
	if got := c.AttrOr("class", ""); got != "lc" {
		t.Errorf("class %q", c.AttrOr("class", ""))
	}
}
