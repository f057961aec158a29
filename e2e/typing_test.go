package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestE2ETypingKeepsTheBox: a size typed one key at a time, each key's
// answer in before the next key, ends up whole in the box typed into,
// which keeps the keyboard focus, and in the address. The padding, tile
// and layout conversion explorers' answers carry the rows that hold the
// boxes; they replaced those rows, so the box under the cursor went
// away with the focus after the first answer, and the next keys went
// nowhere (or, the box focused again, to its start).
func TestE2ETypingKeepsTheBox(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	emulate(t, ctx, desktop)
	for _, page := range []string{"/?sizes=2,3", "/slice?sizes=2,3", "/padding?sizes=2,3", "/tile?sizes=2,3", "/convert", "/depthspace?op=d2s&sizes=1,8,2,3&block=2"} {
		t.Run(page, func(t *testing.T) {
			waitLive(t, ctx, base+page)
			const box = "#f-size-0"
			do(t, ctx, "focus the first size", chromedp.Focus(chromedp.CSS(box)),
				chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`document.querySelector(%q).select(); document.querySelector(%q).kept = true`, box, box)))
			typed := ""
			for _, key := range []string{"3", "4", "5"} {
				typed += key
				do(t, ctx, "type "+key, chromedp.SendKeys(chromedp.CSS(box), key))
				waitFor(t, ctx, "the answer to "+typed, fmt.Sprintf(`decodeURIComponent(location.search).includes('sizes=%s,') && document.querySelector('#picture').dataset.state === 'done'`, typed))
			}
			got := eval[map[string]any](t, ctx, fmt.Sprintf(`(() => { const b = document.querySelector(%q); return { value: b.value, kept: !!b.kept, focused: document.activeElement === b }; })()`, box))
			if got["value"] != typed || got["kept"] != true || got["focused"] != true {
				t.Errorf("after typing %s one key at a time, the box is %v: want its value %s, the same box, focused", typed, got, typed)
			}
		})
	}
}
