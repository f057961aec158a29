// Package static holds the stylesheets, the ES modules and the icons the
// pages load, embedded so the server binary needs no files beside it.
//
// Every file is served under two names. Its hashed name (app.3f2a9c1b.css),
// which URL gives the pages, holds a hash of its content, so it is cached
// for a year and never revalidated: a new build changes the name. Its plain
// name (app.css) keeps working with a short cache, for pages and embeds
// rendered by an older build.
//
// A module's hashed copy imports its siblings by their hashed names: the
// `from './live.js'` specifiers are rewritten before hashing, leaves first,
// so a module's hash covers everything it imports and a change to live.js
// renames every module above it. (An import map would do the same without
// rewriting, but an inline one needs a CSP hash or nonce.) The plain copies
// import the plain names, so one page never loads a module twice under two
// names.
package static

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"net/http"
	"path"
	"regexp"
	"sort"
	"strings"
	"time"
)

//go:embed *.css *.js *.svg
var files embed.FS

// FS is the embedded files, unchanged.
var FS = files

const (
	// ImmutableCache is the Cache-Control of a hashed name.
	ImmutableCache = "public, max-age=31536000, immutable"
	// ShortCache is the Cache-Control of a plain name: short enough that
	// a new build shows at once.
	ShortCache = "public, max-age=300"
)

// asset is one name's answer, its gzip form made once at startup.
type asset struct {
	body, gz  []byte // gz is nil when gzip does not make it smaller
	etag      string // of body; the gzip form's ends in -gz
	ctype     string
	immutable bool
}

// assets is the files as served.
type assets struct {
	byName map[string]*asset   // plain and hashed names
	hashed map[string]string   // plain name → hashed name
	deps   map[string][]string // module → the siblings it imports
	// static is deps without the dynamic imports (import('./x.js')):
	// a module asks for those when it needs them, so they are not
	// preloaded.
	static map[string][]string
}

var byName, hashed, staticDeps = func() (map[string]*asset, map[string]string, map[string][]string) {
	a, err := load(files, siteBundles)
	if err != nil {
		panic("static: " + err.Error())
	}
	return a.byName, a.hashed, a.static
}()

// importSpec is a module's import of a sibling, static or dynamic:
// `from './live.js'`, `import './x.js'`, `import('./slice.js')`.
var importSpec = regexp.MustCompile(`(\bfrom\s*|\bimport\s*\(?\s*)(['"])\./([A-Za-z0-9_-]+\.js)(['"])`)

// siteBundles are the stylesheets served as one: a page loads site.css,
// not its four parts, because every stylesheet is a request its first
// paint waits for. The parts keep their own names too.
var siteBundles = map[string][]string{"site.css": {"app.css", "rooms.css", "docs.css", "slice.css", "depthspace.css", "copy-steps.css"}}

// load reads and names the files of fsys, and each bundle (a name made of
// files concatenated in order).
func load(fsys fs.FS, bundles map[string][]string) (*assets, error) {
	byName, hashed, deps, static := map[string]*asset{}, map[string]string{}, map[string][]string{}, map[string][]string{}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, err
	}
	raw := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() || contentType(e.Name()) == "" {
			continue
		}
		b, err := fs.ReadFile(fsys, e.Name())
		if err != nil {
			return nil, err
		}
		raw[e.Name()] = b
		if path.Ext(e.Name()) == ".js" {
			for _, m := range importSpec.FindAllSubmatch(b, -1) {
				dep := string(m[3])
				if _, err := fs.Stat(fsys, dep); err != nil {
					return nil, fmt.Errorf("%s imports %s, which is not here", e.Name(), dep)
				}
				deps[e.Name()] = append(deps[e.Name()], dep)
				if !bytes.Contains(m[1], []byte("(")) { // not import('./x.js')
					static[e.Name()] = append(static[e.Name()], dep)
				}
			}
		}
	}
	for name, parts := range bundles {
		var b bytes.Buffer
		for _, p := range parts {
			body, ok := raw[p]
			if !ok {
				return nil, fmt.Errorf("bundle %s: %s is not here", name, p)
			}
			b.Write(body)
			b.WriteByte('\n')
		}
		raw[name] = b.Bytes()
	}
	var visit func(name string, seen []string) error
	visit = func(name string, seen []string) error {
		if _, done := hashed[name]; done {
			return nil
		}
		for _, s := range seen {
			if s == name {
				// A cycle has no order to hash in.
				return fmt.Errorf("import cycle %s → %s", strings.Join(seen, " → "), name)
			}
		}
		for _, d := range deps[name] {
			if err := visit(d, append(seen, name)); err != nil {
				return err
			}
		}
		body := raw[name]
		if len(deps[name]) > 0 {
			body = importSpec.ReplaceAllFunc(body, func(m []byte) []byte {
				s := importSpec.FindSubmatch(m)
				return []byte(string(s[1]) + string(s[2]) + "./" + hashed[string(s[3])] + string(s[4]))
			})
		}
		h := hash(body)
		ext := path.Ext(name)
		hashed[name] = strings.TrimSuffix(name, ext) + "." + h + ext
		byName[hashed[name]] = newAsset(name, body, h, true)
		byName[name] = newAsset(name, raw[name], hash(raw[name]), false)
		return nil
	}
	names := make([]string, 0, len(raw))
	for n := range raw {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if err := visit(n, nil); err != nil {
			return nil, err
		}
	}
	return &assets{byName, hashed, deps, static}, nil
}

func hash(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:4])
}

func newAsset(name string, body []byte, h string, immutable bool) *asset {
	a := &asset{body: body, etag: `"` + h + `"`, ctype: contentType(name), immutable: immutable}
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	zw.Write(body)
	zw.Close()
	if buf.Len() < len(body) {
		a.gz = buf.Bytes()
	}
	return a
}

func contentType(name string) string {
	switch path.Ext(name) {
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	}
	return ""
}

// URL is the address the pages use for the named file ("app.css"): its
// hashed name. A name that is not here gets its plain address, which
// answers 404, so a typo shows in the browser's console.
func URL(name string) string {
	if h, ok := hashed[name]; ok {
		return "/static/" + h
	}
	return "/static/" + name
}

// Inline is the named file's content, for markup that carries a file
// itself rather than asking for it ("icon.svg" in the site header: an
// image the first paint would wait for); "" for a name that is not here.
func Inline(name string) string {
	if a, ok := byName[name]; ok {
		return string(a.body)
	}
	return ""
}

// Imports is the URLs of every module the named module imports
// statically, directly or not, for <link rel=modulepreload>: the browser
// fetches them at once instead of one level of imports at a time. What a
// module imports dynamically (and all that imports) is left to be
// fetched when it is asked for: a page that never needs it never loads
// it, nor waits for it before its first paint.
func Imports(name string) []string {
	var out []string
	seen := map[string]bool{name: true}
	var walk func(string)
	walk = func(n string) {
		for _, d := range staticDeps[n] {
			if !seen[d] {
				seen[d] = true
				out = append(out, URL(d))
				walk(d)
			}
		}
	}
	walk(name)
	return out
}

// Size is the named file's size as served from its hashed name, raw and
// gzipped (raw again when gzip does not make it smaller).
func Size(name string) (raw, gz int) {
	a := byName[hashed[name]]
	if a == nil {
		return 0, 0
	}
	if a.gz == nil {
		return len(a.body), len(a.body)
	}
	return len(a.body), len(a.gz)
}

// Names is the plain names of the files, sorted.
func Names() []string {
	out := make([]string, 0, len(hashed))
	for n := range hashed {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Has reports whether Handler serves the path after /static/.
func Has(path string) bool { return byName[strings.TrimPrefix(path, "/")] != nil }

// Handler serves the files by the path after /static/, gzipped when the
// client accepts it, with ETags for revalidation.
func Handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		a := byName[strings.TrimPrefix(r.URL.Path, "/")]
		if a == nil {
			http.NotFound(w, r)
			return
		}
		h := w.Header()
		h.Set("Content-Type", a.ctype)
		h.Add("Vary", "Accept-Encoding")
		if a.immutable {
			h.Set("Cache-Control", ImmutableCache)
		} else {
			h.Set("Cache-Control", ShortCache)
		}
		body, etag := a.body, a.etag
		if a.gz != nil && acceptsGzip(r.Header.Values("Accept-Encoding")) {
			// Each encoding is its own representation, with its own ETag.
			body, etag = a.gz, strings.TrimSuffix(a.etag, `"`)+`-gz"`
			h.Set("Content-Encoding", "gzip")
		}
		h.Set("ETag", etag)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(body))
	})
}

// acceptsGzip reports whether Accept-Encoding lists gzip (or *) with a
// non-zero q.
func acceptsGzip(values []string) bool {
	for _, v := range values {
		for _, part := range strings.Split(v, ",") {
			coding, params, _ := strings.Cut(strings.TrimSpace(part), ";")
			coding = strings.ToLower(strings.TrimSpace(coding))
			if coding != "gzip" && coding != "x-gzip" && coding != "*" {
				continue
			}
			q := strings.ReplaceAll(strings.ToLower(params), " ", "")
			if q == "q=0" || q == "q=0.0" || q == "q=0.00" || q == "q=0.000" {
				continue
			}
			return true
		}
	}
	return false
}
