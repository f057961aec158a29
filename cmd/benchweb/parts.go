package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// pagePart is one piece of an explorer's page that -parts leaves out:
// every element whose start tag it matches, with all it holds.
type pagePart struct {
	name  string
	match func(tag string, attr map[string]string) bool
}

func withClass(tag, class string) func(string, map[string]string) bool {
	return func(t string, a map[string]string) bool {
		return t == tag && slices.Contains(strings.Fields(a["class"]), class)
	}
}

// pageParts are left out one after another, each row of the table
// without everything the rows above it left out: from the page as
// served down to the site's header and the page's introduction.
var pageParts = []pagePart{
	{"the modules", func(t string, a map[string]string) bool {
		return (t == "script" && a["type"] == "module") || (t == "link" && a["rel"] == "modulepreload")
	}},
	{"the tools (import, export)", withClass("section", "tools")},
	{"the facts", withClass("section", "facts")},
	{"the form", withClass("form", "controls")},
	{"the presets and share", func(t string, a map[string]string) bool {
		return withClass("nav", "presets")(t, a) || withClass("div", "share")(t, a)
	}},
	{"the picture", func(t string, a map[string]string) bool { return a["id"] == "picture" }},
}

// leaveOut gives page without the elements any of parts match, and how
// many elements it keeps. A part that matches nothing is an error: the
// page has changed under the benchmark.
func leaveOut(page []byte, parts []pagePart) ([]byte, int, error) {
	var out bytes.Buffer
	z := html.NewTokenizer(bytes.NewReader(page))
	found := make([]bool, len(parts))
	skip, depth, kept := "", 0, 0 // skip: the tag name of the element being left out
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			if errors.Is(z.Err(), io.EOF) {
				break
			}
			return nil, 0, z.Err()
		}
		tok := z.Token()
		start := tt == html.StartTagToken || tt == html.SelfClosingTagToken
		matched := false
		if start {
			attr := make(map[string]string, len(tok.Attr))
			for _, a := range tok.Attr {
				attr[a.Key] = a.Val
			}
			// A part inside one already left out is left out too.
			for i, p := range parts {
				if p.match(tok.Data, attr) {
					found[i], matched = true, true
				}
			}
		}
		if skip != "" {
			switch {
			case tt == html.StartTagToken && tok.Data == skip:
				depth++
			case tt == html.EndTagToken && tok.Data == skip:
				if depth--; depth == 0 {
					skip = ""
				}
			}
			continue
		}
		if matched {
			if tt == html.StartTagToken && !voidElement(tok.Data) {
				skip, depth = tok.Data, 1
			}
			continue
		}
		if start {
			kept++
		}
		out.Write(z.Raw())
	}
	for i, ok := range found {
		if !ok {
			return nil, 0, fmt.Errorf("the page has nothing to leave out as %s", parts[i].name)
		}
	}
	return out.Bytes(), kept, nil
}

func voidElement(tag string) bool {
	switch tag {
	case "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr":
		return true
	}
	return false
}

// compareParts times path's page as served and with pageParts left out
// one after another, beside the floor page, and prints a table: where a
// page's first paint goes, part by part. The cut pages are served by a
// proxy in this process that passes everything else (static files, the
// websocket) on to the server, so they load what the page loads.
func compareParts(tab context.Context, c config, path string, out io.Writer) error {
	res, err := http.Get(c.url + path)
	if err != nil {
		return err
	}
	page, err := io.ReadAll(res.Body)
	res.Body.Close()
	if err != nil {
		return err
	}
	if res.StatusCode != http.StatusOK {
		return fmt.Errorf("%s: %s", path, res.Status)
	}
	type variant struct {
		name     string
		body     []byte
		elements int
	}
	served, n, err := leaveOut(page, nil)
	if err != nil {
		return err
	}
	variants := []variant{{"the page as served", served, n}}
	for i := range pageParts {
		body, n, err := leaveOut(page, pageParts[:i+1])
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		variants = append(variants, variant{"without " + pageParts[i].name, body, n})
	}

	target, err := url.Parse(c.url)
	if err != nil {
		return err
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var i int
		if _, err := fmt.Sscanf(r.URL.Path, "/parts/%d", &i); err == nil && i >= 0 && i < len(variants) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			w.Write(variants[i].body)
			return
		}
		proxy.ServeHTTP(w, r)
	}))
	defer srv.Close()

	// The page keeps its query: the modules read the state from it.
	query := ""
	if _, q, ok := strings.Cut(path, "?"); ok {
		query = "?" + q
	}
	urls := []string{srv.URL + floorPage}
	for i := range variants {
		urls = append(urls, fmt.Sprintf("%s/parts/%d%s", srv.URL, i, query))
	}
	fcps, drawn, err := firstPaints(tab, c, urls)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "%s with its parts left out one after another (each row also leaves out what the rows above it did), %d navigations each, alternating; load %s.\n\n", path, c.runs, loadAvg())
	fmt.Fprintln(out, "| page | elements | bytes | FCP min | median | max | drawn median |")
	fmt.Fprintln(out, "|---|---|---|---|---|---|---|")
	f := fcps[0]
	fmt.Fprintf(out, "| the floor (%s) | | | %s | %s | %s | |\n", floorPage, ms(f.min()), ms(f.median()), ms(f.max()))
	for i, v := range variants {
		f, d := fcps[i+1], drawn[i+1]
		drawnCell := " |"
		if len(d) > 0 {
			drawnCell = " " + ms(d.median()) + " |"
		}
		fmt.Fprintf(out, "| %s | %d | %d | %s | %s | %s |%s\n", v.name, v.elements, len(v.body), ms(f.min()), ms(f.median()), ms(f.max()), drawnCell)
	}
	return nil
}
