package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/stridescope/stridescope/core"
)

// step is what the step-through must show at one step: the cells it
// marks and its caption, worked out here from the operator's JSON API
// (its inputCoordinates) and core's rules, not from the page.
type step struct {
	out, src []string
	caption  string
}

// copyStepCase is one explorer's state, its API request and the steps
// that the API's answer says it has.
type copyStepCase struct {
	name, page, lang string
	api              string
	body             string
	steps            func(t *testing.T, a apiAnswer) []step
}

// apiAnswer is the part of the four APIs' answers the steps are checked
// against.
type apiAnswer struct {
	OutputSizes      []int64   `json:"outputSizes"`
	InputCoordinates [][]int64 `json:"inputCoordinates"`
	Sources          []struct {
		Input      int     `json:"input"`
		Coordinate []int64 `json:"coordinate"`
	} `json:"sources"`
	Inputs []struct {
		Start int64 `json:"start"`
	} `json:"inputs"`
	InputSizes []int64 `json:"inputSizes"`
	Outputs    []struct {
		Start              int64   `json:"start"`
		OutputSizes        []int64 `json:"outputSizes"`
		InputWindowOffsets []int64 `json:"inputWindowOffsets"`
	} `json:"outputs"`
}

const minus = "\u2212"

func itoa(v int64) string {
	if v < 0 {
		return minus + strconv.FormatInt(-v, 10)
	}
	return strconv.FormatInt(v, 10)
}

func coordText(c []int64) string {
	s := make([]string, len(c))
	for i, v := range c {
		s[i] = itoa(v)
	}
	return "{" + strings.Join(s, ",") + "}"
}

func rowMajor(sizes, c []int64) int64 {
	var i int64
	for d, v := range c {
		i = i*sizes[d] + v
	}
	return i
}

func coordOf(sizes []int64, i int64) []int64 {
	c := make([]int64, len(sizes))
	for d := len(sizes) - 1; d >= 0; d-- {
		c[d] = i % sizes[d]
		i /= sizes[d]
	}
	return c
}

func mod(a, m int64) int64 { return ((a % m) + m) % m }

// padStep: DML_PADDING1 output k; each axis's term is checked against
// core.PadSource, the coordinate against the API's.
func padStep(t *testing.T, a apiAnswer, mode core.PaddingMode, in, start []int64, value string, k int64) step {
	c := coordOf(a.OutputSizes, k)
	out := "Output[" + coordText(c) + "]"
	from := a.InputCoordinates[k]
	if from == nil {
		ds, ks := make([]string, len(c)), make([]int64, len(c))
		for d, o := range c {
			ds[d], ks[d] = itoa(o)+" "+minus+" "+itoa(start[d]), o-start[d]
		}
		return step{out: []string{"out-" + strconv.FormatInt(k, 10)}, caption: out + " = PaddingValue = " + value + ": {" + strings.Join(ds, ", ") + "} = " + coordText(ks) + " lies outside the input"}
	}
	ts := make([]string, len(c))
	for d, o := range c {
		if got := core.PadSource(mode, in[d], start[d], o); got != from[d] {
			t.Fatalf("core.PadSource(%v, %d, %d, %d) = %d, the API says %d", mode, in[d], start[d], o, got, from[d])
		}
		diff := itoa(o) + " " + minus + " " + itoa(start[d])
		x := "(" + diff + ")"
		p := 2 * (in[d] - 1)
		if mode == core.PadSymmetric {
			p = 2 * in[d]
		}
		switch {
		case mode == core.PadConstant:
			ts[d] = diff
		case mode == core.PadEdge:
			ts[d] = fmt.Sprintf("min(max(%s, 0), %d)", diff, in[d]-1)
		case mode == core.PadWrap:
			ts[d] = x + " mod " + itoa(in[d])
		case mode == core.PadReflection && in[d] == 1:
			ts[d] = "0"
		case mod(o-start[d], p) < in[d]:
			ts[d] = x + " mod " + itoa(p)
		case mode == core.PadReflection:
			ts[d] = itoa(p) + " " + minus + " " + x + " mod " + itoa(p)
		default: // SYMMETRIC past the size
			ts[d] = itoa(p-1) + " " + minus + " " + x + " mod " + itoa(p)
		}
	}
	return step{out: []string{"out-" + strconv.FormatInt(k, 10)}, src: []string{"in-" + strconv.FormatInt(rowMajor(in, from), 10)},
		caption: out + " = Input[{" + strings.Join(ts, ", ") + "}]\n= Input[" + coordText(from) + "]"}
}

func copyStepCases() []copyStepCase {
	padIn, padStart := []int64{3, 3}, []int64{2, 1}
	return []copyStepCase{
		{name: "padding-reflection", lang: "fr", page: "/padding?dt=FLOAT32&sizes=3,3&mode=REFLECTION&start=2,1&end=1,2",
			api: "/api/v1/padding1", body: `{"dataType":"FLOAT32","inputSizes":[3,3],"paddingMode":"REFLECTION","startPadding":[2,1],"endPadding":[1,2]}`,
			steps: func(t *testing.T, a apiAnswer) []step {
				var s []step
				for k := range int64(len(a.InputCoordinates)) {
					s = append(s, padStep(t, a, core.PadReflection, padIn, padStart, "", k))
				}
				return s
			}},
		{name: "padding-constant", lang: "en", page: "/padding?dt=FLOAT32&sizes=2,2&mode=CONSTANT&value=9&start=1,0&end=0,1",
			api: "/api/v1/padding1", body: `{"dataType":"FLOAT32","inputSizes":[2,2],"paddingMode":"CONSTANT","paddingValue":9,"startPadding":[1,0],"endPadding":[0,1]}`,
			steps: func(t *testing.T, a apiAnswer) []step {
				var s []step
				for k := range int64(len(a.InputCoordinates)) {
					s = append(s, padStep(t, a, core.PadConstant, []int64{2, 2}, []int64{1, 0}, "9", k))
				}
				return s
			}},
		padCase("symmetric", "pt-BR", core.PadSymmetric, []int64{2, 3}, []int64{3, 1}, []int64{1, 4}),
		padCase("wrap", "zh-TW", core.PadWrap, []int64{2, 3}, []int64{3, 2}, []int64{0, 2}),
		padCase("edge", "fr", core.PadEdge, []int64{1, 3}, []int64{1, 2}, []int64{2, 1}),
		{name: "tile", lang: "zh-TW", page: "/tile?dt=FLOAT32&sizes=2,3&repeats=2,2",
			api: "/api/v1/tile", body: `{"dataType":"FLOAT32","inputSizes":[2,3],"repeats":[2,2]}`,
			steps: func(t *testing.T, a apiAnswer) []step {
				var s []step
				for k, from := range a.InputCoordinates {
					c := coordOf(a.OutputSizes, int64(k))
					s = append(s, step{out: []string{fmt.Sprintf("out-%d", k)}, src: []string{fmt.Sprintf("in-%d", rowMajor([]int64{2, 3}, from))},
						caption: fmt.Sprintf("Output[%s] = Input[{%d mod 2, %d mod 3}] = Input[%s]", coordText(c), c[0], c[1], coordText(from))})
				}
				return s
			}},
		{name: "join", lang: "pt-BR", page: "/joinsplit?preset=join-example1",
			api: "/api/v1/join", body: `{"dataType":"FLOAT32","inputs":[{"sizes":[1,1,2,3]},{"sizes":[1,1,2,4]}],"axis":3}`,
			steps: func(t *testing.T, a apiAnswer) []step {
				var s []step
				for k, src := range a.Sources {
					c, start := coordOf(a.OutputSizes, int64(k)), a.Inputs[src.Input].Start
					in := []int64{1, 1, 2, 3 + 1*int64(src.Input)}
					s = append(s, step{out: []string{fmt.Sprintf("o0-%d", k)}, src: []string{fmt.Sprintf("i%d-%d", src.Input, rowMajor(in, src.Coordinate))},
						caption: fmt.Sprintf("OutputTensor[%s] = InputTensors[%d][{%d, %d, %d, %d %s %d}] = InputTensors[%d][%s]", coordText(c), src.Input, c[0], c[1], c[2], c[3], minus, start, src.Input, coordText(src.Coordinate))})
				}
				return s
			}},
		{name: "split", lang: "fr", page: "/joinsplit?preset=split-example1",
			api: "/api/v1/split", body: `{"dataType":"FLOAT32","inputSizes":[1,1,6,2],"axis":2,"outputSizes":[2,1,3]}`,
			steps: func(t *testing.T, a apiAnswer) []step {
				var s []step
				for k, o := range a.Outputs {
					n := o.OutputSizes[2] * o.OutputSizes[3]
					for i := range n {
						c := coordOf(o.OutputSizes, i)
						from := []int64{c[0], c[1], c[2] + o.Start, c[3]}
						s = append(s, step{out: []string{fmt.Sprintf("o%d-%d", k, i)}, src: []string{fmt.Sprintf("i0-%d", rowMajor(a.InputSizes, from))},
							caption: fmt.Sprintf("OutputTensors[%d][%s] = InputTensor[{%d, %d, %d + %d, %d}] = InputTensor[%s]", k, coordText(c), c[0], c[1], c[2], o.Start, c[3], coordText(from))})
					}
				}
				return s
			}},
		{name: "depthtospace", lang: "zh-TW", page: "/depthspace?preset=d2s-page",
			api: "/api/v1/depthtospace1", body: `{"dataType":"UINT32","inputSizes":[1,8,2,3],"blockSize":2,"order":"DEPTH_COLUMN_ROW"}`,
			steps: d2sSteps},
		{name: "spacetodepth", lang: "en", page: "/depthspace?preset=block3",
			api: "/api/v1/spacetodepth1", body: `{"dataType":"FLOAT32","inputSizes":[1,1,3,6],"blockSize":3,"order":"DEPTH_COLUMN_ROW"}`,
			steps: s2dSteps},
	}
}

// padCase is a 2-D padding of mode m (never CONSTANT: no value).
func padCase(name, lang string, m core.PaddingMode, in, start, end []int64) copyStepCase {
	list := func(xs []int64) string { return strings.Trim(strings.Join(strings.Fields(fmt.Sprint(xs)), ","), "[]") }
	return copyStepCase{name: "padding-" + name, lang: lang,
		page: fmt.Sprintf("/padding?dt=FLOAT32&sizes=%s&mode=%s&start=%s&end=%s", list(in), m, list(start), list(end)),
		api:  "/api/v1/padding1",
		body: fmt.Sprintf(`{"dataType":"FLOAT32","inputSizes":[%s],"paddingMode":"%s","startPadding":[%s],"endPadding":[%s]}`, list(in), m, list(start), list(end)),
		steps: func(t *testing.T, a apiAnswer) []step {
			var s []step
			for k := range int64(len(a.InputCoordinates)) {
				s = append(s, padStep(t, a, m, in, start, "", k))
			}
			return s
		}}
}

// d2sSteps: the page's 1×8×2×3 input, BlockSize 2, output {1,2,4,6}.
func d2sSteps(t *testing.T, a apiAnswer) []step { return d2sOf(t, a, []int64{1, 8, 2, 3}, 2) }

// d2sOf: a depth-to-space of input in, BlockSize b; the API's answer is
// DCR's, CRD's comes from core (checked in core's tests against NumPy).
func d2sOf(t *testing.T, a apiAnswer, in []int64, b int64) []step {
	crd := depthSpace(t, core.DepthToSpace, in, b)
	cOut := in[1] / (b * b)
	var s []step
	for k, from := range a.InputCoordinates {
		c := coordOf(a.OutputSizes, int64(k))
		h, w, ch := c[2], c[3], c[1]
		bh, bw := h%b, w%b
		cf := crd.InputCoordinate(int64(k))
		s = append(s, step{out: []string{fmt.Sprintf("dcr-%d", k), fmt.Sprintf("crd-%d", k)}, src: []string{fmt.Sprintf("in-%d", rowMajor(in, from)), fmt.Sprintf("in-%d", rowMajor(in, cf))},
			caption: fmt.Sprintf("Output[%s]: bh = %d mod %d = %d, bw = %d mod %d = %d\n", coordText(c), h, b, bh, w, b, bw) +
				fmt.Sprintf("DCR: c_in = (bh·B + bw)·C_out + c = (%d·%d + %d)·%d + %d = %d; Input[{%d, %d, %d div %d, %d div %d}] = Input[%s]\n", bh, b, bw, cOut, ch, from[1], c[0], from[1], h, b, w, b, coordText(from)) +
				fmt.Sprintf("CRD: c_in = c·B² + bh·B + bw = %d·%d + %d·%d + %d = %d; Input[{%d, %d, %d div %d, %d div %d}] = Input[%s]", ch, b*b, bh, b, bw, cf[1], c[0], cf[1], h, b, w, b, coordText(cf))})
	}
	return s
}

// s2dSteps: a 1×1×3×6 input, BlockSize 3, output {1,9,1,2}.
func s2dSteps(t *testing.T, a apiAnswer) []step {
	in := []int64{1, 1, 3, 6}
	crd := depthSpace(t, core.SpaceToDepth, in, 3)
	var s []step
	for k, from := range a.InputCoordinates {
		c := coordOf(a.OutputSizes, int64(k))
		ch, h, w := c[1], c[2], c[3]
		cf := crd.InputCoordinate(int64(k))
		dbh, dbw := from[2]-h*3, from[3]-w*3
		cbh, cbw := cf[2]-h*3, cf[3]-w*3
		s = append(s, step{out: []string{fmt.Sprintf("dcr-%d", k), fmt.Sprintf("crd-%d", k)}, src: []string{fmt.Sprintf("in-%d", rowMajor(in, from)), fmt.Sprintf("in-%d", rowMajor(in, cf))},
			caption: fmt.Sprintf("Output[%s]\n", coordText(c)) +
				fmt.Sprintf("DCR: c = (bh·B + bw)·C_in + c_in: c_in = %d mod 1 = %d, bh = (%d div 1) div 3 = %d, bw = (%d div 1) mod 3 = %d; Input[{0, %d, %d·3 + %d, %d·3 + %d}] = Input[%s]\n", ch, from[1], ch, dbh, ch, dbw, from[1], h, dbh, w, dbw, coordText(from)) +
				fmt.Sprintf("CRD: c = c_in·B² + bh·B + bw: c_in = %d div 9 = %d, bh = (%d mod 9) div 3 = %d, bw = %d mod 3 = %d; Input[{0, %d, %d·3 + %d, %d·3 + %d}] = Input[%s]", ch, cf[1], ch, cbh, ch, cbw, cf[1], h, cbh, w, cbw, coordText(cf))})
	}
	return s
}

func depthSpace(t *testing.T, op core.DepthSpaceOp, in []int64, b int64) *core.DepthSpace {
	t.Helper()
	s, err := core.NewDepthSpace(core.DepthSpaceDesc{Op: op, Input: core.TensorDesc{DataType: core.Float32, Sizes: in}, BlockSize: b, Order: core.ColumnRowDepth})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestE2ECopySteps: on each data-movement explorer the step-through
// walks the output in row-major order: a link with t= opens at that
// step; Step, the arrow keys and Back move it; each step marks the
// output cell (both orders' for depth-space) and the input cell the
// operator's API says it reads, and its caption is the formula with the
// numbers core works out; t= follows. On a 390 px phone the lit cell is
// above the bar, not under it; nothing is wider than the screen and
// axe-core finds nothing, in English and one other language.
func TestE2ECopySteps(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	for _, c := range copyStepCases() {
		a := postAPI(t, base+c.api, c.body)
		want := c.steps(t, a)
		for _, vp := range []viewport{phone, desktop} {
			t.Run(c.name+"/"+vp.name, func(t *testing.T) {
				emulate(t, ctx, vp)
				lang := c.lang
				if vp.phone {
					lang = "en"
				}
				k := len(want) / 2
				waitLive(t, ctx, base+c.page+"&lang="+lang+"&t="+strconv.Itoa(k))
				checkStep(t, ctx, want, k)
				do(t, ctx, "Step", clickInView("[data-testid=copy-step-step]"))
				checkStep(t, ctx, want, k+1)
				do(t, ctx, "ArrowRight", chromedp.KeyEvent(kb.ArrowRight))
				checkStep(t, ctx, want, k+2)
				do(t, ctx, "Back", clickInView("[data-testid=copy-step-back]"))
				checkStep(t, ctx, want, k+1)
				do(t, ctx, "End", chromedp.KeyEvent(kb.End))
				checkStep(t, ctx, want, len(want)-1)
				do(t, ctx, "Home", chromedp.KeyEvent(kb.Home))
				waitFor(t, ctx, "no step", `!document.querySelector('.step-out') && !/[?&]t=/.test(location.search)`)
				do(t, ctx, "Step", clickInView("[data-testid=copy-step-step]"))
				checkStep(t, ctx, want, 0)
				if vp.phone {
					// An edit's answer keeps the step and its cells, and leaves
					// the reader where they are (at the form, here).
					seq := eval[string](t, ctx, `document.querySelector('#picture').dataset.seq || ''`)
					do(t, ctx, "an edit of the data type", chromedp.Evaluate[chromedp.Void](`scrollTo(0, 0); (() => { const s = document.querySelector('#controls [name=dt]'); s.value = [...s.options].find((o) => o.value !== s.value && o.value.startsWith('FLOAT')).value; s.dispatchEvent(new Event('change', {bubbles: true})); })()`))
					waitFor(t, ctx, "its answer", fmt.Sprintf(`document.querySelector('#picture').dataset.seq !== %q && document.querySelector('#picture').dataset.state === 'done'`, seq))
					checkStepMarks(t, ctx, want, 0)
					if y := eval[float64](t, ctx, `scrollY`); y != 0 {
						t.Errorf("an edit's answer scrolled the page to %g", y)
					}
				}
				if !vp.phone {
					// Play steps on by itself at 1 a second; Pause holds the step.
					do(t, ctx, "Play", clickInView("[data-testid=copy-step-play]"))
					checkStep(t, ctx, want, 1)
					checkStep(t, ctx, want, 2)
					do(t, ctx, "Pause", clickInView("[data-testid=copy-step-pause]"))
					held := eval[string](t, ctx, `location.search`)
					do(t, ctx, "a second and a half", chromedp.Sleep(1500*time.Millisecond))
					if now := eval[string](t, ctx, `location.search`); now != held {
						t.Errorf("paused at %s, the page went on to %s", held, now)
					}
				}
				if n := eval[float64](t, ctx, overflow(vp.width)); n > 0 {
					t.Errorf("the page is %g px wider than the screen", n)
				}
				if vs := axeViolations(t, ctx); len(vs) > 0 {
					t.Errorf("axe-core: %v", vs)
				}
			})
		}
	}
}

// checkStep waits for step k in the URL, compares what it shows with
// want[k], and finds its output cell on the screen, not under the bar.
func checkStep(t *testing.T, ctx context.Context, want []step, k int) {
	t.Helper()
	waitFor(t, ctx, fmt.Sprintf("step %d in the URL", k), fmt.Sprintf(`new URLSearchParams(location.search).get('t') === '%d'`, k))
	checkStepMarks(t, ctx, want, k)
	// The lit output cell is on the screen, above the bar (which sticks to
	// a screen's foot), once the page has settled (a page opening at its
	// step is still laid out as it arrives).
	waitFor(t, ctx, fmt.Sprintf("step %d's output cell on the screen, clear of the bar", k), `(() => { const c = document.querySelector('.step-out').getBoundingClientRect(), b = document.querySelector('[data-testid=copy-steps]').getBoundingClientRect();
		return !(c.top < 0 || c.bottom > innerHeight || (c.bottom > b.top && c.top < b.bottom)); })()`)
}

// checkStepMarks compares the cells step k marks and its caption with
// want[k].
func checkStepMarks(t *testing.T, ctx context.Context, want []step, k int) {
	t.Helper()
	w := want[k]
	got := eval[[]string](t, ctx, `[...document.querySelectorAll('.step-out')].map((c) => c.id).sort()`)
	if fmt.Sprint(got) != fmt.Sprint(sorted(w.out)) {
		t.Errorf("step %d marks output cells %v, want %v", k, got, w.out)
	}
	got = eval[[]string](t, ctx, `[...new Set([...document.querySelectorAll('.step-src')].map((c) => c.id))].sort()`)
	if fmt.Sprint(got) != fmt.Sprint(sorted(dedupe(w.src))) {
		t.Errorf("step %d marks input cells %v, want %v", k, got, w.src)
	}
	if text := eval[string](t, ctx, `document.querySelector('[data-testid=copy-step-text]').textContent`); text != w.caption {
		t.Errorf("step %d's caption\n%q\nwant\n%q", k, text, w.caption)
	}
}

func sorted(xs []string) []string {
	out := append([]string(nil), xs...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
}

func dedupe(xs []string) []string {
	var out []string
	for _, x := range xs {
		if !strings.Contains(strings.Join(out, " ")+" ", x+" ") {
			out = append(out, x)
		}
	}
	return out
}

// postAPI asks one of the four APIs the steps are checked against.
func postAPI(t *testing.T, url, body string) apiAnswer {
	t.Helper()
	return postJSON[apiAnswer](t, url, body)
}

// postJSON posts body to url and decodes the answer as a T.
func postJSON[T any](t *testing.T, url, body string) T {
	t.Helper()
	req, err := http.NewRequestWithContext(context.Background(), http.MethodPost, url, bytes.NewBufferString(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var a T
	if res.StatusCode != http.StatusOK {
		t.Fatalf("%s: %s", url, res.Status)
	}
	if err := json.NewDecoder(res.Body).Decode(&a); err != nil {
		t.Fatal(err)
	}
	return a
}

// TestE2ECopyStepsWithoutJS: without JavaScript a link with t= draws
// the step the server works out (views.CopyStepBar): the same cells
// marked and the same caption as the module's, checked against the API
// and core as TestE2ECopySteps does; Step is a link to the next step.
func TestE2ECopyStepsWithoutJS(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, true)
	for _, c := range copyStepCases() {
		t.Run(c.name, func(t *testing.T) {
			want := c.steps(t, postAPI(t, base+c.api, c.body))
			do(t, ctx, "navigate "+c.page, chromedp.Navigate(base+c.page+"&t=3"))
			waitFor(t, ctx, "the step bar", `!!document.querySelector('[data-testid=copy-steps-static]')`)
			checkStepMarks(t, ctx, want, 3)
			do(t, ctx, "Step", clickInView("[data-testid=copy-step-step]"))
			waitFor(t, ctx, "step 4", `new URLSearchParams(location.search).get('t') === '4' && document.readyState === 'complete'`)
			checkStepMarks(t, ctx, want, 4)
		})
	}
}

// TestE2ECopyStepsCanvases: past 256 cells the padding, the tiling and
// the depth-to-space are drawn on canvases, and the step-through steps
// them too: a t= link opens at its step, whose caption is the formula
// with core's and the API's numbers and whose element #dot names (the
// canvases' own pick). On a phone a link to the last step lights the
// output canvas's last element (its record's marks) on the screen, clear
// of the bar.
func TestE2ECopyStepsCanvases(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	defer do(t, ctx, "back to the window's size", chromedp.EmulateReset())
	emulate(t, ctx, desktop)
	const dot = `document.querySelector('#dot').textContent`
	cases := []struct {
		name, page, api, body, canvas string
		k                             int
		want                          func(a apiAnswer) step
	}{
		{"padding", "/padding?dt=FLOAT32&sizes=20,20&mode=REFLECTION&start=2,3&end=2,1", "/api/v1/padding1",
			`{"dataType":"FLOAT32","inputSizes":[20,20],"paddingMode":"REFLECTION","startPadding":[2,3],"endPadding":[2,1]}`, "#pad-out-canvas", 50,
			func(a apiAnswer) step {
				return padStep(t, a, core.PadReflection, []int64{20, 20}, []int64{2, 3}, "", 50)
			}},
		{"tile", "/tile?dt=FLOAT32&sizes=20,30&repeats=2,3", "/api/v1/tile", `{"dataType":"FLOAT32","inputSizes":[20,30],"repeats":[2,3]}`, "#tile-out-canvas", 65,
			func(a apiAnswer) step {
				return step{caption: fmt.Sprintf("Output[{0,65}] = Input[{0 mod 20, 65 mod 30}] = Input[%s]", coordText(a.InputCoordinates[65]))}
			}},
		{"depthtospace", "/depthspace?op=d2s&dt=FLOAT32&sizes=1,16,4,5&imode=packed&block=2", "/api/v1/depthtospace1",
			`{"dataType":"FLOAT32","inputSizes":[1,16,4,5],"blockSize":2,"order":"DEPTH_COLUMN_ROW"}`, "#ds-dcr-canvas", 77,
			func(a apiAnswer) step { return d2sOf(t, a, []int64{1, 16, 4, 5}, 2)[77] }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := postAPI(t, base+c.api, c.body)
			w := c.want(a)
			waitLive(t, ctx, base+c.page+"&t="+strconv.Itoa(c.k))
			waitFor(t, ctx, "the canvas", fmt.Sprintf(`!!document.querySelector(%q)`, c.canvas))
			waitFor(t, ctx, "the step", fmt.Sprintf(`document.querySelector('[data-testid=copy-step-count]').textContent.includes('%d')`, c.k+1))
			if text := eval[string](t, ctx, `document.querySelector('[data-testid=copy-step-text]').textContent`); text != w.caption {
				t.Errorf("step %d's caption\n%q\nwant\n%q", c.k, text, w.caption)
			}
			co := coordOf(a.OutputSizes, int64(c.k))
			if d := eval[string](t, ctx, dot); !strings.Contains(d, strings.Trim(coordText(co), "{}")) {
				t.Errorf("#dot says %q, not output %v", d, co)
			}
			do(t, ctx, "Step", clickInView("[data-testid=copy-step-step]"))
			waitFor(t, ctx, "the next step in the URL", fmt.Sprintf(`new URLSearchParams(location.search).get('t') === '%d'`, c.k+1))
			if vs := axeViolations(t, ctx); len(vs) > 0 {
				t.Errorf("axe-core: %v", vs)
			}
		})
	}
	emulate(t, ctx, phone)
	for _, c := range cases {
		t.Run(c.name+"/phone", func(t *testing.T) {
			last := int64(1)
			for _, s := range postAPI(t, base+c.api, c.body).OutputSizes {
				last *= s
			}
			last--
			waitLive(t, ctx, base+c.page+"&t="+strconv.FormatInt(last, 10))
			slot := strings.TrimSuffix(strings.TrimPrefix(c.canvas, "#"), "-canvas")
			waitFor(t, ctx, "the last element marked", fmt.Sprintf(`(document.querySelector(%q)?.drawn?.marks || []).flat().includes(%d)`, c.canvas, last))
			waitFor(t, ctx, "the last element on the screen, clear of the bar", fmt.Sprintf(`(() => { const p = %s, b = document.querySelector('[data-testid=copy-steps]').getBoundingClientRect();
				return p[4] >= 0 && p[4] <= innerHeight && !(p[4] >= b.top && p[4] <= b.bottom); })()`, pixelJS(slot, last)))
		})
	}
}

// TestE2ECopyStepsInARoom: a presenter's steps on the padding page are
// the class's: the viewer's page lights the same cells and writes the
// same caption; a viewer who steps goes their own pace (exploring).
func TestE2ECopyStepsInARoom(t *testing.T) {
	base := startServer(t)
	presenter := newBrowser(t, false)
	viewer := newBrowserContext(t, presenter)
	waitLive(t, presenter, base+"/padding?dt=FLOAT32&sizes=3,3&mode=REFLECTION&start=2,1&end=1,2")
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting' && document.querySelector('#picture').dataset.state === 'done'`)
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)
	waitLive(t, viewer, join)
	waitFor(t, viewer, "following", roomState+` === 'following' && document.querySelector('#picture').dataset.state === 'done'`)
	// A room state whose query is new to the viewer is applied as an edit
	// (client.js), its step once that is drawn: let it settle first.
	do(t, viewer, "the room's first state", chromedp.Sleep(time.Second))
	const caption = `document.querySelector('[data-testid=copy-step-text]').textContent`
	for want := range 3 {
		do(t, presenter, "Step", clickInView("[data-testid=copy-step-step]"))
		out := fmt.Sprintf("out-%d", want)
		waitFor(t, presenter, "the presenter's step "+out, fmt.Sprintf(`document.querySelector('.step-out')?.id === %q`, out))
		waitFor(t, viewer, "the viewer's step "+out, fmt.Sprintf(`document.querySelector('.step-out')?.id === %q && %s === (%q)`, out, caption, eval[string](t, presenter, caption)))
	}
	do(t, viewer, "the viewer steps", clickInView("[data-testid=copy-step-step]"))
	waitFor(t, viewer, "exploring at step 4", roomState+` === 'detached' && document.querySelector('.step-out')?.id === 'out-3'`)
}
