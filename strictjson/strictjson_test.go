package strictjson

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

type inner struct {
	Sizes []int64 `json:"Sizes"`
}

type request struct {
	Name  string           `json:"name"`
	Count *int64           `json:"count"`
	Tags  []string         `json:"tags"`
	Raw   json.RawMessage  `json:"raw"`
	Desc  inner            `json:"desc"`
	ByKey map[string]inner `json:"byKey"`
	inner
}

// TestDecodeValuePaths: each fault at its path under the prefix, every one
// at once, in the order the type declares its fields; an embedded
// struct's fields under the object's own path; a null field not given, a
// null element refused whatever the list holds; open passes over keys
// the type does not name, and nothing else.
func TestDecodeValuePaths(t *testing.T) {
	for _, c := range []struct {
		name, body string
		open       bool
		want       []string // field: code
	}{
		{"clean", `{"name":"a","count":3,"tags":["x"],"raw":[null,{}],"Sizes":[1,2]}`, false, nil},
		{"nulls not given", `{"name":null,"count":null,"tags":null,"desc":null}`, false, nil},
		{"every fault", `{"name":1,"count":"3","tags":["x",null],"desc":{"Sizes":[1,null,2.5]},"Sizes":[9223372036854775808],"extra":0}`, false,
			[]string{"p.name: json.type", "p.count: json.whole", "p.tags[1]: json.type", "p.desc.Sizes[1]: json.whole", "p.desc.Sizes[2]: json.whole", "p.Sizes[0]: json.whole.range", "p.extra: json.field.unknown"}},
		{"map members", `{"byKey":{"b":{"Sizes":[null]},"a":{"Sizes":"1"}}}`, false, []string{"p.byKey.a.Sizes: json.whole.list", "p.byKey.b.Sizes[0]: json.whole"}},
		{"open passes over unknown keys only", `{"extra":0,"desc":{"Sizes":[null],"more":1}}`, true, []string{"p.desc.Sizes[0]: json.whole"}},
		{"a list for the object", `[]`, false, []string{"p: json.type"}},
	} {
		var r request
		var got []string
		for _, v := range DecodeValue([]byte(c.body), "p", &r, c.open) {
			got = append(got, v.Field+": "+v.Code)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// TestDecodeBody: a whole body's own faults: not JSON, null, data after
// it (with the object's faults), a key twice in another case.
func TestDecodeBody(t *testing.T) {
	for _, c := range []struct {
		body string
		want []string
	}{
		{`{"name":"a"}`, nil},
		{``, []string{": body.empty"}},
		{`{"name":`, []string{": json.early"}},
		{`{"name":}`, []string{": json.syntax"}},
		{`null`, []string{": json.type"}},
		{`{"tags":[null]} {}`, []string{"tags[0]: json.type", ": body.trailing"}},
		{`{"desc":{"Sizes":[1],"sizes":[2]}}`, []string{"desc.sizes: json.field.duplicate"}},
	} {
		var r request
		var got []string
		for _, v := range Decode([]byte(c.body), &r) {
			got = append(got, v.Field+": "+v.Code)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.body, got, c.want)
		}
	}
}

// TestDuplicatesAfterADeepValue: a value nested past what is checked does
// not stop the check of the keys after it.
func TestDuplicatesAfterADeepValue(t *testing.T) {
	text := []byte(`{"a":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `,"Sizes":[1],"sizes":[2]}`)
	vs := Duplicates(text, "")
	if len(vs) != 1 || vs[0].Field != "sizes" {
		t.Errorf("%+v, want sizes given twice", vs)
	}
}
