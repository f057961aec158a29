package layout

import (
	"context"
	"net/url"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// Result answers an edit of the layout explorer (docs/protocol.md). When
// ok is false only errors, warnings and form are set, and the page keeps
// its last valid picture.
type Result struct {
	explorer.Head
	OK       bool             `json:"ok"`
	Query    string           `json:"query"`
	Last     string           `json:"last,omitempty"` // when not ok: the query of the last valid state drawn
	Form     Form             `json:"form"`
	Errors   []core.Violation `json:"errors"`
	Warnings []core.Violation `json:"warnings"`
	Meta     *Meta            `json:"meta,omitempty"`
	HTML     *HTML            `json:"html,omitempty"`
	Counts   []uint32         `json:"counts,omitempty"`
	Stream   *Stream          `json:"stream,omitempty"`
	// Alt names the picture drawn (views.LayoutTitle): the alt text of
	// the Embed popover's picture snippet.
	Alt string `json:"alt,omitempty"`
	// NoSVG says why the picture drawn has no SVG picture, in the
	// session's language; absent when it has one.
	NoSVG string `json:"noSVG,omitempty"`
}

// Form is the state of the inputs, for the page to refill its form
// after a preset, a rank change or a switch between packed and explicit.
type Form struct {
	DT            string   `json:"dt"`
	Sizes         []string `json:"sizes"`
	Strides       []string `json:"strides"`
	Packed        bool     `json:"packed"`
	Rows          bool     `json:"rows,omitempty"`
	Order         string   `json:"order,omitempty"`
	Pitch         string   `json:"pitch,omitempty"`
	Total         string   `json:"total"`
	Align         string   `json:"align"`
	Labels        string   `json:"labels"`
	Sel           string   `json:"sel"`
	Cell          string   `json:"cell"`
	DimLabels     []string `json:"dimLabels"`
	PackedStrides []int64  `json:"packedStrides,omitempty"`
}

// Meta is what the page draws and links by.
type Meta struct {
	Sizes        []int64  `json:"sizes"`
	Strides      []int64  `json:"strides"`
	Labels       []string `json:"labels"`
	Bits         int64    `json:"bits"`
	LogicalCount int64    `json:"logicalCount"`
	Cells        int64    `json:"cells"`
	Last         int64    `json:"last"`
	LabelMode    string   `json:"labelMode"`
	LogicalMode  string   `json:"logicalMode"`
	BufferMode   string   `json:"bufferMode"`
}

// HTML holds the templ-rendered fragments the page swaps in.
type HTML struct {
	Logical    string `json:"logical"`
	Buffer     string `json:"buffer"`
	Facts      string `json:"facts"`
	LogicalSub string `json:"logicalSub"`
	BufferSub  string `json:"bufferSub"`
	// Keys holds the key of each fragment (views.Fragment), by name; the
	// page leaves a container whose data-key is already the same.
	Keys explorer.Fragments `json:"keys"`
}

// Stream announces the binary frames that follow a result.
type Stream struct {
	CountKind   string `json:"countKind"` // "counts" or "touched"
	CountFrames int    `json:"countFrames"`
}

// Answer answers an edit of the layout explorer: decode the query,
// Validate with core, compute with compute. A buffer drawn on a canvas
// gets its highlight in binary frames: a bitmap of the cells in use when
// no two elements share a cell, else a saturated count per cell.
func (Kind) Answer(ctx context.Context, q url.Values, opt explorer.AnswerOptions) (explorer.Answer, error) {
	a := explorer.Answer{Release: func() {}}
	st, qvs := picture.LayoutStateFromQuery(q)
	v := picture.Validate(st, qvs)
	res := &Result{Head: explorer.ResultHead("layout"), OK: v.Layout != nil,
		Errors: picture.NonNil(picture.Worded(ctx, v.Errors, len(st.Sizes))), Warnings: picture.NonNil(picture.Localised(ctx, v.Warnings))}
	a.Result = res
	drawn := v
	if v.Layout == nil {
		res.Query = st.CanonicalQuery(false)
		res.Form = newForm(v.State, nil)
		// A state with errors that carries its last valid one (an entry
		// of the page's history) is drawn as its page draws it: that
		// picture under these errors.
		lv, ok := picture.LastValid(st)
		if !ok {
			return a, nil
		}
		drawn = lv
	}
	// The budget is held until the last frame is queued.
	release, err := opt.Take(ctx, picture.LayoutCost(drawn.Layout, picture.InEdit))
	if err != nil {
		return a, err
	}
	// Given back by the transport once sent; here if anything fails (or
	// panics) before the answer is.
	answered := false
	defer func() {
		if !answered {
			release()
		}
	}()
	cst := picture.CanonicalState(drawn)
	drawn.State = cst
	query := cst.CanonicalQuery(false)
	if res.OK {
		res.Query = query
		res.Form = newForm(cst, drawn.Layout)
	} else {
		res.Last = query
	}
	pic, err := picture.New(ctx, drawn, query)
	if err != nil {
		return explorer.Answer{}, err
	}
	m := pic.View.Meta
	res.Meta = &Meta{Sizes: m.Sizes, Strides: m.Strides, Labels: m.Labels, Bits: m.Bits, LogicalCount: m.LogicalCount,
		Cells: m.Cells, Last: m.Last, LabelMode: m.LabelMode, LogicalMode: pic.View.Logical.Mode, BufferMode: pic.View.Buffer.Mode}
	res.Alt = views.LayoutTitle(ctx, pic.View)
	res.NoSVG = pic.View.NoSVG
	if opt.HTML {
		keys := explorer.Fragments{}
		res.HTML = &HTML{
			Logical:    keys.Render(ctx, "logical", views.LogicalView(pic.View.Logical)),
			Buffer:     keys.Render(ctx, "buffer", views.BufferView(pic.View.Buffer)),
			Facts:      keys.Render(ctx, "facts", views.FactsView(pic.View.Facts)),
			LogicalSub: views.LogicalSubIn(ctx, pic.View.Meta),
			BufferSub:  views.BufferSubIn(ctx, pic.View.Meta),
			Keys:       keys,
		}
	}
	res.Counts = pic.Counts
	l := pic.Layout
	cells := l.BufferElementCount()
	touched := l.HasOverlap() == core.TriFalse
	if pic.View.Buffer.Mode == views.ModeCanvas {
		st := &Stream{CountKind: "counts", CountFrames: explorer.FramesOf(cells, explorer.CountsPerFrame)}
		if touched {
			st.CountKind, st.CountFrames = "touched", explorer.FramesOf((cells+63)/64, explorer.WordsPerFrame)
		}
		res.Stream = st
		a.Stream = func(ctx context.Context, out explorer.Frames) error {
			if touched {
				bm, put, err := explorer.Touched(ctx, pic.Walk, cells)
				if err != nil {
					return err
				}
				defer put()
				return out.Bits(explorer.FrameTouched, bm, st.CountFrames)
			}
			counts, put, err := explorer.CellCounts(ctx, pic.Walk, cells)
			if err != nil {
				return err
			}
			defer put()
			return out.Counts(explorer.FrameCounts, counts, st.CountFrames)
		}
	}
	a.Drawn, a.Embeddable = true, res.OK && res.Stream == nil
	a.Release = release
	answered = true
	return a, nil
}

// newForm is the form message of a state (and of its layout, when valid).
func newForm(st picture.LayoutState, l *core.Layout) Form {
	f := Form{DT: st.DT, Sizes: nonNil(st.Sizes), Strides: nonNil(st.Strides), Packed: st.Packed, Rows: st.Rows, Order: st.Order, Pitch: st.Pitch,
		Total: st.Total, Align: st.Align, Labels: st.Labels, Sel: st.Sel, Cell: st.Cell}
	// The rows show at most MaxDimensionCount dimensions (a longer state
	// keeps its error beside them): label those.
	if n := min(len(st.Sizes), core.MaxDimensionCount); n >= 1 {
		f.DimLabels = core.DimensionLabels(n)
	} else {
		f.DimLabels = []string{}
	}
	if l != nil {
		f.PackedStrides = l.Strides
	}
	return f
}

func nonNil(xs []string) []string {
	if xs == nil {
		return []string{}
	}
	return xs
}
