package interop

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/testkit"
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
