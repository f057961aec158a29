package msggen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestExtractAndRewrite(t *testing.T) {
	root := t.TempDir()
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(filepath.Join(root, path)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, path), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("core/a.go", `package core
func f() {
	NewMsg("a.one", "the first {x}", nil)
	vs.add("field", "a.two", "the "+"second", nil)
	_ = []struct{ code, tmpl string }{{"a.table", "from a table"}}
	T(ctx, "not.a.message")
}`)
	write("ops/op/b.go", `package op
func g() { NewMsg("b.note", "a note", nil); NewMsg("a.one", "the first {x}", nil) }`)
	write("core/a_test.go", `package core
func h() { NewMsg("test.only", "never read", nil) }`)
	msgs, err := Extract(root)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, k := range []string{"a.one", "a.two", "a.table", "b.note", "test.only", "not.a.message"} {
		if m, ok := msgs[k]; ok {
			got = append(got, k+"="+m.Template)
		}
	}
	if want := "a.one=the first {x}|a.two=the second|a.table=from a table|b.note=a note"; strings.Join(got, "|") != want {
		t.Errorf("extracted %q, want %q", strings.Join(got, "|"), want)
	}
	// Kept entries keep their place, gone ones go, new ones come last in
	// code order; a code held in another section stays there.
	en := "{\n\t\"messages\": {\n\t\t\"a.two\": \"old\",\n\t\t\"gone\": \"x\",\n\t\t\"a.one\": \"the first {x}\"\n\t},\n\t\"notes\": {\n\t\t\"b.note\": \"a note\"\n\t}\n}\n"
	out, err := Rewrite([]byte(en), msgs)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n\t\"messages\": {\n\t\t\"a.two\": \"the second\",\n\t\t\"a.one\": \"the first {x}\",\n\t\t\"a.table\": \"from a table\"\n\t},\n\t\"notes\": {\n\t\t\"b.note\": \"a note\"\n\t}\n}\n"
	if string(out) != want {
		t.Errorf("rewritten\n%s\nwant\n%s", out, want)
	}

	write("web/c.go", `package web
func k() { NewMsg("a.one", "another first", nil) }`)
	if _, err := Extract(root); err == nil || !strings.Contains(err.Error(), `"a.one"`) {
		t.Errorf("a code with two templates: %v, want an error naming it", err)
	}
}
