package interop

import (
	"encoding/json"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
)

// "Why is my operator refused": DirectML answers a description it will
// not take with E_INVALIDARG, "The parameter is incorrect", and nothing
// more. The check reads every dispatchable of a DxDispatch model and says
// every rule each one breaks, at its field, with the rule in words.

// CheckRequest is the body of POST /api/v1/check: a DxDispatch model.
type CheckRequest struct {
	DxDispatch json.RawMessage `json:"dxdispatch"`
}

// CheckedOperator is one dispatchable of the model, checked.
type CheckedOperator struct {
	Name string `json:"name"`
	Type string `json:"type"`
	// Checked: the site knows the operator's rules (DxOperators); an
	// operator it does not know is listed and passed over.
	Checked bool `json:"checked"`
	Valid   bool `json:"valid"`
	// Page and URL open a valid operator in its explorer.
	Page   string           `json:"page,omitempty"`
	URL    string           `json:"url,omitempty"`
	Errors []core.Violation `json:"errors"`
	Notes  []string         `json:"notes"`
	notes  []core.Msg
}

// CheckResponse is the answer of POST /api/v1/check.
type CheckResponse struct {
	// Valid: every checked operator is valid, and at least one was
	// checked.
	Valid     bool              `json:"valid"`
	Checked   int               `json:"checked"`
	Refused   int               `json:"refused"`
	Operators []CheckedOperator `json:"operators"`
	// Known are the operator types the check reads.
	Known []string `json:"known"`
}

// Check reads every dispatchable of a model in the file's order. A model
// that cannot be read (not JSON, no dispatchables, a field of the wrong
// type) is an *ImportError, as for the import; a model that reads is
// answered with every operator's violations.
func Check(req CheckRequest) (*CheckResponse, *ImportError) {
	if req.DxDispatch == nil {
		return nil, importErr("dxdispatch", "import.required", "{field} is required", core.Args{"field": "dxdispatch"})
	}
	m, err := readDxModel(req.DxDispatch)
	if err != nil {
		return nil, err
	}
	res := &CheckResponse{Operators: make([]CheckedOperator, 0, len(m.order)), Known: DxOperators()}
	for _, name := range m.order {
		d := m.ds[name]
		op := CheckedOperator{Name: name, Type: d.Type, Errors: []core.Violation{}, Notes: []string{}}
		if known(d.Type) {
			op.Checked = true
			res.Checked++
			imp, ierr := importDispatchable(name, d)
			if ierr != nil {
				op.Errors = ierr.Violations
				res.Refused++
			} else {
				op.Valid, op.Page, op.URL = true, imp.Page, imp.URL
				op.Notes, op.notes = imp.Notes, imp.notes
			}
		}
		res.Operators = append(res.Operators, op)
	}
	res.Valid = res.Checked > 0 && res.Refused == 0
	return res, nil
}

// Localize is r with its errors and notes in l (English, the default, is
// what Check writes).
func (r *CheckResponse) Localize(l i18n.Locale) *CheckResponse {
	out := *r
	out.Operators = make([]CheckedOperator, len(r.Operators))
	for i, op := range r.Operators {
		op.Errors = l.Violations(op.Errors)
		if op.Errors == nil {
			op.Errors = []core.Violation{}
		}
		notes := make([]string, len(op.notes))
		for j, m := range op.notes {
			notes[j] = l.T(i18n.Key(m.Code), m.Args)
		}
		op.Notes = notes
		out.Operators[i] = op
	}
	return &out
}
