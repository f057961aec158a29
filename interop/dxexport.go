package interop

import (
	"context"
	"encoding/json"
	"net/url"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/ops/convert"
	"github.com/stridescope/stridescope/ops/slice1"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/strictjson"
)

// DxPlan is a DxDispatch model to build: what building it allocates is
// known first, so that the work budget is taken before it is built.
type DxPlan struct {
	File  string // the model file's download name
	Cost  int64
	Build func(ctx context.Context) (*DxModel, []core.Violation)
}

// dxCost bounds what building a model allocates: at most
// MaxDxInitialValues cells, each filled and written as text.
func dxCost(l *core.Layout) int64 {
	cells := min(l.BufferElementCount(), MaxDxInitialValues)
	return cells*(l.DataType.Bits()/8+32) + 64<<10
}

// DxExporters are the explorers (by explorer.Kind name) whose states
// DxDispatch can run, each planning the model of a state in its page's
// query. An operator that DxDispatch can run adds its own here.
var DxExporters = map[string]func(q url.Values) (DxPlan, error){
	"layout":  layoutDxPlan,
	"slice":   sliceDxPlan,
	"convert": convertDxPlan,
	// Both orders of DML_DEPTH_TO_SPACE1 or DML_SPACE_TO_DEPTH1.
	"depthspace": depthSpaceDxPlan,
	// DML_JOIN or DML_SPLIT, the page's operator.
	"joinsplit": joinsplitDxPlan,
	"padding":   paddingDxPlan,
	"tile":      tileDxPlan,
}

func convertDxPlan(q url.Values) (DxPlan, error) {
	v := convert.Validate(convert.StateFromQuery(q))
	if v.ID == nil {
		return DxPlan{}, &explorer.Invalid{Violations: v.Errors}
	}
	id := v.ID
	return DxPlan{File: "stridescope-convert.json", Cost: dxCost(id.Input) + dxCost(id.Output),
		Build: func(ctx context.Context) (*DxModel, []core.Violation) { return DxIdentityModel(ctx, id) }}, nil
}

func layoutDxPlan(q url.Values) (DxPlan, error) {
	v := picture.Validate(picture.LayoutStateFromQuery(q))
	if v.Layout == nil {
		return DxPlan{}, &explorer.Invalid{Violations: v.Errors}
	}
	return layoutPlan(v.Layout), nil
}

func layoutPlan(l *core.Layout) DxPlan {
	return DxPlan{File: "stridescope-layout.json", Cost: dxCost(l),
		Build: func(ctx context.Context) (*DxModel, []core.Violation) { return DxLayoutModel(ctx, l) }}
}

func sliceDxPlan(q url.Values) (DxPlan, error) {
	v := slice1.Validate(slice1.StateFromQuery(q))
	if v.Slice == nil {
		return DxPlan{}, &explorer.Invalid{Violations: v.Errors}
	}
	return slicePlan(v.Slice, v.Values), nil
}

func slicePlan(s *core.Slice1, vals []slice1.Value) DxPlan {
	return DxPlan{File: "stridescope-slice.json", Cost: dxCost(s.Input),
		Build: func(ctx context.Context) (*DxModel, []core.Violation) { return DxSlice1Model(ctx, s, vals) }}
}

// DxBodyPlan plans the model of a JSON API body: the body of
// /api/v1/slice1 (it has inputSizes) or of /api/v1/layout (sizes). A body
// that breaks the strict decoding's rules is *strictjson.Error's
// violations (every fault at once); one that is neither body says so.
func DxBodyPlan(body []byte) (DxPlan, []core.Violation, error) {
	var keys map[string]json.RawMessage
	_ = json.Unmarshal(body, &keys)
	if _, ok := keys["inputSizes"]; ok {
		var req slice1.Request
		if vs := strictjson.Decode(body, &req); vs != nil {
			return DxPlan{}, vs, nil
		}
		sl, inv := req.Slice1()
		if inv != nil {
			return DxPlan{}, nil, inv
		}
		return slicePlan(sl, nil), nil, nil
	}
	if _, ok := keys["sizes"]; !ok {
		if vs := strictjson.Decode(body, &keys); vs != nil {
			return DxPlan{}, vs, nil // not a JSON object at all
		}
		return DxPlan{}, []core.Violation{core.NewMsg("dxdispatch.body", "the body is neither a slice (the body of /api/v1/slice1, with inputSizes) nor a layout (the body of /api/v1/layout, with sizes)", nil).At("")}, nil
	}
	var req picture.LayoutRequest
	if vs := strictjson.Decode(body, &req); vs != nil {
		return DxPlan{}, vs, nil
	}
	l, inv := req.Layout()
	if inv != nil {
		return DxPlan{}, nil, inv
	}
	return layoutPlan(l), nil, nil
}
