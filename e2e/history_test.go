package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// settledLive is true once the page is live and its picture has settled,
// valid or not.
const settledLive = `document.readyState === 'complete' && document.body.dataset.live === 'ready' && ['done', 'invalid'].includes(document.querySelector('#picture').dataset.state) && ` + shownBelow

// navigationEntries is the tab's history and where in it the tab is.
func navigationEntries(t *testing.T, ctx context.Context) page.GetNavigationHistoryResult {
	t.Helper()
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	h, err := chromedp.Run(tctx, chromedp.NavigationEntries())
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// historyGo moves delta entries through the tab's history at once, as
// the long press on Back lists them.
func historyGo(t *testing.T, ctx context.Context, delta int64) {
	t.Helper()
	h := navigationEntries(t, ctx)
	i := h.CurrentIndex + delta
	if i < 0 || i >= int64(len(h.Entries)) {
		t.Fatalf("no history entry %d away from %d of %d", delta, h.CurrentIndex, len(h.Entries))
	}
	tctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := chromedp.Call(tctx, page.NavigateToHistoryEntry, page.NavigateToHistoryEntryParams{EntryID: h.Entries[i].ID}); err != nil {
		t.Fatal(err)
	}
}

// historyURLs lists the tab's history, the current entry starred, with
// the server's address cut off.
func historyURLs(t *testing.T, ctx context.Context, base string) string {
	t.Helper()
	h := navigationEntries(t, ctx)
	var out []string
	for i, e := range h.Entries {
		u := strings.TrimPrefix(e.URL, base)
		if int64(i) == h.CurrentIndex {
			u = "*" + u
		}
		out = append(out, u)
	}
	return strings.Join(out, " ")
}

// pickOption sets a select as a person picking an option does.
func pickOption(sel, value string) chromedp.Action[chromedp.Void] {
	return chromedp.Evaluate[chromedp.Void](fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.value = %q; e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true})); })()`, sel, value))
}

// TestE2EHistoryAcrossPages: the explorers' history entries hold when the
// person leaves the page and comes back through the history: several
// entries back at once brings back the entry's own state (not the values
// the form's controls held when the page was left, which Chromium would
// put back and the page would send as an edit, dropping the entries
// ahead); Redo is offered only while the entry ahead is one of the page's
// (not once a link has replaced the entries ahead); and an entry whose
// inputs have errors shows the picture of the last valid state it names,
// as loading its URL does.
func TestE2EHistoryAcrossPages(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)

	t.Run("several entries back at once", func(t *testing.T) {
		for _, c := range []struct {
			start, field, value, want string
		}{
			{"/?sizes=2,3", "[data-testid=dt]", "FLOAT16", "FLOAT32"},
			{"/slice?sizes=5,6", "[data-testid=fl]", "5_0", "6_4"},
		} {
			waitLive(t, ctx, base+c.start)
			do(t, ctx, "pick "+c.value, pickOption(c.field, c.value))
			waitFor(t, ctx, "the edit's entry", `location.search.includes('`+c.value+`') && `+settledLive)
			do(t, ctx, "follow the glossary link", chromedp.Click(chromedp.CSS(`[data-testid=nav-glossary]`)))
			waitFor(t, ctx, "the glossary", `location.pathname === '/glossary'`)
			before := historyURLs(t, ctx, base)
			historyGo(t, ctx, -2)
			evalUntil(t, ctx, "the first entry, live", `location.pathname + location.search === '`+c.start+`' && `+settledLive)
			time.Sleep(500 * time.Millisecond) // a restored control's edit would be answered by now
			if got := eval[string](t, ctx, `location.pathname + location.search + ' ' + document.querySelector('`+c.field+`').value`); got != c.start+" "+c.want {
				t.Errorf("%s, two entries back: %q, want %q", c.start, got, c.start+" "+c.want)
			}
			after := strings.Replace(before, "*/glossary", "/glossary", 1)
			after = strings.Replace(after, " "+c.start+" ", " *"+c.start+" ", 1)
			if got := historyURLs(t, ctx, base); got != after {
				t.Errorf("%s: history %q after going back, want %q (before: %q)", c.start, got, after, before)
			}
		}
	})

	t.Run("Redo after a link", func(t *testing.T) {
		waitLive(t, ctx, base+"/?sizes=2,3")
		for _, v := range []string{"FLOAT16", "INT8"} {
			do(t, ctx, "pick "+v, pickOption(`[data-testid=dt]`, v))
			waitFor(t, ctx, v+"'s entry", `location.search.includes('dt=`+v+`') && `+settledLive)
		}
		do(t, ctx, "Undo", chromedp.Click(chromedp.CSS(`[data-testid=undo]`)))
		waitFor(t, ctx, "FLOAT16 again, Redo offered", `location.search.includes('dt=FLOAT16') && `+settledLive+` && !document.querySelector('[data-testid=redo]').disabled`)
		do(t, ctx, "follow the glossary link", chromedp.Click(chromedp.CSS(`[data-testid=nav-glossary]`)))
		waitFor(t, ctx, "the glossary", `location.pathname === '/glossary'`)
		historyGo(t, ctx, -1)
		evalUntil(t, ctx, "FLOAT16, live", `location.search.includes('dt=FLOAT16') && `+settledLive)
		if eval[bool](t, ctx, `!document.querySelector('[data-testid=redo]').disabled`) {
			t.Errorf("Redo offered with the glossary ahead: %s", historyURLs(t, ctx, base))
		}
		do(t, ctx, "Ctrl+Y", chromedp.KeyEvent("y", chromedp.KeyModifiers(2 /* ctrl */)))
		time.Sleep(300 * time.Millisecond)
		if got := eval[string](t, ctx, `location.pathname`); got != "/" {
			t.Errorf("Ctrl+Y with the glossary ahead went to %s", got)
		}
	})

	t.Run("an entry with errors", func(t *testing.T) {
		for _, c := range []struct {
			start, field, bad, example, want, sub string
		}{
			{"/?sizes=2,3", "[data-testid=size-1]", "0", "[data-testid=preset-NHWC]", "2×3 = 6 elements", "[data-testid=logical-sub]"},
			{"/slice?sizes=5,6", "[data-testid=woff-0]", "1", "[data-testid=preset-example1]", "5×6 = 30 elements", "#input-sub"},
		} {
			waitLive(t, ctx, base+c.start)
			typeInto(t, ctx, "a value with an error", c.field, c.bad)
			waitFor(t, ctx, "the stale note", `location.search.includes('last=') && !document.querySelector('#stale').hidden && `+settledLive)
			entry := eval[string](t, ctx, `location.pathname + location.search`)
			do(t, ctx, "pick an example", chromedp.Click(chromedp.CSS(c.example)))
			waitFor(t, ctx, "the example", `!location.search.includes('last=') && document.querySelector('#stale').hidden && `+settledLive)
			historyGo(t, ctx, -1)
			evalUntil(t, ctx, "the entry with errors, drawn", `location.pathname + location.search === '`+entry+`' && document.querySelector('#picture').dataset.state === 'invalid'`)
			if got := eval[string](t, ctx, `document.querySelector('`+c.sub+`').textContent + ' | ' + document.querySelector('`+c.field+`').value + ' | ' + !document.querySelector('#stale').hidden`); !strings.HasPrefix(got, c.want) || !strings.HasSuffix(got, " | "+c.bad+" | true") {
				t.Errorf("%s, back to the entry with errors: %q, want the picture of %q under the typed %s and the stale note", c.start, got, c.want, c.bad)
			}
			// Leaving and coming back (from the browser's cache, the
			// socket opened again) adds no entry for the same state.
			do(t, ctx, "follow the glossary link", chromedp.Click(chromedp.CSS(`[data-testid=nav-glossary]`)))
			waitFor(t, ctx, "the glossary", `location.pathname === '/glossary'`)
			historyGo(t, ctx, -1)
			evalUntil(t, ctx, "the entry again, live", `location.pathname + location.search === '`+entry+`' && `+settledLive)
			time.Sleep(700 * time.Millisecond)
			if got := historyURLs(t, ctx, base); !strings.HasSuffix(got, "*"+entry+" /glossary") {
				t.Errorf("%s: history %q after coming back, want the entry current and the glossary ahead", c.start, got)
			}
		}
	})
}
