package web

import (
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/stridescope/stridescope/ops/tile"
)

// TestTileAPI: POST /api/v1/tile answers the output sizes and each
// output element's input coordinate as /api/v1/padding1 names them, and
// refuses bad input with every violation at its field, all at once.
func TestTileAPI(t *testing.T) {
	ts := newTestServer(t)
	cases := []struct {
		name, body string
		status     int
		sizes      []int64
		first      string
		listed     int64
		truncated  bool
		wantFields []string
	}{
		{name: "the page's example", body: `{"dataType":"FLOAT32","inputSizes":[1,1,2,3],"repeats":[1,1,3,3]}`, status: 200,
			sizes: []int64{1, 1, 6, 9}, first: `[[0,0,0,0],[0,0,0,1],[0,0,0,2],[0,0,0,0]]`, listed: 54},
		{name: "a broadcast input", body: `{"dataType":"UINT8","inputSizes":[2,2],"inputStrides":[0,1],"repeats":[1,2]}`, status: 200,
			sizes: []int64{2, 4}, first: `[[0,0],[0,1],[0,0],[0,1]]`, listed: 8},
		{name: "listed up to 65,536", body: `{"dataType":"FLOAT32","inputSizes":[300,300],"repeats":[1,2]}`, status: 200,
			sizes: []int64{300, 600}, first: `[[0,0],[0,1],[0,2],[0,3]]`, listed: 65536, truncated: true},
		{name: "all at once", body: `{"dataType":"FLOAT64","featureLevel":"3_0","inputSizes":[2,3],"repeats":[0,1,1]}`, status: 422,
			wantFields: []string{"dataType: tile.datatype.never", "inputSizes: tile.rank.level", "repeats: tile.rank.mismatch", "repeats[0]: tile.repeat.range"}},
		{name: "no repeats", body: `{"dataType":"FLOAT32","inputSizes":[2]}`, status: 422, wantFields: []string{"repeats: api.required"}},
		{name: "an output past a UINT", body: `{"dataType":"FLOAT32","inputSizes":[4294967295],"repeats":[2]}`, status: 422, wantFields: []string{"outputSizes[0]: tile.output.uint"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, body := post(t, ts, "/api/v1/tile", c.body)
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
			first, _ := json.Marshal(coords[:4])
			if string(first) != c.first || int64(len(coords)) != c.listed || body["truncated"] != c.truncated {
				t.Errorf("first %s, %d listed, truncated %v; want %s, %d, %v", first, len(coords), body["truncated"], c.first, c.listed, c.truncated)
			}
			if o := body["onnx"].(map[string]any); o["op"] != "Tile" || !strings.Contains(body["numpy"].(string), "np.tile(x, ") {
				t.Errorf("exports %v %v", o, body["numpy"])
			}
		})
	}
}

// TestTilePage: the page's example prints the page's numbers, each output
// cell linked to an input cell showing the same value; an edit over the
// websocket answers the sources the page links by.
func TestTilePage(t *testing.T) {
	ts := newTestServer(t)
	res, err := http.Get(ts.URL + "/tile?preset=tile-ex&lang=pt-BR")
	if err != nil {
		t.Fatal(err)
	}
	doc, err := goquery.NewDocumentFromReader(res.Body)
	res.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields("1 2 3 1 2 3 1 2 3 4 5 6 4 5 6 4 5 6 1 2 3 1 2 3 1 2 3 4 5 6 4 5 6 4 5 6 1 2 3 1 2 3 1 2 3 4 5 6 4 5 6 4 5 6")
	var got []string
	doc.Find(`[data-testid=outcell]`).Each(func(i int, c *goquery.Selection) {
		got = append(got, strings.TrimSpace(c.Find(".lbl").Text()))
		link := c.AttrOr("data-link", "")
		if strings.TrimSpace(doc.Find("#"+link+" .lbl").Text()) != got[i] {
			t.Errorf("output cell %d (%s) links %q", i, got[i], link)
		}
	})
	if !slices.Equal(got, want) {
		t.Errorf("output %v, the page prints %v", got, want)
	}

	_, wts := wsServer(t, Config{}, nil)
	conn := dial(t, wts, nil)
	if err := conn.WriteJSON(map[string]any{"v": 2, "type": "edit", "page": "tile", "seq": 1, "query": "dt=FLOAT32&sizes=2&repeats=3"}); err != nil {
		t.Fatal(err)
	}
	for {
		_, data, err := conn.ReadMessage()
		if err != nil {
			t.Fatal(err)
		}
		var r tile.Result
		if json.Unmarshal(data, &r) != nil || r.Type != "result" {
			continue
		}
		if !r.OK || r.Meta == nil || !slices.Equal(r.Meta.Sources, []int64{0, 1, 0, 1, 0, 1}) {
			t.Errorf("result %+v", r)
		}
		break
	}
}

// TestTileDxDispatchModel: the tiling's DxDispatch model runs
// DML_OPERATOR_TILE with the page's repeats on the page's values.
func TestTileDxDispatchModel(t *testing.T) {
	ts := newTestServer(t)
	res, err := http.Get(ts.URL + "/api/v1/dxdispatch/tile.json?preset=tile-ex")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	_, _ = io.Copy(&b, res.Body)
	res.Body.Close()
	for _, want := range []string{`"type": "DML_OPERATOR_TILE"`, `"Repeats": [1, 1, 3, 3]`, `"RepeatsCount": 4`, `"Sizes": [1, 1, 6, 9]`} {
		if res.StatusCode != 200 || !strings.Contains(b.String(), want) {
			t.Errorf("%d: the model lacks %s:\n%s", res.StatusCode, want, b.String())
		}
	}
}
