package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/ops/convert"
	"github.com/stridescope/stridescope/ops/depthspace"
	"github.com/stridescope/stridescope/ops/join"
	"github.com/stridescope/stridescope/ops/layout"
	"github.com/stridescope/stridescope/ops/padding1"
	"github.com/stridescope/stridescope/ops/slice1"
	"github.com/stridescope/stridescope/ops/tile"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/testkit"
)

// budgetServer is a server with a work budget of limit bytes that makes
// a request wait 50 ms for its share.
func budgetServer(t *testing.T, limit int64) (*Server, *httptest.Server) {
	t.Helper()
	s := New(Config{Logger: testkit.Quiet(), WorkBudget: limit, WorkBudgetWait: 50 * time.Millisecond})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	return s, ts
}

// holdBudget takes the whole budget until the test (or release) ends.
func holdBudget(t *testing.T, s *Server) (release func()) {
	t.Helper()
	release, err := s.budget.Take(context.Background(), s.cfg.WorkBudget)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(release)
	return release
}

// budgetFree reports whether the whole budget is free: it takes it all
// without waiting, and gives it back.
func budgetFree(s *Server) bool {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	release, err := s.budget.Take(ctx, s.cfg.WorkBudget)
	if err != nil {
		return false
	}
	release()
	return true
}

// budgetRequests are the heavy paths, each small enough for a 64 MiB
// budget and too large for a 1 MiB one.
var budgetRequests = []struct {
	name, method, path, body string
	page                     bool // answered as an HTML page, else as API JSON
}{
	{name: "slice page", method: "GET", path: "/slice?sizes=4096,4096", page: true},
	{name: "slice embed", method: "GET", path: "/embed/slice?sizes=4096,4096", page: true},
	{name: "layout page", method: "GET", path: "/?sizes=16,16", page: true},
	{name: "layout embed", method: "GET", path: "/embed/layout?sizes=16,16", page: true},
	{name: "tour step", method: "GET", path: "/tour/1?sizes=16,16", page: true},
	{name: "layout svg", method: "GET", path: "/api/v1/layout.svg?sizes=64,64"},
	{name: "slice1 svg", method: "GET", path: "/api/v1/slice1.svg?sizes=64,64&woff=0,0&wsize=64,64&wstride=1,1"},
	{name: "layout api", method: "POST", path: "/api/v1/layout", body: `{"dataType":"FLOAT32","sizes":[256,256]}`},
	{name: "slice1 api", method: "POST", path: "/api/v1/slice1", body: `{"dataType":"FLOAT32","inputSizes":[256,256],"inputWindowOffsets":[0,0],"inputWindowSizes":[256,256],"inputWindowStrides":[1,1]}`},
	{name: "slice api", method: "POST", path: "/api/v1/slice", body: `{"dataType":"FLOAT32","inputSizes":[256,256],"offsets":[0,0],"sizes":[256,256],"strides":[1,1]}`},
}

func do(t *testing.T, ts *httptest.Server, method, path, body string) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(b)
}

// checkRefusal checks a refusal's status, its Retry-After and its body:
// a readable page or the API's errors.
func checkRefusal(t *testing.T, res *http.Response, body string, page bool, status int, msg string) {
	t.Helper()
	if res.StatusCode != status {
		t.Fatalf("status %d, want %d: %.300s", res.StatusCode, status, body)
	}
	if got, want := res.Header.Get("Retry-After"), map[bool]string{true: "2", false: ""}[status == http.StatusServiceUnavailable]; got != want {
		t.Errorf("Retry-After %q, want %q", got, want)
	}
	if page {
		if ct := res.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/html") {
			t.Errorf("content type %q, want HTML", ct)
		}
		if !strings.Contains(body, `data-testid="error-page"`) || !strings.Contains(body, msg) {
			t.Errorf("page does not say %q: %.500s", msg, body)
		}
		return
	}
	var eb errorBody
	if err := json.Unmarshal([]byte(body), &eb); err != nil || len(eb.Errors) != 1 || !strings.Contains(eb.Errors[0].Message, msg) {
		t.Errorf("body %.300s (%v), want one error saying %q", body, err, msg)
	}
}

func TestBudgetHeldAnswers503ThenServes(t *testing.T) {
	s, ts := budgetServer(t, 64<<20)
	release := holdBudget(t, s)
	for _, tt := range budgetRequests {
		t.Run(tt.name, func(t *testing.T) {
			res, body := do(t, ts, tt.method, tt.path, tt.body)
			checkRefusal(t, res, body, tt.page, http.StatusServiceUnavailable, "busy with other heavy work")
		})
	}
	release()
	for _, tt := range budgetRequests {
		t.Run(tt.name+" after", func(t *testing.T) {
			if res, body := do(t, ts, tt.method, tt.path, tt.body); res.StatusCode != http.StatusOK {
				t.Errorf("status %d once the budget is free: %.300s", res.StatusCode, body)
			}
		})
	}
	if !budgetFree(s) {
		t.Error("the requests did not give their share back")
	}
}

func TestBudgetTooSmallAnswers413AtOnce(t *testing.T) {
	_, ts := budgetServer(t, 1<<20)
	for _, tt := range budgetRequests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			res, body := do(t, ts, tt.method, tt.path, tt.body)
			checkRefusal(t, res, body, tt.page, http.StatusRequestEntityTooLarge, "whole work budget of 1.0 MiB")
			if took := time.Since(start); took > time.Second {
				t.Errorf("took %v: a request that can never fit must not wait", took)
			}
		})
	}
	// A small state still fits.
	if res, body := do(t, ts, "GET", "/slice?preset=example2", ""); res.StatusCode != http.StatusOK {
		t.Errorf("example 2: status %d: %.300s", res.StatusCode, body)
	}
}

// readUntil reads the session's text messages until one of type typ
// answers seq, skipping binary frames.
func readUntil(t *testing.T, c *websocket.Conn, seq int64, typ string) map[string]any {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	for range 10000 {
		kind, data, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		if kind != websocket.TextMessage {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		if m["seq"] == float64(seq) && (m["type"] == typ || m["type"] == "error") {
			if m["type"] != typ {
				t.Fatalf("got %s, want %s", data, typ)
			}
			return m
		}
	}
	t.Fatal("no answer")
	return nil
}

func TestWSEditBusyKeepsTheSessionUsable(t *testing.T) {
	tests := []struct{ name, page, query string }{
		{name: "layout", page: "layout", query: "sizes=64,64"},
		{name: "layout canvas", page: "layout", query: "sizes=512,512"},
		{name: "slice", page: "slice", query: "sizes=300,300"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ts := budgetServer(t, 256<<20)
			c := dial(t, ts, nil)
			release := holdBudget(t, s)
			edit := func(seq int64) {
				if err := c.WriteJSON(map[string]any{"v": 2, "type": "edit", "page": tt.page, "seq": seq, "query": tt.query}); err != nil {
					t.Fatal(err)
				}
			}
			edit(1)
			m := readUntil(t, c, 1, "error")
			if m["code"] != "busy" || m["retryAfter"] != 2.0 || !strings.Contains(m["message"].(string), "busy with other heavy work") {
				t.Errorf("refusal %v", m)
			}
			release()
			// The same session, and the same query (the answers cache
			// must not have kept the refusal), now gets its answer.
			edit(2)
			if r := readUntil(t, c, 2, "result"); r["ok"] != true {
				t.Errorf("result %v", r)
			}
			readUntil(t, c, 2, "done")
			if !budgetFree(s) {
				t.Error("the edit did not give its share back")
			}
		})
	}
}

func TestWSEditTooLargeForTheBudget(t *testing.T) {
	_, ts := budgetServer(t, 1<<20)
	c := dial(t, ts, nil)
	if err := c.WriteJSON(map[string]any{"v": 2, "type": "edit", "page": "slice", "seq": 1, "query": "sizes=4096,4096"}); err != nil {
		t.Fatal(err)
	}
	m := readUntil(t, c, 1, "error")
	if m["code"] != "too-large" || m["retryAfter"] != nil || !strings.Contains(m["message"].(string), "whole work budget of 1.0 MiB") {
		t.Errorf("refusal %v", m)
	}
	sendSliceEdit(t, c, 2, "preset=example2")
	if r, done := readSlice(t, c, 2); !r.OK || !done {
		t.Errorf("a small edit after: %+v", r)
	}
}

// The estimates are honest: each covers all that its path allocates,
// garbage included (so the live peak too), for the largest states the
// path draws.
func TestBudgetCostsCoverPageAllocations(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocates hundreds of MiB (the race detector's shadow memory multiplies it)")
	}
	s := New(Config{Logger: testkit.Quiet(), WorkBudget: -1})
	h := s.Handler()
	get := func(path string) func() {
		return func() {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest("GET", path, nil))
			if rec.Code != http.StatusOK {
				t.Errorf("%s: status %d", path, rec.Code)
			}
		}
	}
	post := func(path, body string) func() {
		return func() {
			rec := httptest.NewRecorder()
			req := httptest.NewRequest("POST", path, strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			h.ServeHTTP(rec, req)
			if rec.Code != http.StatusOK {
				t.Errorf("%s: status %d", path, rec.Code)
			}
		}
	}
	layoutPage := func(q string) int64 {
		v := picture.Validate(picture.LayoutStateFromQuery(mustQuery(t, q)))
		return picture.LayoutCost(v.Layout, picture.OnPage)
	}
	slice := func(q string, edit bool) int64 {
		v := slice1.Validate(slice1.StateFromQuery(mustQuery(t, q)))
		return slice1.Cost(v.Slice, edit)
	}
	// What a picture's plan takes from the budget (explorer.SVGPlan.Cost).
	plan := func(k explorer.Kind, q string) int64 {
		p, err := k.SVG(context.Background(), mustQuery(t, q))
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		return p.Cost
	}
	svg := func(q string) int64 { return plan(slice1.Kind{}, q) }
	identity := func(q string) *core.Identity {
		v := convert.Validate(convert.StateFromQuery(mustQuery(t, q)))
		if v.ID == nil {
			t.Fatalf("%s: %v", q, v.Errors)
		}
		return v.ID
	}
	// A conversion page that draws a valid state also embeds its answer
	// (explorer.FirstAnswer), which takes an edit's cost of its own.
	convertPage := func(q string) int64 { return convert.Cost(identity(q), false) + convert.Cost(identity(q), true) }
	transpose := "dt=FLOAT32&sizes=4096,4096&imode=packed&omode=explicit&ostrides=1,4096"
	padding := func(q string) *core.Padding1 {
		v := padding1.Validate(padding1.StateFromQuery(mustQuery(t, q)))
		if v.P == nil {
			t.Fatalf("%s: %v", q, v.Errors)
		}
		return v.P
	}
	// A padding page that draws a valid state embeds its answer too.
	paddingPage := func(q string) int64 { return padding1.Cost(padding(q), false) + padding1.Cost(padding(q), true) }
	bigPad := "dt=FLOAT32&sizes=300,300&mode=EDGE&start=1,1&end=1,1"
	tiling := func(q string) *core.Tile {
		v := tile.Validate(tile.StateFromQuery(mustQuery(t, q)))
		if v.T == nil {
			t.Fatalf("%s: %v", q, v.Errors)
		}
		return v.T
	}
	tilePage := func(q string) int64 { return tile.Cost(tiling(q), false) + tile.Cost(tiling(q), true) }
	nhwc := "dt=FLOAT16&sizes=1,16,1024,1024&imode=NHWC&omode=NCHW"
	// A depth-space page draws its state's three grids and embeds its
	// answer too; the largest drawn is views.MaxDOMCells elements.
	ds := func(q string) *core.DepthSpace {
		v := depthspace.Validate(depthspace.StateFromQuery(mustQuery(t, q)))
		if !v.OK() {
			t.Fatalf("%s: %v", q, v.Errors)
		}
		return v.DCR
	}
	dsPage := func(q string) int64 { return depthspace.Cost(ds(q), false) + depthspace.Cost(ds(q), true) }
	dsLargest := "op=d2s&dt=FLOAT32&sizes=1,16,4,4&imode=NHWC&block=2"
	dsBig := "op=s2d&dt=FLOAT32&sizes=1,4,4096,4096&imode=packed&block=2"
	bigPadSVG := "dt=FLOAT32&sizes=4096,4096&mode=REFLECTION&start=7,7&end=7,7"
	rank8Pad := "dt=FLOAT32&sizes=8,8,8,8,8,8,8,8&mode=CONSTANT&start=1,1,1,1,1,1,1,1&end=0,0,0,0,0,0,0,0"
	layoutSVG := func(q string) int64 { return plan(layout.Kind{}, q) }
	// A join or split page embeds its answer too.
	joinPage := func(q string) int64 {
		v := join.Validate(join.StateFromQuery(mustQuery(t, q)))
		if !v.Valid() {
			t.Fatalf("%s: %v", q, v.Errors)
		}
		return join.Cost(v, false) + join.Cost(v, true)
	}
	join8 := "op=join&dt=FLOAT32&axis=2" + strings.Repeat("&in=2,2,4,2&st=16,8,2,1", 8)
	joinBig := "op=join&dt=FLOAT32&axis=0&in=4096,4096&st=&in=4096,4096&st="
	joinCanvas := "op=join&dt=FLOAT32&axis=0&in=2048,4096&st=&in=2048,4096&st="
	split8 := "op=split&dt=FLOAT32&axis=7&in=4,4,4,4,4,4,4,64&st=&outs=8,8,8,8,8,8,8,8"
	split64 := `{"dataType":"FLOAT32","inputSizes":[64,64],"axis":0,"outputSizes":[` + strings.TrimSuffix(strings.Repeat("1,", 64), ",") + `]}`
	rank8 := "sizes=4,4,4,4,4,4,4,4&woff=0,0,0,0,0,0,0,0&wsize=4,4,4,4,4,4,4,4&wstride=1,1,1,1,1,1,1,-1"
	full := "sizes=64,64&woff=0,0&wsize=64,64&wstride=1,1"
	tests := []struct {
		name string
		run  func()
		cost int64
	}{
		{"layout page, DOM", get("/?sizes=64,64&labels=letters"), layoutPage("sizes=64,64")},
		{"layout page, canvas", get("/?sizes=4096,4096&cell=5"), layoutPage("sizes=4096,4096")},
		{"layout svg, detailed", get("/api/v1/layout.svg?sizes=16,16&lang=fr"), layoutSVG("sizes=16,16")},
		{"layout svg, binned", get("/api/v1/layout.svg?sizes=64,64"), layoutSVG("sizes=64,64")},
		{"layout svg, binned 4096x4096", get("/api/v1/layout.svg?sizes=4096,4096&sel=5,5"), layoutSVG("sizes=4096,4096&sel=5,5")},
		{"layout svg, binned rank 8", get("/api/v1/layout.svg?sizes=8,8,8,8,8,8,8,8"), layoutSVG("sizes=8,8,8,8,8,8,8,8")},
		{"slice page, DOM", get("/slice?" + full), slice(full, false)},
		{"slice page, canvas", get("/slice?sizes=4096,4096"), slice("sizes=4096,4096", false)},
		{"slice svg", get("/api/v1/slice1.svg?" + full), svg(full)},
		{"slice svg, strided", get("/api/v1/slice1.svg?sizes=2&strides=16000000"), svg("sizes=2&strides=16000000")},
		{"slice svg, detailed", get("/api/v1/slice1.svg?sizes=16,16&lang=fr"), svg("sizes=16,16")},
		{"slice svg, binned 4096x4096", get("/api/v1/slice1.svg?sizes=4096,4096"), svg("sizes=4096,4096")},
		{"slice svg, binned rank 8", get("/api/v1/slice1.svg?" + rank8), svg(rank8)},
		{"convert page, DOM", get("/convert?preset=nhwc-nchw&lang=fr"), convertPage("preset=nhwc-nchw")},
		{"convert page, canvas", get("/convert?" + transpose), convertPage(transpose)},
		{"convert page, canvas NHWC", get("/convert?" + nhwc), convertPage(nhwc)},
		{"convert svg, detailed", get("/api/v1/identity.svg?preset=nhwc-nchw&lang=fr"), plan(convert.Kind{}, "preset=nhwc-nchw")},
		{"convert svg, binned 16x16", get("/api/v1/identity.svg?dt=FLOAT32&sizes=16,16&imode=packed&omode=explicit&ostrides=1,16"), plan(convert.Kind{}, "dt=FLOAT32&sizes=16,16&imode=packed&omode=explicit&ostrides=1,16")},
		{"convert svg, binned 4096x4096", get("/api/v1/identity.svg?" + transpose), plan(convert.Kind{}, transpose)},
		{"convert svg, binned rank 8", get("/api/v1/identity.svg?dt=FLOAT32&sizes=8,8,8,8,8,8,8,8&imode=packed&omode=packed"), plan(convert.Kind{}, "dt=FLOAT32&sizes=8,8,8,8,8,8,8,8&imode=packed&omode=packed")},
		{"depthspace page, the page's example", get("/depthspace?preset=d2s-page&lang=fr"), dsPage("preset=d2s-page")},
		{"depthspace page, 256 elements", get("/depthspace?" + dsLargest), dsPage(dsLargest)},
		{"depthspace svg, 256 elements", get("/api/v1/depthspace.svg?" + dsLargest), plan(depthspace.Kind{}, dsLargest)},
		{"depthtospace1 api, 65,536 listed", post("/api/v1/depthtospace1", `{"dataType":"FLOAT32","inputSizes":[1,64,32,32],"blockSize":4,"order":"COLUMN_ROW_DEPTH"}`),
			depthspace.APICost(ds("op=d2s&dt=FLOAT32&sizes=1,64,32,32&imode=packed&block=4"))},
		{"padding page, DOM", get("/padding?preset=pad-ex1&lang=fr"), paddingPage("preset=pad-ex1")},
		{"padding page, too large to draw", get("/padding?" + bigPad), paddingPage(bigPad)},
		{"padding svg", get("/api/v1/padding1.svg?preset=pad-ex4&lang=fr"), plan(padding1.Kind{}, "preset=pad-ex4")},
		{"padding svg, binned 4096x4096", get("/api/v1/padding1.svg?" + bigPadSVG + "&lang=fr"), plan(padding1.Kind{}, bigPadSVG)},
		{"padding svg, binned rank 8", get("/api/v1/padding1.svg?" + rank8Pad), plan(padding1.Kind{}, rank8Pad)},
		{"tile svg, binned 4096x4096", get("/api/v1/tile.svg?dt=FLOAT32&sizes=4096,4096&repeats=2,2&lang=zh-TW"), plan(tile.Kind{}, "dt=FLOAT32&sizes=4096,4096&repeats=2,2")},
		{"depthspace svg, binned 4096x4096", get("/api/v1/depthspace.svg?" + dsBig + "&lang=pt-BR"), plan(depthspace.Kind{}, dsBig)},
		{"padding1 api", post("/api/v1/padding1", `{"dataType":"FLOAT32","inputSizes":[300,300],"paddingMode":"EDGE","startPadding":[1,1],"endPadding":[1,1]}`), padding1.APICost(padding(bigPad))},
		{"tile page, DOM", get("/tile?preset=tile-ex&lang=fr"), tilePage("preset=tile-ex")},
		{"tile svg", get("/api/v1/tile.svg?preset=tile-ex&lang=fr"), plan(tile.Kind{}, "preset=tile-ex")},
		{"tile api", post("/api/v1/tile", `{"dataType":"FLOAT32","inputSizes":[300,300],"repeats":[1,2]}`), tile.APICost(tiling("dt=FLOAT32&sizes=300,300&repeats=1,2"))},
		{"identity api", post("/api/v1/identity", `{"dataType":"FLOAT32","sizes":[256,256],"outputStrides":[1,256]}`), convert.APICost(identity("dt=FLOAT32&sizes=256,256&imode=packed&omode=explicit&ostrides=1,256"))},
		{"joinsplit page, DOM, 8 inputs", get("/joinsplit?" + join8 + "&lang=fr"), joinPage(join8)},
		{"joinsplit page, too large", get("/joinsplit?" + joinBig), joinPage(joinBig)},
		{"joinsplit page, canvases", get("/joinsplit?" + joinCanvas + "&lang=fr"), joinPage(joinCanvas)},
		{"joinsplit page, split", get("/joinsplit?op=split&dt=FLOAT32&axis=1&in=16,16&st=&outs=1,2,3,4,6"), joinPage("op=split&dt=FLOAT32&axis=1&in=16,16&st=&outs=1,2,3,4,6")},
		{"joinsplit svg, 8 inputs", get("/api/v1/joinsplit.svg?" + join8 + "&lang=fr"), plan(join.Kind{}, join8)},
		{"joinsplit svg, binned 2x4096x4096", get("/api/v1/joinsplit.svg?" + joinBig + "&lang=fr"), plan(join.Kind{}, joinBig)},
		{"joinsplit svg, binned split in 8", get("/api/v1/joinsplit.svg?" + split8), plan(join.Kind{}, split8)},
		{"join api", post("/api/v1/join", `{"dataType":"FLOAT32","inputs":[{"sizes":[2,2,2,2,2,2,2,256]},{"sizes":[2,2,2,2,2,2,2,256]}],"axis":0}`), join.JoinAPICost(65536, 2)},
		{"split api", post("/api/v1/split", split64), join.SplitAPICost(64)},
		{"layout api", post("/api/v1/layout", `{"dataType":"FLOAT32","sizes":[256,256]}`), layout.APICost(picture.Validate(picture.LayoutStateFromQuery(mustQuery(t, "sizes=256,256"))).Layout)},
		{"slice1 api", post("/api/v1/slice1", `{"dataType":"FLOAT32","inputSizes":[4,4,4,4,4,4,4,4],"inputWindowOffsets":[0,0,0,0,0,0,0,0],"inputWindowSizes":[4,4,4,4,4,4,4,4],"inputWindowStrides":[1,1,1,1,1,1,1,-1]}`),
			slice1.APICost(slice1.Validate(slice1.StateFromQuery(mustQuery(t, "sizes=4,4,4,4,4,4,4,4&woff=0,0,0,0,0,0,0,0&wsize=4,4,4,4,4,4,4,4&wstride=1,1,1,1,1,1,1,-1"))).Slice)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var ms0, ms1 runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&ms0)
			tt.run()
			runtime.ReadMemStats(&ms1)
			alloc := int64(ms1.TotalAlloc - ms0.TotalAlloc)
			t.Logf("allocated %.1f MiB, estimated %.1f MiB", float64(alloc)/(1<<20), float64(tt.cost)/(1<<20))
			if alloc > tt.cost {
				t.Errorf("allocated %d bytes, more than the estimate %d", alloc, tt.cost)
			}
		})
	}
}
