// Package views holds the templ components of stridescope's pages and the
// view models they render. It knows nothing of HTTP.
package views
