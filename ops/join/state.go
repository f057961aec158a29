package join

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// State is the join and split explorer's whole state, as typed: the URL
// query of /joinsplit (a GET form) and the query an edit carries.
//
//	op=join&dt=FLOAT32&axis=3&in=1,1,2,3&st=&in=1,1,2,4&st=
//	op=split&dt=FLOAT32&axis=2&in=1,1,6,2&st=&outs=2,1,3
//
// in and st repeat, one of each a tensor (a join's inputs, a split's one
// input): its sizes and its strides (empty: packed). outs are a split's
// outputs' sizes along the axis. fl is the feature level the rules are
// judged at (absent: the newest). n changes how many inputs a join has
// (the last one is repeated, or the last ones dropped), preset picks an
// example, last carries the last valid state.
type State struct {
	Op      string
	DT      string
	Axis    string
	Sizes   []string // one comma list a tensor
	Strides []string // one comma list a tensor, "" packed
	Outs    string
	// FL is the DML_FEATURE_LEVEL the rules are judged at ("": the
	// newest), as 3_0.
	FL   string
	Last string
}

// The operators of the page.
const (
	OpJoin  = "join"
	OpSplit = "split"
)

// The bounds of the page's form: a join of 1 to 8 inputs (the picker
// offers 2 to 8; one input is the page's copy), a split of up to 8
// outputs.
const (
	MinPageTensors = 2
	MaxPageTensors = 8
)

// MaxQueryLen bounds the query of /joinsplit and of an edit.
const MaxQueryLen = 4 << 10

// preset is one example of the explorer.
type preset struct {
	name, title string
	op          string
	sizes       [][]int64
	strides     [][]int64 // nil entries: packed
	axis        int64
	outs        []int64
	page        bool // one of the DirectML pages' own examples
}

// Presets are the explorer's examples: every one the DML_JOIN and
// DML_SPLIT pages print, and two that show the copies are strided.
var Presets = []preset{
	{name: "join-example1", title: "DML_JOIN Example 1: {1,1,2,3} and {1,1,2,4} joined along axis 3, the only axis they can be joined along",
		op: OpJoin, sizes: [][]int64{{1, 1, 2, 3}, {1, 1, 2, 4}}, axis: 3, page: true},
	{name: "join-example2-axis1", title: "DML_JOIN Example 2: three {1,1,2,2} inputs joined along axis 1",
		op: OpJoin, sizes: [][]int64{{1, 1, 2, 2}, {1, 1, 2, 2}, {1, 1, 2, 2}}, axis: 1, page: true},
	{name: "join-example2-axis2", title: "DML_JOIN Example 2: the same three inputs joined along axis 2",
		op: OpJoin, sizes: [][]int64{{1, 1, 2, 2}, {1, 1, 2, 2}, {1, 1, 2, 2}}, axis: 2, page: true},
	{name: "join-example2-axis3", title: "DML_JOIN Example 2: the same three inputs joined along axis 3",
		op: OpJoin, sizes: [][]int64{{1, 1, 2, 2}, {1, 1, 2, 2}, {1, 1, 2, 2}}, axis: 3, page: true},
	{name: "split-example1", title: "DML_SPLIT Example 1: {1,1,6,2} split along axis 2 into 2, 1 and 3 rows",
		op: OpSplit, sizes: [][]int64{{1, 1, 6, 2}}, axis: 2, outs: []int64{2, 1, 3}, page: true},
	{name: "split-example2", title: "DML_SPLIT Example 2: {1,1,6,2} split along axis 3 into two columns",
		op: OpSplit, sizes: [][]int64{{1, 1, 6, 2}}, axis: 3, outs: []int64{1, 1}, page: true},
	{name: "join-padded", title: "A join of a padded input (rows of 3 in a pitch of 4) and a column-major one: each is one strided copy into its window",
		op: OpJoin, sizes: [][]int64{{2, 3}, {2, 2}}, strides: [][]int64{{4, 1}, {1, 2}}, axis: 1},
	{name: "split-columns", title: "A split of a column-major 3×4 input into rows: each output is a DML_SLICE1 of the input",
		op: OpSplit, sizes: [][]int64{{3, 4}}, strides: [][]int64{{1, 3}}, axis: 0, outs: []int64{1, 2}},
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

// apply is the example's state; the data type stays.
func (p preset) apply(st State) State {
	out := State{Op: p.op, DT: st.DT, Axis: strconv.FormatInt(p.axis, 10)}
	for i, s := range p.sizes {
		out.Sizes = append(out.Sizes, strings.Join(picture.FormatInts(s), ","))
		var strides string
		if i < len(p.strides) && p.strides[i] != nil {
			strides = strings.Join(picture.FormatInts(p.strides[i]), ",")
		}
		out.Strides = append(out.Strides, strides)
	}
	if p.op == OpSplit {
		out.Outs = strings.Join(picture.FormatInts(p.outs), ",")
	}
	return out
}

// DefaultState is the first example, DML_JOIN's Example 1.
func DefaultState() State { return Presets[0].apply(State{DT: "FLOAT32"}) }

// StateFromQuery reads a state; the violations are about the query
// itself (an unknown preset or operator, a count out of range).
func StateFromQuery(q url.Values) (State, []core.Violation) {
	if len(q) == 0 || len(q) == 1 && q.Has("lang") {
		return DefaultState(), nil
	}
	var vs []core.Violation
	st := State{Op: strings.TrimSpace(q.Get("op")), DT: strings.TrimSpace(q.Get("dt")), Axis: strings.TrimSpace(q.Get("axis")),
		Outs: strings.TrimSpace(q.Get("outs")), FL: strings.TrimSpace(q.Get("fl")), Last: q.Get("last")}
	if !q.Has("dt") {
		st.DT = "FLOAT32"
	}
	if st.Op == "" {
		st.Op = OpJoin
	}
	for _, s := range q["in"] {
		st.Sizes = append(st.Sizes, strings.TrimSpace(s))
	}
	strides := q["st"]
	for i := range st.Sizes {
		s := ""
		if i < len(strides) {
			s = strings.TrimSpace(strides[i])
		}
		st.Strides = append(st.Strides, s)
	}
	if name := q.Get("preset"); name != "" {
		if p, ok := FindPreset(name); ok {
			st = p.apply(st)
		} else {
			vs = append(vs, picture.UnknownPreset(name))
		}
	}
	switch st.Op {
	case OpJoin, OpSplit:
	default:
		vs = append(vs, core.NewMsg("joinsplit.op.unknown", "{value:q} is not an operator of this page: choose join or split", core.Args{"value": st.Op}).At("op"))
		st.Op = OpJoin
	}
	if len(st.Sizes) == 0 {
		d := DefaultState()
		st.Sizes, st.Strides = d.Sizes, d.Strides
	}
	if st.Op == OpSplit {
		st.Sizes, st.Strides = st.Sizes[:1], st.Strides[:1]
		if !q.Has("outs") && q.Get("preset") == "" {
			st.Outs = wholeAxis(st) // one output, a copy: the picker's first split
		}
	} else if len(st.Sizes) < MinPageTensors {
		st = st.withCount(MinPageTensors) // the picker's first join: the input twice
	}
	if n := strings.TrimSpace(q.Get("n")); n != "" && st.Op == OpJoin {
		k, err := strconv.Atoi(n)
		switch {
		case err != nil || k < MinPageTensors || k > MaxPageTensors:
			vs = append(vs, core.NewMsg("joinsplit.count.page", "{value:q} inputs: this page joins {min} to {max}", core.Args{"value": n, "min": MinPageTensors, "max": MaxPageTensors}).At("n"))
		default:
			st = st.withCount(k)
		}
	}
	if len(st.Sizes) > MaxPageTensors {
		vs = append(vs, core.NewMsg("joinsplit.count.page", "{value:q} inputs: this page joins {min} to {max}", core.Args{"value": strconv.Itoa(len(st.Sizes)), "min": MinPageTensors, "max": MaxPageTensors}).At("n"))
		st.Sizes, st.Strides = st.Sizes[:MaxPageTensors], st.Strides[:MaxPageTensors]
	}
	return st, vs
}

// withCount is st with k inputs: the last repeated (packed), or the last
// ones dropped.
func (st State) withCount(k int) State {
	for len(st.Sizes) < k {
		st.Sizes = append(st.Sizes, st.Sizes[len(st.Sizes)-1])
		st.Strides = append(st.Strides, "")
	}
	st.Sizes, st.Strides = st.Sizes[:k], st.Strides[:k]
	return st
}

// CanonicalQuery writes the state in a fixed order, commas unescaped.
func (st State) CanonicalQuery(withLast bool) string {
	var b picture.QueryWriter
	b.Add("op", st.Op)
	b.Add("dt", st.DT)
	b.Add("axis", st.Axis)
	for i, s := range st.Sizes {
		b.Add("in", s)
		b.Add("st", st.Strides[i])
	}
	if st.Op == OpSplit {
		b.Add("outs", st.Outs)
	}
	if st.FL != "" {
		b.Add("fl", st.FL)
	}
	if withLast && st.Last != "" {
		b.Add("last", st.Last)
	}
	return b.String()
}

// Validated is a state checked against DirectML's rules: Join or Split
// is set when it is valid.
type Validated struct {
	State    State
	Join     *core.Join
	Split    *core.Split
	Errors   []core.Violation
	Warnings []core.Violation
}

// Valid reports a state with its operator.
func (v Validated) Valid() bool { return v.Join != nil || v.Split != nil }

// What the page's fields want, for picture.ParseWhole's messages.
var (
	wantAxis = core.NewMsg("want.axis", "the index of a dimension (0 or more)", nil)
	wantOuts = core.NewMsg("want.outs", "each output's size along the axis, at least 1", nil)
)

// parseList reads a comma list of whole numbers, each at field[i];
// broken reports one that did not parse (read as 1).
func parseList(field, typed string, want core.Msg, errs *[]core.Violation) (vals []int64, broken bool) {
	if strings.TrimSpace(typed) == "" {
		return nil, false
	}
	for i, s := range picture.SplitList([]string{typed}) {
		f := fmt.Sprintf("%s[%d]", field, i)
		n, err := picture.ParseWhole(f, s, want)
		if err != nil {
			*errs = append(*errs, core.ViolationOf(f, err))
			n, broken = 1, true
		}
		vals = append(vals, n)
	}
	return vals, broken
}

// Validate parses every field and checks the operator with core through
// the same path as its API request: every rule at once, each at its
// field, named as the request names it (inputs[1].sizes[3],
// outputSizes[2]).
func Validate(st State, queryErrs []core.Violation) Validated {
	v := Validated{State: st, Errors: append([]core.Violation(nil), queryErrs...)}
	broken := false
	axis, err := picture.ParseWhole("axis", st.Axis, wantAxis)
	if err != nil {
		v.Errors = append(v.Errors, core.ViolationOf("axis", err))
		broken = true
	}
	dt := st.DT
	if dt == "" {
		v.Errors = append(v.Errors, core.NewMsg("page.datatype.choose", "choose a data type (e.g. FLOAT32)", nil).At("dataType"))
		dt, broken = "FLOAT32", true
	}
	var fl *string
	if st.FL != "" {
		fl = &st.FL
	}
	var inv *picture.Invalid
	if st.Op == OpSplit {
		sizes, b1 := parseList("inputSizes", st.Sizes[0], picture.WantSize, &v.Errors)
		strides, b2 := parseList("inputStrides", st.Strides[0], picture.WantStride, &v.Errors)
		outs, b3 := parseList("outputSizes", st.Outs, wantOuts, &v.Errors)
		if sizes == nil {
			sizes = []int64{}
		}
		if outs == nil {
			outs = []int64{}
		}
		broken = broken || b1 || b2 || b3
		v.Split, inv = SplitRequest{DataType: dt, InputSizes: sizes, InputStrides: strides, Axis: &axis, OutputSizes: outs, FeatureLevel: fl}.Split()
	} else {
		r := JoinRequest{DataType: dt, Axis: &axis, FeatureLevel: fl}
		for k := range st.Sizes {
			sizes, b1 := parseList(fmt.Sprintf("inputs[%d].sizes", k), st.Sizes[k], picture.WantSize, &v.Errors)
			strides, b2 := parseList(fmt.Sprintf("inputs[%d].strides", k), st.Strides[k], picture.WantStride, &v.Errors)
			if sizes == nil {
				sizes = []int64{}
			}
			broken = broken || b1 || b2
			r.Inputs = append(r.Inputs, Tensor{Sizes: sizes, Strides: strides})
		}
		v.Join, inv = r.Join()
	}
	if inv != nil {
		for _, cv := range inv.Violations {
			if broken && (strings.Contains(cv.Message, "element count") || strings.HasPrefix(cv.Code, "axisop.") && cv.Code != "axisop.datatype.level" && cv.Code != "axisop.datatype.4bit") {
				continue // judged with a placeholder for a field that did not parse
			}
			v.Errors = append(v.Errors, cv)
		}
	}
	if len(v.Errors) > 0 {
		v.Join, v.Split = nil, nil
		return v
	}
	if v.Join != nil {
		for _, in := range v.Join.Inputs {
			v.Warnings = append(v.Warnings, in.Warnings...)
		}
	}
	return v
}

// StateOf is the canonical state of a valid operator: the numbers as
// core has them, strides as typed (empty stays packed).
func StateOf(v Validated) State {
	st := v.State
	c := State{Op: st.Op, Axis: st.Axis, FL: st.FL}
	tensor := func(l *core.Layout, typed string) (string, string) {
		strides := ""
		if typed != "" {
			strides = strings.Join(picture.FormatInts(l.Strides), ",")
		}
		return strings.Join(picture.FormatInts(l.Sizes), ","), strides
	}
	if st.FL != "" && v.Valid() {
		c.FL = levelOf(v).String()
	}
	if v.Join != nil {
		c.DT, c.Axis = v.Join.Output.DataType.String(), strconv.Itoa(v.Join.Axis)
		for k, in := range v.Join.Inputs {
			s, t := tensor(in, st.Strides[k])
			c.Sizes, c.Strides = append(c.Sizes, s), append(c.Strides, t)
		}
	}
	if v.Split != nil {
		c.DT, c.Axis = v.Split.Input.DataType.String(), strconv.Itoa(v.Split.Axis)
		s, t := tensor(v.Split.Input, st.Strides[0])
		c.Sizes, c.Strides = []string{s}, []string{t}
		outs := make([]int64, len(v.Split.Outputs))
		for k, o := range v.Split.Outputs {
			outs[k] = o.Sizes[v.Split.Axis]
		}
		c.Outs = strings.Join(picture.FormatInts(outs), ",")
	}
	return c
}

// staleNote is what Resolve says of a picture of the last valid state;
// picture.StaleIn finds it by its last word.
const staleNote = "The inputs have errors: the picture is of the last valid join or split."

// Resolve validates a query and finds the state to draw: its own when
// valid, else the last valid one it carries, else nothing.
func Resolve(q url.Values) (v, drawn Validated, stale string) {
	st, qvs := StateFromQuery(q)
	v = Validate(st, qvs)
	if v.Valid() {
		return v, v, ""
	}
	if lv, ok := LastValid(st); ok {
		return v, lv, staleNote
	}
	return v, Validated{State: st}, picture.NothingToDraw
}

// LastValid is the last valid state st carries, validated.
func LastValid(st State) (Validated, bool) {
	lq, ok := picture.LastQuery(st.Last, MaxQueryLen)
	if !ok {
		return Validated{}, false
	}
	lv := Validate(StateFromQuery(lq))
	return lv, lv.Valid()
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
		out[i] = views.Preset{Name: p.name, Title: p.title, Key: "preset.join." + p.name, Href: "/joinsplit?" + q, Page: p.page, Current: valid && picture.StateKey(q) == cur}
	}
	return out
}

// levelOf is the feature level a valid state was judged at.
func levelOf(v Validated) core.FeatureLevel {
	if v.Join != nil {
		return v.Join.FeatureLevel
	}
	return v.Split.FeatureLevel
}

// wholeAxis is the input's size along the axis as typed, "" when either
// does not read: a split's one output that is the whole input.
func wholeAxis(st State) string {
	sizes := picture.SplitList([]string{st.Sizes[0]})
	a, err := strconv.Atoi(st.Axis)
	if err != nil || a < 0 || a >= len(sizes) {
		return ""
	}
	return sizes[a]
}
