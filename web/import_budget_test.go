package web

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/interop"
	"github.com/stridescope/stridescope/testkit"
)

// importBodies are the import bodies that cost the most per byte, each
// near the 2 MiB import limit: the largest lists CheckImportSize lets
// through, and the lists past it it refuses. want is the status each
// is answered.
func importBodies(limit int) []struct {
	name, body string
	want       int
} {
	// list writes n copies of item, comma-separated.
	list := func(n int, item func(i int) string) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(item(i))
		}
		return b.String()
	}
	fill := func(prefix, suffix string, item func(i int) string, max int) string {
		var b strings.Builder
		b.WriteString(prefix)
		for i := 0; i < max; i++ {
			it := item(i)
			if b.Len()+len(it)+len(suffix)+1 > limit {
				break
			}
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(it)
		}
		b.WriteString(suffix)
		return b.String()
	}
	var keys strings.Builder // an object of as many keys as an import lets through
	keys.WriteString("{")
	for i := range interop.MaxImportEntries {
		if i > 0 {
			keys.WriteByte(',')
		}
		fmt.Fprintf(&keys, `"k%d":{}`, i)
	}
	keys.WriteString("}")
	values := func(n int, v string) string { return "[" + list(n, func(int) string { return v }) + "]" }
	zeros, empties, shape := values(interop.MaxImportValues, "0"), values(interop.MaxImportValues, "[]"), values(interop.MaxImportEntries, "0")
	slice1 := `"s":{"type":"DML_OPERATOR_SLICE1","desc":{"InputTensor":{"DataType":"FLOAT32","Sizes":[4,4]},"OutputTensor":{"DataType":"FLOAT32","Sizes":[2,2]},"DimensionCount":2,"InputWindowOffsets":[0,0],"InputWindowSizes":[2,2],"InputWindowStrides":[1,1]}}`
	return []struct {
		name, body string
		want       int
	}{
		{"initial values", fill(`{"dxdispatch":{"dispatchables":{`+slice1+`},"resources":{`, `}}}`,
			func(i int) string {
				return fmt.Sprintf(`"r%d":{"initialValuesDataType":"FLOAT32","initialValues":%s}`, i, zeros)
			}, interop.MaxImportResources), 200},
		{"empty lists", fill(`{"dxdispatch":{"dispatchables":{`+slice1+`},"resources":{`, `}}}`,
			func(i int) string { return fmt.Sprintf(`"r%d":{"initialValues":%s}`, i, empties) }, interop.MaxImportResources), 200},
		{"commands", fill(`{"dxdispatch":{"dispatchables":{`+slice1+`},"resources":{"r":{"initialValues":[0]}},"commands":[`, `]}}`,
			func(i int) string {
				return `{"type":"dispatch","dispatchable":"s","bindings":{"InputTensor":"r","OutputTensor":"r"},"pad":[` + list(6, func(int) string { return `[[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[],[]]` }) + `]}`
			}, interop.MaxImportCommands), 200},
		{"dispatchables", fill(`{"dxdispatch":{"dispatchables":{`+slice1+`,`, `}}}`, func(i int) string {
			return fmt.Sprintf(`"d%d":{"type":"DML_OPERATOR_SLICE1","desc":{"InputTensor":{"DataType":"FLOAT32","Sizes":%s}}}`, i, shape)
		}, interop.MaxImportDispatchables-1), 200},
		{"objects in descs", fill(`{"dxdispatch":{"dispatchables":{`+slice1+`,`, `}}}`, func(i int) string {
			return fmt.Sprintf(`"d%d":{"type":"DML_OPERATOR_SLICE1","desc":{"InputTensor":{"DataType":"FLOAT32","Sizes":[4,4]},"x":%s}}`, i, keys.String())
		}, interop.MaxImportDispatchables-1), 200},
		{"onnx shape", `{"onnx":{"inputShape":` + shape + `,"starts":` + shape + `,"ends":` + shape + `,"axes":` + shape + `,"steps":` + shape + `}}`, 400},
		{"torch size", `{"torch":{"size":` + shape + `,"stride":` + shape + `}}`, 400},
		{"a million commands", fill(`{"dxdispatch":{"dispatchables":{`+slice1+`},"commands":[`, `]}}`, func(int) string { return "0" }, 1<<20), 413},
		{"200,000 dispatchables", fill(`{"dxdispatch":{"dispatchables":{`, `}}}`, func(i int) string { return fmt.Sprintf(`"%d":0`, i) }, 200000), 413},
		{"deep", `{"onnx":` + strings.Repeat("[", limit/2-16) + strings.Repeat("]", limit/2-16) + `}`, 413},
	}
}

// TestImportCostCoversAllocations: what an import takes from the work
// budget (interop.ImportCost of its length) covers all that it
// allocates, garbage included, through the API and through the page's
// import box, for the bodies that cost the most per byte.
func TestImportCostCoversAllocations(t *testing.T) {
	if testing.Short() || raceEnabled {
		t.Skip("allocates hundreds of MiB (the race detector's shadow memory multiplies it)")
	}
	s := New(Config{Logger: testkit.Quiet(), WorkBudget: -1})
	h := s.Handler()
	for _, page := range []bool{false, true} {
		limit := int(s.importLimit) - 64
		if page {
			limit /= 3 // a form's encoding writes most of JSON's characters as %XX
		}
		for _, b := range importBodies(limit) {
			name := b.name + map[bool]string{false: ", API", true: ", page"}[page]
			t.Run(name, func(t *testing.T) {
				var req *http.Request
				if page {
					req = httptest.NewRequest("POST", "/import", strings.NewReader(url.Values{"text": {b.body}}.Encode()))
					req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
				} else {
					req = httptest.NewRequest("POST", "/api/v1/import", strings.NewReader(b.body))
					req.Header.Set("Content-Type", "application/json")
				}
				if req.ContentLength > s.importLimit {
					t.Fatalf("body of %d bytes, past the import limit", req.ContentLength)
				}
				var ms0, ms1 runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&ms0)
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				runtime.ReadMemStats(&ms1)
				alloc := int64(ms1.TotalAlloc - ms0.TotalAlloc)
				want := b.want
				if page && want == 200 {
					want = http.StatusSeeOther // or 200 with notes
				}
				if rec.Code != want && !(page && rec.Code == 200 && b.want == 200) {
					t.Errorf("status %d, want %d: %.300s", rec.Code, want, rec.Body.String())
				}
				cost := interop.ImportCost(req.ContentLength)
				t.Logf("%d bytes: allocated %.1f MiB (%.0f per byte), estimated %.1f MiB", req.ContentLength, float64(alloc)/(1<<20), float64(alloc)/float64(req.ContentLength), float64(cost)/(1<<20))
				if alloc > cost {
					t.Errorf("allocated %d bytes, more than the estimate %d", alloc, cost)
				}
			})
		}
	}
}

// TestImportTooManyEntriesIsRefusedAtOnce: a body with more entries than
// an import can use is answered 413 naming the field, through the API and
// the import box (in the reader's language), without being decoded; and
// an import waits for its share of the work budget like any heavy work.
func TestImportTooManyEntriesIsRefusedAtOnce(t *testing.T) {
	s, ts := budgetServer(t, 64<<20)
	commands := `{"dxdispatch":{"dispatchables":{"s":{"type":"DML_OPERATOR_SLICE1","desc":{}}},"commands":[` + strings.Repeat("0,", 1<<19) + `0]}}`
	res, err := http.Post(ts.URL+"/api/v1/import", "application/json", strings.NewReader(commands))
	if err != nil {
		t.Fatal(err)
	}
	var body errorBody
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestEntityTooLarge || len(body.Errors) != 1 || body.Errors[0].Field != "dxdispatch.commands" || body.Errors[0].Code != "import.entries" {
		t.Errorf("API: %d %+v, want 413 import.entries at dxdispatch.commands", res.StatusCode, body)
	}
	if m := body.Errors[0].Message; !strings.Contains(m, "4096") || strings.Contains(m, "4,096") {
		t.Errorf("API message %q: want the cap, ungrouped", m)
	}

	model := `{"dispatchables":{"s":{"type":"DML_OPERATOR_SLICE1","desc":{}}},"commands":[` + strings.Repeat("0,", 5000) + `0]}`
	req, _ := http.NewRequest("POST", ts.URL+"/import?lang=fr", strings.NewReader(url.Values{"text": {model}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusRequestEntityTooLarge || !strings.Contains(string(page), "commands contient plus de 4\u202f096 entrées") {
		t.Errorf("page: %d, want 413 naming commands in French: %.2000s", res.StatusCode, page)
	}

	// The budget held: an import is refused as busy, through both.
	holdBudget(t, s)
	res, err = http.Post(ts.URL+"/api/v1/import", "application/json", strings.NewReader(`{"text":"torch.Size([2, 3]) (3, 1)"}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable || res.Header.Get("Retry-After") == "" {
		t.Errorf("API import with the budget held: %d, want 503 with Retry-After", res.StatusCode)
	}
	res, err = http.PostForm(ts.URL+"/import", url.Values{"text": {"torch.Size([2, 3]) (3, 1)"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("import box with the budget held: %d, want 503", res.StatusCode)
	}
}
