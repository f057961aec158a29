// Package explorer is what an explorer of stridescope is, and the one
// pipeline that serves every explorer.
//
// An explorer is the tensor layout, or one DirectML operator (DML_SLICE1
// today). It implements Kind: it reads its state from a URL query,
// validates it with core (every violation at once), falls back to the
// last valid state, estimates its cost for the work budget, computes it
// with compute, and gives one transport-neutral answer. The transports
// only frame that answer: web renders the Page a Kind returns, writes its
// SVG and answers its API; live marshals its Answer and sends its
// Stream as binary frames. Neither knows what an explorer draws.
//
// A new operator is one package implementing Kind (its state, rules,
// costs, view model, templ file), one JS module and its words;
// docs/operators.md is the recipe.
package explorer

import (
	"context"
	"net/url"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/views"
)

// Kind is one explorer. Its methods are safe for concurrent use.
type Kind interface {
	// Name is the explorer's page in the websocket protocol ("page"),
	// in rooms and in its SVG picture's validator: "layout", "slice".
	Name() string
	// Routes are the explorer's addresses.
	Routes() Routes
	// MaxQuery is the longest URL query of its state, in bytes.
	MaxQuery() int
	// Canonical is q's state as typed, written as the explorer writes
	// its address: with errors, the state carries its last valid one.
	// The form redirect of a page without JavaScript leads there.
	Canonical(q url.Values) string
	// Page is the explorer of q shown at place: the form as typed, the
	// picture of its state or of its last valid one.
	Page(ctx context.Context, q url.Values, at Place) (Page, error)
	// Answer answers an edit of q (the websocket's edits, and the answer
	// a page embeds).
	Answer(ctx context.Context, q url.Values, opt AnswerOptions) (Answer, error)
	// SVG plans q's picture as a standalone SVG document; a state that
	// cannot be drawn so is an *Invalid error.
	SVG(ctx context.Context, q url.Values) (SVGPlan, error)
	// API is the explorer's JSON endpoints.
	API() []Endpoint
}

// TourExampler is a Kind whose tour steps work one of its examples out
// beside the live explorer (the numbers of a DirectML page's example,
// and the page's errata).
type TourExampler interface {
	TourExample(ctx context.Context, example string) (views.TourSlice, error)
}

// Listed is a Kind the operators index (/operators) lists: its title and
// one sentence on what it shows, in ctx's language.
type Listed interface {
	Listing(ctx context.Context) (title, summary string)
}

// Routes are an explorer's addresses.
type Routes struct {
	Page  string // its page: "/", "/slice"
	Embed string // the page without the site's chrome, for an iframe
	SVG   string // its picture as an SVG file
	// File is the SVG picture's download name.
	File string
	// EmbedHeight is the iframe snippet's height: it holds the picture
	// at a documentation column's width, the form after it.
	EmbedHeight int
}

// Frame is how a page is shown.
type Frame int

const (
	// OnPage is the explorer's own page, with the site's chrome.
	OnPage Frame = iota
	// InEmbed is the explorer alone, for an iframe on another site.
	InEmbed
	// InTour is the explorer inside a tour step's page.
	InTour
)

// Place is where a page shows an explorer.
type Place struct {
	// Path is the address the page is at ("/", "/tour/3",
	// "/embed/slice"): its form and links lead there.
	Path  string
	Frame Frame
	// Origin is the site's scheme and host, for the share snippets.
	Origin string
	// Lang is "lang=xx" when the page's shared links must keep its
	// language (a page read in another language than English), or "".
	Lang string
}

// Page is an explorer's page before it is rendered.
type Page struct {
	// LastValid is the canonical query of the state drawn; "" when no
	// state is drawn.
	LastValid string
	// Whole reports that every view is drawn in the HTML (none is a
	// canvas, whose cells come in binary frames): the page then embeds
	// its own answer (FirstAnswer), so that it links its cells at once.
	Whole bool
	// Render is the page, with answer (or nil) embedded, framed as the
	// Place asked.
	Render func(answer []byte) templ.Component
}

// AnswerOptions are how an edit is answered.
type AnswerOptions struct {
	// HTML asks for the fragments the page swaps in; a page that embeds
	// the answer is those fragments, and asks for none.
	HTML bool
	// Take takes n bytes from the work budget before anything is drawn,
	// and returns how to give them back.
	Take func(ctx context.Context, n int64) (release func(), err error)
}

// Answer is the answer to an edit, before any of it is sent.
type Answer struct {
	// Result is the "result" message: the transport sets its seq and
	// sends it first.
	Result Result
	// Drawn reports a picture drawn: its Stream's frames, then "done",
	// follow the result.
	Drawn bool
	// Embeddable reports an answer a page may embed: its state is valid
	// and it needs no frames.
	Embeddable bool
	// Stream sends the binary frames the result announces; nil: none.
	Stream func(ctx context.Context, out Frames) error
	// Release gives back the work budget the answer holds until it is
	// sent. Never nil.
	Release func()
}

// Result is a "result" message: its fields, after the Head every
// message of the protocol starts with.
type Result interface {
	head() *Head
}

// Head is the fields every message of an edit starts with: the
// answers cache finds seq among a message's first bytes.
type Head struct {
	V    int    `json:"v"`
	Type string `json:"type"`
	// Page is the explorer answered; absent for the layout explorer,
	// the protocol's default page.
	Page string `json:"page,omitempty"`
	// Seq is the edit answered; absent in the answer a page embeds.
	Seq int64 `json:"seq,omitempty"`
}

func (h *Head) head() *Head { return h }

// ProtocolVersion is the websocket protocol's version (docs/protocol.md).
const ProtocolVersion = 2

// ResultHead is the Head of a result of page.
func ResultHead(page string) Head {
	if page == "layout" {
		page = ""
	}
	return Head{V: ProtocolVersion, Type: "result", Page: page}
}

// SetSeq sets the seq of r.
func SetSeq(r Result, seq int64) { r.head().Seq = seq }

// Frames sends an edit's binary frames (docs/protocol.md, "Binary
// frames"). Each method sends one buffer in frames chunks, the number
// the result announced.
type Frames interface {
	// Bits sends a bitmap, WordsPerFrame uint64 words a frame.
	Bits(kind byte, words []uint64, frames int) error
	// Counts sends one count per cell, CountsPerFrame a frame, each
	// saturated at 255.
	Counts(kind byte, counts []uint32, frames int) error
}

// The binary frames' kinds (kind 1, offsets, and 5 and 6, values, were
// version 1's).
const (
	FrameCounts  = 2 // uint8 per buffer cell: how many elements live there, 255 meaning 255 or more
	FrameTouched = 3 // uint64 words: bit k%64 of word k/64 is set when cell k holds an element (the slice explorer: when the slice reads cell k)
	FrameCopied  = 4 // uint64 words over the input's elements, row-major: bit set when the slice copies the element
)

// Items per binary frame: 1 MiB of payload each.
const (
	CountsPerFrame = 1 << 20
	WordsPerFrame  = 1 << 17
)

// FramesOf is how many frames hold items, per to a frame.
func FramesOf(items, per int64) int { return int((items + per - 1) / per) }

// SVGPlan is an SVG picture, planned: what identifies it and what
// drawing it costs are known before it is drawn, so that a cache's copy
// is revalidated, and the budget taken, first.
type SVGPlan struct {
	// Query is the canonical query of the state drawn.
	Query string
	// Cost is what drawing it takes from the work budget.
	Cost int64
	// Draw draws it.
	Draw func(ctx context.Context) (templ.Component, error)
}

// Endpoint is one JSON endpoint: POST Path with a body decoded strictly
// into New's value, answered by Serve's (which takes its work from the
// budget, budget.Take, before it does it).
type Endpoint struct {
	Path  string
	New   func() any
	Serve func(ctx context.Context, req any) (any, error)
}

// Kinds are the explorers a server shows.
type Kinds []Kind

// Find is the explorer named name.
func (ks Kinds) Find(name string) (Kind, bool) {
	for _, k := range ks {
		if k.Name() == name {
			return k, true
		}
	}
	return nil, false
}

// MaxQuery is the longest query the page a room presents accepts
// (rooms.PagePath's names): its explorer's, and for the tour, whose
// steps show every explorer, the longest of them.
func (ks Kinds) MaxQuery(page string) int {
	if k, ok := ks.Find(page); ok {
		return k.MaxQuery()
	}
	n := 0
	for _, k := range ks {
		n = max(n, k.MaxQuery())
	}
	return n
}
