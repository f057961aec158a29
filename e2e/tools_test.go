package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestE2EDirectMLTools: the DxDispatch link follows the explorer's state
// as it is edited, and the import box opens what PyTorch printed, or shows
// the notes first, or the errors at their fields.
func TestE2EDirectMLTools(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	waitLive(t, ctx, base+"/?dt=FLOAT16&sizes=2,3&strides=5,1")
	typeInto(t, ctx, "stride 0", "#f-stride-0", "4")
	waitFor(t, ctx, "the edit in the URL", `new URLSearchParams(location.search).get('strides') === '4,1' && document.querySelector('#picture').dataset.state === 'done'`)
	do(t, ctx, "focus the DxDispatch link", chromedp.Focus(chromedp.CSS("[data-testid=dx-download]")))
	href := eval[string](t, ctx, `document.querySelector('[data-testid=dx-download]').href`)
	if !strings.Contains(href, "/api/v1/dxdispatch/layout.json?") || !strings.Contains(href, "strides=4,1") {
		t.Fatalf("the model link %q does not follow the edit", href)
	}
	model, err := chromedp.Run(ctx, chromedp.Evaluate[string](`fetch(document.querySelector('[data-testid=dx-download]').href).then(r => r.text())`, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("fetch the model: %v", err)
	}
	var m struct {
		Resources map[string]struct {
			InitialValues json.RawMessage `json:"initialValues"`
		} `json:"resources"`
	}
	if err := json.Unmarshal([]byte(model), &m); err != nil {
		t.Fatalf("the model is not JSON: %v\n%s", err, model)
	}
	var got []float64
	if err := json.Unmarshal(m.Resources["input"].InitialValues, &got); err != nil || len(got) != 8 || got[3] != 0 || got[4] != 4 {
		t.Errorf("the model's input %v, want 1 2 3 0 4 5 6 0 (rows 4 apart, padded to 16 bytes)", got)
	}

	// PyTorch's text with a dtype and no offset: straight to the page.
	typeInto(t, ctx, "the import box", "[data-testid=import-text]", "torch.Size([2, 3]) (1, 2) torch.float16")
	do(t, ctx, "import", chromedp.Click(chromedp.CSS("[data-testid=import-submit]")))
	waitFor(t, ctx, "the imported layout", `location.pathname === '/' && new URLSearchParams(location.search).get('strides') === '1,2' && document.body.dataset.live === 'ready' && document.querySelector('#picture').dataset.state === 'done' && `+shownBelow)
	if got := eval[string](t, ctx, `document.querySelector('#f-dt').value`); got != "FLOAT16" {
		t.Errorf("imported data type %q", got)
	}

	// A storage offset: the note comes first, with the link.
	typeInto(t, ctx, "the import box", "[data-testid=import-text]", `{"torch":{"dtype":"torch.float32","size":[4],"stride":[1],"storage_offset":2}}`)
	do(t, ctx, "import", chromedp.Click(chromedp.CSS("[data-testid=import-submit]")))
	waitFor(t, ctx, "the note", `document.querySelector('[data-testid=import-result]').textContent.includes('DML_BUFFER_BINDING::Offset = 8')`)
	if got := eval[string](t, ctx, `document.activeElement.dataset.testid || ''`); got != "import-open" {
		t.Errorf("focus on %q, want the link to open the import", got)
	}

	// A NumPy view DirectML cannot express: the errors at their fields.
	typeInto(t, ctx, "the import box", "[data-testid=import-text]", `{"numpy":{"dtype":"<f4","shape":[2,3],"strides":[24,-4]}}`)
	do(t, ctx, "import", chromedp.Click(chromedp.CSS("[data-testid=import-submit]")))
	waitFor(t, ctx, "the error", `document.querySelector('[data-testid=import-result]').textContent.includes('numpy.strides[1]')`)

	// Without JavaScript the form posts to /import.
	nojs := newBrowser(t, true)
	do(t, nojs, "open the slice page", chromedp.Navigate(base+"/slice"))
	do(t, nojs, "type", chromedp.SendKeys(chromedp.CSS("[data-testid=import-text]"), `{"onnx":{"inputShape":[5,6],"starts":[1,-1],"ends":[4,-100],"steps":[1,-2],"dataType":"float32"}}`))
	do(t, nojs, "import", chromedp.Click(chromedp.CSS("[data-testid=import-submit]")))
	waitFor(t, nojs, "the notes page", `document.querySelector('[data-testid=import-open]') !== null`)
	do(t, nojs, "open", chromedp.Click(chromedp.CSS("[data-testid=import-open]")))
	waitFor(t, nojs, "the slice", `location.pathname === '/slice' && new URLSearchParams(location.search).get('wstride') === '1,-2' && document.readyState === 'complete'`)
}
