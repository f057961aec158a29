package slice1

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"math"
	"net/url"
	"runtime"
	"slices"
	"testing"

	"github.com/stridescope/stridescope/core"
)

// The page and the edit draw the same picture and read only the cells
// they show; the canvases' values are the page's to compute, from the
// meta's fill flag and pattern.
func TestSliceMetaTellsThePageHowToFill(t *testing.T) {
	tests := []struct {
		name, query string
		fill        bool
		pattern     []byte // the typed values' raw elements
	}{
		{name: "example 2", query: "preset=example2", fill: true},
		{name: "typed values", query: "preset=example2&vals=10,20,30", fill: true, pattern: f32s(10, 20, 30)},
		{name: "broadcast typed values", query: "preset=broadcast&vals=1,2,3", fill: true, pattern: f32s(1, 2, 3)},
		{name: "UINT8 wraps", query: "dt=UINT8&sizes=16,16&woff=0,0&wsize=16,16&wstride=1,1", fill: true},
		{name: "FLOAT16", query: "dt=FLOAT16&sizes=2&woff=0&wsize=2&wstride=-1&vals=0.1,65504", fill: true, pattern: []byte{0x66, 0x2e, 0xff, 0x7b}},
		{name: "INT16 negative", query: "dt=INT16&sizes=300,40&vals=-2,7", fill: true, pattern: []byte{0xfe, 0xff, 7, 0}},
		{name: "canvases", query: "sizes=300,300&woff=5,7&wsize=200,250&wstride=-3,2&vals=4,-2,9", fill: true, pattern: f32s(4, -2, 9)},
		{name: "buffer too large to fill", query: "dt=FLOAT64&sizes=3,3&strides=5000000,1", fill: false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q, err := url.ParseQuery(tt.query)
			if err != nil {
				t.Fatal(err)
			}
			_, v, _ := Resolve(q)
			if v.Slice == nil {
				t.Fatal("invalid query")
			}
			_, _, p, err := Draw(context.Background(), v)
			if err != nil {
				t.Fatal(err)
			}
			if p.Meta.Fill != tt.fill {
				t.Errorf("fill %v, want %v", p.Meta.Fill, tt.fill)
			}
			if want := base64.StdEncoding.EncodeToString(tt.pattern); p.Meta.Pattern != want {
				t.Errorf("pattern %q, want %q", p.Meta.Pattern, want)
			}
			if tt.fill && len(p.Meta.Values) == 0 {
				t.Error("no values")
			}
		})
	}
}

func f32s(vs ...float32) []byte {
	b := make([]byte, 4*len(vs))
	for i, v := range vs {
		binary.LittleEndian.PutUint32(b[4*i:], math.Float32bits(v))
	}
	return b
}

// F1: the page of a 4096×4096 slice filled 16.7 M values (64 MiB in, 64
// MiB out) for canvases the stream draws; it now allocates a few MiB.
func TestSlicePageOfALargeSliceAllocatesLittle(t *testing.T) {
	q, _ := url.ParseQuery("sizes=4096,4096")
	_, v, _ := Resolve(q)
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	_, _, pg, err := Draw(context.Background(), v)
	runtime.ReadMemStats(&ms1)
	if err != nil {
		t.Fatal(err)
	}
	alloc := int64(ms1.TotalAlloc - ms0.TotalAlloc)
	t.Logf("allocated %d bytes", alloc)
	if alloc > 16<<20 {
		t.Errorf("allocated %d bytes, want under 16 MiB", alloc)
	}
	if len(pg.Meta.Values) != 4096 || pg.Meta.Values[4095] != "4096" {
		t.Errorf("%d values, the last %q", len(pg.Meta.Values), pg.Meta.Values[len(pg.Meta.Values)-1])
	}
}

// TestTypedFloatValuesRoundAsIEEE: a typed value is refused only when the
// data type would store it as infinity. IEEE rounding (to nearest, ties to
// even) takes every FLOAT16 value below 65520 to at most 65504, and the
// printed FLOAT32 maximum 3.4028235e38 (above math.MaxFloat32) to it.
func TestTypedFloatValuesRoundAsIEEE(t *testing.T) {
	for _, c := range []struct {
		dt   core.DataType
		in   string
		bits uint64 // the stored element; unused when refused
		ok   bool
	}{
		{core.Float16, "65504", 0x7bff, true},
		{core.Float16, "65519", 0x7bff, true},
		{core.Float16, "65519.99", 0x7bff, true},
		{core.Float16, "65519.999", 0x7bff, true}, // through a float32 it would round to 65520, then to +Inf
		{core.Float16, "65520", 0, false},
		{core.Float16, "65536", 0, false},
		{core.Float16, "-65504", 0xfbff, true},
		{core.Float16, "-65519.99", 0xfbff, true},
		{core.Float16, "-65520", 0, false},
		{core.Float16, "0.1", 0x2e66, true},
		{core.Float16, "5.960464477539063e-08", 0x0001, true},   // the smallest subnormal
		{core.Float16, "2.9803e-08", 0x0001, true},              // just above half of it
		{core.Float16, "2.98023223876953125e-08", 0x0000, true}, // half of it: a tie, to even
		{core.Float16, "inf", 0, false},
		{core.Float16, "nan", 0, false},
		{core.Float32, "3.4028235e38", uint64(math.Float32bits(math.MaxFloat32)), true},
		{core.Float32, "-3.4028235e38", uint64(math.Float32bits(-math.MaxFloat32)), true},
		{core.Float32, "3.41e38", 0, false},
		{core.Float64, "1.7976931348623157e308", math.Float64bits(math.MaxFloat64), true},
		{core.Float64, "1.8e308", 0, false},
	} {
		vals, vs := ParseValues(c.in, c.dt)
		if !c.ok {
			if want := map[bool]string{true: "values.float", false: "values.int"}[c.dt.IsFloat()]; len(vs) != 1 || vs[0].Code != want || vs[0].Field != "values" {
				t.Errorf("%s %s: accepted (%v)", c.dt, c.in, vs)
			}
			continue
		}
		if len(vs) != 0 {
			t.Errorf("%s %s: refused: %v", c.dt, c.in, vs[0].Message)
			continue
		}
		b := make([]byte, 8)
		putValue(b, c.dt, vals[0])
		if got := binary.LittleEndian.Uint64(b); got != c.bits {
			t.Errorf("%s %s: stored %#x, want %#x", c.dt, c.in, got, c.bits)
		}
	}
}

// TestF64ToF16RoundsToNearestEven: every finite half is kept, and a value
// between two halves goes to the nearer, a tie to the even one; past the
// largest half the next would be 65536, so from 65520 on it is infinity.
func TestF64ToF16RoundsToNearestEven(t *testing.T) {
	for h := uint16(0); h < 0x7c00; h++ {
		v := float64(f16ToF32(h))
		next := 65536.0
		if h < 0x7bff {
			next = float64(f16ToF32(h + 1))
		}
		mid := (v + next) / 2 // exact: a half has 11 significant bits
		even := h
		if h&1 == 1 {
			even = h + 1
		}
		for _, c := range []struct {
			f    float64
			want uint16
		}{
			{v, h}, {mid, even}, {math.Nextafter(mid, 0), h}, {math.Nextafter(mid, math.Inf(1)), h + 1},
		} {
			if got := f64ToF16(c.f); got != c.want {
				t.Fatalf("f64ToF16(%v) = %#x, want %#x", c.f, got, c.want)
			}
			if got := f64ToF16(-c.f); got != c.want|0x8000 {
				t.Fatalf("f64ToF16(%v) = %#x, want %#x", -c.f, got, c.want|0x8000)
			}
		}
	}
}

// TestSliceValueErrorsComeWithTheWindowsErrors: the values are judged
// against the data type asked for even when the window is wrong, so that
// every violation is reported at once.
func TestSliceValueErrorsComeWithTheWindowsErrors(t *testing.T) {
	for _, c := range []struct {
		query string
		want  []string
	}{
		// A violation for each bad value, each with its rule's code.
		{"dt=INT8&sizes=4&woff=0&wsize=4&wstride=0&vals=1,2,x,300", []string{"inputWindowStrides[0]", "values", "values"}},
		{"dt=INT8&sizes=4&woff=0&wsize=4&wstride=1&vals=1,2,x,300", []string{"values", "values"}},
		{"dt=INT8&sizes=4&woff=0&wsize=4&wstride=0&vals=1,2", []string{"inputWindowStrides[0]"}},
	} {
		q, err := url.ParseQuery(c.query)
		if err != nil {
			t.Fatal(err)
		}
		st, qvs := StateFromQuery(q)
		v := Validate(st, qvs)
		var got []string
		for _, e := range v.Errors {
			got = append(got, e.Field)
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: errors at %q, want %q (%v)", c.query, got, c.want, v.Errors)
		}
	}
}
