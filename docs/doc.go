// Package docs embeds the documentation the server serves itself: the
// JSON API's (api.md), at /docs/api.md, which the pages cite.
package docs

import _ "embed"

// API is docs/api.md, the JSON API's documentation, as Markdown.
//
//go:embed api.md
var API string
