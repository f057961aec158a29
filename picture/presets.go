package picture

import (
	"net/url"
	"strconv"

	"github.com/stridescope/stridescope/core"
)

// preset is one example: the named layouts of the DirectML strides page
// and its broadcast and padding examples. Strides of a named layout come
// from core.LayoutStrides.
type preset struct {
	Name, Title string
	sizes       []int64
	layout      string  // a core.NamedLayouts name, or ""
	strides     []int64 // when layout is ""
	// padTo is the buffer size in elements the page draws (its padding
	// example draws 10 cells: A B C x x D E F x x); 0 for the minimum.
	padTo int64
	sel   string
	Page  bool // drawn on the DirectML strides page
}

var Presets = []preset{
	{Name: "HW", Title: "2×3 row-major (HW), the page's first example", sizes: []int64{2, 3}, layout: "HW", Page: true},
	{Name: "WH", Title: "2×3 column-major (WH): A D B E C F", sizes: []int64{2, 3}, layout: "WH", Page: true},
	{Name: "DHW", Title: "2×2×3 DHW; element H is {1,0,1}·{6,3,1} = 7", sizes: []int64{2, 2, 3}, layout: "DHW", sel: "1,0,1", Page: true},
	{Name: "WHD", Title: "2×2×3 with width the highest-order dimension", sizes: []int64{2, 2, 3}, layout: "WHD"},
	{Name: "NCHW", Title: "1×1×3×5 NCHW, strides {15,15,5,1}", sizes: []int64{1, 1, 3, 5}, layout: "NCHW", Page: true},
	{Name: "NHWC", Title: "1×1×3×5 NHWC, strides {15,1,5,1}", sizes: []int64{1, 1, 3, 5}, layout: "NHWC", Page: true},
	{Name: "NCDHW", Title: "1×2×2×2×3 NCDHW", sizes: []int64{1, 2, 2, 2, 3}, layout: "NCDHW"},
	{Name: "NDHWC", Title: "1×2×2×2×3 NDHWC: channels innermost", sizes: []int64{1, 2, 2, 2, 3}, layout: "NDHWC"},
	{Name: "broadcast", Title: "2×3 with height stride 0: the second row repeats the first", sizes: []int64{2, 3}, strides: []int64{0, 1}, Page: true},
	{Name: "padded", Title: "2×3 with height stride 5 in a 10-element buffer: A B C x x D E F x x", sizes: []int64{2, 3}, strides: []int64{5, 1}, padTo: 10, Page: true},
}

func FindPreset(name string) (preset, bool) {
	for _, p := range Presets {
		if p.Name == name {
			return p, true
		}
	}
	return preset{}, false
}

// Apply fills sizes, strides, the total size and the selection; the data
// type and the label mode stay.
func (p preset) Apply(st LayoutState) LayoutState {
	strides := p.strides
	if p.layout != "" {
		strides, _ = core.LayoutStrides(p.layout, p.sizes)
	}
	st.Sizes, st.Strides, st.Packed, st.Rows = FormatInts(p.sizes), FormatInts(strides), false, false
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

func FormatInts(vs []int64) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strconv.FormatInt(v, 10)
	}
	return out
}

// viewKeys are the query keys that change how a state is shown, not what
// it is (static/live.js stateOf reads the same).
var viewKeys = []string{"labels", "sel", "cell", "t", "lang", "last", "room", "explore", "preset"}

// StateKey is a canonical query without its viewKeys: an example is
// current whatever they hold.
func StateKey(query string) string {
	q, err := url.ParseQuery(query)
	if err != nil {
		return query
	}
	for _, k := range viewKeys {
		q.Del(k)
	}
	return q.Encode()
}
