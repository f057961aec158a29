package picture

import (
	"errors"
	"slices"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
)

// The JSON API's requests and responses live here, beside the page
// states: the pages Validate and describe a tensor or a slice exactly as
// the API does.

// Invalid is every violation of a request, reported at once (the API's
// 422).
type Invalid = explorer.Invalid

func InvalidOf(vs ...core.Violation) *Invalid { return &Invalid{Violations: vs} }

// CoreViolations lists the violations of a core validation error (nil for
// nil).
func CoreViolations(err error) []core.Violation {
	if err == nil {
		return nil
	}
	var ve *core.ValidationError
	if errors.As(err, &ve) {
		return ve.Violations
	}
	return []core.Violation{{Message: err.Error()}}
}

// MaxListedElements is how many per-element offsets or coordinates a JSON
// response lists; larger tensors are described by their facts alone.
const MaxListedElements = 1 << 16

// LayoutRequest is the body of POST /api/v1/layout.
type LayoutRequest struct {
	DataType                      string  `json:"dataType"`
	Sizes                         []int64 `json:"sizes"`
	Strides                       []int64 `json:"strides"`
	TotalTensorSizeInBytes        *int64  `json:"totalTensorSizeInBytes"`
	GuaranteedBaseOffsetAlignment int64   `json:"guaranteedBaseOffsetAlignment"`
}

// Layout validates a request and returns the core layout, or every
// violation as a 422.
func (r LayoutRequest) Layout() (*core.Layout, *Invalid) {
	dt, vs := ParseType("dataType", r.DataType, true)
	if len(vs) > 0 {
		// Still Validate the rest so every violation is reported at once,
		// against a placeholder type; rules that need the element size
		// (the total's minimum, the alignment's floor) wait for a real one.
		total := r.TotalTensorSizeInBytes
		if total != nil && *total >= 0 {
			total = nil
		}
		align := r.GuaranteedBaseOffsetAlignment
		if align > 0 && align&(align-1) == 0 {
			align = 0
		}
		_, err := core.NewLayout(core.TensorDesc{DataType: core.UInt4, Sizes: r.Sizes, Strides: r.Strides,
			TotalTensorSizeInBytes: total, GuaranteedBaseOffsetAlignment: align})
		return nil, InvalidOf(append(vs, Required(CoreViolations(err), List{"sizes", r.Sizes})...)...)
	}
	l, err := core.NewLayout(core.TensorDesc{DataType: dt, Sizes: r.Sizes, Strides: r.Strides,
		TotalTensorSizeInBytes: r.TotalTensorSizeInBytes, GuaranteedBaseOffsetAlignment: r.GuaranteedBaseOffsetAlignment})
	if err != nil {
		return nil, InvalidOf(Required(CoreViolations(err), List{"sizes", r.Sizes})...)
	}
	return l, nil
}

// List is a request's List by its field name.
type List struct {
	Field  string
	Values []int64
}

// Required says that each list the request left out (absent, or null) is
// Required, in the place of what core says of a list of no entries ("has
// 0 entries: DimensionCount must match"), which is not what was sent; and
// keeps vs's other violations. lists[0] is the one that gives the
// DimensionCount.
func Required(vs []core.Violation, lists ...List) []core.Violation {
	var out []core.Violation
	for _, l := range lists {
		if l.Values == nil {
			out = append(out, core.NewMsg("api.required", "{field} is missing: give one entry for each dimension", core.Args{"field": l.Field}).At(l.Field))
		}
	}
	if len(out) == 0 {
		return vs
	}
	// The first list gives the DimensionCount: without it, the others'
	// counts are measured against 0, which says nothing more.
	rankless := lists[0].Values == nil
	for _, v := range vs {
		if rankless && (v.Code == "tensor.strides.count" || v.Code == "slice1.rank.mismatch") {
			continue
		}
		if !slices.ContainsFunc(out, func(m core.Violation) bool { return m.Field == v.Field }) {
			out = append(out, v)
		}
	}
	return out
}

func ParseType(field, name string, required bool) (core.DataType, []core.Violation) {
	if name == "" {
		if required {
			return core.Unknown, []core.Violation{core.NewMsg("datatype.required", "{field} is required (e.g. \"FLOAT32\")", core.Args{"field": field}).At(field)}
		}
		return core.Unknown, nil
	}
	dt, err := core.ParseDataType(name)
	if err != nil {
		return core.Unknown, []core.Violation{core.ViolationOf(field, err)}
	}
	if dt == core.Unknown {
		return core.Unknown, []core.Violation{core.NewMsg("tensor.datatype.unknown", "DML_TENSOR_DATA_TYPE_UNKNOWN is never valid", nil).At(field)}
	}
	return dt, nil
}

func TriPtr(t core.Tri) *bool {
	if !t.Known() {
		return nil
	}
	b := t.Bool()
	return &b
}

func NonNil(vs []core.Violation) []core.Violation {
	if vs == nil {
		return []core.Violation{}
	}
	return vs
}
