package padding1

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// State is the padding explorer's whole state, as typed: the URL query
// of /padding (a GET form) and the query an edit carries.
//
//	dt=FLOAT32&sizes=1,1,4,4&mode=REFLECTION&start=0,0,1,2&end=0,0,3,4&values=1,2,...
//
// strides empty is packed (Strides = nullptr); value is PaddingValue
// (CONSTANT only); values are the input's logical elements in row-major
// order (empty: 1, 2, 3, ...), which the output shows where it reads
// them; fl is the feature level (empty: the newest). rank changes the
// DimensionCount, preset picks an example, last carries the last valid
// state.
type State struct {
	DT, FL     string
	Sizes      []string
	Strides    []string // nil: packed
	Mode       string
	Value      string
	Start, End []string
	Values     string
	Last       string
}

// MaxQueryLen bounds the query of /padding and of an edit: the values
// of a 16 x 16 input fit many times over.
const MaxQueryLen = 8 << 10

// MaxValues is the most input values a state may type: past them the
// input shows its elements' indices.
const MaxValues = 1024

// preset is one example of the padding explorer: the DirectML page's
// four, and two of its own.
type preset struct {
	name, title string
	sizes       []int64
	strides     []int64
	mode        core.PaddingMode
	value       string
	start, end  []int64
	fl          string
}

// pageInput is the input of the DML_PADDING1 page's four examples.
const pageInput = "1,2,3,4,5,6,7,8,1,2,3,4,5,6,7,8"

// Presets are the padding explorer's examples.
var Presets = []preset{
	{name: "pad-ex1", title: "Example 1 of the DML_PADDING1 page: CONSTANT, the value 9 around a 4×4 input",
		sizes: []int64{1, 1, 4, 4}, mode: core.PadConstant, value: "9", start: []int64{0, 0, 1, 2}, end: []int64{0, 0, 3, 4}},
	{name: "pad-ex2", title: "Example 2 of the DML_PADDING1 page: EDGE, each edge value repeated",
		sizes: []int64{1, 1, 4, 4}, mode: core.PadEdge, start: []int64{0, 0, 1, 2}, end: []int64{0, 0, 3, 4}},
	{name: "pad-ex3", title: "Example 3 of the DML_PADDING1 page: REFLECTION, folded again where the padding reaches the size (ONNX and WebNN refuse that)",
		sizes: []int64{1, 1, 4, 4}, mode: core.PadReflection, start: []int64{0, 0, 1, 2}, end: []int64{0, 0, 3, 4}},
	{name: "pad-ex4", title: "Example 4 of the DML_PADDING1 page: SYMMETRIC, the edges mirrored too",
		sizes: []int64{1, 1, 4, 4}, mode: core.PadSymmetric, start: []int64{0, 0, 1, 2}, end: []int64{0, 0, 3, 4}},
	{name: "pad-wrap", title: "WRAP (DML_FEATURE_LEVEL_6_4): the input repeated, as ONNX Pad's wrap",
		sizes: []int64{1, 1, 4, 4}, mode: core.PadWrap, start: []int64{0, 0, 1, 2}, end: []int64{0, 0, 3, 4}},
	{name: "pad-pitch", title: "Example 3 on a padded input: rows of 4 elements 6 apart in the buffer, the same output",
		sizes: []int64{1, 1, 4, 4}, strides: []int64{24, 24, 6, 1}, mode: core.PadReflection, start: []int64{0, 0, 1, 2}, end: []int64{0, 0, 3, 4}},
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

// apply fills every field from the example; the data type stays.
func (p preset) apply(st State) State {
	st.Sizes = picture.FormatInts(p.sizes)
	st.Strides = nil
	if p.strides != nil {
		st.Strides = picture.FormatInts(p.strides)
	}
	st.Mode, st.Value, st.FL = p.mode.String(), p.value, p.fl
	st.Start, st.End = picture.FormatInts(p.start), picture.FormatInts(p.end)
	st.Values = pageInput
	return st
}

// DefaultState is Example 3, the one where runtimes disagree.
func DefaultState() State {
	return Presets[2].apply(State{DT: "FLOAT32"})
}

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
	st := State{DT: get("dt", d.DT), FL: get("fl", ""), Mode: get("mode", d.Mode), Value: get("value", ""),
		Sizes: list("sizes", d.Sizes), Strides: picture.SplitList(q["strides"]),
		Start: list("start", d.Start), End: list("end", d.End), Values: get("values", ""), Last: q.Get("last")}
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

// withRank adds leading dimensions (size 1, no padding) or drops leading
// ones, as the layout explorer does.
func (st State) withRank(n int) State {
	ls := picture.LayoutState{Sizes: st.Sizes, Strides: st.Strides, Packed: st.Strides == nil}.WithRank(n)
	st.Sizes = ls.Sizes
	if st.Strides != nil {
		st.Strides = ls.Strides
	}
	fit := func(xs []string) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = "0"
			if j := len(xs) - n + i; j >= 0 && j < len(xs) {
				out[i] = xs[j]
			}
		}
		return out
	}
	st.Start, st.End = fit(st.Start), fit(st.End)
	st.Values = ""
	return st
}

// CanonicalQuery writes the state in a fixed order, commas unescaped.
func (st State) CanonicalQuery(withLast bool) string {
	var b picture.QueryWriter
	add := b.Add
	add("dt", st.DT)
	if st.FL != "" {
		add("fl", st.FL)
	}
	add("sizes", strings.Join(st.Sizes, ","))
	if st.Strides != nil {
		add("strides", strings.Join(st.Strides, ","))
	}
	add("mode", st.Mode)
	if st.Value != "" {
		add("value", st.Value)
	}
	add("start", strings.Join(st.Start, ","))
	add("end", strings.Join(st.End, ","))
	if st.Values != "" {
		add("values", st.Values)
	}
	if withLast && st.Last != "" {
		add("last", st.Last)
	}
	return b.String()
}

// Validated is a state checked against DirectML's rules.
type Validated struct {
	State State
	P     *core.Padding1 // nil when invalid
	// Values are the input's logical elements as shown (nil: their
	// indices).
	Values []string
	Errors []core.Violation
	Notes  []core.Violation
}

var (
	wantPad   = core.NewMsg("want.padding", "a padding of 0 or more", nil)
	wantValue = core.NewMsg("want.padvalue", "a number (e.g. 9), or leave it empty for 0", nil)
)

// Validate parses every field and checks the padding with core, through
// the same path as POST /api/v1/padding1: every rule at once, each at
// its field. A field that does not parse is left out of the rules that
// need it.
func Validate(st State, queryErrs []core.Violation) Validated {
	v := Validated{State: st, Errors: append([]core.Violation(nil), queryErrs...)}
	ints := func(field string, xs []string, want core.Msg) []int64 {
		out := make([]int64, len(xs))
		for i, s := range xs {
			f := fmt.Sprintf("%s[%d]", field, i)
			n, err := picture.ParseWhole(f, s, want)
			if err != nil {
				v.Errors = append(v.Errors, core.ViolationOf(f, err))
				n = 0
				if field == "inputSizes" {
					n = 1
				}
			}
			out[i] = n
		}
		return out
	}
	req := Request{DataType: st.DT, PaddingMode: st.Mode, FeatureLevel: FeatureLevelName(st.FL),
		InputSizes: ints("inputSizes", st.Sizes, picture.WantSize), StartPadding: ints("startPadding", st.Start, wantPad), EndPadding: ints("endPadding", st.End, wantPad)}
	if st.Strides != nil {
		req.InputStrides = ints("inputStrides", st.Strides, picture.WantStride)
	}
	if st.Value != "" {
		x, err := strconv.ParseFloat(strings.ReplaceAll(picture.AsciiNumber(st.Value), ",", "."), 64)
		if err != nil {
			v.Errors = append(v.Errors, core.NewMsg("padding.value.invalid", "{field} = {value:q} is not a number: give {want}", core.Args{"field": "paddingValue", "value": st.Value, "want": wantValue}).At("paddingValue"))
		} else {
			req.PaddingValue = &x
		}
	}
	if req.DataType == "" {
		v.Errors = append(v.Errors, core.NewMsg("page.datatype.choose", "choose a data type (e.g. FLOAT32)", nil).At("dataType"))
		req.DataType = "FLOAT32"
	}
	p, inv := req.Padding1()
	if inv != nil {
		v.Errors = append(v.Errors, inv.Violations...)
	}
	if len(v.Errors) > 0 || p == nil {
		return v
	}
	v.Values, v.Errors = picture.ParseElementValues(st.Values, p.Input.LogicalElementCount(), MaxValues)
	if len(v.Errors) > 0 {
		return v
	}
	v.P, v.Notes = p, append(append([]core.Violation(nil), p.Input.Warnings...), p.Notes...)
	return v
}

// StateOf is the canonical state of a valid padding: the numbers as core
// has them.
func StateOf(v Validated) State {
	p, st := v.P, v.State
	c := State{DT: p.Input.DataType.String(), FL: st.FL, Sizes: picture.FormatInts(p.Input.Sizes), Mode: p.Mode.String(),
		Start: picture.FormatInts(p.StartPadding), End: picture.FormatInts(p.EndPadding)}
	if !p.Input.StridesImplicit {
		c.Strides = picture.FormatInts(p.Input.Strides)
	}
	if p.Mode == core.PadConstant && p.PaddingValue != 0 {
		c.Value = strconv.FormatFloat(p.PaddingValue, 'g', -1, 64)
	}
	if v.Values != nil {
		c.Values = strings.Join(v.Values, ",")
	}
	return c
}

// Resolve validates a query and finds the padding to draw: the state's
// own when valid, else the last valid one it carries, else nothing.
func Resolve(q url.Values) (v, drawn Validated, stale string) {
	st, qvs := StateFromQuery(q)
	v = Validate(st, qvs)
	if v.P != nil {
		return v, v, ""
	}
	if lv, ok := LastValid(st); ok {
		return v, lv, "The inputs have errors: the picture is of the last valid padding."
	}
	return v, Validated{State: st}, picture.NothingToDraw
}

// LastValid is the last valid padding st carries, validated.
func LastValid(st State) (Validated, bool) {
	lq, ok := picture.LastQuery(st.Last, MaxQueryLen)
	if !ok {
		return Validated{}, false
	}
	lv := Validate(StateFromQuery(lq))
	return lv, lv.P != nil
}

// PresetLinks are the examples for the current data type, the one st is
// marked current when st is valid.
func PresetLinks(st State, valid bool) []views.Preset {
	base := State{DT: st.DT}
	if dt, err := core.ParseDataType(base.DT); err != nil || !dt.Valid() {
		base.DT = "FLOAT32"
	}
	cur := picture.StateKey(st.CanonicalQuery(false))
	out := make([]views.Preset, len(Presets))
	for i, p := range Presets {
		q := p.apply(base).CanonicalQuery(false)
		out[i] = views.Preset{Name: p.name, Title: p.title, Key: "preset.padding." + p.name, Href: "/padding?" + q,
			Page: strings.HasPrefix(p.name, "pad-ex"), Current: valid && picture.StateKey(q) == cur}
	}
	return out
}
