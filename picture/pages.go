package picture

import (
	"context"
	"net/url"
	"slices"
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/views"
)

// Explicit is the "&mode=Explicit" a typed query needs when its strides
// are all blank: the canonical query would read as packed.
func Explicit(st LayoutState) string {
	if st.Packed || st.Rows || slices.ContainsFunc(st.Strides, func(s string) bool { return s != "" }) {
		return ""
	}
	return "&mode=explicit"
}

// BadRankOf is the "&rank=" part of a query whose rank the select cannot
// show ("9", "abc"), from its violation, or "".
func BadRankOf(vs []core.Violation) string {
	for _, v := range vs {
		if r, ok := v.Args["rank"].(string); ok && v.Code == "query.rank" {
			return "&rank=" + url.QueryEscape(r)
		}
	}
	return ""
}

// Overflows reports whether the form's rows cannot hold a state of n
// sizes and the lists: more than MaxRank dimensions, or a given list of
// another length (more entries than the rows shown, or fewer, which the
// rows would send as blanks: a blank output size means the largest).
func Overflows(n int, lists ...[]string) bool {
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

// DataTypeChoices lists the data type picker's options and the selected
// one. A typed value that is not a valid type stays first in the list, so
// it shows next to its error.
func DataTypeChoices(typed string) (options []string, selected string) {
	for _, d := range core.DataTypes() {
		options = append(options, d.String())
	}
	if dt, err := core.ParseDataType(typed); err == nil && dt.Valid() {
		return options, dt.String()
	}
	return append([]string{typed}, options...), ""
}

func ViolationMap(vs []core.Violation) map[string][]string {
	if len(vs) == 0 {
		return nil
	}
	m := map[string][]string{}
	for _, v := range vs {
		m[v.Field] = append(m[v.Field], v.Message)
	}
	return m
}

// StaleIn is a stale note of Resolve in ctx's locale.
func StaleIn(ctx context.Context, stale string) string {
	switch {
	case stale == "":
		return ""
	case stale == NothingToDraw:
		return i18n.T(ctx, "stale.none")
	case strings.HasSuffix(stale, "slice."):
		return i18n.T(ctx, "stale.slice")
	case strings.HasSuffix(stale, "conversion."):
		return i18n.T(ctx, "stale.convert")
	case strings.HasSuffix(stale, "rearrangement."):
		return i18n.T(ctx, "stale.depthspace")
	case strings.HasSuffix(stale, "join or split."):
		return i18n.T(ctx, "stale.join")
	case strings.HasSuffix(stale, "padding."):
		return i18n.T(ctx, "stale.padding")
	case strings.HasSuffix(stale, "tiling."):
		return i18n.T(ctx, "stale.tile")
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
