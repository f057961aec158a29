// Package web is the HTTP side of stridescope: the Echo router, the JSON
// API under /api/v1, the pages rendered with templ, the embedded static
// files and the websocket sessions. Every Echo import lives here.
package web
