package web

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/stridescope/stridescope/testkit"
)

// checkedModel has a valid DML_SLICE1 exported by the site itself and an
// identity whose output strides write two elements to one cell.
const checkedModel = `{
  "dispatchables": {
    "s": {"type": "DML_OPERATOR_SLICE1", "desc": {
      "InputTensor": {"DataType": "FLOAT32", "Sizes": [4, 4]},
      "OutputTensor": {"DataType": "FLOAT32", "Sizes": [2, 2]},
      "InputWindowOffsets": [1, 1], "InputWindowSizes": [2, 2], "InputWindowStrides": [1, 1]}},
    "id": {"type": "ELEMENT_WISE_IDENTITY", "desc": {
      "InputTensor": {"DataType": "FLOAT32", "Sizes": [2, 3]},
      "OutputTensor": {"DataType": "FLOAT32", "Sizes": [2, 3], "Strides": [1, 1]}}}
  }
}`

func TestCheckAPI(t *testing.T) {
	ts := newTestServer(t)
	for _, tc := range []struct {
		name, body string
		status     int
		valid      bool
	}{
		{"refused", `{"dxdispatch": ` + checkedModel + `}`, http.StatusOK, false},
		{"valid", `{"dxdispatch": ` + strings.Replace(checkedModel, `"Strides": [1, 1]`, `"Strides": [1, 2]`, 1) + `}`, http.StatusOK, true},
		{"no model", `{}`, http.StatusBadRequest, false},
		{"not a model", `{"dxdispatch": {"dispatchables": []}}`, http.StatusBadRequest, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, body := post(t, ts, "/api/v1/check", tc.body)
			if status != tc.status {
				t.Fatalf("status %d, want %d: %v", status, tc.status, body)
			}
			if status != http.StatusOK {
				if len(errorFields(body)) == 0 {
					t.Errorf("a 400 without errors: %v", body)
				}
				return
			}
			if body["valid"] != tc.valid {
				t.Fatalf("valid = %v, want %v: %v", body["valid"], tc.valid, body)
			}
			ops := body["operators"].([]any)
			s, id := ops[0].(map[string]any), ops[1].(map[string]any)
			if s["valid"] != true || s["url"] != "/slice?dt=FLOAT32&sizes=4,4&woff=1,1&wsize=2,2&wstride=1,1" {
				t.Errorf("the slice: %v", s)
			}
			if tc.valid {
				if id["valid"] != true || !strings.HasPrefix(id["url"].(string), "/convert?") {
					t.Errorf("the identity: %v", id)
				}
				return
			}
			errs := errorFields(id)
			if len(errs) != 1 || !strings.HasPrefix(errs[0], "dxdispatch.dispatchables.id.desc.OutputTensor.Strides: ") {
				t.Errorf("the identity's errors: %q", errs)
			}
		})
	}
}

// The check page works without JavaScript, in the reader's language.
func TestCheckPage(t *testing.T) {
	ts := newTestServer(t)
	res, err := http.Get(ts.URL + "/check")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /check: %d", res.StatusCode)
	}
	req, _ := http.NewRequest(http.MethodPost, ts.URL+"/check", strings.NewReader(url.Values{"text": {checkedModel}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Accept-Language", "fr")
	res, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(res.Body)
	res.Body.Close()
	page := string(b)
	for _, want := range []string{
		"Refusé\u00a0: les règles de DirectML sont enfreintes par 1 opérateur sur 2.",
		"dxdispatch.dispatchables.id.desc.OutputTensor.Strides",
		"enfreint 1 règle",
		`href="/slice?dt=FLOAT32&amp;sizes=4,4&amp;woff=1,1&amp;wsize=2,2&amp;wstride=1,1"`,
	} {
		if !strings.Contains(page, want) {
			t.Errorf("the French page lacks %q", want)
		}
	}
	if res.StatusCode != http.StatusOK {
		t.Errorf("status %d", res.StatusCode)
	}
}

// The operators index lists every explorer that lists itself, linked in
// the reader's language, and the check; the header's link is current on
// it and on the operators' pages but not on the layout explorer.
func TestOperatorsIndex(t *testing.T) {
	_, doc := page(t, "/operators?lang=pt-BR")
	var links []string
	doc.Find("[data-testid=operator-item] h2 a").Each(func(_ int, a *goquery.Selection) {
		links = append(links, a.AttrOr("href", "")+" "+a.Text())
	})
	want := []string{"/?lang=pt-BR Explorador de layout", "/slice?lang=pt-BR Explorador de DML_SLICE1", "/convert?lang=pt-BR Conversão de layout", "/depthspace?lang=pt-BR Profundidade para espaço e de volta", "/joinsplit?lang=pt-BR Junção e divisão", "/padding?lang=pt-BR DML_PADDING1: os modos de preenchimento", "/tile?lang=pt-BR DML_TILE: a repetição em blocos", "/check?lang=pt-BR Por que meu operador é recusado?"}
	if strings.Join(links, "\n") != strings.Join(want, "\n") {
		t.Errorf("the index links\n%s\nwant\n%s", strings.Join(links, "\n"), strings.Join(want, "\n"))
	}
	for path, current := range map[string]bool{"/operators": true, "/check": true, "/convert": true, "/depthspace": true, "/joinsplit": true, "/padding": true, "/tile": true, "/": false, "/slice": false} {
		_, d := page(t, path)
		got := d.Find("[data-testid=nav-operators][aria-current=page]").Length() == 1
		if got != current {
			t.Errorf("%s: the operators link current = %v, want %v", path, got, current)
		}
	}
}

// TestCheckAPINamesEachRule posts interop's table of the data-movement
// operators' rules, each broken alone and some together, to POST
// /api/v1/check: the answer names every broken rule at its field, by
// its code, in one answer, and the other operators are valid.
func TestCheckAPINamesEachRule(t *testing.T) {
	ts := newTestServer(t)
	rt := testkit.LoadRuleTable(t, "../interop/testdata/check-rules.json")
	for _, c := range rt.Cases {
		t.Run(c.Name, func(t *testing.T) {
			status, body := post(t, ts, "/api/v1/check", `{"dxdispatch": `+string(rt.Edited(t, c))+`}`)
			if status != http.StatusOK {
				t.Fatalf("status %d: %v", status, body)
			}
			if body["valid"] != (len(c.Errors) == 0) || body["refused"] != float64(len(c.Errors)) {
				t.Errorf("valid %v refused %v, want %d refused", body["valid"], body["refused"], len(c.Errors))
			}
			ops, _ := body["operators"].([]any)
			if len(ops) != 6 {
				t.Fatalf("%d operators, want 6", len(ops))
			}
			for _, o := range ops {
				op := o.(map[string]any)
				name := op["name"].(string)
				var got [][2]string
				for _, e := range op["errors"].([]any) {
					v := e.(map[string]any)
					code, _ := v["code"].(string)
					got = append(got, [2]string{v["field"].(string), code})
				}
				if msg := c.Diff(name, got); msg != "" {
					t.Error(msg)
				}
				if url, _ := op["url"].(string); (len(c.Errors[name]) == 0) != (op["valid"] == true && url != "") {
					t.Errorf("%s: valid %v url %q", name, op["valid"], url)
				}
			}
		})
	}
}

// TestCheckPassesTheModelsThePagesExport follows each data-movement
// page's own DxDispatch download link, for each of its first examples,
// and posts the file it gets to /api/v1/check: it checks clean.
func TestCheckPassesTheModelsThePagesExport(t *testing.T) {
	ts := newTestServer(t)
	for _, path := range []string{
		"/padding", "/padding?preset=pad-ex3", "/padding?preset=pad-wrap", "/tile", "/tile?preset=tile-broadcast",
		"/depthspace", "/depthspace?preset=s2d-page1", "/depthspace?preset=nhwc", "/joinsplit", "/joinsplit?preset=split-example2",
	} {
		t.Run(path, func(t *testing.T) {
			res, err := http.Get(ts.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			doc, err := goquery.NewDocumentFromReader(res.Body)
			res.Body.Close()
			if err != nil {
				t.Fatal(err)
			}
			href, ok := doc.Find("[data-testid=dx-download]").Attr("href")
			if !ok {
				t.Fatalf("%s has no DxDispatch download", path)
			}
			res, err = http.Get(ts.URL + href)
			if err != nil {
				t.Fatal(err)
			}
			model, _ := io.ReadAll(res.Body)
			res.Body.Close()
			if res.StatusCode != http.StatusOK {
				t.Fatalf("GET %s: %d %s", href, res.StatusCode, model)
			}
			status, body := post(t, ts, "/api/v1/check", `{"dxdispatch": `+string(model)+`}`)
			ops, _ := body["operators"].([]any)
			if status != http.StatusOK || body["valid"] != true || body["checked"] != float64(len(ops)) {
				t.Fatalf("%s: status %d: %v", href, status, body)
			}
			page, _, _ := strings.Cut(strings.TrimPrefix(path, "/"), "?")
			for _, o := range ops {
				if u, _ := o.(map[string]any)["url"].(string); !strings.HasPrefix(u, "/"+page+"?") {
					t.Errorf("%s opens %q", o.(map[string]any)["name"], u)
				}
			}
		})
	}
}

// TestCheckPageExample: /check offers a model to try without one of
// one's own; the page's own button posts it, and the answer names each
// rule it breaks: a PADDING1 output a column short and a union member
// DxDispatch does not read, channels a BlockSize² does not divide, and the
// TILE valid, in each language.
func TestCheckPageExample(t *testing.T) {
	ts := newTestServer(t)
	for _, lang := range []string{"en", "zh-TW"} {
		res, err := http.Get(ts.URL + "/check?lang=" + lang)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := goquery.NewDocumentFromReader(res.Body)
		res.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		form := doc.Find(`[data-testid=check-example-form]`)
		action, _ := form.Attr("action")
		text, ok := form.Find(`input[name=text]`).Attr("value")
		if !ok || form.Find(`[data-testid=check-example]`).Text() == "" {
			t.Fatalf("%s: no example form on /check", lang)
		}
		res, err = http.PostForm(ts.URL+action, url.Values{"text": {text}})
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		page := string(b)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: POST %s: %d", lang, action, res.StatusCode)
		}
		d, _ := goquery.NewDocumentFromReader(strings.NewReader(page))
		if n := d.Find(`[data-testid=check-op]`).Length(); n != 3 {
			t.Errorf("%s: %d operators checked, want 3", lang, n)
		}
		for _, want := range []string{
			"dxdispatch.dispatchables.pad.desc.OutputTensor.Sizes[3]",
			"dxdispatch.dispatchables.pad.desc.PaddingValue",
			"dxdispatch.dispatchables.d2s.desc.InputTensor.Sizes[1]", // 8 channels, BlockSize 3
		} {
			if !strings.Contains(page, want) {
				t.Errorf("%s: the answer does not name %s", lang, want)
			}
		}
		if strings.Contains(page, "dxdispatch.dispatchables.tile.") {
			t.Errorf("%s: the valid TILE is refused", lang)
		}
	}
}
