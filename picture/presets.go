package picture

import (
	"net/url"
	"strconv"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/views"
)

// preset is one example: the named layouts of the DirectML strides page
// and its broadcast and padding examples. Strides of a named layout come
// from core.LayoutStrides.
type preset struct {
	name, title string
	sizes       []int64
	layout      string  // a core.NamedLayouts name, or ""
	strides     []int64 // when layout is ""
	// padTo is the buffer size in elements the page draws (its padding
	// example draws 10 cells: A B C x x D E F x x); 0 for the minimum.
	padTo int64
	sel   string
	page  bool // drawn on the DirectML strides page
}

var presets = []preset{
	{name: "HW", title: "2×3 row-major (HW), the page's first example", sizes: []int64{2, 3}, layout: "HW", page: true},
	{name: "WH", title: "2×3 column-major (WH): A D B E C F", sizes: []int64{2, 3}, layout: "WH", page: true},
	{name: "DHW", title: "2×2×3 DHW; element H is {1,0,1}·{6,3,1} = 7", sizes: []int64{2, 2, 3}, layout: "DHW", sel: "1,0,1", page: true},
	{name: "WHD", title: "2×2×3 with width the highest-order dimension", sizes: []int64{2, 2, 3}, layout: "WHD"},
	{name: "NCHW", title: "1×1×3×5 NCHW, strides {15,15,5,1}", sizes: []int64{1, 1, 3, 5}, layout: "NCHW", page: true},
	{name: "NHWC", title: "1×1×3×5 NHWC, strides {15,1,5,1}", sizes: []int64{1, 1, 3, 5}, layout: "NHWC", page: true},
	{name: "NCDHW", title: "1×2×2×2×3 NCDHW", sizes: []int64{1, 2, 2, 2, 3}, layout: "NCDHW"},
	{name: "NDHWC", title: "1×2×2×2×3 NDHWC: channels innermost", sizes: []int64{1, 2, 2, 2, 3}, layout: "NDHWC"},
	{name: "broadcast", title: "2×3 with height stride 0: the second row repeats the first", sizes: []int64{2, 3}, strides: []int64{0, 1}, page: true},
	{name: "padded", title: "2×3 with height stride 5 in a 10-element buffer: A B C x x D E F x x", sizes: []int64{2, 3}, strides: []int64{5, 1}, padTo: 10, page: true},
}

func FindPreset(name string) (preset, bool) {
	for _, p := range presets {
		if p.name == name {
			return p, true
		}
	}
	return preset{}, false
}

// apply fills sizes, strides, the total size and the selection; the data
// type and the label mode stay.
func (p preset) apply(st LayoutState) LayoutState {
	strides := p.strides
	if p.layout != "" {
		strides, _ = core.LayoutStrides(p.layout, p.sizes)
	}
	st.Sizes, st.Strides, st.Packed = formatInts(p.sizes), formatInts(strides), false
	st.Total, st.Align, st.Sel, st.Cell = "", "", p.sel, ""
	if p.padTo > 0 {
		dt, err := core.ParseDataType(st.DT)
		if err == nil && dt.Valid() {
			bytes := (p.padTo*dt.Bits() + 7) / 8
			st.Total = strconv.FormatInt((bytes+3)&^3, 10)
		}
	}
	return st
}

func formatInts(vs []int64) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strconv.FormatInt(v, 10)
	}
	return out
}

// PresetLinks are the preset picker's links for the current data type and
// label mode, the one st is marked current when st is valid.
func PresetLinks(st LayoutState, valid bool) []views.Preset {
	base := LayoutState{DT: st.DT, Labels: st.Labels}
	if _, err := core.ParseDataType(base.DT); err != nil || base.DT == "" {
		base.DT = "FLOAT32"
	}
	cur := stateKey(st.CanonicalQuery(false))
	out := make([]views.Preset, len(presets))
	for i, p := range presets {
		q := p.apply(base).CanonicalQuery(false)
		out[i] = views.Preset{Name: p.name, Title: p.title, Key: "preset.layout." + p.name, Page: p.page, Href: "/?" + q, Current: valid && stateKey(q) == cur}
	}
	return out
}

// viewKeys are the query keys that change how a state is shown, not what
// it is (static/live.js stateOf reads the same).
var viewKeys = []string{"labels", "sel", "cell", "t", "lang", "last", "room", "explore", "preset"}

// stateKey is a canonical query without its viewKeys: an example is
// current whatever they hold.
func stateKey(query string) string {
	q, err := url.ParseQuery(query)
	if err != nil {
		return query
	}
	for _, k := range viewKeys {
		q.Del(k)
	}
	return q.Encode()
}
