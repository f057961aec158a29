package convert

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

// State is the conversion explorer's whole state, as typed: the URL query
// of /convert (a GET form) and the query an edit carries on the websocket.
//
//	dt=FLOAT32&sizes=1,3,2,4&imode=NHWC&omode=packed&itotal=96&oalign=16&scale=2&bias=1
//
// dt and sizes are the one logical tensor's. Each side (i for the input,
// o for the output) has a mode, packed (Strides = nullptr), explicit
// (its strides, istrides or ostrides) or a named layout of
// core.NamedLayouts (NHWC...), and its buffer's total and align. scale
// and bias are the optional DML_SCALE_BIAS (either given: both, the
// other 1 or 0). rank changes the DimensionCount, preset picks an
// example, last carries the last valid state.
type State struct {
	DT          string
	Sizes       []string
	In, Out     Side
	Scale, Bias string
	Last        string
}

// Side is one tensor description's own fields, as typed.
type Side struct {
	Mode    string // ModePacked, ModeExplicit or a named layout
	Strides []string
	Total   string
	Align   string
}

// The modes of a side that are not a named layout.
const (
	ModePacked   = "packed"
	ModeExplicit = "explicit"
)

// Modes are the choices of a side's strides, in the picker's order.
func Modes() []string {
	return append([]string{ModePacked, ModeExplicit}, core.NamedLayouts...)
}

// MaxQueryLen bounds the query of /convert and of an edit: two sides'
// strides and buffers make it longer than the layout explorer's.
const MaxQueryLen = 6 << 10

// preset is one example of the conversion explorer.
type preset struct {
	name, title string
	sizes       []int64
	in, out     string  // modes; explicit takes the strides below
	inS, outS   []int64 // explicit strides
	outTotal    int64   // 0: the minimum
	outAlign    int64
	scale, bias string
}

// Presets are the conversion explorer's examples.
var Presets = []preset{
	{name: "nhwc-nchw", title: "NHWC to NCHW: a 1×3×2×4 tensor stored channels-last, copied channels-first",
		sizes: []int64{1, 3, 2, 4}, in: "NHWC", out: ModePacked},
	{name: "nchw-nhwc", title: "NCHW to NHWC: the same tensor the other way, packed channels-first copied channels-last",
		sizes: []int64{1, 3, 2, 4}, in: ModePacked, out: "NHWC"},
	{name: "transpose", title: "A 2-D transpose: a 3×5 matrix copied into its columns' order (HW to WH)",
		sizes: []int64{3, 5}, in: ModePacked, out: "WH"},
	{name: "broadcast", title: "Materialising a broadcast: one row of 4 read for each of 3 rows (input stride 0), written out packed",
		sizes: []int64{3, 4}, in: ModeExplicit, inS: []int64{0, 1}, out: ModePacked},
	{name: "padded", title: "Padding rows to an alignment: each row of 5 FLOAT32 elements starts on a 32-byte boundary (row stride 8)",
		sizes: []int64{3, 5}, in: ModePacked, out: ModeExplicit, outS: []int64{8, 1}, outAlign: 32},
	{name: "reshape", title: "A reshape is free: NHWC with one channel is NCHW's memory, every element stays where it is",
		sizes: []int64{1, 1, 3, 5}, in: "NHWC", out: ModePacked},
	{name: "scalebias", title: "The optional ScaleBias: g(x) = x × 2 + 1 on each element, the layout unchanged",
		sizes: []int64{2, 3}, in: ModePacked, out: ModePacked, scale: "2", bias: "1"},
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

// apply fills the sizes, both sides and the scale and bias from the
// example; the data type stays.
func (p preset) apply(st State) State {
	st.Sizes = picture.FormatInts(p.sizes)
	side := func(mode string, strides []int64) Side {
		s := Side{Mode: mode}
		if mode == ModeExplicit {
			s.Strides = picture.FormatInts(strides)
		}
		return s
	}
	st.In, st.Out = side(p.in, p.inS), side(p.out, p.outS)
	if p.outTotal > 0 {
		st.Out.Total = strconv.FormatInt(p.outTotal, 10)
	}
	if p.outAlign > 0 {
		st.Out.Align = strconv.FormatInt(p.outAlign, 10)
	}
	st.Scale, st.Bias = p.scale, p.bias
	return st
}

// DefaultState is the first example, NHWC to NCHW.
func DefaultState() State {
	return Presets[0].apply(State{DT: "FLOAT32"})
}

// StateFromQuery reads a state; the violations are about the query
// itself (rank, preset).
func StateFromQuery(q url.Values) (State, []core.Violation) {
	if len(q) == 0 {
		return DefaultState(), nil
	}
	var vs []core.Violation
	st := State{DT: strings.TrimSpace(q.Get("dt")), Scale: strings.TrimSpace(q.Get("scale")), Bias: strings.TrimSpace(q.Get("bias")), Last: q.Get("last")}
	if _, ok := q["dt"]; !ok {
		st.DT = "FLOAT32"
	}
	if _, ok := q["sizes"]; ok {
		st.Sizes = picture.SplitList(q["sizes"])
	} else {
		st.Sizes = DefaultState().Sizes
	}
	side := func(p string) Side {
		s := Side{Mode: strings.TrimSpace(q.Get(p + "mode")), Strides: picture.SplitList(q[p+"strides"]),
			Total: strings.TrimSpace(q.Get(p + "total")), Align: strings.TrimSpace(q.Get(p + "align"))}
		if s.Mode == "" {
			s.Mode = ModePacked
			if !picture.AllEmpty(s.Strides) {
				s.Mode = ModeExplicit
			}
		}
		if named := strings.ToUpper(s.Mode); slices.Contains(core.NamedLayouts, named) {
			s.Mode = named
		}
		if s.Mode != ModeExplicit {
			s.Strides = nil
		}
		return s
	}
	st.In, st.Out = side("i"), side("o")
	if _, ok := q["sizes"]; !ok && q.Get("imode") == "" && q.Get("omode") == "" {
		d := DefaultState()
		st.In, st.Out = d.In, d.Out
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

// withRank adds leading size-1 dimensions or drops leading ones, as the
// layout explorer does, on both sides; a named layout that no longer
// fits the rank falls back to packed.
func (st State) withRank(n int) State {
	sizes := st.Sizes
	fit := func(s Side) Side {
		ls := picture.LayoutState{Sizes: sizes, Strides: s.Strides, Packed: s.Mode != ModeExplicit}.WithRank(n)
		if s.Mode == ModeExplicit {
			s.Strides = ls.Strides
		} else if s.Mode != ModePacked && len(s.Mode) != n {
			s.Mode = ModePacked
		}
		return s
	}
	st.In, st.Out = fit(st.In), fit(st.Out)
	st.Sizes = picture.LayoutState{Sizes: sizes, Packed: true}.WithRank(n).Sizes
	return st
}

// CanonicalQuery writes the state in a fixed order, commas unescaped.
func (st State) CanonicalQuery(withLast bool) string {
	var b picture.QueryWriter
	add := b.Add
	add("dt", st.DT)
	add("sizes", strings.Join(st.Sizes, ","))
	for _, s := range []struct {
		p    string
		side Side
	}{{"i", st.In}, {"o", st.Out}} {
		add(s.p+"mode", s.side.Mode)
		if s.side.Mode == ModeExplicit {
			add(s.p+"strides", strings.Join(s.side.Strides, ","))
		}
		if s.side.Total != "" {
			add(s.p+"total", s.side.Total)
		}
		if s.side.Align != "" {
			add(s.p+"align", s.side.Align)
		}
	}
	if st.Scale != "" {
		add("scale", st.Scale)
	}
	if st.Bias != "" {
		add("bias", st.Bias)
	}
	if withLast && st.Last != "" {
		add("last", st.Last)
	}
	return b.String()
}

// Validated is a state checked against DirectML's rules.
type Validated struct {
	State    State
	ID       *core.Identity // nil when invalid
	Errors   []core.Violation
	Warnings []core.Violation
}

// What the fields of the page want, for picture.ParseWhole's messages.
var wantScale = core.NewMsg("want.scalebias", "a number (e.g. 0.5), or leave both empty for no ScaleBias", nil)

// Validate parses every field and checks the copy with core, through the
// same path as POST /api/v1/identity: every rule at once, each at its
// field. A field that does not parse is left out of the rules that need
// it.
func Validate(st State, queryErrs []core.Violation) Validated {
	v := Validated{State: st, Errors: append([]core.Violation(nil), queryErrs...)}
	broken := false
	sizes := make([]int64, len(st.Sizes))
	for i, s := range st.Sizes {
		f := fmt.Sprintf("sizes[%d]", i)
		n, err := picture.ParseWhole(f, s, picture.WantSize)
		if err != nil {
			v.Errors = append(v.Errors, core.ViolationOf(f, err))
			n, broken = 1, true
		}
		sizes[i] = n
	}
	req := Request{DataType: st.DT, Sizes: sizes}
	for _, s := range []struct {
		side    Side
		prefix  string
		strides *[]int64
		total   **int64
		align   *int64
	}{
		{st.In, "input", &req.InputStrides, &req.InputTotalTensorSizeInBytes, &req.InputGuaranteedBaseOffsetAlignment},
		{st.Out, "output", &req.OutputStrides, &req.OutputTotalTensorSizeInBytes, &req.OutputGuaranteedBaseOffsetAlignment},
	} {
		field := s.prefix + "Strides"
		switch mode := s.side.Mode; {
		case mode == ModePacked:
		case mode == ModeExplicit:
			*s.strides = make([]int64, len(s.side.Strides))
			for i, x := range s.side.Strides {
				f := fmt.Sprintf("%s[%d]", field, i)
				n, err := picture.ParseWhole(f, x, picture.WantStride)
				if err != nil {
					v.Errors = append(v.Errors, core.ViolationOf(f, err))
					broken = true
				}
				(*s.strides)[i] = n
			}
		case slices.Contains(core.NamedLayouts, mode):
			if len(mode) != len(sizes) {
				v.Errors = append(v.Errors, core.NewMsg("convert.layout.rank", "layout {layout} names {need} dimensions, the tensor has {rank}: choose a layout of {rank} letters, packed or explicit strides", core.Args{"layout": mode, "need": len(mode), "rank": len(sizes)}).At(s.prefix+"Layout"))
				broken = true
			} else if ls, err := core.LayoutStrides(mode, sizes); err == nil {
				*s.strides = ls
			}
		default:
			v.Errors = append(v.Errors, core.NewMsg("convert.layout.unknown", "{layout:q} is not a layout: choose packed, explicit or one of {names}", core.Args{"layout": mode, "names": strings.Join(core.NamedLayouts, ", ")}).At(s.prefix+"Layout"))
			broken = true
		}
		ls := picture.LayoutState{Total: s.side.Total, Align: s.side.Align}
		t, a, errs := ls.ParseBuffer(s.prefix)
		v.Errors = append(v.Errors, errs...)
		*s.total, *s.align = t, a
	}
	if st.Scale != "" || st.Bias != "" {
		sb := &ScaleBiasRequest{}
		for _, f := range []struct {
			field, typed, def string
			to                **float64
		}{{"scaleBias.scale", st.Scale, "1", &sb.Scale}, {"scaleBias.bias", st.Bias, "0", &sb.Bias}} {
			typed := f.typed
			if typed == "" {
				typed = f.def
			}
			x, err := strconv.ParseFloat(strings.ReplaceAll(picture.AsciiNumber(typed), ",", "."), 64)
			if err != nil {
				v.Errors = append(v.Errors, core.NewMsg("convert.number.invalid", "{field} = {value:q} is not a number: give {want}", core.Args{"field": f.field, "value": f.typed, "want": wantScale}).At(f.field))
				x = 0
			}
			*f.to = &x
		}
		req.ScaleBias = sb
	}
	if req.DataType == "" {
		v.Errors = append(v.Errors, core.NewMsg("page.datatype.choose", "choose a data type (e.g. FLOAT32)", nil).At("dataType"))
		req.DataType = "FLOAT32"
	}
	id, inv := req.Identity()
	if inv != nil {
		for _, cv := range inv.Violations {
			if broken && (strings.Contains(cv.Message, "element count") || strings.Contains(cv.Message, "DMLCalcBufferTensorSize") || strings.HasPrefix(cv.Code, "identity.output.")) {
				continue // judged with a placeholder for a field that did not parse
			}
			v.Errors = append(v.Errors, cv)
		}
	}
	if len(v.Errors) > 0 || id == nil {
		return v
	}
	v.ID = id
	v.Warnings = append(slices.Clip(id.Input.Warnings), id.Output.Warnings...)
	return v
}

// StateOf is the canonical state of a valid copy: the numbers as core
// has them, each side's mode as typed.
func StateOf(v Validated) State {
	id, st := v.ID, v.State
	c := State{DT: id.Input.DataType.String(), Sizes: picture.FormatInts(id.Input.Sizes), Scale: st.Scale, Bias: st.Bias}
	side := func(s Side, l *core.Layout) Side {
		out := Side{Mode: s.Mode}
		if s.Mode == ModeExplicit {
			out.Strides = picture.FormatInts(l.Strides)
		}
		if l.TotalTensorSizeInBytes != 0 || s.Total != "" {
			out.Total = strconv.FormatInt(l.TotalTensorSizeInBytes, 10)
		}
		if l.GuaranteedBaseOffsetAlignment != 0 {
			out.Align = strconv.FormatInt(l.GuaranteedBaseOffsetAlignment, 10)
		}
		return out
	}
	c.In, c.Out = side(st.In, id.Input), side(st.Out, id.Output)
	if id.ScaleBias != nil {
		c.Scale = strconv.FormatFloat(id.ScaleBias.Scale, 'g', -1, 64)
		c.Bias = strconv.FormatFloat(id.ScaleBias.Bias, 'g', -1, 64)
	}
	return c
}

// Resolve validates a query and finds the copy to draw: the state's own
// when valid, else the last valid one it carries, else nothing.
func Resolve(q url.Values) (v, drawn Validated, stale string) {
	st, qvs := StateFromQuery(q)
	v = Validate(st, qvs)
	if v.ID != nil {
		return v, v, ""
	}
	if lv, ok := LastValid(st); ok {
		return v, lv, "The inputs have errors: the picture is of the last valid conversion."
	}
	return v, Validated{State: st}, picture.NothingToDraw
}

// LastValid is the last valid copy st carries, validated.
func LastValid(st State) (Validated, bool) {
	lq, ok := picture.LastQuery(st.Last, MaxQueryLen)
	if !ok {
		return Validated{}, false
	}
	lv := Validate(StateFromQuery(lq))
	return lv, lv.ID != nil
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
		out[i] = views.Preset{Name: p.name, Title: p.title, Key: "preset.convert." + p.name, Href: "/convert?" + q, Current: valid && picture.StateKey(q) == cur}
	}
	return out
}
