package interop

import (
	"context"
	"encoding/json"
	"net/url"
	"slices"
	"testing"

	"github.com/stridescope/stridescope/ops/join"
)

// TestJoinSplitModelsReadBack: the DxDispatch model of each example of
// the join and split page, imported, opens the page on the same state.
func TestJoinSplitModelsReadBack(t *testing.T) {
	for _, p := range join.PresetLinks(join.DefaultState(), false) {
		t.Run(p.Name, func(t *testing.T) {
			q := url.Values{"preset": {p.Name}}
			plan, err := joinsplitDxPlan(q)
			if err != nil {
				t.Fatal(err)
			}
			m, vs := plan.Build(context.Background())
			if vs != nil {
				t.Fatal(vs)
			}
			b, err := MarshalDxModel(m)
			if err != nil {
				t.Fatal(err)
			}
			res, ierr := Import(ImportRequest{DxDispatch: b})
			if ierr != nil {
				t.Fatalf("%v\n%s", ierr.Violations, b)
			}
			v := join.Validate(join.StateFromQuery(q))
			if want := "/joinsplit?" + join.StateOf(v).CanonicalQuery(false); res.URL != want {
				t.Errorf("imported %s, want %s", res.URL, want)
			}
		})
	}
}

// joinSplitModel is DxDispatch's own dml_join.json and dml_split.json
// descs in one model (three 1-D inputs of 3, 2 and 5 joined; 6 split in
// three), for the check.
const joinSplitModel = `{
  "dispatchables": {
    "join": {"type": "DML_OPERATOR_JOIN", "desc": {"Axis": 0, "InputCount": 3,
      "InputTensors": [{"DataType": "FLOAT32", "Sizes": [3]}, {"DataType": "FLOAT32", "Sizes": [2]}, {"DataType": "FLOAT32", "Sizes": [5]}],
      "OutputTensor": {"DataType": "FLOAT32", "Sizes": [10]}}},
    "split": {"type": "DML_OPERATOR_SPLIT", "desc": {"Axis": 0, "InputTensor": {"DataType": "FLOAT32", "Sizes": [6]}, "OutputCount": 3,
      "OutputTensors": [{"DataType": "FLOAT32", "Sizes": [2]}, {"DataType": "FLOAT32", "Sizes": [2]}, {"DataType": "FLOAT32", "Sizes": [2]}]}}
  },
  "commands": []
}`

// TestCheckJoinSplit: the check reads DML_JOIN and DML_SPLIT: DxDispatch's
// own examples pass and open the page; each broken rule is named at the
// desc's own field, every one at once.
func TestCheckJoinSplit(t *testing.T) {
	cases := []struct {
		name  string
		path  string
		value any
		want  map[string][]string // dispatchable: field: code
	}{
		{"valid", "", nil, map[string][]string{}},
		{"an output that is not the sum", "dispatchables.join.desc.OutputTensor.Sizes", []any{9}, map[string][]string{
			"join": {"dxdispatch.dispatchables.join.desc.OutputTensor.Sizes[0]: axisop.sum"}}},
		{"a count that is not the array's", "dispatchables.split.desc.OutputCount", 2, map[string][]string{
			"split": {"dxdispatch.dispatchables.split.desc.OutputCount: import.dx.op.count"}}},
		{"an input of another rank", "dispatchables.join.desc.InputTensors.1.Sizes", []any{1, 2}, map[string][]string{
			"join": {"dxdispatch.dispatchables.join.desc.InputTensors[1].Sizes: axisop.rank.same"}}},
		{"an axis past the rank", "dispatchables.split.desc.Axis", 1, map[string][]string{
			"split": {"dxdispatch.dispatchables.split.desc.Axis: axisop.axis.range"}}},
		{"an output of another type", "dispatchables.split.desc.OutputTensors.2.DataType", "FLOAT16", map[string][]string{
			"split": {"dxdispatch.dispatchables.split.desc.OutputTensors[2].DataType: axisop.datatype.same"}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var m map[string]any
			if err := json.Unmarshal([]byte(joinSplitModel), &m); err != nil {
				t.Fatal(err)
			}
			if c.path != "" {
				set(t, m, c.path, c.value)
			}
			b, _ := json.Marshal(m)
			res, ierr := Check(CheckRequest{DxDispatch: b})
			if ierr != nil {
				t.Fatal(ierr.Violations)
			}
			for _, op := range res.Operators {
				var got []string
				for _, v := range op.Errors {
					got = append(got, v.Field+": "+v.Code)
				}
				if want := c.want[op.Name]; !slices.Equal(got, want) {
					t.Errorf("%s: %v, want %v", op.Name, got, want)
				}
				if len(c.want[op.Name]) == 0 && (!op.Valid || op.Page != "joinsplit") {
					t.Errorf("%s: valid %v page %q", op.Name, op.Valid, op.Page)
				}
			}
		})
	}
}
