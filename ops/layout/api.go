package layout

import (
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
)

// BufferSizeSteps is DMLCalcBufferTensorSize worked step by step.
type BufferSizeSteps struct {
	ElementSizeInBits   int64  `json:"elementSizeInBits"`
	Formula             string `json:"formula"`
	ElementCount        int64  `json:"elementCount"`
	SizeInBits          int64  `json:"sizeInBits"`
	BytesBeforeRounding int64  `json:"bytesBeforeRounding"`
	Result              int64  `json:"result"`
}

// HelperResults is what the published C++ DMLCalcBufferTensorSize helpers
// return for the description, wrap-arounds and missing cases included, to
// compare with minimumBufferSizeInBytes (which is exact).
type HelperResults struct {
	DirectMLX         uint64 `json:"directmlx"`         // DirectMLX.h's
	DocumentationPage uint64 `json:"documentationPage"` // the one printed on the documentation page: 0 for UINT4/INT4
}

// Response is the answer of POST /api/v1/layout. Facts that cannot be
// settled without enumerating a very large tensor are null.
type Response struct {
	DataType                   string           `json:"dataType"`
	ElementSizeInBits          int64            `json:"elementSizeInBits"`
	Sizes                      []int64          `json:"sizes"`
	Strides                    []int64          `json:"strides"`
	StridesImplicit            bool             `json:"stridesImplicit"`
	DimensionLabels            []string         `json:"dimensionLabels"`
	LogicalElementCount        int64            `json:"logicalElementCount"`
	IndexOfLastElement         int64            `json:"indexOfLastElement"`
	MinimumImpliedElementCount int64            `json:"minimumImpliedElementCount"`
	DistinctOffsetCount        *int64           `json:"distinctOffsetCount"`
	IsPacked                   *bool            `json:"isPacked"`
	HasBroadcast               bool             `json:"hasBroadcast"`
	HasOverlap                 *bool            `json:"hasOverlap"`
	IsPadded                   *bool            `json:"isPadded"`
	MinimumBufferSizeInBytes   int64            `json:"minimumBufferSizeInBytes"`
	BufferSizeInBytes          int64            `json:"bufferSizeInBytes"`
	BufferSizeSteps            BufferSizeSteps  `json:"bufferSizeSteps"`
	PublishedHelperResults     HelperResults    `json:"publishedHelperResults"`
	Offsets                    []int64          `json:"offsets,omitempty"`
	CPP                        string           `json:"cpp"`
	Warnings                   []core.Violation `json:"warnings"`
}

// NewResponse describes l for the API and the pages.
func NewResponse(l *core.Layout) Response {
	steps := l.BufferSizeSteps()
	formula := "product(sizes) * elementSizeInBits"
	if steps.StridesGiven {
		formula = "(indexOfLastElement + 1) * elementSizeInBits"
	}
	r := Response{
		DataType:                   l.DataType.String(),
		ElementSizeInBits:          l.ElementSizeInBits(),
		Sizes:                      l.Sizes,
		Strides:                    l.Strides,
		StridesImplicit:            l.StridesImplicit,
		DimensionLabels:            core.DimensionLabels(l.Rank()),
		LogicalElementCount:        l.LogicalElementCount(),
		IndexOfLastElement:         l.IndexOfLastElement(),
		MinimumImpliedElementCount: l.MinimumImpliedElementCount(),
		IsPacked:                   picture.TriPtr(l.IsPacked()),
		HasBroadcast:               l.HasBroadcast(),
		HasOverlap:                 picture.TriPtr(l.HasOverlap()),
		IsPadded:                   picture.TriPtr(l.IsPadded()),
		MinimumBufferSizeInBytes:   steps.Result,
		BufferSizeInBytes:          l.BufferSizeInBytes(),
		BufferSizeSteps: BufferSizeSteps{
			ElementSizeInBits:   steps.ElementSizeInBits,
			Formula:             formula,
			ElementCount:        steps.ElementCount,
			SizeInBits:          steps.SizeInBits,
			BytesBeforeRounding: steps.BytesBeforeRounding,
			Result:              steps.Result,
		},
		CPP:      core.CPPTensorDesc(l, "tensor"),
		Warnings: picture.NonNil(l.Warnings),
	}
	r.PublishedHelperResults.DirectMLX, r.PublishedHelperResults.DocumentationPage = l.PublishedHelperResults()
	if n, ok := l.DistinctOffsetCount(); ok {
		r.DistinctOffsetCount = &n
	}
	if l.LogicalElementCount() <= picture.MaxListedElements {
		r.Offsets = picture.LayoutOffsets(l)
	}
	return r
}

// APICost is what POST /api/v1/layout allocates for l.
func APICost(l *core.Layout) int64 {
	c := int64(picture.CostBase)
	if n := l.LogicalElementCount(); n <= picture.MaxListedElements {
		c += n * picture.ApiPerOffset
	}
	return c
}
