package web

import (
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/gorilla/websocket"

	"github.com/stridescope/stridescope/i18n"
)

// pageKeys reads the data-key of each fragment container of a page, by
// container id.
func pageKeys(t *testing.T, body string) map[string]string {
	t.Helper()
	keys := map[string]string{}
	for _, m := range regexp.MustCompile(`<div id="([a-z-]+)" data-testid="[a-z-]+" data-key="([0-9a-f]+)">`).FindAllStringSubmatch(body, -1) {
		keys[m[1]] = m[2]
	}
	return keys
}

// TestWSFirstAnswerKeysMatchThePage: the page's first edit asks for the
// state the server drew, so every fragment of the answer has the key of
// the page's container and the page keeps what it has (static/live.js
// swapIn). Each language and both ways of choosing it count: a link in a
// fragment keeps ?lang= only when the page's URL asks for a language the
// server takes (urllang=).
func TestWSFirstAnswerKeysMatchThePage(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	layout := map[string]string{"logical": "logical", "buffer": "buffer", "facts": "facts"}
	slice := map[string]string{"slice-steps": "steps", "slice-input": "input", "slice-output": "output",
		"slice-buffer": "buffer", "slice-dims": "dims", "slice-facts": "facts"}
	cases := []struct {
		path, query string
		lang        string // the ?lang= of the page's URL
		cookie      string // the lang cookie
		names       map[string]string
	}{
		{path: "/", query: "dt=FLOAT32&sizes=2,3&strides=3,1", names: layout},
		{path: "/", query: "dt=FLOAT32&sizes=2,3&strides=3,1", lang: "fr", names: layout},
		{path: "/", query: "dt=FLOAT16&sizes=4,5&strides=8,1", cookie: "zh-TW", names: layout},
		{path: "/", query: "dt=UINT8&sizes=64,64", lang: "pt-BR", names: layout},
		{path: "/", query: "dt=FLOAT32&sizes=2,2,3&strides=0,3,1&sel=1,0,2", names: layout},
		// A ?lang= the server does not take: the page speaks the cookie's
		// language and its links carry no lang; nor do the answers'.
		{path: "/", query: "dt=FLOAT32&sizes=2,3&strides=3,1", lang: "de", cookie: "fr", names: layout},
		{path: "/slice", query: "dt=FLOAT32&sizes=2,3", lang: "pt-BR", names: slice},
		{path: "/slice", query: "dt=FLOAT32&sizes=4,6&woff=0,1&wsize=4,5&wstride=2,-1&t=3", cookie: "fr", names: slice},
		{path: "/slice", query: "dt=FLOAT32&sizes=64,64", names: slice},
	}
	for _, tc := range cases {
		name := tc.path + "?" + tc.query + " lang=" + tc.lang + " cookie=" + tc.cookie
		url := ts.URL + tc.path + "?" + tc.query
		if tc.lang != "" {
			url += "&lang=" + tc.lang
		}
		req, _ := http.NewRequest(http.MethodGet, url, nil)
		if tc.cookie != "" {
			req.Header.Set("Cookie", "lang="+tc.cookie)
		}
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		page := pageKeys(t, string(body))
		if len(page) != len(tc.names) {
			t.Errorf("%s: the page keys %v, want a key on each of %v", name, page, tc.names)
			continue
		}
		// The page opens /ws?lang= with its own language (wsURL).
		loc := "en"
		if _, ok := i18n.Parse(tc.lang); ok {
			loc = tc.lang
		} else if tc.cookie != "" {
			loc = tc.cookie
		}
		ws := wsURL(ts) + "?lang=" + loc
		if tc.lang != "" {
			ws += "&urllang=" + tc.lang
		}
		c, _, err := websocket.DefaultDialer.Dial(ws, nil)
		if err != nil {
			t.Fatalf("%s: dial: %v", name, err)
		}
		var hello map[string]any
		readJSON(t, c, &hello)
		var keys map[string]string
		if tc.path == "/slice" {
			sendSliceEdit(t, c, 1, tc.query)
			r, _ := readSlice(t, c, 1)
			keys = r.HTML.Keys
		} else {
			sendEdit(t, c, 1, tc.query)
			keys = collect(t, c, 1).result.HTML.Keys
		}
		c.Close()
		for id, n := range tc.names {
			if keys[n] != page[id] {
				t.Errorf("%s: #%s: the answer's key %q, the page's %q", name, id, keys[n], page[id])
			}
		}
		if _, ok := i18n.Parse(tc.lang); !ok && strings.Contains(string(body), "/glossary?lang=") {
			t.Errorf("%s: a page whose URL asks for no language it speaks links the glossary with ?lang=", name)
		}
	}
}
