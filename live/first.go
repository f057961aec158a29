package live

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/gorilla/websocket"

	"github.com/stridescope/stridescope/budget"
)

// errHaveResult stops an edit once FirstAnswer has its result message.
var errHaveResult = errors.New("first answer: result taken")

// FirstAnswer is the result message an edit of query would get on page
// ("layout" or "slice"), for a page that embeds it beside the picture the
// server drew (docs/protocol.md, "The page's own answer"): the page links
// its cells at once instead of asking the socket for what it already
// shows. It has no html (the page is that html) and no seq. It is nil
// when the answer is not worth embedding: the state is not valid (the
// page shows its errors, or a stale picture), the picture needs binary
// frames (a canvas), or the work budget had not its share free at once
// (the page is complete without it, so it does not wait).
func (h *Hub) FirstAnswer(ctx context.Context, page, query string) json.RawMessage {
	var first []byte
	emit := func(f frame) error {
		if f.kind != websocket.TextMessage {
			return errHaveResult
		}
		first = f.data
		return errHaveResult
	}
	// The page is drawn already: its answer waits for no one's budget.
	err := h.runEdit(budget.WithoutWait(ctx), clientMsg{Page: page, Query: query}, emit)
	if first == nil || (err != nil && !errors.Is(err, errHaveResult)) {
		return nil
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(first, &m) != nil || string(m["type"]) != `"result"` || string(m["ok"]) != "true" {
		return nil
	}
	if _, streams := m["stream"]; streams {
		return nil
	}
	delete(m, "html")
	delete(m, "seq")
	b, err := json.Marshal(m)
	if err != nil {
		return nil
	}
	return b
}
