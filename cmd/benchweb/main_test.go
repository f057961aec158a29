package main

import (
	"bytes"
	"context"
	"os/exec"
	"regexp"
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
		row := regexp.MustCompile(`(?m)^\| ` + regexp.QuoteMeta(tc.name) + ` \| ` + tc.views + ` \| \d+ \| (\d+(\.\d)?|-) \| ` + ms + ` \| ` + ms + ` \| ` + ms + ` \| [0-9.]+ \|$`)
		if !row.MatchString(out.String()) {
			t.Errorf("no complete row for %s (views %s) in\n%s", tc.name, tc.views, out.String())
		}
	}
	if !strings.Contains(out.String(), "2 runs each") {
		t.Errorf("the report does not say how many runs:\n%s", out.String())
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
