package convert

import (
	"context"
	"encoding/base64"

	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
)

// Request is the body of POST /api/v1/identity: one logical tensor (data
// type and sizes, shared as DirectML requires) described twice, the
// input's strides and buffer and the output's, and the optional
// DML_SCALE_BIAS. Strides absent mean packed (nullptr).
type Request struct {
	DataType      string  `json:"dataType"`
	Sizes         []int64 `json:"sizes"`
	InputStrides  []int64 `json:"inputStrides"`
	OutputStrides []int64 `json:"outputStrides"`
	// The totals nil mean the minimum (DMLCalcBufferTensorSize); the
	// alignments 0 no guarantee.
	InputTotalTensorSizeInBytes         *int64            `json:"inputTotalTensorSizeInBytes"`
	InputGuaranteedBaseOffsetAlignment  int64             `json:"inputGuaranteedBaseOffsetAlignment"`
	OutputTotalTensorSizeInBytes        *int64            `json:"outputTotalTensorSizeInBytes"`
	OutputGuaranteedBaseOffsetAlignment int64             `json:"outputGuaranteedBaseOffsetAlignment"`
	ScaleBias                           *ScaleBiasRequest `json:"scaleBias"`
}

// ScaleBiasRequest is a DML_SCALE_BIAS as sent: both fields are needed
// (a missing scale read as 0 would zero the tensor).
type ScaleBiasRequest struct {
	Scale *float64 `json:"scale"`
	Bias  *float64 `json:"bias"`
}

// SideFacts is what one side of the copy is and does.
type SideFacts struct {
	Strides                  []int64 `json:"strides"`
	StridesImplicit          bool    `json:"stridesImplicit"`
	MinimumBufferSizeInBytes int64   `json:"minimumBufferSizeInBytes"`
	BufferSizeInBytes        int64   `json:"bufferSizeInBytes"`
	HasBroadcast             bool    `json:"hasBroadcast"`
	HasOverlap               *bool   `json:"hasOverlap"`
	IsPadded                 *bool   `json:"isPadded"`
	// Runs are the stretches of consecutive cells this side reads (the
	// input) or writes (the output) in the copy's row-major order, each
	// RunLength elements long; InnerStride is the innermost loop's step
	// in elements.
	Runs        int64 `json:"runs"`
	RunLength   int64 `json:"runLength"`
	InnerStride int64 `json:"innerStride"`
	// BytesTouched is the bytes of the distinct cells this side reaches
	// (null when that cannot be settled without visiting a large
	// tensor); SpanBytes from offset 0 to the end of its last element.
	BytesTouched *int64 `json:"bytesTouched"`
	SpanBytes    int64  `json:"spanBytes"`
}

// InPlace is what happens when the output aliases the input (one buffer,
// both at offset 0). Known false: the tensor is too large to visit.
type InPlace struct {
	Known bool `json:"known"`
	Safe  bool `json:"safe"`
	// Clobbered: element Writer writes cell Cell before element Reader
	// (later in row-major order) reads it. Race: Writer writes the cell
	// Reader read earlier, which only the row-major order makes right.
	Clobbered bool    `json:"clobbered"`
	Race      bool    `json:"race"`
	Writer    []int64 `json:"writer,omitempty"`
	Reader    []int64 `json:"reader,omitempty"`
	Cell      *int64  `json:"cell,omitempty"`
}

// ONNX is the conversion as an ONNX node, when it is one, and the
// one-node model file (core.Identity.ONNXModel) in base64.
type ONNX struct {
	Op    string `json:"op"`
	Perm  []int  `json:"perm"`
	Opset int    `json:"opset"`
	Model string `json:"model"`
}

// Response is the answer of POST /api/v1/identity.
type Response struct {
	DataType     string    `json:"dataType"`
	Sizes        []int64   `json:"sizes"`
	ElementCount int64     `json:"elementCount"`
	BytesCopied  int64     `json:"bytesCopied"`
	Input        SideFacts `json:"input"`
	Output       SideFacts `json:"output"`
	// Scattered is the side whose runs are shorter: "input", "output",
	// or "neither" (the same runs on both sides).
	Scattered string `json:"scattered"`
	// SameMemory: every element keeps its offset, and NoCopyNeeded adds
	// that no scale or bias changes its value.
	SameMemory   bool    `json:"sameMemory"`
	NoCopyNeeded bool    `json:"noCopyNeeded"`
	InPlace      InPlace `json:"inPlace"`
	FeatureLevel string  `json:"featureLevel"` // the oldest that runs the copy
	Permutation  []int   `json:"permutation,omitempty"`
	// Offsets of every element in row-major order, up to
	// picture.MaxListedElements elements.
	InputOffsets  []int64          `json:"inputOffsets,omitempty"`
	OutputOffsets []int64          `json:"outputOffsets,omitempty"`
	CPP           string           `json:"cpp"`
	NumPy         string           `json:"numpy"`
	ONNX          *ONNX            `json:"onnx,omitempty"`
	Warnings      []core.Violation `json:"warnings"`
}

// Identity validates a request and returns the core copy, or every
// violation as a 422.
func (r Request) Identity() (*core.Identity, *picture.Invalid) {
	dt, vs := picture.ParseType("dataType", r.DataType, true)
	in := core.TensorDesc{DataType: dt, Sizes: r.Sizes, Strides: r.InputStrides,
		TotalTensorSizeInBytes: r.InputTotalTensorSizeInBytes, GuaranteedBaseOffsetAlignment: r.InputGuaranteedBaseOffsetAlignment}
	out := core.TensorDesc{DataType: dt, Sizes: r.Sizes, Strides: r.OutputStrides,
		TotalTensorSizeInBytes: r.OutputTotalTensorSizeInBytes, GuaranteedBaseOffsetAlignment: r.OutputGuaranteedBaseOffsetAlignment}
	if dt == core.Unknown {
		// The other rules still report, against a placeholder type; the
		// ones that need the element size wait for a real one.
		in.DataType, out.DataType = core.Float32, core.Float32
		in.TotalTensorSizeInBytes, in.GuaranteedBaseOffsetAlignment = placeholder(in.TotalTensorSizeInBytes, in.GuaranteedBaseOffsetAlignment)
		out.TotalTensorSizeInBytes, out.GuaranteedBaseOffsetAlignment = placeholder(out.TotalTensorSizeInBytes, out.GuaranteedBaseOffsetAlignment)
	}
	var sb *core.ScaleBias
	if r.ScaleBias != nil {
		sb = &core.ScaleBias{Scale: 1}
		for _, f := range []struct {
			field string
			v     *float64
			to    *float64
		}{{"scaleBias.scale", r.ScaleBias.Scale, &sb.Scale}, {"scaleBias.bias", r.ScaleBias.Bias, &sb.Bias}} {
			if f.v == nil {
				vs = append(vs, core.NewMsg("convert.scalebias.required", "{field} is missing: DML_SCALE_BIAS has both a Scale and a Bias (1 and 0 change nothing)", core.Args{"field": f.field}).At(f.field))
				continue
			}
			*f.to = *f.v
		}
	}
	id, err := core.NewIdentity(core.IdentityDesc{Input: in, Output: out, ScaleBias: sb})
	vs = append(vs, picture.Required(picture.CoreViolations(err), picture.List{Field: "sizes", Values: r.Sizes})...)
	if len(vs) > 0 {
		return nil, picture.InvalidOf(vs...)
	}
	return id, nil
}

// placeholder keeps only the buffer values that can be judged without
// the element size (a negative total, an alignment that is not a power
// of two).
func placeholder(total *int64, align int64) (*int64, int64) {
	if total != nil && *total >= 0 {
		total = nil
	}
	if align > 0 && align&(align-1) == 0 {
		align = 0
	}
	return total, align
}

// NewResponse describes id for the API and the pages; ctx bounds the
// in-place check's visit.
func NewResponse(ctx context.Context, id *core.Identity) (Response, error) {
	return describe(ctx, id, id.Input.LogicalElementCount() <= picture.MaxListedElements)
}

// describe is NewResponse, listing every element's offsets when list
// is set (a picture drawn on canvases needs none: the page works them
// out from the strides).
func describe(ctx context.Context, id *core.Identity, list bool) (Response, error) {
	in, out := id.Input, id.Output
	e := in.DataType.Bits() / 8
	n := in.LogicalElementCount()
	r := Response{
		DataType: in.DataType.String(), Sizes: in.Sizes, ElementCount: n, BytesCopied: n * e,
		Input: sideOf(in), Output: sideOf(out),
		SameMemory: id.SameMemory(), NoCopyNeeded: id.NoCopyNeeded(),
		FeatureLevel: id.MinFeatureLevel().String(),
		CPP:          id.CPP(), NumPy: id.NumPy(),
		Warnings: picture.NonNil(append(append([]core.Violation(nil), in.Warnings...), out.Warnings...)),
	}
	switch {
	case r.Input.Runs > r.Output.Runs:
		r.Scattered = "input"
	case r.Input.Runs < r.Output.Runs:
		r.Scattered = "output"
	default:
		r.Scattered = "neither"
	}
	if p, ok := id.Permutation(); ok {
		r.Permutation = p
	}
	if p, ok := id.ONNX(); ok {
		r.ONNX = &ONNX{Op: "Transpose", Perm: p, Opset: core.ONNXOpset}
		if m, ok := id.ONNXModel(); ok {
			r.ONNX.Model = base64.StdEncoding.EncodeToString(m)
		}
	}
	iw, ow := compute.IdentityWalks(id)
	rep, err := compute.InPlace(ctx, iw, ow)
	if err != nil {
		return Response{}, err
	}
	r.InPlace = InPlace{Known: rep.Known, Safe: rep.Safe, Clobbered: rep.Clobbered, Race: rep.Race}
	if rep.Clobbered || rep.Race {
		cell := rep.Cell
		r.InPlace.Writer, r.InPlace.Reader, r.InPlace.Cell = in.Coordinate(rep.Writer), in.Coordinate(rep.Reader), &cell
	}
	if list {
		r.InputOffsets, r.OutputOffsets = make([]int64, n), make([]int64, n)
		compute.Offsets(iw, 0, r.InputOffsets)
		compute.Offsets(ow, 0, r.OutputOffsets)
	}
	return r, nil
}

func sideOf(l *core.Layout) SideFacts {
	e := l.DataType.Bits() / 8
	runs := core.RunsOf(l)
	s := SideFacts{
		Strides: l.Strides, StridesImplicit: l.StridesImplicit,
		MinimumBufferSizeInBytes: l.MinimumBufferSizeInBytes(), BufferSizeInBytes: l.BufferSizeInBytes(),
		HasBroadcast: l.HasBroadcast(), HasOverlap: picture.TriPtr(l.HasOverlap()), IsPadded: picture.TriPtr(l.IsPadded()),
		Runs: runs.Count, RunLength: runs.Length, InnerStride: runs.Stride,
		SpanBytes: (l.IndexOfLastElement() + 1) * e,
	}
	if d, ok := l.DistinctOffsetCount(); ok {
		b := d * e
		s.BytesTouched = &b
	}
	return s
}
