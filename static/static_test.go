package static

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
)

func TestAcceptsGzip(t *testing.T) {
	for _, tc := range []struct {
		header []string
		want   bool
	}{
		{nil, false},
		{[]string{"identity"}, false},
		{[]string{"gzip"}, true},
		{[]string{"br, gzip;q=0.8"}, true},
		{[]string{"deflate", "GZIP"}, true},
		{[]string{"gzip;q=0"}, false},
		{[]string{"gzip; q=0.000, br"}, false},
		{[]string{"*"}, true},
		{[]string{"x-gzip"}, true},
	} {
		if got := acceptsGzip(tc.header); got != tc.want {
			t.Errorf("Accept-Encoding %q: %v, want %v", tc.header, got, tc.want)
		}
	}
}

// The embedded modules' hashed copies import only hashed names, and a
// module's name changes with anything it imports, however deep.
func TestHashedModulesImportHashedNames(t *testing.T) {
	for _, name := range Names() {
		if !strings.HasSuffix(name, ".js") {
			continue
		}
		body := string(byName[hashed[name]].body)
		for _, m := range importSpec.FindAllStringSubmatch(body, -1) {
			if _, plain := hashed[m[3]]; plain {
				t.Errorf("%s's hashed copy imports the plain %s", name, m[3])
			}
		}
	}
	// Not rooms (client.js imports it only in a room, and it the
	// questions and the pace), nor peek, nor the canvases' modules and
	// fill.js, which computes their values (imported after the first
	// frame, or when a picture needs them).
	if got := Imports("main-slice.js"); len(got) != 10 { // slice, client, live, words, history, protocol, dims, layout, slice-cells, slice-steps
		t.Errorf("main-slice.js imports %v", got)
	}
}

// A module imported dynamically gets a hashed name in its importer, like
// a static import, but is not preloaded with it, nor is what it imports.
func TestDynamicImportsAreHashedNotPreloaded(t *testing.T) {
	a, err := load(fstest.MapFS{
		"a.js": {Data: []byte("import { b } from './b.js';\nimport './s.js';\nconst { c } = b ? await import('./c.js') : {};\n")},
		"b.js": {Data: []byte("export const b = 1;")},
		"s.js": {Data: []byte("window.s = 1;")},
		"c.js": {Data: []byte("import { d } from './d.js';\nexport const c = d;")},
		"d.js": {Data: []byte("export const d = 1;")},
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := a.static["a.js"]; !slices.Equal(got, []string{"b.js", "s.js"}) {
		t.Errorf("a.js's static imports: %v, want [b.js s.js]", got)
	}
	if got := a.deps["a.js"]; !slices.Equal(got, []string{"b.js", "s.js", "c.js"}) {
		t.Errorf("a.js's imports: %v, want [b.js s.js c.js]", got)
	}
	body := string(a.byName[a.hashed["a.js"]].body)
	if !strings.Contains(body, "import('./"+a.hashed["c.js"]+"')") {
		t.Errorf("a.js's hashed copy does not import c.js by its hashed name:\n%s", body)
	}
	// The embedded rooms.js: its question and pace modules are not preloaded.
	for _, u := range Imports("main-explorer.js") {
		for _, lazy := range []string{"questions", "questionset", "pace"} {
			if strings.HasPrefix(u, "/static/"+lazy+".") {
				t.Errorf("main-explorer.js preloads %s", u)
			}
		}
	}
}

func TestLoadRefusesWhatItCannotHash(t *testing.T) {
	for _, tc := range []struct {
		name    string
		files   fstest.MapFS
		bundles map[string][]string
		err     string
	}{
		{"cycle", fstest.MapFS{
			"a.js": {Data: []byte("import { b } from './b.js';")},
			"b.js": {Data: []byte("import { a } from './a.js';")},
		}, nil, "import cycle"},
		{"missing", fstest.MapFS{
			"a.js": {Data: []byte("import('./gone.js');")},
		}, nil, "not here"},
		{"bundle part missing", fstest.MapFS{
			"a.css": {Data: []byte("a {}")},
		}, map[string][]string{"ab.css": {"a.css", "b.css"}}, "bundle ab.css: b.css is not here"},
	} {
		if _, err := load(tc.files, tc.bundles); err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.err)
		}
	}
}

func TestDirectoriesAndUnknownNamesAre404(t *testing.T) {
	h := Handler()
	for _, p := range []string{"/", "/nope.js", "/static.go", "/app.00000000.js"} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest(http.MethodGet, p, nil))
		if w.Code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", p, w.Code)
		}
	}
}

func TestSiteBundleIsItsPartsInOrder(t *testing.T) {
	var want []byte
	for _, p := range siteBundles["site.css"] {
		b, err := FS.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		want = append(append(want, b...), '\n')
	}
	for _, name := range []string{"site.css", strings.TrimPrefix(URL("site.css"), "/static/")} {
		a := byName[name]
		if a == nil || !bytes.Equal(a.body, want) {
			t.Errorf("%s is not app.css, rooms.css, docs.css and slice.css in order", name)
		}
	}
	if URL("site.css") == "/static/site.css" {
		t.Error("site.css has no hashed name")
	}
}
