package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/stridescope/stridescope/i18n"
)

// page GETs a path through the router and parses the HTML.
func page(t *testing.T, path string) (*http.Response, *goquery.Document) {
	t.Helper()
	res, body := fetch(t, path)
	d, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	// The page as a browser shows it: a template's content is inert (the
	// row a dims table keeps for a larger rank, views.DimTemplate).
	d.Find("template").Remove()
	return res, d
}

func tid(id string) string { return `[data-testid="` + id + `"]` }

func texts(s *goquery.Selection, sub string) []string {
	var out []string
	s.Each(func(_ int, c *goquery.Selection) {
		if sub != "" {
			c = c.Find(sub)
		}
		out = append(out, strings.TrimSpace(c.Text()))
	})
	return out
}

func attrs(s *goquery.Selection, name string) []string {
	var out []string
	s.Each(func(_ int, c *goquery.Selection) { v, _ := c.Attr(name); out = append(out, v) })
	return out
}

type pageExample struct {
	Name         string    `json:"name"`
	Sizes        []int64   `json:"sizes"`
	Strides      []int64   `json:"strides"`
	Offsets      []int64   `json:"offsets"`
	BufferView   []*string `json:"bufferView"`
	DocBuffer    []string  `json:"docBuffer"`
	Queries      [][]int64 `json:"queries"`
	QueryOffsets []int64   `json:"queryOffsets"`
}

func loadPageExamples(t *testing.T) []pageExample {
	t.Helper()
	b, err := os.ReadFile("testdata/strides_page_examples.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Cases []pageExample }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f.Cases
}

func csv(vs []int64) string {
	s := make([]string, len(vs))
	for i, v := range vs {
		s[i] = fmt.Sprint(v)
	}
	return strings.Join(s, ",")
}

// TestPageDrawsTheStridesPageExamples renders every example of the DirectML
// strides page from its URL and compares the picture with the page's.
func TestPageDrawsTheStridesPageExamples(t *testing.T) {
	for _, ex := range loadPageExamples(t) {
		t.Run(ex.Name, func(t *testing.T) {
			q := "/?dt=FLOAT32&sizes=" + csv(ex.Sizes)
			if ex.Strides != nil {
				q += "&strides=" + csv(ex.Strides)
			}
			if ex.Queries != nil {
				q += "&sel=" + csv(ex.Queries[0])
			}
			res, d := page(t, q)
			if res.StatusCode != 200 {
				t.Fatalf("status %d", res.StatusCode)
			}
			if ex.Offsets != nil {
				if got := strings.Join(attrs(d.Find(tid("lcell")), "data-o"), ","); got != csv(ex.Offsets) {
					t.Errorf("logical offsets %s, want %s", got, csv(ex.Offsets))
				}
			}
			if ex.BufferView != nil {
				var want []string
				for _, v := range ex.BufferView {
					if v == nil {
						want = append(want, "x")
					} else {
						want = append(want, *v)
					}
				}
				if got := texts(d.Find(tid("bcell")), ".lbl"); strings.Join(got, " ") != strings.Join(want, " ") {
					t.Errorf("buffer %v, want %v", got, want)
				}
			}
			if ex.QueryOffsets != nil {
				dot := strings.TrimSpace(d.Find(tid("dot")).Text())
				if want := "{1,0,1} · {6,3,1} = 1×6 + 0×3 + 1×1 = 7"; dot != want {
					t.Errorf("dot %q, want %q", dot, want)
				}
				if !d.Find("#l-7").HasClass("sel") || !d.Find("#b-7").HasClass("linked") {
					t.Error("element H and its buffer cell are not linked")
				}
				if d.Find("#l-7 .lbl").Text() != "H" {
					t.Errorf("element 7 is %q, want H", d.Find("#l-7 .lbl").Text())
				}
			}
		})
	}
}

// TestPresetsReproduceThePagePictures follows each page preset link.
func TestPresetsReproduceThePagePictures(t *testing.T) {
	_, home := page(t, "/")
	want := map[string]string{
		"HW":        "A B C D E F",
		"WH":        "A D B E C F",
		"DHW":       "A B C D E F G H I J K L",
		"NCHW":      "A B C D E F G H I J K L M N O",
		"NHWC":      "A B C D E F G H I J K L M N O",
		"broadcast": "A B C",
		"padded":    "A B C x x D E F x x", // the page's ten cells
	}
	for name, pic := range want {
		href, ok := home.Find(tid("preset-" + name)).Attr("href")
		if !ok {
			t.Fatalf("no preset %s", name)
		}
		_, d := page(t, href)
		if got := strings.Join(texts(d.Find(tid("bcell")), ".lbl"), " "); got != pic {
			t.Errorf("%s (%s): buffer %q, want %q", name, href, got, pic)
		}
	}
	// The broadcast cells are shared by two elements each.
	_, d := page(t, "/?preset=broadcast")
	if got := strings.Join(texts(d.Find(tid("bcell")), ".cnt"), " "); got != "×2 ×2 ×2" {
		t.Errorf("broadcast counts %q", got)
	}
	// As on the page, the second row reads the first row's values.
	if got := strings.Join(texts(d.Find(tid("lcell")), ".lbl"), ""); got != "ABCABC" {
		t.Errorf("broadcast logical view %q, want ABCABC", got)
	}
	if s, _ := d.Find(tid("badge-broadcast")).Attr("data-state"); s != "yes" {
		t.Errorf("broadcast badge %q", s)
	}
	// The NHWC example has the page's strides.
	_, d = page(t, "/?preset=NHWC")
	if got := attrs(d.Find(`input[name=strides]:not([disabled])`), "value"); strings.Join(got, ",") != "15,1,5,1" {
		t.Errorf("NHWC strides %v", got)
	}
}

func TestDefaultPageIsTheFirstExample(t *testing.T) {
	res, d := page(t, "/")
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") {
		t.Fatalf("status %d %s", res.StatusCode, res.Header.Get("Content-Type"))
	}
	if got := strings.Join(texts(d.Find(tid("lcell")), ".lbl"), ""); got != "ABCDEF" {
		t.Errorf("logical %q", got)
	}
	if _, packed := d.Find(tid("mode-packed")).Attr("checked"); !packed {
		t.Error("the default is packed")
	}
	if got := attrs(d.Find(`input[name=strides]:not([disabled])`), "value"); strings.Join(got, ",") != "3,1" {
		t.Errorf("packed strides shown %v", got)
	}
	if !strings.Contains(d.Find(tid("cpp")).Text(), "nullptr; // packed") {
		t.Error("C++ of a packed tensor")
	}
	csp := res.Header.Get("Content-Security-Policy")
	if !strings.Contains(csp, "connect-src 'self'") || !strings.Contains(csp, "script-src 'self'") {
		t.Errorf("CSP %q", csp)
	}
}

func TestBadURLShowsEveryFieldErrorAndNoMadeUpTensor(t *testing.T) {
	res, d := page(t, "/?dt=FOO&sizes=2,0,x&strides=1,2&total=-1&align=3")
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	for _, f := range []string{"dataType", "sizes[1]", "sizes[2]", "strides", "totalTensorSizeInBytes", "guaranteedBaseOffsetAlignment"} {
		e := d.Find(tid("err-" + f))
		if _, hidden := e.Attr("hidden"); hidden || strings.TrimSpace(e.Text()) == "" {
			t.Errorf("no inline error for %s", f)
		}
	}
	if got := ruleOf(d.Find(tid("err-sizes[1]")).Text()); got != "sizes[1] == 0: specifying a size of zero in any dimension is invalid" {
		t.Errorf("sizes[1]: %q is not core's rule", got)
	}
	if !strings.Contains(d.Find(tid("err-sizes[2]")).Text(), `"x", is not a whole number`) {
		t.Errorf("sizes[2]: %q", d.Find(tid("err-sizes[2]")).Text())
	}
	// The inputs keep what was typed.
	if v, _ := d.Find(tid("size-2")).Attr("value"); v != "x" {
		t.Errorf("size-2 = %q", v)
	}
	// No valid state and no last one: no tensor nobody entered, and no
	// badges of one; the views say why (issue #13, 7).
	if n := d.Find(tid("lcell") + ", " + tid("bcell") + ", " + tid("badges")).Length(); n != 0 {
		t.Errorf("an invalid URL drew %d cells or badges", n)
	}
	if d.Find(tid("logical-empty")).Length() != 1 || d.Find(tid("buffer-empty")).Length() != 1 || d.Find(tid("facts-empty")).Length() != 1 {
		t.Errorf("the empty views do not say why")
	}
	if !strings.Contains(d.Find(tid("stale")).Text(), "fix them to see a picture") {
		t.Errorf("stale note %q", d.Find(tid("stale")).Text())
	}
	if v, _ := d.Find(tid("last")).Attr("value"); v != "" {
		t.Errorf("last = %q: there is no last valid state", v)
	}
}

func TestBadSubmissionKeepsTheLastValidPicture(t *testing.T) {
	_, d := page(t, "/?dt=FLOAT32&sizes=2,0&strides=5,1&last=dt%3DFLOAT32%26sizes%3D2%2C3%26strides%3D5%2C1")
	if got := strings.Join(attrs(d.Find(tid("lcell")), "data-o"), ","); got != "0,1,2,5,6,7" {
		t.Errorf("picture offsets %s, want the last valid tensor's", got)
	}
	if !strings.Contains(d.Find(tid("stale")).Text(), "last valid") {
		t.Errorf("stale note %q", d.Find(tid("stale")).Text())
	}
	if v, _ := d.Find(tid("last")).Attr("value"); v != "dt=FLOAT32&sizes=2,3&strides=5,1" {
		t.Errorf("last carried on as %q", v)
	}
}

func TestRankChangePadsWithLeadingOnes(t *testing.T) {
	_, d := page(t, "/?sizes=2,3&strides=5,1&rank=4")
	if got := attrs(d.Find(`input[name=sizes]:not([disabled])`), "value"); strings.Join(got, ",") != "1,1,2,3" {
		t.Errorf("sizes %v", got)
	}
	if got := attrs(d.Find(`input[name=strides]:not([disabled])`), "value"); strings.Join(got, ",") != "10,10,5,1" {
		t.Errorf("strides %v", got)
	}
	if got := texts(d.Find(".dim:not([hidden]) th"), ""); strings.Join(got, "") != "NCHW" {
		t.Errorf("labels %v", got)
	}
	_, d = page(t, "/?sizes=1,1,2,3&rank=2")
	if got := attrs(d.Find(`input[name=sizes]:not([disabled])`), "value"); strings.Join(got, ",") != "2,3" {
		t.Errorf("sizes %v", got)
	}
}

func TestFormSubmissionWithRepeatedKeys(t *testing.T) {
	// What the GET form sends: one key per row, mode from the radio.
	_, d := page(t, "/?dt=FLOAT16&rank=2&mode=explicit&sizes=2&sizes=3&strides=1&strides=2&total=&align=&labels=offset&sel=&cell=&last=")
	if got := strings.Join(texts(d.Find(tid("lcell")), ".lbl"), " "); got != "0 2 4 1 3 5" {
		t.Errorf("offset labels %q", got)
	}
	if got := d.Find(tid("fact-dtype") + " dd").First().Text(); got != "FLOAT16, 16 bits" {
		t.Errorf("data type fact %q", got)
	}
	// Packed mode ignores the (read-only) stride boxes.
	_, d = page(t, "/?mode=packed&sizes=2&sizes=3&strides=9&strides=9")
	if got := strings.Join(attrs(d.Find(tid("lcell")), "data-o"), ","); got != "0,1,2,3,4,5" {
		t.Errorf("packed offsets %s", got)
	}
}

func TestCellSelectionLinksEveryElementStoredThere(t *testing.T) {
	_, d := page(t, "/?sizes=2,3&strides=0,1&cell=1")
	if got := attrs(d.Find(tid("lcell")+".linked"), "data-c"); strings.Join(got, " ") != "0,1 1,1" {
		t.Errorf("linked %v", got)
	}
	if got := d.Find(tid("dot")).Text(); !strings.Contains(got, "shared by 2 elements: (0,1), (1,1)") {
		t.Errorf("dot %q", got)
	}
	if !d.Find("#b-1").HasClass("sel") {
		t.Error("cell 1 not selected")
	}
}

func TestLabelModesAndFourBitRuler(t *testing.T) {
	_, d := page(t, "/?dt=INT4&sizes=3&labels=index")
	if got := strings.Join(texts(d.Find(tid("bcell")), ".lbl"), " "); got != "0 1 2 x x x x x" {
		t.Errorf("INT4 buffer %q (4 bytes hold 8 elements)", got)
	}
	if got := attrs(d.Find(tid("bcell")), "aria-label")[1]; got != "buffer offset 1, byte 0.5: element 1" {
		t.Errorf("accessible name %q", got)
	}
	if got := texts(d.Find(".ruler .rm"), ""); strings.Join(got, ",") != "0,1,2,3" {
		t.Errorf("byte ruler %v", got)
	}
}

func TestLargeTensorsGetCanvasesAndFacts(t *testing.T) {
	_, d := page(t, "/?sizes=256,256&strides=300,1")
	if d.Find(tid("lcell")).Length() != 0 || d.Find(tid("bcell")).Length() != 0 {
		t.Error("DOM cells above the cap")
	}
	if d.Find("canvas#logical-canvas").Length() != 1 || d.Find("canvas#buffer-canvas").Length() != 1 {
		t.Error("no canvases")
	}
	if !strings.Contains(d.Find(tid("logical-canvas")+" noscript").Text(), "needs JavaScript") {
		t.Error("no note for readers without JavaScript")
	}
	if got := d.Find(tid("fact-logical") + " dd").First().Text(); got != "65\u202f536" {
		t.Errorf("logical fact %q", got)
	}
	_, d = page(t, "/?sizes=65535,65537")
	if !strings.Contains(d.Find(tid("logical-too-large")).Text(), "too many to draw") {
		t.Error("2^32-1 elements: no too-large note")
	}
	if got := d.Find(tid("fact-logical") + " dd").First().Text(); got != "4\u202f294\u202f967\u202f295" {
		t.Errorf("logical fact %q", got)
	}
	// Many elements in few cells: the logical view is a canvas, the buffer DOM.
	_, d = page(t, "/?sizes=5000&strides=0")
	if d.Find(tid("bcell")).Length() != 1 || d.Find(tid("bcell")+" .cnt").Text() != "×5000" {
		t.Errorf("broadcast buffer: %d cells %q", d.Find(tid("bcell")).Length(), d.Find(tid("bcell")+" .cnt").Text())
	}
}

// TestFactsNoteWherePublishedHelpersDiffer: the documentation page's
// helper has no 4-bit case and returns 0. DirectMLX.h's 32-bit index
// cannot wrap for a valid layout (core validation keeps the index of the
// last element at most 2^32-2), so no valid page shows the wrap note: the
// largest valid index is one of the cases without a note.
func TestFactsNoteWherePublishedHelpersDiffer(t *testing.T) {
	for _, c := range []struct {
		name, path string
		docPage    []string // what the documentation-page note says; nil: no note
	}{
		{"INT4 {3}", "/?dt=INT4&sizes=3", []string{"returns 0 bytes", "no case for UINT4 or INT4", "INT4 elements", "12 bits = 2 bytes, rounded up to 4"}},
		{"UINT4 {2,3} strided", "/?dt=UINT4&sizes=2,3&strides=5,1", []string{"returns 0 bytes", "UINT4 elements", "32 bits = 4 bytes, rounded up to 4"}},
		{"FLOAT32 {3}", "/?dt=FLOAT32&sizes=3", nil},
		{"FLOAT16 padded", "/?dt=FLOAT16&sizes=3,3&strides=4,1", nil},
		{"FLOAT32 largest valid index", "/?dt=FLOAT32&sizes=3&strides=2147483647", nil},
		{"FLOAT64 largest valid index", "/?dt=FLOAT64&sizes=2,2&strides=2147483648,2147483646", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, d := page(t, c.path)
			if res.StatusCode != http.StatusOK || d.Find(tid("steps")).Length() != 1 {
				t.Fatalf("status %d, %d step lists", res.StatusCode, d.Find(tid("steps")).Length())
			}
			if n := d.Find(tid("helper-note-directmlx")).Length(); n != 0 {
				t.Errorf("a DirectMLX.h note on a valid layout: %q", d.Find(tid("helper-note-directmlx")).Text())
			}
			note := d.Find(tid("helper-note-doc-page"))
			if c.docPage == nil {
				if d.Find(tid("helper-notes")).Length() != 0 {
					t.Errorf("a helper note where the helpers agree: %q", d.Find(tid("helper-notes")).Text())
				}
				return
			}
			if note.Length() != 1 {
				t.Fatalf("%d documentation-page notes", note.Length())
			}
			for _, w := range c.docPage {
				if !strings.Contains(note.Text(), w) {
					t.Errorf("note %q lacks %q", note.Text(), w)
				}
			}
		})
	}
}

func TestHugeTotalTensorSizeIsAHugeBuffer(t *testing.T) {
	// TotalTensorSizeInBytes is a UINT64: past 2^60 bytes the element
	// count wrapped (2^61 bytes drew a buffer of 0 cells; 2^63-4 was a 500).
	for _, c := range []struct{ total, cells string }{
		{"2305843009213693952", "576460752303423488"},
		{"9223372036854775804", "2305843009213693951"},
	} {
		res, d := page(t, "/?dt=FLOAT32&sizes=2,3&total="+c.total)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("total %s: status %d", c.total, res.StatusCode)
		}
		if want := i18n.GroupDigits(c.total) + " bytes = " + i18n.GroupDigits(c.cells) + " elements"; d.Find(tid("fact-buffer")+" dd").First().Text() != want {
			t.Errorf("total %s: buffer fact %q, want %q", c.total, d.Find(tid("fact-buffer")+" dd").First().Text(), want)
		}
		if !strings.Contains(d.Find(tid("buffer-too-large")).Text(), "too large to draw") {
			t.Errorf("total %s: no too-large note on the buffer", c.total)
		}
	}
}

// TestBufferSizeIsTheSameWithBytesLeftOver: DirectML takes a
// TotalTensorSizeInBytes that is not a whole number of elements (46 bytes
// of FLOAT32 are 11 elements and 2 bytes). The views' subtitle, the
// buffer fact and the note give the same size and say what is left over,
// in every language; they said 44 and 46 bytes.
func TestBufferSizeIsTheSameWithBytesLeftOver(t *testing.T) {
	ts := newTestServer(t)
	const layout, slice = "/?sizes=2,3&strides=5,1&total=46", "/slice?dt=FLOAT16&sizes=4,4&total=35"
	for _, c := range []struct {
		loc  i18n.Locale
		path string
		want map[string]string // data-testid: a text it contains
	}{
		{i18n.English, layout, map[string]string{
			"buffer-sub":  "11 elements of 32 bits + 2 bytes left over = 46 bytes",
			"fact-buffer": "46 bytes = 11 elements and 2 bytes left over",
			"total-note":  "the buffer is 46 bytes, 11 elements and 2 bytes left over;"}},
		{i18n.TraditionalChinese, layout, map[string]string{
			"buffer-sub":  "11 個 32 位元的元素 + 餘下 2 位元組 = 46 位元組",
			"fact-buffer": "46 位元組 = 11 個元素，餘 2 位元組",
			"total-note":  "緩衝區有 46 位元組、11 個元素，餘 2 位元組；"}},
		{i18n.BrazilianPortuguese, layout, map[string]string{
			"buffer-sub":  "11 elementos de 32 bits + 2 bytes de sobra = 46 bytes",
			"fact-buffer": "46 bytes = 11 elementos e 2 bytes de sobra",
			"total-note":  "o buffer tem 46 bytes, 11 elementos e 2 bytes de sobra;"}},
		{i18n.French, layout, map[string]string{
			"buffer-sub":  "11 éléments de 32 bits + 2 octets en trop = 46 octets",
			"fact-buffer": "46 octets = 11 éléments et 2 octets en trop",
			"total-note":  "le tampon fait 46 octets, 11 éléments et 2 octets en trop"}},
		{i18n.English, slice, map[string]string{
			"buffer-sub":  "17 elements of 16 bits + 1 byte left over = 35 bytes;",
			"fact-buffer": "35 bytes = 17 elements and 1 byte left over"}},
		{i18n.TraditionalChinese, slice, map[string]string{
			"buffer-sub":  "17 個 16 位元的元素 + 餘下 1 位元組 = 35 位元組；",
			"fact-buffer": "35 位元組 = 17 個元素，餘 1 位元組"}},
		{i18n.French, slice, map[string]string{
			"buffer-sub":  "17 éléments de 16 bits + 1 octet en trop = 35 octets\u202f;",
			"fact-buffer": "35 octets = 17 éléments et 1 octet en trop"}},
	} {
		_, d := getPage(t, ts.URL+c.path+"&lang="+string(c.loc), nil)
		for id, want := range c.want {
			if got := d.Find(tid(id)).Text(); !strings.Contains(got, want) {
				t.Errorf("%s %s: %s %q lacks %q", c.loc, c.path, id, got, want)
			}
		}
	}
}

func TestEightDimensionsAreLabelledSmallMultiples(t *testing.T) {
	_, d := page(t, "/?sizes=2,1,1,1,1,2,2,3")
	if got := d.Find("figure.panel").Length(); got != 4 {
		t.Errorf("%d panels, want 4", got)
	}
	if got := texts(d.Find(".band-h"), ""); strings.Join(got, "|") != "d0=0|d0=1" {
		t.Errorf("bands %v", got)
	}
	if got := texts(d.Find("figcaption"), ""); strings.Join(got, "|") != "d5=0|d5=1|d5=0|d5=1" {
		t.Errorf("captions %v", got)
	}
	if got, _ := d.Find("#l-23").Attr("aria-label"); got != "X, element (1,0,0,0,0,1,1,2), offset 23" {
		t.Errorf("accessible name %q", got)
	}
}

func TestPageQueryTooLong(t *testing.T) {
	ts := newTestServer(t)
	res, err := http.Get(ts.URL + "/?sizes=" + strings.Repeat("1,", 4000))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 400 {
		t.Errorf("status %d", res.StatusCode)
	}
}

// ruleOf is the rule a page's error gives after its words ("The size
// of dimension W is 0: ... — sizes[1] == 0: ..."), or the whole message
// when it has none.
func ruleOf(msg string) string {
	if _, rule, ok := strings.Cut(msg, " — "); ok {
		return rule
	}
	return msg
}

// TestPageErrorsReadAsWords: the pages' errors say what is wrong in
// words, the rule with DirectML's names beside them (issue #13, 9).
func TestPageErrorsReadAsWords(t *testing.T) {
	for _, c := range []struct{ path, field, words string }{
		{"/?sizes=2,0", "sizes[1]", "The size of dimension W is 0: no dimension may be empty — sizes[1] == 0: "},
		{"/?sizes=2,3&strides=-1,1", "strides[0]", "The stride of dimension H is negative (-1): "},
		{"/?sizes=2,3&total=8", "totalTensorSizeInBytes", "TotalTensorSizeInBytes is 8 bytes, fewer than the 24 the tensor's elements need — "},
		{"/slice?sizes=4,4&woff=0,0&wsize=0,4&wstride=1,1", "inputWindowSizes[0]", "The window's size on axis 0 (H) is 0: the window must hold at least one element — "},
		{"/slice?preset=example2&out=1,1,3,2", "outputSizes[2]", "The output size on axis 2 (H) is 3, but the window gives at most 2 — "},
	} {
		_, d := page(t, c.path)
		got := d.Find(tid("err-" + c.field)).Text()
		if !strings.HasPrefix(got, c.words) || ruleOf(got) == got {
			t.Errorf("%s: %s: %q, want words first (%q...) and the rule beside them", c.path, c.field, got, c.words)
		}
	}
	// An entry that is empty or not a number breaks no DirectML rule: the
	// words say it once, with nothing beside them.
	for _, c := range []struct{ path, field, words string }{
		{"/?sizes=2,abc", "sizes[1]", `The size of dimension W, "abc", is not a whole number: give a size of at least 1`},
		{"/?sizes=2,", "sizes[1]", "The size of dimension W is empty: give a size of at least 1"},
		// Quoted as each language quotes.
		{"/?sizes=2,abc&lang=fr", "sizes[1]", "La taille de la dimension W, \u00ab\u00a0abc\u00a0\u00bb, n'est pas un nombre entier\u00a0: donnez une taille d'au moins 1"},
		{"/?sizes=2,abc&lang=zh-TW", "sizes[1]", "維度 W 的大小「abc」不是整數：請填入至少為 1 的大小"},
		{"/?sizes=2,a%09b&lang=pt-BR", "sizes[1]", "O tamanho da dimensão W, \u201ca\\tb\u201d, não é um número inteiro: informe um tamanho de no mínimo 1"},
	} {
		_, d := page(t, c.path)
		if got := d.Find(tid("err-" + c.field)).Text(); got != c.words {
			t.Errorf("%s: %s: %q, want %q", c.path, c.field, got, c.words)
		}
	}
}

// TestFormSubmitRedirectsToTheCanonicalURL: without JavaScript the GET
// form sends every field; the server answers with the state's canonical
// URL, as the live page shows it, keeping a room (issue #13).
func TestFormSubmitRedirectsToTheCanonicalURL(t *testing.T) {
	ts := newTestServer(t)
	last := url.QueryEscape("dt=FLOAT32&sizes=2,3&strides=5,1")
	for _, c := range []struct{ path, want string }{
		{"/?dt=FLOAT16&rank=2&mode=explicit&sizes=2&sizes=3&strides=1&strides=2&total=&align=&labels=offset&sel=&cell=&last=",
			"/?dt=FLOAT16&sizes=2,3&strides=1,2&labels=offset"},
		{"/?dt=FLOAT32&rank=2&mode=packed&sizes=2&sizes=0&strides=3&strides=1&total=&align=&labels=letters&sel=&cell=&last=" + last,
			"/?dt=FLOAT32&sizes=2,0&last=" + strings.ReplaceAll(last, "%2C", ",")},
		{"/?dt=FLOAT32&rank=1&mode=packed&sizes=x&total=&align=&labels=letters&sel=&cell=&last=&room=ABCDEF",
			"/?dt=FLOAT32&sizes=x&room=ABCDEF"},
		{"/tour/7?dt=FLOAT32&rank=2&mode=explicit&sizes=2&sizes=3&strides=4&strides=1&total=&align=&labels=letters&sel=&cell=&last=",
			"/tour/7?dt=FLOAT32&sizes=2,3&strides=4,1"},
		{"/slice?dt=FLOAT32&rank=2&mode=packed&sizes=4&sizes=4&total=&align=&np=x%5B%3A%3A-1%5D&use=np&woff=0&woff=0&wsize=4&wsize=4&wstride=1&wstride=1&out=&out=&fl=6_4&vals=&t=&last=",
			"/slice?dt=FLOAT32&sizes=4,4&woff=0,0&wsize=4,4&wstride=-1,1"},
		// Numbers and the data type as the live page writes them.
		{"/?dt=float16&mode=packed&sizes=%2B3&sizes=03&rank=2", "/?dt=FLOAT16&sizes=3,3"},
		{"/?dt=int8&mode=explicit&sizes=2&sizes=3&strides=%2B05&strides=01&total=008&align=&labels=letters&sel=01,%2B1&rank=2",
			"/?dt=INT8&sizes=2,3&strides=5,1&total=8&sel=1,1"},
	} {
		res, err := noRedirect.Get(ts.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusSeeOther || res.Header.Get("Location") != c.want {
			t.Errorf("%s: %d to %q, want 303 to %q", c.path, res.StatusCode, res.Header.Get("Location"), c.want)
		}
	}
	// A link's URL is left alone.
	if res := get(t, ts, "/?dt=FLOAT32&sizes=2,3&strides=5,1"); res.StatusCode != http.StatusOK {
		t.Errorf("a canonical URL: %d", res.StatusCode)
	}
	// A rank that is not one stays, with its error at the field: the
	// canonical URL would drop it without a word.
	for _, path := range []string{"/?rank=9&sizes=4,5&strides=5,1&mode=explicit", "/?rank=abc&sizes=4,5", "/?rank=-2&sizes=4,5", "/slice?rank=12&sizes=4"} {
		res, d := page(t, path)
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: %d, want the page with the rank's error", path, res.StatusCode)
		}
		if got := d.Find(tid("err-rank")).Text(); !strings.Contains(got, "DimensionCount must be between 1 and 8") {
			t.Errorf("%s: rank error %q", path, got)
		}
	}
}

// TestFieldsSayWhatTheyMean: the DirectML fields a learner has not met
// say what they are, and the inputs name the explanation (issue #13, 9).
func TestFieldsSayWhatTheyMean(t *testing.T) {
	for _, c := range []struct{ path, input, hint string }{
		{"/", "total", "hint-total"},
		{"/", "align", "hint-align"},
		{"/", "stride-0", "packed-hint"},
		{"/slice", "total", "hint-total"},
		{"/slice", "align", "hint-align"},
		{"/slice", "fl", "hint-fl"},
		{"/slice", "stride-0", "packed-hint"},
	} {
		_, d := page(t, c.path)
		if strings.TrimSpace(d.Find(tid(c.hint)).Text()) == "" {
			t.Errorf("%s: no %s", c.path, c.hint)
		}
		if got := d.Find(tid(c.input)).AttrOr("aria-describedby", ""); !strings.Contains(" "+got+" ", " "+c.hint+" ") {
			t.Errorf("%s: %s is described by %q, not %s", c.path, c.input, got, c.hint)
		}
	}
}

// TestFieldErrorsSetTheRuleApart: a form error's words come first and the
// rule it cites after " — " sits in its own smaller span; a message that
// cites no rule has none.
func TestFieldErrorsSetTheRuleApart(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct{ path, field, rule string }{
		{"/?sizes=2,0", "sizes[1]", " — sizes[1] == 0: specifying a size of zero in any dimension is invalid"},
		{"/?sizes=2,abc", "sizes[1]", ""},
	} {
		_, d := getPage(t, ts.URL+c.path, nil)
		p := d.Find(tid("err-" + c.field))
		if got := p.Find("span.rule").Text(); got != c.rule {
			t.Errorf("%s: the rule %q, want %q (the message %q)", c.path, got, c.rule, p.Text())
		}
	}
}
