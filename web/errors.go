package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"reflect"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
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
// Every integer field is checked first, element by element: encoding/json
// would read a null inside a list as 0 (a stride of 0 is a broadcast
// nobody asked for) and names neither the index nor, in an embedded
// struct, the field as the request spells it.
func decodeStrict(r io.Reader, v any) *apiError {
	body, err := io.ReadAll(r)
	if err != nil {
		return jsonError(err)
	}
	if vs := wholeNumberViolations(body, reflect.TypeOf(v)); len(vs) > 0 {
		return &apiError{status: http.StatusBadRequest, violations: vs}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return badRequest("", "the body must hold exactly one JSON object; found more after it")
	}
	return nil
}

// intField is a request field that holds whole numbers: one, or a list.
type intField struct {
	name string
	list bool
}

// intFields lists t's integer fields by their JSON names, in order,
// embedded structs' fields in place.
func intFields(t reflect.Type) []intField {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var out []intField
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, intFields(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		switch f.Type {
		case reflect.TypeFor[[]int64]():
			out = append(out, intField{name, true})
		case reflect.TypeFor[int64](), reflect.TypeFor[*int64]():
			out = append(out, intField{name, false})
		}
	}
	return out
}

// wholeNumberViolations reports every integer field of a request of type
// t whose value, or list element, is not a whole number that fits int64:
// null inside a list, a fraction, a string. A null field (or list) is
// left to mean "not given". A body that is not a JSON object is left to
// the decoder to report.
func wholeNumberViolations(body []byte, t reflect.Type) []core.Violation {
	var obj map[string]json.RawMessage
	if json.Unmarshal(body, &obj) != nil {
		return nil
	}
	var vs []core.Violation
	for _, f := range intFields(t) {
		raw, ok := obj[f.name]
		if !ok || isNull(raw) {
			continue
		}
		if !f.list {
			if msg := wholeNumber(raw); msg != "" {
				vs = append(vs, core.Violation{Field: f.name, Message: f.name + " must be a whole number; " + msg})
			}
			continue
		}
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			vs = append(vs, core.Violation{Field: f.name, Message: f.name + " must be a list of whole numbers; got " + jsonKind(raw)})
			continue
		}
		for i, it := range items {
			if msg := wholeNumber(it); msg != "" {
				field := fmt.Sprintf("%s[%d]", f.name, i)
				vs = append(vs, core.Violation{Field: field, Message: field + " must be a whole number; " + msg})
			}
		}
	}
	return vs
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// wholeNumber says what is wrong with raw as an int64, or "".
func wholeNumber(raw json.RawMessage) string {
	t := string(bytes.TrimSpace(raw))
	if k := jsonKind(raw); k != "number" {
		return "got " + k
	}
	if strings.ContainsAny(t, ".eE") {
		if f, err := strconv.ParseFloat(t, 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<63 {
			return "got " + t + ": write it without a fraction or exponent (" + strconv.FormatInt(int64(f), 10) + ")"
		}
		return "got " + t
	}
	if _, err := strconv.ParseInt(t, 10, 64); err != nil {
		return "got " + t + ", outside the 64-bit range the API reads (at most 9223372036854775807)"
	}
	return ""
}

// jsonKind names the kind of JSON value raw holds.
func jsonKind(raw json.RawMessage) string {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return "nothing"
	}
	switch t[0] {
	case 'n':
		return "null"
	case 't', 'f':
		return "a boolean"
	case '"':
		return "a string"
	case '[':
		return "a list"
	case '{':
		return "an object"
	}
	return "number"
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
	if !strings.HasPrefix(c.Request().URL.Path, "/api/") && status == http.StatusNotFound && acceptsHTML(c.Request()) {
		_ = render(c, status, views.NotFoundPage(c.Request().URL.Path))
		return
	}
	_ = c.JSON(status, body)
}

func acceptsHTML(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}
