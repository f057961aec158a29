package picture

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/views"
)

// LayoutState is the explorer's whole state, as typed: the URL query of
// the page (a GET form) and the query an edit carries on the websocket.
//
//	dt=FLOAT32&sizes=2,3&strides=5,1&total=40&align=16&labels=index&sel=1,0&cell=7
//
// sizes and strides may also come as repeated keys (sizes=2&sizes=3), as the
// form's one-input-per-dimension rows send them. Strides absent, or
// mode=packed, means packed (Strides = nullptr). mode=rows computes the
// strides from the sizes: the memory order order (a named layout, or
// DirectML's own order when empty) with rows padded to a multiple of
// pitch elements (core.RowStrides), so that they follow the sizes as
// they are typed. rank, when it differs from
// the number of sizes, adds leading size-1 dimensions or drops leading
// ones. preset=NAME fills sizes, strides and the rest from an example.
// last carries the canonical query of the last valid state, so that a bad
// submission still shows a picture.
type LayoutState struct {
	DT      string
	Sizes   []string
	Strides []string // ignored when Packed; computed when Rows
	Packed  bool
	Rows    bool   // strides computed from Order and Pitch
	Order   string // a core.NamedLayouts name, "" for DirectML's order
	Pitch   string // the row pitch in elements, as typed; "" for 1
	Total   string
	Align   string
	Labels  string
	Sel     string
	Cell    string
	Last    string
}

// DefaultLayoutState is the first example of the DirectML strides page: a 2x3
// tensor, packed.
func DefaultLayoutState() LayoutState {
	return LayoutState{DT: "FLOAT32", Sizes: []string{"2", "3"}, Packed: true, Labels: views.LabelLetters}
}

// MaxQueryLen bounds the query an edit or a page request may carry; a
// valid state needs far less.
const MaxQueryLen = 4096

// LayoutStateFromQuery reads a state; the violations are about the query itself
// (rank, preset) rather than the tensor.
func LayoutStateFromQuery(q url.Values) (LayoutState, []core.Violation) {
	if len(q) == 0 {
		return DefaultLayoutState(), nil
	}
	var vs []core.Violation
	st := LayoutState{
		DT:     strings.TrimSpace(q.Get("dt")),
		Total:  strings.TrimSpace(q.Get("total")),
		Align:  strings.TrimSpace(q.Get("align")),
		Labels: q.Get("labels"),
		Sel:    strings.TrimSpace(q.Get("sel")),
		Cell:   strings.TrimSpace(q.Get("cell")),
		Last:   q.Get("last"),
	}
	if _, ok := q["dt"]; !ok {
		st.DT = "FLOAT32"
	}
	switch st.Labels {
	case views.LabelLetters, views.LabelIndex, views.LabelOffset:
	default:
		st.Labels = views.LabelLetters
	}
	st.Sizes = SplitList(q["sizes"])
	st.Strides = SplitList(q["strides"])
	if _, ok := q["sizes"]; !ok {
		st.Sizes, st.Strides = DefaultLayoutState().Sizes, nil // e.g. "?labels=index"
	}
	st.Rows = q.Get("mode") == "rows"
	st.Packed = !st.Rows && (q.Get("mode") == "packed" || (q.Get("mode") != "explicit" && AllEmpty(st.Strides)))
	if st.Packed || st.Rows {
		st.Strides = nil
	}
	if st.Rows {
		st.Order = strings.ToUpper(strings.TrimSpace(q.Get("order")))
		st.Pitch = strings.TrimSpace(q.Get("pitch"))
	}
	if name := q.Get("preset"); name != "" {
		p, ok := FindPreset(name)
		if !ok {
			vs = append(vs, UnknownPreset(name))
		} else {
			st = p.Apply(st)
		}
	}
	if r := strings.TrimSpace(q.Get("rank")); r != "" {
		n, ok := ParseRank(r)
		switch {
		case !ok:
			vs = append(vs, BadRank(r))
		case n != len(st.Sizes):
			st = st.WithRank(n)
		}
	}
	return st, vs
}

// SplitList joins repeated keys and splits each on commas.
func SplitList(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, p := range strings.Split(v, ",") {
			out = append(out, strings.TrimSpace(p))
		}
	}
	return out
}

func AllEmpty(xs []string) bool {
	for _, x := range xs {
		if x != "" {
			return false
		}
	}
	return true
}

// WithRank adds leading size-1 dimensions (with the stride that spans the
// rest, as DirectML pads to 4-D) or drops leading ones.
func (st LayoutState) WithRank(n int) LayoutState {
	sizes := append([]string(nil), st.Sizes...)
	strides := append([]string(nil), st.Strides...)
	if st.Rows && len(st.Order) != n {
		st.Order = "" // an order of another rank: DirectML's own
	}
	if n < len(sizes) {
		sizes = sizes[len(sizes)-n:]
		if !st.Packed && !st.Rows && len(strides) >= n {
			strides = strides[len(strides)-n:]
		}
	}
	for len(sizes) < n {
		var szs, sds []int64
		for i := range sizes {
			if i < len(strides) {
				sz, err1 := strconv.ParseInt(sizes[i], 10, 64)
				sd, err2 := strconv.ParseInt(strides[i], 10, 64)
				if err1 == nil && err2 == nil {
					szs, sds = append(szs, sz), append(sds, sd)
				}
			}
		}
		span := core.LeadingStride(szs, sds)
		sizes = append([]string{"1"}, sizes...)
		if !st.Packed && !st.Rows {
			strides = append([]string{strconv.FormatInt(span, 10)}, strides...)
		}
	}
	st.Sizes = sizes
	if !st.Packed && !st.Rows {
		st.Strides = strides
	}
	return st
}

// QueryWriter writes a canonical query: the keys in the order added,
// commas unescaped (the slice explorer's query too).
type QueryWriter struct{ strings.Builder }

func (b *QueryWriter) Add(k, v string) {
	if b.Len() > 0 {
		b.WriteByte('&')
	}
	b.WriteString(k)
	b.WriteByte('=')
	b.WriteString(strings.ReplaceAll(url.QueryEscape(v), "%2C", ","))
}

// CanonicalQuery writes the state in a fixed order, commas unescaped.
func (st LayoutState) CanonicalQuery(withLast bool) string {
	var b QueryWriter
	add := b.Add
	st.AddTensor(add)
	if st.Labels != "" && st.Labels != views.LabelLetters {
		add("labels", st.Labels)
	}
	if st.Sel != "" {
		add("sel", st.Sel)
	}
	if st.Cell != "" {
		add("cell", st.Cell)
	}
	if withLast && st.Last != "" {
		add("last", st.Last)
	}
	return b.String()
}

// AddTensor writes the tensor's keys, the same in both explorers' queries.
func (st LayoutState) AddTensor(add func(key, value string)) {
	add("dt", st.DT)
	add("sizes", strings.Join(st.Sizes, ","))
	switch {
	case st.Rows:
		add("mode", "rows")
		if st.Order != "" {
			add("order", st.Order)
		}
		if st.Pitch != "" {
			add("pitch", st.Pitch)
		}
	case !st.Packed:
		add("strides", strings.Join(st.Strides, ","))
	}
	if st.Total != "" {
		add("total", st.Total)
	}
	if st.Align != "" {
		add("align", st.Align)
	}
}

// ParseBuffer parses the tensor's TotalTensorSizeInBytes (nil when not
// given) and GuaranteedBaseOffsetAlignment as typed, reporting a value
// that is not a whole number at its field: prefix names an operator's
// tensor ("input" gives inputTotalTensorSizeInBytes), "" a bare one.
func (st LayoutState) ParseBuffer(prefix string) (total *int64, align int64, errs []core.Violation) {
	field := func(name string) string {
		if prefix == "" {
			return name
		}
		return prefix + i18n.UpperFirst(name)
	}
	if st.Total != "" {
		f := field("totalTensorSizeInBytes")
		if n, err := ParseWhole(f, st.Total, wantTotal); err != nil {
			errs = append(errs, core.ViolationOf(f, err))
		} else {
			total = &n
		}
	}
	if st.Align != "" {
		f := field("guaranteedBaseOffsetAlignment")
		if n, err := ParseWhole(f, st.Align, wantAlign); err != nil {
			errs = append(errs, core.ViolationOf(f, err))
		} else {
			align = n
		}
	}
	return total, align, errs
}

// Validated is a state checked against DirectML's rules.
type Validated struct {
	State    LayoutState
	Layout   *core.Layout // nil when invalid
	Errors   []core.Violation
	Warnings []core.Violation
	Sel      []int64 // the selected coordinate, if in range
	Cell     int64   // the selected buffer cell, -1 for none
}

// Validate parses every field and checks the tensor with core, through the
// same path as POST /api/v1/layout. Every field gets its own message;
// a field that does not parse is left out of the rules that need it.
func Validate(st LayoutState, queryErrs []core.Violation) Validated {
	v := Validated{State: st, Cell: -1, Errors: append([]core.Violation(nil), queryErrs...)}
	parseErr := map[string]bool{}
	sizes := make([]int64, len(st.Sizes))
	for i, s := range st.Sizes {
		n, err := ParseWhole(fmt.Sprintf("sizes[%d]", i), s, WantSize)
		if err != nil {
			v.Errors = append(v.Errors, core.ViolationOf(fmt.Sprintf("sizes[%d]", i), err))
			parseErr["sizes"] = true
			n = 1
		}
		sizes[i] = n
	}
	var strides []int64
	switch {
	case st.Rows:
		// Worked out from the sizes. When they cannot be, the order's or
		// the pitch's error says why, and core is given placeholders that
		// it reports nothing about, as for a stride that does not parse.
		if !parseErr["sizes"] {
			var errs []core.Violation
			strides, errs = RowStrides(st, sizes)
			v.Errors = append(v.Errors, errs...)
		}
		v.State.Strides = nil
		if strides != nil {
			v.State.Strides = FormatInts(strides)
		} else {
			strides = make([]int64, len(sizes))
			parseErr["strides"] = true
		}
	case !st.Packed:
		strides = make([]int64, len(st.Strides))
		for i, s := range st.Strides {
			n, err := ParseWhole(fmt.Sprintf("strides[%d]", i), s, WantStride)
			if err != nil {
				v.Errors = append(v.Errors, core.ViolationOf(fmt.Sprintf("strides[%d]", i), err))
				parseErr["strides"] = true
				n = 0
			}
			strides[i] = n
		}
	}
	total, align, errs := st.ParseBuffer("")
	v.Errors = append(v.Errors, errs...)
	req := LayoutRequest{DataType: st.DT, Sizes: sizes, Strides: strides, TotalTensorSizeInBytes: total, GuaranteedBaseOffsetAlignment: align}
	l, aerr := req.Layout()
	if aerr != nil {
		broken := parseErr["sizes"] || parseErr["strides"]
		for _, cv := range aerr.Violations {
			switch {
			case cv.Field == "dataType" && st.DT == "":
				cv = core.NewMsg("page.datatype.choose", "choose a data type (e.g. FLOAT32)", nil).At(cv.Field)
			case broken && (strings.Contains(cv.Message, "element count") || strings.Contains(cv.Message, "DMLCalcBufferTensorSize")):
				continue // computed with a placeholder for a field that did not parse
			}
			v.Errors = append(v.Errors, cv)
		}
	}
	if len(v.Errors) > 0 || l == nil {
		return v
	}
	v.Layout = l
	v.Warnings = l.Warnings
	v.Sel = parseSel(st.Sel, l)
	if st.Cell != "" {
		if n, err := strconv.ParseInt(st.Cell, 10, 64); err == nil && n >= 0 && n < l.BufferElementCount() {
			v.Cell = n
		}
	}
	return v
}

// What each field of the pages wants, for parseWhole's messages.
var (
	WantSize   = core.NewMsg("want.size", "a size of at least 1", nil)
	WantStride = core.NewMsg("want.stride", "every stride, or choose packed strides", nil)
	wantTotal  = core.NewMsg("want.total", "a byte count, or leave it empty for the minimum", nil)
	wantAlign  = core.NewMsg("want.alignment", "0 or a power of two, or leave it empty", nil)
	wantPitch  = core.NewMsg("want.pitch", "a row pitch in elements (1 for packed rows)", nil)
	WantOffset = core.NewMsg("want.window.offset", "a window offset (0 or more)", nil)
	WantWindow = core.NewMsg("want.window.size", "a window size of at least 1", nil)
	WantStep   = core.NewMsg("want.window.stride", "a signed window stride, not 0", nil)
	WantOutput = core.NewMsg("want.output.size", "an output size of at least 1, or leave it empty for MaxCopiedElements", nil)
)

// ParseWhole reads a whole number, saying what is wanted when it is not
// one; the error is a core.Msg.
func ParseWhole(field, s string, want core.Msg) (int64, error) {
	if s == "" {
		return 0, core.NewMsg("whole.empty", "{field} is empty: give {want}", core.Args{"field": field, "want": want})
	}
	n, err := strconv.ParseInt(AsciiNumber(s), 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, core.NewMsg("whole.range", "{field} = {value} does not fit in 64 bits: DirectML values are UINT (at most 2^32-1) or UINT64", core.Args{"field": field, "value": s})
		}
		return 0, core.NewMsg("whole.invalid", "{field} = {value:q} is not a whole number: give {want}", core.Args{"field": field, "value": s, "want": want})
	}
	return n, nil
}

// typedSigns are the characters a person may type or paste for a sign or
// a digit that strconv does not read: the minus sign (U+2212) the pages
// themselves print ("{1,1,−2,2}"), and the full-width digits and signs a
// Chinese input method types.
var typedSigns = strings.NewReplacer(
	"\u2212", "-", "\uff0d", "-", "\uff0b", "+",
	"\uff10", "0", "\uff11", "1", "\uff12", "2", "\uff13", "3", "\uff14", "4",
	"\uff15", "5", "\uff16", "6", "\uff17", "7", "\uff18", "8", "\uff19", "9")

// AsciiNumber is s with typedSigns in ASCII.
func AsciiNumber(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r >= 0x80 }) {
		return s
	}
	return typedSigns.Replace(s)
}

// parseSel reads "1,0,1" as a coordinate of l, or nil when it is not one.
func parseSel(s string, l *core.Layout) []int64 {
	if s == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	if len(parts) != l.Rank() {
		return nil
	}
	c := make([]int64, len(parts))
	for i, p := range parts {
		n, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if err != nil || n < 0 || n >= l.Sizes[i] {
			return nil
		}
		c[i] = n
	}
	return c
}

// CanonicalState is the state of a valid layout as every page and answer
// writes it: the tensor as core read it (FLOAT16, 3 for a typed +3 or 03),
// the view's keys (labels, selection, cell) kept.
func CanonicalState(v Validated) LayoutState {
	st := LayoutStateOf(v.Layout, v.State.Labels)
	if v.Sel != nil {
		st.Sel = JoinCoord(v.Sel)
	}
	if v.Cell >= 0 {
		st.Cell = v.State.Cell
	}
	if v.State.Rows {
		// The strides stay computed: an edit of a size pads the new rows.
		st.Rows, st.Packed, st.Order, st.Pitch = true, false, v.State.Order, ""
		if p, err := strconv.ParseInt(AsciiNumber(v.State.Pitch), 10, 64); err == nil && p != 1 {
			st.Pitch = strconv.FormatInt(p, 10)
		}
	}
	return st
}

// LayoutStateOf is the canonical state of a valid layout.
func LayoutStateOf(l *core.Layout, labels string) LayoutState {
	st := LayoutState{DT: l.DataType.String(), Packed: l.StridesImplicit, Labels: labels}
	for _, s := range l.Sizes {
		st.Sizes = append(st.Sizes, strconv.FormatInt(s, 10))
	}
	if !l.StridesImplicit {
		for _, s := range l.Strides {
			st.Strides = append(st.Strides, strconv.FormatInt(s, 10))
		}
	}
	if l.TotalTensorSizeInBytes != 0 {
		st.Total = strconv.FormatInt(l.TotalTensorSizeInBytes, 10)
	}
	if l.GuaranteedBaseOffsetAlignment != 0 {
		st.Align = strconv.FormatInt(l.GuaranteedBaseOffsetAlignment, 10)
	}
	return st
}

// Resolve validates a query and finds the layout to draw: the state's own
// when valid, else the last valid one it carries, else none (picture's
// Layout is nil): a tensor nobody entered would read as the answer.
func Resolve(q url.Values) (v Validated, picture Validated, stale string) {
	st, qvs := LayoutStateFromQuery(q)
	v = Validate(st, qvs)
	if v.Layout != nil {
		v.State = CanonicalState(v)
		return v, v, ""
	}
	if lv, ok := LastValid(st); ok {
		return v, lv, "The inputs have errors: the picture is of the last valid tensor."
	}
	return v, Validated{State: st, Cell: -1}, NothingToDraw
}

// LastValid is the last valid state st carries (its Last), validated and
// canonical, shown with st's labels: what a state with errors still draws,
// on its page and over the websocket alike. ok is false when st carries
// none, or one that is not valid either.
func LastValid(st LayoutState) (lv Validated, ok bool) {
	lq, ok := LastQuery(st.Last, MaxQueryLen)
	if !ok {
		return Validated{}, false
	}
	lst, lvs := LayoutStateFromQuery(lq)
	lst.Labels = st.Labels
	if lv = Validate(lst, lvs); lv.Layout == nil {
		return Validated{}, false
	}
	lv.State = CanonicalState(lv)
	return lv, true
}

// LastQuery is the query of a state's last valid one (its `last`), when
// there is one and it is at most maxLen bytes and parses; a `last` of
// its own, which a page never writes there, is dropped, so that a last
// state is never followed further back.
func LastQuery(last string, maxLen int) (url.Values, bool) {
	if last == "" || len(last) > maxLen {
		return nil, false
	}
	lq, err := url.ParseQuery(last)
	if err != nil {
		return nil, false
	}
	lq.Del("last")
	return lq, true
}

// NothingToDraw is the stale note of a state with errors and no last
// valid one.
const NothingToDraw = "The inputs have errors: fix them to see a picture."

func UnknownPreset(name string) core.Violation {
	return core.NewMsg("query.preset", "unknown example {name:q}", core.Args{"name": name}).At("preset")
}

// ParseRank reads a typed rank: a DimensionCount from 1 to
// core.MaxDimensionCount, or ok false.
func ParseRank(r string) (n int, ok bool) {
	n, err := strconv.Atoi(r)
	return n, err == nil && n >= 1 && n <= core.MaxDimensionCount
}

func BadRank(r string) core.Violation {
	return core.NewMsg("query.rank", "rank {rank:q}: DimensionCount must be between 1 and {max}", core.Args{"rank": r, "max": core.MaxDimensionCount}).At("rank")
}

// RowStrides are the strides of a mode=rows state of sizes, or the
// violations at its order and pitch fields.
func RowStrides(st LayoutState, sizes []int64) ([]int64, []core.Violation) {
	pitch := int64(1)
	if st.Pitch != "" {
		n, err := ParseWhole("pitch", st.Pitch, wantPitch)
		if err != nil {
			return nil, []core.Violation{core.ViolationOf("pitch", err)}
		}
		pitch = n
	}
	rs, err := core.RowStrides(st.Order, sizes, pitch)
	if err != nil {
		field := "pitch"
		if m, ok := err.(core.Msg); ok && m.Code == "rows.order" {
			field = "order"
		}
		return nil, []core.Violation{core.ViolationOf(field, err)}
	}
	return rs, nil
}
