package picture

import (
	"context"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/views"
)

// LayoutPage builds the whole page for a query.
func LayoutPage(ctx context.Context, q url.Values) (views.Explorer, error) {
	v, pv, stale := Resolve(q)
	if pv.Layout == nil {
		return views.Explorer{Form: LayoutFormIn(ctx, v), Presets: PresetLinks(v.State, v.Layout != nil), Picture: EmptyPicture(ctx), Stale: staleIn(ctx, stale)}, nil
	}
	if err := budget.Take(ctx, LayoutCost(pv.Layout, OnPage)); err != nil {
		return views.Explorer{}, err
	}
	query := pv.State.CanonicalQuery(false)
	pic, err := New(ctx, pv, query)
	if err != nil {
		return views.Explorer{}, err
	}
	m := views.Explorer{
		Form:      LayoutFormIn(ctx, v),
		Presets:   PresetLinks(v.State, v.Layout != nil),
		Picture:   pic.View,
		Stale:     staleIn(ctx, stale),
		LastValid: query,
	}
	return m, nil
}

// EmptyPicture is the layout explorer's picture when there is no valid
// state to draw: both views say so and the facts are empty.
func EmptyPicture(ctx context.Context) views.Picture {
	return views.Picture{
		Logical: views.Logical{Mode: views.ModeEmpty, Note: i18n.T(ctx, "empty.inputs")},
		Buffer:  views.Buffer{Mode: views.ModeEmpty, Note: i18n.T(ctx, "empty.buffer")},
	}
}

// LayoutFormIn is the form as typed, with the errors of each field, its
// messages in ctx's locale.
func LayoutFormIn(ctx context.Context, v Validated) views.Form {
	st := v.State
	f := views.Form{
		DataType: st.DT,
		Rank:     len(st.Sizes),
		Packed:   st.Packed,
		Total:    st.Total,
		Align:    st.Align,
		Labels:   st.Labels,
		Sel:      st.Sel,
		Cell:     st.Cell,
		Errors:   violationMap(Worded(ctx, v.Errors, len(st.Sizes))),
		Warnings: violationMap(Localised(ctx, v.Warnings)),
	}
	f.DataTypes, f.DataType = dataTypeChoices(st.DT)
	rank := min(max(f.Rank, 1), views.MaxRank)
	labels := core.DimensionLabels(rank)
	var packed []int64
	if v.Layout != nil && st.Packed {
		packed = v.Layout.Strides
	}
	f.Dims = make([]views.DimRow, views.MaxRank)
	for i := range f.Dims {
		d := views.DimRow{Index: i, Active: i < len(st.Sizes) && i < views.MaxRank}
		if i < rank {
			d.Label = labels[i]
		}
		if i < len(st.Sizes) {
			d.Size = st.Sizes[i]
		}
		switch {
		case i < len(packed):
			d.Stride = strconv.FormatInt(packed[i], 10)
		case !st.Packed && i < len(st.Strides):
			d.Stride = st.Strides[i]
		}
		f.Dims[i] = d
	}
	if len(st.Sizes) > views.MaxRank {
		f.Rank = views.MaxRank
	}
	if len(st.Sizes) == 0 {
		f.Rank = 1
		f.Dims[0].Active = true
	}
	if r := badRankOf(v.Errors); r != "" || overflows(len(st.Sizes), st.Strides) {
		f.Typed = st.CanonicalQuery(false) + explicit(st) + r
	}
	return f
}

// explicit is the "&mode=explicit" a typed query needs when its strides
// are all blank: the canonical query would read as packed.
func explicit(st LayoutState) string {
	if st.Packed || slices.ContainsFunc(st.Strides, func(s string) bool { return s != "" }) {
		return ""
	}
	return "&mode=explicit"
}

// badRankOf is the "&rank=" part of a query whose rank the select cannot
// show ("9", "abc"), from its violation, or "".
func badRankOf(vs []core.Violation) string {
	for _, v := range vs {
		if r, ok := v.Args["rank"].(string); ok && v.Code == "query.rank" {
			return "&rank=" + url.QueryEscape(r)
		}
	}
	return ""
}

// overflows reports whether the form's rows cannot hold a state of n
// sizes and the lists: more than MaxRank dimensions, or a given list of
// another length (more entries than the rows shown, or fewer, which the
// rows would send as blanks: a blank output size means the largest).
func overflows(n int, lists ...[]string) bool {
	if n > views.MaxRank {
		return true
	}
	for _, l := range lists {
		if len(l) > max(n, 1) || len(l) > 0 && len(l) < n {
			return true
		}
	}
	return false
}

// dataTypeChoices lists the data type picker's options and the selected
// one. A typed value that is not a valid type stays first in the list, so
// it shows next to its error.
func dataTypeChoices(typed string) (options []string, selected string) {
	for _, d := range core.DataTypes() {
		options = append(options, d.String())
	}
	if dt, err := core.ParseDataType(typed); err == nil && dt.Valid() {
		return options, dt.String()
	}
	return append([]string{typed}, options...), ""
}

func violationMap(vs []core.Violation) map[string][]string {
	if len(vs) == 0 {
		return nil
	}
	m := map[string][]string{}
	for _, v := range vs {
		m[v.Field] = append(m[v.Field], v.Message)
	}
	return m
}

// DrawSlice draws a valid slice: its canonical state and query, and the
// picture; stream (a websocket edit) fills what its canvases are drawn
// from, a page only the cells it shows.
func DrawSlice(ctx context.Context, v SliceValidated) (SliceState, string, *SlicePicture, error) {
	cst := SliceStateOf(v)
	query := cst.CanonicalQuery(false)
	noStep := cst
	noStep.T = ""
	pic, err := NewSlice(ctx, v, query, "/slice?"+noStep.CanonicalQuery(false))
	return cst, query, pic, err
}

// SlicePage builds the whole page for a query: the form as typed,
// the picture of its slice or of the last valid one.
func SlicePage(ctx context.Context, q url.Values) (views.SlicePage, error) {
	typed, drawn, stale := ResolveSlice(q)
	if drawn.Slice == nil {
		return views.SlicePage{
			Form: SliceFormIn(ctx, typed), Presets: SlicePresetLinks(typed.State, typed.Slice != nil), Dims: SliceDimsIn(ctx, typed.State),
			Picture: EmptySlicePicture(ctx), Stale: staleIn(ctx, stale),
		}, nil
	}
	if err := budget.Take(ctx, SliceCost(drawn.Slice, false)); err != nil {
		return views.SlicePage{}, err
	}
	cst, query, pic, err := DrawSlice(ctx, drawn)
	if err != nil {
		return views.SlicePage{}, err
	}
	if typed.Slice != nil {
		typed.State = cst
		typed.Warnings = append(typed.Warnings, pic.Warnings...)
	}
	return views.SlicePage{
		Form:      SliceFormIn(ctx, typed),
		Presets:   SlicePresetLinks(typed.State, typed.Slice != nil),
		Dims:      SliceDimsIn(ctx, typed.State),
		Picture:   pic.View,
		Stale:     staleIn(ctx, stale),
		LastValid: query,
	}, nil
}

// EmptySlicePicture is the slice explorer's picture when there is no
// valid slice to draw: every view says so, the facts are empty.
func EmptySlicePicture(ctx context.Context) views.SlicePicture {
	st := views.SliceSteps{Cur: -1, Text: i18n.T(ctx, "empty.steps")}
	for i, l := range views.SliceCode {
		st.Code = append(st.Code, views.CodeLine{N: i + 1, Text: l})
	}
	return views.SlicePicture{
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

// SliceFormIn is the slice form as typed, with the errors of each field,
// its messages in ctx's locale.
func SliceFormIn(ctx context.Context, v SliceValidated) views.SliceForm {
	st := v.State
	f := views.SliceForm{
		DataType: st.In.DT,
		Rank:     min(max(len(st.In.Sizes), 1), views.MaxRank),
		Packed:   st.In.Packed,
		Total:    st.In.Total,
		Align:    st.In.Align,
		NumPy:    st.NP,
		Values:   st.Vals,
		Errors:   violationMap(Worded(ctx, v.Errors, len(st.In.Sizes))),
		Warnings: violationMap(Localised(ctx, v.Warnings)),
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
	f.DataTypes, f.DataType = dataTypeChoices(st.In.DT)
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
	f.Dims = make([]views.SliceDimRow, views.MaxRank)
	for i := range f.Dims {
		d := views.SliceDimRow{Index: i, Active: i < len(st.In.Sizes) && i < views.MaxRank,
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
	if r := badRankOf(v.Errors); r != "" || overflows(len(st.In.Sizes), st.In.Strides, st.Off, st.Win, st.Step, st.Out) {
		f.Typed = st.CanonicalQuery(false) + explicit(st.In) + r
	}
	return f
}

// packedStridesOf is the packed strides of sizes as typed, nil when one
// does not parse or the tensor is too large (its error says why).
func packedStridesOf(sizes []string) []int64 {
	n := make([]int64, len(sizes))
	for i, s := range sizes {
		v, err := strconv.ParseInt(asciiNumber(s), 10, 64)
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

// staleIn is a stale note of Resolve in ctx's locale.
func staleIn(ctx context.Context, stale string) string {
	switch {
	case stale == "":
		return ""
	case stale == NothingToDraw:
		return i18n.T(ctx, "stale.none")
	case strings.HasSuffix(stale, "slice."):
		return i18n.T(ctx, "stale.slice")
	}
	return i18n.T(ctx, "stale.tensor")
}

// Worded is InWords in ctx's locale: the errors a page or an edit over
// the websocket shows beside the form.
func Worded(ctx context.Context, vs []core.Violation, rank int) []core.Violation {
	return InWords(i18n.LocaleOf(ctx), Capped(vs), rank)
}

// Localised is vs with their messages in ctx's locale (warnings, which
// read well as their rules).
func Localised(ctx context.Context, vs []core.Violation) []core.Violation {
	return i18n.LocaleOf(ctx).Violations(vs)
}
