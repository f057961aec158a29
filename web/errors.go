package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"net"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/a-h/templ"
	"github.com/labstack/echo/v4"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/jsonscan"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// statusClientGone is the status logged for a request whose client went
// away before it was answered (nginx's 499).
const statusClientGone = 499

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

func badRequest(field, code, tmpl string, args core.Args) *apiError {
	return &apiError{status: http.StatusBadRequest, violations: []core.Violation{core.NewMsg(code, tmpl, args).At(field)}}
}

// decodeStrict reads exactly one JSON object into v, refusing unknown
// fields and trailing data, and names the offending field where it can.
// Every field of the object is checked first, on its own, so that every
// violation is reported at once (encoding/json stops at the first); and
// integer fields element by element: encoding/json would read a null
// inside a list as 0 (a stride of 0 is a broadcast nobody asked for) and
// names neither the index nor, in an embedded struct, the field as the
// request spells it.
func decodeStrict(r io.Reader, v any) *apiError {
	body, err := io.ReadAll(r)
	if err != nil {
		return readError(err)
	}
	if isNull(body) {
		return &apiError{status: http.StatusBadRequest, violations: []core.Violation{
			picture.TypeError("json.type", "", picture.FieldOrBody(""), &json.UnmarshalTypeError{Value: "null"}, picture.WantKind(nil))}}
	}
	if vs := append(duplicateKeys(body), objectViolations(body, reflect.TypeOf(v))...); len(vs) > 0 {
		return &apiError{status: http.StatusBadRequest, violations: vs}
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return jsonError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return trailing()
	}
	return nil
}

// duplicateKeys reports every object in body, at any depth, that names a
// key twice, exactly or in another case ("strides" and "Strides"):
// encoding/json keeps the last of them, and matches keys in any case, so
// one of two values given would be dropped without a word. A body that
// is not valid JSON is left to the decoder to report, and so is one
// nested deeper than any request is (maxKeyDepth): json.Decoder.Token
// slows with the depth, and a 2 MiB body of brackets took it hours.
func duplicateKeys(body []byte) []core.Violation {
	var d dupCheck
	jsonscan.Walk(body, &d)
	return d.vs
}

// dupCheck is duplicateKeys' visitor: the keys seen in each object open
// (nil for a list), innermost last. It walks the bytes rather than
// decode them: json.Decoder.Token cost a 2 MiB import 70 bytes a byte.
type dupCheck struct {
	seen []map[string]string // folded key: the key as first written
	vs   []core.Violation
}

func (d *dupCheck) Open(p jsonscan.Path, object bool) bool {
	if len(p) > maxKeyDepth {
		return false
	}
	var m map[string]string
	if object {
		m = map[string]string{}
	}
	d.seen = append(d.seen, m)
	return true
}

func (d *dupCheck) Entry(p jsonscan.Path, _ int) bool {
	seen := d.seen[len(d.seen)-1]
	if seen == nil {
		return true
	}
	k := p[len(p)-1].Name()
	if first, dup := seen[foldKey(k)]; dup {
		f := p.String()
		d.vs = append(d.vs, core.NewMsg("json.field.duplicate", "{field:q} is given more than once (also as {first:q}): only one value can be taken", core.Args{"field": f, "first": first}).At(f))
	} else {
		seen[foldKey(k)] = k
	}
	return true
}

func (d *dupCheck) Close(jsonscan.Path, bool) { d.seen = d.seen[:len(d.seen)-1] }

// maxKeyDepth is deeper than any request body nests (a DxDispatch model's
// tensor desc inside a desc is 6 levels down).
const maxKeyDepth = 32

func unknownField(path string) core.Violation {
	return core.NewMsg("json.field.unknown", "unknown field {field:q}", core.Args{"field": path}).At(path)
}

func trailing() *apiError {
	return badRequest("", "body.trailing", "the body must hold exactly one JSON object; found more after it", nil)
}

// jsonField is a request field by its JSON name; whole: it holds whole
// numbers (list: a list of them).
type jsonField struct {
	name        string
	typ         reflect.Type
	whole, list bool
}

// jsonFields lists t's fields by their JSON names, in order, embedded
// structs' fields in place.
func jsonFields(t reflect.Type) []jsonField {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Kind() != reflect.Struct {
		return nil
	}
	var out []jsonField
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" || !f.IsExported() {
			continue
		}
		jf := jsonField{name: name, typ: f.Type}
		switch f.Type {
		case reflect.TypeFor[[]int64]():
			jf.whole, jf.list = true, true
		case reflect.TypeFor[int64](), reflect.TypeFor[*int64]():
			jf.whole = true
		}
		out = append(out, jf)
	}
	return out
}

// foldKey is k with every letter replaced by the least of its Unicode
// case-folding orbit: two keys encoding/json takes for one field (it
// matches names as strings.EqualFold does: "strides", "Strides", and
// "ſtrides" with U+017F, a long s) fold to one key.
func foldKey(k string) string {
	return strings.Map(func(r rune) rune {
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		return least
	}, k)
}

// objectViolations reports, for a body that is one JSON object, every
// field of a request of type t that would not decode: unknown fields,
// values of the wrong kind (at their path inside nested objects), and
// integer fields, or list elements, that are not whole numbers fitting
// int64 (null inside a list, a fraction, a string); and data after the
// object. A null field (or list) is left to mean "not given". A body that
// is not a JSON object is left to the decoder to report.
func objectViolations(body []byte, t reflect.Type) []core.Violation {
	var obj map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(body))
	if dec.Decode(&obj) != nil || obj == nil {
		return nil
	}
	// Keys match fields as encoding/json matches them: the exact name,
	// else the name in another case ("DataType" is dataType).
	fields := jsonFields(t)
	keys := slices.Sorted(maps.Keys(obj))
	var vs []core.Violation
	var unknown []string
	byField := make([][]string, len(fields))
	for _, k := range keys {
		i := slices.IndexFunc(fields, func(f jsonField) bool { return f.name == k })
		if i < 0 {
			i = slices.IndexFunc(fields, func(f jsonField) bool { return strings.EqualFold(f.name, k) })
		}
		if i < 0 {
			unknown = append(unknown, k)
			continue
		}
		byField[i] = append(byField[i], k)
	}
	for i, f := range fields {
		for _, k := range byField[i] {
			raw := obj[k]
			if isNull(raw) {
				continue
			}
			if f.whole {
				vs = append(vs, wholeViolations(f, raw)...)
			} else if v := fieldViolation(f, raw); v != nil {
				vs = append(vs, *v)
			}
		}
	}
	for _, k := range unknown {
		vs = append(vs, unknownField(k))
	}
	if _, err := dec.Token(); err != io.EOF {
		vs = append(vs, trailing().violations...)
	}
	return vs
}

// fieldViolation decodes one field's value strictly into its type and
// reports the first thing wrong with it, or nil.
func fieldViolation(f jsonField, raw json.RawMessage) *core.Violation {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	err := dec.Decode(reflect.New(f.typ).Interface())
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		path := f.name
		if te.Field != "" {
			path += "." + te.Field
		}
		v := picture.TypeError("json.type", path, path, te, picture.WantKind(te.Type))
		return &v
	}
	if sub, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		v := unknownField(f.name + "." + strings.Trim(sub, `"`))
		return &v
	}
	v := jsonError(err).violations[0]
	v.Field = f.name
	return &v
}

// wholeViolations reports what is not a whole number in an integer field:
// the value, or each element of a list.
func wholeViolations(f jsonField, raw json.RawMessage) []core.Violation {
	if !f.list {
		if got := wholeNumber(raw); got != nil {
			return []core.Violation{notWhole(f.name, *got)}
		}
		return nil
	}
	var items []json.RawMessage
	if json.Unmarshal(raw, &items) != nil {
		return []core.Violation{core.NewMsg("json.whole.list", "{field} must be a list of whole numbers; got {got}", core.Args{"field": f.name, "got": jsonKind(raw)}).At(f.name)}
	}
	var vs []core.Violation
	for i, it := range items {
		if got := wholeNumber(it); got != nil {
			vs = append(vs, notWhole(fmt.Sprintf("%s[%d]", f.name, i), *got))
		}
	}
	return vs
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

func notWhole(field string, got core.Msg) core.Violation {
	if got.Code == "json.got.range" {
		// A whole number all the same: said as one, with the range.
		return core.NewMsg("json.whole.range", "{field} = {value}: a whole number, but outside the range the API reads (-2^63 to 2^63-1)",
			core.Args{"field": field, "value": got.Args["value"]}).At(field)
	}
	return core.NewMsg("json.whole", "{field} must be a whole number; {got}", core.Args{"field": field, "got": got}).At(field)
}

// wholeNumber says what is wrong with raw as an int64, or nil.
func wholeNumber(raw json.RawMessage) *core.Msg {
	t := string(bytes.TrimSpace(raw))
	var m core.Msg
	switch k := jsonKind(raw); {
	case k.Code != "json.kind.number":
		m = core.NewMsg("json.got", "got {kind}", core.Args{"kind": k})
	case strings.ContainsAny(t, ".eE"):
		m = core.NewMsg("json.got.number", "got {value}", core.Args{"value": t})
		if f, err := strconv.ParseFloat(t, 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<63 {
			m = core.NewMsg("json.got.fraction", "got {value}: write it without a fraction or exponent ({whole})", core.Args{"value": t, "whole": int64(f)})
		}
	default:
		if _, err := strconv.ParseInt(t, 10, 64); err == nil {
			return nil
		}
		m = core.NewMsg("json.got.range", "got {value}, outside the 64-bit range the API reads (at most 9223372036854775807)", core.Args{"value": t})
	}
	return &m
}

// jsonKind names the kind of JSON value raw holds, in picture.GotKind's
// words.
func jsonKind(raw json.RawMessage) core.Msg {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return core.NewMsg("json.kind.nothing", "nothing", nil)
	}
	switch t[0] {
	case 'n':
		return picture.GotKind("null")
	case 't', 'f':
		return picture.GotKind("bool")
	case '"':
		return picture.GotKind("string")
	case '[':
		return picture.GotKind("array")
	case '{':
		return picture.GotKind("object")
	}
	return picture.GotKind("number")
}

func jsonError(err error) *apiError {
	var typeErr *json.UnmarshalTypeError
	var syntaxErr *json.SyntaxError
	var maxErr *http.MaxBytesError
	switch {
	case errors.As(err, &typeErr):
		field := typeErr.Field
		return &apiError{status: http.StatusBadRequest, violations: []core.Violation{picture.TypeError("json.type", field, picture.FieldOrBody(field), typeErr, picture.WantKind(typeErr.Type))}}
	case errors.As(err, &syntaxErr):
		return badRequest("", "json.syntax", "the body is not valid JSON: {detail} (at byte {offset})", core.Args{"detail": picture.JSONDetail(syntaxErr), "offset": syntaxErr.Offset})
	case errors.As(err, &maxErr):
		return &apiError{status: http.StatusRequestEntityTooLarge, violations: []core.Violation{core.NewMsg("body.large", "the body is larger than {limit} bytes", core.Args{"limit": maxErr.Limit}).At("")}}
	case errors.Is(err, io.EOF):
		return badRequest("", "body.empty", "the body is empty; send a JSON object", nil)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return badRequest("", "json.early", "the body is not valid JSON: it ends early", nil)
	}
	if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return &apiError{status: http.StatusBadRequest, violations: []core.Violation{unknownField(strings.Trim(field, `"`))}}
	}
	return badRequest("", "json.invalid", "the body is not valid JSON: {detail}", core.Args{"detail": picture.JSONDetail(err)})
}

// readError is the answer to a body that could not be read whole: over
// the limit (413), not all there within the server's read timeout (408),
// or cut off. The transport's own error names socket addresses and is in
// English: the log has it, the client gets the rule.
func readError(err error) *apiError {
	var maxErr *http.MaxBytesError
	var netErr net.Error
	switch {
	case errors.As(err, &maxErr):
		return tooLarge(maxErr.Limit)
	case errors.As(err, &netErr) && netErr.Timeout():
		return &apiError{status: http.StatusRequestTimeout, violations: []core.Violation{
			core.NewMsg("body.timeout", "the body did not arrive in time: send all of it at once", nil).At("")}}
	}
	return badRequest("", "body.read", "the body could not be read: it was cut off", nil)
}

// httpErrorHandler writes every error in the errorBody shape; anything not
// ours is reported by status only, never with internal detail.
func httpErrorHandler(err error, c echo.Context) {
	if c.Response().Committed {
		return
	}
	if errors.Is(err, context.Canceled) && c.Request().Context().Err() != nil {
		// The client went away (while its request waited for the work
		// budget, say): nobody reads the answer, and it is no server
		// error. 499 is what proxies log for it.
		c.Response().WriteHeader(statusClientGone)
		return
	}
	var ae *apiError
	var inv *picture.Invalid
	var he *echo.HTTPError
	status, body := http.StatusInternalServerError, errorBody{Errors: []core.Violation{core.NewMsg("server.internal", "internal error", nil).At("")}}
	switch {
	case errors.As(err, &ae):
		status, body = ae.status, errorBody{Errors: ae.violations}
	case errors.As(err, &inv):
		status, body = http.StatusUnprocessableEntity, errorBody{Errors: inv.Violations}
	case errors.As(err, &he):
		status = he.Code
		body = errorBody{Errors: []core.Violation{{Message: fmt.Sprint(he.Message)}}}
		switch status {
		case http.StatusRequestEntityTooLarge:
			body.Errors[0] = core.NewMsg("body.large.any", "the body is too large", nil).At("")
		case http.StatusNotFound: // no such route (Echo's router), or a handler's echo.ErrNotFound
			if strings.HasPrefix(c.Request().URL.Path, "/api/") {
				body.Errors[0] = core.NewMsg("route.none", "Not Found", nil).At("")
			} else {
				// A page (/tour/99) asked for by a client that takes no HTML.
				body.Errors[0] = core.NewMsg("page.none", "Not Found", nil).At("")
			}
		case http.StatusMethodNotAllowed:
			// The router has set Allow; HEAD joins it when it is written
			// (allowHead), and is said here as it will be sent.
			h := http.Header{echo.HeaderAllow: {c.Response().Header().Get(echo.HeaderAllow)}}
			allowHead(h)
			body.Errors[0] = core.NewMsg("route.method", "{method} is not allowed at this address: it takes {allow}",
				core.Args{"method": c.Request().Method, "allow": h.Get(echo.HeaderAllow)}).At("")
		}
	}
	body.Errors = picture.Capped(body.Errors)
	// Each coded violation in the request's language (English by default).
	body.Errors = i18n.LocaleOf(c.Request().Context()).Violations(body.Errors)
	// A picture refused where a picture was asked for (an <img> on a
	// documentation page, the Download SVG link): a picture that says
	// why, with the same status, rather than JSON a browser shows as a
	// broken image or saves as a .svg.
	if p := c.Request().URL.Path; strings.HasPrefix(p, "/api/") && strings.HasSuffix(p, ".svg") && acceptsPicture(c.Request()) {
		_ = writeRefusalSVG(c, status, body.Errors)
		return
	}
	if !strings.HasPrefix(c.Request().URL.Path, "/api/") && acceptsHTML(c.Request()) {
		ctx := i18n.Translated(c.Request().Context())
		switch status {
		case http.StatusNotFound:
			c.SetRequest(c.Request().WithContext(ctx))
			_ = render(c, status, views.NotFoundPage(c.Request().URL.Path))
			return
		case http.StatusBadRequest, http.StatusMethodNotAllowed, http.StatusRequestEntityTooLarge:
			// A page address a browser cannot be answered with (a query
			// that does not parse, a form's route opened as a link, a
			// form's body over the limit): the reasons in words, and a way
			// on in the asked language.
			title := i18n.Key("error.address")
			if status == http.StatusRequestEntityTooLarge {
				title = "error.too-large"
			}
			wordedPage(c, ctx, status, title, body.Errors)
			return
		case http.StatusForbidden, http.StatusTooManyRequests, http.StatusServiceUnavailable:
			// A room's form a browser posted ("Present this", "End the
			// room") that the server refused: the reason in words, not
			// JSON on the projector.
			if c.Request().Method == http.MethodPost {
				wordedPage(c, ctx, status, "error.refused", body.Errors)
				return
			}
		}
	}
	_ = c.JSON(status, body)
}

// wordedPage answers a browser with an error page titled title: the
// violations' messages as sentences, and a way on, in ctx's language.
func wordedPage(c echo.Context, ctx context.Context, status int, title i18n.Key, vs []core.Violation) {
	msgs := make([]string, len(vs))
	for i, v := range vs {
		msgs[i] = i18n.Sentence(ctx, v.Message)
	}
	c.SetRequest(c.Request().WithContext(ctx))
	_ = render(c, status, errorPage(c.Request().URL.Path)(i18n.T(ctx, title), strings.Join(msgs, " "), i18n.WithAsked(ctx, onward(c.Request(), status))))
}

// onward is where a page address that could not be answered goes on to:
// the same page without its query, or the layout explorer when the route
// takes no GET (or the path could leave the site).
func onward(r *http.Request, status int) string {
	if status == http.StatusRequestEntityTooLarge {
		// A form's body over the limit: the pages send no Referer
		// (Referrer-Policy: no-referrer, so that a room's code in an
		// address never leaves it), so the way on is the explorer.
		return "/"
	}
	p := r.URL.EscapedPath()
	if status != http.StatusBadRequest || r.Method != http.MethodGet || !strings.HasPrefix(p, "/") || strings.HasPrefix(p, "//") || strings.HasPrefix(p, "/\\") {
		return "/"
	}
	return p
}

// errorPage is the error page for a page at path: an embed's has the
// embed's frame (no site header), whose links stay in the frame.
func errorPage(path string) func(title, message, retry string) templ.Component {
	if strings.HasPrefix(path, "/embed/") {
		return views.EmbedErrorPage
	}
	return views.ErrorPage
}

// acceptsPicture says the client asked for an image or a page (an <img>,
// a link followed), not for whatever comes (an API client).
func acceptsPicture(r *http.Request) bool {
	a := r.Header.Get("Accept")
	return strings.Contains(a, "image/") || strings.Contains(a, "text/html")
}

func acceptsHTML(r *http.Request) bool {
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}
