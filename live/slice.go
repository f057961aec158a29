package live

import (
	"context"
	"encoding/binary"
	"net/url"
	"strings"

	"github.com/a-h/templ"
	"github.com/gorilla/websocket"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// SliceResultMsg answers an edit of the DML_SLICE1 explorer
// (docs/protocol.md, "The slice explorer"). When the state breaks a rule,
// ok is false and only query, form, errors, warnings and html.dims are
// set: the page shows each error at its field and keeps its last valid
type SliceResultMsg struct {
	V        int                `json:"v"`
	Type     string             `json:"type"`
	Page     string             `json:"page"`
	Seq      int64              `json:"seq"`
	OK       bool               `json:"ok"`
	Query    string             `json:"query"`
	Last     string             `json:"last,omitempty"` // when not ok: the query of the last valid slice drawn
	Form     sliceFormMsg       `json:"form"`
	Errors   []core.Violation   `json:"errors"`
	Warnings []core.Violation   `json:"warnings"`
	Meta     *picture.SliceMeta `json:"meta,omitempty"`
	HTML     sliceHTMLMsg       `json:"html"`
	Stream   *SliceStreamMsg    `json:"stream,omitempty"`
	// Alt names the slice drawn (views.SliceAlt): the alt text of the
	// Embed popover's picture snippet.
	Alt string `json:"alt,omitempty"`
	// NoSVG says why the slice drawn has no SVG picture, in the
	// session's language; absent when it has one.
	NoSVG string `json:"noSVG,omitempty"`
}

// SliceStreamMsg announces the binary frames that follow a result, per
// kind, in the order they are sent. The page computes the rest of what
// its canvases show from the meta: the offsets and how many elements
// each buffer cell holds from the sizes and strides, the values from
// meta.fill and meta.pattern.
type SliceStreamMsg struct {
	Copied int `json:"copiedFrames"` // FrameCopied, for the input's canvas
	Read   int `json:"readFrames"`   // FrameTouched, for the buffer's canvas
}

// Total is how many binary frames the stream announces.
func (m SliceStreamMsg) Total() int { return m.Copied + m.Read }

// sliceFormMsg is the state of the inputs, one entry per dimension, for
// the page to refill its form after a preset, a rank change, a NumPy
// expression or a packed/explicit switch.
type sliceFormMsg struct {
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

// sliceHTMLMsg holds the templ-rendered fragments the page swaps in.
type sliceHTMLMsg struct {
	Dims      string `json:"dims"`
	Steps     string `json:"steps,omitempty"`
	Input     string `json:"input,omitempty"`
	Output    string `json:"output,omitempty"`
	Buffer    string `json:"buffer,omitempty"`
	Facts     string `json:"facts,omitempty"`
	InputSub  string `json:"inputSub,omitempty"`
	OutputSub string `json:"outputSub,omitempty"`
	BufferSub string `json:"bufferSub,omitempty"`
	// Keys: as htmlMsg's.
	Keys map[string]string `json:"keys"`
}

func newSliceFormMsg(f views.SliceForm) sliceFormMsg {
	m := sliceFormMsg{DT: f.DataType, Packed: f.Packed, Total: f.Total, Align: f.Align, FL: f.FeatureLevel, NP: f.NumPy, Vals: f.Values, T: f.T}
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

// answerSlice answers an edit of the slice explorer: decode the query,
// Validate with core, copy with compute, render the fragments (with html
// false, none: FirstAnswer). A view of more than MaxDOMCells cells is a
// canvas, drawn from the binary frames that follow the result (up to
// MaxInteractive cells; facts only above).
func (h *Hub) answerSlice(ctx context.Context, msg clientMsg, html bool) (editAnswer, error) {
	a := editAnswer{release: func() {}}
	answered := false
	fail := func(m string) (editAnswer, error) {
		a.first = ErrorMsg{V: ProtocolVersion, Type: "error", Seq: msg.Seq, Message: m}
		return a, nil
	}
	if len(msg.Query) > picture.MaxSliceQuery {
		return fail("the query is too long")
	}
	q, err := url.ParseQuery(strings.TrimPrefix(msg.Query, "?"))
	if err != nil {
		return fail("the query is not valid: " + err.Error())
	}
	st, qvs := picture.SliceStateFromQuery(q)
	v := picture.ValidateSlice(st, qvs)
	res := SliceResultMsg{V: ProtocolVersion, Type: "result", Page: "slice", Seq: msg.Seq, OK: v.Slice != nil}
	keys := fragments{}
	render := func(key string, c templ.Component) string {
		if !html {
			return ""
		}
		return keys.render(ctx, key, c)
	}
	var pic *picture.SlicePicture
	drawn := v
	if v.Slice == nil {
		// As its page does, a slice with errors that carries its last
		// valid one is answered with that picture under its errors.
		if lv, ok := picture.LastValidSlice(v.State); ok {
			drawn = lv
		}
	}
	if drawn.Slice != nil {
		// The budget is held until the last frame is queued.
		release, err := h.Budget.Take(ctx, picture.SliceCost(drawn.Slice, true))
		if err != nil {
			return a, err
		}
		// Given back by runEdit once sent; here if anything fails (or
		// panics, which the session recovers from) before the answer is.
		defer func() {
			if !answered {
				release()
			}
		}()
		a.release = release
		cst, query, p, err := picture.DrawSlice(ctx, drawn)
		if err != nil {
			return editAnswer{}, err
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
		if st := sliceStream(pic); st.Total() > 0 {
			res.Stream = &st
		}
		res.HTML = sliceHTMLMsg{
			Steps:     render("steps", views.SliceStepsView(pic.View.Steps)),
			Input:     render("input", views.SliceGridView("slice-in", pic.View.Input)),
			Output:    render("output", views.SliceGridView("slice-out", pic.View.Output)),
			Buffer:    render("buffer", views.SliceBufferView(pic.View.Buffer)),
			Facts:     render("facts", views.SliceFactsView(pic.View)),
			InputSub:  pic.View.InputSub,
			OutputSub: pic.View.OutputSub,
			BufferSub: pic.View.BufferSub,
		}
	}
	if !res.OK {
		res.Query = v.State.CanonicalQuery(false)
	}
	res.Errors, res.Warnings = picture.NonNil(picture.Worded(ctx, v.Errors, len(v.State.In.Sizes))), picture.NonNil(picture.Localised(ctx, v.Warnings))
	res.Form = newSliceFormMsg(picture.SliceFormIn(ctx, v))
	res.HTML.Dims = render("dims", views.SliceDimsView(picture.SliceDimsIn(ctx, v.State)))
	res.HTML.Keys = keys
	a.first, a.drawn = res, pic != nil
	if res.Stream != nil {
		st := *res.Stream
		a.stream = func(emit func(frame) error) error { return h.streamSlice(ctx, msg.Seq, pic, st, emit) }
	}
	answered = true
	return a, nil
}

// sliceStream is what the canvases of p need, in frames of about 1 MiB:
// the bitmaps of the input elements copied and of the buffer cells read,
// the latter up to the input's last element (the unused tail is never
// read, and the page takes a cell no frame covers for one not read).
func sliceStream(p *picture.SlicePicture) SliceStreamMsg {
	var st SliceStreamMsg
	frames := func(items, per int64) int { return int((items + per - 1) / per) }
	if p.Meta.InputMode == views.ModeCanvas {
		st.Copied = frames((p.Meta.InputCount+63)/64, WordsPerFrame)
	}
	if p.Meta.BufferMode == views.ModeCanvas && p.Touched != nil {
		st.Read = frames(int64(len(p.Touched)), WordsPerFrame)
	}
	return st
}

// streamSlice sends the frames st announces: compute.Touched of the
// slice's walk over the input's element indices (the elements copied)
// and over its buffer (the cells read). A newer edit cancels ctx, and
// emit fails, between frames.
func (h *Hub) streamSlice(ctx context.Context, seq int64, p *picture.SlicePicture, st SliceStreamMsg, emit func(frame) error) error {
	if st.Copied > 0 {
		bm, put, err := touchedScratch(ctx, copiedWalk(p.Slice), p.Meta.InputCount)
		if err != nil {
			return err
		}
		err = streamBits(ctx, seq, FrameCopied, bm, st.Copied, emit)
		put()
		if err != nil {
			return err
		}
	}
	if st.Read > 0 {
		if err := streamBits(ctx, seq, FrameTouched, p.Touched, st.Read, emit); err != nil {
			return err
		}
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

// streamBits sends a bitmap as uint64 words, WordsPerFrame a frame; the
// first item of a frame is a word index.
func streamBits(ctx context.Context, seq int64, kind byte, bm []uint64, frames int, emit func(frame) error) error {
	for k := range frames {
		if err := ctx.Err(); err != nil {
			return err
		}
		first := int64(k) * WordsPerFrame
		words := bm[first:min(first+WordsPerFrame, int64(len(bm)))]
		bp, b := frameBuf(FrameHeaderLen + 8*len(words))
		putFrameHeader(b, kind, seq, k, frames, first)
		for i, wd := range words {
			binary.LittleEndian.PutUint64(b[FrameHeaderLen+8*i:], wd)
		}
		if err := emit(frame{kind: websocket.BinaryMessage, data: b, seq: seq, pooled: bp}); err != nil {
			return err
		}
	}
	return nil
}
