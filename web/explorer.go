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

// getIndex renders the explorer from the URL query: complete and correct
// without JavaScript.
func (s *Server) getIndex(c echo.Context) error {
	m, err := layoutAt(c, "", "/", false)
	if err != nil {
		return err
	}
	return render(c, http.StatusOK, views.ExplorerPage(m))
}

// explorerModel builds the whole page for a query.
func explorerModel(ctx context.Context, q url.Values) (views.Explorer, error) {
	v, pv, stale := resolve(q)
	if err := takeBudget(ctx, layoutCost(pv.Layout, onPage)); err != nil {
		return views.Explorer{}, err
	}
	query := pv.State.canonicalQuery(false)
	pic, err := newPicture(ctx, pv, query)
	if err != nil {
		return views.Explorer{}, err
	}
	m := views.Explorer{
		Form:      formModel(v),
		Presets:   presetLinks(v.State),
		Picture:   pic.View,
		Stale:     stale,
		LastValid: query,
	}
	return m, nil
}

// formModel is the form as typed, with the errors of each field.
func formModel(v validated) views.Form {
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
		Errors:   violationMap(v.Errors),
		Warnings: violationMap(v.Warnings),
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
	return f
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
