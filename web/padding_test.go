package web

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/stridescope/stridescope/ops/padding1"
)

// paddingExample3 is the DML_PADDING1 page's Example 3 output, row-major.
var paddingExample3 = strings.Fields(`7 6 5 6 7 8 7 6 5 6  3 2 1 2 3 4 3 2 1 2  7 6 5 6 7 8 7 6 5 6  3 2 1 2 3 4 3 2 1 2
	7 6 5 6 7 8 7 6 5 6  3 2 1 2 3 4 3 2 1 2  7 6 5 6 7 8 7 6 5 6  3 2 1 2 3 4 3 2 1 2`)

// TestPadding1API: POST /api/v1/padding1 answers the output sizes and
// each output element's input coordinate (null: the padding value) as
// /api/v1/slice1 names them, says when the list is cut, and refuses bad
// input with every violation at its field, all at once.
func TestPadding1API(t *testing.T) {
	ts := newTestServer(t)
	cases := []struct {
		name       string
		body       string
		status     int
		sizes      []int64
		first      string // the first coordinates, as JSON
		listed     int64
		truncated  bool
		notes      []string // note fields
		wantFields []string // field: code
	}{
		{name: "Example 3, reflection past the size", body: `{"dataType":"FLOAT32","inputSizes":[1,1,4,4],"paddingMode":"REFLECTION","startPadding":[0,0,1,2],"endPadding":[0,0,3,4]}`,
			status: 200, sizes: []int64{1, 1, 8, 10}, first: `[[0,0,1,2],[0,0,1,1],[0,0,1,0]]`, listed: 80, notes: []string{"endPadding[3]"}},
		{name: "constant", body: `{"dataType":"INT8","inputSizes":[2],"paddingMode":"CONSTANT","paddingValue":-3,"startPadding":[1],"endPadding":[2]}`,
			status: 200, sizes: []int64{5}, first: `[null,[0],[1]]`, listed: 5},
		{name: "wrap, NumPy's name", body: `{"dataType":"UINT8","inputSizes":[3],"paddingMode":"wrap","startPadding":[4],"endPadding":[0]}`,
			status: 200, sizes: []int64{7}, first: `[[2],[0],[1]]`, listed: 7, notes: []string{"paddingMode", "startPadding[0]"}},
		{name: "listed up to 65,536", body: `{"dataType":"FLOAT32","inputSizes":[300,300],"paddingMode":"EDGE","startPadding":[1,1],"endPadding":[1,1]}`,
			status: 200, sizes: []int64{302, 302}, first: `[[0,0],[0,0],[0,1]]`, listed: 65536, truncated: true},
		{name: "all at once", body: `{"dataType":"INT4","featureLevel":"6_3","inputSizes":[2,0],"paddingMode":"WRAP","startPadding":[0,-1],"endPadding":[0]}`, status: 422,
			wantFields: []string{"inputSizes[1]: tensor.size.zero", "dataType: padding1.datatype.4bit", "paddingMode: padding1.mode.level", "startPadding[1]: padding1.pad.uint", "endPadding: padding1.rank.mismatch"}},
		{name: "before 5_0", body: `{"dataType":"FLOAT32","featureLevel":"4_1","inputSizes":[2],"paddingMode":"EDGE","startPadding":[1],"endPadding":[1]}`, status: 422,
			wantFields: []string{"featureLevel: padding1.level.old"}},
		{name: "a value the type cannot hold", body: `{"dataType":"UINT8","inputSizes":[2],"paddingMode":"CONSTANT","paddingValue":256,"startPadding":[1],"endPadding":[1]}`, status: 422,
			wantFields: []string{"paddingValue: padding1.value.int"}},
		{name: "no mode, no paddings", body: `{"dataType":"FLOAT32","inputSizes":[2]}`, status: 422,
			wantFields: []string{"paddingMode: padding.mode.required", "startPadding: api.required", "endPadding: api.required"}},
		{name: "an unknown mode", body: `{"dataType":"FLOAT32","inputSizes":[2],"paddingMode":"MIRROR","startPadding":[1],"endPadding":[1]}`, status: 422,
			wantFields: []string{"paddingMode: padding.mode.unknown"}},
		{name: "output sizes that are not input + start + end", body: `{"dataType":"FLOAT32","inputSizes":[2],"paddingMode":"EDGE","startPadding":[1],"endPadding":[1],"outputSizes":[5]}`, status: 422,
			wantFields: []string{"outputSizes[0]: padding1.output.size"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := post(t, ts, "/api/v1/padding1", c.body)
			if status != c.status {
				t.Fatalf("status %d, want %d: %v", status, c.status, body)
			}
			if c.status != 200 {
				var got []string
				for _, e := range body["errors"].([]any) {
					m := e.(map[string]any)
					got = append(got, m["field"].(string)+": "+m["code"].(string))
				}
				if !slices.Equal(got, c.wantFields) {
					t.Errorf("errors %v, want %v", got, c.wantFields)
				}
				return
			}
			if got := ints(body["outputSizes"]); !slices.Equal(got, c.sizes) {
				t.Errorf("outputSizes %v, want %v", got, c.sizes)
			}
			coords := body["inputCoordinates"].([]any)
			first, _ := json.Marshal(coords[:3])
			if string(first) != c.first {
				t.Errorf("first coordinates %s, want %s", first, c.first)
			}
			if int64(len(coords)) != c.listed || int64(body["listed"].(float64)) != c.listed || body["truncated"] != c.truncated {
				t.Errorf("%d coordinates, listed %v, truncated %v; want %d, %v", len(coords), body["listed"], body["truncated"], c.listed, c.truncated)
			}
			if offs := body["inputOffsets"].([]any); len(offs) != len(coords) {
				t.Errorf("%d offsets for %d coordinates", len(offs), len(coords))
			}
			var notes []string
			for _, n := range body["notes"].([]any) {
				notes = append(notes, n.(map[string]any)["field"].(string))
			}
			if !slices.Equal(notes, c.notes) {
				t.Errorf("notes at %v, want %v", notes, c.notes)
			}
			if !strings.Contains(body["cpp"].(string), "DML_PADDING1_OPERATOR_DESC paddingDesc") || !strings.Contains(body["numpy"].(string), "np.pad(") {
				t.Errorf("exports: %v %v", body["cpp"], body["numpy"])
			}
		})
	}
}

// TestPaddingPageExamples: every example of the DML_PADDING1 page, as a
// preset, prints the page's numbers in the output grid without
// JavaScript, each output cell linked to the input cell it reads or
// marked as the padding value; French words the notes.
func TestPaddingPageExamples(t *testing.T) {
	ts := newTestServer(t)
	examples := map[string][]string{
		"pad-ex1": strings.Fields(`9 9 9 9 9 9 9 9 9 9  9 9 1 2 3 4 9 9 9 9  9 9 5 6 7 8 9 9 9 9  9 9 1 2 3 4 9 9 9 9
			9 9 5 6 7 8 9 9 9 9  9 9 9 9 9 9 9 9 9 9  9 9 9 9 9 9 9 9 9 9  9 9 9 9 9 9 9 9 9 9`),
		"pad-ex2": strings.Fields(`1 1 1 2 3 4 4 4 4 4  1 1 1 2 3 4 4 4 4 4  5 5 5 6 7 8 8 8 8 8  1 1 1 2 3 4 4 4 4 4
			5 5 5 6 7 8 8 8 8 8  5 5 5 6 7 8 8 8 8 8  5 5 5 6 7 8 8 8 8 8  5 5 5 6 7 8 8 8 8 8`),
		"pad-ex3":   paddingExample3,
		"pad-pitch": paddingExample3,
		"pad-ex4": strings.Fields(`2 1 1 2 3 4 4 3 2 1  2 1 1 2 3 4 4 3 2 1  6 5 5 6 7 8 8 7 6 5  2 1 1 2 3 4 4 3 2 1
			6 5 5 6 7 8 8 7 6 5  6 5 5 6 7 8 8 7 6 5  2 1 1 2 3 4 4 3 2 1  6 5 5 6 7 8 8 7 6 5`),
	}
	for name, want := range examples {
		t.Run(name, func(t *testing.T) {
			res, err := http.Get(ts.URL + "/padding?preset=" + name + "&lang=fr")
			if err != nil {
				t.Fatal(err)
			}
			doc, err := goquery.NewDocumentFromReader(res.Body)
			res.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			doc.Find(`[data-testid=outcell]`).Each(func(i int, c *goquery.Selection) {
				got = append(got, strings.TrimSpace(c.Find(".lbl").Text()))
				link, linked := c.Attr("data-link")
				switch {
				case c.HasClass("pad") == linked:
					t.Errorf("output cell %d: pad %v, link %q", i, c.HasClass("pad"), link)
				case linked && doc.Find("#"+link).Length() != 1:
					t.Errorf("output cell %d links %q, which is not on the page", i, link)
				case linked && strings.TrimSpace(doc.Find("#"+link+" .lbl").Text()) != got[i]:
					t.Errorf("output cell %d shows %s, its input cell %s", i, got[i], doc.Find("#"+link+" .lbl").Text())
				}
			})
			if !slices.Equal(got, want) {
				t.Errorf("output\n%v\nthe page prints\n%v", got, want)
			}
			if cur := doc.Find(`a.preset[aria-current=true]`).AttrOr("data-preset", ""); cur != name {
				t.Errorf("current example %q", cur)
			}
			if name == "pad-ex3" && !strings.Contains(doc.Find(`[data-testid=note]`).Text(), "WebNN") {
				t.Errorf("Example 3 has no note on ONNX and WebNN: %q", doc.Find(`[data-testid=note]`).Text())
			}
		})
	}
}

// TestPaddingSVG: a state the page draws has an SVG picture; a larger
// one is refused with a violation, and its page says there is none.
func TestPaddingSVG(t *testing.T) {
	ts := newTestServer(t)
	res, err := http.Get(ts.URL + "/api/v1/padding1.svg?preset=pad-ex1")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "image/svg+xml") || !strings.Contains(string(b), "<svg") {
		t.Fatalf("status %d, %s: %.200s", res.StatusCode, res.Header.Get("Content-Type"), b)
	}
	res, err = http.Get(ts.URL + "/api/v1/padding1.svg?dt=FLOAT32&sizes=20,20&mode=EDGE&start=1,1&end=1,1")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != 200 {
		t.Errorf("a 22x22 output's picture: status %d, want 200 (binned)", res.StatusCode)
	}
}

// TestPaddingWebsocketEdit: an edit of "page":"padding" answers with the
// sources the page links by, the fragments, and the errors at their
// fields, keeping the last valid picture.
func TestPaddingWebsocketEdit(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	c := dial(t, ts, nil)
	edit := func(seq int64, query string) padding1.Result {
		t.Helper()
		if err := c.WriteJSON(map[string]any{"v": 2, "type": "edit", "page": "padding", "seq": seq, "query": query}); err != nil {
			t.Fatal(err)
		}
		for {
			var m map[string]any
			_, data, err := c.ReadMessage()
			if err != nil {
				t.Fatal(err)
			}
			if json.Unmarshal(data, &m) != nil || m["type"] != "result" || m["seq"] != float64(seq) {
				continue
			}
			var r padding1.Result
			if err := json.Unmarshal(data, &r); err != nil {
				t.Fatal(err)
			}
			return r
		}
	}
	r := edit(1, "dt=FLOAT32&sizes=3&mode=CONSTANT&value=7&start=1&end=2")
	if !r.OK || r.Meta == nil || !slices.Equal(r.Meta.Sources, []int64{-1, 0, 1, 2, -1, -1}) || r.HTML == nil || !strings.Contains(r.HTML.Picture, `class="lc pad"`) {
		t.Fatalf("result %+v", r)
	}
	r = edit(2, "dt=FLOAT32&sizes=3&mode=WRAP&fl=6_3&start=x&end=2&last="+r.Query)
	var fields []string
	for _, e := range r.Errors {
		fields = append(fields, e.Field)
	}
	if r.OK || !slices.Equal(fields, []string{"startPadding[0]", "paddingMode"}) || r.Last == "" || r.Meta == nil {
		t.Errorf("invalid edit: ok %v, errors at %v, last %q", r.OK, fields, r.Last)
	}
}

// TestPaddingDxDispatchModel: the padding's DxDispatch model runs
// DML_OPERATOR_PADDING1 on the page's values with the page's paddings,
// its value in the DML_SCALAR_UNION member of the type (FLOAT16 as its
// bits), and the page links it.
func TestPaddingDxDispatchModel(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct {
		query string
		want  []string
	}{
		{"preset=pad-ex1", []string{`"type": "DML_OPERATOR_PADDING1"`, `"PaddingMode": "DML_PADDING_MODE_CONSTANT"`, `"Float32": 9`,
			`"StartPadding": [0, 0, 1, 2]`, `"EndPadding": [0, 0, 3, 4]`, `"Sizes": [1, 1, 8, 10]`, `"initialValues": [1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8]`}},
		{"preset=pad-ex1&dt=FLOAT16", []string{`"UInt16": 18560`, `"PaddingValueDataType": "FLOAT16"`}},
		{"preset=pad-pitch", []string{`"Strides": [24, 24, 6, 1]`, `"PaddingMode": "DML_PADDING_MODE_REFLECTION"`}},
	} {
		res, err := http.Get(ts.URL + "/api/v1/dxdispatch/padding.json?" + c.query)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d %s", c.query, res.StatusCode, b)
		}
		for _, want := range c.want {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s: the model lacks %s:\n%s", c.query, want, b)
			}
		}
	}
	res, err := http.Get(ts.URL + "/padding?preset=pad-ex1")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	if href := doc.Find("[data-testid=dx-download]").AttrOr("href", ""); !strings.HasPrefix(href, "/api/v1/dxdispatch/padding.json?") {
		t.Errorf("the page's model link %q", href)
	}
}

// TestPadding1APIONNX: the API gives the ONNX Pad node, pads in ONNX's
// order (every start, then every end), with its model file; no model
// where ONNX Runtime computes another map (REFLECTION or WRAP padding
// the size or more), and no node for SYMMETRIC.
func TestPadding1APIONNX(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct {
		mode, start, end, node string
		model                  bool
	}{
		{"REFLECTION", "[0,1]", "[1,2]", `"mode":"reflect","opset":13,"pads":[0,1,1,2]`, true},
		{"CONSTANT", "[0,1]", "[1,2]", `"constantValue":0,"mode":"constant","opset":13,"pads":[0,1,1,2]`, true},
		{"WRAP", "[0,1]", "[1,2]", `"mode":"wrap","opset":19,"pads":[0,1,1,2]`, true},
		{"REFLECTION", "[0,3]", "[1,2]", `"mode":"reflect","opset":13,"pads":[0,3,1,2]`, false},
		{"WRAP", "[0,1]", "[2,2]", `"mode":"wrap","opset":19,"pads":[0,1,2,2]`, false},
		{"SYMMETRIC", "[0,1]", "[1,2]", "", false},
	} {
		_, body := post(t, ts, "/api/v1/padding1", `{"dataType":"FLOAT32","inputSizes":[2,3],"paddingMode":"`+c.mode+`","startPadding":`+c.start+`,"endPadding":`+c.end+`}`)
		o, ok := body["onnx"].(map[string]any)
		if ok != (c.node != "") {
			t.Errorf("%s %s %s: onnx %v", c.mode, c.start, c.end, body["onnx"])
			continue
		}
		if !ok {
			continue
		}
		model, hasModel := o["model"].(string)
		delete(o, "model")
		b, _ := json.Marshal(o)
		if string(b) != "{"+c.node+"}" || hasModel != c.model {
			t.Errorf("%s %s %s: onnx %s, a model %v", c.mode, c.start, c.end, b, hasModel)
		}
		if raw, err := base64.StdEncoding.DecodeString(model); hasModel && (err != nil || !bytes.Contains(raw, []byte("Pad"))) {
			t.Errorf("%s: model %.40q: %v", c.mode, model, err)
		}
	}
}

// TestPaddingAndTilePagesOfferTheONNXModel: each page whose operator has
// an ONNX model links it for download, the bytes the API answers (the
// interop tests run them in onnxruntime-node); Example 3 (REFLECTION by
// the size) and SYMMETRIC offer none.
func TestPaddingAndTilePagesOfferTheONNXModel(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct {
		page, api, body, file, op string
	}{
		{"/padding?preset=pad-ex1", "/api/v1/padding1", `{"dataType":"FLOAT32","inputSizes":[1,1,4,4],"paddingMode":"CONSTANT","paddingValue":9,"startPadding":[0,0,1,2],"endPadding":[0,0,3,4]}`, "stridescope-padding.onnx", "Pad"},
		{"/padding?preset=pad-ex2", "/api/v1/padding1", `{"dataType":"FLOAT32","inputSizes":[1,1,4,4],"paddingMode":"EDGE","startPadding":[0,0,1,2],"endPadding":[0,0,3,4]}`, "stridescope-padding.onnx", "Pad"},
		{"/tile?preset=tile-ex", "/api/v1/tile", `{"dataType":"FLOAT32","inputSizes":[1,1,2,3],"repeats":[1,1,3,3]}`, "stridescope-tile.onnx", "Tile"},
		{"/padding?preset=pad-ex3", "", "", "", ""},
		{"/padding?preset=pad-ex4", "", "", "", ""},
	} {
		_, d := page(t, c.page)
		a := d.Find(tid("onnx-model"))
		if a.Length() != map[bool]int{true: 1, false: 0}[c.file != ""] {
			t.Errorf("%s: %d model links", c.page, a.Length())
			continue
		}
		if c.file == "" {
			continue
		}
		href, _ := a.Attr("href")
		b64, ok := strings.CutPrefix(href, "data:application/octet-stream;base64,")
		if name, _ := a.Attr("download"); !ok || name != c.file {
			t.Errorf("%s: link %.60q download %q", c.page, href, name)
		}
		model, err := base64.StdEncoding.DecodeString(b64)
		if err != nil || !bytes.Contains(model, []byte(c.op)) {
			t.Fatalf("%s: %v %x", c.page, err, model)
		}
		_, body := post(t, ts, c.api, c.body)
		if o, _ := body["onnx"].(map[string]any); o["model"] != b64 || o["opset"] != float64(13) {
			t.Errorf("%s: the page's model is not the API's %v", c.page, o)
		}
	}
}

// TestPaddingAndTileModelsRoundTrip: the DxDispatch model each page
// exports, pasted into the import, opens the same state (a FLOAT16
// padding value read back from its bits); a model that breaks rules is
// refused with each at its field.
func TestPaddingAndTileModelsRoundTrip(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct{ model, want string }{
		{"/api/v1/dxdispatch/padding.json?preset=pad-ex1&dt=FLOAT16", "/padding?dt=FLOAT16&sizes=1,1,4,4&mode=CONSTANT&value=9&start=0,0,1,2&end=0,0,3,4"},
		{"/api/v1/dxdispatch/padding.json?preset=pad-pitch", "/padding?dt=FLOAT32&sizes=1,1,4,4&strides=24,24,6,1&mode=REFLECTION&start=0,0,1,2&end=0,0,3,4"},
		{"/api/v1/dxdispatch/tile.json?preset=tile-ex", "/tile?dt=FLOAT32&sizes=1,1,2,3&repeats=1,1,3,3"},
	} {
		res, err := http.Get(ts.URL + c.model)
		if err != nil {
			t.Fatal(err)
		}
		model, _ := io.ReadAll(res.Body)
		res.Body.Close()
		status, body := post(t, ts, "/api/v1/import", `{"dxdispatch":`+string(model)+`}`)
		if status != 200 || body["url"] != c.want {
			t.Errorf("%s: import %d %v, want %s", c.model, status, body["url"], c.want)
		}
	}
	status, body := post(t, ts, "/api/v1/import", `{"dxdispatch":{"dispatchables":{"p":{"type":"DML_OPERATOR_PADDING1","desc":{
		"InputTensor":{"DataType":"UINT8","Sizes":[2]},"OutputTensor":{"DataType":"UINT8","Sizes":[6]},
		"PaddingMode":"DML_PADDING_MODE_CONSTANT","PaddingValueDataType":"UINT8","ValueDataType":"UINT8","PaddingValue":{"UInt8":300},
		"DimensionCount":1,"StartPadding":[1],"EndPadding":[2]}}},"commands":[]}}`)
	// Both faults at once, each at its field in the model.
	got := strings.Join(errorFields(body), "\n")
	if status != 400 || !strings.Contains(got, "dxdispatch.dispatchables.p.desc.PaddingValue: ") || !strings.Contains(got, "dxdispatch.dispatchables.p.desc.OutputTensor.Sizes[0]: ") {
		t.Errorf("a value UINT8 cannot hold and a wrong output size: %d %v", status, got)
	}
}
