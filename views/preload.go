package views

import (
	"strings"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/static"
)

// preloads holds one handle per module URL, so that a page's preload of a
// module is written once however many of its widgets import it (templ
// tracks the handles per render).
var preloads = func() map[string]*templ.OnceHandle {
	m := map[string]*templ.OnceHandle{}
	for _, n := range static.Names() {
		if strings.HasSuffix(n, ".js") {
			u := static.URL(n)
			m[u] = templ.NewOnceHandle(templ.WithComponent(preloadLink(u)))
		}
	}
	return m
}()

func preload(url string) templ.Component {
	if h, ok := preloads[url]; ok {
		return h.Once()
	}
	return preloadLink(url)
}
