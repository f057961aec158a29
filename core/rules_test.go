package core

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// One table-driven test per rule of directml-rules.md sections 1-7 that the
// worked cases in testdata do not already cover.

// ---- section 1: data types ----

func TestDataTypeElementSizes(t *testing.T) {
	cases := []struct {
		name string
		bits int64
	}{
		{"FLOAT32", 32}, {"UINT32", 32}, {"INT32", 32},
		{"FLOAT16", 16}, {"UINT16", 16}, {"INT16", 16},
		{"UINT8", 8}, {"INT8", 8},
		{"FLOAT64", 64}, {"UINT64", 64}, {"INT64", 64},
		{"UINT4", 4}, {"INT4", 4},
	}
	seen := map[DataType]bool{}
	for _, c := range cases {
		for _, spelling := range []string{c.name, strings.ToLower(c.name), "DML_TENSOR_DATA_TYPE_" + c.name, " " + c.name + " "} {
			dt, err := ParseDataType(spelling)
			if err != nil {
				t.Fatalf("ParseDataType(%q): %v", spelling, err)
			}
			if dt.Bits() != c.bits || !dt.Valid() {
				t.Errorf("%s: %d bits (valid %v), want %d", spelling, dt.Bits(), dt.Valid(), c.bits)
			}
			if dt.String() != c.name || dt.CName() != "DML_TENSOR_DATA_TYPE_"+c.name {
				t.Errorf("%s: String %q CName %q", spelling, dt.String(), dt.CName())
			}
			seen[dt] = true
		}
	}
	all := DataTypes()
	if len(all) != len(cases) || len(seen) != len(cases) {
		t.Errorf("DataTypes() has %d types, the table %d", len(all), len(cases))
	}
	for _, dt := range all {
		if !seen[dt] {
			t.Errorf("DataTypes() lists %v, which the table does not", dt)
		}
	}
	// UNKNOWN parses (so validation can report it) but is never valid.
	u, err := ParseDataType("UNKNOWN")
	if err != nil || u != Unknown || u.Valid() || u.Bits() != 0 {
		t.Errorf("UNKNOWN: %v %v valid %v bits %d", u, err, u.Valid(), u.Bits())
	}
	for _, bad := range []string{"FLOAT8", "", "float", "DML_TENSOR_DATA_TYPE_"} {
		if dt, err := ParseDataType(bad); err == nil {
			t.Errorf("ParseDataType(%q) = %v, want an error", bad, dt)
		}
	}
	if DataType(99).Valid() || DataType(-1).Valid() || DataType(99).Bits() != 0 {
		t.Errorf("out-of-range data types are valid")
	}
	if _, err := NewLayout(TensorDesc{DataType: DataType(99), Sizes: []int64{1}}); err == nil {
		t.Errorf("NewLayout accepted DataType(99)")
	}
}

// ---- section 2: DML_BUFFER_TENSOR_DESC validation ----

func fieldsOf(vs []Violation) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.Field
	}
	return out
}

func int64p(v int64) *int64 { return &v }

func TestNewLayoutReportsEveryViolationInRuleOrder(t *testing.T) {
	cases := []struct {
		name   string
		d      TensorDesc
		fields []string
	}{
		{"one per rule", TensorDesc{DataType: Unknown, Sizes: []int64{2, 0}, Strides: []int64{-1, 1}, TotalTensorSizeInBytes: int64p(-4), GuaranteedBaseOffsetAlignment: 3},
			[]string{"dataType", "sizes[1]", "strides[0]", "totalTensorSizeInBytes", "guaranteedBaseOffsetAlignment"}},
		{"rank and stride length", TensorDesc{DataType: Float32, Sizes: []int64{1, 1, 1, 1, 1, 1, 1, 1, 1}, Strides: []int64{1, 1, 1, 1, 1, 1, 1, 1}},
			[]string{"sizes", "strides"}},
		{"both element counts", TensorDesc{DataType: Float32, Sizes: []int64{65536, 65536}, Strides: []int64{1, 65536}},
			[]string{"sizes", "strides"}},
		{"values past UINT", TensorDesc{DataType: Float16, Sizes: []int64{3, 1 << 40}, Strides: []int64{1, 1 << 33}},
			[]string{"sizes[1]", "strides[1]"}},
		{"size and alignment", TensorDesc{DataType: Float32, Sizes: []int64{2, 3}, Strides: []int64{5, 1}, TotalTensorSizeInBytes: int64p(24), GuaranteedBaseOffsetAlignment: 2},
			[]string{"totalTensorSizeInBytes", "guaranteedBaseOffsetAlignment"}},
		{"bad type and no dimensions", TensorDesc{DataType: DataType(99), Sizes: []int64{}},
			[]string{"dataType", "sizes"}},
		{"every size", TensorDesc{DataType: Int8, Sizes: []int64{0, -2, 1 << 32}},
			[]string{"sizes[0]", "sizes[1]", "sizes[2]"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewLayout(c.d)
			if err == nil {
				t.Fatalf("NewLayout accepted %+v", c.d)
			}
			vs := validationViolations(t, err)
			if got := fieldsOf(vs); !eq(got, c.fields) {
				t.Errorf("violations on %v, want %v\n%v", got, c.fields, err)
			}
		})
	}
}

func TestNewLayoutDimensionCountIsOneToEight(t *testing.T) {
	for rank := 0; rank <= 10; rank++ {
		sizes := make([]int64, rank)
		for i := range sizes {
			sizes[i] = 2
		}
		l, err := NewLayout(TensorDesc{DataType: UInt8, Sizes: sizes})
		valid := rank >= 1 && rank <= 8
		if valid != (err == nil) {
			t.Errorf("rank %d: error %v, want valid %v", rank, err, valid)
			continue
		}
		if valid {
			if l.Rank() != rank || l.LogicalElementCount() != 1<<rank {
				t.Errorf("rank %d: Rank %d count %d", rank, l.Rank(), l.LogicalElementCount())
			}
			continue
		}
		if vs := validationViolations(t, err); !hasViolation(vs, "sizes", fmt.Sprintf("DimensionCount %d", rank)) {
			t.Errorf("rank %d: no sizes violation naming the DimensionCount: %v", rank, vs)
		}
	}
}

func TestTotalTensorSizeInBytesRule(t *testing.T) {
	padded := TensorDesc{DataType: UInt8, Sizes: []int64{2, 3}, Strides: []int64{5, 1}} // minimum 8 bytes
	packed := TensorDesc{DataType: Float32, Sizes: []int64{2, 3}}                       // minimum 24 bytes
	cases := []struct {
		name       string
		d          TensorDesc
		total      *int64
		ok         bool
		warning    bool
		bufferSize int64
	}{
		{"not given", padded, nil, true, false, 8},
		{"the minimum", padded, int64p(8), true, false, 8},
		{"below", padded, int64p(7), false, false, 0},
		{"negative", padded, int64p(-1), false, false, 0},
		{"larger, not DWORD-aligned", padded, int64p(10), true, true, 10},
		{"larger, aligned", padded, int64p(12), true, false, 12},
		{"packed minimum", packed, int64p(24), true, false, 24},
		{"packed below", packed, int64p(20), false, false, 0},
		{"packed much larger", packed, int64p(4096), true, false, 4096},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := c.d
			d.TotalTensorSizeInBytes = c.total
			l, err := NewLayout(d)
			if !c.ok {
				if err == nil {
					t.Fatalf("accepted TotalTensorSizeInBytes %d", *c.total)
				}
				if vs := validationViolations(t, err); !hasViolation(vs, "totalTensorSizeInBytes", fmt.Sprint(*c.total)) {
					t.Errorf("no totalTensorSizeInBytes violation: %v", vs)
				}
				return
			}
			if err != nil {
				t.Fatalf("NewLayout: %v", err)
			}
			if got := len(l.Warnings) > 0; got != c.warning {
				t.Errorf("warnings %v, want a warning: %v", l.Warnings, c.warning)
			}
			if c.warning && !hasViolation(l.Warnings, "totalTensorSizeInBytes", "multiple of 4", "DWORD", "helper") {
				t.Errorf("the warning %v does not state the DWORD rule and its source", l.Warnings)
			}
			if l.BufferSizeInBytes() != c.bufferSize {
				t.Errorf("BufferSizeInBytes = %d, want %d", l.BufferSizeInBytes(), c.bufferSize)
			}
			if want := c.bufferSize * 8 / d.DataType.Bits(); l.BufferElementCount() != want {
				t.Errorf("BufferElementCount = %d, want %d", l.BufferElementCount(), want)
			}
			// The description round-trips.
			again, err := NewLayout(l.Desc())
			if err != nil || !eq(again.Strides, l.Strides) || again.BufferSizeInBytes() != l.BufferSizeInBytes() || again.StridesImplicit != l.StridesImplicit {
				t.Errorf("NewLayout(l.Desc()) = %+v, %v", again, err)
			}
		})
	}
}

func TestGuaranteedBaseOffsetAlignmentRule(t *testing.T) {
	cases := []struct {
		dt        DataType
		alignment int64
		keyword   string // "" when valid
	}{
		{Float32, 0, ""}, {Float32, 4, ""}, {Float32, 16, ""}, {Float32, 1 << 20, ""},
		{Float32, 2, "element size"}, {Float32, 1, "element size"},
		{Float64, 4, "element size"}, {Float64, 8, ""},
		{Float16, 2, ""}, {Float16, 1, "element size"}, {Float16, 3, "power of two"},
		{UInt8, 1, ""}, {Int4, 1, ""},
		{Float32, 24, "power of two"}, {Float32, -8, "power of two"}, {Float32, 12, "power of two"},
		// A UINT: the largest power of two it holds is 2^31; 2^32 and up
		// (2^62 once wrapped into "less than the element size") are not.
		{Float64, 1 << 31, ""}, {Float32, 1 << 32, "UINT maximum"}, {Float64, 1 << 60, "UINT maximum"}, {Float64, 1 << 62, "UINT maximum"},
	}
	for _, c := range cases {
		_, err := NewLayout(TensorDesc{DataType: c.dt, Sizes: []int64{4}, GuaranteedBaseOffsetAlignment: c.alignment})
		if c.keyword == "" {
			if err != nil {
				t.Errorf("%v alignment %d: %v", c.dt, c.alignment, err)
			}
			continue
		}
		if err == nil {
			t.Errorf("%v alignment %d accepted", c.dt, c.alignment)
			continue
		}
		if vs := validationViolations(t, err); !hasViolation(vs, "guaranteedBaseOffsetAlignment", c.keyword) {
			t.Errorf("%v alignment %d: no violation stating %q: %v", c.dt, c.alignment, c.keyword, vs)
		}
	}
}

func TestElementCountLimitsWithoutWrap(t *testing.T) {
	big65536pow8 := new(big.Int).Exp(big.NewInt(65536), big.NewInt(8), nil).String()
	implied8 := new(big.Int).Mul(big.NewInt(8*65535), big.NewInt(MaxUINT))
	implied8.Add(implied8, big.NewInt(1))
	eight := func(v int64) []int64 { return []int64{v, v, v, v, v, v, v, v} }
	cases := []struct {
		name           string
		sizes, strides []int64
		field          string   // "" when valid
		keywords       []string // stated by the violation on field
	}{
		{"2^32-1 packed", []int64{65535, 65537}, nil, "", nil},
		{"2^32-1 one dimension", []int64{MaxUINT}, []int64{1}, "", nil},
		{"2^32 logical", []int64{65536, 65536}, nil, "sizes", []string{"4294967296", "2^32-1"}},
		{"2^32 logical with strides 0", []int64{65536, 65536}, []int64{0, 0}, "sizes", []string{"4294967296"}},
		{"implied exactly 2^32-1", []int64{2}, []int64{MaxUINT - 1}, "", nil},
		{"implied 2^32", []int64{2}, []int64{MaxUINT}, "strides", []string{"4294967296", "2^32-1"}},
		{"size 2^40", []int64{1 << 40}, nil, "sizes[0]", []string{"1099511627776", "2^32-1"}},
		{"stride 2^40", []int64{2}, []int64{1 << 40}, "strides[0]", []string{"1099511627776", "2^32-1"}},
		{"nine dimensions of 2^40", []int64{1 << 40, 1 << 40, 1 << 40, 1 << 40, 1 << 40, 1 << 40, 1 << 40, 1 << 40, 1 << 40}, nil, "sizes", []string{"DimensionCount 9"}},
		{"eight dimensions of 65536", eight(65536), nil, "sizes", []string{big65536pow8}},
		{"eight dimensions of 65536, huge strides", eight(65536), eight(MaxUINT), "strides", []string{implied8.String()}},
		{"eight dimensions of 2^32-1", eight(MaxUINT), eight(MaxUINT), "sizes", []string{new(big.Int).Exp(big.NewInt(MaxUINT), big.NewInt(8), nil).String()}},
		{"int64 extremes", []int64{1<<63 - 1, -1 << 63}, []int64{-1 << 63, 1<<63 - 1}, "sizes[0]", []string{"exceeds"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			l, err := NewLayout(TensorDesc{DataType: Float32, Sizes: c.sizes, Strides: c.strides})
			if c.field != "" {
				if err == nil {
					t.Fatalf("accepted")
				}
				if vs := validationViolations(t, err); !hasViolation(vs, c.field, c.keywords...) {
					t.Errorf("no %s violation stating %q: %v", c.field, c.keywords, vs)
				}
			} else {
				if err != nil {
					t.Fatalf("NewLayout: %v", err)
				}
				if l.LogicalElementCount() > MaxUINT || l.MinimumImpliedElementCount() > MaxUINT {
					t.Errorf("counts %d/%d exceed 2^32-1", l.LogicalElementCount(), l.MinimumImpliedElementCount())
				}
			}
			// The published helper reproduces its wraps without panicking.
			PublishedHelperResult(Float32, c.sizes, c.strides, true)
			PublishedHelperResult(Float32, c.sizes, c.strides, false)
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v", d)
			}
		})
	}
}

func TestLargestTensorFactsAreInstant(t *testing.T) {
	for _, strides := range [][]int64{nil, {65537, 1}} {
		start := time.Now()
		l, err := NewLayout(TensorDesc{DataType: Float32, Sizes: []int64{65535, 65537}, Strides: strides})
		if err != nil {
			t.Fatalf("NewLayout: %v", err)
		}
		const n = 65535 * 65537
		if n != MaxUINT || l.LogicalElementCount() != n || l.MinimumImpliedElementCount() != n {
			t.Errorf("counts %d/%d, want %d", l.LogicalElementCount(), l.MinimumImpliedElementCount(), int64(n))
		}
		if d, ok := l.DistinctOffsetCount(); !ok || d != n {
			t.Errorf("DistinctOffsetCount = (%d, %v), want (%d, true)", d, ok, int64(n))
		}
		if l.IsPacked() != TriTrue || l.HasOverlap() != TriFalse || l.IsPadded() != TriFalse || l.HasBroadcast() {
			t.Errorf("facts %s/%s/%s/%v, want packed", triName(l.IsPacked()), triName(l.HasOverlap()), triName(l.IsPadded()), l.HasBroadcast())
		}
		if got := l.MinimumBufferSizeInBytes(); got != 4*n {
			t.Errorf("buffer %d bytes, want %d", got, int64(4*n))
		}
		if st := l.BufferSizeSteps(); st.SizeInBits != 32*n || st.Result != 4*n {
			t.Errorf("steps %+v", st)
		}
		if _, err := l.Offsets(1 << 20); !errors.Is(err, ErrTooMany) {
			t.Errorf("Offsets past the limit: %v, want ErrTooMany", err)
		}
		if o, err := l.Offset([]int64{65534, 65536}); err != nil || o != n-1 {
			t.Errorf("Offset of the last element = %d, %v", o, err)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("validating and answering took %v", d)
		}
	}
}

func TestLayoutOffsetRejectsBadCoordinates(t *testing.T) {
	l, err := NewLayout(TensorDesc{DataType: Float32, Sizes: []int64{2, 3}, Strides: []int64{5, 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range [][]int64{{1}, {0, 0, 0}, {2, 0}, {0, 3}, {-1, 0}} {
		if o, err := l.Offset(c); err == nil {
			t.Errorf("Offset(%v) = %d, want an error", c, o)
		}
	}
}

// ---- section 3: named layouts and padding to rank ----

func TestLayoutStridesOfNamedLayouts(t *testing.T) {
	// Each stride is the product of the sizes of the dimensions the layout
	// names after it (worked by hand from the rule; sizes in DirectML order).
	cases := []struct {
		name           string
		sizes, strides []int64
	}{
		{"HW", []int64{2, 3}, []int64{3, 1}},
		{"WH", []int64{2, 3}, []int64{1, 2}},
		{"DHW", []int64{2, 3, 5}, []int64{15, 5, 1}},
		{"WHD", []int64{2, 3, 5}, []int64{1, 2, 6}},
		{"NCHW", []int64{2, 3, 5, 7}, []int64{105, 35, 7, 1}},
		{"NHWC", []int64{2, 3, 5, 7}, []int64{105, 1, 21, 3}},
		{"NHWC", []int64{1, 1, 3, 5}, []int64{15, 1, 5, 1}},  // the strides page
		{"NCHW", []int64{1, 1, 3, 5}, []int64{15, 15, 5, 1}}, // the strides page
		{"NCDHW", []int64{2, 3, 5, 7, 11}, []int64{1155, 385, 77, 11, 1}},
		{"NDHWC", []int64{2, 3, 5, 7, 11}, []int64{1155, 1, 231, 33, 3}},
		{"nhwc", []int64{1, 3, 2, 2}, []int64{12, 1, 6, 3}},
	}
	for _, c := range cases {
		got, err := LayoutStrides(c.name, c.sizes)
		if err != nil || !eq(got, c.strides) {
			t.Errorf("LayoutStrides(%s, %v) = %v, %v; want %v", c.name, c.sizes, got, err, c.strides)
			continue
		}
		// A named layout is packed: its offsets are a permutation of
		// 0..n-1.
		f := naiveLayoutFacts(c.sizes, got)
		if !f.packed {
			t.Errorf("%s %v: strides %v are not packed", c.name, c.sizes, got)
		}
		l, err := NewLayout(TensorDesc{DataType: Float32, Sizes: c.sizes, Strides: got})
		if err != nil || l.IsPacked() != TriTrue {
			t.Errorf("%s %v: layout %v packed %v", c.name, c.sizes, err, l)
		}
	}
	for _, n := range NamedLayouts {
		if _, err := LayoutStrides(n, make([]int64, len(n)+1)); err == nil {
			t.Errorf("LayoutStrides(%s) accepted %d sizes", n, len(n)+1)
		}
	}
	errCases := []struct {
		name  string
		sizes []int64
	}{
		{"NWHC", []int64{1, 2, 3, 4}},
		{"CHW", []int64{1, 2, 3}},
		{"", []int64{1}},
		{"NCHW", []int64{2, 3}},
		{"HW", []int64{1, 2, 3, 4}},
		{"NCHW", []int64{65536, 65536, 1, 1}},
	}
	for _, c := range errCases {
		if st, err := LayoutStrides(c.name, c.sizes); err == nil {
			t.Errorf("LayoutStrides(%q, %v) = %v, want an error", c.name, c.sizes, st)
		}
	}
	if got := DimensionLabels(4); !eq(got, []string{"N", "C", "H", "W"}) {
		t.Errorf("DimensionLabels(4) = %v", got)
	}
	if got := DimensionLabels(5); !eq(got, []string{"N", "C", "D", "H", "W"}) {
		t.Errorf("DimensionLabels(5) = %v", got)
	}
}

func TestPadToRankPrependsOnes(t *testing.T) {
	cases := []struct {
		sizes, strides         []int64
		rank                   int
		wantSizes, wantStrides []int64
	}{
		// The strides page: an HW tensor as {1,1,H,W}, packed NCHW strides.
		{[]int64{3, 5}, nil, 4, []int64{1, 1, 3, 5}, nil},
		{[]int64{3, 5}, []int64{5, 1}, 4, []int64{1, 1, 3, 5}, []int64{15, 15, 5, 1}},
		{[]int64{2, 2, 3}, []int64{6, 3, 1}, 5, []int64{1, 1, 2, 2, 3}, []int64{12, 12, 6, 3, 1}},
		{[]int64{1, 1, 3, 5}, nil, 4, []int64{1, 1, 3, 5}, nil},
	}
	for _, c := range cases {
		s, st, err := PadToRank(c.sizes, c.strides, c.rank)
		if err != nil || !eq(s, c.wantSizes) || !eq(st, c.wantStrides) {
			t.Errorf("PadToRank(%v, %v, %d) = %v, %v, %v; want %v, %v", c.sizes, c.strides, c.rank, s, st, err, c.wantSizes, c.wantStrides)
		}
	}
	// Padding never changes which cells the elements use.
	r := rand.New(rand.NewPCG(9, 10))
	for range 300 {
		sizes := randomSizes(r, 3, 4)
		strides, family := randomStrides(r, sizes)
		rank := len(sizes) + r.IntN(MaxDimensionCount-len(sizes)+1)
		ps, pst, err := PadToRank(sizes, strides, rank)
		if err != nil {
			t.Fatalf("PadToRank(%v, %v, %d): %v", sizes, strides, rank, err)
		}
		if len(ps) != rank || (strides == nil) != (pst == nil) {
			t.Fatalf("PadToRank(%v, %v, %d) = %v, %v", sizes, strides, rank, ps, pst)
		}
		a, err1 := NewLayout(TensorDesc{DataType: Float16, Sizes: sizes, Strides: strides})
		b, err2 := NewLayout(TensorDesc{DataType: Float16, Sizes: ps, Strides: pst})
		if err1 != nil || err2 != nil {
			t.Fatalf("%s %v/%v padded to %v/%v: %v %v", family, sizes, strides, ps, pst, err1, err2)
		}
		oa, _ := a.Offsets(1 << 16)
		ob, _ := b.Offsets(1 << 16)
		if !eq(oa, ob) || a.MinimumBufferSizeInBytes() != b.MinimumBufferSizeInBytes() {
			t.Fatalf("%s %v/%v padded to %v/%v changes the offsets or the buffer size", family, sizes, strides, ps, pst)
		}
	}
	if _, _, err := PadToRank([]int64{1, 2, 3}, nil, 2); err == nil {
		t.Errorf("PadToRank to a lower rank succeeded")
	}
	if _, _, err := PadToRank([]int64{1, 2}, []int64{1}, 4); err == nil {
		t.Errorf("PadToRank with mismatched strides succeeded")
	}
}

// ---- section 4: the published helper's wrap-around ----

func TestPublishedHelperWrapsWhereTheProjectDoesNot(t *testing.T) {
	// directml-rules.md section 4: FLOAT32 {3} strides {2^31} makes the
	// helper's 32-bit index wrap to 0, so it returns 4.
	if got := PublishedHelperResult(Float32, []int64{3}, []int64{1 << 31}, false); got != 4 {
		t.Errorf("helper = %d, want the wrapped 4", got)
	}
	if got := PublishedHelperResult(Float32, []int64{3}, []int64{1 << 31}, true); got != 4 {
		t.Errorf("DirectMLX = %d, want the wrapped 4", got)
	}
	// The project rejects the description instead (2*2^31+1 = 2^32+1).
	_, err := NewLayout(TensorDesc{DataType: Float32, Sizes: []int64{3}, Strides: []int64{1 << 31}})
	if err == nil {
		t.Fatalf("NewLayout accepted an implied count of 2^32+1")
	}
	if vs := validationViolations(t, err); !hasViolation(vs, "strides", "4294967297") {
		t.Errorf("no strides violation stating 4294967297: %v", vs)
	}
	// 4-bit types: the documentation's helper returns 0, DirectMLX rounds
	// the bits up (3 nibbles -> 2 bytes -> 4).
	for _, dt := range []DataType{Int4, UInt4} {
		if got := PublishedHelperResult(dt, []int64{3}, nil, false); got != 0 {
			t.Errorf("%v helper = %d, want 0", dt, got)
		}
		if got := PublishedHelperResult(dt, []int64{3}, nil, true); got != 4 {
			t.Errorf("%v DirectMLX = %d, want 4", dt, got)
		}
		if got := CalcBufferTensorSize(dt, []int64{9}, nil); got.BytesBeforeRounding != 5 || got.Result != 8 {
			t.Errorf("%v {9}: %+v, want 5 bytes rounded to 8", dt, got)
		}
	}
}

// TestPublishedHelperCannotWrapForValidLayouts checks the boundary: the
// largest index of the last element validation accepts, 2^32-2, still fits
// the helper's 32-bit UINT, and one more is rejected before the helper
// could wrap. So for every valid layout DirectMLX.h's answer is exact.
func TestPublishedHelperCannotWrapForValidLayouts(t *testing.T) {
	for _, c := range []struct {
		name           string
		dt             DataType
		sizes, strides []int64
	}{
		{"index 2^32-2 in one term", Float64, []int64{2}, []int64{MaxUINT - 1}},
		{"index 2^32-2 in two terms", Float32, []int64{2, 2}, []int64{1 << 31, 1<<31 - 2}},
		{"eight terms", UInt8, []int64{2, 2, 2, 2, 2, 2, 2, 2}, []int64{1 << 29, 1 << 29, 1 << 29, 1 << 29, 1 << 29, 1 << 29, 1 << 29, 1<<29 - 2}},
		{"2^32-1 packed", Int4, []int64{65535, 65537}, nil},
		{"2^32-1 broadcast", UInt4, []int64{65535, 65537}, []int64{0, 0}},
	} {
		l, err := NewLayout(TensorDesc{DataType: c.dt, Sizes: c.sizes, Strides: c.strides})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		dmlx, _ := l.PublishedHelperResults()
		if dmlx != uint64(l.MinimumBufferSizeInBytes()) {
			t.Errorf("%s: DirectMLX %d, exact %d", c.name, dmlx, l.MinimumBufferSizeInBytes())
		}
	}
	// One past the boundary: the helper would wrap, validation refuses.
	for _, strides := range [][]int64{{MaxUINT}, {1 << 31, 1<<31 - 1}} {
		sizes := []int64{2, 2}[:len(strides)]
		if _, err := NewLayout(TensorDesc{DataType: Float32, Sizes: sizes, Strides: strides}); err == nil {
			t.Errorf("sizes %v strides %v (index 2^32-1) accepted", sizes, strides)
		}
	}
}

// ---- section 5: DML_SLICE1 ----

func TestParseFeatureLevel(t *testing.T) {
	for _, s := range []string{"3_0", "3.0", "DML_FEATURE_LEVEL_3_0", "dml_feature_level_3_0", " 3_0 "} {
		f, err := ParseFeatureLevel(s)
		if err != nil || f != (FeatureLevel{3, 0}) {
			t.Errorf("ParseFeatureLevel(%q) = %v, %v", s, f, err)
		}
	}
	for _, s := range []string{"", "3", "7_0", "2_2", "DML_FEATURE_LEVEL_", "x"} {
		if f, err := ParseFeatureLevel(s); err == nil {
			t.Errorf("ParseFeatureLevel(%q) = %v, want an error", s, f)
		}
	}
	for i, f := range FeatureLevels {
		if g, err := ParseFeatureLevel(f.String()); err != nil || g != f {
			t.Errorf("round trip of %v: %v %v", f, g, err)
		}
		if i > 0 && (!f.AtLeast(FeatureLevels[i-1]) || FeatureLevels[i-1].AtLeast(f)) {
			t.Errorf("FeatureLevels not in increasing order at %v", f)
		}
	}
}

func TestSlice1DataTypesPerFeatureLevel(t *testing.T) {
	base := []DataType{Float32, Float16, Int32, Int16, Int8, UInt32, UInt16, UInt8}
	wide := []DataType{Float64, Int64, UInt64}
	for _, f := range FeatureLevels {
		var want []DataType
		if f.AtLeast(FeatureLevel{2, 1}) {
			want = append(want, base...)
		}
		if f.AtLeast(FeatureLevel{4, 1}) {
			want = append(want, wide...)
		}
		got := Slice1DataTypes(f)
		if len(got) != len(want) {
			t.Errorf("%v: %v, want %v", f, got, want)
			continue
		}
		for _, dt := range want {
			if !slices.Contains(got, dt) {
				t.Errorf("%v: %v missing", f, dt)
			}
		}
	}
}

func onesN(n int) []int64 {
	out := make([]int64, n)
	for i := range out {
		out[i] = 1
	}
	return out
}

// wholeSlice is a DML_SLICE1 copying the whole input.
func wholeSlice(dt DataType, fl FeatureLevel, sizes []int64) Slice1Desc {
	return Slice1Desc{
		Input:         TensorDesc{DataType: dt, Sizes: sizes},
		FeatureLevel:  fl,
		WindowOffsets: make([]int64, len(sizes)),
		WindowSizes:   slices.Clone(sizes),
		WindowStrides: onesN(len(sizes)),
	}
}

func TestSlice1FeatureLevelRules(t *testing.T) {
	fl := func(s string) FeatureLevel {
		f, err := ParseFeatureLevel(s)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	cases := []struct {
		level    string
		rank     int
		dt       DataType
		field    string // "" when valid
		keywords []string
	}{
		{"1_0", 4, Float32, "featureLevel", []string{"2_1"}},
		{"2_0", 4, Float32, "featureLevel", []string{"2_1"}},
		{"2_0", 2, Float64, "featureLevel", []string{"2_1"}},
		{"2_1", 4, Float32, "", nil},
		{"2_1", 5, Float16, "", nil},
		{"2_1", 4, UInt8, "", nil},
		{"2_1", 3, Float32, "inputSizes", []string{"4 or 5"}},
		{"2_1", 1, Float32, "inputSizes", []string{"4 or 5"}},
		{"2_1", 6, Float32, "inputSizes", []string{"4 or 5"}},
		{"3_0", 1, Float32, "", nil},
		{"3_0", 3, Int8, "", nil},
		{"3_0", 8, UInt16, "", nil},
		{"3_0", 9, Float32, "inputSizes", []string{"between 1 and 8"}},
		{"6_4", 9, Float32, "inputSizes", []string{"between 1 and 8"}},
		{"3_0", 2, Float64, "dataType", []string{"FLOAT64", "4_1"}},
		{"4_0", 2, Int64, "dataType", []string{"INT64", "4_1"}},
		{"4_1", 2, UInt64, "", nil},
		{"4_1", 2, Float64, "", nil},
		{"6_4", 2, Int64, "", nil},
		{"2_1", 4, Int4, "dataType", []string{"INT4"}},
		{"3_0", 2, UInt4, "dataType", []string{"UINT4"}},
		{"4_1", 2, Int4, "dataType", []string{"INT4"}},
		{"6_4", 2, UInt4, "dataType", []string{"UINT4"}},
	}
	for _, c := range cases {
		name := fmt.Sprintf("%s rank %d %v", c.level, c.rank, c.dt)
		sizes := make([]int64, c.rank)
		for i := range sizes {
			sizes[i] = 2
		}
		s, err := NewSlice1(wholeSlice(c.dt, fl(c.level), sizes))
		if c.field == "" {
			if err != nil {
				t.Errorf("%s: %v", name, err)
			} else if s.FeatureLevel != fl(c.level) {
				t.Errorf("%s: FeatureLevel %v", name, s.FeatureLevel)
			}
			continue
		}
		if err == nil {
			t.Errorf("%s: accepted", name)
			continue
		}
		if vs := validationViolations(t, err); !hasViolation(vs, c.field, c.keywords...) {
			t.Errorf("%s: no %s violation stating %q: %v", name, c.field, c.keywords, vs)
		}
	}
	// No feature level given means the newest.
	s, err := NewSlice1(wholeSlice(Float64, FeatureLevel{}, []int64{2}))
	if err != nil || s.FeatureLevel != NewestFeatureLevel {
		t.Errorf("default feature level: %v, %v", s, err)
	}
}

func TestSlice1WindowEndComputedWithoutWrap(t *testing.T) {
	cases := []struct {
		input, offset, size int64
		sum                 string
	}{
		// 4294967295 + 1 wraps to 0 in 32 bits, which would pass.
		{4, MaxUINT, 1, "4294967296"},
		{4, 1 << 31, 1 << 31, "4294967296"},
		{MaxUINT, MaxUINT, MaxUINT, "8589934590"},
		{MaxUINT, 1, MaxUINT, "4294967296"},
	}
	for _, c := range cases {
		_, err := NewSlice1(Slice1Desc{
			Input:         TensorDesc{DataType: UInt8, Sizes: []int64{c.input}},
			WindowOffsets: []int64{c.offset}, WindowSizes: []int64{c.size}, WindowStrides: []int64{1},
			OutputSizes: []int64{1},
		})
		if err == nil {
			t.Errorf("input %d window %d+%d accepted", c.input, c.offset, c.size)
			continue
		}
		if vs := validationViolations(t, err); !hasViolation(vs, "inputWindowOffsets[0]", "= "+c.sum+" > InputTensor.Sizes[0]") {
			t.Errorf("input %d window %d+%d: no violation stating the sum %s: %v", c.input, c.offset, c.size, c.sum, vs)
		}
	}
	// The last window of the largest one-dimensional input is valid.
	s, err := NewSlice1(Slice1Desc{
		Input:         TensorDesc{DataType: UInt8, Sizes: []int64{MaxUINT}},
		WindowOffsets: []int64{MaxUINT - 1}, WindowSizes: []int64{1}, WindowStrides: []int64{-1},
	})
	if err != nil {
		t.Fatalf("last element of a 2^32-1 input: %v", err)
	}
	if offs, err := s.InputOffsets(10); err != nil || !eq(offs, []int64{MaxUINT - 1}) {
		t.Errorf("InputOffsets = %v, %v", offs, err)
	}
}

func TestMaxCopiedElementsUsesStrideMagnitude(t *testing.T) {
	// Erratum E2: 1 + (size-1)/|stride|; the page's signed formula would
	// give 0 for Example 2's axis 2 (size 4, stride -2).
	cases := []struct{ size, stride, want int64 }{
		{4, -2, 2}, {4, 2, 2}, {3, -1, 3}, {3, 1, 3}, {1, -5, 1}, {5, -2, 3}, {7, -3, 3}, {7, 3, 3}, {6, -7, 1},
		{MaxUINT, -(1 << 31), 2}, {MaxUINT, 1<<31 - 1, 3},
	}
	for _, c := range cases {
		if got := MaxCopiedElements(c.size, c.stride); got != c.want {
			t.Errorf("MaxCopiedElements(%d, %d) = %d, want %d", c.size, c.stride, got, c.want)
		}
		// With the maximum output every read stays in the window, and one
		// more would leave it.
		start := CopyStart(0, c.size, c.stride)
		last := start + (c.want-1)*c.stride
		next := last + c.stride
		if last < 0 || last >= c.size || (next >= 0 && next < c.size) {
			t.Errorf("size %d stride %d: the %d-th read %d or the next %d is misplaced", c.size, c.stride, c.want, last, next)
		}
	}
}

func TestSlice1Example2CopyStart(t *testing.T) {
	// Erratum E1: axis 2 starts at InputWindowOffsets[2] + InputWindowSizes[2] - 1 = 3.
	s, err := NewSlice1(Slice1Desc{
		Input:         TensorDesc{DataType: Float32, Sizes: []int64{1, 1, 4, 4}},
		WindowOffsets: []int64{0, 0, 0, 1}, WindowSizes: []int64{1, 1, 4, 3}, WindowStrides: []int64{1, 1, -2, 2},
		OutputSizes: []int64{1, 1, 2, 2},
	})
	if err != nil {
		t.Fatalf("NewSlice1 rejects the page's Example 2: %v", err)
	}
	if !eq(s.CopyStart, []int64{0, 0, 3, 1}) {
		t.Errorf("CopyStart %v, want {0,0,3,1}", s.CopyStart)
	}
	if s.BaseOffset() != 13 {
		t.Errorf("BaseOffset %d, want 3*4+1", s.BaseOffset())
	}
	if !eq(s.SourceStrides(), []int64{16, 16, -8, 2}) {
		t.Errorf("SourceStrides %v", s.SourceStrides())
	}
}

func TestSlice1ShortOutputKeepsElementsNearestCopyStart(t *testing.T) {
	cases := []struct {
		offset, size, stride, out int64
		reads                     []int64
	}{
		// Window 1..6 of 8 elements.
		{1, 6, 2, 2, []int64{1, 3}},
		{1, 6, -2, 2, []int64{6, 4}},
		{1, 6, -1, 3, []int64{6, 5, 4}},
		{1, 6, 1, 1, []int64{1}},
		{1, 6, -1, 1, []int64{6}},
		{0, 8, -3, 2, []int64{7, 4}},
	}
	for _, c := range cases {
		s, err := NewSlice1(Slice1Desc{
			Input:         TensorDesc{DataType: Int32, Sizes: []int64{8}},
			WindowOffsets: []int64{c.offset}, WindowSizes: []int64{c.size}, WindowStrides: []int64{c.stride},
			OutputSizes: []int64{c.out},
		})
		if err != nil {
			t.Errorf("%+v: %v", c, err)
			continue
		}
		offs, _ := s.InputOffsets(100)
		if !eq(offs, c.reads) {
			t.Errorf("window %d+%d stride %d output %d reads %v, want %v", c.offset, c.size, c.stride, c.out, offs, c.reads)
		}
	}
}

func TestSlice1ReportsEveryViolation(t *testing.T) {
	_, err := NewSlice1(Slice1Desc{
		Input:          TensorDesc{DataType: Float32, Sizes: []int64{4, 4, 4, 4}},
		OutputDataType: Float16,
		FeatureLevel:   FeatureLevel{3, 0},
		WindowOffsets:  []int64{0, 0, 3, -1},
		WindowSizes:    []int64{4, 0, 2, 1},
		WindowStrides:  []int64{0, 1, 1, 1 << 31},
		OutputSizes:    []int64{1, 1, 5, 1},
	})
	if err == nil {
		t.Fatal("accepted")
	}
	vs := validationViolations(t, err)
	for _, f := range []string{"outputDataType", "inputWindowStrides[0]", "inputWindowSizes[1]", "inputWindowOffsets[2]", "inputWindowOffsets[3]", "inputWindowStrides[3]"} {
		if !hasViolation(vs, f) {
			t.Errorf("no violation on %s: %v", f, vs)
		}
	}
	// Array lengths: every mismatching array is named.
	_, err = NewSlice1(Slice1Desc{
		Input:         TensorDesc{DataType: Float32, Sizes: []int64{4, 4}},
		WindowOffsets: []int64{0}, WindowSizes: []int64{4, 4, 4}, WindowStrides: []int64{1, 1}, OutputSizes: []int64{4},
	})
	if err == nil {
		t.Fatal("accepted mismatched lengths")
	}
	vs = validationViolations(t, err)
	for _, f := range []string{"inputWindowOffsets", "inputWindowSizes", "outputSizes"} {
		if !hasViolation(vs, f, "DimensionCount") {
			t.Errorf("no DimensionCount violation on %s: %v", f, vs)
		}
	}
	if hasViolation(vs, "inputWindowStrides") {
		t.Errorf("inputWindowStrides has the right length but was reported: %v", vs)
	}
	// The input tensor is validated too, with the input's field names.
	_, err = NewSlice1(Slice1Desc{
		Input:         TensorDesc{DataType: Float32, Sizes: []int64{4, 0}, Strides: []int64{-1, 1}},
		WindowOffsets: []int64{0, 0}, WindowSizes: []int64{4, 1}, WindowStrides: []int64{1, 1},
	})
	if err == nil {
		t.Fatal("accepted an invalid input")
	}
	vs = validationViolations(t, err)
	if !hasViolation(vs, "inputSizes[1]") || !hasViolation(vs, "inputStrides[0]") {
		t.Errorf("input tensor violations missing: %v", vs)
	}
}

// naiveSliceV1Reads is DML_SLICE (version 1): Output[c] = Input[offset + stride*c].
func naiveSliceV1Reads(offsets, sizes, strides []int64) [][]int64 {
	var out [][]int64
	for k := range naiveProduct(sizes) {
		c := naiveCoordOf(sizes, k)
		for i := range c {
			c[i] = offsets[i] + strides[i]*c[i]
		}
		out = append(out, c)
	}
	return out
}

func TestSliceDescToSlice1(t *testing.T) {
	// The DML_SLICE examples of the spec cases: version 1 took the output
	// sizes as its sizes, and the DML_SLICE1 window of the case is what the
	// conversion must produce.
	converted := 0
	for _, c := range loadSpecCases(t) {
		if !strings.HasPrefix(c.Name, "slice1_from_slice_v1_") {
			continue
		}
		in := c.Inputs
		v1 := SliceDesc{Input: TensorDesc{DataType: mustDataType(t, in.DataType), Sizes: in.InputSizes},
			Offsets: in.WindowOffsets, Sizes: in.OutputSizes, Strides: in.WindowStrides}
		d := v1.ToSlice1(FeatureLevel{2, 1})
		if !eq(d.WindowOffsets, in.WindowOffsets) || !eq(d.WindowSizes, in.WindowSizes) || !eq(d.WindowStrides, in.WindowStrides) || !eq(d.OutputSizes, in.OutputSizes) {
			t.Errorf("%s: ToSlice1 = %v/%v/%v/%v, want the case's window", c.Name, d.WindowOffsets, d.WindowSizes, d.WindowStrides, d.OutputSizes)
		}
		s, err := NewSlice1(d)
		if err != nil {
			t.Fatalf("%s: %v", c.Name, err)
		}
		if got := mustCoords(t, s); !coordsEqual(got, c.Expected.InputCoordsRead) || !coordsEqual(got, naiveSliceV1Reads(v1.Offsets, v1.Sizes, v1.Strides)) {
			t.Errorf("%s: reads %v, want %v", c.Name, got, c.Expected.InputCoordsRead)
		}
		converted++
	}
	if converted != 2 {
		t.Errorf("converted %d DML_SLICE examples, want 2", converted)
	}
	// Random valid DML_SLICE descriptions read what version 1 reads.
	r := rand.New(rand.NewPCG(11, 12))
	for range 500 {
		in := randomSizes(r, 4, 7)
		n := len(in)
		off, size, stride := make([]int64, n), make([]int64, n), make([]int64, n)
		for i := range n {
			stride[i] = 1 + r.Int64N(3)
			off[i] = r.Int64N(in[i])
			size[i] = 1 + (in[i]-1-off[i])/stride[i]
			size[i] = 1 + r.Int64N(size[i])
		}
		v1 := SliceDesc{Input: TensorDesc{DataType: UInt16, Sizes: in}, Offsets: off, Sizes: size, Strides: stride}
		s, err := NewSlice1(v1.ToSlice1(NewestFeatureLevel))
		if err != nil {
			t.Fatalf("%+v: %v", v1, err)
		}
		if got := mustCoords(t, s); !coordsEqual(got, naiveSliceV1Reads(off, size, stride)) {
			t.Fatalf("%+v reads %v", v1, got)
		}
	}
	// A UINT stride past INT on an axis of one element is never applied:
	// the DML_SLICE1 is exact with stride 1.
	one := SliceDesc{Input: TensorDesc{DataType: Float32, Sizes: []int64{8, 4}}, Offsets: []int64{2, 0}, Sizes: []int64{1, 4}, Strides: []int64{MaxUINT, 1}}
	if s, err := NewSliceV1(one, NewestFeatureLevel); err != nil {
		t.Errorf("%+v: %v", one, err)
	} else if got := mustCoords(t, s); !coordsEqual(got, naiveSliceV1Reads(one.Offsets, one.Sizes, one.Strides)) || s.WindowStrides[0] != 1 {
		t.Errorf("%+v reads %v with window strides %v", one, got, s.WindowStrides)
	}
	// Values DML_SLICE cannot hold are reported by NewSlice1.
	bad := []SliceDesc{
		{Input: TensorDesc{DataType: Float32, Sizes: []int64{4}}, Offsets: []int64{0}, Sizes: []int64{-2}, Strides: []int64{1}},
		{Input: TensorDesc{DataType: Float32, Sizes: []int64{4}}, Offsets: []int64{-1}, Sizes: []int64{2}, Strides: []int64{1}},
		{Input: TensorDesc{DataType: Float32, Sizes: []int64{4}}, Offsets: []int64{0}, Sizes: []int64{2}, Strides: []int64{0}},
		{Input: TensorDesc{DataType: Float32, Sizes: []int64{4}}, Offsets: []int64{0}, Sizes: []int64{3}, Strides: []int64{2}},
	}
	bad = append(bad, SliceDesc{Input: TensorDesc{DataType: Float32, Sizes: []int64{4}}, Offsets: []int64{0}, Sizes: []int64{2}, Strides: []int64{-1}})
	for _, b := range bad {
		if s, err := NewSliceV1(b, NewestFeatureLevel); err == nil {
			t.Errorf("%+v converted to a valid DML_SLICE1 %v", b, windowOf(s))
		}
	}
	var ve *ValidationError
	_, err := NewSliceV1(bad[len(bad)-1], NewestFeatureLevel)
	if !errors.As(err, &ve) || ve.Violations[0].Field != "strides[0]" || !strings.Contains(ve.Violations[0].Message, "UINT") {
		t.Errorf("negative DML_SLICE stride: got %v, want a strides[0] violation naming UINT", err)
	}
	// A stride past a UINT is said once, at the stride, whether or not
	// its axis would apply it: not as a window too long at the sizes.
	for _, size := range []int64{1, 2} {
		past := SliceDesc{Input: TensorDesc{DataType: Float32, Sizes: []int64{4}}, Offsets: []int64{0}, Sizes: []int64{size}, Strides: []int64{MaxUINT + 1}}
		_, err := NewSliceV1(past, NewestFeatureLevel)
		if !errors.As(err, &ve) || len(ve.Violations) != 1 || ve.Violations[0].Field != "strides[0]" || ve.Violations[0].Code != "slice.stride.uint" {
			t.Errorf("a DML_SLICE stride of 2^32 on an axis of %d: got %v, want one strides[0] slice.stride.uint", size, err)
		}
	}
}

// naiveONNXAxis is ONNX Slice (opset 13) on one axis as its operator page
// states it: negative starts and ends count from the end, then starts are
// clamped to [0, dim] ([0, dim-1] for a negative step) and ends to [0, dim]
// ([-1, dim-1] for a negative step).
func naiveONNXAxis(dim, start, end, step int64) []int64 {
	clamp := func(v, lo, hi int64) int64 { return min(max(v, lo), hi) }
	if start < 0 {
		start += dim
	}
	if end < 0 {
		end += dim
	}
	if step > 0 {
		start, end = clamp(start, 0, dim), clamp(end, 0, dim)
	} else {
		start, end = clamp(start, 0, dim-1), clamp(end, -1, dim-1)
	}
	return pyRange(start, end, step)
}

// checkONNXExport evaluates s.ONNX() with the ONNX semantics and compares
// the indices each axis selects with the slice's.
func checkONNXExport(t *testing.T, s *Slice1) {
	t.Helper()
	o := s.ONNX()
	n := len(s.CopyStart)
	if len(o.Starts) != n || len(o.Ends) != n || len(o.Axes) != n || len(o.Steps) != n {
		t.Fatalf("ONNX %+v for %d dimensions", o, n)
	}
	for k, ax := range o.Axes {
		if ax != int64(k) {
			t.Fatalf("ONNX axes %v", o.Axes)
		}
		got := naiveONNXAxis(s.Input.Sizes[ax], o.Starts[k], o.Ends[k], o.Steps[k])
		var want []int64
		for c := range s.OutputSizes[ax] {
			want = append(want, s.CopyStart[ax]+s.WindowStrides[ax]*c)
		}
		if !eq(got, want) {
			t.Fatalf("ONNX axis %d (start %d end %d step %d on %d) selects %v, the slice %v", ax, o.Starts[k], o.Ends[k], o.Steps[k], s.Input.Sizes[ax], got, want)
		}
	}
}

func TestONNXExport(t *testing.T) {
	cases := []struct {
		sizes                  []int64
		off, size, stride, out []int64
		wantStarts, wantEnds   []int64
	}{
		// Example 2 of the DML_SLICE1 page.
		{[]int64{1, 1, 4, 4}, []int64{0, 0, 0, 1}, []int64{1, 1, 4, 3}, []int64{1, 1, -2, 2}, []int64{1, 1, 2, 2}, []int64{0, 0, 3, 1}, []int64{1, 1, 0, 4}},
		// Reaching index 0 backwards: the end must be below -size, since
		// -1 would mean the last element.
		{[]int64{4}, []int64{0}, []int64{3}, []int64{-1}, []int64{3}, []int64{2}, []int64{-5}},
		{[]int64{5}, []int64{0}, []int64{5}, []int64{-2}, []int64{3}, []int64{4}, []int64{-6}},
		{[]int64{5}, []int64{1}, []int64{4}, []int64{-1}, []int64{2}, []int64{4}, []int64{2}},
	}
	for _, c := range cases {
		s, err := NewSlice1(Slice1Desc{
			Input:         TensorDesc{DataType: Float32, Sizes: c.sizes},
			WindowOffsets: c.off, WindowSizes: c.size, WindowStrides: c.stride, OutputSizes: c.out,
		})
		if err != nil {
			t.Fatal(err)
		}
		checkONNXExport(t, s)
		o := s.ONNX()
		if !eq(o.Starts, c.wantStarts) || !eq(o.Steps, c.stride) {
			t.Errorf("ONNX starts %v steps %v, want %v %v", o.Starts, o.Steps, c.wantStarts, c.stride)
		}
		for k, e := range c.wantEnds {
			// Any end below -size means "before the first element".
			if got := o.Ends[k]; got != e && !(e < -c.sizes[k] && got < -c.sizes[k]) {
				t.Errorf("ONNX end[%d] = %d, want %d", k, got, e)
			}
		}
	}
}

// ---- the C++ text ----

func TestCPPText(t *testing.T) {
	l, err := NewLayout(TensorDesc{DataType: Float32, Sizes: []int64{1, 1, 3, 5}})
	if err != nil {
		t.Fatal(err)
	}
	implicit := CPPTensorDesc(l, "x")
	for _, want := range []string{
		"UINT xSizes[4] = {1, 1, 3, 5};",
		"xBufferDesc.DataType = DML_TENSOR_DATA_TYPE_FLOAT32;",
		"xBufferDesc.DimensionCount = 4;",
		"xBufferDesc.Sizes = xSizes;",
		"xBufferDesc.Strides = nullptr;",
		"xBufferDesc.TotalTensorSizeInBytes = 60;",
		"DML_BUFFER_TENSOR_DESC xBufferDesc",
		"DML_TENSOR_DESC xDesc = { DML_TENSOR_TYPE_BUFFER, &xBufferDesc };",
	} {
		if !strings.Contains(implicit, want) {
			t.Errorf("implicit-stride C++ lacks %q:\n%s", want, implicit)
		}
	}
	if strings.Contains(implicit, "xStrides") {
		t.Errorf("implicit strides declared an array:\n%s", implicit)
	}

	total := int64(12)
	l, err = NewLayout(TensorDesc{DataType: UInt8, Sizes: []int64{2, 3}, Strides: []int64{5, 1}, TotalTensorSizeInBytes: &total, GuaranteedBaseOffsetAlignment: 16})
	if err != nil {
		t.Fatal(err)
	}
	explicit := CPPTensorDesc(l, "padded")
	for _, want := range []string{
		"UINT paddedStrides[2] = {5, 1};",
		"paddedBufferDesc.Strides = paddedStrides;",
		"paddedBufferDesc.DataType = DML_TENSOR_DATA_TYPE_UINT8;",
		"paddedBufferDesc.TotalTensorSizeInBytes = 12;",
		"gives 8", // the minimum, DMLCalcBufferTensorSize
		"paddedBufferDesc.GuaranteedBaseOffsetAlignment = 16;",
	} {
		if !strings.Contains(explicit, want) {
			t.Errorf("explicit-stride C++ lacks %q:\n%s", want, explicit)
		}
	}
	if strings.Contains(explicit, "nullptr") {
		t.Errorf("explicit strides written as nullptr:\n%s", explicit)
	}

	s, err := NewSlice1(Slice1Desc{
		Input:         TensorDesc{DataType: Float32, Sizes: []int64{1, 1, 4, 4}},
		WindowOffsets: []int64{0, 0, 0, 1}, WindowSizes: []int64{1, 1, 4, 3}, WindowStrides: []int64{1, 1, -2, 2},
		OutputSizes: []int64{1, 1, 2, 2},
	})
	if err != nil {
		t.Fatal(err)
	}
	cpp := s.CPP()
	for _, want := range []string{
		"UINT inputSizes[4] = {1, 1, 4, 4};",
		"inputBufferDesc.Strides = nullptr;",
		"UINT outputSizes[4] = {1, 1, 2, 2};",
		"UINT inputWindowOffsets[4] = {0, 0, 0, 1};",
		"UINT inputWindowSizes[4] = {1, 1, 4, 3};",
		"INT inputWindowStrides[4] = {1, 1, -2, 2};",
		"sliceDesc.InputTensor = &inputDesc;",
		"sliceDesc.OutputTensor = &outputDesc;",
		"sliceDesc.DimensionCount = 4;",
		"DML_OPERATOR_SLICE1",
		"DML_FEATURE_LEVEL_2_1",
	} {
		if !strings.Contains(cpp, want) {
			t.Errorf("DML_SLICE1 C++ lacks %q:\n%s", want, cpp)
		}
	}
	if strings.Contains(cpp, "UINT inputWindowStrides") {
		t.Errorf("window strides typed UINT (erratum E3):\n%s", cpp)
	}
	if strings.Count(cpp, "{") != strings.Count(cpp, "}") {
		t.Errorf("unbalanced braces:\n%s", cpp)
	}
	// INT_MIN as a literal MSVC compiles: -2147483648 is the negation of
	// an unsigned long there.
	low, err := NewSlice1(Slice1Desc{
		Input:         TensorDesc{DataType: Float32, Sizes: []int64{4}},
		WindowOffsets: []int64{0}, WindowSizes: []int64{4}, WindowStrides: []int64{math.MinInt32},
	})
	if err != nil {
		t.Fatal(err)
	}
	if cpp := low.CPP(); !strings.Contains(cpp, "INT inputWindowStrides[1] = {-2147483647 - 1};") {
		t.Errorf("INT_MIN window stride not written as -2147483647 - 1:\n%s", cpp)
	}
	// The feature level named is the oldest that accepts the slice.
	for _, c := range []struct {
		dt    DataType
		sizes []int64
		level string
	}{
		{Float32, []int64{4, 4}, "3_0"},
		{Float16, []int64{1, 1, 1, 4, 4}, "2_1"},
		{Float64, []int64{1, 1, 4, 4}, "4_1"},
		{Int64, []int64{4}, "4_1"},
	} {
		s, err := NewSlice1(wholeSlice(c.dt, NewestFeatureLevel, c.sizes))
		if err != nil {
			t.Fatal(err)
		}
		if cpp := s.CPP(); !strings.Contains(cpp, "DML_FEATURE_LEVEL_"+c.level+" ") {
			t.Errorf("%v %v: C++ does not name DML_FEATURE_LEVEL_%s:\n%s", c.dt, c.sizes, c.level, cpp)
		}
	}
}

// ---- section 7: NumPy slicing ----

func TestParseNumpyRules(t *testing.T) {
	type win struct{ off, size, stride, out int64 }
	full := func(n int64) win { return win{0, n, 1, n} }
	cases := []struct {
		sizes   []int64
		expr    string
		want    []win
		dropped []int
	}{
		// Rules 3 and 4 on one axis of 10.
		{[]int64{10}, "x[::3]", []win{{0, 10, 3, 4}}, nil},
		{[]int64{10}, "x[:4]", []win{{0, 4, 1, 4}}, nil},
		{[]int64{10}, "x[7:]", []win{{7, 3, 1, 3}}, nil},
		{[]int64{10}, "x[::-3]", []win{{0, 10, -3, 4}}, nil},     // 9 6 3 0
		{[]int64{10}, "x[-4:-1]", []win{{6, 3, 1, 3}}, nil},      // 6 7 8
		{[]int64{10}, "x[-1:-4:-1]", []win{{7, 3, -1, 3}}, nil},  // 9 8 7
		{[]int64{10}, "x[8:1:-3]", []win{{2, 7, -3, 3}}, nil},    // 8 5 2
		{[]int64{10}, "x[None:None:None]", []win{full(10)}, nil}, // None is omitted
		{[]int64{10}, "x[-100:100]", []win{full(10)}, nil},
		{[]int64{10}, "x[100:-100:-1]", []win{{0, 10, -1, 10}}, nil},
		// Rule 5: integer indices (negative ones count from the end) and
		// missing trailing axes.
		{[]int64{10}, "x[-3]", []win{{7, 1, 1, 1}}, []int{0}},
		{[]int64{4, 5, 6}, "x[1, :, -1]", []win{{1, 1, 1, 1}, full(5), {5, 1, 1, 1}}, []int{0, 2}},
		{[]int64{4, 5, 6}, "x[1:3]", []win{{1, 2, 1, 2}, full(5), full(6)}, nil},
		{[]int64{4, 5, 6}, "x[2]", []win{{2, 1, 1, 1}, full(5), full(6)}, []int{0}},
		// The ellipsis stands for as many whole axes as needed.
		{[]int64{4, 5, 6}, "x[..., 2]", []win{full(4), full(5), {2, 1, 1, 1}}, []int{2}},
		{[]int64{4, 5, 6}, "x[1, ..., ::2]", []win{{1, 1, 1, 1}, full(5), {0, 5, 2, 3}}, []int{0}},
		{[]int64{4, 5, 6}, "x[...]", []win{full(4), full(5), full(6)}, nil},
		{[]int64{4, 5, 6}, "x[:, :, :, ...]", []win{full(4), full(5), full(6)}, nil},
		{[]int64{4, 5, 6}, "x[..., ::-1, 0:1]", []win{full(4), {0, 5, -1, 5}, {0, 1, 1, 1}}, nil},
		// Spelling: no "x[...]" wrapper, spaces, a trailing comma.
		{[]int64{4, 5, 6}, "1:3, 2", []win{{1, 2, 1, 2}, {2, 1, 1, 1}, full(6)}, []int{1}},
		{[]int64{7}, " x [ 1 : 2 , ] ", []win{{1, 1, 1, 1}}, nil},
		{[]int64{5, 6}, "x[1:4, ::-2]", []win{{1, 3, 1, 3}, {1, 5, -2, 3}}, nil},
		// What Python accepts beyond plain literals: the empty tuple (the
		// whole tensor), a parenthesised tuple, runs of unary signs, the
		// Ellipsis object.
		{[]int64{4, 5}, "x[()]", []win{full(4), full(5)}, nil},
		{[]int64{4, 5}, "x[(1, ::2)]", []win{{1, 1, 1, 1}, {0, 5, 2, 3}}, []int{0}},
		{[]int64{4, 5}, "x[--1]", []win{{1, 1, 1, 1}, full(5)}, []int{0}},
		{[]int64{4, 5}, "x[-+-1, - -2:]", []win{{1, 1, 1, 1}, {2, 3, 1, 3}}, []int{0}},
		{[]int64{4, 5}, "x[Ellipsis, 0]", []win{full(4), {0, 1, 1, 1}}, []int{1}},
	}
	for _, c := range cases {
		w, err := ParseNumpy(c.sizes, c.expr)
		if err != nil {
			t.Errorf("ParseNumpy(%v, %q): %v", c.sizes, c.expr, err)
			continue
		}
		var got []win
		for i := range c.sizes {
			got = append(got, win{w.WindowOffsets[i], w.WindowSizes[i], w.WindowStrides[i], w.OutputSizes[i]})
		}
		if !eq(got, c.want) || !eq(w.DroppedAxes, c.dropped) {
			t.Errorf("ParseNumpy(%v, %q) = %v dropped %v, want %v dropped %v", c.sizes, c.expr, got, w.DroppedAxes, c.want, c.dropped)
		}
		if _, err := sliceOnPacked(Float32, c.sizes, numpyWindow(w)); err != nil {
			t.Errorf("ParseNumpy(%v, %q): NewSlice1 rejects the window: %v", c.sizes, c.expr, err)
		}
	}
}

func TestParseNumpyErrors(t *testing.T) {
	cases := []struct {
		sizes   []int64
		expr    string
		message string // NumPy's wording where NumPy has one
	}{
		{[]int64{4, 5}, "x[..., 1, ...]", "single ellipsis"},
		{[]int64{4, 5}, "x[1, 2, 3]", "too many indices for array"},
		{[]int64{4, 5}, "x[..., 1, 2, 3]", "too many indices for array"},
		{[]int64{4}, "x[::0]", "slice step cannot be zero"},
		{[]int64{4}, "x[1:3:0]", "slice step cannot be zero"},
		{[]int64{4}, "x[]", "the subscript is empty"},
		{[]int64{4}, "x[ ]", "the subscript is empty"},
		{[]int64{4}, "x[4]", "out of bounds"},
		{[]int64{4}, "x[-5]", "out of bounds"},
		{[]int64{4, 3}, "x[:, 3]", "out of bounds for axis 1"},
		// Past int64 the index is named as typed, not as clamped.
		{[]int64{4}, "x[-99999999999999999999999]", "index -99999999999999999999999 is out of bounds"},
		{[]int64{4}, "x[0x1_0000_0000_0000_0000]", "index 0x1_0000_0000_0000_0000 is out of bounds"},
		{[]int64{4}, "x[3:1]", "selection is empty"},
		{[]int64{4, 4}, "x[:, 5:]", "selection is empty on axis 1"},
		{[]int64{4}, "x[a]", ""},
		{[]int64{4}, "x[1.5]", ""},
		{[]int64{4}, "x[1:2:3:4]", ""},
		{[]int64{4}, "x[1", ""},
		{[]int64{4}, "x[[1]]", "nested brackets"},
		// x[1:4][0] is x[1]: two subscripts, said as such.
		{[]int64{4, 4}, "x[1:4][0]", "chained indexing"},
		{[]int64{4, 4}, "x[1:4] [0]", "chained indexing"},
		{[]int64{4}, "x[1,,2]", ""},
		{[]int64{4}, "3x[1]", ""},
		{[]int64{4}, "x[1:b]", ""},
		{[]int64{4}, "x[" + strings.Repeat("1", 2000) + "]", ""},
		{[]int64{4, 0}, "x[:, :]", ""},
		// NumPy adds an axis; DML_SLICE1 cannot, and says so.
		{[]int64{4}, "x[None]", "DML_SLICE1 cannot: its output has the input's DimensionCount"},
		{[]int64{4}, "x[:, np.newaxis]", "inserts a new axis of size 1"},
	}
	for _, c := range cases {
		w, err := ParseNumpy(c.sizes, c.expr)
		if err == nil {
			t.Errorf("ParseNumpy(%v, %q) = %v, want an error", c.sizes, c.expr, numpyWindow(w))
			continue
		}
		if c.message != "" && !strings.Contains(err.Error(), c.message) {
			t.Errorf("ParseNumpy(%v, %q): %q does not say %q", c.sizes, c.expr, err, c.message)
		}
	}
}

func TestParseNumpyHugeStep(t *testing.T) {
	// A step past DML_SLICE1's INT range that selects a single element is
	// still a valid NumPy selection, and some DML_SLICE1 copies it.
	for _, expr := range []string{"x[::4294967296]", "x[2::-4294967296]", "x[::100000000000000000000]", "x[2:1:-100000000000000000000]"} {
		w, err := ParseNumpy([]int64{5}, expr)
		if err != nil {
			t.Errorf("ParseNumpy(%q): %v", expr, err)
			continue
		}
		if w.OutputSizes[0] != 1 {
			t.Errorf("ParseNumpy(%q): output %d, want 1", expr, w.OutputSizes[0])
		}
		s, err := sliceOnPacked(Float32, []int64{5}, numpyWindow(w))
		if err != nil {
			t.Errorf("ParseNumpy(%q) gives a window NewSlice1 rejects: %v", expr, err)
			continue
		}
		checkNumpyRoundTrip(t, s)
	}
	// Two elements 2^31 apart need a stride DML_SLICE1 cannot hold
	// (InputWindowStrides are INT); one element less apart is fine.
	if w, err := ParseNumpy([]int64{MaxUINT}, "x[::2147483648]"); err == nil {
		t.Errorf("ParseNumpy accepted a selection no DML_SLICE1 can express: %v", numpyWindow(w))
	}
	w, err := ParseNumpy([]int64{MaxUINT}, "x[::-2147483648]")
	if err != nil {
		t.Fatalf("x[::-2147483648]: %v", err)
	}
	s, err := sliceOnPacked(UInt8, []int64{MaxUINT}, numpyWindow(w))
	if err != nil {
		t.Fatalf("x[::-2147483648]: NewSlice1: %v", err)
	}
	if offs, err := s.InputOffsets(10); err != nil || !eq(offs, []int64{MaxUINT - 1, MaxUINT - 1 - 1<<31}) {
		t.Errorf("x[::-2147483648] reads %v, %v", offs, err)
	}
}

// TestParseNumpyIndicesKeepAHugeStep: Python's slice.indices keeps a
// step past 64 bits whole (it clamps start and stop, never the step):
// PythonIndices says it in decimal however it was written, Indices holds
// it clamped into int64.
func TestParseNumpyIndicesKeepAHugeStep(t *testing.T) {
	for _, c := range []struct {
		expr string
		want [3]string
	}{
		{"x[::100000000000000000000]", [3]string{"0", "5", "100000000000000000000"}},
		{"x[2:1:-100000000000000000000]", [3]string{"2", "1", "-100000000000000000000"}},
		{"x[::-0x1_0000_0000_0000_0000]", [3]string{"4", "-1", "-18446744073709551616"}},
		{"x[::--0b1" + strings.Repeat("0", 70) + "]", [3]string{"0", "5", "1180591620717411303424"}},
		{"x[::9223372036854775807]", [3]string{"0", "5", "9223372036854775807"}},
		{"x[1:4:2]", [3]string{"1", "4", "2"}},
	} {
		w, err := ParseNumpy([]int64{5}, c.expr)
		if err != nil {
			t.Errorf("ParseNumpy(%q): %v", c.expr, err)
			continue
		}
		if got := w.PythonIndices(); len(got) != 1 || got[0] != c.want {
			t.Errorf("ParseNumpy(%q).PythonIndices() = %v, want %v", c.expr, got, c.want)
		}
		if st := w.Indices[0][2]; st != math.MaxInt64 && st != math.MinInt64+1 && strconv.FormatInt(st, 10) != c.want[2] {
			t.Errorf("ParseNumpy(%q).Indices step %d", c.expr, st)
		}
	}
}

func TestFormatNumpyOmitsNegativeStop(t *testing.T) {
	cases := []struct {
		sizes                  []int64
		off, size, stride, out []int64
		want                   string
	}{
		{[]int64{4}, []int64{0}, []int64{3}, []int64{-1}, []int64{3}, "x[2::-1]"},
		{[]int64{5}, []int64{0}, []int64{5}, []int64{-2}, []int64{3}, "x[4::-2]"},
		{[]int64{4}, []int64{1}, []int64{3}, []int64{-1}, []int64{3}, "x[3:0:-1]"},
		{[]int64{5}, []int64{1}, []int64{3}, []int64{-2}, []int64{2}, "x[3:0:-2]"},
		{[]int64{5}, []int64{0}, []int64{1}, []int64{-1}, []int64{1}, "x[0::-1]"},
		{[]int64{8}, []int64{0}, []int64{8}, []int64{-1}, []int64{2}, "x[7:5:-1]"},
		{[]int64{5, 6}, []int64{1, 1}, []int64{3, 5}, []int64{1, -2}, []int64{3, 3}, "x[1:4, 5:0:-2]"},
	}
	for _, c := range cases {
		got := FormatNumpy(c.off, c.size, c.stride, c.out)
		if got != c.want {
			t.Errorf("FormatNumpy(%v, %v, %v, %v) = %q, want %q", c.off, c.size, c.stride, c.out, got, c.want)
		}
		if strings.Contains(got, ":-1:-") {
			t.Errorf("%q writes a stop of -1 with a negative step (an empty selection)", got)
		}
		s, err := NewSlice1(Slice1Desc{Input: TensorDesc{DataType: Float32, Sizes: c.sizes},
			WindowOffsets: c.off, WindowSizes: c.size, WindowStrides: c.stride, OutputSizes: c.out})
		if err != nil {
			t.Fatal(err)
		}
		checkNumpyRoundTrip(t, s)
	}
}

func TestBufferElementCountOfHugeTotals(t *testing.T) {
	cases := []struct {
		dt    DataType
		total int64
		want  int64
	}{
		{Float32, 40, 10},
		{Float32, 1 << 61, 1 << 59}, // bytes*8 wraps to 0
		{Float32, 1<<61 + 4, 1<<59 + 1},
		{Float64, math.MaxInt64 - 7, (math.MaxInt64 - 7) / 8},
		{UInt8, math.MaxInt64 - 3, math.MaxInt64 - 3},
		{Int4, 1 << 61, 1 << 62},
		{Int4, 1 << 62, math.MaxInt64}, // 2^63 elements: saturated
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s/%d", c.dt, c.total), func(t *testing.T) {
			l, err := NewLayout(TensorDesc{DataType: c.dt, Sizes: []int64{2, 3}, TotalTensorSizeInBytes: int64p(c.total)})
			if err != nil {
				t.Fatalf("NewLayout: %v", err)
			}
			if got := l.BufferElementCount(); got != c.want {
				t.Errorf("BufferElementCount = %d, want %d", got, c.want)
			}
		})
	}
}

func TestLeadingStrideNeverLeavesUINT(t *testing.T) {
	cases := []struct {
		sizes, strides []int64
		want           int64
	}{
		{[]int64{3, 5}, []int64{5, 1}, 15},
		{[]int64{2, 3}, []int64{5, 1}, 10}, // the padded row's pitch
		{[]int64{2, 3}, []int64{0, 1}, 3},
		// size*stride past 2^32-1: the minimum implied count instead.
		{[]int64{2}, []int64{3_000_000_000}, 3_000_000_001},
		{[]int64{4294967295}, []int64{1}, 4294967295},
		// Out of range or mismatched: a harmless 1.
		{[]int64{4294967295, 4294967295}, []int64{4294967295, 4294967295}, 1},
		{[]int64{2, 3}, []int64{1}, 1},
		{[]int64{0, 3}, []int64{1, 1}, 1},
		{[]int64{2, 3}, []int64{-1, 1}, 1},
	}
	for _, c := range cases {
		if got := LeadingStride(c.sizes, c.strides); got != c.want {
			t.Errorf("LeadingStride(%v, %v) = %d, want %d", c.sizes, c.strides, got, c.want)
		}
	}
}

func TestParsePyIntFollowsPython(t *testing.T) {
	ok := map[string]int64{
		"0": 0, "00": 0, "-0": 0, "7": 7, "-3": -3, "+4": 4, "- 2": -2, "1_000": 1000,
		"0x10": 16, "0X1f": 31, "0o17": 15, "0b101": 5, "0x_ff": 255,
		"99999999999999999999": math.MaxInt64, "-99999999999999999999": math.MinInt64 + 1,
	}
	for in, want := range ok {
		if got, err := parsePyInt(in); err != nil || got != want {
			t.Errorf("parsePyInt(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"_1", "1_", "1__0", "010", "0_7", "1.5", "1e3", "0x", "", "x", "0xg"} {
		if got, err := parsePyInt(in); err == nil {
			t.Errorf("parsePyInt(%q) = %d, want an error (Python rejects it)", in, got)
		}
	}
}

// TestDWORDWarningSuggestsAMultipleOf4: the warning's advice is a
// multiple of 4 that is a valid total, even where rounding up would wrap,
// and a slice's input gets the same warning under its own field name.
func TestDWORDWarningSuggestsAMultipleOf4(t *testing.T) {
	padded := TensorDesc{DataType: Float32, Sizes: []int64{2, 3}, Strides: []int64{5, 1}}
	for _, c := range []struct {
		total int64
		use   string
	}{
		{34, "(use 36)"},
		{math.MaxInt64, fmt.Sprintf("(use %d)", int64(math.MaxInt64)&^3)},
		{math.MaxInt64 - 2, fmt.Sprintf("(use %d)", int64(math.MaxInt64)&^3)},
		{math.MaxInt64 - 4, fmt.Sprintf("(use %d)", int64(math.MaxInt64)&^3)},
	} {
		d := padded
		d.TotalTensorSizeInBytes = int64p(c.total)
		l, err := NewLayout(d)
		if err != nil {
			t.Fatalf("total %d: %v", c.total, err)
		}
		if !hasViolation(l.Warnings, "totalTensorSizeInBytes", "multiple of 4", c.use) {
			t.Errorf("total %d: warnings %v, want %q", c.total, l.Warnings, c.use)
		}
		s, err := NewSlice1(Slice1Desc{Input: d, FeatureLevel: NewestFeatureLevel,
			WindowOffsets: []int64{0, 0}, WindowSizes: []int64{2, 3}, WindowStrides: []int64{1, 1}})
		if err != nil {
			t.Fatalf("slice of total %d: %v", c.total, err)
		}
		if !hasViolation(s.Input.Warnings, "inputTotalTensorSizeInBytes", "multiple of 4", c.use) {
			t.Errorf("slice input total %d: warnings %v, want %q", c.total, s.Input.Warnings, c.use)
		}
	}
}

// TestMessagesNameTheirField: a tensor's violations name the field they
// are reported at, whether core names the tensor's fields (sizes,
// inputStrides) or a request renames them afterwards (torch.size).
func TestMessagesNameTheirField(t *testing.T) {
	slice := func(in TensorDesc) error {
		n := len(in.Sizes)
		ones := slices.Repeat([]int64{1}, n)
		_, err := NewSlice1(Slice1Desc{Input: in, WindowOffsets: make([]int64, n), WindowSizes: ones, WindowStrides: ones})
		return err
	}
	layout := func(in TensorDesc) error { _, err := NewLayout(in); return err }
	for _, c := range []struct {
		name     string
		validate func(TensorDesc) error
		in       TensorDesc
		rename   string // "" keeps core's field
		field    string
		message  string
	}{
		{"layout strides count", layout, TensorDesc{DataType: Float32, Sizes: []int64{2, 3}, Strides: []int64{1}}, "",
			"strides", "strides must have DimensionCount entries (2), got 1 entry"},
		{"slice input strides count", slice, TensorDesc{DataType: Float32, Sizes: []int64{2, 3}, Strides: []int64{1}}, "",
			"inputStrides", "inputStrides must have DimensionCount entries (2), got 1 entry"},
		{"slice input size zero", slice, TensorDesc{DataType: Float32, Sizes: []int64{0, 3}}, "",
			"inputSizes[0]", "inputSizes[0] == 0: specifying a size of zero in any dimension is invalid"},
		{"renamed size zero", layout, TensorDesc{DataType: Float32, Sizes: []int64{2, 0}}, "torch.size[1]",
			"torch.size[1]", "torch.size[1] == 0: specifying a size of zero in any dimension is invalid"},
		{"renamed strides count", layout, TensorDesc{DataType: Float32, Sizes: []int64{2, 3}, Strides: []int64{1}}, "numpy.strides",
			"numpy.strides", "numpy.strides must have DimensionCount entries (2), got 1 entry"},
		{"renamed negative stride", layout, TensorDesc{DataType: Float32, Sizes: []int64{2, 3}, Strides: []int64{-1, 1}}, "inputStrides[0]",
			"inputStrides[0]", "inputStrides[0] = -1: DML_BUFFER_TENSOR_DESC::Strides is const UINT*, so negative strides cannot be expressed (use DML_SLICE1 negative window strides to reverse)"},
		{"renamed total", layout, TensorDesc{DataType: Float32, Sizes: []int64{2}, TotalTensorSizeInBytes: new(int64(4))}, "InputTensor.TotalTensorSizeInBytes",
			"InputTensor.TotalTensorSizeInBytes", "InputTensor.TotalTensorSizeInBytes 4 < DMLCalcBufferTensorSize 8: the buffer must hold every element"},
		// A message that does not name its field keeps its words.
		{"renamed rank", layout, TensorDesc{DataType: Float32}, "inputSizes",
			"inputSizes", "DimensionCount 0 < 1: a tensor has at least one dimension"},
	} {
		vs := validationViolations(t, c.validate(c.in))
		if len(vs) != 1 {
			t.Fatalf("%s: %d violations: %v", c.name, len(vs), vs)
		}
		v := vs[0]
		if c.rename != "" {
			v = v.Renamed(c.rename)
		}
		if v.Field != c.field || v.Message != c.message {
			t.Errorf("%s: %s: %q\nwant %s: %q", c.name, v.Field, v.Message, c.field, c.message)
		}
		if f, ok := v.Args["field"]; ok && f != c.field {
			t.Errorf("%s: the field argument is %v, the field %s", c.name, f, c.field)
		}
	}
	// Renaming leaves the original's arguments alone.
	v := validationViolations(t, layout(TensorDesc{DataType: Float32, Sizes: []int64{0}}))[0]
	_ = v.Renamed("inputSizes[0]")
	if v.Args["field"] != "sizes[0]" {
		t.Errorf("Renamed changed its receiver's arguments: %v", v.Args)
	}
}

// TestSlice1ReportsEveryValueWhateverTheLengths: a list of the wrong
// length (DimensionCount) hides no other violation: every offset, window
// size, window stride and output size is checked against its own type,
// and an output size below 1 is reported even where its axis's window is
// invalid (there MaxCopiedElements is unknown, so the range cannot be).
func TestSlice1ReportsEveryValueWhateverTheLengths(t *testing.T) {
	in := TensorDesc{DataType: Float32, Sizes: []int64{4, 4, 4}}
	for _, tc := range []struct {
		name string
		d    Slice1Desc
		want []string // fields, in order
	}{
		{"lengths differ", Slice1Desc{Input: in,
			WindowOffsets: []int64{1 << 32, -1}, WindowSizes: []int64{0, 1 << 32, 5}, WindowStrides: []int64{0, 1 << 31, -1<<31 - 1}, OutputSizes: []int64{0, 1, 9}},
			[]string{"inputWindowOffsets", "inputWindowOffsets[0]", "inputWindowOffsets[1]", "inputWindowSizes[0]", "inputWindowSizes[1]",
				"inputWindowStrides[0]", "inputWindowStrides[1]", "inputWindowStrides[2]", "outputSizes[0]"}},
		{"an output size of 0 on an axis with a zero stride", Slice1Desc{Input: in,
			WindowOffsets: []int64{0, 0, 0}, WindowSizes: []int64{4, 4, 4}, WindowStrides: []int64{0, 1, 1}, OutputSizes: []int64{0, 4, 5}},
			[]string{"inputWindowStrides[0]", "outputSizes[0]", "outputSizes[2]"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewSlice1(tc.d)
			if err == nil {
				t.Fatal("accepted")
			}
			if got := fieldsOf(validationViolations(t, err)); !slices.Equal(got, tc.want) {
				t.Errorf("violations at %q, want %q", got, tc.want)
			}
		})
	}
}
