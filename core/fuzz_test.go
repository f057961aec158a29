package core

import (
	"encoding/binary"
	"errors"
	"testing"
)

// Fuzz targets for the three entry points that take user input. Integer
// arrays travel as signed varints so the fuzzer reaches both small shapes
// and values past 2^32 or negative. Work per input is bounded: nothing is
// enumerated unless it is small.

const (
	fuzzMaxValues    = 10      // values decoded per array (ranks past 8 included)
	fuzzMaxEnumerate = 1 << 12 // elements enumerated per input
)

func decodeInts(b []byte) []int64 {
	var out []int64
	for len(b) > 0 && len(out) < fuzzMaxValues {
		v, n := binary.Varint(b)
		if n <= 0 {
			break
		}
		out = append(out, v)
		b = b[n:]
	}
	return out
}

func encodeInts(vs []int64) []byte {
	var b []byte
	for _, v := range vs {
		b = binary.AppendVarint(b, v)
	}
	return b
}

func checkValidationError(t *testing.T, err error) {
	t.Helper()
	var ve *ValidationError
	if !errors.As(err, &ve) || len(ve.Violations) == 0 {
		t.Fatalf("error %v is not a non-empty *ValidationError", err)
	}
	for _, v := range ve.Violations {
		if v.Field == "" || v.Message == "" {
			t.Fatalf("violation with an empty field or message: %+v", v)
		}
	}
}

// checkLayoutInvariants holds for every layout NewLayout accepts.
func checkLayoutInvariants(t *testing.T, l *Layout) {
	t.Helper()
	if !l.DataType.Valid() || l.Rank() < 1 || l.Rank() > MaxDimensionCount || len(l.Strides) != l.Rank() {
		t.Fatalf("accepted type %v rank %d strides %v", l.DataType, l.Rank(), l.Strides)
	}
	logical, implied := l.LogicalElementCount(), l.MinimumImpliedElementCount()
	if logical < 1 || logical > MaxUINT || implied < 1 || implied > MaxUINT {
		t.Fatalf("counts logical %d implied %d outside [1, 2^32-1]", logical, implied)
	}
	if d, ok := l.DistinctOffsetCount(); ok && (d < 1 || d > logical || d > implied) {
		t.Fatalf("distinct %d with logical %d implied %d", d, logical, implied)
	}
	if l.IsPacked() == TriTrue && (l.HasOverlap() != TriFalse || l.IsPadded() != TriFalse) {
		t.Fatalf("packed but overlap %s padded %s", triName(l.HasOverlap()), triName(l.IsPadded()))
	}
	if l.HasBroadcast() && l.HasOverlap() != TriTrue {
		t.Fatalf("broadcast without overlap")
	}
	min := l.MinimumBufferSizeInBytes()
	if min < 4 || min%4 != 0 || l.BufferSizeInBytes() < min {
		t.Fatalf("buffer minimum %d, size %d", min, l.BufferSizeInBytes())
	}
	// Validation keeps the helper's 32-bit index from wrapping: DirectMLX.h
	// agrees with the exact size, the documentation page's helper too
	// except for the 4-bit types, where it returns 0.
	dmlx, docPage := l.PublishedHelperResults()
	wantDoc := uint64(min)
	if l.ElementSizeInBits() == 4 {
		wantDoc = 0
	}
	if dmlx != uint64(min) || docPage != wantDoc {
		t.Fatalf("published helpers %d/%d, exact %d", dmlx, docPage, min)
	}
	if logical > fuzzMaxEnumerate || implied > 1<<20 {
		return
	}
	f := naiveLayoutFacts(l.Sizes, l.Strides)
	if d, ok := l.DistinctOffsetCount(); !ok || d != f.distinct {
		t.Fatalf("distinct (%d, %v), naive %d", d, ok, f.distinct)
	}
	if f.logical != logical || f.minImplied != implied || l.IsPacked() != triOf(f.packed) ||
		l.HasOverlap() != triOf(f.overlap) || l.IsPadded() != triOf(f.padded) || l.HasBroadcast() != f.broadcast {
		t.Fatalf("facts disagree with the naive reference %+v", f)
	}
	var st []int64
	if !l.StridesImplicit {
		st = l.Strides
	}
	if want := naiveBufferBytes(l.DataType.Bits(), l.Sizes, st); min != want {
		t.Fatalf("buffer minimum %d, naive %d", min, want)
	}
}

func FuzzNewLayout(f *testing.F) {
	for _, c := range loadSpecCases(f) {
		in := c.Inputs
		if c.Kind != "layout" && c.Kind != "buffer_size" && c.Kind != "invalid_layout" {
			continue
		}
		dt := Float32
		if in.DataType != "" {
			dt, _ = ParseDataType(in.DataType)
		}
		var total int64
		if in.TotalTensorSizeInBytes != nil {
			total = *in.TotalTensorSizeInBytes
		}
		f.Add(int8(dt), encodeInts(in.Sizes), encodeInts(in.Strides), in.Strides != nil, total, in.TotalTensorSizeInBytes != nil, in.GuaranteedBaseOffsetAlignment)
	}
	f.Add(int8(Float32), encodeInts([]int64{65535, 65537}), []byte(nil), false, int64(0), false, int64(0))
	f.Add(int8(UInt8), encodeInts([]int64{3, 3}), encodeInts([]int64{1 << 28, 1<<28 + 1}), true, int64(0), false, int64(1))
	f.Add(int8(Int4), encodeInts([]int64{3, 4}), encodeInts([]int64{1, 1}), true, int64(7), true, int64(1))
	f.Fuzz(func(t *testing.T, dt int8, sizesRaw, stridesRaw []byte, hasStrides bool, total int64, hasTotal bool, alignment int64) {
		d := TensorDesc{DataType: DataType(dt), Sizes: decodeInts(sizesRaw), GuaranteedBaseOffsetAlignment: alignment}
		if hasStrides {
			d.Strides = decodeInts(stridesRaw)
			if d.Strides == nil {
				d.Strides = []int64{}
			}
		}
		if hasTotal {
			d.TotalTensorSizeInBytes = &total
		}
		PublishedHelperResult(d.DataType, d.Sizes, d.Strides, true)
		PublishedHelperResult(d.DataType, d.Sizes, d.Strides, false)
		l, err := NewLayout(d)
		if err != nil {
			if l != nil {
				t.Fatalf("a layout and an error")
			}
			checkValidationError(t, err)
			return
		}
		checkLayoutInvariants(t, l)
		if hasTotal && total < l.MinimumBufferSizeInBytes() {
			t.Fatalf("TotalTensorSizeInBytes %d below the minimum %d accepted", total, l.MinimumBufferSizeInBytes())
		}
		CPPTensorDesc(l, "t")
	})
}

func FuzzNewSlice1(f *testing.F) {
	for _, c := range loadSpecCases(f) {
		in := c.Inputs
		if (c.Kind != "slice1" && c.Kind != "invalid_slice1") || in.Numpy != "" {
			continue
		}
		dt := in.DataType
		if dt == "" {
			dt = in.InputDataType
		}
		t, _ := ParseDataType(dt)
		fl := uint8(len(FeatureLevels) - 1)
		for i, l := range FeatureLevels {
			if l.String() == in.FeatureLevel {
				fl = uint8(i)
			}
		}
		f.Add(int8(t), fl, encodeInts(in.InputSizes), []byte(nil), false,
			encodeInts(in.WindowOffsets), encodeInts(in.WindowSizes), encodeInts(in.WindowStrides), encodeInts(in.OutputSizes), in.OutputSizes != nil)
	}
	f.Add(int8(UInt8), uint8(3), encodeInts([]int64{5, 4}), encodeInts([]int64{1, 5}), true,
		encodeInts([]int64{1, 0}), encodeInts([]int64{4, 4}), encodeInts([]int64{-3, 2}), []byte(nil), false)
	f.Add(int8(Float32), uint8(6), encodeInts([]int64{MaxUINT}), []byte(nil), false,
		encodeInts([]int64{MaxUINT}), encodeInts([]int64{1}), encodeInts([]int64{-1 << 31}), []byte(nil), false)
	f.Fuzz(func(t *testing.T, dt int8, fl uint8, sizesRaw, stridesRaw []byte, hasStrides bool, offRaw, sizeRaw, strideRaw, outRaw []byte, hasOut bool) {
		d := Slice1Desc{
			Input:         TensorDesc{DataType: DataType(dt), Sizes: decodeInts(sizesRaw)},
			WindowOffsets: decodeInts(offRaw),
			WindowSizes:   decodeInts(sizeRaw),
			WindowStrides: decodeInts(strideRaw),
		}
		if int(fl) < len(FeatureLevels) {
			d.FeatureLevel = FeatureLevels[fl]
		}
		if hasStrides {
			d.Input.Strides = decodeInts(stridesRaw)
		}
		if hasOut {
			d.OutputSizes = decodeInts(outRaw)
			if d.OutputSizes == nil {
				d.OutputSizes = []int64{}
			}
		}
		s, err := NewSlice1(d)
		if err != nil {
			if s != nil {
				t.Fatalf("a slice and an error")
			}
			checkValidationError(t, err)
			return
		}
		n := s.Input.Rank()
		checkLayoutInvariants(t, s.Input)
		checkLayoutInvariants(t, s.Output)
		if len(s.CopyStart) != n || len(s.MaxCopied) != n || len(s.OutputSizes) != n || len(s.WindowStrides) != n {
			t.Fatalf("derived arrays do not have %d entries", n)
		}
		for i := range n {
			if s.OutputSizes[i] < 1 || s.OutputSizes[i] > s.MaxCopied[i] || s.WindowStrides[i] == 0 {
				t.Fatalf("axis %d: output %d max %d stride %d", i, s.OutputSizes[i], s.MaxCopied[i], s.WindowStrides[i])
			}
			lo, hi := s.WindowOffsets[i], s.WindowOffsets[i]+s.WindowSizes[i]-1
			first, last := s.CopyStart[i], s.CopyStart[i]+(s.OutputSizes[i]-1)*s.WindowStrides[i]
			if lo < 0 || hi >= s.Input.Sizes[i] || first < lo || first > hi || last < lo || last > hi {
				t.Fatalf("axis %d: reads %d..%d outside the window %d..%d of %d", i, first, last, lo, hi, s.Input.Sizes[i])
			}
		}
		if s.OutputElementCount() > s.Input.LogicalElementCount() {
			t.Fatalf("%d outputs from %d inputs", s.OutputElementCount(), s.Input.LogicalElementCount())
		}
		s.CPP()
		s.Numpy()
		if s.OutputElementCount() > fuzzMaxEnumerate {
			return
		}
		offs, err := s.InputOffsets(fuzzMaxEnumerate)
		if err != nil {
			t.Fatalf("InputOffsets: %v", err)
		}
		coords, err := s.InputCoordinates(fuzzMaxEnumerate)
		if err != nil {
			t.Fatalf("InputCoordinates: %v", err)
		}
		for k, o := range offs {
			if o < 0 || o > s.Input.IndexOfLastElement() {
				t.Fatalf("output %d reads offset %d outside [0, %d]", k, o, s.Input.IndexOfLastElement())
			}
			if want, err := s.Input.Offset(coords[k]); err != nil || want != o {
				t.Fatalf("output %d reads offset %d, its coordinate %v is at %d (%v)", k, o, coords[k], want, err)
			}
		}
		small := true
		for _, sz := range s.Input.Sizes {
			small = small && sz <= 1<<16
		}
		if small {
			checkONNXExport(t, s)
			checkNumpyRoundTrip(t, s)
		}
	})
}

func FuzzParseNumpy(f *testing.F) {
	for _, c := range loadSpecCases(f) {
		if c.Inputs.Numpy != "" {
			f.Add(encodeInts(c.Inputs.InputSizes), c.Inputs.Numpy)
		}
		if c.Expected.NumpyEquivalent != "" {
			f.Add(encodeInts(c.Inputs.InputSizes), c.Expected.NumpyEquivalent)
		}
	}
	for _, e := range []string{"x[..., 1]", "x[1, ..., ::-2]", "x[::0]", "x[..., ...]", "x[-1, 2:]", "x[::4294967296]", "1:2,", "x[100000000000000000000:]"} {
		f.Add(encodeInts([]int64{4, 5, 6}), e)
	}
	f.Fuzz(func(t *testing.T, sizesRaw []byte, expr string) {
		sizes := decodeInts(sizesRaw)
		w, err := ParseNumpy(sizes, expr)
		if err != nil {
			return
		}
		n := len(sizes)
		if len(w.WindowOffsets) != n || len(w.WindowSizes) != n || len(w.WindowStrides) != n || len(w.OutputSizes) != n || len(w.Indices) != n {
			t.Fatalf("window arrays do not have %d entries: %+v", n, w)
		}
		if _, err := NewLayout(TensorDesc{DataType: Float32, Sizes: sizes}); err != nil {
			return // the input itself is invalid; nothing to slice
		}
		s, err := sliceOnPacked(Float32, sizes, numpyWindow(w))
		if err != nil {
			t.Fatalf("ParseNumpy(%v, %q) succeeded but NewSlice1 rejects the window %v: %v", sizes, expr, numpyWindow(w), err)
		}
		for i := range n {
			ix := w.Indices[i]
			// len(range(start, stop, step)) without enumerating it.
			var k int64
			switch {
			case ix[2] > 0 && ix[1] > ix[0]:
				k = (ix[1]-ix[0]-1)/ix[2] + 1
			case ix[2] < 0 && ix[0] > ix[1]:
				k = (ix[0]-ix[1]-1)/(-ix[2]) + 1
			}
			if k != w.OutputSizes[i] {
				t.Fatalf("axis %d: slice.indices %v has %d elements, the window %d", i, ix, k, w.OutputSizes[i])
			}
			if s.CopyStart[i] != ix[0] {
				t.Fatalf("axis %d: copying starts at %d, slice.indices at %d", i, s.CopyStart[i], ix[0])
			}
		}
		if s.OutputElementCount() <= fuzzMaxEnumerate {
			back := checkNumpyRoundTrip(t, s)
			if !sameWindow(numpyWindow(back), numpyWindow(w)) {
				t.Fatalf("round trip of %q through %q: %v, want %v", expr, s.Numpy(), numpyWindow(back), numpyWindow(w))
			}
		}
	})
}
