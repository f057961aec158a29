package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// replacedProbe records the ids of the elements whose children change
// once the parser is done: the page's own scripts' doing.
const replacedProbe = `window.__replaced = new Set();
new MutationObserver((ms) => {
  if (document.readyState === 'loading') return;
  for (const m of ms) if (m.type === 'childList' && m.target.id) window.__replaced.add(m.target.id);
}).observe(document, { childList: true, subtree: true });`

// TestE2EFirstAnswerKeepsTheDrawnPicture: the page's first answer is of
// the state the server drew, and the page keeps every fragment it already
// has (each container keeps its data-key) instead of laying out and
// painting the same picture again. A picture drawn whole takes the answer
// the page carries (ownanswer_test.go); the canvas cases here (and a
// reconnect) ask the socket, whose answer has the same keys. An edit
// after it replaces them.
func TestE2EFirstAnswerKeepsTheDrawnPicture(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: replacedProbe}); err != nil {
		t.Fatal(err)
	}
	layout := []string{"logical", "buffer", "facts"}
	slice := []string{"slice-steps", "slice-input", "slice-output", "slice-buffer", "slice-dims", "slice-facts"}
	for _, tc := range []struct {
		path string
		ids  []string
	}{
		{"/?dt=FLOAT32&sizes=2,3&strides=3,1", layout},
		{"/?dt=FLOAT32&sizes=2,3&strides=3,1&lang=fr", layout},
		{"/?dt=FLOAT32&sizes=2,3&strides=3,1&lang=xx", layout}, // a ?lang= the server does not take
		{"/?lang=zh-TW&dt=FLOAT16&sizes=1,16,64,64&strides=65536,1,1024,16", layout},
		{"/?dt=FLOAT32&sizes=2,2,3&strides=0,3,1&sel=1,0,2", layout},
		{"/tour/4?lang=pt-BR", layout},
		{"/slice?dt=FLOAT32&sizes=2,3&lang=pt-BR", slice},
		{"/slice?dt=FLOAT32&sizes=4,6&woff=0,1&wsize=4,5&wstride=2,-1&t=3", slice},
		{"/slice?dt=FLOAT32&sizes=256,256&lang=fr", slice},
	} {
		waitLive(t, ctx, base+tc.path)
		for _, id := range tc.ids {
			if !eval[bool](t, ctx, fmt.Sprintf(`!!document.getElementById(%q).dataset.key && !window.__replaced.has(%[1]q)`, id)) {
				t.Errorf("%s: the first answer replaced #%s, which the server had drawn", tc.path, id)
			}
		}
	}
	// An edit draws what it changes: a small picture is patched in place
	// (#38), its cells the edit's.
	waitLive(t, ctx, base+"/?dt=FLOAT32&sizes=2,3&strides=3,1")
	typeInto(t, ctx, "type a stride", "#f-stride-0", "4")
	waitFor(t, ctx, "the edit's answer", `document.querySelector('#picture').dataset.state === 'done' && location.search.includes('strides=4,1') && document.querySelectorAll('#buffer .bc').length === 7`)
	if got := eval[int](t, ctx, `document.querySelectorAll('#buffer .bc.hole').length`); got != 1 {
		t.Errorf("after the edit to strides {4,1} the buffer shows %d padding cells, want 1", got)
	}
}
