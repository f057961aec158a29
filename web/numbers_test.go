package web

import (
	"strings"
	"testing"

	"github.com/stridescope/stridescope/i18n"
)

// TestProseNumbersInTheLocale: the numbers a page writes as prose (its
// subtitles, the DMLCalcBufferTensorSize steps' results, the colour
// scale, the helper notes, the step count) are grouped the page's
// language's way, and English's stay as they were; the numbers in code
// (the C++, the form's values, the shared links) never change.
func TestProseNumbersInTheLocale(t *testing.T) {
	ts := newTestServer(t)
	const nb = "\u202f" // French groups with a narrow no-break space
	for _, c := range []struct {
		loc  i18n.Locale
		path string
		want map[string]string // data-testid: a text it contains
	}{
		{i18n.English, "/?dt=UINT4&sizes=301,301", map[string]string{
			"buffer-sub": "90" + nb + "608 elements of 4 bits = 45" + nb + "304 bytes", "logical-legend": ": 0  90600",
			"steps": "= 362404 bits", "helper-note-doc-page": "362404 bits = 45301 bytes, rounded up to 45304"}},
		{i18n.French, "/?dt=UINT4&sizes=301,301", map[string]string{
			"buffer-sub": "90" + nb + "608 éléments de 4 bits = 45" + nb + "304 octets", "logical-legend": "90" + nb + "600",
			"steps": "= 362" + nb + "404 bits", "helper-note-doc-page": "362" + nb + "404 bits = 45" + nb + "301 octets"}},
		{i18n.BrazilianPortuguese, "/?dt=UINT4&sizes=301,301", map[string]string{
			"buffer-sub": "90.608 elementos de 4 bits = 45.304 bytes", "logical-legend": "90.600",
			"steps": "= 362.404 bits", "helper-note-doc-page": "362.404 bits = 45.301 bytes"}},
		{i18n.TraditionalChinese, "/?dt=UINT4&sizes=301,301", map[string]string{
			"buffer-sub": "90,608 個 4 位元的元素 = 45,304 位元組", "logical-legend": "90,600",
			"steps": "= 362,404", "helper-note-doc-page": "362,404 位元 = 45,301 位元組"}},
		{i18n.English, "/slice?sizes=1,1,100,100&wsize=1,1,100,100", map[string]string{"step-count": "10005 steps"}},
		{i18n.French, "/slice?sizes=1,1,100,100&wsize=1,1,100,100", map[string]string{"step-count": "10" + nb + "005 étapes"}},
		{i18n.BrazilianPortuguese, "/slice?sizes=1,1,100,100&wsize=1,1,100,100", map[string]string{"step-count": "10.005 etapas"}},
		{i18n.TraditionalChinese, "/slice?sizes=1,1,100,100&wsize=1,1,100,100", map[string]string{"step-count": "共 10,005 步"}},
	} {
		_, d := getPage(t, ts.URL+c.path+"&lang="+string(c.loc), nil)
		for id, want := range c.want {
			if got := d.Find(tid(id)).Text(); !strings.Contains(got, want) {
				t.Errorf("%s %s: %s %q lacks %q", c.loc, c.path, id, got, want)
			}
		}
		if !strings.HasPrefix(c.path, "/?") {
			continue
		}
		// Code and form values are the same in every language.
		if got := d.Find(tid("cpp")).Text(); !strings.Contains(got, "UINT tensorSizes[2] = {301, 301};") {
			t.Errorf("%s: the C++ %q", c.loc, got)
		}
		if got := d.Find(tid("size-0")).AttrOr("value", ""); got != "301" {
			t.Errorf("%s: the form's size %q", c.loc, got)
		}
		if got := d.Find(tid("download-svg")).AttrOr("href", ""); !strings.Contains(got, "sizes=301,301") {
			t.Errorf("%s: the picture's link %q", c.loc, got)
		}
	}
}
