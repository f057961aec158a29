package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/PuerkitoBio/goquery"
	"github.com/gorilla/websocket"
)

func violationFields(body map[string]any) []string {
	var got []string
	for _, e := range body["errors"].([]any) {
		m := e.(map[string]any)
		got = append(got, m["field"].(string)+": "+m["code"].(string))
	}
	return got
}

// TestJoinAPI: POST /api/v1/join answers the output's sizes, each
// input's window and every output element's input and coordinate, and
// refuses bad input with every violation at its field, all at once.
func TestJoinAPI(t *testing.T) {
	ts := newTestServer(t)
	cases := []struct {
		name    string
		body    string
		status  int
		sizes   []int64
		sources string // input:coordinate, comma separated, the first four
		fields  []string
	}{
		{name: "page example 1", body: `{"dataType":"FLOAT32","inputs":[{"sizes":[1,1,2,3]},{"sizes":[1,1,2,4]}],"axis":3}`, status: 200,
			sizes: []int64{1, 1, 2, 7}, sources: "0:[0 0 0 0],0:[0 0 0 1],0:[0 0 0 2],1:[0 0 0 0]"},
		{name: "strided inputs", body: `{"dataType":"UINT8","inputs":[{"sizes":[2,3],"strides":[4,1]},{"sizes":[2,2],"strides":[1,2]}],"axis":1}`, status: 200,
			sizes: []int64{2, 5}, sources: "0:[0 0],0:[0 1],0:[0 2],1:[0 0]"},
		{name: "example 1 on axis 2", body: `{"dataType":"FLOAT32","inputs":[{"sizes":[1,1,2,3]},{"sizes":[1,1,2,4]}],"axis":2}`, status: 422,
			fields: []string{"inputs[1].sizes[3]: axisop.size.same"}},
		{name: "no axis, no inputs", body: `{"dataType":"FLOAT32","inputs":[]}`, status: 422,
			fields: []string{"axis: joinsplit.axis.required", "inputs: axisop.count.zero"}},
		{name: "all at once", body: `{"dataType":"INT4","inputs":[{"sizes":[1,0,2,3]},{"sizes":[1,1,2]},{"sizes":[1,1,2,3],"strides":[1,1]}],"axis":9}`, status: 422,
			fields: []string{"inputs[0].sizes[1]: tensor.size.zero", "inputs[2].strides: tensor.strides.count", "dataType: axisop.datatype.4bit", "inputs[1].sizes: axisop.rank.same", "axis: axisop.axis.range"}},
		{name: "INT8 at 2_0", body: `{"dataType":"INT8","inputs":[{"sizes":[1,1,2,3]}],"axis":3,"featureLevel":"2_0"}`, status: 422,
			fields: []string{"dataType: axisop.datatype.level"}},
		{name: "rank 3 at 3_0", body: `{"dataType":"FLOAT32","inputs":[{"sizes":[1,2,3]}],"axis":0,"featureLevel":"3_0"}`, status: 422,
			fields: []string{"inputs[0].sizes: axisop.rank.level"}},
		{name: "the sum past a UINT", body: `{"dataType":"INT8","inputs":[{"sizes":[4294967295]},{"sizes":[1]}],"axis":0}`, status: 422,
			fields: []string{"inputs[1].sizes[0]: join.sum.uint"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := post(t, ts, "/api/v1/join", c.body)
			if status != c.status {
				t.Fatalf("status %d, want %d: %v", status, c.status, body)
			}
			if status != 200 {
				if got := violationFields(body); !slices.Equal(got, c.fields) {
					t.Errorf("errors %v, want %v", got, c.fields)
				}
				return
			}
			if got := ints(body["outputSizes"]); !slices.Equal(got, c.sizes) {
				t.Errorf("outputSizes %v, want %v", got, c.sizes)
			}
			var src []string
			for _, s := range body["sources"].([]any)[:4] {
				m := s.(map[string]any)
				src = append(src, fmt.Sprintf("%v:%v", m["input"], ints(m["coordinate"])))
			}
			if got := strings.Join(src, ","); got != c.sources {
				t.Errorf("sources %s, want %s", got, c.sources)
			}
		})
	}
}

// TestJoinAPIListsUpTo65536: the sources are listed up to 65,536 output
// elements and left out past that, the sizes still answered.
func TestJoinAPIListsUpTo65536(t *testing.T) {
	ts := newTestServer(t)
	_, body := post(t, ts, "/api/v1/join", `{"dataType":"FLOAT32","inputs":[{"sizes":[128,256]},{"sizes":[128,256]}],"axis":0}`)
	if n := len(body["sources"].([]any)); n != 65536 {
		t.Errorf("%d sources, want 65536", n)
	}
	_, body = post(t, ts, "/api/v1/join", `{"dataType":"FLOAT32","inputs":[{"sizes":[4096,4096]},{"sizes":[1,4096]}],"axis":0}`)
	if _, listed := body["sources"]; listed || body["outputElementCount"] != float64(4097*4096) {
		t.Errorf("a large join: %v %v", listed, body["outputElementCount"])
	}
}

// TestSplitAPI: POST /api/v1/split answers each output's DML_SLICE1
// window, and names each output's size along the axis outputSizes[k].
func TestSplitAPI(t *testing.T) {
	ts := newTestServer(t)
	cases := []struct {
		name    string
		body    string
		status  int
		offsets [][]int64
		fields  []string
	}{
		{name: "page example 1", body: `{"dataType":"FLOAT32","inputSizes":[1,1,6,2],"axis":2,"outputSizes":[2,1,3]}`, status: 200,
			offsets: [][]int64{{0, 0, 0, 0}, {0, 0, 2, 0}, {0, 0, 3, 0}}},
		{name: "page example 2", body: `{"dataType":"FLOAT32","inputSizes":[1,1,6,2],"axis":3,"outputSizes":[1,1]}`, status: 200,
			offsets: [][]int64{{0, 0, 0, 0}, {0, 0, 0, 1}}},
		{name: "sizes that do not sum", body: `{"dataType":"FLOAT32","inputSizes":[1,1,6,2],"axis":2,"outputSizes":[2,2]}`, status: 422,
			fields: []string{"outputSizes: axisop.sum"}},
		{name: "an output of size 0", body: `{"dataType":"FLOAT32","inputSizes":[1,1,6,2],"axis":2,"outputSizes":[2,0,4]}`, status: 422,
			fields: []string{"outputSizes[1]: tensor.size.zero"}},
		{name: "all at once", body: `{"dataType":"UINT16","inputSizes":[2,0,4],"inputStrides":[1],"axis":3,"outputSizes":[4]}`, status: 422,
			fields: []string{"inputStrides: tensor.strides.count", "inputSizes[1]: tensor.size.zero", "axis: axisop.axis.range"}},
		{name: "nothing", body: `{"dataType":"FLOAT32"}`, status: 422,
			fields: []string{"axis: joinsplit.axis.required", "inputSizes: api.required", "outputSizes: joinsplit.outputs.required"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := post(t, ts, "/api/v1/split", c.body)
			if status != c.status {
				t.Fatalf("status %d, want %d: %v", status, c.status, body)
			}
			if status != 200 {
				if got := violationFields(body); !slices.Equal(got, c.fields) {
					t.Errorf("errors %v, want %v", got, c.fields)
				}
				return
			}
			for k, o := range body["outputs"].([]any) {
				w := o.(map[string]any)
				if got := ints(w["inputWindowOffsets"]); !slices.Equal(got, c.offsets[k]) {
					t.Errorf("output %d: offsets %v, want %v", k, got, c.offsets[k])
				}
				if got := ints(w["inputWindowSizes"]); !slices.Equal(got, ints(w["outputSizes"])) {
					t.Errorf("output %d: window %v, sizes %v", k, got, ints(w["outputSizes"]))
				}
			}
		})
	}
}

// TestJoinSplitPageWithoutJavaScript: /joinsplit draws DML_JOIN's
// Example 1 on the server with its answer embedded, links each output
// cell to its input cell, shows a bad state's errors at their boxes,
// and speaks French; its SVG picture draws the same grids.
func TestJoinSplitPageWithoutJavaScript(t *testing.T) {
	ts := newTestServer(t)
	_, doc := getPage(t, ts.URL+"/joinsplit", nil)
	if n := doc.Find(".lc").Length(); n != 28 {
		t.Errorf("%d cells, want 28", n)
	}
	if l, _ := doc.Find("#o0-3").Attr("data-link"); l != "i1-0" {
		t.Errorf("output cell 3 links %q, want i1-0", l)
	}
	if doc.Find("script#answer").Length() != 1 {
		t.Error("no embedded answer")
	}
	if !strings.Contains(doc.Find("[data-testid=numpy]").Text(), "np.concatenate([a, b], axis=3)") {
		t.Errorf("numpy %q", doc.Find("[data-testid=numpy]").Text())
	}
	if o := doc.Find("[data-testid=onnx]").Text(); o != "Concat(axis=3)" {
		t.Errorf("onnx %q", o)
	}
	_, bad := getPage(t, ts.URL+"/joinsplit?op=join&dt=FLOAT32&axis=2&in=1,1,2,3&st=&in=1,1,2,4&st=", nil)
	if e := bad.Find("[id='err-inputs[1].sizes']").Text(); !strings.Contains(e, "inputs[1].sizes[3] = 4 != InputTensors[0].Sizes[3] = 3") {
		t.Errorf("error %q", e)
	}
	_, split := getPage(t, ts.URL+"/joinsplit?preset=split-example1&lang=fr", nil)
	if h := split.Find("h1").Text(); h != "Jonction et scission" {
		t.Errorf("fr title %q", h)
	}
	if o := split.Find("[data-testid=onnx]").Text(); o != "Split(axis=2, split=[2, 1, 3])" {
		t.Errorf("onnx %q", o)
	}
	if n := split.Find("[data-testid^=copy-y]").Length(); n != 3 {
		t.Errorf("%d DML_SLICE1 copies, want 3", n)
	}
	res, svg := getPage(t, ts.URL+"/api/v1/joinsplit.svg?preset=split-example2", nil)
	if res.StatusCode != 200 || svg.Find("svg").Length() != 1 || !strings.Contains(svg.Text(), "OutputTensors[1] (y1)") {
		t.Errorf("svg: status %d, %.300s", res.StatusCode, svg.Text())
	}
	big, err := http.Get(ts.URL + "/api/v1/joinsplit.svg?op=join&dt=FLOAT32&axis=0&in=256,2&st=&in=1,2&st=")
	if err != nil {
		t.Fatal(err)
	}
	big.Body.Close()
	if big.StatusCode != 200 {
		t.Errorf("a picture past 256 output elements: status %d, want 200 (binned)", big.StatusCode)
	}
	// Past 256 output elements the tensors are canvases, which show the
	// binned picture without JavaScript (the first; the others point up
	// to it); past 2^24 no canvas is drawn either, and the picture is
	// shown under the note, JavaScript or not; each in the page's language.
	noscript := regexp.MustCompile(`class="noscript-svg" data-testid="js-([io][0-9])-noscript-svg" src="([^"]+)"`)
	for _, c := range []struct {
		path, lang string
		canvases   []string // the canvases' slots; none past 2^24
	}{
		{"/joinsplit?op=join&dt=FLOAT32&axis=0&in=256,2&st=&in=1,2&st=", "", []string{"js-i0", "js-i1", "js-o0"}},
		{"/joinsplit?op=split&dt=UINT8&axis=1&in=4096,4096&st=&outs=1000,3096&lang=fr", "&lang=fr", []string{"js-i0", "js-o0", "js-o1"}},
		{"/embed/joinsplit?op=join&dt=FLOAT32&axis=1&in=64,64&st=&in=64,32&st=&lang=zh-TW", "&lang=zh-TW", []string{"js-i0", "js-i1", "js-o0"}},
		{"/joinsplit?op=join&dt=FLOAT32&axis=0&in=4096,4096&st=&in=4096,4096&st=&lang=pt-BR", "&lang=pt-BR", nil},
	} {
		res, err := http.Get(ts.URL + c.path)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		d, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		var src string
		if c.canvases != nil {
			for _, slot := range c.canvases {
				if d.Find("#"+slot+"-canvas").Length() != 1 {
					t.Errorf("%s: no canvas %s", c.path, slot)
				}
			}
			m := noscript.FindAllSubmatch(body, -1)
			if len(m) != 1 || "js-"+string(m[0][1]) != c.canvases[0] || d.Find(tid("join-too-large")).Length() != 0 || d.Find(tid("join-svg")).Length() != 0 {
				t.Errorf("%s: %d pictures without JavaScript, want one, at the first canvas, and no too-large note", c.path, len(m))
				continue
			}
			src = html.UnescapeString(string(m[0][2]))
		} else {
			img := d.Find(tid("join-svg"))
			src, _ = img.Attr("src")
			href, _ := img.Parent().Attr("href")
			if alt, _ := img.Attr("alt"); img.Length() != 1 || d.Find(tid("join-too-large")).Length() != 1 || alt == "" || d.Find("canvas").Length() != 0 || href != src {
				t.Errorf("%s: %d pictures (alt %q), %d canvases: want the picture under the note", c.path, img.Length(), alt, d.Find("canvas").Length())
				continue
			}
		}
		if !strings.HasPrefix(src, "/api/v1/joinsplit.svg?") || !strings.HasSuffix(src, c.lang) {
			t.Errorf("%s: the picture is %q, want it in %q", c.path, src, c.lang)
		}
		pic, err := http.Get(ts.URL + src)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(pic.Body)
		pic.Body.Close()
		if pic.StatusCode != 200 || !strings.HasPrefix(pic.Header.Get("Content-Type"), "image/svg+xml") || len(b) >= 500_000 {
			t.Errorf("%s: %s answers %d, %s, %d bytes", c.path, src, pic.StatusCode, pic.Header.Get("Content-Type"), len(b))
		}
	}
	_, small := getPage(t, ts.URL+"/joinsplit?preset=join-example1", nil)
	if small.Find(tid("join-svg")).Length() != 0 {
		t.Error("a join drawn in the HTML shows its picture too")
	}
}

// TestJoinSplitEdit: an edit over the websocket answers the picture's
// fragment, and a state with errors keeps the last valid picture with
// its errors at their boxes.
func TestJoinSplitEdit(t *testing.T) {
	ts := newTestServer(t)
	c := dial(t, ts, nil)
	send := func(seq int64, q string) map[string]any {
		if err := c.WriteJSON(map[string]any{"v": 2, "type": "edit", "page": "joinsplit", "seq": seq, "query": q}); err != nil {
			t.Fatal(err)
		}
		for {
			_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
			typ, data, err := c.ReadMessage()
			if err != nil {
				t.Fatal(err)
			}
			var m map[string]any
			if typ != websocket.TextMessage || json.Unmarshal(data, &m) != nil || m["type"] != "result" || m["seq"] != float64(seq) {
				continue
			}
			return m
		}
	}
	m := send(1, "preset=split-example2")
	if m["ok"] != true || !strings.Contains(m["query"].(string), "op=split") {
		t.Fatalf("result %v", m)
	}
	html := m["html"].(map[string]any)
	if !strings.Contains(html["picture"].(string), `id="o1-5"`) || !strings.Contains(html["tensors"].(string), `name="outs"`) {
		t.Errorf("fragments: %.200s", html["picture"])
	}
	m = send(2, "op=split&dt=FLOAT32&axis=3&in=1,1,6,2&st=&outs=1,2&last="+strings.ReplaceAll(m["query"].(string), "&", "%26"))
	if m["ok"] != false || m["last"] == nil {
		t.Fatalf("result %v", m)
	}
	errs := m["errors"].([]any)
	if len(errs) != 1 || errs[0].(map[string]any)["field"] != "outputSizes" {
		t.Errorf("errors %v", errs)
	}
}

// TestJoinSplitDxDispatchModel: the explorer's DxDispatch model runs
// DML_OPERATOR_JOIN or DML_OPERATOR_SPLIT on the values the page shows,
// its arrays of tensors bound to lists of resources as DxDispatch's own
// models bind them.
func TestJoinSplitDxDispatchModel(t *testing.T) {
	ts := newTestServer(t)
	get := func(q string) map[string]any {
		res, err := http.Get(ts.URL + "/api/v1/dxdispatch/joinsplit.json?" + q)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var m map[string]any
		if res.StatusCode != 200 || json.NewDecoder(res.Body).Decode(&m) != nil {
			t.Fatalf("%s: status %d", q, res.StatusCode)
		}
		return m
	}
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	m := get("preset=join-example1")
	join := m["dispatchables"].(map[string]any)["join"].(map[string]any)
	desc := join["desc"].(map[string]any)
	if join["type"] != "DML_OPERATOR_JOIN" || desc["InputCount"] != float64(2) || desc["Axis"] != float64(3) || js(desc["OutputTensor"]) != `{"DataType":"FLOAT32","Sizes":[1,1,2,7]}` {
		t.Errorf("dispatchable %s", js(join))
	}
	res := m["resources"].(map[string]any)
	if got := js(res["input1"].(map[string]any)["initialValues"]); got != `{"valueCount":8,"valueDelta":1,"valueStart":7}` {
		t.Errorf("input b holds %s, want 7..14", got)
	}
	if got := js(m["commands"].([]any)[0].(map[string]any)["bindings"]); got != `{"InputTensors":["input0","input1"],"OutputTensor":"output"}` {
		t.Errorf("bindings %s", got)
	}
	// A padded input's cells are listed: padding 0, the page's values.
	m = get("preset=join-padded")
	if got := js(m["resources"].(map[string]any)["input0"].(map[string]any)["initialValues"]); got != `[1,2,3,0,4,5,6]` {
		t.Errorf("the padded input holds %s", got)
	}
	m = get("preset=split-example1")
	cmds := m["commands"].([]any)
	if got := js(cmds[0].(map[string]any)["bindings"]); got != `{"InputTensor":"input","OutputTensors":["output0","output1","output2"]}` || len(cmds) != 4 {
		t.Errorf("bindings %s, %d commands", got, len(cmds))
	}
	split := m["dispatchables"].(map[string]any)["split"].(map[string]any)["desc"].(map[string]any)
	if split["OutputCount"] != float64(3) || js(split["OutputTensors"].([]any)[1]) != `{"DataType":"FLOAT32","Sizes":[1,1,1,2]}` {
		t.Errorf("split desc %s", js(split))
	}
}

// TestJoinSplitRoom: "Present this" on the join and split page opens a
// room there, as on every explorer (the pipeline's, with no edit of its
// own), and the presenter's page follows it.
func TestJoinSplitRoom(t *testing.T) {
	ts := newTestServer(t)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	form := url.Values{"page": {"joinsplit"}, "query": {"preset=split-example2"}}
	req, _ := http.NewRequest("POST", ts.URL+"/rooms", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", ts.URL)
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if loc := res.Header.Get("Location"); res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(loc, "/joinsplit?preset=split-example2&room=") {
		t.Errorf("%d to %q, want 303 to the join and split page in a room", res.StatusCode, loc)
	}
}
