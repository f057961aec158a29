// The module's one dependency rule, stated as layers. Each package sits
// in one layer and imports the module's packages only from layers below
// its own, so dependencies point inward and no cycle can form:
//
//	commands (cmd/...), browser tests (e2e)
//	transport: web (the Echo server), over live (websocket sessions)
//	interop: what other tools describe (DxDispatch, ONNX, PyTorch, NumPy)
//	the operators' list: ops (every explorer a server shows)
//	operators: ops/layout, ops/slice1, ops/convert, ops/depthspace, ops/join, ops/padding1, ops/tile (each an explorer.Kind)
//	operators' kit: picture (tensor states and pictures they share)
//	the explorer contract: explorer (Kind, and the one pipeline)
//	                                        rooms/natsbus (the rooms' NATS bus)
//	views (templ components)                rooms (classrooms, over a Bus)
//	compute (the slice engine), i18n, strictjson (request JSON's one decoding)
//	test harness: testkit (servers, sessions, Chromium for the tests)
//	foundation: core (the exact DirectML rules), budget, jsonscan, static, docs
//
// rooms stands beside the explorers: it imports none of the module, nor
// any third-party package, and only the transport and the commands import
// it (and its adapter, rooms/natsbus, which implements its Bus over NATS).
// Third-party imports are allowed per package (Echo only in web, NATS
// only in rooms/natsbus and the NATS test servers, templ's
// generated-code runtime only in views and the operators), and nothing
// below the transport knows net/http. A package that is in no layer
// fails the test: a new package must say where it stands.
package stridescope_test

import (
	"go/build"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/stridescope/stridescope/"

// layer is a rank of packages (module-relative directories) and what
// third-party imports each may use (prefixes; none: the standard
// library only).
type layer struct {
	name string
	pkgs map[string][]string
	http bool // net/http allowed
}

// layers, lowest first.
var layers = []layer{
	{name: "foundation", pkgs: map[string][]string{"core": nil, "budget": nil, "jsonscan": nil, "static": nil, "docs": nil}},
	// The tests' one harness: it imports none of the module, so that any
	// package's own tests can use it.
	{name: "test harness", http: true, pkgs: map[string][]string{"testkit": {"github.com/chromedp/", "github.com/gorilla/websocket"}}},
	{name: "engine and words", pkgs: map[string][]string{"compute": nil, "i18n": {"golang.org/x/text/"}, "strictjson": nil}},
	{name: "word tests", pkgs: map[string][]string{"i18n/i18ntest": nil, "i18n/msggen": nil}},
	{name: "view tests", pkgs: map[string][]string{"views/viewstest": {"github.com/a-h/templ", "github.com/PuerkitoBio/goquery"}}},
	{name: "views", pkgs: map[string][]string{"views": {"github.com/a-h/templ"}}},
	{name: "rooms", pkgs: map[string][]string{"rooms": nil}},
	{name: "rooms' adapters", pkgs: map[string][]string{"rooms/natsbus": {"github.com/nats-io/"}, "rooms/natstest": {"github.com/nats-io/"}}},
	{name: "the explorer contract", pkgs: map[string][]string{"explorer": {"github.com/a-h/templ"}}},
	{name: "operators' kit", pkgs: map[string][]string{"picture": {"github.com/a-h/templ"}}},
	{name: "operators", pkgs: map[string][]string{"ops/layout": {"github.com/a-h/templ"}, "ops/slice1": {"github.com/a-h/templ"}, "ops/convert": {"github.com/a-h/templ"}, "ops/depthspace": {"github.com/a-h/templ"}, "ops/join": {"github.com/a-h/templ"}, "ops/padding1": {"github.com/a-h/templ"}, "ops/tile": {"github.com/a-h/templ"}}},
	{name: "the operators' list", pkgs: map[string][]string{"ops": nil}},
	{name: "interop", pkgs: map[string][]string{"interop": nil}},
	{name: "sessions", pkgs: map[string][]string{"live": {"github.com/gorilla/websocket", "github.com/a-h/templ", "golang.org/x/time/"}}},
	{name: "server", http: true, pkgs: map[string][]string{"web": {"github.com/labstack/", "github.com/gorilla/websocket", "github.com/a-h/templ", "golang.org/x/time/", "rsc.io/qr"}}},
	{name: "commands", http: true, pkgs: map[string][]string{"cmd/server": {"github.com/nats-io/"}, "cmd/bench": nil, "cmd/genmessages": nil, "cmd/benchweb": {"github.com/chromedp/", "golang.org/x/net/"},
		"cmd/loadtest": {"github.com/gorilla/websocket", "github.com/nats-io/"}, "e2e": {"github.com/chromedp/", "github.com/gorilla/websocket", "github.com/nats-io/"}}},
}

// static also knows net/http: it serves the embedded files as a handler.
const staticServes = "static"

// Who may import rooms: it stands beside the explorers.
var roomsImporters = []string{"web", "live", "cmd/server", "cmd/loadtest", "e2e"}

// templRuntime is what generated templ code imports: components are
// written only in the views and the operators; the transport only
// renders them (github.com/a-h/templ's Component).
const templRuntime = "github.com/a-h/templ/runtime"

func TestLayers(t *testing.T) {
	rank := map[string]int{}
	for i, l := range layers {
		for p := range l.pkgs {
			rank[p] = i
		}
	}
	// Every package of the module is in a layer.
	var dirs []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		switch d.Name() {
		case "testdata", "node_modules", ".git":
			return filepath.SkipDir
		}
		if goFiles, _ := filepath.Glob(filepath.Join(path, "*.go")); len(goFiles) > 0 && path != "." {
			dirs = append(dirs, filepath.ToSlash(path))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if _, ok := rank[d]; !ok {
			t.Errorf("package %s is in no layer: place it in layers_test.go", d)
		}
	}

	fset := token.NewFileSet()
	checked := 0
	for i, l := range layers {
		for dir, thirdParty := range l.pkgs {
			files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
			if len(files) == 0 {
				t.Errorf("%s (layer %s) has no Go files", dir, l.name)
			}
			for _, name := range files {
				// Tests may reach further (a harness, a real NATS); the
				// rule is for the code that ships.
				if strings.HasSuffix(name, "_test.go") && dir != "e2e" {
					continue
				}
				f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
				if err != nil {
					t.Fatalf("parsing %s: %v", name, err)
				}
				checked++
				for _, imp := range f.Imports {
					path, _ := strconv.Unquote(imp.Path.Value)
					if why := checkImport(dir, i, l, thirdParty, rank, path); why != "" {
						t.Errorf("%s imports %q: %s", name, path, why)
					}
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("checked only %d files: is the test in the module's root?", checked)
	}
}

// checkImport says what is wrong with dir (of layer l, ranked i) importing
// path, or "".
func checkImport(dir string, i int, l layer, thirdParty []string, rank map[string]int, path string) string {
	if p, ok := strings.CutPrefix(path, module); ok {
		r, placed := rank[p]
		switch {
		case !placed:
			return "a package in no layer"
		case p == "rooms" || strings.HasPrefix(p, "rooms/"):
			if !slices.Contains(roomsImporters, dir) && !strings.HasPrefix(dir, "rooms") {
				return "rooms stands beside the explorers: only the transport and the commands use it"
			}
		case r >= i:
			return "the " + layers[r].name + " layer is not below " + dir + "'s (" + l.name + "): dependencies point inward"
		}
		return ""
	}
	if !strings.Contains(strings.SplitN(path, "/", 2)[0], ".") {
		if path == "C" {
			return "cgo"
		}
		if (path == "net/http" || strings.HasPrefix(path, "net/http/")) && !l.http && dir != staticServes {
			return "only the server and the commands know HTTP"
		}
		if pkg, err := build.Default.Import(path, ".", build.FindOnly); err != nil || !pkg.Goroot {
			return "not the standard library, nor a module path"
		}
		return ""
	}
	if strings.HasPrefix(path, templRuntime) && dir != "views" && l.name != "operators" {
		return "templ components are written only in the views and the operators"
	}
	for _, a := range thirdParty {
		if strings.HasPrefix(path, a) {
			return ""
		}
	}
	if len(thirdParty) == 0 {
		return dir + " uses the standard library only"
	}
	return "outside what " + dir + " may use (" + strings.Join(thirdParty, ", ") + ")"
}
