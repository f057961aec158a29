package interop

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/ops/depthspace"
	"github.com/stridescope/stridescope/ops/join"
	"github.com/stridescope/stridescope/ops/padding1"
	"github.com/stridescope/stridescope/ops/tile"
	"github.com/stridescope/stridescope/testkit"
	"github.com/stridescope/stridescope/views"
)

// checkRulesFile is the table of the data-movement operators' rules, each
// broken alone (and some together), that web's TestCheckAPINamesEachRule
// posts to /api/v1/check too.
const checkRulesFile = "testdata/check-rules.json"

// TestCheckNamesEachDataMovementRule breaks each rule of DML_PADDING1,
// DML_TILE, DML_DEPTH_TO_SPACE1, DML_SPACE_TO_DEPTH1, DML_JOIN and
// DML_SPLIT one at a time in a model where every other operator is
// valid: the check must name exactly that field and rule, and a model
// breaking several must get all of them at once.
func TestCheckNamesEachDataMovementRule(t *testing.T) {
	rt := testkit.LoadRuleTable(t, checkRulesFile)
	for _, c := range rt.Cases {
		t.Run(c.Name, func(t *testing.T) {
			res, ierr := Check(CheckRequest{DxDispatch: rt.Edited(t, c)})
			if ierr != nil {
				t.Fatalf("Check: %v", ierr)
			}
			if res.Checked != len(res.Operators) || res.Valid != (len(c.Errors) == 0) || res.Refused != len(c.Errors) {
				t.Errorf("checked %d of %d, valid %v, refused %d; want all checked and %d refused", res.Checked, len(res.Operators), res.Valid, res.Refused, len(c.Errors))
			}
			for _, op := range res.Operators {
				got := make([][2]string, len(op.Errors))
				for i, v := range op.Errors {
					got[i] = [2]string{v.Field, v.Code}
				}
				if msg := c.Diff(op.Name, got); msg != "" {
					t.Error(msg, "\n", messages(op.Errors))
				}
				if want := len(c.Errors[op.Name]) == 0; op.Valid != want || (want && op.URL == "") {
					t.Errorf("%s: valid %v (url %q), want %v", op.Name, op.Valid, op.URL, want)
				}
			}
		})
	}
}

func messages(vs []core.Violation) string {
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, "  %s: %s\n", v.Field, v.Message)
	}
	return b.String()
}

// TestCheckPassesEachExportedModel: the DxDispatch model each
// data-movement explorer exports (its tools panel's download) for each
// of its examples checks clean, every dispatchable read and valid, and
// opens in the explorer that made it.
func TestCheckPassesEachExportedModel(t *testing.T) {
	for _, ex := range []struct {
		kind    string
		presets []views.Preset
	}{
		{"padding", padding1.PresetLinks(padding1.State{}, false)},
		{"tile", tile.PresetLinks(tile.State{}, false)},
		{"depthspace", depthspace.PresetLinks(depthspace.State{}, false)},
		{"joinsplit", join.PresetLinks(join.DefaultState(), false)},
	} {
		if len(ex.presets) == 0 {
			t.Fatalf("%s: no examples", ex.kind)
		}
		for _, p := range ex.presets {
			t.Run(ex.kind+"/"+p.Name, func(t *testing.T) {
				_, query, _ := strings.Cut(p.Href, "?")
				q, err := url.ParseQuery(query)
				if err != nil {
					t.Fatal(err)
				}
				plan, err := DxExporters[ex.kind](q)
				if err != nil {
					t.Fatalf("%s: %v", p.Href, err)
				}
				m, vs := plan.Build(context.Background())
				if vs != nil {
					t.Skipf("%s: no model (%s)", p.Href, vs[0].Message)
				}
				raw, err := json.Marshal(m)
				if err != nil {
					t.Fatal(err)
				}
				res, ierr := Check(CheckRequest{DxDispatch: raw})
				if ierr != nil {
					t.Fatalf("Check: %v", ierr)
				}
				if !res.Valid || res.Checked != len(res.Operators) || res.Checked == 0 {
					t.Fatalf("%s: valid %v, %d of %d checked: %+v", p.Href, res.Valid, res.Checked, len(res.Operators), res.Operators)
				}
				for _, op := range res.Operators {
					if !strings.HasPrefix(op.URL, "/"+ex.kind+"?") {
						t.Errorf("%s: %s opens %q", p.Href, op.Name, op.URL)
					}
				}
			})
		}
	}
}
