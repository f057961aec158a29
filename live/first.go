package live

import (
	"context"
	"encoding/json"

	"github.com/stridescope/stridescope/budget"
)

// FirstAnswer is the result message an edit of query would get on page
// ("layout" or "slice"), for a page that embeds it beside the picture the
// server drew (docs/protocol.md, "The page's own answer"): the page links
// its cells at once instead of asking the socket for what it already
// shows. It has no html (the page is that html, so none is rendered) and
// no seq. It is nil when the answer is not worth embedding: the state is
// not valid (the page shows its errors, or a stale picture), the picture
// needs binary frames (a canvas), or the work budget had not its share
// free at once (the page is complete without it, so it does not wait).
func (h *Hub) FirstAnswer(ctx context.Context, page, query string) json.RawMessage {
	answer := h.answerLayout
	if page == "slice" {
		answer = h.answerSlice
	}
	// The page is drawn already: its answer waits for no one's budget.
	a, err := answer(budget.WithoutWait(ctx), clientMsg{Page: page, Query: query}, false)
	if err != nil {
		return nil
	}
	defer a.release()
	var b []byte
	switch r := a.first.(type) {
	case ResultMsg:
		if !r.OK || r.Stream != nil {
			return nil
		}
		b, err = json.Marshal(pageResult{ResultMsg: r})
	case SliceResultMsg:
		if !r.OK || r.Stream != nil {
			return nil
		}
		b, err = json.Marshal(pageSliceResult{SliceResultMsg: r})
	default:
		return nil
	}
	if err != nil {
		return nil
	}
	return b
}

// pageResult and pageSliceResult are results as a page embeds them:
// their seq and html, which the page has no use for, shadowed by fields
// left out (encoding/json takes the shallower of two fields of one name).
type pageResult struct {
	ResultMsg
	Seq  *struct{} `json:"seq,omitempty"`
	HTML *struct{} `json:"html,omitempty"`
}

type pageSliceResult struct {
	SliceResultMsg
	Seq  *struct{} `json:"seq,omitempty"`
	HTML *struct{} `json:"html,omitempty"`
}
