package core

import (
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestCoreImportsOnlyTheStandardLibrary keeps package core free of
// dependencies: every import of a non-test file must be a standard library
// package (no dot in the path, found in GOROOT), so neither third-party
// modules nor the project's own packages can creep in.
func TestCoreImportsOnlyTheStandardLibrary(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatalf("parsing %s: %v", name, err)
		}
		checked++
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatalf("%s: import %s: %v", name, imp.Path.Value, err)
			}
			if strings.Contains(path, ".") {
				t.Errorf("%s imports %q: a path with a dot is not the standard library", name, path)
				continue
			}
			if path == "C" {
				t.Errorf("%s uses cgo", name)
				continue
			}
			pkg, err := build.Default.Import(path, ".", build.FindOnly)
			if err != nil || !pkg.Goroot {
				t.Errorf("%s imports %q, which is not a standard library package (%v)", name, path, err)
			}
		}
	}
	if checked == 0 {
		t.Fatal("no non-test Go files found in core")
	}
}

// TestDependenciesPointInward holds the project's layering: cmd -> web ->
// live -> {rooms, picture}, picture -> views -> {static, i18n, core}, picture ->
// compute -> core, i18n -> core (the catalogs render core's codes); Echo only
// in web, and no HTTP in rooms, live, picture or i18n. Each folder lists the
// module packages and third-party prefixes its non-test files may import.
func TestDependenciesPointInward(t *testing.T) {
	const mod = "github.com/stridescope/stridescope/"
	rules := []struct {
		dir     string
		allowed []string // module packages (without the module path) and third-party prefixes
		noHTTP  bool     // net/http is off limits too
	}{
		{dir: "../compute", allowed: []string{"core"}},
		{dir: "../i18n", allowed: []string{"core", "golang.org/x/text/"}, noHTTP: true},        // catalogs: core's codes, x/text's matching
		{dir: "../i18n/i18ntest", allowed: []string{"i18n"}, noHTTP: true},                     // what the page tests count as English left
		{dir: "../views", allowed: []string{"core", "static", "i18n", "github.com/a-h/templ"}}, // static: the assets' hashed URLs
		{dir: "../static"},
		{dir: "../rooms", allowed: []string{"github.com/nats-io/"}, noHTTP: true},
		{dir: "../rooms/natstest", allowed: []string{"github.com/nats-io/"}, noHTTP: true},
		{dir: "../budget", noHTTP: true},
		{dir: "../jsonscan", noHTTP: true},
		{dir: "../strictjson", allowed: []string{"core", "jsonscan"}, noHTTP: true}, // one decoding of request JSON, its wording core's codes
		{dir: "../picture", allowed: []string{"core", "compute", "views", "budget", "i18n", "jsonscan", "strictjson"}, noHTTP: true},
		{dir: "../live", allowed: []string{"core", "compute", "views", "picture", "rooms", "budget", "github.com/gorilla/websocket", "github.com/a-h/templ", "golang.org/x/time/"}, noHTTP: true},
		{dir: "../web", allowed: []string{"core", "compute", "views", "static", "rooms", "picture", "live", "budget", "i18n", "strictjson", "github.com/", "golang.org/x/", "rsc.io/"}},
	}
	// Every package of the module but the commands and the browser tests
	// has a rule: a new package must say where it stands.
	ruled := map[string]bool{"..": true}
	for _, r := range rules {
		ruled[r.dir] = true
	}
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		switch filepath.Base(path) {
		case "cmd", "e2e", "testdata", "node_modules", ".git":
			return filepath.SkipDir
		}
		if goFiles, _ := filepath.Glob(filepath.Join(path, "*.go")); len(goFiles) > 0 && path != "../core" && !ruled[path] {
			t.Errorf("package %s has no rule in TestDependenciesPointInward", path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, r := range rules {
		files, err := filepath.Glob(filepath.Join(r.dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no Go files (%v)", r.dir, err)
		}
		for _, name := range files {
			if strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatalf("parsing %s: %v", name, err)
			}
			for _, imp := range f.Imports {
				path, _ := strconv.Unquote(imp.Path.Value)
				if (path == "net/http" || strings.HasPrefix(path, "net/http/")) && r.noHTTP {
					t.Errorf("%s imports %s: %s knows nothing of HTTP", name, path, r.dir)
				}
				if !strings.Contains(path, ".") {
					continue // the standard library
				}
				if strings.Contains(path, "labstack/echo") && r.dir != "../web" {
					t.Errorf("%s imports Echo; every Echo import lives in web/", name)
					continue
				}
				ok := false
				for _, a := range r.allowed {
					if path == mod+a || strings.HasPrefix(path, mod+a+"/") || (strings.Contains(a, ".") && strings.HasPrefix(path, a)) {
						ok = true
					}
				}
				if !ok {
					t.Errorf("%s imports %q, outside what %s may use (%v)", name, path, r.dir, r.allowed)
				}
			}
		}
	}
}
