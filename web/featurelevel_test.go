package web

import (
	"bytes"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestFeatureLevelIsOneControl: every operator page that asks for a
// feature level labels it the same, in each language, and names each
// level as DirectML does (DML_FEATURE_LEVEL_6_4); the pages that judge a
// state without fl= at the newest level say which one that is. The join
// page said "Judged at" and "the newest feature level", the padding's and
// the tile's "6_4".
func TestFeatureLevelIsOneControl(t *testing.T) {
	ts := newTestServer(t)
	for _, lang := range []string{"en", "fr", "pt-BR", "zh-TW"} {
		labels := map[string]string{}
		for _, page := range []string{"/slice", "/padding", "/tile", "/joinsplit?preset=join-example1"} {
			_, body := fetchAs(t, ts, "GET", page+sep(page)+"lang="+lang, "", "")
			d, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			label := strings.TrimSpace(d.Find(`label[for=f-fl]`).Text())
			if label == "" {
				t.Errorf("%s (%s): no feature level label", page, lang)
			}
			labels[label] = page
			opts := d.Find(`select#f-fl option`)
			if opts.Length() < 2 {
				t.Errorf("%s (%s): %d feature levels", page, lang, opts.Length())
			}
			opts.Each(func(_ int, o *goquery.Selection) {
				v, text := o.AttrOr("value", ""), strings.TrimSpace(o.Text())
				if v == "" && !strings.Contains(text, "DML_FEATURE_LEVEL_") || v != "" && text != "DML_FEATURE_LEVEL_"+v {
					t.Errorf("%s (%s): the option of %q says %q", page, lang, v, text)
				}
			})
		}
		if len(labels) != 1 {
			t.Errorf("%s: the feature level is labelled %d ways: %v", lang, len(labels), labels)
		}
	}
}

func sep(page string) string {
	if strings.Contains(page, "?") {
		return "&"
	}
	return "?"
}
