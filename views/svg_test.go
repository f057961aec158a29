package views

import (
	"bytes"
	"context"
	"encoding/xml"
	"io"
	"slices"
	"strings"
	"testing"

	"golang.org/x/text/width"

	"github.com/stridescope/stridescope/i18n"
)

// svgCells parses a standalone SVG with encoding/xml and counts the cells
// by class, failing unless it is one well-formed <svg> document.
func svgCells(t *testing.T, s SVG) (root xml.StartElement, classes map[string]int, labels map[string][]string) {
	t.Helper()
	var b bytes.Buffer
	if err := SVGDocument(s).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), `<?xml version="1.0" encoding="UTF-8"?>`) {
		t.Errorf("no XML declaration: %.60q", b.String())
	}
	classes, labels = map[string]int{}, map[string][]string{}
	dec := xml.NewDecoder(&b)
	var stack []string // class of each open <g>
	depth := 0
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch e := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				root = e
			}
			depth++
			class := ""
			for _, a := range e.Attr {
				if a.Name.Local == "class" {
					class = a.Value
				}
			}
			if e.Name.Local == "g" {
				classes[class]++
				stack = append(stack, class)
			}
			if e.Name.Local == "text" && len(stack) > 0 {
				var txt string
				if err := dec.DecodeElement(&txt, &e); err != nil {
					t.Fatal(err)
				}
				depth--
				c := stack[len(stack)-1]
				labels[c] = append(labels[c], txt)
			}
		case xml.EndElement:
			depth--
			if e.Name.Local == "g" {
				stack = stack[:len(stack)-1]
			}
		}
	}
	if root.Name.Space != "http://www.w3.org/2000/svg" || root.Name.Local != "svg" {
		t.Fatalf("root element %v, want svg in the SVG namespace", root.Name)
	}
	return root, classes, labels
}

func attr(e xml.StartElement, name string) string {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

func TestLayoutSVGIsStandaloneAndDrawsEveryCell(t *testing.T) {
	p := paddedPicture()
	p.Facts.DataType = "FLOAT32"
	p.Facts.TotalNote = "TotalTensorSizeInBytes = 40 ≥ 32 & more <checks>"
	root, classes, labels := svgCells(t, LayoutSVG(context.Background(), p, "pic"))
	if got := classes["lcell"]; got != 6 {
		t.Errorf("%d logical cells, want 6", got)
	}
	if classes["bcell used"] != 6 || classes["bcell hole"] != 2 || classes["bcell tail"] != 2 {
		t.Errorf("buffer cells %v, want 6 used, 2 padding, 2 tail", classes)
	}
	if vb := attr(root, "viewBox"); !strings.HasPrefix(vb, "0 0 ") {
		t.Errorf("viewBox %q", vb)
	}
	if attr(root, "role") != "img" || attr(root, "aria-labelledby") != "pic-title pic-desc" {
		t.Errorf("accessibility attributes %v", root.Attr)
	}
	// Each cell shows its label first, then its offset in the corner.
	var got []string
	for _, l := range labels["lcell"] {
		if l >= "A" && l <= "Z" {
			got = append(got, l)
		}
	}
	if strings.Join(got, "") != "ABCDEF" {
		t.Errorf("logical labels %v", labels["lcell"])
	}
}

func TestLayoutSVGHasTitleDescAndNoInlineStyle(t *testing.T) {
	p := paddedPicture()
	p.Facts.DataType = "FLOAT32"
	var b bytes.Buffer
	if err := SVGDocument(LayoutSVG(context.Background(), p, "pic")).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Title struct {
			ID   string `xml:"id,attr"`
			Text string `xml:",chardata"`
		} `xml:"title"`
		Desc string `xml:"desc"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Title.ID != "pic-title" || !strings.Contains(doc.Title.Text, "sizes {2,3}, strides {5,1}") {
		t.Errorf("title %+v", doc.Title)
	}
	if !strings.Contains(doc.Desc, "(1,0) D at offset 5") {
		t.Errorf("desc %q", doc.Desc)
	}
	// A strict CSP (style-src 'self') blocks inline style: colours are
	// presentation attributes.
	if s := b.String(); strings.Contains(s, "style=") || strings.Contains(s, "<style") {
		t.Error("the picture uses inline style")
	}
}

func TestTextWidthCountsWideCharactersAsAnEm(t *testing.T) {
	for _, c := range []struct {
		text string
		size int
		wide bool
		want int
	}{
		{"padding", 10, false, 40},   // 7 × 0.56 em
		{"padding", 10, true, 45},    // 7 × 0.64 em
		{"CopyStart", 10, false, 51}, // 9 × 0.56 em
		{"填補", 13, false, 27},        // 2 em
		{"由多個元素共用", 13, false, 92},   // 7 em
		// Fullwidth comma and parentheses, an ASCII space and n.
		{"已複製，依複製順序編號（輸出元素 n）", 10, false, 182},
		{"尾端：未使用。", 10, false, 71}, // CJK punctuation
	} {
		if got := TextWidth(c.text, c.size, c.wide); got != c.want {
			t.Errorf("TextWidth(%q, %d, %v) = %d, want %d", c.text, c.size, c.wide, got, c.want)
		}
	}
}

// TestFullWidthAgreesWithUnicode: every character of every catalog is a
// whole em wide for textWidth exactly when Unicode says it is East Asian
// wide or fullwidth.
func TestFullWidthAgreesWithUnicode(t *testing.T) {
	seen := map[rune]bool{}
	for _, l := range i18n.Locales {
		for _, k := range i18n.Keys() {
			for _, r := range l.T(k, nil) {
				if seen[r] {
					continue
				}
				seen[r] = true
				k := width.LookupRune(r).Kind()
				if want := k == width.EastAsianWide || k == width.EastAsianFullwidth; fullWidth(r) != want {
					t.Errorf("fullWidth(%q U+%04X) = %v, want %v", r, r, !want, want)
				}
			}
		}
	}
}

// TestSVGLegendsFitInEveryLanguage: in every language each legend item
// (swatch and label, at the estimated width of the label) ends before the
// next one on its row begins and inside the picture.
func TestSVGLegendsFitInEveryLanguage(t *testing.T) {
	layout := paddedPicture()
	layout.Facts.DataType = "FLOAT32"
	layout.Facts.TotalNote = "TotalTensorSizeInBytes = 40 ≥ 32"
	selected := layout
	selected.Dot = "{1,0} · {5,1} = 1×5 + 0×1 = 5" // adds the "linked" item
	for _, l := range i18n.Locales {
		ctx := i18n.WithLocale(context.Background(), l)
		for name, s := range map[string]SVG{
			"layout":          LayoutSVG(ctx, layout, "pic"),
			"layout selected": LayoutSVG(ctx, selected, "pic"),
		} {
			items := legendItems(t, s)
			if len(items) < 4 {
				t.Fatalf("%s %s: %d legend items", l, name, len(items))
			}
			for i, it := range items {
				if it.right > s.Width-svgMargin || it.y+18 > s.Height-svgMargin {
					t.Errorf("%s %s: %q ends at (%d, %d), outside the %d×%d picture", l, name, it.text, it.right, it.y+18, s.Width, s.Height)
				}
				if i > 0 && items[i-1].y == it.y && items[i-1].right > it.x {
					t.Errorf("%s %s: %q ends at %d, over %q at %d", l, name, items[i-1].text, items[i-1].right, it.text, it.x)
				}
			}
		}
	}
}

type legendItem struct {
	text        string
	x, y, right int
}

// legendItems are the picture's legend items in drawing order, each with
// the estimated right edge of its label.
func legendItems(t *testing.T, s SVG) []legendItem {
	t.Helper()
	var items []legendItem
	for _, c := range s.Cells {
		if c.Class != "legend" {
			continue
		}
		i := slices.IndexFunc(s.Texts, func(tx SVGText) bool { return tx.Text == c.Tip && tx.X > c.X && tx.Y > c.Y && tx.Y < c.Y+c.Size })
		if i < 0 {
			t.Fatalf("no label %q beside its swatch", c.Tip)
		}
		tx := s.Texts[i]
		items = append(items, legendItem{text: tx.Text, x: c.X, y: c.Y, right: tx.X + eastAsianWidth(tx.Text, tx.Size)})
	}
	return items
}

// eastAsianWidth estimates the width of a line of plain text as textWidth
// does, but finds the characters a whole em wide from Unicode's East Asian
// Width property rather than textWidth's own ranges.
func eastAsianWidth(text string, size int) int {
	em := 0.0
	for _, r := range text {
		switch width.LookupRune(r).Kind() {
		case width.EastAsianWide, width.EastAsianFullwidth:
			em++
		default:
			em += 0.56
		}
	}
	return int(em*float64(size)) + 1
}
