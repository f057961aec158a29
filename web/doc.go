// Package web is the HTTP side of stridescope: the Echo router and its
// middleware (security headers, rate limits, recovery, request logs), the
// pages rendered with templ from picture's models, the JSON API under
// /api/v1 and the SVG pictures, the room pages (Present this, /join,
// /r/CODE), the embedded static files, and the websocket upgrade: the
// origin check and a fair share of sockets per address, after which live
// runs the session. Every Echo import lives here, so a move to another
// router is this package's work alone.
package web
