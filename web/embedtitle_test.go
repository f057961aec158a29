package web

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/PuerkitoBio/goquery"
)

// TestEmbedSnippetTitlesAreWords: the frame a documentation page pastes
// is named, for the screen readers of that page's readers, in the words
// of the language the snippet was copied in. The data-movement pages'
// snippets named it by the catalogue key ("embed.snippet.padding").
func TestEmbedSnippetTitlesAreWords(t *testing.T) {
	ts := newTestServer(t)
	title := regexp.MustCompile(`<iframe [^>]*title="([^"]*)"`)
	english := map[string]string{}
	for _, lang := range []string{"en", "fr", "pt-BR", "zh-TW"} {
		for _, page := range []string{"/", "/slice", "/padding", "/tile", "/depthspace", "/convert", "/joinsplit"} {
			_, body := fetchAs(t, ts, "GET", page+"?lang="+lang, "", "")
			d, err := goquery.NewDocumentFromReader(bytes.NewReader(body))
			if err != nil {
				t.Fatal(err)
			}
			m := title.FindStringSubmatch(d.Find("[data-testid=embed-snippet]").Text())
			if m == nil {
				t.Errorf("%s (%s): no titled frame in the embed snippet", page, lang)
				continue
			}
			got := m[1]
			if got == "" || strings.HasPrefix(got, "embed.") || !strings.HasPrefix(got, "stridescope") {
				t.Errorf("%s (%s): the frame's title is %q", page, lang, got)
			}
			if lang == "en" {
				english[page] = got
			} else if got == english[page] {
				t.Errorf("%s (%s): the frame's title is the English %q", page, lang, got)
			}
		}
	}
}
