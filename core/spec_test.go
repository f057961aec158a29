package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The worked cases of the specification, copied from the shared reference
// folder into testdata so that the tests read only the project's own files.
const specCasesPath = "testdata/spec-cases.json"

type specWindow struct {
	Offsets []int64 `json:"input_window_offsets"`
	Sizes   []int64 `json:"input_window_sizes"`
	Strides []int64 `json:"input_window_strides"`
	Output  []int64 `json:"output_sizes"`
}

type specONNX struct {
	Starts []int64 `json:"starts"`
	Ends   []int64 `json:"ends"`
	Axes   []int64 `json:"axes"`
	Steps  []int64 `json:"steps"`
}

type specInputs struct {
	// layout, buffer_size, invalid_layout
	Sizes                         []int64   `json:"sizes"`
	Strides                       []int64   `json:"strides"`
	Layout                        string    `json:"layout"`
	LabelsRowMajor                []string  `json:"labels_row_major"`
	Queries                       [][]int64 `json:"queries"`
	DocBuffer                     []string  `json:"doc_buffer"`
	Broadcast                     []bool    `json:"broadcast"`
	DataType                      string    `json:"data_type"`
	TotalTensorSizeInBytes        *int64    `json:"total_tensor_size_in_bytes"`
	GuaranteedBaseOffsetAlignment int64     `json:"guaranteed_base_offset_alignment"`
	// slice1, invalid_slice1
	InputSizes          []int64   `json:"input_sizes"`
	InputValuesRowMajor []int64   `json:"input_values_row_major"`
	InputValues         string    `json:"input_values"`
	WindowOffsets       []int64   `json:"input_window_offsets"`
	WindowSizes         []int64   `json:"input_window_sizes"`
	WindowStrides       []int64   `json:"input_window_strides"`
	OutputSizes         []int64   `json:"output_sizes"`
	Numpy               string    `json:"numpy"`
	ONNX                *specONNX `json:"onnx"`
	InputDataType       string    `json:"input_data_type"`
	OutputDataType      string    `json:"output_data_type"`
	FeatureLevel        string    `json:"feature_level"`
}

type specExpected struct {
	// layout
	EffectiveStrides       []int64   `json:"effective_strides"`
	OffsetsRowMajor        []int64   `json:"offsets_row_major"`
	LogicalElementCount    *int64    `json:"logical_element_count"`
	MinImpliedElementCount *int64    `json:"min_implied_element_count"`
	DistinctOffsetCount    *int64    `json:"distinct_offset_count"`
	IsPacked               *bool     `json:"is_packed"`
	HasBroadcast           *bool     `json:"has_broadcast"`
	HasOverlap             *bool     `json:"has_overlap"`
	IsPadded               *bool     `json:"is_padded"`
	BufferView             []*string `json:"buffer_view"`
	DocBufferElementCount  *int64    `json:"doc_buffer_element_count"`
	QueryOffsets           []int64   `json:"query_offsets"`
	QueryLabels            []string  `json:"query_labels"`
	Note                   string    `json:"note"`
	// buffer_size
	ElementSizeBits      *int64  `json:"element_size_bits"`
	IndexOfLastElement   *int64  `json:"index_of_last_element"`
	MinImpliedSizeInBits *int64  `json:"min_implied_size_in_bits"`
	BytesBefore4Rounding *int64  `json:"bytes_before_4_rounding"`
	DirectMLXResult      *uint64 `json:"directmlx_result"`
	HelperDocResult      *uint64 `json:"helper_doc_result"`
	// slice1, invalid_slice1
	Valid                *bool       `json:"valid"`
	MaxCopiedElements    []int64     `json:"max_copied_elements"`
	CopyStart            []int64     `json:"copy_start"`
	OutputValuesRowMajor []int64     `json:"output_values_row_major"`
	InputCoordsRead      [][]int64   `json:"input_coords_read"`
	NumpyEquivalent      string      `json:"numpy_equivalent"`
	PythonSliceIndices   [][3]int64  `json:"python_slice_indices"`
	OutputSizes          []int64     `json:"output_sizes"`
	DMLSlice1Tight       *specWindow `json:"dml_slice1_tight"`
	DMLSlice1ORTStyle    *specWindow `json:"dml_slice1_ort_style"`
	ONNXSpecOutputSizes  []int64     `json:"onnx_spec_output_sizes"`
	// invalid_*
	Reasons             []string `json:"reasons"`
	Confidence          string   `json:"confidence"`
	HelperLiteralResult *uint64  `json:"helper_literal_result"`
}

type specCase struct {
	Name     string       `json:"name"`
	Kind     string       `json:"kind"`
	Inputs   specInputs   `json:"inputs"`
	Expected specExpected `json:"expected"`
	Source   string       `json:"source"`
}

// loadSpecCases decodes the copy strictly: a field the structs above do not
// know fails the test, so no expected value can be silently ignored.
func loadSpecCases(tb testing.TB) []specCase {
	tb.Helper()
	data, err := os.ReadFile(specCasesPath)
	if err != nil {
		tb.Fatalf("reading %s: %v", specCasesPath, err)
	}
	var file struct {
		About string     `json:"about"`
		Cases []specCase `json:"cases"`
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&file); err != nil {
		tb.Fatalf("decoding %s: %v", specCasesPath, err)
	}
	if len(file.Cases) == 0 {
		tb.Fatalf("%s holds no cases", specCasesPath)
	}
	return file.Cases
}

func TestSpecCases(t *testing.T) {
	cases := loadSpecCases(t)
	names := map[string]bool{}
	for _, c := range cases {
		if names[c.Name] {
			t.Errorf("duplicate case name %q", c.Name)
		}
		names[c.Name] = true
		t.Run(c.Kind+"/"+c.Name, func(t *testing.T) {
			switch c.Kind {
			case "layout":
				checkLayoutCase(t, c)
			case "buffer_size":
				checkBufferSizeCase(t, c)
			case "invalid_layout":
				checkInvalidLayoutCase(t, c)
			case "slice1":
				if c.Inputs.Numpy != "" {
					checkNumpySliceCase(t, c)
				} else {
					checkDirectSliceCase(t, c)
				}
			case "invalid_slice1":
				checkInvalidSliceCase(t, c)
			default:
				t.Fatalf("case kind %q has no test", c.Kind)
			}
		})
	}
}

// ---- helpers shared by the test files ----

func mustDataType(t *testing.T, name string) DataType {
	t.Helper()
	dt, err := ParseDataType(name)
	if err != nil {
		t.Fatalf("ParseDataType(%q): %v", name, err)
	}
	return dt
}

// rowMajorIndex is the logical (row-major) index of coord in a tensor of the
// given sizes, the position of the element in a row-major value list.
func rowMajorIndex(sizes, coord []int64) int64 {
	var idx int64
	for i, s := range sizes {
		idx = idx*s + coord[i]
	}
	return idx
}

func eq[T comparable](a, b []T) bool { return slices.Equal(a, b) }

func triOf(b bool) Tri {
	if b {
		return TriTrue
	}
	return TriFalse
}

func triName(t Tri) string {
	switch t {
	case TriTrue:
		return "true"
	case TriFalse:
		return "false"
	}
	return "unknown"
}

// containsFold reports whether s contains sub, ignoring case.
func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), strings.ToLower(sub))
}

// validationViolations unwraps a *ValidationError.
func validationViolations(t *testing.T, err error) []Violation {
	t.Helper()
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("error %v (%T) is not a *ValidationError", err, err)
	}
	if len(ve.Violations) == 0 {
		t.Fatalf("ValidationError with no violations")
	}
	for _, v := range ve.Violations {
		if v.Field == "" || v.Message == "" {
			t.Errorf("violation with an empty field or message: %+v", v)
		}
		if !strings.Contains(ve.Error(), v.Message) {
			t.Errorf("Error() %q does not include the message %q", ve.Error(), v.Message)
		}
	}
	return ve.Violations
}

// hasViolation reports whether some violation concerns field and states
// every keyword (case-insensitively).
func hasViolation(vs []Violation, field string, keywords ...string) bool {
	for _, v := range vs {
		if v.Field != field {
			continue
		}
		ok := true
		for _, k := range keywords {
			if !containsFold(v.Message, k) {
				ok = false
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// bufferPicture places every logical element's label at its offset over
// cells buffer cells; unused cells stay nil. Two labels on one cell must
// agree (a broadcast shows the same value twice).
func bufferPicture(t *testing.T, offsets []int64, labels []string, cells int64) []*string {
	t.Helper()
	pic := make([]*string, cells)
	for i, o := range offsets {
		if o < 0 || o >= cells {
			t.Fatalf("offset %d outside the %d-cell buffer", o, cells)
		}
		lab := labels[i]
		if pic[o] != nil && *pic[o] != lab {
			t.Fatalf("cell %d holds both %q and %q", o, *pic[o], lab)
		}
		pic[o] = &lab
	}
	return pic
}

func pictureString(p []*string) string {
	parts := make([]string, len(p))
	for i, s := range p {
		if s == nil {
			parts[i] = "null"
		} else {
			parts[i] = *s
		}
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// ---- layout ----

func checkLayoutCase(t *testing.T, c specCase) {
	in, ex := c.Inputs, c.Expected
	l, err := NewLayout(TensorDesc{DataType: Float32, Sizes: in.Sizes, Strides: in.Strides})
	if err != nil {
		t.Fatalf("NewLayout: %v", err)
	}
	if l.StridesImplicit != (in.Strides == nil) {
		t.Errorf("StridesImplicit = %v, strides given: %v", l.StridesImplicit, in.Strides != nil)
	}
	if ex.EffectiveStrides != nil && !eq(l.Strides, ex.EffectiveStrides) {
		t.Errorf("effective strides %v, want %v", l.Strides, ex.EffectiveStrides)
	}
	offsets, err := l.Offsets(1 << 20)
	if err != nil {
		t.Fatalf("Offsets: %v", err)
	}
	if ex.OffsetsRowMajor != nil && !eq(offsets, ex.OffsetsRowMajor) {
		t.Errorf("offsets %v, want %v", offsets, ex.OffsetsRowMajor)
	}
	if ex.LogicalElementCount != nil && l.LogicalElementCount() != *ex.LogicalElementCount {
		t.Errorf("logical element count %d, want %d", l.LogicalElementCount(), *ex.LogicalElementCount)
	}
	if ex.MinImpliedElementCount != nil {
		if got := l.MinimumImpliedElementCount(); got != *ex.MinImpliedElementCount {
			t.Errorf("minimum implied element count %d, want %d", got, *ex.MinImpliedElementCount)
		}
		if got := l.IndexOfLastElement(); got != *ex.MinImpliedElementCount-1 {
			t.Errorf("index of last element %d, want %d", got, *ex.MinImpliedElementCount-1)
		}
	}
	if ex.DistinctOffsetCount != nil {
		n, ok := l.DistinctOffsetCount()
		if !ok || n != *ex.DistinctOffsetCount {
			t.Errorf("distinct offset count (%d, known %v), want %d known", n, ok, *ex.DistinctOffsetCount)
		}
	}
	for _, f := range []struct {
		name string
		got  Tri
		want *bool
	}{
		{"isPacked", l.IsPacked(), ex.IsPacked},
		{"hasOverlap", l.HasOverlap(), ex.HasOverlap},
		{"isPadded", l.IsPadded(), ex.IsPadded},
	} {
		if f.want != nil && f.got != triOf(*f.want) {
			t.Errorf("%s = %s, want %v", f.name, triName(f.got), *f.want)
		}
	}
	if ex.HasBroadcast != nil && l.HasBroadcast() != *ex.HasBroadcast {
		t.Errorf("hasBroadcast = %v, want %v", l.HasBroadcast(), *ex.HasBroadcast)
	}
	if in.Broadcast != nil {
		// The per-dimension flags of the case agree with the rule "size > 1
		// and stride 0", and hasBroadcast is their disjunction.
		anyBroadcast := false
		for i, b := range in.Broadcast {
			if b != (l.Sizes[i] > 1 && l.Strides[i] == 0) {
				t.Errorf("dimension %d broadcast flag %v disagrees with size %d stride %d", i, b, l.Sizes[i], l.Strides[i])
			}
			anyBroadcast = anyBroadcast || b
		}
		if l.HasBroadcast() != anyBroadcast {
			t.Errorf("hasBroadcast = %v, per-dimension flags say %v", l.HasBroadcast(), anyBroadcast)
		}
	}

	var pic []*string
	if in.LabelsRowMajor != nil {
		if int64(len(in.LabelsRowMajor)) != l.LogicalElementCount() {
			t.Fatalf("%d labels for %d logical elements", len(in.LabelsRowMajor), l.LogicalElementCount())
		}
		pic = bufferPicture(t, offsets, in.LabelsRowMajor, l.MinimumImpliedElementCount())
	}
	if ex.BufferView != nil {
		if pic == nil {
			t.Fatalf("buffer_view expected but the case has no labels")
		}
		if pictureString(pic) != pictureString(ex.BufferView) {
			t.Errorf("buffer view %s, want %s", pictureString(pic), pictureString(ex.BufferView))
		}
	}
	for k, q := range in.Queries {
		off, err := l.Offset(q)
		if err != nil {
			t.Fatalf("Offset(%v): %v", q, err)
		}
		if off != ex.QueryOffsets[k] {
			t.Errorf("Offset(%v) = %d, want %d", q, off, ex.QueryOffsets[k])
		}
		if ex.QueryLabels != nil {
			if got := in.LabelsRowMajor[rowMajorIndex(in.Sizes, q)]; got != ex.QueryLabels[k] {
				t.Errorf("label of %v = %q, want %q", q, got, ex.QueryLabels[k])
			}
			if pic[off] == nil || *pic[off] != ex.QueryLabels[k] {
				t.Errorf("buffer cell %d does not hold %q", off, ex.QueryLabels[k])
			}
		}
	}
	if ex.DocBufferElementCount != nil {
		// The documentation's larger buffer is allowed as trailing padding:
		// TotalTensorSizeInBytes for that many elements is accepted and the
		// picture grows to it, while the minimum stays the same.
		cells := *ex.DocBufferElementCount
		total := cells * l.ElementSizeInBits() / 8
		padded, err := NewLayout(TensorDesc{DataType: Float32, Sizes: in.Sizes, Strides: in.Strides, TotalTensorSizeInBytes: &total})
		if err != nil {
			t.Fatalf("NewLayout with TotalTensorSizeInBytes %d: %v", total, err)
		}
		if got := padded.BufferElementCount(); got != cells {
			t.Errorf("BufferElementCount = %d, want %d", got, cells)
		}
		if padded.MinimumImpliedElementCount() != l.MinimumImpliedElementCount() {
			t.Errorf("extra space changed the minimum implied element count")
		}
		if len(padded.Warnings) != 0 {
			t.Errorf("unexpected warnings %v", padded.Warnings)
		}
		if int64(len(in.DocBuffer)) != cells {
			t.Fatalf("doc_buffer has %d cells, want %d", len(in.DocBuffer), cells)
		}
		for i, cell := range in.DocBuffer {
			var want string
			if i < len(pic) && pic[i] != nil {
				want = *pic[i]
			} else {
				want = "x"
			}
			if cell != want {
				t.Errorf("documentation buffer cell %d is %q, the layout puts %q there", i, cell, want)
			}
		}
	}
	if in.Layout != "" && ex.IsPacked != nil && *ex.IsPacked {
		want := ex.EffectiveStrides
		if want == nil {
			want = in.Strides
		}
		got, err := LayoutStrides(in.Layout, in.Sizes)
		if err != nil {
			t.Fatalf("LayoutStrides(%s, %v): %v", in.Layout, in.Sizes, err)
		}
		if !eq(got, want) {
			t.Errorf("LayoutStrides(%s, %v) = %v, want %v", in.Layout, in.Sizes, got, want)
		}
	}
}

// ---- buffer_size ----

func checkBufferSizeCase(t *testing.T, c specCase) {
	in, ex := c.Inputs, c.Expected
	dt := mustDataType(t, in.DataType)
	if ex.HelperDocResult == nil || ex.DirectMLXResult == nil {
		t.Fatalf("case lacks helper_doc_result or directmlx_result")
	}
	if got := PublishedHelperResult(dt, in.Sizes, in.Strides, false); got != *ex.HelperDocResult {
		t.Errorf("PublishedHelperResult(withFourBit=false) = %d, want helper_doc_result %d", got, *ex.HelperDocResult)
	}
	if got := PublishedHelperResult(dt, in.Sizes, in.Strides, true); got != *ex.DirectMLXResult {
		t.Errorf("PublishedHelperResult(withFourBit=true) = %d, want directmlx_result %d", got, *ex.DirectMLXResult)
	}
	if dt == Unknown {
		_, err := NewLayout(TensorDesc{DataType: dt, Sizes: in.Sizes, Strides: in.Strides})
		if err == nil {
			t.Fatalf("NewLayout accepted UNKNOWN")
		}
		if vs := validationViolations(t, err); !hasViolation(vs, "dataType", "UNKNOWN") {
			t.Errorf("no dataType violation naming UNKNOWN in %v", vs)
		}
		return
	}

	st := CalcBufferTensorSize(dt, in.Sizes, in.Strides)
	if st.ElementSizeInBits != *ex.ElementSizeBits {
		t.Errorf("element size %d bits, want %d", st.ElementSizeInBits, *ex.ElementSizeBits)
	}
	if st.StridesGiven != (in.Strides != nil) {
		t.Errorf("StridesGiven = %v", st.StridesGiven)
	}
	if (ex.IndexOfLastElement != nil) != (in.Strides != nil) {
		t.Fatalf("case gives index_of_last_element %v with strides %v", ex.IndexOfLastElement, in.Strides)
	}
	if ex.IndexOfLastElement != nil && st.IndexOfLastElement != *ex.IndexOfLastElement {
		t.Errorf("index of last element %d, want %d", st.IndexOfLastElement, *ex.IndexOfLastElement)
	}
	if st.SizeInBits != *ex.MinImpliedSizeInBits {
		t.Errorf("minimum implied size %d bits, want %d", st.SizeInBits, *ex.MinImpliedSizeInBits)
	}
	if st.ElementCount*st.ElementSizeInBits != st.SizeInBits {
		t.Errorf("ElementCount %d * %d bits != SizeInBits %d", st.ElementCount, st.ElementSizeInBits, st.SizeInBits)
	}
	if st.BytesBeforeRounding != *ex.BytesBefore4Rounding {
		t.Errorf("bytes before rounding %d, want %d", st.BytesBeforeRounding, *ex.BytesBefore4Rounding)
	}
	if uint64(st.Result) != *ex.DirectMLXResult {
		t.Errorf("result %d, want directmlx_result %d", st.Result, *ex.DirectMLXResult)
	}

	l, err := NewLayout(TensorDesc{DataType: dt, Sizes: in.Sizes, Strides: in.Strides})
	if err != nil {
		t.Fatalf("NewLayout: %v", err)
	}
	if uint64(l.MinimumBufferSizeInBytes()) != *ex.DirectMLXResult {
		t.Errorf("MinimumBufferSizeInBytes = %d, want %d", l.MinimumBufferSizeInBytes(), *ex.DirectMLXResult)
	}
	if l.BufferSizeSteps() != st {
		t.Errorf("Layout.BufferSizeSteps = %+v, CalcBufferTensorSize = %+v", l.BufferSizeSteps(), st)
	}
	if l.ElementSizeInBits() != *ex.ElementSizeBits {
		t.Errorf("Layout.ElementSizeInBits = %d", l.ElementSizeInBits())
	}
	if ex.IndexOfLastElement != nil && l.IndexOfLastElement() != *ex.IndexOfLastElement {
		t.Errorf("Layout.IndexOfLastElement = %d, want %d", l.IndexOfLastElement(), *ex.IndexOfLastElement)
	}
	// Section 2 rule 7: the result itself is a valid TotalTensorSizeInBytes,
	// one byte less is not.
	total := int64(*ex.DirectMLXResult)
	if l, err := NewLayout(TensorDesc{DataType: dt, Sizes: in.Sizes, Strides: in.Strides, TotalTensorSizeInBytes: &total}); err != nil {
		t.Errorf("TotalTensorSizeInBytes = %d rejected: %v", total, err)
	} else if len(l.Warnings) != 0 {
		t.Errorf("TotalTensorSizeInBytes = %d (a multiple of 4) warned: %v", total, l.Warnings)
	}
	short := total - 1
	_, err = NewLayout(TensorDesc{DataType: dt, Sizes: in.Sizes, Strides: in.Strides, TotalTensorSizeInBytes: &short})
	if err == nil {
		t.Fatalf("TotalTensorSizeInBytes = %d accepted below the minimum %d", short, total)
	}
	if vs := validationViolations(t, err); !hasViolation(vs, "totalTensorSizeInBytes", fmt.Sprint(short), fmt.Sprint(total)) {
		t.Errorf("no totalTensorSizeInBytes violation naming %d and %d in %v", short, total, vs)
	}
}

// ---- invalid_layout ----

// expectedViolation says which field a case's reason concerns and which of
// its key words the violation must state. Every keyword is checked to occur
// in the case's own reason, so they come from the specification.
type expectedViolation struct {
	field    string
	keywords []string
	warning  bool // reported in Layout.Warnings, not as an error
}

var invalidCaseExpectations = map[string]expectedViolation{
	"invalid_layout_size_zero_with_strides":             {field: "sizes[0]", keywords: []string{"Sizes[0] == 0", "specifying a size of zero in any dimension is invalid"}},
	"invalid_layout_size_zero_null_strides":             {field: "sizes[1]", keywords: []string{"Sizes[1] == 0", "size of zero"}},
	"invalid_layout_dimension_count_9":                  {field: "sizes", keywords: []string{"DimensionCount 9 > 8", "DML_TENSOR_DIMENSION_COUNT_MAX1"}},
	"invalid_layout_dimension_count_0":                  {field: "sizes", keywords: []string{"DimensionCount 0 < 1"}},
	"invalid_layout_strides_length_mismatch":            {field: "strides", keywords: []string{"Strides must have DimensionCount", "entries"}},
	"invalid_layout_negative_stride":                    {field: "strides[0]", keywords: []string{"DML_BUFFER_TENSOR_DESC::Strides is const UINT*", "negative strides cannot be expressed", "DML_SLICE1 negative window strides"}},
	"invalid_layout_total_size_too_small":               {field: "totalTensorSizeInBytes", keywords: []string{"TotalTensorSizeInBytes 24 < DMLCalcBufferTensorSize 32"}},
	"invalid_layout_total_size_not_dword_aligned":       {field: "totalTensorSizeInBytes", keywords: []string{"10", "not a multiple of 4", "DWORD-aligned"}, warning: true},
	"invalid_layout_alignment_not_power_of_two":         {field: "guaranteedBaseOffsetAlignment", keywords: []string{"GuaranteedBaseOffsetAlignment", "must be 0 or a power of two"}},
	"invalid_layout_too_many_elements":                  {field: "sizes", keywords: []string{"4294967296", "> 2^32-1"}},
	"invalid_layout_unknown_dtype":                      {field: "dataType", keywords: []string{"DML_TENSOR_DATA_TYPE_UNKNOWN is never valid"}},
	"invalid_dimension_count_9":                         {field: "inputSizes", keywords: []string{"DimensionCount must be between 1 and 8 (DML_FEATURE_LEVEL_3_0+)"}},
	"invalid_stride_zero":                               {field: "inputWindowStrides[1]", keywords: []string{"axis 1: InputWindowStrides[1] == 0 (strides may not be 0)"}},
	"invalid_window_size_zero":                          {field: "inputWindowSizes[0]", keywords: []string{"axis 0: InputWindowSizes[0] == 0", "empty"}},
	"invalid_window_past_end":                           {field: "inputWindowOffsets[0]", keywords: []string{"axis 0: InputWindowOffsets[0] + InputWindowSizes[0] = 5 > InputTensor.Sizes[0] = 4"}},
	"invalid_offset_at_end":                             {field: "inputWindowOffsets[0]", keywords: []string{"axis 0: InputWindowOffsets[0] + InputWindowSizes[0] = 5 > InputTensor.Sizes[0] = 4"}},
	"invalid_output_exceeds_max_copied":                 {field: "outputSizes[0]", keywords: []string{"axis 0: OutputSizes[0] = 3 not in [1, MaxCopiedElements = 2]"}},
	"invalid_output_exceeds_max_copied_negative_stride": {field: "outputSizes[0]", keywords: []string{"axis 0: OutputSizes[0] = 3 not in [1, MaxCopiedElements = 2]"}},
	"invalid_output_size_zero":                          {field: "outputSizes[0]", keywords: []string{"axis 0: OutputSizes[0] = 0 not in [1, MaxCopiedElements = 4]"}},
	"invalid_dimension_count_3_at_FL_2_1":               {field: "inputSizes", keywords: []string{"DimensionCount must be 4 or 5 before DML_FEATURE_LEVEL_3_0"}},
	"invalid_param_arrays_length_mismatch":              {field: "inputWindowOffsets", keywords: []string{"DimensionCount must match the DimensionCount of the input and output tensors"}},
	"invalid_dtype_mismatch":                            {field: "outputDataType", keywords: []string{"InputTensor and OutputTensor must have the same DataType"}},
	"invalid_int4_any_FL":                               {field: "dataType", keywords: []string{"DataType INT4 not supported by DML_OPERATOR_SLICE1 at feature level 6_4"}},
	// NumPy selections that are empty fail in ParseNumpy (field unused).
	"numpy_x[2:-1:-1]_is_empty": {keywords: []string{"selection is empty", "DML_SLICE1 requires a non-empty window and OutputSizes[i] >= 1"}},
	"numpy_x[1000:1000]_empty":  {keywords: []string{"selection is empty", "DML_SLICE1 requires a non-empty window and OutputSizes[i] >= 1"}},
}

func expectationFor(t *testing.T, c specCase) expectedViolation {
	t.Helper()
	e, ok := invalidCaseExpectations[c.Name]
	if !ok {
		t.Fatalf("no expected violation recorded for case %q (reasons %q)", c.Name, c.Expected.Reasons)
	}
	if c.Expected.Valid == nil || *c.Expected.Valid {
		t.Fatalf("invalid case without valid: false")
	}
	if len(c.Expected.Reasons) != 1 {
		t.Fatalf("case has %d reasons; the table records one", len(c.Expected.Reasons))
	}
	for _, k := range e.keywords {
		if !containsFold(c.Expected.Reasons[0], k) {
			t.Fatalf("keyword %q is not in the case's reason %q", k, c.Expected.Reasons[0])
		}
	}
	return e
}

func checkInvalidLayoutCase(t *testing.T, c specCase) {
	in, ex := c.Inputs, c.Expected
	want := expectationFor(t, c)
	dt := mustDataType(t, in.DataType)
	d := TensorDesc{
		DataType:                      dt,
		Sizes:                         in.Sizes,
		Strides:                       in.Strides,
		TotalTensorSizeInBytes:        in.TotalTensorSizeInBytes,
		GuaranteedBaseOffsetAlignment: in.GuaranteedBaseOffsetAlignment,
	}
	l, err := NewLayout(d)
	if want.warning {
		// directml-rules.md section 2 rule 7: only the helper page states it,
		// so it is a warning and the description is accepted.
		if err != nil {
			t.Fatalf("NewLayout rejected a warning-level case: %v", err)
		}
		if !hasViolation(l.Warnings, want.field, want.keywords...) {
			t.Errorf("no %s warning stating %q in %v", want.field, want.keywords, l.Warnings)
		}
	} else {
		if err == nil {
			t.Fatalf("NewLayout accepted the description")
		}
		if l != nil {
			t.Errorf("NewLayout returned a layout with an error")
		}
		if vs := validationViolations(t, err); !hasViolation(vs, want.field, want.keywords...) {
			t.Errorf("no %s violation stating %q in %v", want.field, want.keywords, vs)
		}
	}
	if ex.HelperLiteralResult != nil {
		if got := PublishedHelperResult(dt, in.Sizes, in.Strides, true); got != *ex.HelperLiteralResult {
			t.Errorf("PublishedHelperResult = %d, want the helper's literal %d", got, *ex.HelperLiteralResult)
		}
	}
}

// ---- slice1 ----

func windowOf(s *Slice1) specWindow {
	return specWindow{Offsets: s.WindowOffsets, Sizes: s.WindowSizes, Strides: s.WindowStrides, Output: s.OutputSizes}
}

func (w specWindow) String() string {
	return fmt.Sprintf("offsets %v sizes %v strides %v output %v", w.Offsets, w.Sizes, w.Strides, w.Output)
}

func sameWindow(a, b specWindow) bool {
	return eq(a.Offsets, b.Offsets) && eq(a.Sizes, b.Sizes) && eq(a.Strides, b.Strides) && eq(a.Output, b.Output)
}

func numpyWindow(w *NumpyWindow) specWindow {
	return specWindow{Offsets: w.WindowOffsets, Sizes: w.WindowSizes, Strides: w.WindowStrides, Output: w.OutputSizes}
}

func sliceOnPacked(dt DataType, inputSizes []int64, w specWindow) (*Slice1, error) {
	return NewSlice1(Slice1Desc{
		Input:         TensorDesc{DataType: dt, Sizes: inputSizes},
		WindowOffsets: w.Offsets,
		WindowSizes:   w.Sizes,
		WindowStrides: w.Strides,
		OutputSizes:   w.Output,
	})
}

func mustCoords(t *testing.T, s *Slice1) [][]int64 {
	t.Helper()
	cs, err := s.InputCoordinates(1 << 20)
	if err != nil {
		t.Fatalf("InputCoordinates: %v", err)
	}
	return cs
}

func coordsEqual(a, b [][]int64) bool {
	return slices.EqualFunc(a, b, func(x, y []int64) bool { return slices.Equal(x, y) })
}

// checkSliceReadsMatch checks that InputOffsets agrees with the input
// layout's Offset of every coordinate read.
func checkSliceReadsMatch(t *testing.T, s *Slice1, coords [][]int64) {
	t.Helper()
	offs, err := s.InputOffsets(1 << 20)
	if err != nil {
		t.Fatalf("InputOffsets: %v", err)
	}
	if len(offs) != len(coords) {
		t.Fatalf("%d offsets for %d coordinates", len(offs), len(coords))
	}
	for k, c := range coords {
		want, err := s.Input.Offset(c)
		if err != nil {
			t.Fatalf("coordinate %v read outside the input: %v", c, err)
		}
		if offs[k] != want {
			t.Errorf("output element %d reads offset %d, coordinate %v is at %d", k, offs[k], c, want)
		}
	}
}

// checkNumpyRoundTrip parses the slice's NumPy text back and checks that
// the window it gives copies the same input elements.
func checkNumpyRoundTrip(t *testing.T, s *Slice1) *NumpyWindow {
	t.Helper()
	text := s.Numpy()
	w, err := ParseNumpy(s.Input.Sizes, text)
	if err != nil {
		t.Fatalf("ParseNumpy(%q) of the slice's own text: %v", text, err)
	}
	back, err := sliceOnPacked(s.Input.DataType, s.Input.Sizes, numpyWindow(w))
	if err != nil {
		t.Fatalf("NewSlice1 of the parsed %q: %v", text, err)
	}
	if !coordsEqual(mustCoords(t, back), mustCoords(t, s)) {
		t.Errorf("%q copies different elements than the window %v", text, windowOf(s))
	}
	return w
}

func checkDirectSliceCase(t *testing.T, c specCase) {
	in, ex := c.Inputs, c.Expected
	if ex.Valid == nil || !*ex.Valid {
		t.Fatalf("slice1 case not marked valid")
	}
	dt := mustDataType(t, in.DataType)
	w := specWindow{Offsets: in.WindowOffsets, Sizes: in.WindowSizes, Strides: in.WindowStrides, Output: in.OutputSizes}
	s, err := sliceOnPacked(dt, in.InputSizes, w)
	if err != nil {
		t.Fatalf("NewSlice1: %v", err)
	}
	if !eq(s.MaxCopied, ex.MaxCopiedElements) {
		t.Errorf("MaxCopied %v, want %v", s.MaxCopied, ex.MaxCopiedElements)
	}
	if !eq(s.CopyStart, ex.CopyStart) {
		t.Errorf("CopyStart %v, want %v", s.CopyStart, ex.CopyStart)
	}
	for i := range in.WindowSizes {
		if got := MaxCopiedElements(in.WindowSizes[i], in.WindowStrides[i]); got != ex.MaxCopiedElements[i] {
			t.Errorf("MaxCopiedElements(%d, %d) = %d, want %d", in.WindowSizes[i], in.WindowStrides[i], got, ex.MaxCopiedElements[i])
		}
		if got := CopyStart(in.WindowOffsets[i], in.WindowSizes[i], in.WindowStrides[i]); got != ex.CopyStart[i] {
			t.Errorf("CopyStart(axis %d) = %d, want %d", i, got, ex.CopyStart[i])
		}
	}
	if !eq(s.OutputSizes, in.OutputSizes) {
		t.Errorf("OutputSizes %v, want %v", s.OutputSizes, in.OutputSizes)
	}
	coords := mustCoords(t, s)
	if !coordsEqual(coords, ex.InputCoordsRead) {
		t.Errorf("input coordinates %v, want %v", coords, ex.InputCoordsRead)
	}
	vals := make([]int64, len(coords))
	for k, co := range coords {
		vals[k] = in.InputValuesRowMajor[rowMajorIndex(in.InputSizes, co)]
	}
	if !eq(vals, ex.OutputValuesRowMajor) {
		t.Errorf("output values %v, want %v", vals, ex.OutputValuesRowMajor)
	}
	checkSliceReadsMatch(t, s, coords)
	if got := s.Numpy(); got != ex.NumpyEquivalent {
		t.Errorf("Numpy() = %q, want %q", got, ex.NumpyEquivalent)
	}
	checkNumpyRoundTrip(t, s)
}

func checkNumpySliceCase(t *testing.T, c specCase) {
	in, ex := c.Inputs, c.Expected
	if ex.Valid == nil || !*ex.Valid {
		t.Fatalf("slice1 case not marked valid")
	}
	if !strings.HasPrefix(in.InputValues, "iota from 0") {
		t.Fatalf("unsupported input values %q", in.InputValues)
	}
	w, err := ParseNumpy(in.InputSizes, in.Numpy)
	if err != nil {
		t.Fatalf("ParseNumpy(%q): %v", in.Numpy, err)
	}
	if ex.DMLSlice1Tight == nil {
		t.Fatalf("case has no dml_slice1_tight")
	}
	if got := numpyWindow(w); !sameWindow(got, *ex.DMLSlice1Tight) {
		t.Errorf("window %v, want %v", got, *ex.DMLSlice1Tight)
	}
	if len(w.Indices) != len(ex.PythonSliceIndices) || !eq(w.Indices, ex.PythonSliceIndices) {
		t.Errorf("slice.indices %v, want %v", w.Indices, ex.PythonSliceIndices)
	}
	checkPythonIndices(t, in.InputSizes, in.Numpy, ex.PythonSliceIndices, ex.OutputSizes)
	if len(w.DroppedAxes) != 0 {
		t.Errorf("DroppedAxes %v for an expression without integer indices", w.DroppedAxes)
	}
	s, err := sliceOnPacked(Float32, in.InputSizes, numpyWindow(w))
	if err != nil {
		t.Fatalf("NewSlice1 of the parsed window: %v", err)
	}
	if !eq(s.OutputSizes, ex.OutputSizes) {
		t.Errorf("output sizes %v, want %v", s.OutputSizes, ex.OutputSizes)
	}
	coords := mustCoords(t, s)
	vals := make([]int64, len(coords))
	for k, co := range coords {
		vals[k] = rowMajorIndex(in.InputSizes, co) // iota from 0
	}
	if !eq(vals, ex.OutputValuesRowMajor) {
		t.Errorf("output values %v, want %v", vals, ex.OutputValuesRowMajor)
	}
	checkSliceReadsMatch(t, s, coords)
	back := checkNumpyRoundTrip(t, s)
	if !sameWindow(numpyWindow(back), numpyWindow(w)) {
		t.Errorf("FormatNumpy round trip %q gives %v, want %v", s.Numpy(), numpyWindow(back), numpyWindow(w))
	}
	if ort := ex.DMLSlice1ORTStyle; ort != nil {
		// ONNX Runtime's whole-axis windows are another parameterisation:
		// when valid they copy the same elements; a window of size 0 (the
		// documented quirk) is never valid DML_SLICE1.
		empty := slices.Contains(ort.Sizes, 0) || slices.Contains(ort.Output, 0)
		ortSlice, err := sliceOnPacked(Float32, in.InputSizes, *ort)
		switch {
		case empty && err == nil:
			t.Errorf("NewSlice1 accepted the empty ORT-style window %v", *ort)
		case !empty && err != nil:
			t.Errorf("NewSlice1 rejected the ORT-style window %v: %v", *ort, err)
		case !empty && !coordsEqual(mustCoords(t, ortSlice), coords):
			t.Errorf("ORT-style window %v copies different elements", *ort)
		}
	}
	if in.ONNX != nil {
		checkSpecONNX(t, in.InputSizes, *in.ONNX, ex.ONNXSpecOutputSizes)
	}
	checkONNXExport(t, s)
}

// checkSpecONNX evaluates the case's ONNX Slice with the reference ONNX
// semantics and compares the output sizes with the case.
func checkSpecONNX(t *testing.T, sizes []int64, o specONNX, want []int64) {
	t.Helper()
	if want == nil {
		return
	}
	got := slices.Clone(sizes)
	for k, ax := range o.Axes {
		got[ax] = int64(len(naiveONNXAxis(sizes[ax], o.Starts[k], o.Ends[k], o.Steps[k])))
	}
	if !eq(got, want) {
		t.Errorf("ONNX Slice %+v gives output sizes %v, want %v", o, got, want)
	}
}

// checkPythonIndices evaluates the case's expression (plain slices only)
// with the reference slice.indices of reference_test.go and compares the
// result with the case, so that the reference is anchored to the spec.
func checkPythonIndices(t *testing.T, sizes []int64, expr string, want [][3]int64, wantOutput []int64) {
	t.Helper()
	open, end := strings.Index(expr, "["), strings.LastIndex(expr, "]")
	if open < 0 || end < open {
		t.Fatalf("expression %q is not x[...]", expr)
	}
	parts := strings.Split(expr[open+1:end], ",")
	if len(parts) != len(sizes) || len(want) != len(sizes) {
		t.Fatalf("%q: %d parts, %d sizes, %d expected triples", expr, len(parts), len(sizes), len(want))
	}
	for i, p := range parts {
		fields := strings.Split(strings.TrimSpace(p), ":")
		if len(fields) < 2 || len(fields) > 3 {
			t.Fatalf("%q: part %q is not a plain slice", expr, p)
		}
		var vals [3]*int64
		for k, f := range fields {
			if f = strings.TrimSpace(f); f == "" {
				continue
			}
			v, err := strconv.ParseInt(f, 10, 64)
			if err != nil {
				t.Fatalf("%q: %v", expr, err)
			}
			vals[k] = &v
		}
		s, e, st, ok := pyAdjust(vals[0], vals[1], vals[2], sizes[i])
		if !ok || [3]int64{s, e, st} != want[i] {
			t.Errorf("%q axis %d: reference slice.indices (%d, %d, %d), the case %v", expr, i, s, e, st, want[i])
		}
		if wantOutput != nil && int64(len(pyRange(s, e, st))) != wantOutput[i] {
			t.Errorf("%q axis %d: reference selects %d elements, the case %d", expr, i, len(pyRange(s, e, st)), wantOutput[i])
		}
	}
}

// ---- invalid_slice1 ----

func checkInvalidSliceCase(t *testing.T, c specCase) {
	in, ex := c.Inputs, c.Expected
	want := expectationFor(t, c)
	if in.Numpy != "" {
		w, err := ParseNumpy(in.InputSizes, in.Numpy)
		if err == nil {
			t.Fatalf("ParseNumpy(%q) = %v, want an empty-selection error", in.Numpy, numpyWindow(w))
		}
		checkPythonIndices(t, in.InputSizes, in.Numpy, ex.PythonSliceIndices, ex.OutputSizes)
		for _, k := range want.keywords {
			if !containsFold(err.Error(), k) {
				t.Errorf("error %q does not state %q", err, k)
			}
		}
		if ort := ex.DMLSlice1ORTStyle; ort != nil {
			if _, err := sliceOnPacked(Float32, in.InputSizes, *ort); err == nil {
				t.Errorf("NewSlice1 accepted the ORT-style window %v of an empty selection", *ort)
			}
		}
		if in.ONNX != nil {
			checkSpecONNX(t, in.InputSizes, *in.ONNX, ex.ONNXSpecOutputSizes)
		}
		return
	}
	fl, err := ParseFeatureLevel(in.FeatureLevel)
	if err != nil {
		t.Fatalf("ParseFeatureLevel(%q): %v", in.FeatureLevel, err)
	}
	s, err := NewSlice1(Slice1Desc{
		Input:          TensorDesc{DataType: mustDataType(t, in.InputDataType), Sizes: in.InputSizes},
		OutputDataType: mustDataType(t, in.OutputDataType),
		FeatureLevel:   fl,
		WindowOffsets:  in.WindowOffsets,
		WindowSizes:    in.WindowSizes,
		WindowStrides:  in.WindowStrides,
		OutputSizes:    in.OutputSizes,
	})
	if err == nil {
		t.Fatalf("NewSlice1 accepted the description: %v", windowOf(s))
	}
	if vs := validationViolations(t, err); !hasViolation(vs, want.field, want.keywords...) {
		t.Errorf("no %s violation stating %q in %v", want.field, want.keywords, vs)
	}
}
