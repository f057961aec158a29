// Package msggen writes the English of the violation messages into the
// English catalog from the one place it is written: the call sites in
// the sources, where a code is followed by its English template
// (core.NewMsg("tensor.size.zero", "{field} == 0 : ...", args), a
// helper's vs.add(field, code, template, args), a table's {code,
// template}). en.json's "messages" section is this package's output, as
// a templ component's _templ.go is templ's: `go generate ./i18n` writes
// it, and i18n's tests fail when it differs from what the sources say.
package msggen

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Dirs are the packages whose messages the catalog carries, relative to
// the module's root; "ops/*" is every operator.
var Dirs = []string{"core", "picture", "interop", "web", "strictjson", "explorer", "live", "ops/*"}

// codeLike is how a message code looks: dotted words ("tensor.size.zero",
// "room.notPresenter").
var codeLike = regexp.MustCompile(`^[a-z][a-zA-Z0-9]*(?:\.[a-zA-Z0-9-]+)+$`)

// Message is one code and its English template, where it is written.
type Message struct {
	Code, Template string
	At             string // file:line
}

// Extract reads the non-test Go files of Dirs under root and returns
// every message whose code is followed by a literal template, by code.
// A code written with two different templates is an error naming both
// places.
func Extract(root string) (map[string]Message, error) {
	var files []string
	for _, d := range Dirs {
		dirs, err := filepath.Glob(filepath.Join(root, d))
		if err != nil {
			return nil, err
		}
		for _, dir := range dirs {
			fs, err := filepath.Glob(filepath.Join(dir, "*.go"))
			if err != nil {
				return nil, err
			}
			for _, f := range fs {
				if !strings.HasSuffix(f, "_test.go") {
					files = append(files, f)
				}
			}
		}
	}
	out := map[string]Message{}
	var errs []string
	fset := token.NewFileSet()
	for _, f := range files {
		file, err := parser.ParseFile(fset, f, nil, 0)
		if err != nil {
			return nil, err
		}
		ast.Inspect(file, func(n ast.Node) bool {
			var list []ast.Expr
			switch n := n.(type) {
			case *ast.CallExpr:
				list = n.Args
			case *ast.CompositeLit:
				list = n.Elts
			default:
				return true
			}
			for i := 0; i+1 < len(list); i++ {
				code, ok := literal(list[i])
				if !ok || !codeLike.MatchString(code) {
					continue
				}
				tmpl, ok := literal(list[i+1])
				if !ok || codeLike.MatchString(tmpl) {
					continue
				}
				rel, _ := filepath.Rel(root, fset.Position(list[i].Pos()).Filename)
				m := Message{Code: code, Template: tmpl, At: fmt.Sprintf("%s:%d", filepath.ToSlash(rel), fset.Position(list[i].Pos()).Line)}
				if prev, seen := out[code]; seen && prev.Template != tmpl {
					errs = append(errs, fmt.Sprintf("%s writes %q as %q, %s as %q", m.At, code, tmpl, prev.At, prev.Template))
					continue
				}
				if _, seen := out[code]; !seen {
					out[code] = m
				}
			}
			return true
		})
	}
	if len(errs) > 0 {
		slices.Sort(errs)
		return nil, fmt.Errorf("msggen: a code with two templates:\n%s", strings.Join(errs, "\n"))
	}
	return out, nil
}

// literal is e's value when it is a string literal, or literals joined
// with +.
func literal(e ast.Expr) (string, bool) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind != token.STRING {
			return "", false
		}
		s, err := strconv.Unquote(e.Value)
		return s, err == nil
	case *ast.BinaryExpr:
		if e.Op != token.ADD {
			return "", false
		}
		a, ok1 := literal(e.X)
		b, ok2 := literal(e.Y)
		return a + b, ok1 && ok2
	}
	return "", false
}

// Rewrite is the English catalog en with its "messages" section holding
// exactly msgs: the entries it has keep their place (their English
// updated), those the sources no longer write go, and new ones are added
// at the end in code order, so that a change reads as what changed.
func Rewrite(en []byte, msgs map[string]Message) ([]byte, error) {
	start := bytes.Index(en, []byte("\t\"messages\": {\n"))
	if start < 0 {
		return nil, fmt.Errorf("msggen: no \"messages\" section at the top of the catalog")
	}
	bodyStart := start + len("\t\"messages\": {\n")
	end := bytes.Index(en[bodyStart:], []byte("\n\t}"))
	if end < 0 {
		return nil, fmt.Errorf("msggen: the \"messages\" section does not end")
	}
	bodyEnd := bodyStart + end
	var keys []string
	for _, line := range strings.Split(string(en[bodyStart:bodyEnd]), "\n") {
		k, _, ok := strings.Cut(strings.TrimSpace(line), "\": ")
		if !ok || !strings.HasPrefix(k, "\"") {
			return nil, fmt.Errorf("msggen: a line of the messages section is not one \"key\": \"value\" entry: %q", line)
		}
		keys = append(keys, k[1:])
	}
	// A code the catalog holds in another section (an import's note,
	// built as a message too) stays there.
	var sections map[string]map[string]json.RawMessage
	if err := json.Unmarshal(en, &sections); err != nil {
		return nil, fmt.Errorf("msggen: the catalog: %v", err)
	}
	elsewhere := map[string]bool{}
	for name, sec := range sections {
		if name == "messages" {
			continue
		}
		for k := range sec {
			elsewhere[k] = true
		}
	}
	var order []string
	for _, k := range keys {
		if _, ok := msgs[k]; ok {
			order = append(order, k)
		}
	}
	var added []string
	for k := range msgs {
		if !slices.Contains(order, k) && !elsewhere[k] {
			added = append(added, k)
		}
	}
	slices.Sort(added)
	order = append(order, added...)
	lines := make([]string, len(order))
	for i, k := range order {
		v, err := marshal(msgs[k].Template)
		if err != nil {
			return nil, err
		}
		sep := ","
		if i == len(order)-1 {
			sep = ""
		}
		lines[i] = "\t\t" + strconv.Quote(k) + ": " + v + sep
	}
	var out bytes.Buffer
	out.Write(en[:bodyStart])
	out.WriteString(strings.Join(lines, "\n"))
	out.Write(en[bodyEnd:])
	return out.Bytes(), nil
}

// marshal writes s as the catalogs write strings: JSON without HTML
// escaping.
func marshal(s string) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// Generate rewrites the English catalog at path from the sources under
// root, and reports whether it changed.
func Generate(root, path string) (bool, error) {
	msgs, err := Extract(root)
	if err != nil {
		return false, err
	}
	en, err := os.ReadFile(path)
	if err != nil {
		return false, err
	}
	out, err := Rewrite(en, msgs)
	if err != nil {
		return false, err
	}
	if bytes.Equal(out, en) {
		return false, nil
	}
	return true, os.WriteFile(path, out, 0o644)
}
