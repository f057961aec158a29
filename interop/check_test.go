package interop

import (
	"encoding/json"
	"strings"
	"testing"
)

// checkModel is a valid model with one operator of each kind the check
// reads; each case breaks one rule of one of them.
const checkModel = `{
  "resources": {"input": {"initialValuesDataType": "FLOAT32", "initialValues": {"valueCount": 24, "valueStart": 1, "valueDelta": 1}}},
  "dispatchables": {
    "slice1": {"type": "DML_OPERATOR_SLICE1", "desc": {
      "InputTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 4, 4], "Strides": [16, 16, 4, 1]},
      "OutputTensor": {"DataType": "FLOAT32", "Sizes": [1, 1, 2, 2]},
      "DimensionCount": 4,
      "InputWindowOffsets": [0, 0, 1, 1], "InputWindowSizes": [1, 1, 2, 2], "InputWindowStrides": [1, 1, 1, 1]}},
    "slice": {"type": "DML_OPERATOR_SLICE", "desc": {
      "InputTensor": {"DataType": "FLOAT16", "Sizes": [4, 6]},
      "OutputTensor": {"DataType": "FLOAT16", "Sizes": [2, 3]},
      "DimensionCount": 2,
      "Offsets": [0, 0], "Sizes": [2, 3], "Strides": [2, 2]}},
    "identity": {"type": "DML_OPERATOR_ELEMENT_WISE_IDENTITY", "desc": {
      "InputTensor": {"DataType": "FLOAT32", "Sizes": [1, 3, 2, 4]},
      "OutputTensor": {"DataType": "FLOAT32", "Sizes": [1, 3, 2, 4], "Strides": [24, 1, 12, 3]}}},
    "relu": {"type": "DML_OPERATOR_ACTIVATION_RELU", "desc": {"InputTensor": {}}}
  },
  "commands": [{"type": "dispatch", "dispatchable": "identity", "bindings": {}}]
}`

// set writes v at the path of the model m ("dispatchables.slice1.desc.
// InputWindowStrides.2").
func set(t *testing.T, m map[string]any, path string, v any) {
	t.Helper()
	keys := strings.Split(path, ".")
	var cur any = m
	for i, k := range keys {
		last := i == len(keys)-1
		switch c := cur.(type) {
		case map[string]any:
			if last {
				c[k] = v
				return
			}
			cur = c[k]
		case []any:
			var n int
			if err := json.Unmarshal([]byte(k), &n); err != nil || n >= len(c) {
				t.Fatalf("bad index %q in %s", k, path)
			}
			if last {
				c[n] = v
				return
			}
			cur = c[n]
		default:
			t.Fatalf("path %s: %q is not in the model", path, k)
		}
	}
}

func TestCheckNamesEachBrokenRule(t *testing.T) {
	const p = "dxdispatch.dispatchables."
	cases := []struct {
		name      string
		path      string // "" leaves the model valid
		value     any
		operator  string
		field     string
		code      string
		wantValid bool
	}{
		{name: "valid", wantValid: true},
		{name: "slice1 zero window stride", path: "dispatchables.slice1.desc.InputWindowStrides.2", value: 0,
			operator: "slice1", field: p + "slice1.desc.InputWindowStrides[2]", code: "slice1.stride.zero"},
		{name: "slice1 window past the input", path: "dispatchables.slice1.desc.InputWindowOffsets.3", value: 3,
			operator: "slice1", field: p + "slice1.desc.InputWindowOffsets[3]", code: "slice1.window.outside"},
		{name: "slice1 unknown data type", path: "dispatchables.slice1.desc.InputTensor.DataType", value: "FLOAT8",
			operator: "slice1", field: p + "slice1.desc.InputTensor.DataType", code: "datatype.unknown"},
		{name: "slice1 strides of the wrong rank", path: "dispatchables.slice1.desc.InputTensor.Strides", value: []any{4, 1},
			operator: "slice1", field: p + "slice1.desc.InputTensor.Strides", code: "tensor.strides.count"},
		{name: "slice1 buffer below DMLCalcBufferTensorSize", path: "dispatchables.slice1.desc.InputTensor.TotalTensorSizeInBytes", value: 60,
			operator: "slice1", field: p + "slice1.desc.InputTensor.TotalTensorSizeInBytes", code: "tensor.total.small"},
		{name: "slice1 DimensionCount", path: "dispatchables.slice1.desc.DimensionCount", value: 3,
			operator: "slice1", field: p + "slice1.desc.DimensionCount", code: "import.dx.op.rank"},
		{name: "slice output sizes", path: "dispatchables.slice.desc.OutputTensor.Sizes", value: []any{2, 2},
			operator: "slice", field: p + "slice.desc.OutputTensor.Sizes", code: "import.dx.output.sizes"},
		{name: "slice zero stride", path: "dispatchables.slice.desc.Strides.1", value: 0,
			operator: "slice", field: p + "slice.desc.Strides[1]", code: "slice.as.slice1"},
		{name: "identity output type", path: "dispatchables.identity.desc.OutputTensor.DataType", value: "FLOAT16",
			operator: "identity", field: p + "identity.desc.OutputTensor.DataType", code: "import.dx.output.type"},
		{name: "identity output overlap", path: "dispatchables.identity.desc.OutputTensor.Strides", value: []any{1, 1, 1, 1},
			operator: "identity", field: p + "identity.desc.OutputTensor.Strides", code: "identity.output.overlap.at"},
		{name: "identity output alignment", path: "dispatchables.identity.desc.OutputTensor.GuaranteedBaseOffsetAlignment", value: 3,
			operator: "identity", field: p + "identity.desc.OutputTensor.GuaranteedBaseOffsetAlignment", code: "tensor.alignment.pow2"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal([]byte(checkModel), &m); err != nil {
				t.Fatal(err)
			}
			if tc.path != "" {
				set(t, m, tc.path, tc.value)
			}
			raw, _ := json.Marshal(m)
			res, ierr := Check(CheckRequest{DxDispatch: raw})
			if ierr != nil {
				t.Fatalf("Check: %v", ierr)
			}
			if res.Valid != tc.wantValid || res.Checked != 3 {
				t.Fatalf("valid %v checked %d, want %v and 3: %+v", res.Valid, res.Checked, tc.wantValid, res)
			}
			for _, op := range res.Operators {
				switch {
				case op.Name == "relu":
					if op.Checked || op.Valid || len(op.Errors) != 0 {
						t.Errorf("relu: %+v, want listed and not checked", op)
					}
				case op.Name != tc.operator:
					if !op.Valid || op.URL == "" || len(op.Errors) != 0 {
						t.Errorf("%s: %+v, want valid with its explorer's URL", op.Name, op)
					}
				default:
					if op.Valid || len(op.Errors) != 1 || op.Errors[0].Field != tc.field || op.Errors[0].Code != tc.code {
						t.Errorf("%s: %+v, want only %s at %s", op.Name, op.Errors, tc.code, tc.field)
					}
				}
			}
		})
	}
}

func TestCheckOpensEachOperatorInItsExplorer(t *testing.T) {
	res, ierr := Check(CheckRequest{DxDispatch: json.RawMessage(checkModel)})
	if ierr != nil {
		t.Fatal(ierr)
	}
	want := map[string]string{
		"slice1":   "/slice?dt=FLOAT32&sizes=1,1,4,4&strides=16,16,4,1&woff=0,0,1,1&wsize=1,1,2,2&wstride=1,1,1,1",
		"slice":    "/slice?dt=FLOAT16&sizes=4,6&woff=0,0&wsize=3,5&wstride=2,2",
		"identity": "/convert?dt=FLOAT32&sizes=1,3,2,4&imode=packed&omode=explicit&ostrides=24,1,12,3",
	}
	for _, op := range res.Operators {
		if w, ok := want[op.Name]; ok && op.URL != w {
			t.Errorf("%s opens %s, want %s", op.Name, op.URL, w)
		}
	}
}

func TestCheckRefusesAnUnreadableModel(t *testing.T) {
	for _, tc := range []struct{ body, field, code string }{
		{`{"resources": {}}`, "dxdispatch.dispatchables", "import.dx.none"},
		{`{"dispatchables": {"a": {"type": 5}}}`, "dxdispatch.dispatchables.a.type", "json.type"},
	} {
		_, ierr := Check(CheckRequest{DxDispatch: json.RawMessage(tc.body)})
		if ierr == nil || len(ierr.Violations) != 1 || ierr.Violations[0].Field != tc.field || ierr.Violations[0].Code != tc.code {
			t.Errorf("%s: %v, want %s at %s", tc.body, ierr, tc.code, tc.field)
		}
	}
}
