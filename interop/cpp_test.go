package interop

import (
	"fmt"
	"net/url"
	"os"
	osexec "os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/ops/convert"
	"github.com/stridescope/stridescope/ops/depthspace"
	"github.com/stridescope/stridescope/ops/join"
	"github.com/stridescope/stridescope/ops/slice1"
	"github.com/stridescope/stridescope/picture"
)

// cppExporters are the explorers whose pages and API answers give C++:
// each turns a state (its page's query) into the C++ the page shows. An
// operator with a C++ export adds a row here and its states below, and
// its desc to testdata/directml-decls.h.
var cppExporters = []struct {
	kind   string
	states []string
	cpp    func(q url.Values) (string, error)
}{
	{
		kind: "layout",
		states: []string{"preset=HW", "preset=WH", "preset=DHW", "preset=NCHW", "preset=NHWC", "preset=NDHWC",
			"preset=broadcast", "preset=padded", "dt=FLOAT16&sizes=3", "dt=UINT4&sizes=2,5",
			"dt=INT64&sizes=2,2,2,2,2,2,2,2", "dt=UINT8&sizes=4294967295", "dt=FLOAT32&sizes=2,3&strides=3,1&total=4000000000&align=16"},
		cpp: func(q url.Values) (string, error) {
			v := picture.Validate(picture.LayoutStateFromQuery(q))
			if v.Layout == nil {
				return "", fmt.Errorf("%v", v.Errors)
			}
			return core.CPPTensorDesc(v.Layout, "tensor"), nil
		},
	},
	{
		kind: "slice",
		states: []string{"preset=example1", "preset=example2", "preset=reverse", "preset=nhwc", "preset=padded", "preset=broadcast",
			// The most negative INT stride, which C++ cannot write as a literal.
			"dt=UINT8&sizes=2147483649&woff=0&wsize=2147483649&wstride=-2147483648",
			"dt=FLOAT64&sizes=1,1,1,1,1,1,1,2&woff=0,0,0,0,0,0,0,0&wsize=1,1,1,1,1,1,1,2&wstride=1,1,1,1,1,1,1,-1"},
		cpp: func(q url.Values) (string, error) {
			v := slice1.Validate(slice1.StateFromQuery(q))
			if v.Slice == nil {
				return "", fmt.Errorf("%v", v.Errors)
			}
			return v.Slice.CPP(), nil
		},
	},
	{
		kind: "convert",
		states: []string{"preset=nhwc-nchw", "preset=nchw-nhwc", "preset=transpose", "preset=broadcast", "preset=padded",
			"preset=reshape", "preset=scalebias", "dt=FLOAT16&sizes=2,3&imode=packed&omode=WH&scale=-0.1&bias=3e38",
			"dt=UINT64&sizes=2,3,4&imode=explicit&istrides=0,4,1&omode=packed&ototal=800&oalign=8"},
		cpp: func(q url.Values) (string, error) {
			v := convert.Validate(convert.StateFromQuery(q))
			if v.ID == nil {
				return "", fmt.Errorf("%v", v.Errors)
			}
			return v.ID.CPP(), nil
		},
	},
	{
		kind: "depthspace",
		states: []string{"preset=d2s-page", "preset=s2d-page1", "preset=s2d-page2", "preset=nhwc", "preset=block3",
			"op=d2s&dt=INT64&sizes=1,4294967295,1,1&imode=packed&block=1", "op=s2d&dt=UINT8&sizes=1,1,2,2&imode=explicit&istrides=16,16,4,1&block=2"},
		cpp: func(q url.Values) (string, error) {
			v := depthspace.Validate(depthspace.StateFromQuery(q))
			if !v.OK() {
				return "", fmt.Errorf("%v", v.Errors)
			}
			return v.DCR.CPP() + "\n{\n" + v.CRD.CPP() + "}\n", nil
		},
	},
	{
		kind: "joinsplit",
		states: []string{"preset=join-example1", "preset=join-example2-axis1", "preset=split-example1", "preset=split-example2",
			"preset=join-padded", "preset=split-columns",
			"op=join&dt=INT64&axis=7" + strings.Repeat("&in=1,1,1,1,1,1,2,3&st=", 8),
			"op=split&dt=UINT8&axis=0&in=4294967295&st=&outs=4294967294,1"},
		cpp: func(q url.Values) (string, error) {
			v := join.Validate(join.StateFromQuery(q))
			switch {
			case v.Join != nil:
				return v.Join.CPP(), nil
			case v.Split != nil:
				return v.Split.CPP(), nil
			}
			return "", fmt.Errorf("%v", v.Errors)
		},
	},
}

// TestCPPExportsCompile writes each exporter's C++ for each of its states
// into a function of one translation unit and compiles it with the
// system's C++ compiler (-fsyntax-only, warnings as errors): against
// testdata/directml-decls.h, DirectML's declarations as its documentation
// gives them, or against the real DirectML.h when DIRECTML_INCLUDE names
// a directory holding it. It is skipped, saying why, without a C++
// compiler (Debian: apt-get install g++).
func TestCPPExportsCompile(t *testing.T) {
	cxx := ""
	for _, c := range []string{os.Getenv("CXX"), "c++", "g++", "clang++"} {
		if c == "" {
			continue
		}
		if p, err := osexec.LookPath(c); err == nil {
			cxx = p
			break
		}
	}
	if cxx == "" {
		t.Skip("no C++ compiler (c++, g++ or clang++ on PATH, or CXX): apt-get install g++ to check that the C++ exports compile")
	}
	dir := t.TempDir()
	include := fmt.Sprintf("#include %q\n", mustAbs(t, "testdata/directml-decls.h"))
	var flags []string
	if d := os.Getenv("DIRECTML_INCLUDE"); d != "" {
		include = "#include <DirectML.h>\n"
		flags = append(flags, "-I"+d)
		t.Logf("compiling against %s/DirectML.h", d)
	}
	for _, ex := range cppExporters {
		t.Run(ex.kind, func(t *testing.T) {
			var tu strings.Builder
			tu.WriteString(include)
			for i, state := range ex.states {
				q, err := url.ParseQuery(state)
				if err != nil {
					t.Fatal(err)
				}
				cpp, err := ex.cpp(q)
				if err != nil {
					t.Fatalf("%s: %v", state, err)
				}
				fmt.Fprintf(&tu, "\n// %s\nvoid export%d() {\n%s}\n", state, i, cpp)
			}
			src := filepath.Join(dir, ex.kind+".cpp")
			if err := os.WriteFile(src, []byte(tu.String()), 0o644); err != nil {
				t.Fatal(err)
			}
			args := append([]string{"-std=c++17", "-fsyntax-only", "-Wall", "-Wextra", "-Wconversion", "-Werror",
				"-Wno-unused-variable", "-Wno-unused-but-set-variable"}, flags...)
			out, err := osexec.Command(cxx, append(args, src)...).CombinedOutput()
			if err != nil {
				t.Errorf("%s does not compile the %s exports: %v\n%s\n%s", cxx, ex.kind, err, out, numbered(tu.String()))
			}
		})
	}
}

func mustAbs(t *testing.T, p string) string {
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// numbered is src with line numbers, for a compiler's messages.
func numbered(src string) string {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		lines[i] = fmt.Sprintf("%4d  %s", i+1, l)
	}
	return strings.Join(lines, "\n")
}
