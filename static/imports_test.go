package static

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var (
	exportDecl = regexp.MustCompile(`(?m)^export (?:function|const|let) ([A-Za-z_$][\w$]*)`)
	importDecl = regexp.MustCompile(`(?m)^import \{([^}]*)\} from '\./[\w-]+\.js';`)
	// A local name: declared, destructured, a parameter, assigned in a
	// list (const a = 1, b = 2) or a method's name.
	localDecl = regexp.MustCompile(`(?:function|const|let|var)\s+([A-Za-z_$][\w$]*)|(?:const|let|var)\s*\{([^}]*)\}|\(([^()]*)\)\s*=>|function\s*[\w$]*\s*\(([^()]*)\)|,\s*([A-Za-z_$][\w$]*)\s*=[^=>]|(?m)^\s*([A-Za-z_$][\w$]*)\s*\([^()]*\)\s*\{`)
)

// TestModulesImportWhatTheyCall: a module that calls a function another
// module exports either imports it or has one of that name of its own
// (a declaration or a parameter). A function moved to another module
// and not imported where it is called stops the page's script where the
// browser tests would find it only later.
func TestModulesImportWhatTheyCall(t *testing.T) {
	files, err := filepath.Glob("*.js")
	if err != nil {
		t.Fatal(err)
	}
	src := map[string]string{}
	exported := map[string]string{} // name: module
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src[f] = string(b)
		for _, m := range exportDecl.FindAllStringSubmatch(string(b), -1) {
			exported[m[1]] = f
		}
	}
	for f, s := range src {
		known := map[string]bool{}
		for _, m := range importDecl.FindAllStringSubmatch(s, -1) {
			for _, spec := range strings.Split(m[1], ",") {
				if fs := strings.Fields(spec); len(fs) > 0 {
					known[fs[len(fs)-1]] = true // the local name: "x" or "x as y"
				}
			}
		}
		for _, m := range localDecl.FindAllStringSubmatch(s, -1) {
			for _, g := range m[1:] {
				for _, name := range strings.FieldsFunc(g, func(r rune) bool { return r == ',' || r == ' ' || r == '=' || r == ':' || r == '\n' }) {
					known[strings.Trim(name, ".{}[]")] = true
				}
			}
		}
		for name, from := range exported {
			if from == f || known[name] {
				continue
			}
			call := regexp.MustCompile(`(?:^|[^\w$.'"])` + regexp.QuoteMeta(name) + `\(`)
			if call.MatchString(s) {
				t.Errorf("%s calls %s, which %s exports, without importing it", f, name, from)
			}
		}
	}
}
