package views

import (
	"context"
	"hash/fnv"
	"strconv"
	"strings"

	"github.com/a-h/templ"
)

// Fragment is a part of a page that the websocket sends again after each
// edit: its HTML and a key of that HTML. The page's container of a
// fragment carries the key (data-key) and the websocket sends the key
// beside the HTML, so the first answer after a page load, which repeats
// what the server drew, leaves the DOM as it is instead of laying it out
// and painting it a second time.
type Fragment struct {
	HTML string
	Key  string
}

// FragmentKey is the key of a fragment's HTML: 64-bit FNV-1a in hex.
func FragmentKey(html string) string {
	h := fnv.New64a()
	h.Write([]byte(html))
	return strconv.FormatUint(h.Sum64(), 16)
}

// RenderFragment renders c and keys the result.
func RenderFragment(ctx context.Context, c templ.Component) (Fragment, error) {
	var b strings.Builder
	if err := c.Render(ctx, &b); err != nil {
		return Fragment{}, err
	}
	return Fragment{HTML: b.String(), Key: FragmentKey(b.String())}, nil
}
