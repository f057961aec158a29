package web

import (
	"bytes"
	"encoding/xml"
	"html"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
)

// TestIndexMapSVGsAtEverySize: the padding, tile, depth-space and
// join/split pictures answer every valid state with an image (#40, #37's
// embeds): cell by cell up to the DOM's 256 cells a grid, binned above
// (one PNG a view), under 500 KB and at most 4 times as tall as wide,
// and the picture's title names the state and its description says what
// a square stands for.
func TestIndexMapSVGsAtEverySize(t *testing.T) {
	ts := newTestServer(t)
	for _, tc := range []struct {
		path   string
		binned bool
		title  string // a part of the title
		desc   string // a part of the description ("" for a detailed picture)
	}{
		{"/api/v1/padding1.svg?preset=pad-ex1", false, "DML_PADDING1", ""},
		{"/api/v1/padding1.svg?dt=FLOAT32&sizes=20,20&mode=EDGE&start=1,1&end=1,1", true, "output 22,22", "drawn in squares"},
		{"/api/v1/padding1.svg?dt=FLOAT32&sizes=64,64&mode=REFLECTION&start=3,3&end=3,3", true, "REFLECTION", "drawn in squares"},
		{"/api/v1/padding1.svg?dt=FLOAT32&sizes=64,64&mode=CONSTANT&start=8,0&end=0,8&lang=fr", true, "DML_PADDING1", "dessiné en carrés"},
		{"/api/v1/padding1.svg?dt=FLOAT32&sizes=4096,4096&mode=WRAP&start=5,5&end=5,5", true, "4096,4096", "drawn in squares"},
		{"/api/v1/padding1.svg?dt=UINT8&sizes=2,2,2,2,2,2,2,4&mode=SYMMETRIC&start=1,0,0,0,0,0,0,1&end=0,0,0,0,0,0,0,1&lang=zh-TW", true, "DML_PADDING1", "以方格畫出"},
		{"/api/v1/tile.svg?preset=tile-ex", false, "DML_TILE", ""},
		{"/api/v1/tile.svg?dt=FLOAT32&sizes=64,64&repeats=2,3", true, "Repeats 2,3", "drawn in squares"},
		{"/api/v1/tile.svg?dt=FLOAT32&sizes=4096,4096&repeats=1,2&lang=pt-BR", true, "DML_TILE", "desenhado em quadrados"},
		{"/api/v1/tile.svg?dt=FLOAT32&sizes=300&repeats=7", true, "DML_TILE", "drawn in squares"},
		// 256 cells a grid as 64 small grids each: cell by cell the
		// picture would be a tall column of them, so it is binned.
		{"/api/v1/tile.svg?dt=FLOAT32&sizes=2,2,2,2,2,2,2,2&repeats=1,1,1,1,1,1,1,1", true, "DML_TILE", "drawn in squares"},
		// The largest tensors DirectML allows (2^32-1 elements): as fast.
		{"/api/v1/joinsplit.svg?op=split&dt=UINT8&axis=0&in=4294967295&st=&outs=1,4294967294", true, "split along axis 0", "drawn in squares"},
		{"/api/v1/depthspace.svg?preset=d2s-page", false, "DML_DEPTH_TO_SPACE1", ""},
		{"/api/v1/depthspace.svg?op=d2s&dt=FLOAT32&sizes=1,4,16,16&imode=packed&block=2", true, "DCR and CRD", "drawn in squares"},
		{"/api/v1/depthspace.svg?op=d2s&dt=FLOAT32&sizes=1,16,64,64&imode=packed&block=4", true, "DML_DEPTH_TO_SPACE1", "drawn in squares"},
		{"/api/v1/depthspace.svg?op=s2d&dt=FLOAT32&sizes=1,1,4096,4096&imode=packed&block=2&lang=fr", true, "DML_SPACE_TO_DEPTH1", "dessiné en carrés"},
		{"/api/v1/joinsplit.svg?preset=join-example1", false, "joined", ""},
		{"/api/v1/joinsplit.svg?op=join&dt=FLOAT32&axis=0&in=256,2&st=&in=1,2&st=", true, "joined along axis 0", "drawn in squares"},
		{"/api/v1/joinsplit.svg?op=join&dt=FLOAT32&axis=1&in=4096,1000&st=&in=4096,3096&st=", true, "joined along axis 1", "drawn in squares"},
		{"/api/v1/joinsplit.svg?op=join&dt=FLOAT32&axis=0&in=8,64&st=&in=8,64&st=&in=8,64&st=&in=8,64&st=&in=8,64&st=&in=8,64&st=&in=8,64&st=&in=8,64&st=", true, "8 tensors", "drawn in squares"},
		{"/api/v1/joinsplit.svg?op=split&dt=UINT8&axis=1&in=20,20&st=&outs=5,15&lang=fr", true, "scindé", "dessiné en carrés"},
		{"/api/v1/joinsplit.svg?op=split&dt=UINT8&axis=0&in=4096,4096&st=&outs=512,512,512,512,512,512,512,512", true, "8 outputs", "drawn in squares"},
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
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "image/svg+xml") {
			t.Errorf("%s: Content-Type %q", tc.path, ct)
		}
		var doc struct {
			XMLName xml.Name `xml:"http://www.w3.org/2000/svg svg"`
			Width   int      `xml:"width,attr"`
			Height  int      `xml:"height,attr"`
			Title   string   `xml:"title"`
			Desc    string   `xml:"desc"`
			Images  []struct {
				Class string `xml:"class,attr"`
				Href  string `xml:"href,attr"`
			} `xml:"image"`
		}
		if err := xml.Unmarshal(body, &doc); err != nil {
			t.Errorf("%s: not well-formed SVG: %v", tc.path, err)
			continue
		}
		t.Logf("%s: %d bytes, %d x %d px, %d rasters", tc.path, len(body), doc.Width, doc.Height, len(doc.Images))
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
		if !strings.Contains(doc.Title, tc.title) || !strings.Contains(doc.Desc, tc.desc) {
			t.Errorf("%s: title %q, desc %q; want them to say %q and %q", tc.path, doc.Title, doc.Desc, tc.title, tc.desc)
		}
	}
}

// TestIndexMapPagesShowTheirPictureWithoutJavaScript: a padding, tiling
// or depth-space page whose grids are canvases shows, with JavaScript
// off, its state's SVG picture (in the page's language) where it showed
// a note that the view needs JavaScript, once, the other canvases
// pointing up to it; a state too large for canvases shows the picture
// under its note, JavaScript or not. Each picture answers 200 with an
// image, and the share bar offers it.
func TestIndexMapPagesShowTheirPictureWithoutJavaScript(t *testing.T) {
	ts := newTestServer(t)
	noscriptSVG := regexp.MustCompile(`class="noscript-svg" data-testid="([a-z-]+)-noscript-svg" src="([^"]+)"`)
	tooLargeSVG := regexp.MustCompile(`class="noscript-svg" data-testid="logical-too-large-svg" src="([^"]+)"`)
	for _, c := range []struct {
		path     string
		canvas   string // the canvas that shows the picture; "" for none
		tooLarge bool   // the picture is under the too-large note
		svg      string // the picture's address, up to its query
		lang     string // the language it is asked in ("" English)
	}{
		{"/padding?dt=FLOAT32&sizes=64,64&mode=REFLECTION&start=3,3&end=3,3", "pad-in", false, "/api/v1/padding1.svg?", ""},
		{"/padding?dt=FLOAT32&sizes=20,20&mode=CONSTANT&start=1,1&end=1,1&lang=fr", "pad-in", false, "/api/v1/padding1.svg?", "&lang=fr"},
		{"/padding?dt=FLOAT32&sizes=4096,4096&mode=EDGE&start=1,1&end=1,1", "", true, "/api/v1/padding1.svg?", ""},
		{"/tile?dt=FLOAT32&sizes=64,64&repeats=2,3&lang=zh-TW", "tile-in", false, "/api/v1/tile.svg?", "&lang=zh-TW"},
		{"/tile?dt=FLOAT32&sizes=4096,4096&repeats=2,1", "", true, "/api/v1/tile.svg?", ""},
		{"/embed/tile?dt=FLOAT32&sizes=300&repeats=2&lang=pt-BR", "tile-in", false, "/api/v1/tile.svg?", "&lang=pt-BR"},
		{"/depthspace?op=d2s&dt=FLOAT32&sizes=1,16,64,64&imode=packed&block=4", "ds-in", false, "/api/v1/depthspace.svg?", ""},
		{"/depthspace?op=s2d&dt=FLOAT32&sizes=2,4,4096,4096&imode=packed&block=2&lang=fr", "", true, "/api/v1/depthspace.svg?", "&lang=fr"},
	} {
		res, err := http.Get(ts.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", c.path, res.StatusCode)
		}
		var src string
		if c.tooLarge {
			m := tooLargeSVG.FindAllSubmatch(body, -1)
			if len(m) != 1 || noscriptSVG.Match(body) {
				t.Errorf("%s: %d pictures under the too-large note and noscript pictures %v, want one and none", c.path, len(m), noscriptSVG.Match(body))
				continue
			}
			src = string(m[0][1])
			// A link opens it whole (a phone shows it a third as wide).
			_, d := getPage(t, ts.URL+c.path, nil)
			if href, _ := d.Find(tid("logical-too-large-svg")).Parent().Attr("href"); href != html.UnescapeString(src) {
				t.Errorf("%s: the picture links %q, want %q", c.path, href, src)
			}
		} else {
			m := noscriptSVG.FindAllSubmatch(body, -1)
			if len(m) != 1 || string(m[0][1]) != c.canvas {
				t.Errorf("%s: %d pictures without JavaScript, want one, at the %s canvas", c.path, len(m), c.canvas)
				continue
			}
			if bytes.Contains(body, []byte(`data-testid="`+c.canvas+`-needs-js"`)) {
				t.Errorf("%s: the %s canvas still says it needs JavaScript", c.path, c.canvas)
			}
			src = string(m[0][2])
		}
		src = html.UnescapeString(src)
		if !strings.HasPrefix(src, c.svg) || !strings.HasSuffix(src, c.lang) || (c.lang == "" && strings.Contains(src, "lang=")) {
			t.Errorf("%s: the picture is %q, want %s... in %q", c.path, src, c.svg, c.lang)
		}
		pic, err := http.Get(ts.URL + src)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(pic.Body)
		pic.Body.Close()
		if pic.StatusCode != http.StatusOK || !strings.HasPrefix(pic.Header.Get("Content-Type"), "image/svg+xml") || len(b) >= 500_000 {
			t.Errorf("%s: its picture %s answers %d, %s, %d bytes", c.path, src, pic.StatusCode, pic.Header.Get("Content-Type"), len(b))
		}
		_, d := getPage(t, ts.URL+c.path, nil)
		if _, hidden := d.Find(tid("download-svg")).Attr("hidden"); hidden {
			t.Errorf("%s: the share bar hides Download SVG", c.path)
		}
		if _, hidden := d.Find(tid("no-svg")).Attr("hidden"); !hidden {
			t.Errorf("%s: the share bar says %q", c.path, d.Find(tid("no-svg")).Text())
		}
	}
}

// TestBinnedPaddingFramesTheInput: a binned padding of one or two
// dimensions outlines the input's own place in the output, from
// StartPadding on, and says so in its legend; one of more dimensions
// (whose flattened rows hold the place in pieces) does not.
func TestBinnedPaddingFramesTheInput(t *testing.T) {
	frame := regexp.MustCompile(`<rect class="window" x="(\d+)" y="(\d+)" width="(\d+)" height="(\d+)" rx="6" fill="none" stroke="#e63946"`)
	for _, c := range []struct {
		query  string
		frames int
	}{
		// 88 x 102 in squares of 2 x 2: the input's 64 x 64 from (16,8).
		{"dt=FLOAT32&sizes=64,64&mode=CONSTANT&start=16,8&end=8,30", 1},
		{"dt=FLOAT32&sizes=300&mode=EDGE&start=100&end=0", 1},
		{"dt=FLOAT32&sizes=4,8,16&mode=WRAP&start=1,1,1&end=1,1,1", 0},
	} {
		res, body := fetch(t, "/api/v1/padding1.svg?"+c.query)
		if res.StatusCode != 200 {
			t.Fatalf("%s: status %d", c.query, res.StatusCode)
		}
		got := frame.FindAllSubmatch(body, -1)
		if len(got) != c.frames || (c.frames > 0) != strings.Contains(string(body), "the input in its own place") {
			t.Errorf("%s: %d frames, legend %v; want %d", c.query, len(got), strings.Contains(string(body), "the input in its own place"), c.frames)
		}
	}
}
