package live

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/stridescope/stridescope/budget"
)

// TestFirstAnswerIsTheSocketsResultWithoutHTML: the answer a page embeds
// is, field for field, the result an edit of the same state gets on the
// socket, less its html and seq; states whose answer is not all in the
// page (a canvas, frames to stream, errors) have none.
func TestFirstAnswerIsTheSocketsResultWithoutHTML(t *testing.T) {
	h := &Hub{}
	ctx := context.Background()
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
		got := h.FirstAnswer(ctx, tc.page, tc.query)
		if !tc.want {
			if got != nil {
				t.Errorf("%s %s: an answer to embed (%s), want none", tc.page, tc.query, got)
			}
			continue
		}
		var texts [][]byte
		if err := h.runEdit(ctx, clientMsg{V: ProtocolVersion, Type: "edit", Seq: 7, Page: tc.page, Query: tc.query}, func(f frame) error {
			if f.kind != websocket.TextMessage {
				t.Errorf("%s %s: a binary frame for a picture drawn whole", tc.page, tc.query)
			}
			texts = append(texts, f.data)
			return nil
		}); err != nil || len(texts) == 0 {
			t.Fatalf("%s %s: %v", tc.page, tc.query, err)
		}
		var want, have map[string]any
		if err := json.Unmarshal(texts[0], &want); err != nil {
			t.Fatal(err)
		}
		if want["html"] == nil || want["seq"] != float64(7) {
			t.Fatalf("%s %s: the socket's result has no html or seq: %s", tc.page, tc.query, texts[0])
		}
		delete(want, "html")
		delete(want, "seq")
		if err := json.Unmarshal(got, &have); err != nil {
			t.Fatalf("%s %s: %v in %s", tc.page, tc.query, err, got)
		}
		wb, _ := json.Marshal(want)
		hb, _ := json.Marshal(have)
		if string(wb) != string(hb) {
			t.Errorf("%s %s: embedded\n%s\nwant the socket's result less html and seq\n%s", tc.page, tc.query, hb, wb)
		}
	}
}

// TestFirstAnswerHoldsTheBudget: a refused budget embeds nothing, and the
// page asks the socket as before.
func TestFirstAnswerHoldsTheBudget(t *testing.T) {
	b := budget.New(1, 0)
	h := &Hub{Budget: b}
	if got := h.FirstAnswer(context.Background(), "layout", "dt=FLOAT32&sizes=2,3"); got != nil {
		t.Errorf("an answer past the work budget: %s", got)
	}
}

// TestFirstAnswerDoesNotWaitForTheBudget: with the budget's share taken
// by other work, the page gets no answer rather than wait (the budget's
// wait here is an hour: a FirstAnswer that waited would hang the test).
func TestFirstAnswerDoesNotWaitForTheBudget(t *testing.T) {
	b := budget.New(1<<30, time.Hour)
	hold, err := b.Take(context.Background(), 1<<30-1)
	if err != nil {
		t.Fatal(err)
	}
	defer hold()
	h := &Hub{Budget: b}
	if got := h.FirstAnswer(context.Background(), "layout", "dt=FLOAT32&sizes=2,3"); got != nil {
		t.Errorf("an answer from a busy budget: %s", got)
	}
	hold()
	if got := h.FirstAnswer(context.Background(), "layout", "dt=FLOAT32&sizes=2,3"); got == nil {
		t.Error("no answer once the budget is free")
	}
}
