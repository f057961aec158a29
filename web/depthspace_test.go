package web

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/gorilla/websocket"
)

// TestDepthSpaceAPI: POST /api/v1/depthtospace1 and /api/v1/spacetodepth1
// answer the output sizes and, for each output element, the input
// coordinate it reads (the pages' examples), and refuse bad input with
// every violation at its field, all at once.
func TestDepthSpaceAPI(t *testing.T) {
	ts := newTestServer(t)
	cases := []struct {
		name, path, body string
		status           int
		outSizes         []int64
		first            [][]int64 // the first input coordinates
		offsets          []int64   // the first input offsets
		wantFields       []string
	}{
		{name: "depth-to-space DCR, the page's Example 1", path: "/api/v1/depthtospace1",
			body: `{"dataType":"UINT32","inputSizes":[1,8,2,3],"blockSize":2,"order":"DEPTH_COLUMN_ROW"}`, status: 200,
			outSizes: []int64{1, 2, 4, 6}, first: [][]int64{{0, 0, 0, 0}, {0, 2, 0, 0}, {0, 0, 0, 1}, {0, 2, 0, 1}}, offsets: []int64{0, 12, 1, 13}},
		{name: "depth-to-space CRD, the page's Example 2", path: "/api/v1/depthtospace1",
			body: `{"dataType":"UINT32","inputSizes":[1,8,2,3],"blockSize":2,"order":"DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH"}`, status: 200,
			outSizes: []int64{1, 2, 4, 6}, first: [][]int64{{0, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 0, 1}, {0, 1, 0, 1}}, offsets: []int64{0, 6, 1, 7}},
		{name: "space-to-depth, the page's examples' shape", path: "/api/v1/spacetodepth1",
			body: `{"dataType":"UINT32","inputSizes":[1,2,4,6],"blockSize":2,"order":"DEPTH_COLUMN_ROW"}`, status: 200,
			outSizes: []int64{1, 8, 2, 3}, first: [][]int64{{0, 0, 0, 0}, {0, 0, 0, 2}}, offsets: []int64{0, 2}},
		{name: "an NHWC input reads its own offsets", path: "/api/v1/depthtospace1",
			body: `{"dataType":"FLOAT16","inputSizes":[1,4,1,1],"inputStrides":[4,1,4,4],"blockSize":2,"order":"COLUMN_ROW_DEPTH"}`, status: 200,
			outSizes: []int64{1, 1, 2, 2}, first: [][]int64{{0, 0, 0, 0}, {0, 1, 0, 0}}, offsets: []int64{0, 1, 2, 3}},
		{name: "channels the block does not divide", path: "/api/v1/depthtospace1",
			body: `{"dataType":"FLOAT32","inputSizes":[1,6,2,3],"blockSize":2,"order":"DEPTH_COLUMN_ROW"}`, status: 422,
			wantFields: []string{"inputSizes[1]: depthspace.channels.divisible"}},
		{name: "all at once", path: "/api/v1/spacetodepth1",
			body: `{"dataType":"INT64","featureLevel":"4_1","inputSizes":[1,1,3,5],"blockSize":2,"order":"DCR"}`, status: 422,
			wantFields: []string{"order: depthspace.order.name", "dataType: depthspace.datatype.level64", "inputSizes[2]: depthspace.height.divisible", "inputSizes[3]: depthspace.width.divisible"}},
		{name: "no block, no sizes", path: "/api/v1/depthtospace1", body: `{"dataType":"FLOAT32","order":"DEPTH_COLUMN_ROW"}`, status: 422,
			wantFields: []string{"blockSize: depthspace.block.required", "inputSizes: api.required"}},
		{name: "five dimensions and block 0", path: "/api/v1/depthtospace1",
			body: `{"dataType":"FLOAT32","inputSizes":[1,4,1,1,1],"blockSize":0,"order":"DEPTH_COLUMN_ROW"}`, status: 422,
			wantFields: []string{"blockSize: depthspace.block.min", "inputSizes: depthspace.rank"}},
		{name: "before 2_1", path: "/api/v1/spacetodepth1",
			body: `{"dataType":"FLOAT32","featureLevel":"2_0","inputSizes":[1,1,2,2],"blockSize":2,"order":"DEPTH_COLUMN_ROW"}`, status: 422,
			wantFields: []string{"featureLevel: depthspace.level.old"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := post(t, ts, c.path, c.body)
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
			if got := ints(body["outputSizes"]); !slices.Equal(got, c.outSizes) {
				t.Errorf("outputSizes %v, want %v", got, c.outSizes)
			}
			coords := body["inputCoordinates"].([]any)
			for i, w := range c.first {
				if got := ints(coords[i]); !slices.Equal(got, w) {
					t.Errorf("inputCoordinates[%d] %v, want %v", i, got, w)
				}
			}
			if got := ints(body["inputOffsets"]); !slices.Equal(got[:len(c.offsets)], c.offsets) {
				t.Errorf("inputOffsets %v, want %v first", got, c.offsets)
			}
			if m, _ := body["onnxModel"].(string); m == "" {
				t.Error("no ONNX model")
			}
			if !strings.Contains(body["cpp"].(string), "desc.BlockSize = ") || !strings.Contains(body["numpy"].(string), ".transpose(") {
				t.Errorf("exports: %v %v", body["cpp"], body["numpy"])
			}
		})
	}
}

// TestDepthSpacePageWithoutJavaScript: /depthspace draws the
// DEPTH_TO_SPACE1 page's input and both orders' outputs on the server
// with the page's own numbers, links every output cell to the input
// element it reads, and shows a bad state's errors at their fields, in
// the reader's language.
func TestDepthSpacePageWithoutJavaScript(t *testing.T) {
	ts := newTestServer(t)
	get := func(q string) (string, func(string) string, func(string) string) {
		res, doc := getPage(t, ts.URL+"/depthspace"+q, nil)
		if res.StatusCode != 200 {
			t.Fatalf("%s: status %d", q, res.StatusCode)
		}
		text := func(sel string) string { return strings.TrimSpace(doc.Find(sel).Text()) }
		attr := func(sel string) string { v, _ := doc.Find(sel).Attr("data-link"); return v }
		var labels []string
		doc.Find("[id^=dcr-]").Each(func(_ int, s *goquery.Selection) { labels = append(labels, s.Children().First().Text()) })
		return strings.Join(labels, ","), text, attr
	}
	dcr, text, link := get("?preset=d2s-page")
	// The page's Example 1 output, row-major.
	if want := "0,18,1,19,2,20,36,54,37,55,38,56,3,21,4,22,5,23,39,57,40,58,41,59,9,27,10,28,11,29,45,63,46,64,47,65,12,30,13,31,14,32,48,66,49,67,50,68"; dcr != want {
		t.Errorf("DCR output %s\nwant the page's %s", dcr, want)
	}
	if l := link("#dcr-1"); l != "in-12" {
		t.Errorf("DCR output cell 1 links %q, want in-12 (channel 2)", l)
	}
	if l := link("#crd-1"); l != "in-6" {
		t.Errorf("CRD output cell 1 links %q, want in-6 (channel 1)", l)
	}
	if s := text("[data-testid=formula-CRD]"); s != "Output[n, c, h·b + y, w·b + x] = Input[n, c·b² + y·b + x, h, w]" {
		t.Errorf("CRD formula %q", s)
	}
	if s := text("[data-testid=onnx-DCR]"); s != `DepthToSpace(blocksize=2, mode="DCR")` {
		t.Errorf("ONNX %q", s)
	}
	_, text, _ = get("?preset=s2d-page2")
	if !strings.Contains(text("[data-testid=erratum]"), "OutputTensor") || !strings.Contains(text("[data-testid=onnx-CRD]"), "CRD") {
		t.Errorf("space-to-depth: erratum %q, ONNX CRD %q", text("[data-testid=erratum]"), text("[data-testid=onnx-CRD]"))
	}
	_, text, _ = get("?op=d2s&dt=FLOAT32&sizes=1,6,2,3&imode=packed&block=2")
	if text("[id='err-inputSizes[1]']") == "" {
		t.Error("no error at the channels")
	}
	_, text, _ = get("?op=s2d&dt=FLOAT32&sizes=1,1,3,5&imode=packed&block=x&lang=fr")
	if s := text("[id='err-blockSize']"); !strings.Contains(s, "taille de bloc") {
		t.Errorf("fr block error %q", s)
	}
}

// TestDepthSpaceWebsocketEdit: an edit of "page": "depthspace" is
// answered with the picture's fragment and, for each output element in
// each order, the input element it reads; a bad edit keeps the last
// valid picture and names the field.
func TestDepthSpaceWebsocketEdit(t *testing.T) {
	ts := newTestServer(t)
	c := dial(t, ts, nil)
	edit := func(seq int64, q string) map[string]any {
		if err := c.WriteJSON(map[string]any{"v": 2, "type": "edit", "page": "depthspace", "seq": seq, "query": q}); err != nil {
			t.Fatal(err)
		}
		for {
			_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
			typ, data, err := c.ReadMessage()
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if typ != websocket.TextMessage || json.Unmarshal(data, &m) != nil {
				continue
			}
			if s, _ := m["seq"].(float64); int64(s) == seq && m["type"] == "result" {
				return m
			}
		}
	}
	m := edit(1, "op=s2d&dt=UINT8&sizes=1,1,2,2&imode=packed&block=2")
	meta := m["meta"].(map[string]any)
	if m["ok"] != true || !slices.Equal(ints(meta["outSizes"]), []int64{1, 4, 1, 1}) || !slices.Equal(ints(meta["dcr"]), []int64{0, 1, 2, 3}) {
		t.Fatalf("result %v", m)
	}
	if h := m["html"].(map[string]any)["picture"].(string); !strings.Contains(h, `id="crd-3"`) {
		t.Errorf("no CRD grid in the fragment")
	}
	bad := edit(2, "op=s2d&dt=UINT8&sizes=1,1,3,2&imode=packed&block=2&last="+url.QueryEscape("op=s2d&dt=UINT8&sizes=1,1,2,2&imode=packed&block=2"))
	errs := bad["errors"].([]any)
	if bad["ok"] != false || len(errs) != 1 || errs[0].(map[string]any)["field"] != "inputSizes[2]" || bad["last"] == nil {
		t.Errorf("bad edit %v", bad)
	}
}

// TestDepthSpaceSVG: the picture draws the three grids, and a state
// past the cells a page draws is refused, saying so.
func TestDepthSpaceSVG(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct {
		q      string
		status int
		want   string
	}{
		{"preset=d2s-page", 200, "DML_DEPTH_TO_SPACE1 of a UINT32 input"},
		{"op=d2s&dt=FLOAT32&sizes=1,4,16,16&imode=packed&block=2", 200, "drawn in squares"},
	} {
		res, err := http.Get(ts.URL + "/api/v1/depthspace.svg?" + c.q)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != c.status || !strings.Contains(string(b), c.want) {
			t.Errorf("%s: %d, want %d with %q:\n%.400s", c.q, res.StatusCode, c.status, c.want, b)
		}
	}
}

// TestDepthSpaceDxDispatchModel: the model runs the operator in both
// orders on the input the page shows (the page's values) and prints
// both outputs; a strided input lists its cells, padding 0.
func TestDepthSpaceDxDispatchModel(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct {
		q    string
		want []string
	}{
		{"preset=d2s-page", []string{`"type": "DML_OPERATOR_DEPTH_TO_SPACE1"`, `"Order": "DML_DEPTH_SPACE_ORDER_COLUMN_ROW_DEPTH"`, `"BlockSize": 2`,
			`"initialValues": [0, 1, 2, 3, 4, 5, 9, 10,`, `"Sizes": [1, 2, 4, 6]`, `"resource": "outputCRD"`}},
		{"op=s2d&dt=UINT8&sizes=1,1,2,2&imode=explicit&istrides=8,8,3,1&block=2", []string{`"type": "DML_OPERATOR_SPACE_TO_DEPTH1"`,
			`"initialValues": [0, 1, 0, 2, 3, 0, 0, 0]`, `"Strides": [8, 8, 3, 1]`}},
		{"op=d2s&dt=FLOAT32&sizes=1,4,2,2&imode=packed&block=2", []string{`"valueStart": 0`}},
	} {
		res, err := http.Get(ts.URL + "/api/v1/dxdispatch/depthspace.json?" + c.q)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("%s: %d %s", c.q, res.StatusCode, b)
		}
		flat := strings.Join(strings.Fields(string(b)), " ")
		for _, w := range c.want {
			if !strings.Contains(flat, strings.Join(strings.Fields(w), " ")) {
				t.Errorf("%s: the model lacks %s:\n%s", c.q, w, b)
			}
		}
	}
}

// TestDepthSpaceRoom: "Present this" on the depth-space page opens a
// room there, as on every explorer (the pipeline's, with no edit of
// its own).
func TestDepthSpaceRoom(t *testing.T) {
	ts := newTestServer(t)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	form := url.Values{"page": {"depthspace"}, "query": {"preset=s2d-page1"}}
	req, _ := http.NewRequest("POST", ts.URL+"/rooms", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", ts.URL)
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/depthspace?preset=s2d-page1&room=") {
		t.Errorf("%d to %q, want 303 to the depth-space page in a room", res.StatusCode, loc)
	}
}

// TestDepthSpaceImportReadsItsModel: the DxDispatch model the page
// exports, given to /api/v1/import, opens the page on the same state;
// a model breaking the operator's rules is refused at the model's
// fields.
func TestDepthSpaceImportReadsItsModel(t *testing.T) {
	ts := newTestServer(t)
	for _, q := range []string{"op=d2s&dt=UINT32&sizes=1,8,2,3&imode=packed&block=2", "op=s2d&dt=UINT8&sizes=1,1,2,2&imode=explicit&istrides=8,8,3,1&block=2"} {
		res, err := http.Get(ts.URL + "/api/v1/dxdispatch/depthspace.json?" + q)
		if err != nil {
			t.Fatal(err)
		}
		model, _ := io.ReadAll(res.Body)
		res.Body.Close()
		status, body := post(t, ts, "/api/v1/import", `{"dxdispatch":`+string(model)+`}`)
		if status != 200 || body["page"] != "depthspace" || body["url"] != "/depthspace?"+q {
			t.Errorf("%s: %d %v", q, status, body)
		}
	}
	bad := `{"dxdispatch":{"resources":{},"dispatchables":{"d":{"type":"DML_OPERATOR_DEPTH_TO_SPACE1","desc":{"InputTensor":{"DataType":"FLOAT32","Sizes":[1,6,2,2]},"OutputTensor":{"DataType":"FLOAT32","Sizes":[1,1,4,4]},"BlockSize":2,"Order":"CRD"}}},"commands":[]}}`
	status, body := post(t, ts, "/api/v1/import", bad)
	var got []string
	for _, e := range body["errors"].([]any) {
		got = append(got, e.(map[string]any)["field"].(string))
	}
	if want := []string{"dxdispatch.dispatchables.d.desc.Order", "dxdispatch.dispatchables.d.desc.InputTensor.Sizes[1]"}; status != 400 || !slices.Equal(got, want) {
		t.Errorf("%d errors at %v, want %v", status, got, want)
	}
	// The SPACE_TO_DEPTH1 page's OutputTensor text, taken at its word:
	// the output it states is refused, with the one the examples give.
	wrong := `{"dxdispatch":{"resources":{},"dispatchables":{"d":{"type":"DML_OPERATOR_SPACE_TO_DEPTH1","desc":{"InputTensor":{"DataType":"UINT32","Sizes":[1,4,2,2]},"OutputTensor":{"DataType":"UINT32","Sizes":[1,1,4,4]},"BlockSize":2,"Order":"DEPTH_COLUMN_ROW"}}},"commands":[]}}`
	status, body = post(t, ts, "/api/v1/import", wrong)
	if errs, _ := body["errors"].([]any); status != 400 || len(errs) != 1 || !strings.Contains(errs[0].(map[string]any)["message"].(string), "{1,16,1,1}") {
		t.Errorf("the page's stated output shape: %d %v", status, body)
	}
}
