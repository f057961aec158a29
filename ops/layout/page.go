package layout

import (
	"context"
	"net/url"
	"strconv"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// PageOf builds the whole page for a query.
func PageOf(ctx context.Context, q url.Values) (PageModel, error) {
	v, pv, stale := picture.Resolve(q)
	if pv.Layout == nil {
		return PageModel{Form: FormIn(ctx, v), Presets: PresetLinks(v.State, v.Layout != nil), Picture: EmptyPicture(ctx), Stale: picture.StaleIn(ctx, stale)}, nil
	}
	if err := budget.Take(ctx, picture.LayoutCost(pv.Layout, picture.OnPage)); err != nil {
		return PageModel{}, err
	}
	query := pv.State.CanonicalQuery(false)
	pic, err := picture.New(ctx, pv, query)
	if err != nil {
		return PageModel{}, err
	}
	m := PageModel{
		Form:      FormIn(ctx, v),
		Presets:   PresetLinks(v.State, v.Layout != nil),
		Picture:   pic.View,
		Stale:     picture.StaleIn(ctx, stale),
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

// FormIn is the form as typed, with the errors of each field, its
// messages in ctx's locale.
func FormIn(ctx context.Context, v picture.Validated) FormModel {
	st := v.State
	f := FormModel{
		DataType: st.DT,
		Rank:     len(st.Sizes),
		Packed:   st.Packed,
		Rows:     st.Rows,
		Order:    st.Order,
		Pitch:    st.Pitch,
		Total:    st.Total,
		Align:    st.Align,
		Labels:   st.Labels,
		Sel:      st.Sel,
		Cell:     st.Cell,
		Errors:   picture.ViolationMap(picture.Worded(ctx, v.Errors, len(st.Sizes))),
		Warnings: picture.ViolationMap(picture.Localised(ctx, v.Warnings)),
	}
	f.DataTypes, f.DataType = picture.DataTypeChoices(st.DT)
	rank := min(max(f.Rank, 1), views.MaxRank)
	labels := core.DimensionLabels(rank)
	f.Orders = core.NamedLayouts
	var packed []int64
	if v.Layout != nil && st.Packed {
		packed = v.Layout.Strides
	}
	f.Dims = make([]DimRow, views.MaxRank)
	for i := range f.Dims {
		d := DimRow{Index: i, Active: i < len(st.Sizes) && i < views.MaxRank}
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
	if r := picture.BadRankOf(v.Errors); r != "" || picture.Overflows(len(st.Sizes), st.Strides) {
		f.Typed = st.CanonicalQuery(false) + picture.Explicit(st) + r
	}
	return f
}

// PresetLinks are the preset picker's links for the current data type and
// label mode, the one st is marked current when st is valid.
func PresetLinks(st picture.LayoutState, valid bool) []views.Preset {
	base := picture.LayoutState{DT: st.DT, Labels: st.Labels}
	if _, err := core.ParseDataType(base.DT); err != nil || base.DT == "" {
		base.DT = "FLOAT32"
	}
	cur := picture.StateKey(st.CanonicalQuery(false))
	out := make([]views.Preset, len(picture.Presets))
	for i, p := range picture.Presets {
		q := p.Apply(base).CanonicalQuery(false)
		out[i] = views.Preset{Name: p.Name, Title: p.Title, Key: "preset.layout." + p.Name, Page: p.Page, Href: "/?" + q, Current: valid && picture.StateKey(q) == cur}
	}
	return out
}
