package slice1

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/views"
)

// svgGroups renders s as its standalone document and counts its <g>
// elements by class, with the text of the <text> elements directly in
// each class's groups. The pictures' groups do not nest text deeper.
func svgGroups(t *testing.T, s views.SVG) (classes map[string]int, labels map[string][]string) {
	t.Helper()
	var b bytes.Buffer
	if err := views.SVGDocument(s).Render(context.Background(), &b); err != nil {
		t.Fatal(err)
	}
	classes, labels = map[string]int{}, map[string][]string{}
	group := regexp.MustCompile(`(?s)<g class="([^"]*)"[^>]*>(.*?)</g>`)
	text := regexp.MustCompile(`(?s)<text[^>]*>(.*?)</text>`)
	for _, g := range group.FindAllStringSubmatch(b.String(), -1) {
		classes[g[1]]++
		for _, tx := range text.FindAllStringSubmatch(g[2], -1) {
			labels[g[1]] = append(labels[g[1]], tx[1])
		}
	}
	return classes, labels
}

// example2Diagram is the DML_SLICE1 page's Example 2 on a 4×4 input of
// 1..16.
func example2Diagram() DiagramModel {
	values := make([]string, 16)
	offsets := make([]int64, 16)
	for i := range values {
		values[i], offsets[i] = views.Itoa(int64(i+1)), int64(i)
	}
	order := make([]int64, 16)
	order[13], order[15], order[5], order[7] = 1, 2, 3, 4
	return DiagramModel{
		DataType: "FLOAT32", Labels: []string{"H", "W"}, InputSizes: []int64{4, 4}, InputStrides: []int64{4, 1}, InputOffsets: offsets,
		WindowOffsets: []int64{0, 1}, WindowSizes: []int64{4, 3}, WindowStrides: []int64{-2, 2},
		CopyStart: []int64{3, 1}, MaxCopied: []int64{2, 2}, OutputSizes: []int64{2, 2},
		Values: values, ValuesNote: "values 1, 2, 3 … in row-major order", Order: order, Output: []string{"14", "16", "6", "8"},
	}
}

func TestSliceSVGNumbersTheCopyOrder(t *testing.T) {
	classes, labels := svgGroups(t, SVG(context.Background(), example2Diagram(), "s"))
	if n := classes["scell"] + classes["scell in"] + classes["scell in copied"] + classes["scell in copied start"]; n != 16 {
		t.Errorf("%d input cells, want 16: %v", n, classes)
	}
	if classes["scell in copied start"] != 1 || classes["scell in copied"] != 3 || classes["scell in"] != 8 || classes["scell"] != 4 {
		t.Errorf("input cells %v: want CopyStart, 3 more copied, 8 more in the window, 4 outside", classes)
	}
	if classes["ocell"] != 4 {
		t.Errorf("%d output cells", classes["ocell"])
	}
	if got := strings.Join(labels["ocell"], " "); got != "14 0 16 1 6 2 8 3" {
		t.Errorf("output %q", got)
	}
}

func TestOrdinal(t *testing.T) {
	for n, want := range map[int64]string{1: "1st", 2: "2nd", 3: "3rd", 4: "4th", 11: "11th", 12: "12th", 13: "13th", 21: "21st", 112: "112th"} {
		if got := ordinal(n); got != want {
			t.Errorf("ordinal(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestSVGLegendFitsInEveryLanguage: in every language the slice
// picture's legend labels start right of their swatches, inside the
// picture, and no label runs into the next item on its row (at the
// picture's own text width estimate, which views tests against Unicode).
func TestSVGLegendFitsInEveryLanguage(t *testing.T) {
	for _, l := range i18n.Locales {
		s := SVG(i18n.WithLocale(context.Background(), l), example2Diagram(), "s")
		var swatches []views.SVGCell
		for _, c := range s.Cells {
			if c.Class == "legend" {
				swatches = append(swatches, c)
			}
		}
		if len(swatches) < 4 {
			t.Fatalf("%s: %d legend items", l, len(swatches))
		}
		right := make([]int, len(swatches))
		for i, c := range swatches {
			for _, tx := range s.Texts {
				if tx.Text == c.Tip && tx.X > c.X && tx.Y > c.Y && tx.Y < c.Y+c.Size {
					right[i] = tx.X + views.TextWidth(tx.Text, tx.Size, false)
				}
			}
			if right[i] == 0 {
				t.Fatalf("%s: no label %q beside its swatch", l, c.Tip)
			}
			if right[i] > s.Width || c.Y+c.Size > s.Height {
				t.Errorf("%s: %q ends at %d, outside the %d px picture", l, c.Tip, right[i], s.Width)
			}
			if i > 0 && swatches[i-1].Y == c.Y && right[i-1] > c.X {
				t.Errorf("%s: %q runs into %q", l, swatches[i-1].Tip, c.Tip)
			}
		}
	}
}
