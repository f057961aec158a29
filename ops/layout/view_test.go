package layout

import (
	"context"
	"net/url"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/static"
	"github.com/stridescope/stridescope/views"
	"github.com/stridescope/stridescope/views/viewstest"
)

// paddedQuery is the strides page's padding example: 2x3 with height
// stride 5 in a 10-element FLOAT32 buffer.
const paddedQuery = "dt=FLOAT32&sizes=2,3&strides=5,1&total=40"

// paddedPage is the layout explorer's page model of query, as the page
// builds it.
func paddedPage(t *testing.T, query string) PageModel {
	t.Helper()
	q, err := url.ParseQuery(query)
	if err != nil {
		t.Fatal(err)
	}
	m, err := PageOf(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestPageIsAGETFormWithOneRowPerDimension(t *testing.T) {
	d := viewstest.Doc(t, PageView(paddedPage(t, "preset=padded")))
	form := d.Find(viewstest.TID("form"))
	if m, _ := form.Attr("method"); m != "get" {
		t.Errorf("form method %q, want get (the page works without JavaScript)", m)
	}
	if a, _ := form.Attr("action"); a != "/" {
		t.Errorf("form action %q", a)
	}
	// One row, and one size, per dimension: the form sends one entry per
	// axis (a larger rank's rows are made from the table's template).
	if got := d.Find(`tr.dim:not([hidden])`).Length(); got != 2 {
		t.Errorf("%d visible dimension rows, want 2", got)
	}
	if got := d.Find(`input[name=sizes]:not([disabled])`).Length(); got != 2 {
		t.Errorf("%d enabled size inputs, want 2", got)
	}
	if got := d.Find(`input[name=sizes]`).Length(); got != 2 {
		t.Errorf("%d size inputs, want 2", got)
	}
	if v, _ := d.Find(viewstest.TID("stride-0")).Attr("value"); v != "5" {
		t.Errorf("stride-0 = %q", v)
	}
	if d.Find(viewstest.TID("dim-label-1")).Text() != "W" {
		t.Errorf("dimension label %q", d.Find(viewstest.TID("dim-label-1")).Text())
	}
	if v, _ := d.Find(viewstest.TID("last")).Attr("value"); !strings.Contains(v, "strides=5,1") {
		t.Errorf("hidden last = %q", v)
	}
	if _, ok := d.Find(viewstest.TID("mode-explicit")).Attr("checked"); !ok {
		t.Error("explicit strides not checked")
	}
	if href, _ := d.Find(viewstest.TID("preset-padded")).Attr("href"); href != "/?dt=FLOAT32&sizes=2,3&strides=5,1&total=40" {
		t.Errorf("preset href %q", href)
	}
	if _, hidden := d.Find(viewstest.TID("stale")).Attr("hidden"); !hidden {
		t.Error("the stale note shows for a valid state")
	}
	if src, _ := d.Find(`script[type=module]`).Attr("src"); src != static.URL("main-explorer.js") {
		t.Errorf("module script %q", src)
	}
}

func TestFieldErrorsShowInlineWithTheirRule(t *testing.T) {
	// The padded example with a size of zero, carrying the example as
	// its last valid state: the errors at their fields over its picture.
	d := viewstest.Doc(t, PageView(paddedPage(t, "dt=FLOAT32&sizes=2,0&strides=5,1&mode=explicit&total=40&last="+url.QueryEscape(paddedQuery))))
	e := d.Find(viewstest.TID("err-sizes[1]"))
	if _, hidden := e.Attr("hidden"); hidden || !strings.Contains(e.Text(), "size of zero") {
		t.Errorf("sizes[1] error slot: hidden=%v text=%q", hidden, e.Text())
	}
	if _, hidden := d.Find(viewstest.TID("err-sizes[0]")).Attr("hidden"); !hidden {
		t.Error("the sizes[0] slot shows although it has no error")
	}
	if v, _ := d.Find(viewstest.TID("size-1")).Attr("aria-invalid"); v != "true" {
		t.Errorf("size-1 aria-invalid = %q", v)
	}
	if by, _ := d.Find(viewstest.TID("size-1")).Attr("aria-describedby"); by != "err-sizes[1]" {
		t.Errorf("size-1 aria-describedby = %q", by)
	}
	if s := d.Find(viewstest.TID("stale")); strings.TrimSpace(s.Text()) == "" {
		t.Error("no stale note")
	}
	// The last valid picture is still there.
	if d.Find(viewstest.TID("lcell")).Length() != 6 {
		t.Errorf("%d logical cells", d.Find(viewstest.TID("lcell")).Length())
	}
}

// TestPaddedRowsFollowTheSizes: mode=rows computes the strides from the
// sizes, the order and the row pitch, shows them read-only with the
// mode's own fields, and keeps the mode in the page's canonical query,
// so that an edit of C pads the new rows (issue #37: padded NHWC
// strides did not follow a changed C); a pitch that cannot pad, or an
// order of another rank, is named at its field.
func TestPaddedRowsFollowTheSizes(t *testing.T) {
	for _, tc := range []struct {
		name, query string
		strides     []string
		field, code string
	}{
		{"NHWC C=3", "sizes=1,3,2,5&mode=rows&order=NHWC&pitch=8", []string{"32", "1", "16", "3"}, "", ""},
		{"NHWC C=4", "sizes=1,4,2,5&mode=rows&order=nhwc&pitch=8", []string{"48", "1", "24", "4"}, "", ""},
		{"the page's padding example", "sizes=2,3&mode=rows&pitch=5", []string{"5", "1"}, "", ""},
		{"no pitch is packed", "sizes=2,3&mode=rows&order=WH", []string{"1", "2"}, "", ""},
		{"W outermost", "sizes=2,3&mode=rows&order=WH&pitch=4", nil, "pitch", "rows.outermost"},
		{"an order of another rank", "sizes=2,3&mode=rows&order=NHWC&pitch=4", nil, "order", "rows.order"},
		{"a pitch that is not a number", "sizes=2,3&mode=rows&pitch=x", nil, "pitch", "whole.invalid"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := paddedPage(t, "dt=FLOAT32&"+tc.query)
			d := viewstest.Doc(t, PageView(m))
			if _, ok := d.Find(viewstest.TID("mode-rows")).Attr("checked"); !ok {
				t.Error("padded rows not checked")
			}
			if tc.code != "" {
				if got := m.Form.ErrorsFor(tc.field); len(got) == 0 {
					t.Errorf("no error at %s; errors %v", tc.field, m.Form.Errors)
				}
				if d.Find(viewstest.TID("err-"+tc.field)).Text() == "" {
					t.Errorf("err-%s shows nothing", tc.field)
				}
				// The strides were never typed: nothing is said of them.
				if got := m.Form.ErrorsFor("strides"); len(got) > 0 {
					t.Errorf("errors at strides %q beside the %s's", got, tc.field)
				}
				return
			}
			if m.Form.HasErrors() {
				t.Fatalf("errors %v", m.Form.Errors)
			}
			for i, want := range tc.strides {
				box := d.Find(viewstest.TID("stride-" + views.Itoa(int64(i))))
				if v, _ := box.Attr("value"); v != want {
					t.Errorf("stride-%d = %q, want %s", i, v, want)
				}
				if _, ro := box.Attr("readonly"); !ro {
					t.Errorf("stride-%d is not read-only", i)
				}
			}
			if !strings.Contains(m.LastValid, "mode=rows") || strings.Contains(m.LastValid, "strides=") {
				t.Errorf("the picture's query %q, want the mode rather than its strides", m.LastValid)
			}
			// The picture is of those strides.
			if got := strings.Join(formatInts(m.Picture.Meta.Strides), ","); got != strings.Join(tc.strides, ",") {
				t.Errorf("picture strides %s, want %s", got, strings.Join(tc.strides, ","))
			}
		})
	}
}

func formatInts(vs []int64) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = views.Itoa(v)
	}
	return out
}
