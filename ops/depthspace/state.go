package depthspace

import (
	"fmt"
	"math"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// State is the explorer's whole state, as typed: the URL query of
// /depthspace (a GET form) and the query an edit carries on the
// websocket.
//
//	op=d2s&dt=UINT32&sizes=1,8,2,3&imode=packed&block=2&vals=0,1,2,...
//
// op is the operator (d2s: DML_DEPTH_TO_SPACE1, s2d:
// DML_SPACE_TO_DEPTH1); dt, sizes and the input's strides (imode packed,
// explicit with istrides, or a named layout such as NHWC) are its
// input's; block is BlockSize. Both orders are drawn side by side, so
// the order is not part of the state. vals are the input's values in
// row-major order (empty: 0, 1, 2 ...), as the DirectML pages number
// their examples. preset picks an example, last carries the last valid
// state.
type State struct {
	Op      string
	DT      string
	Sizes   []string
	Mode    string
	Strides []string
	Block   string
	Vals    []string
	Last    string
}

// The operators, as the query names them.
const (
	OpD2S = "d2s"
	OpS2D = "s2d"
)

// The input's modes that are not a named layout.
const (
	ModePacked   = "packed"
	ModeExplicit = "explicit"
)

// Modes are the choices of the input's strides, in the picker's order:
// the named layouts of four dimensions.
func Modes() []string {
	out := []string{ModePacked, ModeExplicit}
	for _, n := range core.NamedLayouts {
		if len(n) == 4 {
			out = append(out, n)
		}
	}
	return out
}

// MaxQueryLen bounds the query: up to MaxValues typed values.
const MaxQueryLen = 8 << 10

// MaxValues is how many values a state may type: the cells drawn in the
// HTML.
const MaxValues = views.MaxDOMCells

// preset is one example.
type preset struct {
	name, title string
	op          string
	dt          string
	sizes       []int64
	mode        string
	strides     []int64
	block       int64
	vals        []int64
}

// The DirectML pages' inputs: DEPTH_TO_SPACE1's (both its examples), and
// SPACE_TO_DEPTH1's Example 1 (DCR) and Example 2 (CRD) inputs, which are
// DEPTH_TO_SPACE1's outputs in the same order.
var (
	pageDepth = []int64{0, 1, 2, 3, 4, 5, 9, 10, 11, 12, 13, 14, 18, 19, 20, 21, 22, 23, 27, 28, 29, 30, 31, 32, 36, 37, 38, 39, 40, 41, 45, 46, 47, 48, 49, 50, 54, 55, 56, 57, 58, 59, 63, 64, 65, 66, 67, 68}
	pageDCR   = []int64{0, 18, 1, 19, 2, 20, 36, 54, 37, 55, 38, 56, 3, 21, 4, 22, 5, 23, 39, 57, 40, 58, 41, 59, 9, 27, 10, 28, 11, 29, 45, 63, 46, 64, 47, 65, 12, 30, 13, 31, 14, 32, 48, 66, 49, 67, 50, 68}
	pageCRD   = []int64{0, 9, 1, 10, 2, 11, 18, 27, 19, 28, 20, 29, 3, 12, 4, 13, 5, 14, 21, 30, 22, 31, 23, 32, 36, 45, 37, 46, 38, 47, 54, 63, 55, 64, 56, 65, 39, 48, 40, 49, 41, 50, 57, 66, 58, 67, 59, 68}
)

// Presets are the explorer's examples: every example the two pages
// print, then a strided input and a block of 3.
var Presets = []preset{
	{name: "d2s-page", title: "DML_DEPTH_TO_SPACE1, Examples 1 and 2: the page's 1×8×2×3 UINT32 input, BlockSize 2, in both orders",
		op: OpD2S, dt: "UINT32", sizes: []int64{1, 8, 2, 3}, mode: ModePacked, block: 2, vals: pageDepth},
	{name: "s2d-page1", title: "DML_SPACE_TO_DEPTH1, Example 1: the page's 1×2×4×6 input in depth-column-row order, BlockSize 2",
		op: OpS2D, dt: "UINT32", sizes: []int64{1, 2, 4, 6}, mode: ModePacked, block: 2, vals: pageDCR},
	{name: "s2d-page2", title: "DML_SPACE_TO_DEPTH1, Example 2: the page's 1×2×4×6 input in column-row-depth order, BlockSize 2",
		op: OpS2D, dt: "UINT32", sizes: []int64{1, 2, 4, 6}, mode: ModePacked, block: 2, vals: pageCRD},
	{name: "nhwc", title: "Depth-to-space of a channels-last (NHWC) input: 1×4×2×2 FLOAT16, BlockSize 2",
		op: OpD2S, dt: "FLOAT16", sizes: []int64{1, 4, 2, 2}, mode: "NHWC", block: 2},
	{name: "block3", title: "Space-to-depth with BlockSize 3: a 1×1×3×6 FLOAT32 input into 9 channels",
		op: OpS2D, dt: "FLOAT32", sizes: []int64{1, 1, 3, 6}, mode: ModePacked, block: 3},
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

func (p preset) state() State {
	st := State{Op: p.op, DT: p.dt, Sizes: picture.FormatInts(p.sizes), Mode: p.mode, Block: strconv.FormatInt(p.block, 10)}
	if p.mode == ModeExplicit {
		st.Strides = picture.FormatInts(p.strides)
	}
	if p.vals != nil {
		st.Vals = picture.FormatInts(p.vals)
	}
	return st
}

// DefaultState is the first example, DEPTH_TO_SPACE1's page.
func DefaultState() State { return Presets[0].state() }

// StateFromQuery reads a state; the violations are about the query
// itself (an unknown example).
func StateFromQuery(q url.Values) (State, []core.Violation) {
	if len(q) == 0 {
		return DefaultState(), nil
	}
	var vs []core.Violation
	if name := q.Get("preset"); name != "" {
		if p, ok := FindPreset(name); ok {
			st := p.state()
			st.Last = q.Get("last")
			return st, nil
		}
		vs = append(vs, picture.UnknownPreset(name))
	}
	d := DefaultState()
	get := func(k, def string) string {
		if _, ok := q[k]; !ok {
			return def
		}
		return strings.TrimSpace(q.Get(k))
	}
	st := State{Op: get("op", d.Op), DT: get("dt", d.DT), Mode: get("imode", ""), Block: get("block", d.Block), Last: q.Get("last")}
	if _, ok := q["sizes"]; ok {
		st.Sizes = picture.SplitList(q["sizes"])
	} else {
		st.Sizes, st.Vals = d.Sizes, d.Vals
	}
	if _, ok := q["vals"]; ok {
		st.Vals = picture.SplitList(q["vals"])
		if picture.AllEmpty(st.Vals) {
			st.Vals = nil
		}
	}
	st.Strides = picture.SplitList(q["istrides"])
	if st.Mode == "" {
		st.Mode = ModePacked
		if !picture.AllEmpty(st.Strides) {
			st.Mode = ModeExplicit
		}
	}
	if named := strings.ToUpper(st.Mode); slices.Contains(core.NamedLayouts, named) {
		st.Mode = named
	}
	if st.Mode != ModeExplicit {
		st.Strides = nil
	}
	return st, vs
}

// CanonicalQuery writes the state in a fixed order, commas unescaped.
func (st State) CanonicalQuery(withLast bool) string {
	var b picture.QueryWriter
	b.Add("op", st.Op)
	b.Add("dt", st.DT)
	b.Add("sizes", strings.Join(st.Sizes, ","))
	b.Add("imode", st.Mode)
	if st.Mode == ModeExplicit {
		b.Add("istrides", strings.Join(st.Strides, ","))
	}
	b.Add("block", st.Block)
	if len(st.Vals) > 0 {
		b.Add("vals", strings.Join(st.Vals, ","))
	}
	if withLast && st.Last != "" {
		b.Add("last", st.Last)
	}
	return b.String()
}

// Validated is a state checked against DirectML's rules: the operator
// in both orders.
type Validated struct {
	State    State
	DCR, CRD *core.DepthSpace // nil when invalid
	// Vals are the input's values in row-major order.
	Vals     []int64
	Errors   []core.Violation
	Warnings []core.Violation
}

// OK reports a valid state.
func (v Validated) OK() bool { return v.DCR != nil }

// Validate parses every field and checks the operator with core,
// through the same path as its API request: every rule at once, each
// at its field.
func Validate(st State, queryErrs []core.Violation) Validated {
	v := Validated{State: st, Errors: append([]core.Violation(nil), queryErrs...)}
	req := Request{DataType: st.DT, Order: core.DepthColumnRow.String()}
	op, ok := opOf(st.Op)
	if !ok {
		v.Errors = append(v.Errors, core.NewMsg("depthspace.op.unknown", "{op:q} is not an operator here: choose d2s (DML_DEPTH_TO_SPACE1) or s2d (DML_SPACE_TO_DEPTH1)", core.Args{"op": st.Op}).At("op"))
	}
	broken := false
	// unparsed are the fields a placeholder stands in for: core's rules
	// about them judge the placeholder, not what was typed.
	unparsed := map[string]bool{}
	req.InputSizes = make([]int64, len(st.Sizes))
	for i, s := range st.Sizes {
		f := fmt.Sprintf("inputSizes[%d]", i)
		n, err := picture.ParseWhole(f, s, picture.WantSize)
		if err != nil {
			v.Errors = append(v.Errors, core.ViolationOf(f, err))
			n, broken, unparsed[f] = 1, true, true
		}
		req.InputSizes[i] = n
	}
	switch mode := st.Mode; {
	case mode == ModePacked:
	case mode == ModeExplicit:
		req.InputStrides = make([]int64, len(st.Strides))
		for i, x := range st.Strides {
			f := fmt.Sprintf("inputStrides[%d]", i)
			n, err := picture.ParseWhole(f, x, picture.WantStride)
			if err != nil {
				v.Errors = append(v.Errors, core.ViolationOf(f, err))
				broken = true
			}
			req.InputStrides[i] = n
		}
	case slices.Contains(core.NamedLayouts, mode) && len(mode) == len(req.InputSizes):
		req.InputStrides, _ = core.LayoutStrides(mode, req.InputSizes)
	default:
		v.Errors = append(v.Errors, core.NewMsg("depthspace.layout.unknown", "{layout:q} is not a layout of the 4-D input: choose packed, explicit or one of {names}", core.Args{"layout": mode, "names": strings.Join(Modes()[2:], ", ")}).At("inputLayout"))
		broken = true
	}
	block, err := picture.ParseWhole("blockSize", st.Block, wantBlock)
	if err != nil {
		v.Errors = append(v.Errors, core.ViolationOf("blockSize", err))
		block, broken, unparsed["blockSize"] = 1, true, true
	}
	req.BlockSize = &block
	if req.DataType == "" {
		v.Errors = append(v.Errors, core.NewMsg("page.datatype.choose", "choose a data type (e.g. FLOAT32)", nil).At("dataType"))
		req.DataType = "FLOAT32"
	}
	var vals []int64
	if len(st.Vals) > 0 {
		vals, v.Errors = parseVals(st.Vals, v.Errors)
	}
	dcr, inv := req.depthSpace(op)
	if inv != nil {
		for _, cv := range inv.Violations {
			if broken && strings.HasPrefix(cv.Code, "tensor.count") || unparsed[cv.Field] {
				continue // judged with a placeholder for a field that did not parse
			}
			v.Errors = append(v.Errors, cv)
		}
	}
	if dcr != nil && vals != nil {
		v.Errors = append(v.Errors, valsInType(vals, dcr.Input.DataType)...)
	}
	if dcr != nil && vals != nil && int64(len(vals)) != dcr.Input.LogicalElementCount() {
		v.Errors = append(v.Errors, core.NewMsg("depthspace.vals.count", "{count} values for {n} input elements: give one value for each element, in row-major order, or none for 0, 1, 2 ...", core.Args{"count": len(vals), "n": dcr.Input.LogicalElementCount()}).At("vals"))
	}
	if len(v.Errors) > 0 || dcr == nil || !ok {
		return v
	}
	req.Order = core.ColumnRowDepth.String()
	crd, _ := req.depthSpace(op)
	v.DCR, v.CRD, v.Vals = dcr, crd, vals
	v.Warnings = slices.Clip(dcr.Input.Warnings)
	return v
}

var wantBlock = core.NewMsg("want.block", "a block size of at least 1", nil)

// parseVals reads the typed values: whole numbers, at most MaxValues.
func parseVals(typed []string, errs []core.Violation) ([]int64, []core.Violation) {
	if len(typed) > MaxValues {
		return nil, append(errs, core.NewMsg("depthspace.vals.many", "{count} values: at most {max} can be typed (leave them empty for 0, 1, 2 ...)", core.Args{"count": len(typed), "max": MaxValues}).At("vals"))
	}
	out := make([]int64, len(typed))
	for i, s := range typed {
		n, err := strconv.ParseInt(picture.AsciiNumber(s), 10, 64)
		if err != nil {
			return nil, append(errs, core.NewMsg("depthspace.vals.number", "value {index} = {value:q} is not a whole number", core.Args{"index": i, "value": s}).At("vals"))
		}
		out[i] = n
	}
	return out, errs
}

// valsInType reports the first typed value its data type does not hold
// exactly: an integer type's range, or a float's whole numbers (up to
// 2^11, 2^24 or 2^53), so that the page and a DxDispatch model show the
// same numbers.
func valsInType(vals []int64, dt core.DataType) []core.Violation {
	lo, hi := int64(0), int64(0)
	switch bits := dt.Bits(); {
	case dt == core.Float16:
		lo, hi = -2048, 2048
	case dt == core.Float32:
		lo, hi = -1<<24, 1<<24
	case dt == core.Float64:
		lo, hi = -1<<53, 1<<53
	case bits == 64 && dt == core.UInt64:
		lo, hi = 0, math.MaxInt64
	case bits == 64:
		lo, hi = math.MinInt64, math.MaxInt64
	case dt == core.UInt32 || dt == core.UInt16 || dt == core.UInt8:
		lo, hi = 0, 1<<bits-1
	default:
		lo, hi = -1<<(bits-1), 1<<(bits-1)-1
	}
	for i, x := range vals {
		if x < lo || x > hi {
			return []core.Violation{core.NewMsg("depthspace.vals.range", "value {index} = {value} is not held exactly by {type} ({min} to {max})",
				core.Args{"index": i, "value": x, "type": dt, "min": lo, "max": hi}).At("vals")}
		}
	}
	return nil
}

func opOf(name string) (core.DepthSpaceOp, bool) {
	switch name {
	case OpD2S:
		return core.DepthToSpace, true
	case OpS2D:
		return core.SpaceToDepth, true
	}
	return core.DepthToSpace, false
}

// StateOf is the canonical state of a valid operator: the numbers as
// core has them, the mode as typed.
func StateOf(v Validated) State {
	s, st := v.DCR, v.State
	c := State{Op: st.Op, DT: s.Input.DataType.String(), Sizes: picture.FormatInts(s.Input.Sizes), Mode: st.Mode,
		Block: strconv.FormatInt(s.BlockSize, 10)}
	if st.Mode == ModeExplicit {
		c.Strides = picture.FormatInts(s.Input.Strides)
	}
	if v.Vals != nil {
		c.Vals = picture.FormatInts(v.Vals)
	}
	return c
}

// Resolve validates a query and finds the operator to draw: the state's
// own when valid, else the last valid one it carries, else nothing.
func Resolve(q url.Values) (v, drawn Validated, stale string) {
	st, qvs := StateFromQuery(q)
	v = Validate(st, qvs)
	if v.OK() {
		return v, v, ""
	}
	if lv, ok := LastValid(st); ok {
		return v, lv, "The inputs have errors: the picture is of the last valid rearrangement."
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
	return lv, lv.OK()
}

// PresetLinks are the examples, the one st is marked current when st is
// valid.
func PresetLinks(st State, valid bool) []views.Preset {
	cur := picture.StateKey(st.CanonicalQuery(false))
	out := make([]views.Preset, len(Presets))
	for i, p := range Presets {
		q := p.state().CanonicalQuery(false)
		out[i] = views.Preset{Name: p.name, Title: p.title, Key: "preset.depthspace." + p.name, Href: "/depthspace?" + q,
			Page: p.vals != nil, Current: valid && picture.StateKey(q) == cur}
	}
	return out
}
