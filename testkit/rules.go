package testkit

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// RuleTable is a table of models that each break some of an operator's
// rules: a valid model and, per case, the edits that break it and the
// violations each of its dispatchables must then be refused with. The
// interop tests run it through interop.Check and the web tests through
// POST /api/v1/check, so one file holds the cases for both.
type RuleTable struct {
	Model json.RawMessage `json:"model"`
	Cases []RuleCase      `json:"cases"`
}

// RuleCase is one row: Edits are written into the model (a key's
// dotted path, "dispatchables.pad.desc.StartPadding.1"; a null value
// deletes the key), and Errors lists, per dispatchable, the violations
// expected as [field under its desc, code]. A dispatchable not listed
// must be valid.
type RuleCase struct {
	Name   string                 `json:"name"`
	Edits  map[string]any         `json:"edits"`
	Errors map[string][][2]string `json:"errors"`
}

// LoadRuleTable reads a RuleTable from file, failing the test if it
// cannot.
func LoadRuleTable(t testing.TB, file string) RuleTable {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var rt RuleTable
	if err := json.Unmarshal(b, &rt); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return rt
}

// Edited is the table's model with c's edits written in.
func (rt RuleTable) Edited(t testing.TB, c RuleCase) json.RawMessage {
	t.Helper()
	var m any
	if err := json.Unmarshal(rt.Model, &m); err != nil {
		t.Fatal(err)
	}
	for path, v := range c.Edits {
		if err := editJSON(m, strings.Split(path, "."), v); err != nil {
			t.Fatalf("%s: edit %s: %v", c.Name, path, err)
		}
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// editJSON writes v at keys under cur: an object's member (deleted when
// v is nil) or an array's element. Every key but the last must exist.
func editJSON(cur any, keys []string, v any) error {
	k, last := keys[0], len(keys) == 1
	switch c := cur.(type) {
	case map[string]any:
		if last {
			if v == nil {
				delete(c, k)
			} else {
				c[k] = v
			}
			return nil
		}
		next, ok := c[k]
		if !ok {
			return fmt.Errorf("no member %q", k)
		}
		return editJSON(next, keys[1:], v)
	case []any:
		n, err := strconv.Atoi(k)
		if err != nil || n < 0 || n >= len(c) {
			return fmt.Errorf("no element %q", k)
		}
		if last {
			c[n] = v
			return nil
		}
		return editJSON(c[n], keys[1:], v)
	}
	return fmt.Errorf("%q is below a value that is neither an object nor an array", k)
}

// Diff compares the violations (field, code) dispatchable name got with
// the ones c expects of it, in any order: "" when they are the same.
func (c RuleCase) Diff(name string, got [][2]string) string {
	prefix := "dxdispatch.dispatchables." + name + ".desc."
	var w, g []string
	for _, v := range c.Errors[name] {
		w = append(w, prefix+v[0]+" "+v[1])
	}
	for _, v := range got {
		g = append(g, v[0]+" "+v[1])
	}
	slices.Sort(w)
	slices.Sort(g)
	if slices.Equal(g, w) {
		return ""
	}
	return fmt.Sprintf("%s: refused with\n  %s\nwant\n  %s", name, strings.Join(g, "\n  "), strings.Join(w, "\n  "))
}
