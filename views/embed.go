package views

import (
	"context"
	"html"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/i18n"
)

// Mount is where an explorer is shown: its own page, the tour or an
// embed.
type Mount struct {
	// Action is where the form submits; "" is the explorer's own page.
	Action string
	// Share holds the Embed and Download SVG buttons; nil shows none.
	Share *Share
}

// action is where the form submits, page being the explorer's own.
func (m Mount) ActionOr(page string) string {
	if m.Action == "" {
		return page
	}
	return m.Action
}

// Share is the explorer's "Embed" and "Download SVG" buttons for the
// state shown. The page's script (static/share.js) keeps their links on
// the current state as it changes; these are the server's first values.
type Share struct {
	Name   string // "layout" or "slice": the file name and the titles
	Query  string // canonical query of the picture shown
	SVG    string // path of the SVG picture: /api/v1/layout.svg
	Embed  string // path of the embed page: /embed/layout
	Open   string // path of the full page: /
	Origin string // scheme://host of this server, for the snippet
	Height int    // of the iframe, in pixels
	// Alt names what the picture shows (LayoutTitle, SliceTitle): the
	// picture snippet's alt text. The page's script follows it (the
	// answers' alt, docs/protocol.md).
	Alt string
	// NoSVG says why the state shown has no SVG picture (its Picture's
	// NoSVG): the bar says so instead of offering one. The page's script
	// follows it (the answers' noSVG, docs/protocol.md).
	NoSVG string
	// InEmbed is the embed itself: an "Open in stridescope" link instead
	// of the Embed button.
	InEmbed bool
}

func withQuery(path, q string) string {
	if q == "" {
		return path
	}
	return path + "?" + q
}

// SVGHref is the link of the Download SVG button.
func (s Share) SVGHref() string { return withQuery(s.SVG, s.Query) }

// OpenHref is the full page of the state.
func (s Share) OpenHref() string { return withQuery(s.Open, s.Query) }

// EmbedURL is the absolute address of the embed of the state, in the
// page's language (pastedQuery).
func (s Share) EmbedURL() string { return s.Origin + withQuery(s.Embed, s.pastedQuery()) }

// SVGURL is the absolute address of the state's SVG picture, in the
// page's language (pastedQuery).
func (s Share) SVGURL() string { return s.Origin + withQuery(s.SVG, s.pastedQuery()) }

// pastedQuery is Query naming the page's language even when it is
// English, which Query leaves out: a snippet is pasted into a page
// written in one language, whose readers' browsers may ask for another.
// static/share.js does the same as the state changes.
func (s Share) pastedQuery() string {
	if strings.HasPrefix(s.Query, "lang=") || strings.Contains(s.Query, "&lang=") {
		return s.Query
	}
	if s.Query == "" {
		return "lang=en"
	}
	return s.Query + "&lang=en"
}

// PictureSnippet is the HTML a documentation page pastes to show the
// state's picture only, its alt text in ctx's locale.
func (s Share) PictureSnippet(ctx context.Context) string {
	return `<img src="` + html.EscapeString(s.SVGURL()) + `" alt="` + html.EscapeString(s.alt(ctx)) + `" style="max-width:100%">`
}

// alt is the picture snippet's alt text: what the picture shows (Alt, the
// SVG's own title), else what it is.
func (s Share) alt(ctx context.Context) string {
	if s.Alt != "" {
		return s.Alt
	}
	return s.title(ctx)
}

// title names the picture or the embed for the page that pastes it.
func (s Share) title(ctx context.Context) string {
	return i18n.T(ctx, i18n.Key("embed.snippet."+s.Name))
}

// FileName is what Download SVG saves as.
func (s Share) FileName() string { return "stridescope-" + s.Name + ".svg" }

// Snippet is the HTML a documentation page pastes to embed the state,
// its title in ctx's locale: the frame, as wide as the page's column and
// Height tall, and the few lines of script that size it to the embed
// (the embed posts its height, static/embed.js; docs/api.md, Embeds), so
// that on a phone, where the form stacks under the picture, the frame
// holds it all without a scroll bar of its own. The script listens once
// however many snippets a page pastes, and only to the embed's origin; a
// site that strips scripts keeps the frame at Height.
func (s Share) Snippet(ctx context.Context) string {
	return `<iframe src="` + html.EscapeString(s.EmbedURL()) + `" title="` + html.EscapeString(s.title(ctx)) +
		`" width="100%" height="` + Itoa(int64(s.Height)) + `" style="border:0" loading="lazy" allow="clipboard-write"></iframe>` + "\n" +
		FitScript(s.Origin)
}

// FitScript is the snippet's script: it sets the height of the frame
// whose embed, at origin, posts {type: "stridescope:height", height}.
func FitScript(origin string) string {
	return `<script>if (!window.stridescopeFit) { window.stridescopeFit = true; addEventListener('message', (e) => { ` +
		`if (e.origin !== ` + strconv.Quote(origin) + ` || e.data?.type !== 'stridescope:height') return; ` +
		`for (const f of document.querySelectorAll('iframe')) if (f.contentWindow === e.source) f.style.height = e.data.height + 'px'; }); }</script>`
}

// inEmbed says whether s is an embed's share bar (nil: no share bar, not
// an embed).
func (s *Share) Embedded() bool { return s != nil && s.InEmbed }
