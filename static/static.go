// Package static holds the stylesheet, the ES module and the icons the
// pages load, embedded so the server binary needs no files beside it.
package static

import (
	"embed"
	"net/http"
)

//go:embed *.css *.js *.svg
var files embed.FS

// FS is the embedded files.
var FS = files

// Handler serves the embedded files with a cache lifetime short enough
// that a new build shows at once.
func Handler() http.Handler {
	fs := http.FileServerFS(files)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "public, max-age=300")
		fs.ServeHTTP(w, r)
	})
}
