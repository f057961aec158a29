package web

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/interop"
	"github.com/stridescope/stridescope/views"
)

// postCheck is POST /api/v1/check: a DxDispatch model, answered with every
// rule each of its operators breaks. A model that reads is a 200 whether
// its operators are valid or not (the answer says which); one that does
// not read is a 400, as for the import.
func (s *Server) postCheck(c echo.Context) error {
	ctx := c.Request().Context()
	body, err := s.readModelBody(c)
	if err != nil {
		return err
	}
	var req interop.CheckRequest
	if err := decodeStrict(bytes.NewReader(body), &req); err != nil {
		return err
	}
	res, ierr := interop.Check(req)
	if ierr != nil {
		return &apiError{status: http.StatusBadRequest, violations: ierr.Violations}
	}
	return c.JSON(http.StatusOK, res.Localize(i18n.LocaleOf(ctx)))
}

// getCheckPage is GET /check: the empty form.
func (s *Server) getCheckPage(c echo.Context) error {
	c.SetRequest(c.Request().WithContext(i18n.Translated(c.Request().Context())))
	return render(c, http.StatusOK, views.CheckPage(views.CheckView{}))
}

// postCheckPage is POST /check, the form: the model pasted (as is, or
// inside {"dxdispatch": ...}), checked, on the page.
func (s *Server) postCheckPage(c echo.Context) error {
	n := s.importLength(c)
	if err := budget.Take(c.Request().Context(), n); err != nil {
		return err
	}
	if err := parseForm(c); err != nil {
		return err
	}
	if err := clientGone(c.Request().Context()); err != nil {
		return err
	}
	pasted := c.FormValue("text")
	ctx := i18n.Translated(c.Request().Context())
	c.SetRequest(c.Request().WithContext(ctx))
	loc := i18n.LocaleOf(ctx)
	v := views.CheckView{Pasted: pasted}
	ierr := interop.CheckImportSize([]byte(pasted))
	var res *interop.CheckResponse
	if ierr == nil {
		if err := s.takeDecoding(ctx, n); err != nil {
			return err
		}
		res, ierr = interop.Check(checkRequestOf(pasted))
	}
	if ierr != nil {
		v.Errors = importErrors(loc, ierr.Violations)
		status := http.StatusBadRequest
		if ierr.TooLarge {
			status = http.StatusRequestEntityTooLarge
		}
		return renderStatus(c, status, views.CheckPage(v))
	}
	v.Result = checkResultView(c, loc, res.Localize(loc))
	return renderStatus(c, http.StatusOK, views.CheckPage(v))
}

// checkRequestOf reads what was pasted: a body of /api/v1/check as is, or
// a model alone.
func checkRequestOf(pasted string) interop.CheckRequest {
	trimmed := strings.TrimSpace(pasted)
	var obj map[string]json.RawMessage
	if json.Unmarshal([]byte(trimmed), &obj) == nil {
		if m, ok := obj["dxdispatch"]; ok && len(obj) == 1 {
			return interop.CheckRequest{DxDispatch: m}
		}
	}
	return interop.CheckRequest{DxDispatch: json.RawMessage(trimmed)}
}

func importErrors(loc i18n.Locale, vs []core.Violation) []views.ImportError {
	errs := make([]views.ImportError, len(vs))
	for i, v := range loc.Violations(vs) {
		errs[i] = views.ImportError{Field: v.Field, Message: v.Message}
	}
	return errs
}

func checkResultView(c echo.Context, loc i18n.Locale, res *interop.CheckResponse) *views.CheckResultView {
	out := &views.CheckResultView{Valid: res.Valid}
	switch {
	case res.Checked == 0:
		out.Summary = loc.T("check.summary.none", core.Args{"known": strings.Join(res.Known, ", ")})
	case res.Valid:
		out.Summary = loc.T("check.summary.valid", core.Args{"checked": core.Count{N: int64(res.Checked), Unit: "operators"}})
	default:
		out.Summary = loc.T("check.summary.refused", core.Args{"refused": core.Count{N: int64(res.Refused), Unit: "operators"}, "checkedN": res.Checked})
	}
	for _, op := range res.Operators {
		cv := views.CheckedView{Name: op.Name, Type: op.Type, Notes: op.Notes, Errors: importErrors(i18n.English, nil)}
		for _, e := range op.Errors {
			cv.Errors = append(cv.Errors, views.ImportError{Field: e.Field, Message: e.Message})
		}
		switch {
		case !op.Checked:
			cv.State, cv.Status = "unknown", loc.T("check.status.unknown", nil)
		case op.Valid:
			cv.State, cv.Status, cv.URL = "valid", loc.T("check.status.valid", nil), keepingLang(c, op.URL)
		default:
			cv.State, cv.Status = "refused", loc.T("check.status.refused", core.Args{"count": core.Count{N: int64(len(op.Errors)), Unit: "rules"}})
		}
		out.Operators = append(out.Operators, cv)
	}
	return out
}
