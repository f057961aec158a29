package static

import (
	"fmt"
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

// maxModuleLines is the most lines a module may have. A module longer
// than that is doing several things, and the explorers' shared part
// grew there by copy once (#36): what the explorers share goes in
// client.js, what each draws in its own modules.
const maxModuleLines = 400

// TestModulesStayShort: no module is over maxModuleLines lines.
func TestModulesStayShort(t *testing.T) {
	files, err := filepath.Glob("*.js")
	if err != nil {
		t.Fatal(err)
	}
	var over []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if n := lineCount(string(b)); n > maxModuleLines {
			over = append(over, fmt.Sprintf("%s (%d)", f, n))
		}
	}
	if len(over) > 0 {
		t.Errorf("modules over %d lines: %s; split them (client.js holds what the explorers share)", maxModuleLines, strings.Join(over, ", "))
	}
}

// lineCount counts lines as wc -l does, and a last line without its
// newline too.
func lineCount(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && !strings.HasSuffix(s, "\n") {
		n++
	}
	return n
}

// TestModulesShareNoCodeByCopy: no two modules hold the same three
// lines of code in a row (comments, blank lines and lines shorter than 8
// characters, such as "});", left out). An explorer that copies another's
// socket, form or linking code instead of using client.js or a shared
// module fails it, as slice.js and explorer.js would have before #36.
func TestModulesShareNoCodeByCopy(t *testing.T) {
	files, err := filepath.Glob("*.js")
	if err != nil {
		t.Fatal(err)
	}
	type at struct {
		file string
		line int
	}
	seen := map[string]at{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var code []string
		var lines []int
		for i, l := range strings.Split(string(b), "\n") {
			if l = strings.TrimSpace(l); len(l) >= 8 && !strings.HasPrefix(l, "//") {
				code, lines = append(code, l), append(lines, i+1)
			}
		}
		mine := map[string]bool{}
		for i := 0; i+3 <= len(code); i++ {
			run := strings.Join(code[i:i+3], "\n")
			if first, ok := seen[run]; ok && first.file != f && !mine[run] {
				t.Errorf("%s:%d repeats %s:%d:\n%s", f, lines[i], first.file, first.line, run)
			}
			if _, ok := seen[run]; !ok {
				seen[run] = at{f, lines[i]}
			}
			mine[run] = true
		}
	}
}

// TestModulesTakeProtocolNumbersFromProtocolJS: every module, the edit
// client and any explorer's to come, takes the protocol's version, its
// frames' header length and kinds from protocol.js (live's
// TestProtocolModuleMirrorsGo holds that to the Go side) rather than
// writing the numbers again.
func TestModulesTakeProtocolNumbersFromProtocolJS(t *testing.T) {
	files, err := filepath.Glob("*.js")
	if err != nil {
		t.Fatal(err)
	}
	own := regexp.MustCompile(`\bkind === \d|\bV = \d|HDR = \d|getUint8\(1\) !== \d`)
	for _, f := range files {
		if f == "protocol.js" {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := own.Find(b); m != nil {
			t.Errorf("%s writes a protocol number itself (%q): import it from protocol.js", f, m)
		}
	}
}
