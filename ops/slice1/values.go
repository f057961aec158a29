package slice1

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
)

// Value is one value of the input: the bits of an integer (two's
// complement) or a float.
type Value struct {
	bits    uint64
	f       float64
	isFloat bool
}

// defaultValue is the value of element i when none are typed: i+1, as the
// DirectML page fills its input with 1..16. Integers wrap at the type's
// width (see ValuesNote).
func defaultValue(i int64, dt core.DataType) Value {
	return Value{bits: uint64(i + 1), f: float64(i + 1), isFloat: dt.IsFloat()}
}

// decimalComma is a value written as a decimal with a comma ("1,5"), as
// French and Portuguese write 1.5: a token of the values box, between
// spaces (or alone), of digits, one comma and digits. "1,2,3" is a list.
var decimalComma = regexp.MustCompile(`(?:^|\s)(-?[0-9]+),([0-9]+)(?:\s|$)`)

// decimalCommas warns, at the values box, of the first value written with
// a decimal comma: the box reads a comma as a separator, so "1,5 2,5" is
// four values, which nothing else would say.
func decimalCommas(text string) []core.Violation {
	m := decimalComma.FindStringSubmatch(picture.AsciiNumber(text))
	if m == nil {
		return nil
	}
	return []core.Violation{core.NewMsg("values.comma",
		"{text:q} is read as two values, {a} and {b}: a comma separates values; write a decimal with a point ({a}.{b})",
		core.Args{"text": m[1] + "," + m[2], "a": m[1], "b": m[2]}).At("values")}
}

// ParseValues reads the values box: numbers separated by commas, spaces
// or newlines (brackets are ignored, so a pasted NumPy array works), at
// most maxSliceValues, each a value of dt.
func ParseValues(text string, dt core.DataType) ([]Value, []core.Violation) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	words := strings.FieldsFunc(text, func(r rune) bool {
		return r == ',' || r == ' ' || r == '\n' || r == '\r' || r == '\t' || r == ';' || r == '[' || r == ']'
	})
	if len(words) > maxSliceValues {
		return nil, []core.Violation{core.NewMsg("values.count", "{count} values: the page takes at most {max} (they repeat to fill the input); leave the box empty for 1..N", core.Args{"count": len(words), "max": maxSliceValues}).At("values")}
	}
	if len(words) == 0 {
		return nil, nil
	}
	out := make([]Value, len(words))
	// The first three bad values, each with its own rule's code (values.int,
	// values.float): more would crowd the box's warning, and they repeat.
	var vs []core.Violation
	for i, w := range words {
		v, msg := parseValue(w, dt)
		if msg != nil {
			if len(vs) < maxBadValues {
				vs = append(vs, msg.At("values"))
			}
			continue
		}
		out[i] = v
	}
	if len(vs) > 0 {
		return nil, vs
	}
	return out, nil
}

// maxBadValues is how many bad values ParseValues reports.
const maxBadValues = 3

func parseValue(w string, dt core.DataType) (Value, *core.Msg) {
	if dt.IsFloat() {
		f, err := strconv.ParseFloat(picture.AsciiNumber(w), 64)
		limit := map[core.DataType]float64{core.Float16: 65504, core.Float32: math.MaxFloat32, core.Float64: math.MaxFloat64}[dt]
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || !finiteIn(dt, f) {
			m := core.NewMsg("values.float", "value {value:q} is not a finite {type} (at most ±{limit})", core.Args{"value": w, "type": dt, "limit": strconv.FormatFloat(limit, 'g', -1, 64)})
			return Value{}, &m
		}
		return Value{f: f, isFloat: true}, nil
	}
	bits := dt.Bits()
	if !dt.IsSigned() {
		u, err := strconv.ParseUint(picture.AsciiNumber(w), 10, 64)
		if err != nil || bits < 64 && u >= 1<<bits {
			m := core.NewMsg("values.uint", "value {value:q} is not a {type} (a whole number from 0 to {max})", core.Args{"value": w, "type": dt, "max": uint64(1)<<bits - 1})
			return Value{}, &m
		}
		return Value{bits: u}, nil
	}
	n, err := strconv.ParseInt(picture.AsciiNumber(w), 10, 64)
	lo, hi := int64(-1)<<(bits-1), int64(1)<<(bits-1)-1
	if bits == 64 {
		lo, hi = math.MinInt64, math.MaxInt64
	}
	if err != nil || n < lo || n > hi {
		m := core.NewMsg("values.int", "value {value:q} is not an {type} (a whole number from {min} to {max})", core.Args{"value": w, "type": dt, "min": lo, "max": hi})
		return Value{}, &m
	}
	return Value{bits: uint64(n)}, nil
}

// finiteIn says whether f, rounded to the nearest dt (ties to even), is
// finite: a value past the largest one rounds down to it until half an
// ulp above it, so FLOAT16 takes every |f| < 65520 (65519 is stored as
// 65504) and FLOAT32 the printed maximum 3.4028235e38.
func finiteIn(dt core.DataType, f float64) bool {
	switch dt {
	case core.Float16:
		return f64ToF16(f)&0x7fff != 0x7c00
	case core.Float32:
		return !math.IsInf(float64(float32(f)), 0)
	}
	return true // ParseFloat already refused what a float64 cannot hold
}

// putValue writes v as one element of dt at the start of b.
func putValue(b []byte, dt core.DataType, v Value) {
	if dt.IsFloat() {
		f := v.f
		if !v.isFloat {
			f = float64(v.bits)
		}
		switch dt {
		case core.Float16:
			binary.LittleEndian.PutUint16(b, f64ToF16(f))
		case core.Float32:
			binary.LittleEndian.PutUint32(b, math.Float32bits(float32(f)))
		default:
			binary.LittleEndian.PutUint64(b, math.Float64bits(f))
		}
		return
	}
	switch dt.Bits() {
	case 8:
		b[0] = byte(v.bits)
	case 16:
		binary.LittleEndian.PutUint16(b, uint16(v.bits))
	case 32:
		binary.LittleEndian.PutUint32(b, uint32(v.bits))
	default:
		binary.LittleEndian.PutUint64(b, v.bits)
	}
}

// ValueText reads the element of dt at the start of b as text.
func ValueText(b []byte, dt core.DataType) string {
	switch dt {
	case core.Float16:
		return strconv.FormatFloat(float64(f16ToF32(binary.LittleEndian.Uint16(b))), 'g', -1, 32)
	case core.Float32:
		return strconv.FormatFloat(float64(math.Float32frombits(binary.LittleEndian.Uint32(b))), 'g', -1, 32)
	case core.Float64:
		return strconv.FormatFloat(math.Float64frombits(binary.LittleEndian.Uint64(b)), 'g', -1, 64)
	}
	var u uint64
	switch dt.Bits() {
	case 8:
		u = uint64(b[0])
	case 16:
		u = uint64(binary.LittleEndian.Uint16(b))
	case 32:
		u = uint64(binary.LittleEndian.Uint32(b))
	default:
		u = binary.LittleEndian.Uint64(b)
	}
	if !dt.IsSigned() {
		return strconv.FormatUint(u, 10)
	}
	shift := 64 - dt.Bits()
	return strconv.FormatInt(int64(u<<shift)>>shift, 10)
}

// ValuesNoteIn is ValuesNote in ctx's locale.
func ValuesNoteIn(ctx context.Context, dt core.DataType, n int64, typed bool) string {
	switch note := ValuesNote(dt, n, typed); {
	case note == "":
		return ""
	case dt == core.Float16:
		return i18n.T(ctx, "note.values.f16")
	default:
		top := int64(1)<<dt.Bits() - 1
		if dt.IsSigned() {
			top = int64(1)<<(dt.Bits()-1) - 1
		}
		return i18n.T(ctx, "note.values.wrap", i18n.Args{"type": dt, "top": top})
	}
}

// ValuesNote says when the default 1..N does not fit the data type.
func ValuesNote(dt core.DataType, n int64, typed bool) string {
	if typed {
		return ""
	}
	switch {
	case dt == core.Float16 && n > 2048:
		return "FLOAT16 holds whole numbers exactly only up to 2048: the values 1..N round above it."
	case !dt.IsFloat() && dt.Bits() < 64:
		bits := dt.Bits()
		top := int64(1)<<bits - 1
		if dt.IsSigned() {
			top = int64(1)<<(bits-1) - 1
		}
		if n > top {
			return fmt.Sprintf("%s holds at most %d: the values 1..N wrap around past it.", dt, top)
		}
	}
	return ""
}

// FillInput writes the input's values into its buffer: element i
// (row-major) gets vals[i mod len(vals)], or i+1 when none were typed. The
// elements are written last to first, so that where several share a cell
// (a broadcast input) the cell holds the first one's value. Padding cells
// stay 0. The slice page computes the same for its canvases (static/fill.js,
// tested against this in the browser); the server reads only the cells it
// shows (SparseCellValues).
func FillInput(ctx context.Context, buf []byte, in *core.Layout, vals []Value) error {
	w := compute.LayoutWalk(in)
	n := w.Len()
	dt := in.DataType
	e := dt.Bits() / 8
	offs := make([]int64, min(n, picture.OffsetChunk))
	for hi := n; hi > 0; hi -= picture.OffsetChunk {
		if err := ctx.Err(); err != nil {
			return err
		}
		lo := max(hi-picture.OffsetChunk, 0)
		chunk := offs[:hi-lo]
		compute.Offsets(w, lo, chunk)
		for j := len(chunk) - 1; j >= 0; j-- {
			i := lo + int64(j)
			v := defaultValue(i, dt)
			if len(vals) > 0 {
				v = vals[i%int64(len(vals))]
			}
			putValue(buf[chunk[j]*e:], dt, v)
		}
	}
	return nil
}

// valuePattern is the typed values as the page repeats them over the
// elements: base64 of their raw little-endian elements of dt.
func valuePattern(dt core.DataType, vals []Value) string {
	e := dt.Bits() / 8
	b := make([]byte, int64(len(vals))*e)
	for i, v := range vals {
		putValue(b[int64(i)*e:], dt, v)
	}
	return base64.StdEncoding.EncodeToString(b)
}

// f64ToF16 is core.Float16Bits: the values and the padding value of
// DML_PADDING1 round alike.
func f64ToF16(f float64) uint16 { return core.Float16Bits(f) }

// f16ToF32 widens an IEEE half.
func f16ToF32(h uint16) float32 {
	sign := uint32(h&0x8000) << 16
	exp := uint32(h>>10) & 0x1f
	mant := uint32(h & 0x3ff)
	switch {
	case exp == 0x1f:
		return math.Float32frombits(sign | 0x7f800000 | mant<<13)
	case exp == 0:
		f := float32(mant) / (1 << 24)
		if sign != 0 {
			f = -f
		}
		return f
	}
	return math.Float32frombits(sign | (exp+112)<<23 | mant<<13)
}

// CellValues reads the input buffer's cells as FillInput leaves them,
// from the first element (row-major) stored at each cell a view shows, so
// that a page never fills a buffer of millions of cells to show a few
// thousand.
type CellValues struct {
	dt    core.DataType
	vals  []Value
	first map[int64]int64 // wanted cell -> the first element stored there
}

// SparseCellValues finds the first element stored at each wanted cell
// (FillInput writes elements last to first, so that one's value stays).
// The walk stops once every wanted cell is found; a cell no element
// holds reads 0, as FillInput leaves it.
func SparseCellValues(ctx context.Context, in *core.Layout, vals []Value, wanted []int64) (*CellValues, error) {
	cv := &CellValues{dt: in.DataType, vals: vals, first: make(map[int64]int64, len(wanted))}
	if len(wanted) == 0 {
		return cv, nil
	}
	lo, hi := wanted[0], wanted[0]
	want := make(map[int64]bool, len(wanted))
	for _, o := range wanted {
		want[o] = true
		lo, hi = min(lo, o), max(hi, o)
	}
	w := compute.LayoutWalk(in)
	n := w.Len()
	offs := make([]int64, min(n, picture.OffsetChunk))
	left := len(want)
	for i := int64(0); i < n && left > 0; i += picture.OffsetChunk {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		chunk := offs[:min(picture.OffsetChunk, n-i)]
		compute.Offsets(w, i, chunk)
		for j, o := range chunk {
			if o < lo || o > hi || !want[o] {
				continue
			}
			if _, ok := cv.first[o]; !ok {
				cv.first[o] = i + int64(j)
				left--
			}
		}
	}
	return cv, nil
}

// put writes the value of cell off into b (one element of dt).
func (cv *CellValues) put(b []byte, off int64) {
	e := int64(cv.dt.Bits() / 8)
	i, ok := cv.first[off]
	switch {
	case !ok:
		clear(b[:e])
	case len(cv.vals) > 0:
		putValue(b, cv.dt, cv.vals[i%int64(len(cv.vals))])
	default:
		putValue(b, cv.dt, defaultValue(i, cv.dt))
	}
}

// Text is the value of cell off as text.
func (cv *CellValues) Text(off int64) string {
	var b [8]byte
	cv.put(b[:], off)
	return ValueText(b[:], cv.dt)
}
