package web

import (
	"context"
	"net/http"
	"net/url"
	"strconv"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/views"
)

// getSlice renders the DML_SLICE1 explorer from the URL query: complete
// and correct without JavaScript.
func (s *Server) getSlice(c echo.Context) error {
	m, err := sliceAt(c, "", "/slice", false)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.SlicePageView(m))
}

// drawSlice draws a valid slice: its canonical state and query, and the
// picture.
func drawSlice(ctx context.Context, v sliceValidated, stream bool) (sliceState, string, *slicePicture, error) {
	cst := sliceStateOf(v)
	query := cst.canonicalQuery(false)
	noStep := cst
	noStep.T = ""
	pic, err := newSlicePicture(ctx, v, query, "/slice?"+noStep.canonicalQuery(false), stream)
	return cst, query, pic, err
}

// slicePageModel builds the whole page for a query: the form as typed,
// the picture of its slice or of the last valid one.
func slicePageModel(ctx context.Context, q url.Values) (views.SlicePage, error) {
	typed, drawn, stale := resolveSlice(q)
	if err := takeBudget(ctx, sliceCost(drawn.Slice, false)); err != nil {
		return views.SlicePage{}, err
	}
	cst, query, pic, err := drawSlice(ctx, drawn, false)
	if err != nil {
		return views.SlicePage{}, err
	}
	if typed.Slice != nil {
		typed.State = cst
		typed.Warnings = append(typed.Warnings, pic.Warnings...)
	}
	return views.SlicePage{
		Form:      sliceFormModel(typed),
		Presets:   slicePresetLinks(typed.State),
		Dims:      sliceDims(typed.State),
		Picture:   pic.View,
		Stale:     stale,
		LastValid: query,
	}, nil
}

// sliceFormModel is the form as typed, with the errors of each field.
func sliceFormModel(v sliceValidated) views.SliceForm {
	st := v.State
	f := views.SliceForm{
		DataType: st.In.DT,
		Rank:     min(max(len(st.In.Sizes), 1), views.MaxRank),
		Packed:   st.In.Packed,
		Total:    st.In.Total,
		Align:    st.In.Align,
		NumPy:    st.NP,
		Values:   st.Vals,
		Errors:   violationMap(v.Errors),
		Warnings: violationMap(v.Warnings),
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
	return f
}

// slicePresetLinks are the examples' links for the current data type and
// feature level.
func slicePresetLinks(st sliceState) []views.Preset {
	base := sliceState{In: explorerState{DT: st.In.DT}, FL: st.FL}
	if dt, err := core.ParseDataType(base.In.DT); err != nil || !dt.Valid() {
		base.In.DT = "FLOAT32"
	}
	if _, err := core.ParseFeatureLevel(base.FL); err != nil {
		base.FL = ""
	}
	out := make([]views.Preset, len(slicePresets))
	for i, p := range slicePresets {
		out[i] = views.Preset{Name: p.name, Title: p.title, Page: p.page, Href: "/slice?" + p.apply(base).canonicalQuery(false)}
	}
	return out
}

// packedStridesOf is the packed strides of sizes as typed, nil when one
// does not parse or the tensor is too large (its error says why).
func packedStridesOf(sizes []string) []int64 {
	n := make([]int64, len(sizes))
	for i, s := range sizes {
		v, err := strconv.ParseInt(s, 10, 64)
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
