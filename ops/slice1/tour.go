package slice1

import (
	"context"
	"fmt"
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// tourExample is one of the DML_SLICE1 page's examples as the tour
// works it out: its desc and the page's errata it shows.
type tourExample struct {
	desc   core.Slice1Desc
	errata []string
}

// tourExamples are the examples the tour works out, by preset.
var tourExamples = map[string]tourExample{
	"example1": {desc: sliceExample(1, 1, 2, 2), errata: []string{erratumE3}},
	"example2": {desc: sliceExample(1, 1, -2, 2), errata: []string{erratumE1, erratumE2}},
}

// sliceExample is the input of the DML_SLICE1 page's examples: 4×4,
// FLOAT32, values 1..16, the window of rows 0-3 and columns 1-3.
func sliceExample(strides ...int64) core.Slice1Desc {
	return core.Slice1Desc{
		Input:         core.TensorDesc{DataType: core.Float32, Sizes: []int64{1, 1, 4, 4}},
		WindowOffsets: []int64{0, 0, 0, 1},
		WindowSizes:   []int64{1, 1, 4, 3},
		WindowStrides: strides,
	}
}

// The errata of the DML_SLICE1 page the tour points out, by name; their
// text is the catalogs' tour.e1 ... tour.e3.
const (
	erratumE1 = "E1"
	erratumE2 = "E2"
	erratumE3 = "E3"
)

// TourExample works the DML_SLICE1 page's example preset out with core
// and the slice engine, for the tour step beside the live explorer.
func (Kind) TourExample(ctx context.Context, preset string) (views.TourSlice, error) {
	st, ok := tourExamples[preset]
	if !ok {
		return views.TourSlice{}, fmt.Errorf("no tour example %q", preset)
	}
	s, err := core.NewSlice1(st.desc)
	if err != nil {
		return views.TourSlice{}, err
	}
	d, err := Diagram(ctx, s, nil)
	if err != nil {
		return views.TourSlice{}, err
	}
	brace := func(v []int64) string { return "{" + picture.JoinCoord(v) + "}" }
	return views.TourSlice{
		Href: "/slice?preset=" + preset,
		Numbers: []views.Fact{
			{Name: "InputTensor", Value: "FLOAT32 " + brace(s.Input.Sizes) + ", " + i18n.T(ctx, "tour.values"), TestID: "tour-input"},
			{Name: "InputWindowOffsets", Value: brace(s.WindowOffsets), TestID: "tour-offsets"},
			{Name: "InputWindowSizes", Value: brace(s.WindowSizes), TestID: "tour-sizes"},
			{Name: "InputWindowStrides", Value: brace(s.WindowStrides), TestID: "tour-strides"},
			{Name: "CopyStart", Value: brace(s.CopyStart), Hint: i18n.T(ctx, "tour.hint.copystart"), TestID: "tour-copystart"},
			{Name: "MaxCopiedElements", Value: brace(s.MaxCopied), Hint: "1 + (size − 1) / |stride|", TestID: "tour-maxcopied"},
			{Name: "OutputTensor", Value: "FLOAT32 " + brace(s.OutputSizes), TestID: "tour-outsizes"},
			{Name: "Output", Value: nested(s.OutputSizes, d.Output), Hint: i18n.T(ctx, "tour.hint.engine"), TestID: "tour-output"},
		},
		Errata: errata(ctx, st.errata),
	}, nil
}

// nested writes row-major values in brackets, leaving out leading size-1
// dimensions: [[2, 4], [10, 12]].
func nested(sizes []int64, vals []string) string {
	for len(sizes) > 1 && sizes[0] == 1 {
		sizes = sizes[1:]
	}
	var write func(sizes []int64, vals []string) string
	write = func(sizes []int64, vals []string) string {
		if len(sizes) == 1 {
			return "[" + strings.Join(vals, ", ") + "]"
		}
		per := int64(len(vals)) / sizes[0]
		parts := make([]string, sizes[0])
		for i := range parts {
			parts[i] = write(sizes[1:], vals[int64(i)*per:int64(i+1)*per])
		}
		return "[" + strings.Join(parts, ", ") + "]"
	}
	return write(sizes, vals)
}

// errata are the named errata with their text in ctx's locale.
func errata(ctx context.Context, names []string) []views.Fact {
	out := make([]views.Fact, len(names))
	for i, n := range names {
		out[i] = views.Fact{Name: n, Value: i18n.T(ctx, i18n.Key("tour."+strings.ToLower(n))), TestID: "erratum-" + n}
	}
	return out
}
