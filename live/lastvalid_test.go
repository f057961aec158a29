package live

import (
	"encoding/json"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestEditWithErrorsDrawsTheLastValidStateItCarries: an edit whose query
// has errors and carries a valid last (what the page sends for an entry
// of its history, docs/protocol.md) is answered as its page is drawn: not
// ok, the typed state's errors and form, and the picture of the last
// valid state with its query in last, streamed to done. Without a last,
// or with one that is not valid either, the answer has no picture and no
// done follows.
func TestEditWithErrorsDrawsTheLastValidStateItCarries(t *testing.T) {
	_, ts := hubServer(t)
	c := dial(t, ts)
	for i, tc := range []struct {
		name, page, query string
		errField          string // a field the errors name
		last              string // the answer's last; "" for no picture
		count             int64  // meta's element count of the picture
	}{
		{"layout, last valid", "", "sizes=2,0&last=" + url.QueryEscape("sizes=2,3"), "sizes[1]", "dt=FLOAT32&sizes=2,3", 6},
		{"layout, last valid with strides", "", "sizes=4,0&last=" + url.QueryEscape("sizes=1,1,3,5&strides=15,1,5,1"), "sizes[1]", "dt=FLOAT32&sizes=1,1,3,5&strides=15,1,5,1", 15},
		{"layout, no last", "", "sizes=2,0", "sizes[1]", "", 0},
		{"layout, last with errors too", "", "sizes=2,0&last=" + url.QueryEscape("sizes=0,3"), "sizes[1]", "", 0},
		{"slice, last valid", "slice", "sizes=5,6&woff=1,0&wsize=5,6&wstride=1,1&last=" + url.QueryEscape("sizes=5,6&woff=0,0&wsize=5,6&wstride=1,1"), "inputWindowOffsets[0]", "dt=FLOAT32&sizes=5,6&woff=0,0&wsize=5,6&wstride=1,1", 30},
		{"slice, no last", "slice", "sizes=5,6&woff=1,0&wsize=5,6&wstride=1,1", "inputWindowOffsets[0]", "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seq := int64(10 * (i + 1))
			msg := map[string]any{"v": ProtocolVersion, "type": "edit", "seq": seq, "query": tc.query}
			if tc.page != "" {
				msg["page"] = tc.page
			}
			if err := c.WriteJSON(msg); err != nil {
				t.Fatal(err)
			}
			var res struct {
				OK     bool   `json:"ok"`
				Query  string `json:"query"`
				Last   string `json:"last"`
				Errors []struct {
					Field string `json:"field"`
				} `json:"errors"`
				Meta *struct {
					LogicalCount int64 `json:"logicalCount"`
					InputCount   int64 `json:"inputCount"`
				} `json:"meta"`
			}
			var types []string
			_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
			for {
				typ, data, err := c.ReadMessage()
				if err != nil {
					t.Fatalf("read: %v", err)
				}
				if typ != websocket.TextMessage {
					continue
				}
				var head struct {
					Type string `json:"type"`
					Seq  int64  `json:"seq"`
				}
				if json.Unmarshal(data, &head) != nil {
					t.Fatalf("not JSON: %s", data)
				}
				if head.Seq == seq+1 || (head.Seq == seq && head.Type == "done") {
					types = append(types, head.Type)
					break
				}
				if head.Seq != seq {
					continue
				}
				types = append(types, head.Type)
				if head.Type == "result" {
					if err := json.Unmarshal(data, &res); err != nil {
						t.Fatal(err)
					}
					if res.Meta == nil {
						// No picture to stream: a valid edit after it
						// says, by coming next, that no done is on its
						// way (one sent with the first would supersede
						// it).
						if err := c.WriteJSON(map[string]any{"v": ProtocolVersion, "type": "edit", "seq": seq + 1, "query": "sizes=2,2"}); err != nil {
							t.Fatal(err)
						}
					}
				}
			}
			if res.OK {
				t.Fatalf("ok for %q", tc.query)
			}
			if !slices.ContainsFunc(res.Errors, func(e struct {
				Field string `json:"field"`
			}) bool {
				return e.Field == tc.errField
			}) {
				t.Errorf("errors %+v, want one at %s", res.Errors, tc.errField)
			}
			if res.Last != tc.last {
				t.Errorf("last %q, want %q", res.Last, tc.last)
			}
			if tc.last == "" {
				if res.Meta != nil || slices.Contains(types, "done") {
					t.Errorf("a picture for a state with no valid last: meta %v, messages %v", res.Meta, types)
				}
				return
			}
			if res.Meta == nil || max(res.Meta.LogicalCount, res.Meta.InputCount) != tc.count {
				t.Errorf("meta %+v, want the last valid state's %d elements", res.Meta, tc.count)
			}
			if !slices.Contains(types, "done") {
				t.Errorf("messages %v: want the picture streamed to done", types)
			}
			if res.Query == tc.last {
				t.Errorf("query %q: want the typed state's, not the last valid one", res.Query)
			}
		})
	}
}
