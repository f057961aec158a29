package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestBenchWebMeasuresEveryColumn runs the benchmark once on a DOM and a
// canvas case of each explorer in the real Chromium and checks that every
// figure was measured: the harness must see the picture drawn, the edit
// painted and the hover's caption change, or it fails.
func TestBenchWebMeasuresEveryColumn(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("no chromium on PATH; install Debian's browser with `apt-get install chromium`")
	}
	var out, log bytes.Buffer
	cases := "layout/2x3,layout/64x64,slice/2x3,slice/256x256"
	if err := run(context.Background(), []string{"-runs", "2", "-cases", cases}, &out, &log); err != nil {
		t.Fatalf("run: %v\n%s", err, log.String())
	}
	ms := `\d+(\.\d)? / \d+(\.\d)? ms( \(over budget\))?`
	for _, tc := range []struct{ name, views string }{
		{"layout/2x3", "dom,dom"},
		{"layout/64x64", "canvas,canvas"},
		{"slice/2x3", "dom,dom,dom"},
		{"slice/256x256", "canvas,canvas,canvas"},
	} {
		// The 64x64 case is its own ratio's base: 1.0x; the layout's 2x3
		// has its base in the run, the slice's none.
		ratio := map[string]string{"layout/2x3": `\d+\.\dx`, "layout/64x64": `1\.0x`, "slice/2x3": `-`, "slice/256x256": `-`}[tc.name]
		row := regexp.MustCompile(`(?m)^\| ` + regexp.QuoteMeta(tc.name) + ` \| ` + tc.views + ` \| \d+ \| (\d+(\.\d)?|-) \| ` + ms + ` \| -?\d+(\.\d)? \| ` + ms + ` \| ` + ms + ` \| ` + ratio + ` \| ` + ms + ` \| \d+\.\d MiB \| [0-9.]+ \|$`)
		if !row.MatchString(out.String()) {
			t.Errorf("no complete row for %s (views %s) in\n%s", tc.name, tc.views, out.String())
		}
	}
	if !strings.Contains(out.String(), "2 runs each") {
		t.Errorf("the report does not say how many runs:\n%s", out.String())
	}
	// The floor is measured in the same run, so a reader can tell a slow
	// page from a slow minute.
	if !regexp.MustCompile(`(?m)^The floor in these minutes: a one-line page \(/healthz\) first paints at \d+(\.\d)? ms \(median; \d+(\.\d)? to \d+(\.\d)? ms over 8 navigations, one before each of the cases'\)\.$`).MatchString(out.String()) {
		t.Errorf("the report does not give the floor page's first paints:\n%s", out.String())
	}
}

func TestBenchWebRefusesUnknownCases(t *testing.T) {
	var out, log bytes.Buffer
	err := run(context.Background(), []string{"-cases", "layout/3x3"}, &out, &log)
	if err == nil || !strings.Contains(err.Error(), `no case "layout/3x3"`) {
		t.Fatalf("err = %v, want one naming the unknown case", err)
	}
	if err := run(context.Background(), []string{"-list"}, &out, &log); err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(out.String(), "\n"); got != len(allCases) {
		t.Errorf("-list printed %d lines for %d cases", got, len(allCases))
	}
}

// TestBenchWebTraceBreaksDownTheFirstPaint traces a navigation in the real
// Chromium: the trace file is written, and the breakdown found the
// navigation, its parse, its first frame and its raster work in it.
func TestBenchWebTraceBreaksDownTheFirstPaint(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("no chromium on PATH; install Debian's browser with `apt-get install chromium`")
	}
	dir := t.TempDir()
	var out, log bytes.Buffer
	if err := run(context.Background(), []string{"-trace", dir, "-cases", "layout/2x3"}, &out, &log); err != nil {
		t.Fatalf("run: %v\n%s", err, log.String())
	}
	n := `(\d+(\.\d)?)`
	line := regexp.MustCompile(`^layout/2x3: parsed at ` + n + ` ms; main thread CPU before FCP: style ` + n + `, layout ` + n + `, paint ` + n + `, script ` + n +
		` ms; first frame committed at ` + n + ` ms; raster CPU ` + n + ` ms between ` + n + ` and ` + n + ` ms; browser main thread CPU ` + n + ` ms; FCP ` + n + ` ms; drawn ` + n + ` ms \(trace: .*layout-2x3\.json\)\n$`)
	m := line.FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("no breakdown line in %q", out.String())
	}
	num := func(i int) float64 { v, _ := strconv.ParseFloat(m[2*i-1], 64); return v }
	parsed, layout, commit, raster, browser, fcp := num(1), num(3), num(6), num(7), num(10), num(11)
	// A frame may be committed, and painted, before the parser is done
	// (it yields). CPU time is never more than the time it was spent in.
	if !(0 < parsed && 0 < commit && commit <= fcp) || layout <= 0 || raster <= 0 || !(0 < browser && browser <= fcp) {
		t.Errorf("parsed %v, layout %v, committed %v, raster %v, browser %v, FCP %v: want parsed after the start, committed after it and by FCP, some layout and raster, and some browser work within FCP", parsed, layout, commit, raster, browser, fcp)
	}
	b, err := os.ReadFile(filepath.Join(dir, "layout-2x3.json"))
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ TraceEvents []json.RawMessage }
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.TraceEvents) < 100 {
		t.Errorf("the trace file holds %d events (%v)", len(doc.TraceEvents), err)
	}
}

// TestBenchWebComparesFirstPaints: -fcp times every page given, path or
// full URL, and prints a row of positive figures for each, with
// navigation -> drawn for the explorers and none for a page without a
// picture.
func TestBenchWebComparesFirstPaints(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("no chromium on PATH; install Debian's browser with `apt-get install chromium`")
	}
	var out, log bytes.Buffer
	if err := run(context.Background(), []string{"-runs", "2", "-fcp", "/?sizes=2,3 /slice?sizes=2,3 /healthz"}, &out, &log); err != nil {
		t.Fatalf("run: %v\n%s", err, log.String())
	}
	n := ` [1-9]\d*(\.\d)? \|`
	for _, tc := range []struct {
		page, drawn string
	}{
		{"/?sizes=2,3", n + n + n},
		{"/slice?sizes=2,3", n + n + n},
		{"/healthz", ` \| \| \|`},
	} {
		row := regexp.MustCompile(`(?m)^\| http://127\.0\.0\.1:\d+` + regexp.QuoteMeta(tc.page) + ` \|` + n + n + n + tc.drawn + `$`)
		if !row.MatchString(out.String()) {
			t.Errorf("no row of first paints for %s in\n%s", tc.page, out.String())
		}
	}
	if !strings.Contains(out.String(), "2 navigations each") {
		t.Errorf("the report does not say how many navigations:\n%s", out.String())
	}
}

// TestBenchWebTimesThePageWithoutItsParts: -parts prints the floor, the
// page as served and a row for each part left out, with fewer elements on
// every row, and navigation -> drawn only where the modules still are.
func TestBenchWebTimesThePageWithoutItsParts(t *testing.T) {
	if _, err := exec.LookPath("chromium"); err != nil {
		t.Skip("no chromium on PATH; install Debian's browser with `apt-get install chromium`")
	}
	var out, log bytes.Buffer
	if err := run(context.Background(), []string{"-runs", "1", "-parts", "/slice?sizes=2,3"}, &out, &log); err != nil {
		t.Fatalf("run: %v\n%s", err, log.String())
	}
	n := ` [1-9]\d*(\.\d)? \|`
	if !regexp.MustCompile(`(?m)^\| the floor \(/healthz\) \| \| \|` + n + n + n + ` \|$`).MatchString(out.String()) {
		t.Errorf("no floor row in\n%s", out.String())
	}
	rows := []string{"the page as served"}
	for _, p := range pageParts {
		rows = append(rows, "without "+p.name)
	}
	last := -1
	for i, name := range rows {
		drawn := ` \|`
		if i == 0 {
			drawn = n
		}
		m := regexp.MustCompile(`(?m)^\| ` + regexp.QuoteMeta(name) + ` \| (\d+) \| \d+ \|` + n + n + n + drawn + `$`).FindStringSubmatch(out.String())
		if m == nil {
			t.Errorf("no row %q in\n%s", name, out.String())
			continue
		}
		elements, _ := strconv.Atoi(m[1])
		if last >= 0 && elements >= last {
			t.Errorf("%q keeps %d elements, the row above %d", name, elements, last)
		}
		last = elements
	}
}

func TestLeaveOut(t *testing.T) {
	page := `<!doctype html><html><head><link rel="modulepreload" href="/a.js"><script type="module" src="/b.js"></script></head>` +
		`<body><div id="picture"><section class="facts big"><p>f</p><section><p>inner</p></section></section><p>cells</p></div>` +
		`<section class="tools"><p>t</p></section><p>end</p></body></html>`
	for _, tc := range []struct {
		name    string
		parts   []pagePart
		want    string
		kept    int
		wantErr string
	}{
		{"nothing", nil, page, 14, ""},
		{"modules", pageParts[:1], `<!doctype html><html><head></head><body><div id="picture"><section class="facts big"><p>f</p><section><p>inner</p></section></section><p>cells</p></div><section class="tools"><p>t</p></section><p>end</p></body></html>`, 12, ""},
		{"facts, with a section inside it", pageParts[2:3], `<!doctype html><html><head><link rel="modulepreload" href="/a.js"><script type="module" src="/b.js"></script></head><body><div id="picture"><p>cells</p></div><section class="tools"><p>t</p></section><p>end</p></body></html>`, 10, ""},
		{"the picture holds the facts", []pagePart{pageParts[2], pageParts[5]}, `<!doctype html><html><head><link rel="modulepreload" href="/a.js"><script type="module" src="/b.js"></script></head><body><section class="tools"><p>t</p></section><p>end</p></body></html>`, 8, ""},
		{"a part the page lacks", pageParts[3:4], "", 0, "nothing to leave out as the form"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, kept, err := leaveOut([]byte(page), tc.parts)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != tc.want || kept != tc.kept {
				t.Errorf("got %d elements\n%s\nwant %d\n%s", kept, got, tc.kept, tc.want)
			}
		})
	}
}
