package slice1

import (
	"context"
	"net/url"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// Result answers an edit of the DML_SLICE1 explorer (docs/protocol.md,
// "The slice explorer"). When the state breaks a rule, ok is false and
// only query, form, errors, warnings and html.dims are set: the page
// shows each error at its field and keeps its last valid picture.
type Result struct {
	explorer.Head
	OK       bool             `json:"ok"`
	Query    string           `json:"query"`
	Last     string           `json:"last,omitempty"` // when not ok: the query of the last valid slice drawn
	Form     Form             `json:"form"`
	Errors   []core.Violation `json:"errors"`
	Warnings []core.Violation `json:"warnings"`
	Meta     *Meta            `json:"meta,omitempty"`
	HTML     *HTML            `json:"html,omitempty"`
	Stream   *Stream          `json:"stream,omitempty"`
	// Alt names the slice drawn (Alt): the alt text of the
	// Embed popover's picture snippet.
	Alt string `json:"alt,omitempty"`
	// NoSVG says why the slice drawn has no SVG picture, in the
	// session's language; absent when it has one.
	NoSVG string `json:"noSVG,omitempty"`
}

// Stream announces the binary frames that follow a result, per kind, in
// the order they are sent. The page computes the rest of what its
// canvases show from the meta: the offsets and how many elements each
// buffer cell holds from the sizes and strides, the values from
// meta.fill and meta.pattern.
type Stream struct {
	Copied int `json:"copiedFrames"` // FrameCopied, for the input's canvas
	Read   int `json:"readFrames"`   // FrameTouched, for the buffer's canvas
}

// Total is how many binary frames the stream announces.
func (m Stream) Total() int { return m.Copied + m.Read }

// Form is the state of the inputs, one entry per dimension, for the
// page to refill its form after a preset, a rank change, a NumPy
// expression or a packed/explicit switch.
type Form struct {
	DT        string   `json:"dt"`
	Sizes     []string `json:"sizes"`
	Strides   []string `json:"strides"`
	Packed    bool     `json:"packed"`
	Total     string   `json:"total"`
	Align     string   `json:"align"`
	DimLabels []string `json:"dimLabels"`
	Off       []string `json:"woff"`
	Win       []string `json:"wsize"`
	Step      []string `json:"wstride"`
	Out       []string `json:"out"`
	OutMax    []string `json:"outMax"`
	FL        string   `json:"fl"`
	NP        string   `json:"np"`
	Vals      string   `json:"vals"`
	T         string   `json:"t"`
}

// HTML holds the templ-rendered fragments the page swaps in.
type HTML struct {
	Dims      string `json:"dims"`
	Steps     string `json:"steps,omitempty"`
	Input     string `json:"input,omitempty"`
	Output    string `json:"output,omitempty"`
	Buffer    string `json:"buffer,omitempty"`
	Facts     string `json:"facts,omitempty"`
	InputSub  string `json:"inputSub,omitempty"`
	OutputSub string `json:"outputSub,omitempty"`
	BufferSub string `json:"bufferSub,omitempty"`
	// Keys: as the layout explorer's.
	Keys explorer.Fragments `json:"keys"`
}

func newForm(f FormModel) Form {
	m := Form{DT: f.DataType, Packed: f.Packed, Total: f.Total, Align: f.Align, FL: f.FeatureLevel, NP: f.NumPy, Vals: f.Values, T: f.T}
	for _, d := range f.Dims {
		if !d.Active {
			break
		}
		m.Sizes, m.Strides, m.DimLabels = append(m.Sizes, d.Size), append(m.Strides, d.Stride), append(m.DimLabels, d.Label)
		m.Off, m.Win, m.Step = append(m.Off, d.Off), append(m.Win, d.Win), append(m.Step, d.Step)
		m.Out, m.OutMax = append(m.Out, d.Out), append(m.OutMax, d.OutMax)
	}
	return m
}

// Answer answers an edit of the slice explorer: decode the query,
// validate with core, copy with compute, render the fragments. A view of
// more than MaxDOMCells cells is a canvas, drawn from the binary frames
// that follow the result (up to MaxInteractive cells; facts only above).
func (Kind) Answer(ctx context.Context, q url.Values, opt explorer.AnswerOptions) (explorer.Answer, error) {
	a := explorer.Answer{Release: func() {}}
	answered := false
	st, qvs := StateFromQuery(q)
	v := Validate(st, qvs)
	res := &Result{Head: explorer.ResultHead("slice"), OK: v.Slice != nil}
	a.Result = res
	var keys explorer.Fragments
	if opt.HTML {
		keys = explorer.Fragments{}
		res.HTML = &HTML{Keys: keys}
	}
	var pic *Picture
	drawn := v
	if v.Slice == nil {
		// As its page does, a slice with errors that carries its last
		// valid one is answered with that picture under its errors.
		if lv, ok := LastValid(v.State); ok {
			drawn = lv
		}
	}
	if drawn.Slice != nil {
		// The budget is held until the last frame is queued.
		release, err := opt.Take(ctx, Cost(drawn.Slice, true))
		if err != nil {
			return a, err
		}
		// Given back by the transport once sent; here if anything fails
		// (or panics) before the answer is.
		defer func() {
			if !answered {
				release()
			}
		}()
		a.Release = release
		cst, query, p, err := Draw(ctx, drawn)
		if err != nil {
			return explorer.Answer{}, err
		}
		pic = p
		if res.OK {
			v.State = cst
			v.Warnings = append(v.Warnings, pic.Warnings...)
			res.Query = query
		} else {
			res.Last = query
		}
		res.Meta = &pic.Meta
		res.Alt = pic.View.Alt
		res.NoSVG = pic.View.NoSVG
		if st := streamOf(pic); st.Total() > 0 {
			res.Stream = &st
		}
		if opt.HTML {
			h := res.HTML
			h.Steps = keys.Render(ctx, "steps", StepsView(pic.View.Steps))
			h.Input = keys.Render(ctx, "input", GridView("slice-in", pic.View.Input))
			h.Output = keys.Render(ctx, "output", GridView("slice-out", pic.View.Output))
			h.Buffer = keys.Render(ctx, "buffer", BufferView(pic.View.Buffer))
			h.Facts = keys.Render(ctx, "facts", FactsView(pic.View))
			h.InputSub, h.OutputSub, h.BufferSub = pic.View.InputSub, pic.View.OutputSub, pic.View.BufferSub
		}
	}
	if !res.OK {
		res.Query = v.State.CanonicalQuery(false)
	}
	res.Errors, res.Warnings = picture.NonNil(picture.Worded(ctx, v.Errors, len(v.State.In.Sizes))), picture.NonNil(picture.Localised(ctx, v.Warnings))
	res.Form = newForm(FormIn(ctx, v))
	if opt.HTML {
		res.HTML.Dims = keys.Render(ctx, "dims", DimsView(DimsIn(ctx, v.State)))
	}
	a.Drawn = pic != nil
	a.Embeddable = res.OK && res.Stream == nil
	if res.Stream != nil {
		st := *res.Stream
		a.Stream = func(ctx context.Context, out explorer.Frames) error { return stream(ctx, pic, st, out) }
	}
	answered = true
	return a, nil
}

// streamOf is what the canvases of p need, in frames of about 1 MiB: the
// bitmaps of the input elements copied and of the buffer cells read, the
// latter up to the input's last element (the unused tail is never read,
// and the page takes a cell no frame covers for one not read).
func streamOf(p *Picture) Stream {
	var st Stream
	if p.Meta.InputMode == views.ModeCanvas {
		st.Copied = explorer.FramesOf((p.Meta.InputCount+63)/64, explorer.WordsPerFrame)
	}
	if p.Meta.BufferMode == views.ModeCanvas && p.Touched != nil {
		st.Read = explorer.FramesOf(int64(len(p.Touched)), explorer.WordsPerFrame)
	}
	return st
}

// stream sends the frames st announces: compute.Touched of the slice's
// walk over the input's element indices (the elements copied) and over
// its buffer (the cells read).
func stream(ctx context.Context, p *Picture, st Stream, out explorer.Frames) error {
	if st.Copied > 0 {
		bm, put, err := explorer.Touched(ctx, copiedWalk(p.Slice), p.Meta.InputCount)
		if err != nil {
			return err
		}
		err = out.Bits(explorer.FrameCopied, bm, st.Copied)
		put()
		if err != nil {
			return err
		}
	}
	if st.Read > 0 {
		return out.Bits(explorer.FrameTouched, p.Touched, st.Read)
	}
	return nil
}

// copiedWalk is compute.SliceWalk over the input's row-major element
// indices instead of its buffer offsets (as if the input were packed):
// the walk reads element i when the slice copies input element i.
func copiedWalk(s *core.Slice1) compute.Walk {
	sizes := s.Input.Sizes
	w := compute.Walk{Sizes: append([]int64(nil), s.OutputSizes...), Strides: make([]int64, len(sizes))}
	pitch := int64(1)
	for d := len(sizes) - 1; d >= 0; d-- {
		w.Strides[d] = s.WindowStrides[d] * pitch
		w.Base += s.CopyStart[d] * pitch
		pitch *= sizes[d]
	}
	return w
}
