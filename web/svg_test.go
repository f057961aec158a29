package web

import (
	"encoding/json"
	"encoding/xml"
	"io"
	"net/http"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/i18n/i18ntest"
	"github.com/stridescope/stridescope/views"
)

// svgDoc is what the tests read of a picture: the root and every group
// (one per cell) with its class and texts.
type svgDoc struct {
	XMLName xml.Name `xml:"http://www.w3.org/2000/svg svg"`
	ViewBox string   `xml:"viewBox,attr"`
	Title   string   `xml:"title"`
	Desc    string   `xml:"desc"`
	Texts   []string `xml:"text"` // the lines outside the cells
	Groups  []struct {
		Class string   `xml:"class,attr"`
		Texts []string `xml:"text"`
	} `xml:"g"`
}

// cells counts the groups whose class has the word, and lists their
// labels (the first text).
func (d svgDoc) cells(word string) (n int, labels []string) {
	for _, g := range d.Groups {
		if strings.Contains(" "+g.Class+" ", " "+word+" ") {
			n++
			if len(g.Texts) > 0 {
				labels = append(labels, g.Texts[0])
			}
		}
	}
	return n, labels
}

// fetch GETs a path through a new server and reads the answer.
func fetch(t *testing.T, path string) (*http.Response, []byte) {
	t.Helper()
	ts := newTestServer(t)
	res, err := http.Get(ts.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, body
}

// getSVG fetches a picture and parses it with encoding/xml.
func getSVG(t *testing.T, path string) (*http.Response, svgDoc) {
	t.Helper()
	res, body := fetch(t, path)
	var d svgDoc
	if res.StatusCode == http.StatusOK {
		if err := xml.Unmarshal(body, &d); err != nil {
			t.Fatalf("%s does not parse as SVG: %v\n%.300s", path, err, body)
		}
	}
	return res, d
}

func TestLayoutSVGOfThePaddingExample(t *testing.T) {
	res, d := getSVG(t, "/api/v1/layout.svg?preset=padded")
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "image/svg+xml") {
		t.Errorf("Content-Type %q", ct)
	}
	if n, labels := d.cells("lcell"); n != 6 || strings.Join(labels, "") != "ABCDEF" {
		t.Errorf("logical cells %d %v", n, labels)
	}
	if n, labels := d.cells("bcell"); n != 10 || strings.Join(labels, " ") != "A B C x x D E F x x" {
		t.Errorf("buffer cells %d %v, want the page's A B C x x D E F x x", n, labels)
	}
	if !strings.Contains(d.Title, "sizes {2,3}, strides {5,1}") || d.Desc == "" || d.ViewBox == "" {
		t.Errorf("title %q desc %q viewBox %q", d.Title, d.Desc, d.ViewBox)
	}
}

func TestLayoutSVGFollowsTheExplorerQuery(t *testing.T) {
	for _, tc := range []struct {
		query          string
		logical, cells int
		want           string // a class that must be drawn
	}{
		{"preset=DHW", 12, 12, "sel"},                                        // the page's element H selected
		{"dt=FLOAT32&sizes=2,3&strides=0,1", 6, 3, "shared"},                 // broadcast
		{"dt=UINT4&sizes=3,5", 15, 16, "tail"},                               // 4-bit: the minimum is 8 bytes
		{"sizes=2&sizes=3&mode=packed&labels=offset&cell=4", 6, 6, "linked"}, // the form's repeated keys
	} {
		res, d := getSVG(t, "/api/v1/layout.svg?"+tc.query)
		if res.StatusCode != 200 {
			t.Errorf("%s: status %d", tc.query, res.StatusCode)
			continue
		}
		if n, _ := d.cells("lcell"); n != tc.logical {
			t.Errorf("%s: %d logical cells, want %d", tc.query, n, tc.logical)
		}
		if n, _ := d.cells("bcell"); n != tc.cells {
			t.Errorf("%s: %d buffer cells, want %d", tc.query, n, tc.cells)
		}
		if n, _ := d.cells(tc.want); n == 0 {
			t.Errorf("%s: no %s cell", tc.query, tc.want)
		}
	}
}

// TestLayoutSVGKeepsTheBytesLeftOver: the picture's buffer heading, its
// note and its description give the same buffer size when
// TotalTensorSizeInBytes is not a whole number of elements (the heading
// said 32 bytes, the note 34).
func TestLayoutSVGKeepsTheBytesLeftOver(t *testing.T) {
	for _, c := range []struct {
		query             string
		heading, note     string
		inDesc, notInDesc string
	}{
		{"sizes=2,3&strides=5,1&total=34", "Physical buffer: 8 elements of 32 bits + 2 bytes left over = 34 bytes",
			"TotalTensorSizeInBytes = 34 ≥ 32: the buffer is 34 bytes, 8 elements and 2 bytes left over.", "= 34 bytes", "= 32 bytes"},
		{"dt=FLOAT64&sizes=2,3&strides=5,1&total=69", "Physical buffer: 8 elements of 64 bits + 5 bytes left over = 69 bytes",
			"TotalTensorSizeInBytes = 69 ≥ 64: the buffer is 69 bytes, 8 elements and 5 bytes left over.", "= 69 bytes", "= 64 bytes"},
		{"lang=zh-TW&sizes=2,3&strides=5,1&total=34", "實體緩衝區：8 個 32 位元的元素 + 餘下 2 位元組 = 34 位元組",
			"TotalTensorSizeInBytes = 34 ≥ 32：緩衝區有 34 位元組、8 個元素，餘 2 位元組。", "= 34 位元組", "= 32 位元組"},
	} {
		res, d := getSVG(t, "/api/v1/layout.svg?"+c.query)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", c.query, res.StatusCode)
		}
		if !slices.Contains(d.Texts, c.heading) || !slices.Contains(d.Texts, c.note) {
			t.Errorf("%s: no %q and %q in %q", c.query, c.heading, c.note, d.Texts)
		}
		if !strings.Contains(d.Desc, c.inDesc) || strings.Contains(d.Desc, c.notInDesc) {
			t.Errorf("%s: description %q", c.query, d.Desc)
		}
	}
}

// apiErrors reads a 422 in the API's error shape.
func apiErrors(t *testing.T, path string) []map[string]string {
	t.Helper()
	res, body := fetch(t, path)
	if res.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("%s: status %d, want 422", path, res.StatusCode)
	}
	if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("%s: Content-Type %q", path, ct)
	}
	var e struct{ Errors []map[string]string }
	if err := json.Unmarshal(body, &e); err != nil {
		t.Fatal(err)
	}
	return e.Errors
}

func TestSVGInvalidStateIs422WithEveryViolation(t *testing.T) {
	errs := apiErrors(t, "/api/v1/layout.svg?dt=FOO&sizes=2,0&strides=1,1")
	fields := map[string]bool{}
	for _, e := range errs {
		fields[e["field"]] = true
	}
	if !fields["dataType"] || !fields["sizes[1]"] {
		t.Errorf("errors %v, want dataType and sizes[1]", errs)
	}
	errs = apiErrors(t, "/api/v1/slice1.svg?sizes=1,1,4,4&woff=0,0,0,1&wsize=1,1,4,3&wstride=1,1,0,2")
	if len(errs) != 1 || errs[0]["field"] != "inputWindowStrides[2]" {
		t.Errorf("slice errors %v", errs)
	}
}

// TestSVGDrawsEveryValidState: no valid state is refused a picture (it
// used to be a 422 past 4,096 cells, a broken image on a documentation
// page). Small views are drawn cell by cell; larger ones binned. Each
// picture is well-formed SVG, under 500 KB, and at most 4 times as tall
// as it is wide (the 64x64 layout was 6 MB and 25,859 px tall).
func TestSVGDrawsEveryValidState(t *testing.T) {
	ts := newTestServer(t)
	for _, tc := range []struct {
		path   string
		binned bool
	}{
		{"/api/v1/layout.svg?sizes=64,64", true},
		{"/api/v1/layout.svg?sizes=4096,4096", true},
		{"/api/v1/slice1.svg?sizes=64,64", true},
		{"/api/v1/slice1.svg?sizes=4096,4096", true},
		{"/api/v1/slice1.svg?sizes=4,4,4,4,4,4,4,4&woff=0,0,0,0,0,0,0,0&wsize=4,4,4,4,4,4,4,4&wstride=1,1,1,1,1,1,1,-1", true},
		{"/api/v1/layout.svg?sizes=4,4,4,4,4,4,4,4&lang=zh-TW", true},
		// The buffer is long, not the tensor: the strides or a total.
		{"/api/v1/layout.svg?sizes=2,2&strides=5000,1", true},
		{"/api/v1/layout.svg?sizes=2,3&strides=5,1&total=9223372036854775807", true},
		// Four input elements spread over 2^26+2 cells: counted, not allocated.
		{"/api/v1/slice1.svg?dt=FLOAT64&sizes=2,2&strides=67108864,1", true},
		// Past what the explorer draws: the logical view only.
		{"/api/v1/layout.svg?sizes=4096,4096,2", true},
		// A tall column of cells is binned rather than 12,800 px tall.
		{"/api/v1/layout.svg?sizes=256,1", true},
		{"/api/v1/layout.svg?sizes=16,16", false},
		{"/api/v1/layout.svg?sizes=16,16&lang=fr", false},
		{"/api/v1/layout.svg?sizes=16,16&strides=0,1&lang=zh-TW", false},
		{"/api/v1/slice1.svg?sizes=16,16&lang=pt-BR", false},
		{"/api/v1/layout.svg?sizes=16,16&lang=zh-TW", false},
		// 256 elements as 128 small grids: cell by cell, the picture would
		// be a tall column of them.
		{"/api/v1/layout.svg?sizes=2,2,2,2,2,2,2,2&sel=1,1,1,1,1,1,1,1&lang=fr", true},
		{"/api/v1/slice1.svg?sizes=2,2,2,2,2,2,2,2&lang=fr", true},
		{"/api/v1/slice1.svg?preset=example2", false},
		// The layout conversion: the page's picture cell by cell, binned
		// past 256 cells a view, the buffers left out past 2^24 elements.
		{"/api/v1/identity.svg?preset=nhwc-nchw", false},
		{"/api/v1/identity.svg?preset=broadcast&lang=fr", false},
		{"/api/v1/identity.svg?preset=padded&lang=zh-TW", false},
		{"/api/v1/identity.svg?preset=scalebias&lang=pt-BR", false},
		// 768 cells in all: too tall cell by cell.
		{"/api/v1/identity.svg?dt=FLOAT32&sizes=16,16&imode=packed&omode=explicit&ostrides=1,16", true},
		{"/api/v1/identity.svg?dt=FLOAT32&sizes=64,64&imode=packed&omode=explicit&ostrides=1,64", true},
		{"/api/v1/identity.svg?dt=FLOAT16&sizes=1,16,1024,1024&imode=NHWC&omode=NCHW&lang=zh-TW", true},
		{"/api/v1/identity.svg?dt=FLOAT32&sizes=4,4,4,4,4,4,4,4&imode=packed&omode=packed&lang=fr", true},
		{"/api/v1/identity.svg?dt=FLOAT32&sizes=2,3&imode=packed&omode=packed&ototal=9223372036854775804", true},
		{"/api/v1/identity.svg?dt=FLOAT32&sizes=4096,4096,2&imode=packed&omode=packed", true},
	} {
		res, err := http.Get(ts.URL + tc.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("%s: status %d: %.300s", tc.path, res.StatusCode, body)
			continue
		}
		var doc struct {
			XMLName xml.Name `xml:"http://www.w3.org/2000/svg svg"`
			Width   int      `xml:"width,attr"`
			Height  int      `xml:"height,attr"`
			Images  []struct {
				Class string `xml:"class,attr"`
				Href  string `xml:"href,attr"`
			} `xml:"image"`
		}
		if err := xml.Unmarshal(body, &doc); err != nil {
			t.Errorf("%s: not well-formed SVG: %v", tc.path, err)
			continue
		}
		t.Logf("%s: %d bytes, %d x %d px", tc.path, len(body), doc.Width, doc.Height)
		if len(body) >= 500_000 {
			t.Errorf("%s: %d bytes, want under 500 KB", tc.path, len(body))
		}
		if doc.Width <= 0 || doc.Height > 4*doc.Width {
			t.Errorf("%s: %d x %d px, want at most 4 times as tall as wide", tc.path, doc.Width, doc.Height)
		}
		if tc.binned != (len(doc.Images) > 0) {
			t.Errorf("%s: %d binned views, want binned %v", tc.path, len(doc.Images), tc.binned)
		}
		for _, im := range doc.Images {
			if !strings.HasPrefix(im.Href, "data:image/png;base64,") {
				t.Errorf("%s: %s is %.40s, want a PNG", tc.path, im.Class, im.Href)
			}
		}
	}
}

func TestSlice1SVGOfThePageExamples(t *testing.T) {
	for _, tc := range []struct{ preset, output string }{
		{"example1", "2 4 10 12"},
		{"example2", "14 16 6 8"},
	} {
		res, d := getSVG(t, "/api/v1/slice1.svg?preset="+tc.preset)
		if res.StatusCode != 200 {
			t.Fatalf("%s: status %d", tc.preset, res.StatusCode)
		}
		if n, labels := d.cells("scell"); n != 16 || strings.Join(labels, " ") != "1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16" {
			t.Errorf("%s: input %d %v", tc.preset, n, labels)
		}
		if n, _ := d.cells("in"); n != 12 {
			t.Errorf("%s: %d cells in the window, want 12", tc.preset, n)
		}
		if n, labels := d.cells("ocell"); n != 4 || strings.Join(labels, " ") != tc.output {
			t.Errorf("%s: output %d %v, want %s", tc.preset, n, labels, tc.output)
		}
	}
	// A TotalTensorSizeInBytes of 4 GiB adds only unused tail, which the
	// picture neither draws nor allocates.
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	res, d := getSVG(t, "/api/v1/slice1.svg?dt=FLOAT32&sizes=1,1,4,4&total=4294967296&woff=0,0,0,1&wsize=1,1,4,3&wstride=1,1,-2,2")
	runtime.ReadMemStats(&m1)
	if res.StatusCode != 200 {
		t.Fatalf("a 4 GiB total: status %d", res.StatusCode)
	}
	if _, labels := d.cells("ocell"); strings.Join(labels, " ") != "14 16 6 8" {
		t.Errorf("a 4 GiB total: output %v", labels)
	}
	if a := m1.TotalAlloc - m0.TotalAlloc; a > 16<<20 {
		t.Errorf("a 4 GiB total allocated %d bytes", a)
	}
	// Typed values travel in the query as on /slice.
	_, d = getSVG(t, "/api/v1/slice1.svg?dt=INT32&sizes=4&woff=0&wsize=4&wstride=-1&vals=10,-20,30,-40")
	if _, labels := d.cells("ocell"); strings.Join(labels, " ") != "-40 30 -20 10" {
		t.Errorf("reversed values %v", labels)
	}
}

func TestSVGMayBeFramedAndShownByAnySite(t *testing.T) {
	res, _ := getSVG(t, "/api/v1/layout.svg")
	if csp := res.Header.Get("Content-Security-Policy"); !strings.Contains(csp, "frame-ancestors *") {
		t.Errorf("CSP %q", csp)
	}
	if xfo := res.Header.Get("X-Frame-Options"); xfo != "" {
		t.Errorf("X-Frame-Options %q", xfo)
	}
	if corp := res.Header.Get("Cross-Origin-Resource-Policy"); corp != "cross-origin" {
		t.Errorf("Cross-Origin-Resource-Policy %q", corp)
	}
	if res.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Error("no nosniff")
	}
}

// TestSVGPicturesSpeakTheLanguage: both pictures, asked for in a
// language (?lang= as the shared links carry it, or Accept-Language as
// an <img> sends it), draw their labels, legends, tips and description
// in it: no English text of the English picture is left.
func TestSVGPicturesSpeakTheLanguage(t *testing.T) {
	ts := newTestServer(t)
	get := func(path string, h http.Header) map[string]bool {
		t.Helper()
		req, err := http.NewRequest(http.MethodGet, ts.URL+path, nil)
		if err != nil {
			t.Fatal(err)
		}
		req.Header = h
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %s", path, res.Status)
		}
		_, text := uiText(t, res.Body)
		return text
	}
	for _, path := range []string{
		"/api/v1/layout.svg?sizes=2,3&strides=5,1&total=48&sel=1,0",
		"/api/v1/layout.svg?sizes=3,2&strides=0,1",
		"/api/v1/slice1.svg?preset=example2",
		"/api/v1/slice1.svg?dt=INT8&sizes=20,20&wsize=20,20&vals=1,2,3",
		// The index maps' binned pictures (picture.MapBinned).
		"/api/v1/padding1.svg?dt=FLOAT32&sizes=64,64&mode=CONSTANT&start=3,3&end=3,3",
		"/api/v1/tile.svg?dt=FLOAT32&sizes=64,64&repeats=2,3",
		"/api/v1/depthspace.svg?op=d2s&dt=FLOAT32&sizes=1,16,64,64&imode=packed&block=4",
		"/api/v1/joinsplit.svg?op=join&dt=FLOAT32&axis=1&in=64,40&st=&in=64,24&st=",
		"/api/v1/joinsplit.svg?op=split&dt=UINT8&axis=1&in=20,20&st=&outs=5,15",
	} {
		en := get(path, nil)
		if len(en) < 5 {
			t.Fatalf("%s: only %d English strings: %v", path, len(en), en)
		}
		for _, l := range i18n.Locales[1:] {
			for _, h := range []http.Header{{"Accept-Language": {string(l)}}, {}} {
				p := path
				if len(h) == 0 {
					p += "&lang=" + string(l)
				}
				got := get(p, h)
				for s := range en {
					if got[s] && !i18ntest.SameIn(s, l) {
						t.Errorf("%s %s: English left: %q", p, l, s)
					}
				}
			}
		}
	}
}

// TestSVGRefusalIsAPicture: a picture too large to draw, asked for as a
// picture (an <img>, a followed link), is refused with a picture of the
// reason in the request's language, so a documentation page shows why
// rather than a broken image; an API client still gets the JSON errors.
func TestSVGRefusalIsAPicture(t *testing.T) {
	ts := newTestServer(t)
	// Every valid state has a picture (TestSVGDrawsEveryValidState): an
	// invalid one, with violations long enough to wrap, is refused.
	const bad = "/api/v1/layout.svg?dt=FOO&sizes=2,0,3&strides=1,1"
	for _, tc := range []struct {
		name, path, accept, lang string
		svg                      bool
		says                     string
	}{
		{"an <img>", bad, "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8", "", true, "sizes[1]"},
		{"the Download SVG link", "/api/v1/slice1.svg?sizes=4,4&woff=0,9&wsize=4,4&wstride=1,0", "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "", true, "InputWindowStrides[1] == 0"},
		{"an <img> in French", bad, "image/*", "fr", true, "FOO"},
		{"an <img> in Chinese, wrapped", bad, "image/*", "zh-TW", true, "FOO"},
		{"an API client", bad, "*/*", "", false, "sizes[1]"},
	} {
		req, _ := http.NewRequest(http.MethodGet, ts.URL+tc.path, nil)
		req.Header.Set("Accept", tc.accept)
		if tc.lang != "" {
			req.Header.Set("Accept-Language", tc.lang)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusUnprocessableEntity {
			t.Errorf("%s: status %d, want 422", tc.name, res.StatusCode)
		}
		ct := res.Header.Get("Content-Type")
		if tc.svg != strings.HasPrefix(ct, "image/svg+xml") {
			t.Errorf("%s: Content-Type %q", tc.name, ct)
		}
		if !strings.Contains(string(body), tc.says) {
			t.Errorf("%s: %s does not say %q", tc.name, body, tc.says)
		}
		if !tc.svg {
			continue
		}
		var doc struct {
			Title string   `xml:"title"`
			Lines []string `xml:"text"`
		}
		if err := xml.Unmarshal(body, &doc); err != nil {
			t.Fatalf("%s: not XML: %v\n%s", tc.name, err, body)
		}
		if len(doc.Lines) < 2 || doc.Title == "" {
			t.Errorf("%s: %d lines, title %q", tc.name, len(doc.Lines), doc.Title)
		}
		for _, l := range doc.Lines {
			// Columns: a Chinese character is as wide as two Latin ones.
			n := 0
			for _, r := range l {
				n++
				if r >= 0x2E80 {
					n++
				}
			}
			if n > views.RefusalPerLine {
				t.Errorf("%s: a line of %d columns: %q", tc.name, n, l)
			}
		}
	}
}

// TestSVGRevalidates: a picture carries a validator, so a page that shows
// it again revalidates it (304, no body) rather than downloading it again;
// another language is another picture; an address that names its
// language varies on nothing else.
func TestSVGRevalidates(t *testing.T) {
	ts := newTestServer(t)
	get := func(path, inm string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest(http.MethodGet, ts.URL+path, nil)
		if inm != "" {
			req.Header.Set("If-None-Match", inm)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		return res
	}
	const fr = "/api/v1/layout.svg?sizes=2,3&strides=5,1&lang=fr"
	first := get(fr, "")
	tag := first.Header.Get("ETag")
	if first.StatusCode != http.StatusOK || !strings.HasPrefix(tag, `W/"`) {
		t.Fatalf("status %d, ETag %q", first.StatusCode, tag)
	}
	if v := first.Header.Values("Vary"); slices.Contains(v, "Cookie") || slices.Contains(v, "Accept-Language") {
		t.Errorf("an address with ?lang= varies on %q", v)
	}
	if res := get(fr, tag); res.StatusCode != http.StatusNotModified || res.ContentLength > 0 {
		t.Errorf("If-None-Match %s: status %d, %d bytes", tag, res.StatusCode, res.ContentLength)
	}
	if res := get(fr, `"other", `+strings.TrimPrefix(tag, "W/")); res.StatusCode != http.StatusNotModified {
		t.Errorf("a list with the tag: status %d", res.StatusCode)
	}
	en := get("/api/v1/layout.svg?sizes=2,3&strides=5,1", tag)
	if en.StatusCode != http.StatusOK || en.Header.Get("ETag") == tag {
		t.Errorf("the English picture: status %d, ETag %q (French %q)", en.StatusCode, en.Header.Get("ETag"), tag)
	}
	if v := en.Header.Values("Vary"); !slices.Contains(v, "Cookie") || !slices.Contains(v, "Accept-Language") {
		t.Errorf("an address without ?lang= varies on %q", v)
	}
}

// TestSVGLongRowsWrap: a long vector is drawn in bands of columns, not as
// one row thousands of pixels wide that a documentation column shrinks
// to a sliver; every cell is still there, and a slice's window outline is
// drawn in each band it crosses.
func TestSVGLongRowsWrap(t *testing.T) {
	for _, tc := range []struct {
		path       string
		cells      string // the class of the cells counted
		n          int
		minFrames  int
		maxWidthPx int
	}{
		{"/api/v1/layout.svg?sizes=200", `class="lcell`, 200, 0, 1800},
		{"/api/v1/layout.svg?sizes=2,100&strides=100,1", `class="lcell`, 200, 0, 1800},
		{"/api/v1/slice1.svg?sizes=200&woff=10&wsize=150&wstride=3", `data-i=`, 0, 5, 1800},
	} {
		res, body := fetch(t, tc.path)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d: %s", tc.path, res.StatusCode, body)
		}
		var doc struct {
			Width int `xml:"width,attr"`
		}
		if err := xml.Unmarshal(body, &doc); err != nil {
			t.Fatalf("%s: %v", tc.path, err)
		}
		if doc.Width > tc.maxWidthPx {
			t.Errorf("%s: %d px wide, want at most %d", tc.path, doc.Width, tc.maxWidthPx)
		}
		if tc.n > 0 {
			if got := strings.Count(string(body), tc.cells); got != tc.n {
				t.Errorf("%s: %d cells, want %d", tc.path, got, tc.n)
			}
		}
		if got := strings.Count(string(body), `class="window"`); got < tc.minFrames {
			t.Errorf("%s: %d dashed outlines, want at least %d (the window in each band)", tc.path, got, tc.minFrames)
		}
	}
}
