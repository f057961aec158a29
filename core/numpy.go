package core

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// NumpyWindow is NumPy basic slicing turned into the canonical tight
// DML_SLICE1 window (directml-rules.md section 7).
type NumpyWindow struct {
	WindowOffsets []int64
	WindowSizes   []int64
	WindowStrides []int64
	OutputSizes   []int64
	// DroppedAxes are the axes an integer index selects; NumPy removes them
	// after the slice (a reshape, outside DML_SLICE1).
	DroppedAxes []int
	// Indices is Python's slice.indices(n) per axis: start, stop, step,
	// the step clamped into int64 (PythonIndices has it exactly).
	Indices [][3]int64
	// exactSteps are the steps written past int64, in decimal, by axis.
	exactSteps map[int]string
}

// PythonIndices is Indices in decimal with every step as Python reads it:
// slice.indices keeps a step past 64 bits whole (start and stop are
// clamped into the axis, so they always fit).
func (w *NumpyWindow) PythonIndices() [][3]string {
	out := make([][3]string, len(w.Indices))
	for i, ix := range w.Indices {
		out[i] = [3]string{strconv.FormatInt(ix[0], 10), strconv.FormatInt(ix[1], 10), strconv.FormatInt(ix[2], 10)}
		if e, ok := w.exactSteps[i]; ok {
			out[i][2] = e
		}
	}
	return out
}

// numpyItem is one comma-separated entry of a subscript.
type numpyItem struct {
	ellipsis bool
	isIndex  bool
	index    int64
	typed    string // the index as written, for one past int64 (index is clamped)
	start    *int64
	stop     *int64
	step     *int64
	// stepExact is the step in decimal when it is past int64 (step is
	// clamped).
	stepExact string
}

// MaxNumpyExpressionLength caps the text ParseNumpy reads.
const MaxNumpyExpressionLength = 1024

// ParseNumpy parses a NumPy basic-slicing expression such as
// "x[1:4, ::-2]" (the "x[...]" wrapper is optional) against an input of
// the given sizes. Errors read like NumPy's own and name the axis.
func ParseNumpy(inputSizes []int64, expr string) (*NumpyWindow, error) {
	if len(expr) > MaxNumpyExpressionLength {
		return nil, NewMsg("numpy.length", "the expression is {length} characters long; at most {max} are read", Args{"length": len(expr), "max": MaxNumpyExpressionLength})
	}
	sub, err := parseSubscript(asciiForms(expr))
	if err != nil {
		return nil, err
	}
	w, axis, err := numpyWindowOf(inputSizes, sub.items)
	if err != nil && axis >= 0 {
		if form := sub.ellipsisForm(inputSizes); form != "" {
			return nil, NewMsg("numpy.ellipsis.hint", "{cause}. NumPy applies the {count} to the first axes of {rank}; to index the last ones, write {form:q}",
				Args{"cause": err, "count": Count{int64(len(sub.items)), "entries"}, "rank": Count{int64(len(inputSizes)), "dimensions"}, "form": form})
		}
	}
	return w, err
}

// ellipsisForm is the subscript with "..., " before its entries, when
// it has fewer entries than the input has axes and no ellipsis, and that
// form selects something: NumPy applies x[1:4, ::-2] to axes 0 and 1 of
// a 4-D input, and someone who meant its last two axes (H and W of NCHW)
// gets an empty selection or an index out of bounds on axis 0 or 1.
// "" when that is not the case.
func (s subscript) ellipsisForm(inputSizes []int64) string {
	if len(s.items) >= len(inputSizes) {
		return ""
	}
	for _, it := range s.items {
		if it.ellipsis {
			return ""
		}
	}
	items := append([]numpyItem{{ellipsis: true}}, s.items...)
	if _, _, err := numpyWindowOf(inputSizes, items); err != nil {
		return ""
	}
	name := s.name
	if name == "" {
		name = "x"
	}
	return name + "[..., " + strings.Join(s.entries, ", ") + "]"
}

// numpyWindowOf is the window items select on an input of inputSizes.
// An error an entry's own axis causes (an index out of bounds, an empty
// selection) comes with that axis; any other with -1.
func numpyWindowOf(inputSizes []int64, items []numpyItem) (*NumpyWindow, int, error) {
	n := len(inputSizes)
	// Expand "..." and missing trailing axes into full slices.
	ell := -1
	for i, it := range items {
		if it.ellipsis {
			if ell >= 0 {
				return nil, -1, NewMsg("numpy.ellipsis", "an index can only have a single ellipsis ('...')", nil)
			}
			ell = i
		}
	}
	explicit := len(items)
	if ell >= 0 {
		explicit--
	}
	if explicit > n {
		return nil, -1, NewMsg("numpy.indices", "too many indices for array: the array has {rank}, but {count} were indexed", Args{"rank": Count{int64(n), "dimensions"}, "count": explicit})
	}
	var axes []numpyItem
	for _, it := range items {
		if it.ellipsis {
			for range n - explicit {
				axes = append(axes, numpyItem{})
			}
			continue
		}
		axes = append(axes, it)
	}
	for len(axes) < n {
		axes = append(axes, numpyItem{})
	}

	w := &NumpyWindow{
		WindowOffsets: make([]int64, n),
		WindowSizes:   make([]int64, n),
		WindowStrides: make([]int64, n),
		OutputSizes:   make([]int64, n),
		Indices:       make([][3]int64, n),
	}
	var empty []string
	firstEmpty := -1
	for i, it := range axes {
		size := inputSizes[i]
		if size < 1 {
			return nil, -1, NewMsg("numpy.size", "inputSizes[{axis}] = {value}: every size must be at least 1", Args{"axis": i, "value": size})
		}
		if it.isIndex {
			idx := it.index
			if idx < 0 {
				idx += size
			}
			if idx < 0 || idx >= size {
				// The index as typed, not as clamped into int64.
				var index any = it.index
				if it.typed != "" {
					index = it.typed
				}
				return nil, i, NewMsg("numpy.index.bounds", "index {index} is out of bounds for axis {axis} with size {size}", Args{"index": index, "axis": i, "size": size})
			}
			w.WindowOffsets[i], w.WindowSizes[i], w.WindowStrides[i], w.OutputSizes[i] = idx, 1, 1, 1
			w.Indices[i] = [3]int64{idx, idx + 1, 1}
			w.DroppedAxes = append(w.DroppedAxes, i)
			continue
		}
		start, stop, step, err := sliceIndices(it, size)
		if err != nil {
			return nil, -1, NewMsg("numpy.axis", "axis {axis}: {cause}", Args{"axis": i, "cause": err})
		}
		w.Indices[i] = [3]int64{start, stop, step}
		if it.stepExact != "" {
			if w.exactSteps == nil {
				w.exactSteps = map[int]string{}
			}
			w.exactSteps[i] = it.stepExact
		}
		k := sliceLen(start, stop, step)
		if k == 0 {
			empty = append(empty, strconv.Itoa(i))
			if firstEmpty < 0 {
				firstEmpty = i
			}
			continue
		}
		if step < -1<<31 || step > 1<<31-1 {
			// InputWindowStrides are INT. One element is copied by any
			// stride; two or more this far apart by none.
			if k > 1 {
				return nil, -1, NewMsg("numpy.step.int", "axis {axis}: step {step} selects {count} elements, but DML_SLICE1's InputWindowStrides are INT (-2^31 to 2^31-1), so no DML_SLICE1 copies them", Args{"axis": i, "step": step, "count": k})
			}
			step = 1
			if *it.step < 0 {
				step = -1
			}
		}
		w.WindowStrides[i], w.OutputSizes[i] = step, k
		w.WindowSizes[i] = (k-1)*abs64(step) + 1
		if step > 0 {
			w.WindowOffsets[i] = start
		} else {
			w.WindowOffsets[i] = start - (k-1)*abs64(step)
		}
	}
	if len(empty) > 0 {
		return nil, firstEmpty, NewMsg("numpy.empty", "the selection is empty on axis {axes}: DML_SLICE1 requires a non-empty window and OutputSizes[i] >= 1, so no DML_SLICE1 exists for an empty NumPy selection", Args{"axes": strings.Join(empty, ", ")})
	}
	return w, -1, nil
}

// asciiForms reads the full-width forms a Chinese, Japanese or Korean
// keyboard types in its own mode (U+FF01 to U+FF5E: ，；：［］０-９－ and
// the rest of ASCII's printable marks) as their ASCII forms, and the
// ideographic space as a space, so that x［1：4，：：－2］ is x[1:4, ::-2].
// Nothing else changes: the text is then read with Python's rules.
func asciiForms(s string) string {
	if !strings.ContainsFunc(s, isFullWidth) {
		return s
	}
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\u3000':
			return ' '
		case r >= '\uff01' && r <= '\uff5e':
			return r - 0xff01 + '!'
		}
		return r
	}, s)
}

func isFullWidth(r rune) bool { return r == '\u3000' || r >= '\uff01' && r <= '\uff5e' }

// sliceIndices is Python's slice.indices(size).
func sliceIndices(it numpyItem, size int64) (start, stop, step int64, err error) {
	step = 1
	if it.step != nil {
		step = *it.step
	}
	if step == 0 {
		return 0, 0, 0, NewMsg("numpy.step.zero", "slice step cannot be zero", nil)
	}
	lower, upper := int64(0), size
	if step < 0 {
		lower, upper = -1, size-1
	}
	clamp := func(v *int64, def int64) int64 {
		if v == nil {
			return def
		}
		x := *v
		if x < 0 {
			x += size
			if x < lower {
				x = lower
			}
		} else if x > upper {
			x = upper
		}
		return x
	}
	if step > 0 {
		return clamp(it.start, lower), clamp(it.stop, upper), step, nil
	}
	return clamp(it.start, upper), clamp(it.stop, lower), step, nil
}

func sliceLen(start, stop, step int64) int64 {
	if step > 0 {
		if stop <= start {
			return 0
		}
		return (stop-start-1)/step + 1
	}
	if start <= stop {
		return 0
	}
	return (start-stop-1)/(-step) + 1
}

// chained is a subscript followed by another, x[1:4][0] or x[1:4] [0].
var chained = regexp.MustCompile(`\]\s*\[`)

// subscript is what parseSubscript read: the name before '[' ("" when
// none), the entries as written (trimmed) and what each one is.
type subscript struct {
	name    string
	entries []string
	items   []numpyItem
}

func parseSubscript(expr string) (subscript, error) {
	var sub subscript
	s := strings.TrimSpace(expr)
	if open := strings.IndexByte(s, '['); open >= 0 {
		name := strings.TrimSpace(s[:open])
		sub.name = name
		if name != "" && !isIdentifier(name) {
			return sub, NewMsg("numpy.name", "expected a name such as x before '[', found {name:q}", Args{"name": name})
		}
		if !strings.HasSuffix(s, "]") {
			return sub, NewMsg("numpy.bracket", "missing ']' at the end of {expr:q}", Args{"expr": expr})
		}
		s = s[open+1 : len(s)-1]
	}
	if chained.MatchString(s) {
		return sub, NewMsg("numpy.chained", "chained indexing ([...][...]): only one subscript, x[...], is read; write the view as one subscript", nil)
	}
	if strings.ContainsAny(s, "[]") {
		return sub, NewMsg("numpy.nested", "nested brackets: only basic slicing (integers, slices and ...) is supported", nil)
	}
	// A parenthesised tuple is the same index: x[(1, ::2)] is x[1, ::2],
	// and x[()], the empty tuple, is the whole tensor.
	if t := strings.TrimSpace(s); strings.HasPrefix(t, "(") && strings.HasSuffix(t, ")") && !strings.ContainsAny(t[1:len(t)-1], "()") {
		s = t[1 : len(t)-1]
		if strings.TrimSpace(s) == "" {
			s = "..."
		}
	}
	if strings.TrimSpace(s) == "" {
		return sub, NewMsg("numpy.subscript.empty", "the subscript is empty: write x[...] or x[:] for the whole tensor", nil)
	}
	parts := strings.Split(s, ",")
	// A single trailing comma is allowed, as in Python.
	if len(parts) > 1 && strings.TrimSpace(parts[len(parts)-1]) == "" {
		parts = parts[:len(parts)-1]
	}
	if strings.Contains(s, ";") {
		return sub, NewMsg("numpy.semicolon", "';' is not part of a subscript: write ',' between entries (x[1, 2]) and ':' inside a slice (x[1:4])", nil)
	}
	items := make([]numpyItem, 0, len(parts))
	for pos, p := range parts {
		p = strings.TrimSpace(p)
		sub.entries = append(sub.entries, p)
		switch {
		case p == "...", p == "Ellipsis":
			items = append(items, numpyItem{ellipsis: true})
		case p == "None", p == "np.newaxis", p == "numpy.newaxis":
			return sub, NewMsg("numpy.newaxis", "entry {entry}: {item} inserts a new axis of size 1, which DML_SLICE1 cannot: its output has the input's DimensionCount. Slice without it and add the axis by reshaping the output (its sizes and strides)", Args{"entry": pos, "item": p})
		case p == "":
			return sub, NewMsg("numpy.entry.empty", "entry {entry} is empty", Args{"entry": pos})
		case !strings.Contains(p, ":"):
			v, err := parsePyInt(p)
			if err != nil {
				return sub, NewMsg("numpy.entry", "entry {entry}: {cause}", Args{"entry": pos, "cause": err})
			}
			it := numpyItem{isIndex: true, index: v}
			if v == math.MaxInt64 || v == math.MinInt64+1 {
				it.typed = strings.TrimSpace(p)
			}
			items = append(items, it)
		default:
			fields := strings.Split(p, ":")
			if len(fields) > 3 {
				return sub, NewMsg("numpy.slice.parts", "entry {entry} {item:q}: a slice has at most start:stop:step", Args{"entry": pos, "item": p})
			}
			var it numpyItem
			targets := []**int64{&it.start, &it.stop, &it.step}
			for k, f := range fields {
				f = strings.TrimSpace(f)
				if f == "" || f == "None" {
					continue
				}
				v, err := parsePyInt(f)
				if err != nil {
					return sub, NewMsg("numpy.entry", "entry {entry}: {cause}", Args{"entry": pos, "cause": err})
				}
				*targets[k] = &v
				if k == 2 && (v == math.MaxInt64 || v == math.MinInt64+1) {
					it.stepExact = pyIntDecimal(f)
				}
			}
			items = append(items, it)
		}
	}
	sub.items = items
	return sub, nil
}

// parsePyInt reads a Python integer literal with an optional sign:
// decimal, 0x, 0o or 0b, underscores only between digits, no leading
// zeros on a decimal. Values past int64 are clamped, which slicing then
// clamps to the axis anyway.
func parsePyInt(s string) (int64, error) {
	body, neg := pySigns(s)
	bad := NewMsg("numpy.int", "{text:q} is not an integer, a slice or '...' (only basic slicing is supported)", Args{"text": s})
	if body == "" || body[0] < '0' || body[0] > '9' {
		return 0, bad
	}
	if len(body) > 1 && body[0] == '0' && body[1] >= '0' && body[1] <= '9' || len(body) > 1 && body[0] == '0' && body[1] == '_' {
		if strings.Trim(body, "0_") != "" {
			return 0, NewMsg("numpy.int.zeros", "{text:q}: leading zeros in decimal integer literals are not permitted (Python's rule)", Args{"text": s})
		}
		body = "0"
	}
	// Go's base-0 syntax matches Python's for prefixes and underscores.
	u, err := strconv.ParseUint(body, 0, 64)
	var ne *strconv.NumError
	switch {
	case err == nil:
	case errors.As(err, &ne) && ne.Err == strconv.ErrRange:
		u = math.MaxUint64
	default:
		return 0, bad
	}
	switch {
	case neg && u > math.MaxInt64:
		return math.MinInt64 + 1, nil
	case neg:
		return -int64(u), nil
	case u > math.MaxInt64:
		return math.MaxInt64, nil
	}
	return int64(u), nil
}

// pySigns splits an integer literal's run of unary signs from its digits,
// as Python applies them: --1 is 1, -+-1 is 1.
func pySigns(s string) (body string, neg bool) {
	body = strings.TrimSpace(s)
	for body != "" && (body[0] == '-' || body[0] == '+') {
		neg = neg != (body[0] == '-')
		body = strings.TrimSpace(body[1:])
	}
	return body, neg
}

// pyIntDecimal is a Python integer literal parsePyInt read, written in
// decimal however large.
func pyIntDecimal(s string) string {
	body, neg := pySigns(s)
	if strings.Trim(body, "0_") == "" {
		return "0"
	}
	var v big.Int
	if _, ok := v.SetString(body, 0); !ok {
		return ""
	}
	if neg {
		v.Neg(&v)
	}
	return v.String()
}

func isIdentifier(s string) bool {
	for i, r := range s {
		ok := r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9'
		if !ok {
			return false
		}
	}
	return s != ""
}

// FormatNumpy writes the NumPy expression that copies the same elements as
// a DML_SLICE1 window with the given output sizes. A negative-step stop
// below 0 is omitted (x[2::-1]); writing -1 would mean the last element.
func FormatNumpy(offsets, sizes, strides, outputSizes []int64) string {
	parts := make([]string, len(offsets))
	for i := range offsets {
		o, st, out := offsets[i], strides[i], outputSizes[i]
		if st > 0 {
			stop := o + (out-1)*st + 1
			if st == 1 {
				parts[i] = fmt.Sprintf("%d:%d", o, stop)
			} else {
				parts[i] = fmt.Sprintf("%d:%d:%d", o, stop, st)
			}
			continue
		}
		a := o + sizes[i] - 1
		last := a - (out-1)*(-st)
		if last-1 < 0 {
			parts[i] = fmt.Sprintf("%d::%d", a, st)
		} else {
			parts[i] = fmt.Sprintf("%d:%d:%d", a, last-1, st)
		}
	}
	return "x[" + strings.Join(parts, ", ") + "]"
}

// Numpy is FormatNumpy of the slice.
func (s *Slice1) Numpy() string {
	return FormatNumpy(s.WindowOffsets, s.WindowSizes, s.WindowStrides, s.OutputSizes)
}

// ONNXSlice holds the inputs of an ONNX Slice (opset 13) node that copies
// the same elements as a DML_SLICE1.
type ONNXSlice struct {
	Starts []int64 `json:"starts"`
	Ends   []int64 `json:"ends"`
	Axes   []int64 `json:"axes"`
	Steps  []int64 `json:"steps"`
}

// ONNX returns the ONNX Slice of s. For a negative step that reaches index
// 0 the end is -(size+1), which ONNX clamps to "before the first element"
// (-1 would mean the last).
func (s *Slice1) ONNX() ONNXSlice {
	n := len(s.CopyStart)
	o := ONNXSlice{Starts: make([]int64, n), Ends: make([]int64, n), Axes: make([]int64, n), Steps: make([]int64, n)}
	for i := range n {
		st := s.WindowStrides[i]
		first := s.CopyStart[i]
		last := first + (s.OutputSizes[i]-1)*st
		o.Starts[i], o.Axes[i], o.Steps[i] = first, int64(i), st
		if st > 0 {
			o.Ends[i] = last + 1
		} else if last-1 >= 0 {
			o.Ends[i] = last - 1
		} else {
			o.Ends[i] = -(s.Input.Sizes[i] + 1)
		}
	}
	return o
}
