package slice1

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// State is the DML_SLICE1 explorer's whole state, as typed: the URL
// query of /slice (a GET form) and the query a slice edit carries on the
// websocket.
//
//	dt=FLOAT32&sizes=1,1,4,4&total=128&align=16&woff=0,0,0,1&wsize=1,1,4,3&wstride=1,1,-2,2&out=1,1,2,1&fl=3_0&vals=5,6,7&t=4
//
// The input tensor's keys (dt, sizes, strides, mode, rank, and total and
// align for its TotalTensorSizeInBytes and GuaranteedBaseOffsetAlignment)
// are the layout explorer's. woff, wsize and wstride are the window per dimension, out
// the output sizes (absent or empty: MaxCopiedElements). A window key that
// is absent means the whole input along every axis. np is the NumPy
// expression box: with use=np (its button), or when no window key is
// given, it fills the window. vals are the input's values in row-major
// order (absent: 1..N), t the step-through position, preset an example.
type State struct {
	In   picture.LayoutState // DT, Sizes, Strides, Packed, Total and Align of the input tensor
	Off  []string
	Win  []string
	Step []string // signed window strides
	Out  []string // "" entries: MaxCopiedElements
	FL   string
	NP   string
	// UseNP: the expression fills the window.
	UseNP bool
	Vals  string
	T     string
	Last  string
}

// MaxQueryLen bounds the query of /slice and of a slice edit: the
// typed values make it longer than the layout explorer's, and an edit
// must stay below the websocket's read limit.
const MaxQueryLen = 12 << 10

// maxSliceValues is how many numbers the values box takes.
const maxSliceValues = 4096

// preset is one example of the slice explorer.
type preset struct {
	name, title      string
	sizes, strides   []int64 // strides nil: packed
	layout           string  // a core.NamedLayouts name for the strides
	off, win, stride []int64
	page             bool // one of the DirectML page's own examples
}

var SlicePresets = []preset{
	{name: "example1", title: "The DirectML page's Example 1: positive strides {1,1,2,2}, output [[2,4],[10,12]]",
		sizes: []int64{1, 1, 4, 4}, off: []int64{0, 0, 0, 1}, win: []int64{1, 1, 4, 3}, stride: []int64{1, 1, 2, 2}, page: true},
	{name: "example2", title: "The DirectML page's Example 2: strides {1,1,-2,2}, output [[14,16],[6,8]]",
		sizes: []int64{1, 1, 4, 4}, off: []int64{0, 0, 0, 1}, win: []int64{1, 1, 4, 3}, stride: []int64{1, 1, -2, 2}, page: true},
	{name: "reverse", title: "A full reversal of a 3×4 tensor: x[::-1, ::-1]",
		sizes: []int64{3, 4}, off: []int64{0, 0}, win: []int64{3, 4}, stride: []int64{-1, -1}},
	{name: "nhwc", title: "A strided crop of a 1×3×4×4 NHWC input (strides {48,1,12,3}): channels 1-2, every other row and column",
		sizes: []int64{1, 3, 4, 4}, layout: "NHWC", off: []int64{0, 1, 1, 0}, win: []int64{1, 2, 3, 3}, stride: []int64{1, 1, 2, 2}},
	{name: "padded", title: "Example 2's window on a 4×4 input whose rows are padded to 6 elements: the same values, other buffer cells",
		sizes: []int64{4, 4}, strides: []int64{6, 1}, off: []int64{0, 1}, win: []int64{4, 3}, stride: []int64{-2, 2}},
	{name: "broadcast", title: "A 3×4 input broadcast along H (stride 0): rows 0 and 2, reversed, read the same four cells",
		sizes: []int64{3, 4}, strides: []int64{0, 1}, off: []int64{0, 0}, win: []int64{3, 4}, stride: []int64{2, -1}},
}

func FindPreset(name string) (preset, bool) {
	for _, p := range SlicePresets {
		if p.name == name {
			return p, true
		}
	}
	return preset{}, false
}

// apply fills the input's sizes and strides and the window, replacing the
// NumPy expression and clearing the input's total size and alignment (as
// the layout explorer's examples do: a total typed for another tensor
// would rarely fit); the data type, the feature level and what the query
// gives beside the preset (output sizes, values, the step) stay.
func (p preset) apply(st State) State {
	strides := p.strides
	if p.layout != "" {
		strides, _ = core.LayoutStrides(p.layout, p.sizes)
	}
	st.In.Sizes, st.In.Packed, st.In.Strides = picture.FormatInts(p.sizes), strides == nil, nil
	st.In.Total, st.In.Align = "", ""
	if strides != nil {
		st.In.Strides = picture.FormatInts(strides)
	}
	st.Off, st.Win, st.Step = picture.FormatInts(p.off), picture.FormatInts(p.win), picture.FormatInts(p.stride)
	st.NP, st.UseNP = "", false
	return st
}

// DefaultState is the DirectML page's Example 1.
func DefaultState() State {
	return SlicePresets[0].apply(State{In: picture.LayoutState{DT: "FLOAT32"}})
}

// StateFromQuery reads a state; the violations are about the query
// itself (rank, preset).
func StateFromQuery(q url.Values) (State, []core.Violation) {
	if len(q) == 0 {
		return DefaultState(), nil
	}
	var vs []core.Violation
	st := State{
		FL:   strings.TrimSpace(q.Get("fl")),
		NP:   strings.TrimSpace(q.Get("np")),
		Vals: strings.TrimSpace(q.Get("vals")),
		T:    strings.TrimSpace(q.Get("t")),
		Last: q.Get("last"),
	}
	st.In.DT = strings.TrimSpace(q.Get("dt"))
	st.In.Total = strings.TrimSpace(q.Get("total"))
	st.In.Align = strings.TrimSpace(q.Get("align"))
	if _, ok := q["dt"]; !ok {
		st.In.DT = "FLOAT32"
	}
	_, hasSizes := q["sizes"]
	if hasSizes {
		st.In.Sizes = picture.SplitList(q["sizes"])
		st.In.Strides = picture.SplitList(q["strides"])
		st.In.Packed = q.Get("mode") == "packed" || (q.Get("mode") != "explicit" && picture.AllEmpty(st.In.Strides))
		if st.In.Packed {
			st.In.Strides = nil
		}
	} else {
		d := DefaultState() // e.g. "?vals=..." or "?np=x[...]"
		st.In.Sizes, st.In.Strides, st.In.Packed = d.In.Sizes, d.In.Strides, d.In.Packed
	}
	windowGiven := false
	for _, k := range []string{"woff", "wsize", "wstride"} {
		if _, ok := q[k]; ok {
			windowGiven = true
		}
	}
	st.Off = windowList(q, "woff", st.In.Sizes, func(string) string { return "0" })
	st.Win = windowList(q, "wsize", st.In.Sizes, func(size string) string { return size })
	st.Step = windowList(q, "wstride", st.In.Sizes, func(string) string { return "1" })
	if !hasSizes && !windowGiven {
		d := DefaultState()
		st.Off, st.Win, st.Step = d.Off, d.Win, d.Step
	}
	if out := picture.SplitList(q["out"]); !picture.AllEmpty(out) {
		st.Out = out
	}
	st.UseNP = st.NP != "" && (q.Get("use") == "np" || !windowGiven)
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
		case n != len(st.In.Sizes):
			st = st.withRank(n)
		}
	}
	return st, vs
}

// windowList reads one window key; absent, every axis gets def of its
// input size (the whole input).
func windowList(q url.Values, key string, sizes []string, def func(size string) string) []string {
	if _, ok := q[key]; ok {
		return picture.SplitList(q[key])
	}
	out := make([]string, len(sizes))
	for i, s := range sizes {
		out[i] = def(s)
	}
	return out
}

// withRank adds leading size-1 dimensions (a window of the one element)
// or drops leading ones, as the layout explorer does for the input.
func (st State) withRank(n int) State {
	have := len(st.In.Sizes)
	st.In = st.In.WithRank(n)
	fit := func(xs []string, pad string) []string {
		if xs == nil {
			return nil
		}
		if n < have {
			return append([]string(nil), xs[max(len(xs)-n, 0):]...)
		}
		out := make([]string, 0, n)
		for range n - have {
			out = append(out, pad)
		}
		return append(out, xs...)
	}
	st.Off, st.Win, st.Step, st.Out = fit(st.Off, "0"), fit(st.Win, "1"), fit(st.Step, "1"), fit(st.Out, "")
	return st
}

// CanonicalQuery writes the state in a fixed order, commas unescaped.
func (st State) CanonicalQuery(withLast bool) string {
	var b picture.QueryWriter
	add := b.Add
	st.In.AddTensor(add)
	add("woff", strings.Join(st.Off, ","))
	add("wsize", strings.Join(st.Win, ","))
	add("wstride", strings.Join(st.Step, ","))
	if !picture.AllEmpty(st.Out) {
		add("out", strings.Join(st.Out, ","))
	}
	if st.FL != "" && st.FL != core.NewestFeatureLevel.String() {
		add("fl", st.FL)
	}
	if st.UseNP {
		add("np", st.NP)
		add("use", "np")
	}
	if st.Vals != "" {
		add("vals", st.Vals)
	}
	if st.T != "" {
		add("t", st.T)
	}
	if withLast && st.Last != "" {
		add("last", st.Last)
	}
	return b.String()
}

// Validated is a state checked against DirectML's rules.
type Validated struct {
	State    State
	Slice    *core.Slice1 // nil when invalid
	Errors   []core.Violation
	Warnings []core.Violation
	// Values are the typed values (nil: 1..N); Dropped the axes an
	// integer index of the NumPy expression drops.
	Values  []Value
	Dropped []int
	T       int64 // the step-through position, -1 before the first
}

// parsed is one list of the form read as integers: a placeholder where an
// entry is empty (when that is allowed) or does not parse, marked in bad.
type parsed struct {
	vals   []int64
	bad    []bool
	failed bool // some entry did not parse
}

func parseList(v *Validated, field string, xs []string, want core.Msg, placeholder int64, emptyOK bool) parsed {
	p := parsed{vals: make([]int64, len(xs)), bad: make([]bool, len(xs))}
	for i, s := range xs {
		p.vals[i] = placeholder
		if s == "" && emptyOK {
			p.bad[i] = true
			continue
		}
		f := fmt.Sprintf("%s[%d]", field, i)
		n, err := picture.ParseWhole(f, s, want)
		if err != nil {
			v.Errors = append(v.Errors, core.ViolationOf(f, err))
			p.failed, p.bad[i] = true, true
			continue
		}
		p.vals[i] = n
	}
	return p
}

// Validate parses every field and checks the slice with core, through
// the same path as POST /api/v1/slice1: every rule of DML_SLICE1 at once,
// each at its field. A field that does not parse is left out of the rules
// that need it.
func Validate(st State, queryErrs []core.Violation) Validated {
	v := Validated{State: st, T: -1, Errors: append([]core.Violation(nil), queryErrs...)}
	sizes := parseList(&v, "inputSizes", st.In.Sizes, picture.WantSize, core.MaxUINT, false)
	var strides parsed
	if !st.In.Packed {
		strides = parseList(&v, "inputStrides", st.In.Strides, picture.WantStride, 0, false)
	}
	if st.UseNP {
		// A size below 1 is reported at its own field by the tensor rules;
		// the expression is read only against sizes that can hold it.
		if !sizes.failed && !slices.ContainsFunc(sizes.vals, func(n int64) bool { return n < 1 }) {
			w, err := core.ParseNumpy(sizes.vals, st.NP)
			if err != nil {
				v.Errors = append(v.Errors, core.ViolationOf("expression", err))
			} else {
				st.Off, st.Win, st.Step = picture.FormatInts(w.WindowOffsets), picture.FormatInts(w.WindowSizes), picture.FormatInts(w.WindowStrides)
				st.Out, v.Dropped, st.UseNP = nil, w.DroppedAxes, false
			}
		}
		v.State = st
	}
	off := parseList(&v, "inputWindowOffsets", st.Off, picture.WantOffset, 0, false)
	win := parseList(&v, "inputWindowSizes", st.Win, picture.WantWindow, 1, false)
	step := parseList(&v, "inputWindowStrides", st.Step, picture.WantStep, 1, false)
	var outSizes []int64
	if !picture.AllEmpty(st.Out) {
		out := parseList(&v, "outputSizes", st.Out, picture.WantOutput, 0, true)
		outSizes = out.vals
		for i := range st.Out {
			if out.bad[i] && i < len(win.vals) && i < len(step.vals) {
				outSizes[i] = max(core.MaxCopiedElements(win.vals[i], step.vals[i]), 1)
			}
		}
	}
	var buf InputBuffer
	var errs []core.Violation
	buf.InputTotalTensorSizeInBytes, buf.InputGuaranteedBaseOffsetAlignment, errs = st.In.ParseBuffer("input")
	v.Errors = append(v.Errors, errs...)
	req := Request{
		DataType: st.In.DT, FeatureLevel: FeatureLevelName(st.FL), InputSizes: sizes.vals, InputStrides: strides.vals, InputBuffer: buf,
		Window: Window{InputWindowOffsets: off.vals, InputWindowSizes: win.vals, InputWindowStrides: step.vals, OutputSizes: outSizes},
	}
	if st.In.Packed {
		req.InputStrides = nil
	}
	if req.DataType == "" {
		v.Errors = append(v.Errors, core.NewMsg("page.datatype.choose", "choose a data type (e.g. FLOAT32)", nil).At("dataType"))
		req.DataType = "FLOAT32" // the other rules still report
		req.InputBuffer = buf.placeholder()
	}
	s, aerr := req.Slice1()
	if aerr != nil {
		broken := sizes.failed || strides.failed
		for _, cv := range aerr.Violations {
			if broken && (strings.Contains(cv.Message, "element count") || strings.Contains(cv.Message, "DMLCalcBufferTensorSize")) {
				continue // computed with a placeholder for a field that did not parse
			}
			v.Errors = append(v.Errors, cv)
		}
	}
	// The values are judged against the data type asked for, whatever
	// else is wrong, so that their errors come with the others at once
	// (a valid slice parsed the same name).
	if dt, err := core.ParseDataType(req.DataType); err == nil {
		vals, vvs := ParseValues(st.Vals, dt)
		v.Errors = append(v.Errors, vvs...)
		v.Values = vals
	}
	if len(v.Errors) > 0 || s == nil {
		return v
	}
	v.Slice = s
	v.Warnings = append(slices.Clip(s.Input.Warnings), decimalCommas(st.Vals)...)
	switch args := (core.Args{"axes": joinInts(v.Dropped)}); {
	case len(v.Dropped) == 1:
		v.Warnings = append(v.Warnings, core.NewMsg("numpy.drops.kept",
			"the integer index keeps axis {axes} as a window of one element: DML_SLICE1 keeps every axis, where NumPy drops it afterwards (a reshape)", args).At("expression"))
	case len(v.Dropped) > 1:
		v.Warnings = append(v.Warnings, core.NewMsg("numpy.drops.kept.many",
			"the integer indexes keep axes {axes} as windows of one element: DML_SLICE1 keeps every axis, where NumPy drops them afterwards (a reshape)", args).At("expression"))
	}
	if st.T != "" {
		if t, err := strconv.ParseInt(st.T, 10, 64); err == nil && t >= 0 && t < stepCount(s) {
			v.T = t
		}
	}
	return v
}

// StateOf is the canonical state of a valid slice: the numbers as
// core has them. An output size left blank stays blank (it is
// MaxCopiedElements, and follows the window) and one typed stays a
// number; a slice not typed (an import) gives the sizes that differ from
// the most.
func StateOf(v Validated) State {
	s, st := v.Slice, v.State
	c := State{In: picture.LayoutStateOf(s.Input, ""), FL: s.FeatureLevel.String(), Vals: st.Vals}
	c.In.Labels = ""
	c.Off, c.Win, c.Step = picture.FormatInts(s.WindowOffsets), picture.FormatInts(s.WindowSizes), picture.FormatInts(s.WindowStrides)
	typed := !picture.AllEmpty(st.Out)
	out := make([]string, len(s.OutputSizes))
	for i, o := range s.OutputSizes {
		given := o != s.MaxCopied[i]
		if typed {
			given = i < len(st.Out) && st.Out[i] != ""
		}
		if given {
			out[i] = strconv.FormatInt(o, 10)
		}
	}
	if !picture.AllEmpty(out) {
		c.Out = out
	}
	if v.T >= 0 {
		c.T = strconv.FormatInt(v.T, 10)
	}
	return c
}

// Resolve validates a query and finds the slice to draw: the state's
// own when valid, else the last valid one it carries, else Example 1.
func Resolve(q url.Values) (v, drawn Validated, stale string) {
	st, qvs := StateFromQuery(q)
	v = Validate(st, qvs)
	if v.Slice != nil {
		return v, v, ""
	}
	if lv, ok := LastValid(st); ok {
		return v, lv, "The inputs have errors: the picture is of the last valid slice."
	}
	return v, Validated{State: st, T: -1}, picture.NothingToDraw
}

// LastValid is the last valid slice st carries (its Last),
// validated: what a state with errors still draws, on its page and over
// the websocket alike. ok is false when st carries none, or one that is
// not valid either.
func LastValid(st State) (lv Validated, ok bool) {
	lq, ok := picture.LastQuery(st.Last, MaxQueryLen)
	if !ok {
		return Validated{}, false
	}
	lst, lvs := StateFromQuery(lq)
	if lv = Validate(lst, lvs); lv.Slice == nil {
		return Validated{}, false
	}
	return lv, true
}

// PresetLinks are the slice explorer's example links for the current
// data type and feature level, the one st is marked current when st is
// valid.
func PresetLinks(st State, valid bool) []views.Preset {
	base := State{In: picture.LayoutState{DT: st.In.DT}, FL: st.FL}
	if dt, err := core.ParseDataType(base.In.DT); err != nil || !dt.Valid() {
		base.In.DT = "FLOAT32"
	}
	if _, err := core.ParseFeatureLevel(base.FL); err != nil {
		base.FL = ""
	}
	cur := picture.StateKey(st.CanonicalQuery(false))
	out := make([]views.Preset, len(SlicePresets))
	for i, p := range SlicePresets {
		q := p.apply(base).CanonicalQuery(false)
		out[i] = views.Preset{Name: p.name, Title: p.title, Key: "preset.slice." + p.name, Page: p.page, Href: "/slice?" + q, Current: valid && picture.StateKey(q) == cur}
	}
	return out
}

// joinInts is "0, 1, 3".
func joinInts(xs []int) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(x)
	}
	return strings.Join(parts, ", ")
}
