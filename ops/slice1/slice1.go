// Package slice1 is the DML_SLICE1 explorer as an explorer.Kind: a
// window (offsets, sizes, strides) over an input tensor, the output it
// copies, the input buffer's cells it reads, and the copy step by step.
package slice1

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/a-h/templ"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// Kind is the DML_SLICE1 explorer.
type Kind struct{}

var _ explorer.Kind = Kind{}

// Name is the slice explorer's page in the protocol.
// Listing is the explorer's entry in the operators index.
func (Kind) Listing(ctx context.Context) (title, summary string) {
	return i18n.T(ctx, "site.nav.slice"), i18n.T(ctx, "slice.summary")
}

func (Kind) Name() string { return "slice" }

// Routes are the slice explorer's addresses.
func (Kind) Routes() explorer.Routes {
	return explorer.Routes{Page: "/slice", Embed: "/embed/slice", SVG: "/api/v1/slice1.svg", File: "stridescope-slice.svg", EmbedHeight: 1120}
}

// MaxQuery is the longest query of a slice state.
func (Kind) MaxQuery() int { return MaxQueryLen }

// Canonical is the canonical query of a slice state as typed: a state
// with errors carries its last valid one, if any.
func (Kind) Canonical(q url.Values) string {
	typed, drawn, _ := Resolve(q)
	if typed.Slice != nil {
		return StateOf(typed).CanonicalQuery(false)
	}
	st := typed.State
	st.Last = ""
	if drawn.Slice != nil {
		st.Last = StateOf(drawn).CanonicalQuery(false)
	}
	return st.CanonicalQuery(true)
}

// Page is the slice explorer of q at place; its step-through links lead
// there too.
func (k Kind) Page(ctx context.Context, q url.Values, at explorer.Place) (explorer.Page, error) {
	m, err := PageOf(ctx, q)
	if err != nil {
		return explorer.Page{}, err
	}
	m.Action = at.Path
	explorer.RebasePresets(m.Presets, at.Path)
	st := &m.Picture.Steps
	st.Prev, st.Next = explorer.Rebase(st.Prev, at.Path), explorer.Rebase(st.Next, at.Path)
	m.Share = explorer.ShareOf(k, at, m.LastValid)
	m.Share.NoSVG = m.Picture.NoSVG
	m.Share.Alt = m.Picture.Alt
	p := m.Picture
	return explorer.Page{
		LastValid: m.LastValid,
		Whole:     m.Stale == "" && explorer.DrawnWhole(p.Input.Mode, p.Output.Mode, p.Buffer.Mode),
		Render: func(answer []byte) templ.Component {
			if answer != nil {
				m.Answer = json.RawMessage(answer) // never a nil RawMessage, which renders "null"
			}
			return explorer.Framed(at.Frame,
				func() templ.Component { return PageView(m) },
				func() templ.Component { return EmbedPage(m) },
				func() templ.Component { return Widget(m) })
		},
	}, nil
}

// SVG plans the picture of q's slice as an SVG file: every valid state
// has one, element by element when it is small (Detailed), binned
// otherwise or when the detailed one would be more than
// views.MaxSVGAspect times as tall as wide.
func (Kind) SVG(ctx context.Context, q url.Values) (explorer.SVGPlan, error) {
	st, qvs := StateFromQuery(q)
	v := Validate(st, qvs)
	if v.Slice == nil {
		return explorer.SVGPlan{}, &explorer.Invalid{Violations: v.Errors}
	}
	detailed := Detailed(v.Slice)
	cost := BinnedCost(v.Slice)
	if detailed {
		cost += SVGCost(v.Slice)
	}
	return explorer.SVGPlan{
		Query: st.CanonicalQuery(false),
		Cost:  cost,
		Draw: func(ctx context.Context) (templ.Component, error) {
			if detailed {
				pic, err := Diagram(ctx, v.Slice, v.Values)
				if err != nil {
					return nil, err
				}
				if doc, ok, err := views.Bounded(ctx, SVG(ctx, pic, "slice")); ok || err != nil {
					return doc, err
				}
			}
			s, err := Binned(ctx, v.Slice, "slice")
			if err != nil {
				return nil, err
			}
			return views.SVGDocument(s), nil
		},
	}, nil
}

// API is POST /api/v1/slice1, /api/v1/slice (DML_SLICE, the first
// version) and /api/v1/slice1/numpy.
func (Kind) API() []explorer.Endpoint {
	return []explorer.Endpoint{
		{Path: "/api/v1/slice1", New: func() any { return new(Request) }, Serve: serveSlice1},
		{Path: "/api/v1/slice", New: func() any { return new(V1Request) }, Serve: serveSliceV1},
		{Path: "/api/v1/slice1/numpy", New: func() any { return new(NumpyRequest) }, Serve: serveNumpy},
	}
}

func serveSlice1(ctx context.Context, req any) (any, error) {
	sl, inv := req.(*Request).Slice1()
	if inv != nil {
		return nil, inv
	}
	if err := budget.Take(ctx, APICost(sl)); err != nil {
		return nil, err
	}
	return localResponse(ctx, sl), nil
}

func serveSliceV1(ctx context.Context, req any) (any, error) {
	sl, inv := req.(*V1Request).SliceV1()
	if inv != nil {
		return nil, inv
	}
	if err := budget.Take(ctx, APICost(sl)); err != nil {
		return nil, err
	}
	return V1Response{
		Slice1: Window{
			InputWindowOffsets: sl.WindowOffsets, InputWindowSizes: sl.WindowSizes,
			InputWindowStrides: sl.WindowStrides, OutputSizes: sl.OutputSizes,
		},
		Response: localResponse(ctx, sl),
	}, nil
}

func serveNumpy(ctx context.Context, r any) (any, error) {
	req := r.(*NumpyRequest)
	var vs []core.Violation
	if req.Expression == "" {
		vs = append(vs, core.NewMsg("numpy.required", "expression is required (e.g. \"x[1:4, ::-2]\")", nil).At("expression"))
	}
	// The input sizes obey the tensor rules; report them all together.
	if _, err := core.NewLayout(core.TensorDesc{DataType: core.Float32, Sizes: req.InputSizes}); err != nil {
		for _, v := range picture.CoreViolations(err) {
			vs = append(vs, v.Renamed("input"+i18n.UpperFirst(v.Field)))
		}
	}
	if len(vs) > 0 {
		return nil, &explorer.Invalid{Violations: vs}
	}
	w, err := core.ParseNumpy(req.InputSizes, req.Expression)
	if err != nil {
		return nil, &explorer.Invalid{Violations: []core.Violation{core.ViolationOf("expression", err)}}
	}
	return NumpyResponse{
		InputWindowOffsets: w.WindowOffsets,
		InputWindowSizes:   w.WindowSizes,
		InputWindowStrides: w.WindowStrides,
		OutputSizes:        w.OutputSizes,
		DroppedAxes:        append([]int{}, w.DroppedAxes...),
		PythonSliceIndices: pythonIndices(w),
		NumPy:              core.FormatNumpy(w.WindowOffsets, w.WindowSizes, w.WindowStrides, w.OutputSizes),
	}, nil
}

// localResponse is sl's response with its warnings in ctx's language.
func localResponse(ctx context.Context, sl *core.Slice1) Response {
	resp := NewResponse(sl)
	resp.Warnings = i18n.LocaleOf(ctx).Violations(resp.Warnings)
	return resp
}

// pythonIndices is w's Python slice.indices as JSON numbers, exact
// however large a step was written.
func pythonIndices(w *core.NumpyWindow) [][3]json.Number {
	out := make([][3]json.Number, 0, len(w.Indices))
	for _, ix := range w.PythonIndices() {
		out = append(out, [3]json.Number{json.Number(ix[0]), json.Number(ix[1]), json.Number(ix[2])})
	}
	return out
}
