package web

import (
	"bytes"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/stridescope/stridescope/views"
)

// TestDimsTablesServeTheirRankAndATemplateRow: every explorer with a rank
// renders its rank's dimension rows only, and keeps in each dims table
// one row to make a larger rank's from (views.DimTemplate): row 0, its
// dimension named views.DimTemplateLabel in its column and in every box's
// accessible name, empty, and clear of the errors the page's own row 0
// shows; at most views.MaxRank rows.
func TestDimsTablesServeTheirRankAndATemplateRow(t *testing.T) {
	for _, tc := range []struct{ path, sizesField string }{
		{"/?sizes=0,3,4", "sizes[0]"},
		{"/slice?sizes=0,3,4", "inputSizes[0]"},
		{"/padding?sizes=0,3,4", "inputSizes[0]"},
		{"/tile?sizes=0,3,4", "inputSizes[0]"},
		{"/convert?sizes=0,3,4", "sizes[0]"},
	} {
		t.Run(tc.path, func(t *testing.T) {
			_, body := fetch(t, tc.path+"&lang=fr")
			d, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			tables := d.Find("form table.dims")
			if tables.Length() == 0 {
				t.Fatal("no dims table")
			}
			tables.Each(func(_ int, table *goquery.Selection) {
				tpl := table.Find("tbody > template.dim-row")
				if tpl.Length() != 1 {
					t.Fatalf("%d template rows in a dims table", tpl.Length())
				}
				if got := tpl.AttrOr("data-max", ""); got != strconv.Itoa(views.MaxRank) {
					t.Errorf("data-max %q", got)
				}
				if got := table.Find("tbody > tr.dim").Length(); got != 3 {
					t.Errorf("%d rows served for a 3-D tensor", got)
				}
				if got := table.Find("tbody > tr.dim-errors").Length(); got != 3 {
					t.Errorf("%d error rows served for a 3-D tensor", got)
				}
				if got := tpl.Find("tr.dim").AttrOr("data-dim", ""); got != "0" {
					t.Errorf("template row's data-dim %q", got)
				}
				if got := tpl.Find("tr.dim th").Text(); got != views.DimTemplateLabel {
					t.Errorf("template row's dimension %q", got)
				}
				boxes := tpl.Find("input")
				if boxes.Length() < 2 {
					t.Fatalf("%d boxes in the template row", boxes.Length())
				}
				boxes.Each(func(_ int, in *goquery.Selection) {
					id := in.AttrOr("id", "")
					if !strings.HasSuffix(id, "-0") || in.AttrOr("value", "x") != "" || in.AttrOr("aria-invalid", "") != "false" {
						t.Errorf("template box %s: value %q, aria-invalid %q", id, in.AttrOr("value", ""), in.AttrOr("aria-invalid", ""))
					}
					if label := in.AttrOr("aria-label", ""); strings.Count(label, views.DimTemplateLabel) != 1 {
						t.Errorf("template box %s named %q", id, label)
					}
					// The page's own row 0 is named after its dimension.
					own := table.Find("tbody > tr.dim #" + strings.NewReplacer("[", `\[`, "]", `\]`).Replace(id))
					if own.Length() != 1 || strings.Contains(own.AttrOr("aria-label", ""), views.DimTemplateLabel) {
						t.Errorf("row 0's %s: %d, named %q", id, own.Length(), own.AttrOr("aria-label", ""))
					}
				})
				tpl.Find("[data-error-for]").Each(func(_ int, p *goquery.Selection) {
					if strings.TrimSpace(p.Text()) != "" {
						t.Errorf("template error slot %s says %q", p.AttrOr("data-error-for", ""), p.Text())
					}
				})
			})
			// The page's row 0 does show its error.
			slot := d.Find(`form table.dims tbody > tr.dim-errors [data-error-for="` + tc.sizesField + `"]`)
			if slot.Length() != 1 || strings.TrimSpace(slot.Text()) == "" {
				t.Errorf("row 0's error slot %s: %d, %q", tc.sizesField, slot.Length(), slot.Text())
			}
		})
	}
}
