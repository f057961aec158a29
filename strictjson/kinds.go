package strictjson

import (
	"bytes"
	"reflect"
	"strings"

	"github.com/stridescope/stridescope/core"
)

// TypeError is the "{field} must be {want}; got {got}" violation of a
// JSON value of the wrong kind at path, both kinds in words the catalog
// translates (never a Go type's name).
func TypeError(path string, want, got core.Msg) core.Violation {
	return core.NewMsg("json.type", "{field} must be {want}; got {got}", core.Args{"field": FieldOrBody(path), "want": want, "got": got}).At(path)
}

// FieldOrBody is field, or "the body" for a request's whole body.
func FieldOrBody(field string) any {
	if field == "" {
		return core.NewMsg("json.body", "the body", nil)
	}
	return field
}

// WantKind names the JSON kind a Go type decodes from.
func WantKind(t reflect.Type) core.Msg {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	kind := func(code, en string) core.Msg { return core.NewMsg(code, en, nil) }
	switch {
	case t == nil:
		return kind("json.kind.object", "an object")
	case isWhole(t):
		return kind("json.kind.whole.one", "a whole number")
	}
	switch t.Kind() {
	case reflect.Float32, reflect.Float64:
		return kind("json.kind.number", "a number")
	case reflect.String:
		return kind("json.kind.string", "a string")
	case reflect.Bool:
		return kind("json.kind.boolean", "a boolean")
	case reflect.Slice, reflect.Array:
		if isWhole(t.Elem()) {
			return kind("json.kind.wholes", "a list of whole numbers")
		}
		return kind("json.kind.list", "a list")
	}
	return kind("json.kind.object", "an object")
}

func isWhole(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return true
	}
	return false
}

// GotKind names the kind encoding/json reports in UnmarshalTypeError.Value
// ("array", "bool", "number 1.5", "object", "string").
func GotKind(value string) core.Msg {
	kind := func(code, en string) core.Msg { return core.NewMsg(code, en, nil) }
	switch {
	case value == "array":
		return kind("json.kind.list", "a list")
	case value == "bool":
		return kind("json.kind.boolean", "a boolean")
	case value == "string":
		return kind("json.kind.string", "a string")
	case value == "object":
		return kind("json.kind.object", "an object")
	case value == "null":
		return kind("json.kind.null", "null")
	case value == "number":
		return kind("json.kind.number", "a number")
	case strings.HasPrefix(value, "number "):
		return core.NewMsg("json.kind.number.value", "the number {value}", core.Args{"value": strings.TrimPrefix(value, "number ")})
	}
	return kind("json.kind.value", "another JSON value")
}

// Kind names the kind of JSON value raw holds, in GotKind's words.
func Kind(raw []byte) core.Msg {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 {
		return core.NewMsg("json.kind.nothing", "nothing", nil)
	}
	switch t[0] {
	case 'n':
		return GotKind("null")
	case 't', 'f':
		return GotKind("bool")
	case '"':
		return GotKind("string")
	case '[':
		return GotKind("array")
	case '{':
		return GotKind("object")
	}
	return GotKind("number")
}
