package tile

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// State is the tile explorer's whole state, as typed: the URL query of
// /tile and the query an edit carries.
//
//	dt=FLOAT32&sizes=1,1,2,3&repeats=1,1,3,3&values=1,2,3,4,5,6
//
// strides empty is packed; values are the input's elements in row-major
// order (empty: 1, 2, 3, ...); fl is the feature level (empty: the
// newest). rank, preset and last as the other explorers'.
type State struct {
	DT, FL  string
	Sizes   []string
	Strides []string // nil: packed
	Repeats []string
	Values  string
	Last    string
}

// MaxQueryLen bounds the query of /tile and of an edit.
const MaxQueryLen = 8 << 10

// MaxValues is the most input values a state may type.
const MaxValues = 1024

type preset struct {
	name, title string
	sizes       []int64
	strides     []int64
	repeats     []int64
	values      string
}

// Presets are the tile explorer's examples: the DML_TILE page's, and two
// of its own.
var Presets = []preset{
	{name: "tile-ex", title: "The DML_TILE page's example: a 2×3 input repeated 3 times down and 3 across",
		sizes: []int64{1, 1, 2, 3}, repeats: []int64{1, 1, 3, 3}, values: "1,2,3,4,5,6"},
	{name: "tile-broadcast", title: "A broadcast input (row stride 0) tiled: every row reads the same three cells",
		sizes: []int64{2, 3}, strides: []int64{0, 1}, repeats: []int64{2, 2}},
	{name: "tile-vector", title: "np.tile([1, 2, 3], 4) as DML_TILE: one dimension, 4 copies",
		sizes: []int64{3}, repeats: []int64{4}, values: "1,2,3"},
}

// FindPreset is the example named name.
func FindPreset(name string) (preset, bool) {
	for _, p := range Presets {
		if p.name == name {
			return p, true
		}
	}
	return preset{}, false
}

func (p preset) apply(st State) State {
	st.Sizes, st.Repeats, st.Values, st.FL = picture.FormatInts(p.sizes), picture.FormatInts(p.repeats), p.values, ""
	st.Strides = nil
	if p.strides != nil {
		st.Strides = picture.FormatInts(p.strides)
	}
	return st
}

// DefaultState is the page's example.
func DefaultState() State { return Presets[0].apply(State{DT: "FLOAT32"}) }

// StateFromQuery reads a state; the violations are about the query
// itself (rank, preset).
func StateFromQuery(q url.Values) (State, []core.Violation) {
	if len(q) == 0 {
		return DefaultState(), nil
	}
	var vs []core.Violation
	d := DefaultState()
	get := func(k, def string) string {
		if _, ok := q[k]; !ok {
			return def
		}
		return strings.TrimSpace(q.Get(k))
	}
	list := func(k string, def []string) []string {
		if _, ok := q[k]; !ok {
			return def
		}
		return picture.SplitList(q[k])
	}
	st := State{DT: get("dt", d.DT), FL: get("fl", ""), Sizes: list("sizes", d.Sizes), Strides: picture.SplitList(q["strides"]),
		Repeats: list("repeats", d.Repeats), Values: get("values", ""), Last: q.Get("last")}
	if _, ok := q["sizes"]; !ok {
		st.Values = get("values", d.Values)
	}
	if picture.AllEmpty(st.Strides) {
		st.Strides = nil
	}
	if name := q.Get("preset"); name != "" {
		if p, ok := FindPreset(name); ok {
			st = p.apply(st)
		} else {
			vs = append(vs, picture.UnknownPreset(name))
		}
	}
	if r := strings.TrimSpace(q.Get("rank")); r != "" {
		n, ok := picture.ParseRank(r)
		switch {
		case !ok:
			vs = append(vs, picture.BadRank(r))
		case n != len(st.Sizes):
			st = st.withRank(n)
		}
	}
	return st, vs
}

// withRank adds leading dimensions (size 1, one copy) or drops leading
// ones, as the layout explorer does.
func (st State) withRank(n int) State {
	ls := picture.LayoutState{Sizes: st.Sizes, Strides: st.Strides, Packed: st.Strides == nil}.WithRank(n)
	st.Sizes = ls.Sizes
	if st.Strides != nil {
		st.Strides = ls.Strides
	}
	reps := make([]string, n)
	for i := range reps {
		reps[i] = "1"
		if j := len(st.Repeats) - n + i; j >= 0 && j < len(st.Repeats) {
			reps[i] = st.Repeats[j]
		}
	}
	st.Repeats, st.Values = reps, ""
	return st
}

// CanonicalQuery writes the state in a fixed order, commas unescaped.
func (st State) CanonicalQuery(withLast bool) string {
	var b picture.QueryWriter
	b.Add("dt", st.DT)
	if st.FL != "" {
		b.Add("fl", st.FL)
	}
	b.Add("sizes", strings.Join(st.Sizes, ","))
	if st.Strides != nil {
		b.Add("strides", strings.Join(st.Strides, ","))
	}
	b.Add("repeats", strings.Join(st.Repeats, ","))
	if st.Values != "" {
		b.Add("values", st.Values)
	}
	if withLast && st.Last != "" {
		b.Add("last", st.Last)
	}
	return b.String()
}

// Validated is a state checked against DirectML's rules.
type Validated struct {
	State  State
	T      *core.Tile // nil when invalid
	Values []string   // the input's elements as shown; nil: their indices + 1
	Errors []core.Violation
}

var wantRepeat = core.NewMsg("want.repeat", "a repeat of at least 1", nil)

// Validate parses every field and checks the tiling with core, through
// the same path as POST /api/v1/tile.
func Validate(st State, queryErrs []core.Violation) Validated {
	v := Validated{State: st, Errors: append([]core.Violation(nil), queryErrs...)}
	ints := func(field string, xs []string, want core.Msg) []int64 {
		out := make([]int64, len(xs))
		for i, s := range xs {
			f := fmt.Sprintf("%s[%d]", field, i)
			n, err := picture.ParseWhole(f, s, want)
			if err != nil {
				v.Errors = append(v.Errors, core.ViolationOf(f, err))
				n = 1
			}
			out[i] = n
		}
		return out
	}
	req := Request{DataType: st.DT, FeatureLevel: featureLevelName(st.FL), InputSizes: ints("inputSizes", st.Sizes, picture.WantSize), Repeats: ints("repeats", st.Repeats, wantRepeat)}
	if st.Strides != nil {
		req.InputStrides = ints("inputStrides", st.Strides, picture.WantStride)
	}
	if req.DataType == "" {
		v.Errors = append(v.Errors, core.NewMsg("page.datatype.choose", "choose a data type (e.g. FLOAT32)", nil).At("dataType"))
		req.DataType = "FLOAT32"
	}
	t, inv := req.Tile()
	if inv != nil {
		v.Errors = append(v.Errors, inv.Violations...)
	}
	if len(v.Errors) > 0 || t == nil {
		return v
	}
	v.Values, v.Errors = picture.ParseElementValues(st.Values, t.Input.LogicalElementCount(), MaxValues)
	if len(v.Errors) == 0 {
		v.T = t
	}
	return v
}

// StateOf is the canonical state of a valid tiling.
func StateOf(v Validated) State {
	t := v.T
	c := State{DT: t.Input.DataType.String(), FL: v.State.FL, Sizes: picture.FormatInts(t.Input.Sizes), Repeats: picture.FormatInts(t.Repeats)}
	if !t.Input.StridesImplicit {
		c.Strides = picture.FormatInts(t.Input.Strides)
	}
	if v.Values != nil {
		c.Values = strings.Join(v.Values, ",")
	}
	return c
}

// Resolve validates a query and finds the tiling to draw.
func Resolve(q url.Values) (v, drawn Validated, stale string) {
	st, qvs := StateFromQuery(q)
	v = Validate(st, qvs)
	if v.T != nil {
		return v, v, ""
	}
	if lv, ok := LastValid(st); ok {
		return v, lv, "The inputs have errors: the picture is of the last valid tiling."
	}
	return v, Validated{State: st}, picture.NothingToDraw
}

// LastValid is the last valid tiling st carries, validated.
func LastValid(st State) (Validated, bool) {
	lq, ok := picture.LastQuery(st.Last, MaxQueryLen)
	if !ok {
		return Validated{}, false
	}
	lv := Validate(StateFromQuery(lq))
	return lv, lv.T != nil
}

// PresetLinks are the examples for the current data type.
func PresetLinks(st State, valid bool) []views.Preset {
	base := State{DT: st.DT}
	if dt, err := core.ParseDataType(base.DT); err != nil || !dt.Valid() {
		base.DT = "FLOAT32"
	}
	cur := picture.StateKey(st.CanonicalQuery(false))
	out := make([]views.Preset, len(Presets))
	for i, p := range Presets {
		q := p.apply(base).CanonicalQuery(false)
		out[i] = views.Preset{Name: p.name, Title: p.title, Key: "preset.tile." + p.name, Href: "/tile?" + q, Page: p.name == "tile-ex", Current: valid && picture.StateKey(q) == cur}
	}
	return out
}
