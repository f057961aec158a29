package slice1

import (
	"context"
	"net/url"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// Draw draws a valid slice: its canonical state and query, and the
// picture; stream (a websocket edit) fills what its canvases are drawn
// from, a page only the cells it shows.
func Draw(ctx context.Context, v Validated) (State, string, *Picture, error) {
	cst := StateOf(v)
	query := cst.CanonicalQuery(false)
	noStep := cst
	noStep.T = ""
	pic, err := NewPicture(ctx, v, query, "/slice?"+noStep.CanonicalQuery(false))
	return cst, query, pic, err
}

// PageOf builds the whole page for a query: the form as typed,
// the picture of its slice or of the last valid one.
func PageOf(ctx context.Context, q url.Values) (PageModel, error) {
	typed, drawn, stale := Resolve(q)
	if drawn.Slice == nil {
		return PageModel{
			Form: FormIn(ctx, typed), Presets: PresetLinks(typed.State, typed.Slice != nil), Dims: DimsIn(ctx, typed.State),
			Picture: EmptyPicture(ctx), Stale: picture.StaleIn(ctx, stale),
		}, nil
	}
	if err := budget.Take(ctx, Cost(drawn.Slice, false)); err != nil {
		return PageModel{}, err
	}
	cst, query, pic, err := Draw(ctx, drawn)
	if err != nil {
		return PageModel{}, err
	}
	if typed.Slice != nil {
		typed.State = cst
		typed.Warnings = append(typed.Warnings, pic.Warnings...)
	}
	return PageModel{
		Form:      FormIn(ctx, typed),
		Presets:   PresetLinks(typed.State, typed.Slice != nil),
		Dims:      DimsIn(ctx, typed.State),
		Picture:   pic.View,
		Stale:     picture.StaleIn(ctx, stale),
		LastValid: query,
	}, nil
}

// EmptyPicture is the slice explorer's picture when there is no
// valid slice to draw: every view says so, the facts are empty.
func EmptyPicture(ctx context.Context) PictureView {
	st := Steps{Cur: -1, Text: i18n.T(ctx, "empty.steps")}
	for i, l := range Code {
		st.Code = append(st.Code, CodeLine{N: i + 1, Text: l})
	}
	return PictureView{
		Input:  views.Logical{Mode: views.ModeEmpty, Note: i18n.T(ctx, "empty.inputs")},
		Output: views.Logical{Mode: views.ModeEmpty, Note: i18n.T(ctx, "empty.output")},
		Buffer: views.Buffer{Mode: views.ModeEmpty, Note: i18n.T(ctx, "empty.inbuffer")},
		Steps:  st,
	}
}

// windowOutside is the code of a window that runs out of the input
// (core's rule, reported at the window's offset): the page marks the
// window's size invalid too, as static/slice.js does live.
const windowOutside = "slice1.window.outside"

// FormIn is the slice form as typed, with the errors of each field,
// its messages in ctx's locale.
func FormIn(ctx context.Context, v Validated) FormModel {
	st := v.State
	f := FormModel{
		DataType: st.In.DT,
		Rank:     min(max(len(st.In.Sizes), 1), views.MaxRank),
		Packed:   st.In.Packed,
		Total:    st.In.Total,
		Align:    st.In.Align,
		NumPy:    st.NP,
		Values:   st.Vals,
		Errors:   picture.ViolationMap(picture.Worded(ctx, v.Errors, len(st.In.Sizes))),
		Warnings: picture.ViolationMap(picture.Localised(ctx, v.Warnings)),
		Blamed:   map[string]bool{},
	}
	for _, e := range v.Errors {
		if i, ok := strings.CutPrefix(e.Field, "inputWindowOffsets"); ok && e.Code == windowOutside {
			f.Blamed["inputWindowSizes"+i] = true
		}
	}
	if v.T >= 0 {
		f.T = strconv.FormatInt(v.T, 10)
	}
	f.DataTypes, f.DataType = picture.DataTypeChoices(st.In.DT)
	f.FeatureLevel = core.NewestFeatureLevel.String()
	if st.FL != "" {
		f.FeatureLevel = st.FL
		if fl, err := core.ParseFeatureLevel(st.FL); err == nil {
			f.FeatureLevel = fl.String()
		}
	}
	known := false
	for _, fl := range core.FeatureLevels {
		f.FeatureLevels = append(f.FeatureLevels, fl.String())
		known = known || fl.String() == f.FeatureLevel
	}
	if !known {
		f.FeatureLevels = append([]string{f.FeatureLevel}, f.FeatureLevels...)
	}
	var packed []int64
	if v.Slice != nil {
		f.NumPy = v.Slice.Numpy()
	}
	if st.In.Packed {
		packed = packedStridesOf(st.In.Sizes)
	}
	labels := core.DimensionLabels(f.Rank)
	at := func(xs []string, i int) string {
		if i < len(xs) {
			return xs[i]
		}
		return ""
	}
	f.Dims = make([]DimRow, views.MaxRank)
	for i := range f.Dims {
		d := DimRow{Index: i, Active: i < len(st.In.Sizes) && i < views.MaxRank,
			Size: at(st.In.Sizes, i), Off: at(st.Off, i), Win: at(st.Win, i), Step: at(st.Step, i), Out: at(st.Out, i)}
		if i < f.Rank {
			d.Label = labels[i]
		}
		switch {
		case i < len(packed):
			d.Stride = strconv.FormatInt(packed[i], 10)
		case !st.In.Packed:
			d.Stride = at(st.In.Strides, i)
		}
		win, err1 := strconv.ParseInt(d.Win, 10, 64)
		step, err2 := strconv.ParseInt(d.Step, 10, 64)
		if err1 == nil && err2 == nil && win >= 1 && step != 0 {
			d.OutMax = strconv.FormatInt(core.MaxCopiedElements(win, step), 10)
		}
		f.Dims[i] = d
	}
	if len(st.In.Sizes) == 0 {
		f.Dims[0].Active = true
	}
	if r := picture.BadRankOf(v.Errors); r != "" || picture.Overflows(len(st.In.Sizes), st.In.Strides, st.Off, st.Win, st.Step, st.Out) {
		f.Typed = st.CanonicalQuery(false) + picture.Explicit(st.In) + r
	}
	return f
}

// packedStridesOf is the packed strides of sizes as typed, nil when one
// does not parse or the tensor is too large (its error says why).
func packedStridesOf(sizes []string) []int64 {
	n := make([]int64, len(sizes))
	for i, s := range sizes {
		v, err := strconv.ParseInt(picture.AsciiNumber(s), 10, 64)
		if err != nil || v < 1 || v > core.MaxUINT {
			return nil
		}
		n[i] = v
	}
	if l, err := core.NewLayout(core.TensorDesc{DataType: core.Float32, Sizes: n}); err == nil {
		return l.Strides
	}
	return nil
}
