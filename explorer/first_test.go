package explorer_test

import (
	"context"
	"encoding/json"
	"net/url"
	"testing"
	"time"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/ops"
)

// TestFirstAnswerIsTheEditsResultWithoutHTML: the answer a page embeds
// is, field for field, the result an edit of the same state gets, less
// its html and seq; states whose answer is not all in the page (a
// canvas, frames to stream, errors) have none.
func TestFirstAnswerIsTheEditsResultWithoutHTML(t *testing.T) {
	ctx := context.Background()
	kinds := ops.All()
	for _, tc := range []struct {
		page, query string
		want        bool
	}{
		{"layout", "dt=FLOAT32&sizes=2,3", true},
		{"layout", "dt=FLOAT16&sizes=2,2,3&strides=0,3,1&sel=1,0,2", true},
		{"layout", "dt=INT8&sizes=4,4&strides=1,1", true}, // overlapping: counts above 1
		{"slice", "dt=FLOAT32&sizes=4,6&woff=0,1&wsize=4,5&wstride=2,-1&t=3", true},
		{"slice", "dt=FLOAT32&sizes=2,3", true},
		{"layout", "dt=FLOAT32&sizes=64,64", false},         // canvases
		{"slice", "dt=FLOAT32&sizes=256,256", false},        // canvases, frames
		{"layout", "dt=FLOAT32&sizes=2,3&strides=1", false}, // errors
		{"slice", "dt=FLOAT32&sizes=2,3&wsize=9,9", false},  // errors
	} {
		k, ok := kinds.Find(tc.page)
		if !ok {
			t.Fatalf("no explorer %q", tc.page)
		}
		got := explorer.FirstAnswer(ctx, k, tc.query)
		if !tc.want {
			if got != nil {
				t.Errorf("%s %s: an answer to embed (%s), want none", tc.page, tc.query, got)
			}
			continue
		}
		q, _ := url.ParseQuery(tc.query)
		a, err := k.Answer(ctx, q, explorer.AnswerOptions{HTML: true, Take: budget.Hold})
		if err != nil {
			t.Fatalf("%s %s: %v", tc.page, tc.query, err)
		}
		a.Release()
		if a.Stream != nil {
			t.Errorf("%s %s: frames for a picture drawn whole", tc.page, tc.query)
		}
		explorer.SetSeq(a.Result, 7)
		edit, _ := json.Marshal(a.Result)
		var want, have map[string]any
		if err := json.Unmarshal(edit, &want); err != nil {
			t.Fatal(err)
		}
		if want["html"] == nil || want["seq"] != float64(7) {
			t.Fatalf("%s %s: the edit's result has no html or seq: %s", tc.page, tc.query, edit)
		}
		delete(want, "html")
		delete(want, "seq")
		if err := json.Unmarshal(got, &have); err != nil {
			t.Fatalf("%s %s: %v in %s", tc.page, tc.query, err, got)
		}
		wb, _ := json.Marshal(want)
		hb, _ := json.Marshal(have)
		if string(wb) != string(hb) {
			t.Errorf("%s %s: embedded\n%s\nwant the edit's result less html and seq\n%s", tc.page, tc.query, hb, wb)
		}
	}
}

// TestFirstAnswerHoldsTheBudget: a refused budget embeds nothing, and the
// page asks the socket as before.
func TestFirstAnswerHoldsTheBudget(t *testing.T) {
	ctx, release := budget.WithGrant(context.Background(), budget.New(1, 0))
	defer release()
	k, _ := ops.All().Find("layout")
	if got := explorer.FirstAnswer(ctx, k, "dt=FLOAT32&sizes=2,3"); got != nil {
		t.Errorf("an answer past the work budget: %s", got)
	}
}

// TestFirstAnswerDoesNotWaitForTheBudget: with the budget's share taken
// by other work, the page gets no answer rather than wait (the budget's
// wait here is an hour: a FirstAnswer that waited would hang the test).
// The answer's share is given back as soon as it is marshalled.
func TestFirstAnswerDoesNotWaitForTheBudget(t *testing.T) {
	b := budget.New(1<<30, time.Hour)
	hold, err := b.Take(context.Background(), 1<<30-1)
	if err != nil {
		t.Fatal(err)
	}
	defer hold()
	ctx, release := budget.WithGrant(context.Background(), b)
	defer release()
	k, _ := ops.All().Find("layout")
	if got := explorer.FirstAnswer(ctx, k, "dt=FLOAT32&sizes=2,3"); got != nil {
		t.Errorf("an answer from a busy budget: %s", got)
	}
	hold()
	if got := explorer.FirstAnswer(ctx, k, "dt=FLOAT32&sizes=2,3"); got == nil {
		t.Error("no answer once the budget is free")
	}
	// Given back at once: the whole budget can be taken again.
	all, err := b.Take(budget.WithoutWait(context.Background()), 1<<30)
	if err != nil {
		t.Errorf("the first answer kept its share of the budget: %v", err)
	} else {
		all()
	}
}
