// Package strictjson decodes JSON request bodies, and the values nested
// in them (an import's format, a DxDispatch model's descs), with one set
// of rules and one wording for every endpoint:
//
//   - every fault is reported at once, each at its path as the API names
//     fields (numpy.strides[1], dxdispatch.dispatchables.s.desc.Sizes[0]),
//     where encoding/json stops at the first and names a list without
//     its index, an embedded struct's field not at all;
//   - a whole number (an int64 field or list element) must be one: a
//     null inside a list (encoding/json reads it as 0, a stride of 0 is a
//     broadcast nobody asked for), a fraction (1.5, 2.0), a string, a
//     number past 64 bits are each refused at their index;
//   - a value of the wrong JSON kind is named in words the catalogs
//     translate, the kind wanted and the kind given;
//   - an unknown key is refused, except in an open value (a DxDispatch
//     operator desc carries fields the importer does not read);
//   - a null field means "not given" (its default), as encoding/json has
//     it; only a null where a value must be (a list's element, the body)
//     is refused;
//   - a whole body must be one JSON value with no data after it and no
//     key given twice at any depth, in any case (encoding/json keeps the
//     last of them, so one of the values would be dropped).
//
// Every message is a core.Violation with a code of the json.* or body.*
// families; i18n's catalogs translate them.
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/jsonscan"
)

// Decode reads body, a whole request body holding one JSON object, into
// v (a pointer to a struct), strictly; nil when it decoded. Faults of the
// text itself (not JSON, empty, more after the object) come alone or with
// the object's own faults; every fault of the object comes at once.
func Decode(body []byte, v any) []core.Violation {
	dec := json.NewDecoder(bytes.NewReader(body))
	var raw json.RawMessage
	if err := dec.Decode(&raw); err != nil {
		return []core.Violation{syntax(err)}
	}
	if isNull(raw) {
		return []core.Violation{TypeError("", WantKind(nil), GotKind("null"))}
	}
	vs := Duplicates(raw, "")
	c := checker{}
	c.value(raw, reflect.TypeOf(v), "")
	vs = append(vs, c.vs...)
	if _, err := dec.Token(); err != io.EOF {
		vs = append(vs, core.NewMsg("body.trailing", "the body must hold exactly one JSON object; found more after it", nil).At(""))
	}
	if len(vs) > 0 {
		return vs
	}
	return decode(raw, "", v, false)
}

// DecodeValue reads raw, a value inside a body Decode has read (so valid
// JSON, its keys once each), into v, strictly, reporting at paths under
// prefix. open: keys v does not name are passed over, not refused.
func DecodeValue(raw []byte, prefix string, v any, open bool) []core.Violation {
	c := checker{open: open}
	c.value(raw, reflect.TypeOf(v), prefix)
	if len(c.vs) > 0 {
		return c.vs
	}
	return decode(raw, prefix, v, open)
}

// decode runs encoding/json on a value the checker passed. It should not
// fail; if it does, its error is said at prefix rather than dropped.
func decode(raw []byte, prefix string, v any, open bool) []core.Violation {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if !open {
		dec.DisallowUnknownFields()
	}
	err := dec.Decode(v)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		path := join(prefix, te.Field)
		return []core.Violation{TypeError(path, WantKind(te.Type), GotKind(te.Value))}
	}
	return []core.Violation{core.NewMsg("json.invalid", "the body is not valid JSON: {detail}", core.Args{"detail": Detail(err)}).At(prefix)}
}

// syntax says why the body is not one JSON value.
func syntax(err error) core.Violation {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		return core.NewMsg("json.syntax", "the body is not valid JSON: {detail} (at byte {offset})", core.Args{"detail": Detail(se), "offset": se.Offset}).At("")
	case errors.Is(err, io.EOF):
		return core.NewMsg("body.empty", "the body is empty; send a JSON object", nil).At("")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return core.NewMsg("json.early", "the body is not valid JSON: it ends early", nil).At("")
	}
	return core.NewMsg("json.invalid", "the body is not valid JSON: {detail}", core.Args{"detail": Detail(err)}).At("")
}

// join is the path of key (or of an index, "[2]") inside the value at
// path.
func join(path, key string) string {
	if path == "" || key == "" || key[0] == '[' {
		return path + key
	}
	return path + "." + key
}

func isNull(raw []byte) bool { return string(bytes.TrimSpace(raw)) == "null" }

var rawType = reflect.TypeFor[json.RawMessage]()

// checker walks a JSON value along the Go type it is to decode into.
type checker struct {
	vs   []core.Violation
	open bool
}

func (c *checker) add(v core.Violation) { c.vs = append(c.vs, v) }

// value checks raw, not null, as a t at path.
func (c *checker) value(raw []byte, t reflect.Type, path string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawType || t.Kind() == reflect.Interface {
		return // taken as it is, judged by whoever reads it
	}
	kind := Kind(raw)
	switch {
	case isWhole(t):
		if got := wholeNumber(raw); got != nil {
			c.add(notWhole(path, *got))
		}
	case t.Kind() == reflect.Struct:
		if kind.Code != "json.kind.object" {
			c.add(TypeError(path, WantKind(t), kind))
			return
		}
		c.object(raw, t, path)
	case t.Kind() == reflect.Map:
		var members map[string]json.RawMessage
		if kind.Code != "json.kind.object" || json.Unmarshal(raw, &members) != nil {
			c.add(TypeError(path, WantKind(t), kind))
			return
		}
		for _, k := range slices.Sorted(maps.Keys(members)) {
			if !isNull(members[k]) {
				c.value(members[k], t.Elem(), join(path, k))
			}
		}
	case t.Kind() == reflect.Slice || t.Kind() == reflect.Array:
		var items []json.RawMessage
		if kind.Code != "json.kind.list" || json.Unmarshal(raw, &items) != nil {
			if isWhole(t.Elem()) {
				c.add(core.NewMsg("json.whole.list", "{field} must be a list of whole numbers; got {got}", core.Args{"field": FieldOrBody(path), "got": kind}).At(path))
			} else {
				c.add(TypeError(path, WantKind(t), kind))
			}
			return
		}
		elem := t.Elem()
		for i, it := range items {
			at := fmt.Sprintf("%s[%d]", path, i)
			// A null element is never "not given": encoding/json would
			// read it as the element's zero.
			if isNull(it) && !isWhole(elem) && elem != rawType && elem.Kind() != reflect.Interface {
				c.add(TypeError(at, WantKind(elem), GotKind("null")))
				continue
			}
			c.value(it, elem, at)
		}
	case t.Kind() == reflect.String:
		if kind.Code != "json.kind.string" {
			c.add(TypeError(path, WantKind(t), kind))
		}
	case t.Kind() == reflect.Bool:
		if kind.Code != "json.kind.boolean" {
			c.add(TypeError(path, WantKind(t), kind))
		}
	case t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64:
		if kind.Code != "json.kind.number" {
			c.add(TypeError(path, WantKind(t), kind))
		}
	}
}

// object checks an object's members against t's fields: each field's
// value, in the order t declares them (a null one is not given), then the
// keys t does not name. Keys match fields as encoding/json matches them:
// the exact name, else the name in another case ("DataType" is dataType).
func (c *checker) object(raw []byte, t reflect.Type, path string) {
	var obj map[string]json.RawMessage
	if json.Unmarshal(raw, &obj) != nil {
		c.add(TypeError(path, WantKind(t), Kind(raw)))
		return
	}
	fields := jsonFields(t)
	byField := make([][]string, len(fields))
	var unknown []string
	for _, k := range slices.Sorted(maps.Keys(obj)) {
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
			if !isNull(obj[k]) {
				c.value(obj[k], f.typ, join(path, f.name))
			}
		}
	}
	if c.open {
		return
	}
	for _, k := range unknown {
		f := join(path, k)
		c.add(core.NewMsg("json.field.unknown", "unknown field {field:q}", core.Args{"field": f}).At(f))
	}
}

// jsonField is a struct field by its JSON name.
type jsonField struct {
	name string
	typ  reflect.Type
}

// jsonFields lists t's fields by their JSON names, in order, embedded
// structs' fields in place.
func jsonFields(t reflect.Type) []jsonField {
	var out []jsonField
	for i := range t.NumField() {
		f := t.Field(i)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, jsonFields(f.Type)...)
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" || !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		out = append(out, jsonField{name: name, typ: f.Type})
	}
	return out
}

// notWhole is the violation of a value at field that is not a whole
// number the API reads; got says what it is.
func notWhole(field string, got core.Msg) core.Violation {
	if got.Code == "json.got.range" {
		// A whole number all the same: said as one, with the range.
		return core.NewMsg("json.whole.range", "{field} = {value}: a whole number, but outside the range the API reads (-2^63 to 2^63-1)",
			core.Args{"field": field, "value": got.Args["value"]}).At(field)
	}
	return core.NewMsg("json.whole", "{field} must be a whole number; {got}", core.Args{"field": FieldOrBody(field), "got": got}).At(field)
}

// wholeNumber says what is wrong with raw as an int64, or nil.
func wholeNumber(raw []byte) *core.Msg {
	t := string(bytes.TrimSpace(raw))
	var m core.Msg
	switch k := Kind(raw); {
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

// Duplicates reports every object in text, at any depth, that names a
// key twice, exactly or in another case ("strides" and "Strides"), at
// paths under prefix: encoding/json keeps the last of them, and matches
// keys in any case, so one of two values given would be dropped without
// a word. Text that is not JSON is left to the decoder to report, and so
// is text nested deeper than any request is (maxKeyDepth):
// json.Decoder.Token slows with the depth, and a 2 MiB body of brackets
// took it hours.
func Duplicates(text []byte, prefix string) []core.Violation {
	d := dupCheck{prefix: prefix}
	jsonscan.Walk(text, &d)
	return d.vs
}

// maxKeyDepth is deeper than any request body nests (a DxDispatch model's
// tensor desc inside a desc is 6 levels down).
const maxKeyDepth = 32

// dupCheck is Duplicates' visitor: the keys seen in each object open
// (nil for a list), innermost last. It walks the bytes rather than
// decode them: json.Decoder.Token cost a 2 MiB import 70 bytes a byte.
type dupCheck struct {
	prefix string
	seen   []map[string]string // folded key: the key as first written
	vs     []core.Violation
}

func (d *dupCheck) Open(p jsonscan.Path, object bool) bool {
	// Past maxKeyDepth nothing is checked, but the walk goes on (jsonscan
	// bounds it), so keys repeated after a deep value are still found.
	var m map[string]string
	if object && len(p) <= maxKeyDepth {
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
		f := join(d.prefix, p.String())
		d.vs = append(d.vs, core.NewMsg("json.field.duplicate", "{field:q} is given more than once (also as {first:q}): only one value can be taken", core.Args{"field": f, "first": first}).At(f))
	} else {
		seen[foldKey(k)] = k
	}
	return true
}

func (d *dupCheck) Close(jsonscan.Path, bool) { d.seen = d.seen[:len(d.seen)-1] }

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
