package web

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestIdentityAPI: POST /api/v1/identity answers each element's offsets
// on both sides, the runs and the exports, and refuses bad input with
// every violation at its field, all at once, as the other endpoints do.
func TestIdentityAPI(t *testing.T) {
	ts := newTestServer(t)
	cases := []struct {
		name       string
		body       string
		status     int
		in, out    []int64
		access     [4]int64 // input runs, run length, output runs, run length
		scattered  string
		wantFields []string // field: code
	}{
		{name: "NCHW to NHWC", body: `{"dataType":"FLOAT32","sizes":[1,3,1,5],"outputStrides":[15,1,15,3]}`, status: 200,
			in: []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}, out: []int64{0, 3, 6, 9, 12, 1, 4, 7, 10, 13, 2, 5, 8, 11, 14},
			access: [4]int64{1, 15, 15, 1}, scattered: "output"},
		{name: "broadcast input materialised", body: `{"dataType":"UINT8","sizes":[2,3],"inputStrides":[0,1]}`, status: 200,
			in: []int64{0, 1, 2, 0, 1, 2}, out: []int64{0, 1, 2, 3, 4, 5}, access: [4]int64{2, 3, 1, 6}, scattered: "input"},
		{name: "output broadcast", body: `{"dataType":"FLOAT32","sizes":[3,4],"outputStrides":[0,1]}`, status: 422,
			wantFields: []string{"outputStrides[0]: identity.output.broadcast"}},
		{name: "mismatched ranks", body: `{"dataType":"FLOAT32","sizes":[2,3],"inputStrides":[3,1,1],"outputStrides":[1]}`, status: 422,
			wantFields: []string{"inputStrides: tensor.strides.count", "outputStrides: tensor.strides.count"}},
		{name: "nine dimensions", body: `{"dataType":"FLOAT32","sizes":[1,1,1,1,1,1,1,1,2]}`, status: 422,
			wantFields: []string{"sizes: tensor.rank.max"}},
		{name: "a total too small", body: `{"dataType":"FLOAT32","sizes":[2,3],"outputTotalTensorSizeInBytes":8}`, status: 422,
			wantFields: []string{"outputTotalTensorSizeInBytes: tensor.total.small"}},
		{name: "all at once", body: `{"dataType":"FLOAT32","sizes":[3,4],"inputStrides":[4,1,1],"outputStrides":[0,1],"outputTotalTensorSizeInBytes":8,"inputGuaranteedBaseOffsetAlignment":3,"scaleBias":{"scale":2}}`, status: 422,
			wantFields: []string{"scaleBias.bias: convert.scalebias.required", "inputStrides: tensor.strides.count", "inputGuaranteedBaseOffsetAlignment: tensor.alignment.pow2",
				"outputTotalTensorSizeInBytes: tensor.total.small", "outputStrides[0]: identity.output.broadcast"}},
		{name: "no sizes", body: `{"dataType":"FLOAT32"}`, status: 422, wantFields: []string{"sizes: api.required"}},
		{name: "a 4-bit type", body: `{"dataType":"UINT4","sizes":[4]}`, status: 422, wantFields: []string{"dataType: identity.datatype.4bit"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := post(t, ts, "/api/v1/identity", c.body)
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
			if got := ints(body["inputOffsets"]); !slices.Equal(got, c.in) {
				t.Errorf("inputOffsets %v, want %v", got, c.in)
			}
			if got := ints(body["outputOffsets"]); !slices.Equal(got, c.out) {
				t.Errorf("outputOffsets %v, want %v", got, c.out)
			}
			in, out := body["input"].(map[string]any), body["output"].(map[string]any)
			got := [4]int64{int64(in["runs"].(float64)), int64(in["runLength"].(float64)), int64(out["runs"].(float64)), int64(out["runLength"].(float64))}
			if got != c.access || body["scattered"] != c.scattered {
				t.Errorf("runs %v scattered %v, want %v %v", got, body["scattered"], c.access, c.scattered)
			}
			if !strings.Contains(body["cpp"].(string), "DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC identityDesc") || !strings.Contains(body["numpy"].(string), "import numpy as np") {
				t.Errorf("exports: %v %v", body["cpp"], body["numpy"])
			}
		})
	}
}

// TestIdentityAPIDescribesTheLargestTensor: 2^32-1 elements are
// described without a list of offsets and without visiting them.
func TestIdentityAPIDescribesTheLargestTensor(t *testing.T) {
	ts := newTestServer(t)
	status, body := post(t, ts, "/api/v1/identity", `{"dataType":"UINT8","sizes":[65535,65537],"outputStrides":[1,65535]}`)
	if status != 200 {
		t.Fatalf("status %d: %v", status, body)
	}
	if body["elementCount"].(float64) != 1<<32-1 || body["inputOffsets"] != nil {
		t.Errorf("count %v, offsets listed: %v", body["elementCount"], body["inputOffsets"] != nil)
	}
	if ip := body["inPlace"].(map[string]any); ip["known"] != false {
		t.Errorf("in place %v", ip)
	}
	if o := body["onnx"].(map[string]any); o["op"] != "Transpose" {
		t.Errorf("onnx %v", o)
	}
}

// TestConvertPageWithoutJavaScript: /convert draws the NHWC to NCHW
// example on the server, links each output cell to its input cell, says
// the access pattern, and shows a bad state's errors at their fields.
func TestConvertPageWithoutJavaScript(t *testing.T) {
	ts := newTestServer(t)
	get := func(q string) *goquery.Document {
		res, err := http.Get(ts.URL + "/convert" + q)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		if res.StatusCode != 200 {
			b, _ := io.ReadAll(res.Body)
			t.Fatalf("%s: %d %s", q, res.StatusCode, b)
		}
		doc, err := goquery.NewDocumentFromReader(res.Body)
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	doc := get("?preset=nhwc-nchw")
	if n := doc.Find("[data-testid=lgcell]").Length(); n != 24 {
		t.Errorf("%d logical cells, want 24", n)
	}
	// Output cell 1 holds element (0,0,0,1), read from NHWC offset 3.
	if l, _ := doc.Find("#ob-1").Attr("data-link"); l != "ib-3" {
		t.Errorf("output cell 1 links %q, want ib-3", l)
	}
	if l, _ := doc.Find("#ib-3").Attr("data-link"); l != "ob-1" {
		t.Errorf("input cell 3 links %q, want ob-1", l)
	}
	if a := doc.Find("[data-testid=access]").Text(); a != "Reads 24 runs of 1 element, writes 1 run of 24 elements." {
		t.Errorf("access %q", a)
	}
	if s := doc.Find("[data-testid=scattered]").Text(); !strings.Contains(s, "input side is scattered") {
		t.Errorf("scattered %q", s)
	}
	if doc.Find("[data-testid=nav-operators][aria-current=page]").Length() != 1 {
		t.Error("the header's operators link is not the current page's")
	}
	if doc.Find("script#answer").Length() != 1 {
		t.Error("no embedded answer")
	}
	if s := get("?preset=reshape").Find("[data-testid=nocopy]").Text(); !strings.Contains(s, "No copy is needed") {
		t.Errorf("reshape: %q", s)
	}
	bad := get("?dt=FLOAT32&sizes=3,4&imode=packed&omode=explicit&ostrides=0,1&ototal=8")
	for _, f := range []string{"outputStrides[0]", "outputTotalTensorSizeInBytes"} {
		if strings.TrimSpace(bad.Find("[id='err-"+f+"']").Text()) == "" {
			t.Errorf("no error at %s", f)
		}
	}
	if fr := get("?preset=nhwc-nchw&lang=fr").Find("[data-testid=access]").Text(); fr != "Lit 24 plages de 1 élément, écrit 1 plage de 24 éléments." {
		t.Errorf("fr access %q", fr)
	}
}

// TestConvertDxDispatchModel: the conversion's DxDispatch model runs
// DML_OPERATOR_ELEMENT_WISE_IDENTITY with both descriptions as the page
// states them.
func TestConvertDxDispatchModel(t *testing.T) {
	ts := newTestServer(t)
	res, err := http.Get(ts.URL + "/api/v1/dxdispatch/convert.json?preset=nhwc-nchw")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != 200 {
		t.Fatalf("%d %s", res.StatusCode, b)
	}
	for _, want := range []string{`"type": "DML_OPERATOR_ELEMENT_WISE_IDENTITY"`, `"Strides": [24, 1, 12, 3]`, `"Sizes": [1, 3, 2, 4]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("the model lacks %s:\n%s", want, b)
		}
	}
}

// TestConvertCanvasPage: past 256 cells a view the conversion's page has
// a canvas for each view, which a page without JavaScript replaces by
// the SVG picture of the state (shown once, the other canvases pointing
// to it), and it embeds its own answer: the meta gives the sizes and
// both sides' strides, no list of offsets, and no frames are announced.
// Past 2^24 cells a buffer is not drawn and says so.
func TestConvertCanvasPage(t *testing.T) {
	ts := newTestServer(t)
	const q = "dt=FLOAT32&sizes=64,64&imode=packed&omode=explicit&ostrides=1,64"
	res, doc := getPage(t, ts.URL+"/convert?"+q, nil)
	if res.StatusCode != 200 {
		t.Fatalf("status %d", res.StatusCode)
	}
	for _, id := range []string{"convert-lg-canvas", "convert-ib-canvas", "convert-ob-canvas"} {
		if doc.Find("canvas#"+id).Length() != 1 {
			t.Errorf("no canvas #%s", id)
		}
	}
	ns := doc.Find("noscript").Text()
	if !strings.Contains(ns, "/api/v1/identity.svg?"+strings.ReplaceAll(q, "&", "&amp;")) || doc.Find("[data-testid=copy-order-legend]").Length() != 0 || doc.Find("[data-testid=convert-canvas-legend]").Length() != 1 {
		t.Errorf("noscript %q; the canvases' legend missing or the badges' legend shown", ns)
	}
	var answer struct {
		Stream *struct{} `json:"stream"`
		Meta   struct {
			Count                              int64
			Sizes, InStrides, OutStrides       []int64
			InCells, OutCells                  int64
			LogicalMode, InputMode, OutputMode string
			InOffsets                          []int64
		}
	}
	if err := json.Unmarshal([]byte(doc.Find("script#answer").Text()), &answer); err != nil {
		t.Fatalf("the embedded answer: %v", err)
	}
	m := answer.Meta
	if answer.Stream != nil || m.Count != 4096 || m.LogicalMode != "canvas" || m.InputMode != "canvas" || m.OutputMode != "canvas" ||
		m.InOffsets != nil || fmt.Sprint(m.InStrides, m.OutStrides) != "[64 1] [1 64]" || m.InCells != 4096 || m.OutCells != 4096 {
		t.Errorf("meta %+v, stream %v", m, answer.Stream)
	}
	_, big := getPage(t, ts.URL+"/convert?dt=FLOAT32&sizes=2,3&imode=packed&omode=packed&ototal=134217728", nil)
	if big.Find("#convert-ob-canvas").Length() != 0 || !strings.Contains(big.Find("[data-testid=output-buffer] .too-large").Text(), "16\u202f777\u202f216") {
		t.Errorf("a 2^25-cell output buffer: %q", big.Find("[data-testid=output-buffer]").Text())
	}
}

// TestConvertOffersTheONNXModel: a conversion that is a Transpose offers
// its one-node ONNX model for download, the same bytes core builds and
// the API answers (interop's tests run them in onnxruntime-node); one
// that is not (an NHWC input, a ScaleBias) offers none.
func TestConvertOffersTheONNXModel(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct {
		query, api string
		want       bool
	}{
		{"preset=nchw-nhwc", `{"dataType":"FLOAT32","sizes":[1,3,2,4],"outputStrides":[24,1,12,3]}`, true},
		{"preset=transpose", `{"dataType":"FLOAT32","sizes":[3,5],"outputStrides":[1,3]}`, true},
		{"preset=nhwc-nchw", "", false},
		{"preset=scalebias", "", false},
	} {
		_, d := page(t, "/convert?"+c.query)
		a := d.Find(tid("onnx-model"))
		if got := a.Length() == 1; got != c.want {
			t.Errorf("%s: a model link %v", c.query, got)
			continue
		}
		if !c.want {
			continue
		}
		href, _ := a.Attr("href")
		b64, ok := strings.CutPrefix(href, "data:application/octet-stream;base64,")
		if name, _ := a.Attr("download"); !ok || name != "stridescope-convert.onnx" {
			t.Errorf("%s: link %.60q download %q", c.query, href, name)
		}
		model, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			t.Fatalf("%s: %v", c.query, err)
		}
		// The API's answer for the same conversion holds the same model.
		res, body := do(t, ts, "POST", "/api/v1/identity", c.api)
		var resp struct {
			ONNX struct {
				Perm  []int  `json:"perm"`
				Opset int    `json:"opset"`
				Model string `json:"model"`
			} `json:"onnx"`
		}
		if err := json.Unmarshal([]byte(body), &resp); err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %v %s", c.api, res.StatusCode, err, body)
		}
		if resp.ONNX.Model != b64 || resp.ONNX.Opset != 13 || len(model) < 100 || !bytes.Contains(model, []byte("Transpose")) {
			t.Errorf("%s: the page's model (%d bytes) is not the API's %+v", c.query, len(model), resp.ONNX)
		}
	}
}
