package views

import (
	"bytes"
	"context"
	"hash/fnv"
	"strconv"
	"sync"

	"github.com/a-h/templ"
)

// Fragment is a part of a page that the websocket sends again after each
// edit: its HTML and a key of that HTML. The page's container of a
// fragment carries the key (data-key, see Keyed) and the websocket sends
// the key beside the HTML, so the first answer after a page load, which
// repeats what the server drew, leaves the DOM as it is instead of laying
// it out and painting it a second time.
type Fragment struct {
	HTML string
	Key  string
}

// fragmentKey is the key of a fragment's HTML: 64-bit FNV-1a in hex.
func fragmentKey(html []byte) string {
	h := fnv.New64a()
	h.Write(html)
	return strconv.FormatUint(h.Sum64(), 16)
}

// renderPool keeps render buffers across edits: a 64x64 picture's HTML
// is about a megabyte, which a fresh bytes.Buffer reaches by doubling.
var renderPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// RenderFragment renders c and keys the result.
func RenderFragment(ctx context.Context, c templ.Component) (Fragment, error) {
	b := renderPool.Get().(*bytes.Buffer)
	defer func() {
		if b.Cap() <= 8<<20 { // an outsized one is left to the collector
			b.Reset()
			renderPool.Put(b)
		}
	}()
	if err := c.Render(ctx, b); err != nil {
		return Fragment{}, err
	}
	return Fragment{HTML: b.String(), Key: fragmentKey(b.Bytes())}, nil
}
