package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
)

// errorBody is the one shape of every API error: every violation at once.
type errorBody struct {
	Errors []core.Violation `json:"errors"`
}

// apiError carries an HTTP status and the violations to report.
type apiError struct {
	status     int
	violations []core.Violation
}

func (e *apiError) Error() string {
	return fmt.Sprintf("status %d: %v", e.status, e.violations)
}

func invalid(vs ...core.Violation) *apiError {
	return &apiError{status: http.StatusUnprocessableEntity, violations: vs}
}

func badRequest(field, format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest, violations: []core.Violation{{Field: field, Message: fmt.Sprintf(format, args...)}}}
}

// decodeStrict reads exactly one JSON object into v, refusing unknown
// fields and trailing data, and names the offending field where it can.
func decodeStrict(r io.Reader, v any) *apiError {
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return badRequest("", "the body must hold exactly one JSON object; found more after it")
	}
	return nil
}

func jsonError(err error) *apiError {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	var maxErr *http.MaxBytesError
	switch {
	case errors.As(err, &typeErr):
		field := typeErr.Field
		want := typeErr.Type.String()
		switch want {
		case "int64", "*int64", "[]int64":
			want = "a whole number"
		}
		return badRequest(field, "%s must be %s; got a JSON %s", orBody(field), want, typeErr.Value)
	case errors.As(err, &syntaxErr):
		return badRequest("", "the body is not valid JSON: %v (at byte %d)", syntaxErr, syntaxErr.Offset)
	case errors.As(err, &maxErr):
		return &apiError{status: http.StatusRequestEntityTooLarge, violations: []core.Violation{{Message: fmt.Sprintf("the body is larger than %d bytes", maxErr.Limit)}}}
	case errors.Is(err, io.EOF):
		return badRequest("", "the body is empty; send a JSON object")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return badRequest("", "the body is not valid JSON: it ends early")
	}
	if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		field = strings.Trim(field, `"`)
		return badRequest(field, "unknown field %q", field)
	}
	return badRequest("", "the body is not valid JSON: %v", err)
}

func orBody(field string) string {
	if field == "" {
		return "the body"
	}
	return field
}

// httpErrorHandler writes every error in the errorBody shape; anything not
// ours is reported by status only, never with internal detail.
func httpErrorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	var ae *apiError
	var inv *picture.Invalid
	var he *echo.HTTPError
	status, body := http.StatusInternalServerError, errorBody{Errors: []core.Violation{{Message: "internal error"}}}
	switch {
	case errors.As(err, &ae):
		status, body = ae.status, errorBody{Errors: ae.violations}
	case errors.As(err, &inv):
		status, body = http.StatusUnprocessableEntity, errorBody{Errors: inv.Violations}
	case errors.As(err, &he):
		status = he.Code
		body = errorBody{Errors: []core.Violation{{Message: fmt.Sprint(he.Message)}}}
		if status == http.StatusRequestEntityTooLarge {
			body.Errors[0].Message = "the body is too large"
		}
	}
	if c.Request().Method == http.MethodHead {
		_ = c.NoContent(status)
		return
	}
	if !strings.HasPrefix(c.Path(), "/api/") && status == http.StatusNotFound && acceptsHTML(c.Request()) {
		_ = c.String(status, "404 page not found")
		return
	}
	_ = c.JSON(status, body)
}

func acceptsHTML(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}
