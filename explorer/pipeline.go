package explorer

import (
	"context"
	"encoding/json"
	"net/url"
	"strings"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/views"
)

// Invalid is every violation of a request, reported at once (the API's
// 422, a page's errors at their fields).
type Invalid struct {
	Violations []core.Violation
}

func (e *Invalid) Error() string {
	if len(e.Violations) == 0 {
		return "invalid request"
	}
	return e.Violations[0].Field + ": " + e.Violations[0].Message
}

// Show is the page of q at place: the explorer's page, with the answer
// an edit of its state would get embedded when the page draws all of
// it (FirstAnswer).
func Show(ctx context.Context, k Kind, q url.Values, at Place) (templ.Component, error) {
	p, err := k.Page(ctx, q, at)
	if err != nil {
		return nil, err
	}
	var answer []byte
	if p.Whole && p.LastValid != "" {
		answer = FirstAnswer(ctx, k, p.LastValid)
	}
	return p.Render(answer), nil
}

// FirstAnswer is the result an edit of query would get, for a page that
// embeds it beside the picture the server drew (docs/protocol.md, "The
// page's own answer"): the page links its cells at once instead of
// asking the socket for what it already shows. It has no html (the page
// is that html) and no seq. It is nil when the answer is not worth
// embedding: the state is not valid (the page shows its errors, or a
// stale picture), the picture needs binary frames (a canvas), or the
// work budget had not its share free at once (the page is complete
// without it, so it does not wait).
func FirstAnswer(ctx context.Context, k Kind, query string) []byte {
	q, err := url.ParseQuery(query)
	if err != nil {
		return nil
	}
	a, err := k.Answer(budget.WithoutWait(ctx), q, AnswerOptions{Take: budget.Hold})
	if err != nil {
		return nil
	}
	defer a.Release()
	if !a.Embeddable {
		return nil
	}
	b, err := json.Marshal(a.Result)
	if err != nil {
		return nil
	}
	return b
}

// ShareOf is the Embed and Download SVG buttons of k's page at place,
// showing the state query. A page read in another language than English
// shares its links with ?lang=: an embed on another site gets no cookie
// of ours, and a link opened elsewhere should read as the page it was
// copied from did.
func ShareOf(k Kind, at Place, query string) *views.Share {
	if at.Lang != "" {
		query = JoinQuery(query, at.Lang)
	}
	r := k.Routes()
	return &views.Share{Name: k.Name(), Query: query, Origin: at.Origin, InEmbed: at.Frame == InEmbed,
		SVG: r.SVG, Embed: r.Embed, Open: r.Page, Height: r.EmbedHeight}
}

// Framed is the one of an explorer's three renderings that frame asks
// for: its own page, its embed, or its widget inside a tour step.
func Framed(frame Frame, page, embed, widget func() templ.Component) templ.Component {
	switch frame {
	case InEmbed:
		return embed()
	case InTour:
		return widget()
	}
	return page()
}

// JoinQuery joins two URL queries, either of which may be empty.
func JoinQuery(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "&" + b
}

// Rebase points an explorer's link ("/?q", "/slice?q") at path, keeping
// its query; "" (no link) stays.
func Rebase(href, path string) string {
	if i := strings.IndexByte(href, '?'); i >= 0 {
		return path + href[i:]
	}
	if href == "" {
		return ""
	}
	return path
}

// RebasePresets points the examples' links at path.
func RebasePresets(ps []views.Preset, path string) {
	for i, p := range ps {
		ps[i].Href = Rebase(p.Href, path)
	}
}

// DrawnWhole reports whether a picture of views in these modes is all in
// the page's HTML: no view is a canvas, whose cells come in binary
// frames.
func DrawnWhole(modes ...string) bool {
	for _, m := range modes {
		if m == views.ModeCanvas {
			return false
		}
	}
	return true
}

// ViewKeys are the query keys that change how a state is shown, or
// where, but not the state itself: the classroom room (and a viewer's
// exploring in it), the page's language (the switcher's links add it),
// the cell labels, the focused cell and the step-through position.
var ViewKeys = map[string]bool{"room": true, "explore": true, "lang": true, "labels": true, "sel": true, "cell": true, "t": true}

// QueryOr is the explorer state q, or own when q has none (a tour step's
// own state). Only an edit changes a step's state: a query with view
// keys alone (?room=, ?labels=offset) shows own with them, never the
// default tensor.
func QueryOr(q url.Values, own string) (url.Values, error) {
	if own == "" {
		return q, nil
	}
	for k := range q {
		if !ViewKeys[k] {
			return q, nil
		}
	}
	oq, err := url.ParseQuery(own)
	if err != nil {
		return nil, err
	}
	for k, v := range q {
		if k != "room" && k != "explore" && k != "lang" {
			oq[k] = v
		}
	}
	return oq, nil
}
