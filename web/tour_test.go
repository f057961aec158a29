package web

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"

	"github.com/stridescope/stridescope/static"
)

func TestTourStartsAtStepOne(t *testing.T) {
	ts := newTestServer(t)
	c := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := c.Get(ts.URL + "/tour")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusFound || res.Header.Get("Location") != "/tour/1" {
		t.Errorf("/tour: %d to %q", res.StatusCode, res.Header.Get("Location"))
	}
	for _, bad := range []string{"/tour/0", "/tour/17", "/tour/x", "/tour/01", "/tour/-1", "/tour/1e1"} {
		if res := get(t, ts, bad); res.StatusCode != http.StatusNotFound {
			t.Errorf("%s: status %d", bad, res.StatusCode)
		}
	}
}

// TestTourWalksBothPagesInOrder checks every step: its own URL, its
// place in the list, the links to its neighbours, a text, a question and
// an answer, and a live explorer or a slice.
func TestTourWalksBothPagesInOrder(t *testing.T) {
	want := []string{
		"Logical versus physical", "Row-major: HW", "Column-major: WH", "Higher dimensions and the dot product",
		"Packed tensors", "Broadcasting with strides", "Padding with strides",
		"DML_BUFFER_TENSOR_DESC: NCHW", "DML_BUFFER_TENSOR_DESC: NHWC",
		"DML_SLICE1 Example 1: positive strides", "DML_SLICE1 Example 2: negative strides",
		"Layout conversion: NCHW to NHWC",
		"DML_PADDING1 Example 3: reflection past the size", "DML_DEPTH_TO_SPACE1: DCR versus CRD",
		"DML_TILE: the input repeated", "DML_SPLIT: one DML_SLICE1 per output",
	}
	if len(tourSteps) != len(want) {
		t.Fatalf("%d steps", len(tourSteps))
	}
	for i, title := range want {
		n := i + 1
		res, d := page(t, "/tour/"+strconv.Itoa(n))
		if res.StatusCode != 200 {
			t.Fatalf("step %d: status %d", n, res.StatusCode)
		}
		if got := d.Find(tid("tour-title")).Text(); got != title {
			t.Errorf("step %d: title %q, want %q", n, got, title)
		}
		if got := d.Find(tid("tour-count")).Text(); got != "Step "+strconv.Itoa(n)+" of 16" {
			t.Errorf("step %d: %q", n, got)
		}
		sentences := 0
		d.Find(tid("tour-text") + " p").Each(func(_ int, p *goquery.Selection) { sentences += strings.Count(p.Text()+" ", ". ") })
		if sentences < 2 || sentences > 3 || d.Find(tid("tour-question")).Text() == "" || d.Find(tid("tour-answer")).Text() == "" {
			t.Errorf("step %d: %d sentences, question %q", n, sentences, d.Find(tid("tour-question")).Text())
		}
		if cur, _ := d.Find(tid("tour-step-" + strconv.Itoa(n))).Attr("aria-current"); cur != "step" {
			t.Errorf("step %d: not current in the list", n)
		}
		prev, hasPrev := d.Find(tid("tour-prev")).Attr("href")
		if (n == 1) == hasPrev || (hasPrev && prev != "/tour/"+strconv.Itoa(n-1)) {
			t.Errorf("step %d: previous %q", n, prev)
		}
		next, _ := d.Find(tid("tour-next")).Attr("href")
		if n < len(want) && next != "/tour/"+strconv.Itoa(n+1) {
			t.Errorf("step %d: next %q", n, next)
		}
		if rel, _ := d.Find(tid("tour-next")).Attr("rel"); rel != "next" {
			t.Errorf("step %d: next rel %q", n, rel)
		}
		// The step's explorer is shown, and no other: each explorer's
		// widget carries its Kind's name as its test id ("explorer" for
		// the layout's).
		for _, k := range []string{"layout", "slice", "convert", "padding", "depthspace", "tile", "joinsplit"} {
			id := k
			if k == "layout" {
				id = "explorer"
			}
			want := tourSteps[i].page == k || (tourSteps[i].page == "" && k == "layout")
			if got := d.Find(tid(id)).Length() == 1; got != want {
				t.Errorf("step %d: the %s explorer shown %v", n, k, got)
			}
		}
		if d.Find(`script[src="`+static.URL("tour.js")+`"]`).Length() != 1 {
			t.Errorf("step %d: no keyboard module", n)
		}
	}
}

// TestTourConversionStep: step 12 is the conversion explorer on
// NCHW -> NHWC, live and submitting to the step, its numbers the ones
// its answer gives.
func TestTourConversionStep(t *testing.T) {
	n := stepOf(t, "convert")
	step := "/tour/" + strconv.Itoa(n)
	_, d := page(t, step)
	if got := d.Find(tid("tour-title")).Text(); got != "Layout conversion: NCHW to NHWC" {
		t.Fatalf("step %d is %q", n, got)
	}
	// The answer's numbers are the page's: element G, (0,1,0,0), is read
	// at input offset 6 and written at output offset 1.
	i := d.Find("#lg-6")
	if c, _ := i.Attr("data-c"); c != "0,1,0,0" {
		t.Errorf("element 8 is (%s)", c)
	}
	if o, _ := i.Attr("data-o"); o != "6" {
		t.Errorf("element G read at %s", o)
	}
	if l, _ := i.Attr("data-link"); l != "ob-1" {
		t.Errorf("element G written at %s", l)
	}
	answer := d.Find(tid("tour-answer")).Text()
	for _, want := range []string{"input offset 6", "output offset 1", "1 run of 12 elements", "12 runs of 1"} {
		if !strings.Contains(answer, want) {
			t.Errorf("the answer %q does not say %q", answer, want)
		}
	}
	if got := d.Find(tid("access")).Text(); got != "Reads 1 run of 12 elements, writes 12 runs of 1 element." {
		t.Errorf("access %q", got)
	}
	if got := d.Find(tid("scattered")).Text(); !strings.HasPrefix(got, "The output side is scattered") {
		t.Errorf("scattered %q", got)
	}
	if a, _ := d.Find(tid("form")).Attr("action"); a != step {
		t.Errorf("form action %q", a)
	}
	if href, _ := d.Find(tid("preset-transpose")).Attr("href"); !strings.HasPrefix(href, step+"?") {
		t.Errorf("preset href %q", href)
	}
	if got := d.Find(tid("inner")).Text(); got != "Innermost loop: input stride 1, output stride 2 (in elements)." {
		t.Errorf("inner %q", got)
	}
	// An edit is kept on the step, in every language.
	for _, lang := range []string{"en", "fr", "pt-BR", "zh-TW"} {
		res, d := page(t, step+"?lang="+lang+"&sizes=2,3&imode=packed&omode=WH")
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", lang, res.StatusCode)
		}
		if got := strings.Join(attrs(d.Find(`[data-testid=output-buffer] [data-link]`), "data-link"), ","); got != "ib-0,ib-3,ib-1,ib-4,ib-2,ib-5" {
			t.Errorf("%s: the edited transpose's output links %s", lang, got)
		}
	}
}

// stepOf is the number of the one tour step showing the explorer named page.
func stepOf(t *testing.T, page string) int {
	t.Helper()
	n := 0
	for i, st := range tourSteps {
		if st.page == page {
			if n != 0 {
				t.Fatalf("steps %d and %d both show %s", n, i+1, page)
			}
			n = i + 1
		}
	}
	if n == 0 {
		t.Fatalf("no step shows %s", page)
	}
	return n
}

// TestTourDataMovementSteps: the steps of issue #40's operators show
// their live explorer on the page's example, submitting to the step, and
// the cell each question names reads the input element its answer gives
// (which the cell's label, its value, does not tell apart); each is
// written in the four languages, and the last leads on to its explorer.
func TestTourDataMovementSteps(t *testing.T) {
	for _, tc := range []struct {
		page, title string
		cell, label string // the question's cell and the value it shows
		link        string // the cell the answer says it is linked to
		answer      []string
		preset      string // another example, kept on the step
		cells       string // the test id of the explorer's output cells
		outputs     int
	}{
		{page: "padding", title: "DML_PADDING1 Example 3: reflection past the size",
			cell: "#out-9", label: "6", link: "in-5", answer: []string{"(0,0,1,1)", "7 mod 6 = 1"},
			preset: "pad-ex1", cells: "outcell", outputs: 80},
		{page: "depthspace", title: "DML_DEPTH_TO_SPACE1: DCR versus CRD",
			cell: "#in-2", label: "18", link: "dcr-1", answer: []string{"(0,0,0,1)", "(0,0,1,0)"},
			preset: "d2s-page", cells: "dcrcell", outputs: 8},
		{page: "tile", title: "DML_TILE: the input repeated",
			cell: "#out-34", label: "5", link: "in-4", answer: []string{"(0,0,1,1)", "4 mod 3 = 1", "Six"},
			preset: "tile-ex", cells: "outcell", outputs: 36},
		{page: "joinsplit", title: "DML_SPLIT: one DML_SLICE1 per output",
			cell: "#i0-10", label: "11", link: "o2-4", answer: []string{"y2, element (0,0,1,1)", "{0,0,0,3}"},
			preset: "split-example1", cells: "o2cell", outputs: 6},
	} {
		t.Run(tc.page, func(t *testing.T) {
			n := stepOf(t, tc.page)
			step := "/tour/" + strconv.Itoa(n)
			_, d := page(t, step)
			if got := d.Find(tid("tour-title")).Text(); got != tc.title {
				t.Errorf("step %d is %q", n, got)
			}
			if got := d.Find(tid(tc.cells)).Length(); got != tc.outputs {
				t.Errorf("%d output cells, want %d", got, tc.outputs)
			}
			c := d.Find(tc.cell)
			if got := strings.TrimSpace(c.Find(".lbl").Text()); got != tc.label {
				t.Errorf("%s shows %q, want %q", tc.cell, got, tc.label)
			}
			if got, _ := c.Attr("data-link"); got != tc.link {
				t.Errorf("%s reads %s, want %s", tc.cell, got, tc.link)
			}
			if tc.page == "depthspace" {
				// CRD writes channel 2 to (0,0,1,0), DCR to (0,0,0,1).
				crd := d.Find("#crd-2")
				if got, _ := crd.Attr("data-link"); got != "in-2" || crd.AttrOr("data-c", "") != "0,0,1,0" {
					t.Errorf("CRD's (%s) reads %s", crd.AttrOr("data-c", ""), got)
				}
				if got := d.Find("#dcr-1").AttrOr("data-c", ""); got != "0,0,0,1" {
					t.Errorf("dcr-1 is (%s)", got)
				}
			}
			// The padding's: another input cell shows the same value, so
			// the label alone does not answer the question.
			if tc.page == "padding" {
				same := 0
				d.Find(tid("incell")).Each(func(_ int, s *goquery.Selection) {
					if strings.TrimSpace(s.Find(".lbl").Text()) == tc.label {
						same++
					}
				})
				if same < 2 {
					t.Errorf("%d input cells show %s", same, tc.label)
				}
			}
			answer := d.Find(tid("tour-answer")).Text()
			for _, want := range tc.answer {
				if !strings.Contains(answer, want) {
					t.Errorf("the answer %q does not say %q", answer, want)
				}
			}
			if a, _ := d.Find(tid("form")).Attr("action"); a != step {
				t.Errorf("form action %q", a)
			}
			if href, _ := d.Find(tid("preset-" + tc.preset)).Attr("href"); !strings.HasPrefix(href, step+"?") {
				t.Errorf("preset href %q", href)
			}
			next, _ := d.Find(tid("tour-next")).Attr("href")
			if n == len(tourSteps) {
				if want := "/" + tc.page + "?" + tourSteps[n-1].query; next != want {
					t.Errorf("the last step leads to %q, want %q", next, want)
				}
				if got := d.Find(tid("tour-next")).Text(); !strings.Contains(got, "explorer") {
					t.Errorf("the last step's next %q", got)
				}
			} else if next != "/tour/"+strconv.Itoa(n+1) {
				t.Errorf("next %q", next)
			}
			// The step in every language: its own words, not the
			// English or a raw key, and the same picture.
			for _, lang := range []string{"fr", "pt-BR", "zh-TW"} {
				res, d := page(t, step+"?lang="+lang)
				if res.StatusCode != http.StatusOK {
					t.Fatalf("%s: status %d", lang, res.StatusCode)
				}
				for _, f := range []string{"tour-title", "tour-question", "tour-answer", "tour-next"} {
					if got := d.Find(tid(f)).Text(); got == "" || strings.Contains(got, "tour.") {
						t.Errorf("%s: %s %q", lang, f, got)
					}
				}
				if got := d.Find(tid("tour-title")).Text(); got == tc.title {
					t.Errorf("%s: the title is the English", lang)
				}
				if got, _ := d.Find(tc.cell).Attr("data-link"); got != tc.link {
					t.Errorf("%s: %s reads %s", lang, tc.cell, got)
				}
			}
		})
	}
}

func TestTourLayoutStepIsTheLiveExplorer(t *testing.T) {
	_, d := page(t, "/tour/4")
	if got := strings.TrimSpace(d.Find(tid("dot")).Text()); got != "{1,0,1} · {6,3,1} = 1×6 + 0×3 + 1×1 = 7" {
		t.Errorf("dot %q", got)
	}
	if a, _ := d.Find(tid("form")).Attr("action"); a != "/tour/4" {
		t.Errorf("form action %q", a)
	}
	if href, _ := d.Find(tid("preset-WHD")).Attr("href"); !strings.HasPrefix(href, "/tour/4?") {
		t.Errorf("preset href %q", href)
	}
	if d.Find(tid("download-svg")).Length() != 1 || d.Find(tid("embed")).Length() != 1 {
		t.Error("no Embed or Download SVG button")
	}
	// An edited state (a submission, or the live page's URL) is kept.
	_, d = page(t, "/tour/4?dt=FLOAT32&sizes=2,2,3&strides=1,2,4")
	if got := strings.Join(attrs(d.Find(tid("lcell")), "data-o"), ","); got != "0,4,8,2,6,10,1,5,9,3,7,11" {
		t.Errorf("edited offsets %s", got)
	}
	if href, _ := d.Find(tid("tour-reset")).Attr("href"); href != "/tour/4" {
		t.Errorf("reset %q", href)
	}
	// Every layout step's state is valid and drawn.
	for n, st := range tourSteps {
		if st.page != "" {
			continue
		}
		_, d := page(t, "/tour/"+strconv.Itoa(n+1))
		if _, stale := d.Find(tid("stale")).Attr("hidden"); !stale || d.Find(tid("lcell")).Length() == 0 {
			t.Errorf("step %d (%s) does not draw its state", n+1, st.query)
		}
		// A selection in the step's state is drawn (a preset would drop it).
		focus := d.Find(`.lc.sel, .bc.sel`).Length() > 0
		if want := strings.Contains(st.query, "sel=") || strings.Contains(st.query, "cell=") || strings.Contains(st.query, "preset=DHW"); focus != want {
			t.Errorf("step %d (%s): selection drawn %v", n+1, st.query, focus)
		}
	}
}

func number(d *goquery.Document, id string) string { return d.Find(tid(id) + " dd").First().Text() }

func TestTourSliceStepsWorkThePageExamplesOut(t *testing.T) {
	for _, tc := range []struct {
		step                      int
		copyStart, maxCopied, out string
		errata                    []string
		preset                    string
	}{
		{10, "{0,0,0,1}", "{1,1,2,2}", "[[2, 4], [10, 12]]", []string{"E3"}, "example1"},
		{11, "{0,0,3,1}", "{1,1,2,2}", "[[14, 16], [6, 8]]", []string{"E1", "E2"}, "example2"},
	} {
		_, d := page(t, "/tour/"+strconv.Itoa(tc.step))
		if got := number(d, "tour-copystart"); got != tc.copyStart {
			t.Errorf("step %d: CopyStart %q", tc.step, got)
		}
		if got := number(d, "tour-maxcopied"); got != tc.maxCopied {
			t.Errorf("step %d: MaxCopiedElements %q", tc.step, got)
		}
		if got := number(d, "tour-output"); got != tc.out {
			t.Errorf("step %d: output %q, want %q", tc.step, got, tc.out)
		}
		for _, e := range tc.errata {
			if d.Find(tid("erratum-"+e)).Length() != 1 {
				t.Errorf("step %d: no erratum %s", tc.step, e)
			}
		}
		if href, _ := d.Find(tid("tour-slice-link")).Attr("href"); href != "/slice?preset="+tc.preset {
			t.Errorf("step %d: slice link %q", tc.step, href)
		}
		// The live slice explorer on the example, submitting to the step.
		if got := strings.Join(texts(d.Find(tid("outcell")), ".lbl"), " "); got != strings.NewReplacer("[", "", "]", "", ",", "").Replace(tc.out) {
			t.Errorf("step %d: the slice explorer's output %q", tc.step, got)
		}
		if a, _ := d.Find(tid("form")).Attr("action"); a != "/tour/"+strconv.Itoa(tc.step) {
			t.Errorf("step %d: form action %q", tc.step, a)
		}
		if href, _ := d.Find(tid("preset-reverse")).Attr("href"); !strings.HasPrefix(href, "/tour/"+strconv.Itoa(tc.step)+"?") {
			t.Errorf("step %d: preset href %q", tc.step, href)
		}
		if d.Find(tid("download-svg")).Length() != 1 {
			t.Errorf("step %d: no Download SVG", tc.step)
		}
	}
}

// TestTourStepKeepsItsExampleWithViewKeys: a query that only says how to
// show a step (a classroom room, the page's language, the cell labels) keeps the step's own
// example; an edit replaces it (issue #13, 2).
func TestTourStepKeepsItsExampleWithViewKeys(t *testing.T) {
	for _, c := range []struct {
		path, buffer, labels string
	}{
		{"/tour/7", "10 elements", ""},
		{"/tour/7?room=ABCDEF", "10 elements", ""},
		{"/tour/7?labels=offset", "10 elements", "offset"},
		{"/tour/7?labels=index&room=ABCDEF", "10 elements", "index"},
		// The language switcher's links: the page's language is not its state.
		{"/tour/7?lang=fr", "10 ", ""},
		{"/tour/7?lang=zh-TW&labels=offset", "10 ", "offset"},
		{"/tour/7?sizes=2,3", "6 elements", ""}, // an edit
		{"/tour/7?lang=pt-BR&sizes=2,3", "6 ", ""},
	} {
		res, d := page(t, c.path)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d", c.path, res.StatusCode)
		}
		if got := d.Find(tid("buffer-sub")).Text(); !strings.HasPrefix(got, c.buffer) {
			t.Errorf("%s: buffer %q, want %s (A B C x x D E F x x)", c.path, got, c.buffer)
		}
		if c.labels != "" {
			if got := d.Find(tid("labels")+" option[selected]").AttrOr("value", ""); got != c.labels {
				t.Errorf("%s: labels %q", c.path, got)
			}
		}
	}
	// The slice steps too.
	for _, path := range []string{"/tour/11?room=ABCDEF", "/tour/11?lang=fr"} {
		_, d := page(t, path)
		if got := strings.Join(texts(d.Find(tid("slice-output")+" .lc"), ".lbl"), " "); got != "14 16 6 8" {
			t.Errorf("%s: output %q", path, got)
		}
	}
}
