package core

// BufferSizeSteps is DMLCalcBufferTensorSize worked step by step, for the
// facts panel and the API.
type BufferSizeSteps struct {
	ElementSizeInBits int64
	// StridesGiven selects the formula: product(sizes) * bits when false,
	// (IndexOfLastElement + 1) * bits when true.
	StridesGiven        bool
	IndexOfLastElement  int64 // meaningful when StridesGiven
	ElementCount        int64 // the count multiplied by the element size
	SizeInBits          int64
	BytesBeforeRounding int64 // ceil(bits / 8)
	Result              int64 // rounded up to a multiple of 4
}

// CalcBufferTensorSize is DMLCalcBufferTensorSize as DirectMLX.h computes
// it (bits, ceil to bytes, round up to 4), for a description that passed
// validation. It is exact: every intermediate fits in int64 because the
// element counts are at most 2^32-1 and the element size at most 64 bits.
func CalcBufferTensorSize(dt DataType, sizes, strides []int64) BufferSizeSteps {
	s := BufferSizeSteps{ElementSizeInBits: dt.Bits(), StridesGiven: strides != nil}
	if strides == nil {
		c, _ := logicalCountOf(sizes)
		s.ElementCount = int64(c)
	} else {
		last, _ := indexOfLastOf(sizes, strides)
		s.IndexOfLastElement = int64(last)
		s.ElementCount = int64(last) + 1
	}
	s.SizeInBits = s.ElementCount * s.ElementSizeInBits
	s.BytesBeforeRounding = (s.SizeInBits + 7) / 8
	s.Result = roundUp4(s.BytesBeforeRounding)
	return s
}

// BufferSizeSteps returns the worked DMLCalcBufferTensorSize of l.
func (l *Layout) BufferSizeSteps() BufferSizeSteps {
	return CalcBufferTensorSize(l.DataType, l.Sizes, l.descStrides())
}

// PublishedHelperResults is what the C++ helpers return for l's
// description: DirectMLX.h's DMLCalcBufferTensorSize and the one printed on
// the documentation page (see PublishedHelperResult). Validation keeps the
// index of the last element at most 2^32-2 and the logical count at most
// 2^32-1, so the 32-bit accumulation cannot wrap for a Layout: directmlx
// always equals BufferSizeSteps().Result, and documentationPage differs
// from it only for the 4-bit types (0).
func (l *Layout) PublishedHelperResults() (directmlx, documentationPage uint64) {
	st := l.descStrides()
	return PublishedHelperResult(l.DataType, l.Sizes, st, true), PublishedHelperResult(l.DataType, l.Sizes, st, false)
}

// descStrides is the Strides pointer of l's description: nil when packed.
func (l *Layout) descStrides() []int64 {
	if l.StridesImplicit {
		return nil
	}
	return l.Strides
}

func minimumBufferSize(dt DataType, sizes, strides []int64) int64 {
	return CalcBufferTensorSize(dt, sizes, strides).Result
}

func roundUp4(n int64) int64 { return (n + 3) &^ 3 }

// PublishedHelperResult reproduces what the C++ helper returns for the same
// arguments, wrap-arounds included: the index of the last element is
// accumulated in a 32-bit UINT and the rest in UINT64. withFourBit selects
// DirectMLX.h (which knows UINT4/INT4) over the helper printed on the
// documentation page (which returns 0 for them). It exists to show users
// where the published helper goes wrong; the project never relies on it.
func PublishedHelperResult(dt DataType, sizes, strides []int64, withFourBit bool) uint64 {
	bitsPer := uint64(dt.Bits())
	if bitsPer == 4 && !withFourBit {
		return 0
	}
	if bitsPer == 0 || len(sizes) == 0 {
		return 0
	}
	if strides != nil && len(strides) != len(sizes) {
		// The helper takes one DimensionCount for both arrays; mismatched
		// lengths cannot be passed to it (and would read past an array).
		return 0
	}
	var implied uint64
	if strides == nil {
		implied = uint64(uint32(sizes[0]))
		for _, s := range sizes[1:] {
			implied *= uint64(uint32(s))
		}
	} else {
		var last uint32
		for i, s := range sizes {
			last += (uint32(s) - 1) * uint32(strides[i])
		}
		implied = uint64(last) + 1
	}
	var bytes uint64
	if withFourBit {
		bytes = (implied*bitsPer + 7) / 8
	} else {
		bytes = implied * (bitsPer / 8)
	}
	return (bytes + 3) &^ 3
}
