package views

import (
	"net/url"
	"strconv"
)

// CopyStep is a data-movement explorer's step-through as the server
// draws it for a page opened at t=k (static/copy-steps.js puts its own
// bar in its place): step K of Total, its formula's lines, and the
// page's URL at the steps before and after, so that a page without
// JavaScript steps too. The cells of the step carry step-out and
// step-src (MarkCells).
type CopyStep struct {
	K, Total   int64
	Lines      []string
	Prev, Next string // "" at either end
}

// StepOf is the step q's t asks for, of total steps, at path: nil when
// t is absent or not one of them.
func StepOf(path string, q url.Values, total int64) *CopyStep {
	k, err := strconv.ParseInt(q.Get("t"), 10, 64)
	if err != nil || k < 0 || k >= total {
		return nil
	}
	at := func(k int64) string {
		v := url.Values{}
		for key, vs := range q {
			v[key] = vs
		}
		v.Set("t", strconv.FormatInt(k, 10))
		return path + "?" + v.Encode()
	}
	s := &CopyStep{K: k, Total: total}
	if k > 0 {
		s.Prev = at(k - 1)
	}
	if k+1 < total {
		s.Next = at(k + 1)
	}
	return s
}

// MarkCells adds class to the cells of l whose ids are in ids, and
// returns the labels of those it found, by id.
func MarkCells(l *Logical, class string, ids ...string) map[string]string {
	found := map[string]string{}
	for b := range l.Bands {
		for p := range l.Bands[b].Panels {
			for r := range l.Bands[b].Panels[p].Rows {
				cells := l.Bands[b].Panels[p].Rows[r].Cells
				for i := range cells {
					for _, id := range ids {
						if cells[i].ID() == id {
							cells[i].Class += " " + class
							found[id] = cells[i].Label
						}
					}
				}
			}
		}
	}
	return found
}
