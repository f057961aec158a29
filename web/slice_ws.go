package web

import (
	"context"
	"net/url"
	"strings"

	"github.com/gorilla/websocket"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/views"
)

// sliceResultMsg answers an edit of the DML_SLICE1 explorer
// (docs/protocol.md, "The slice explorer"). When the state breaks a rule,
// ok is false and only query, form, errors, warnings and html.dims are
// set: the page shows each error at its field and keeps its last valid
// picture.
type sliceResultMsg struct {
	V        int              `json:"v"`
	Type     string           `json:"type"`
	Page     string           `json:"page"`
	Seq      int64            `json:"seq"`
	OK       bool             `json:"ok"`
	Query    string           `json:"query"`
	Form     sliceFormMsg     `json:"form"`
	Errors   []core.Violation `json:"errors"`
	Warnings []core.Violation `json:"warnings"`
	Meta     *sliceMetaMsg    `json:"meta,omitempty"`
	HTML     sliceHTMLMsg     `json:"html"`
}

// sliceFormMsg is the state of the inputs, one entry per dimension, for
// the page to refill its form after a preset, a rank change, a NumPy
// expression or a packed/explicit switch.
type sliceFormMsg struct {
	DT        string   `json:"dt"`
	Sizes     []string `json:"sizes"`
	Strides   []string `json:"strides"`
	Packed    bool     `json:"packed"`
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
}

func newSliceFormMsg(f views.SliceForm) sliceFormMsg {
	m := sliceFormMsg{DT: f.DataType, Packed: f.Packed, FL: f.FeatureLevel, NP: f.NumPy, Vals: f.Values, T: f.T}
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

// runSliceEdit is the server side of one edit of the slice explorer:
// decode the query, validate with core, copy with compute, render the
// fragments. No binary frames: the views are DOM up to MaxDOMCells cells
// and facts only above.
func (s *Server) runSliceEdit(ctx context.Context, msg clientMsg, emit func(frame) error) error {
	text := func(v any) frame { return frame{kind: websocket.TextMessage, data: mustJSON(v), seq: msg.Seq} }
	fail := func(m string) error {
		return emit(text(errorMsg{V: ProtocolVersion, Type: "error", Seq: msg.Seq, Message: m}))
	}
	if len(msg.Query) > maxSliceQuery {
		return fail("the query is too long")
	}
	q, err := url.ParseQuery(strings.TrimPrefix(msg.Query, "?"))
	if err != nil {
		return fail("the query is not valid: " + err.Error())
	}
	st, qvs := sliceStateFromQuery(q)
	v := validateSlice(st, qvs)
	res := sliceResultMsg{V: ProtocolVersion, Type: "result", Page: "slice", Seq: msg.Seq, OK: v.Slice != nil}
	if v.Slice != nil {
		cst, query, pic, err := drawSlice(ctx, v)
		if err != nil {
			return err
		}
		v.State = cst
		v.Warnings = append(v.Warnings, pic.Warnings...)
		res.Query, res.Meta = query, &pic.Meta
		res.HTML = sliceHTMLMsg{
			Steps:     renderString(ctx, views.SliceStepsView(pic.View.Steps)),
			Input:     renderString(ctx, views.LogicalView(pic.View.Input)),
			Output:    renderString(ctx, views.LogicalView(pic.View.Output)),
			Buffer:    renderString(ctx, views.BufferView(pic.View.Buffer)),
			Facts:     renderString(ctx, views.SliceFactsView(pic.View)),
			InputSub:  pic.View.InputSub,
			OutputSub: pic.View.OutputSub,
			BufferSub: pic.View.BufferSub,
		}
	} else {
		res.Query = v.State.canonicalQuery(false)
	}
	res.Errors, res.Warnings = nonNil(v.Errors), nonNil(v.Warnings)
	res.Form = newSliceFormMsg(sliceFormModel(v))
	res.HTML.Dims = renderString(ctx, views.SliceDimsView(sliceDims(v.State)))
	if err := emit(text(res)); err != nil || !res.OK {
		return err
	}
	return emit(text(doneMsg{V: ProtocolVersion, Type: "done", Seq: msg.Seq}))
}
