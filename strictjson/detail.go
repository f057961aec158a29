package strictjson

import (
	"encoding/json"
	"errors"
	"io"
	"regexp"
	"strings"

	"github.com/stridescope/stridescope/core"
)

// jsonSyntax is the shape of encoding/json's syntax errors: "invalid
// character 'x' " and where the scanner was (Go's scanner.go lists them).
var jsonSyntax = regexp.MustCompile(`^invalid character ('(?:[^'\\]|\\.)*') (.+)$`)

// jsonContexts maps each place encoding/json's scanner reports to the
// code that says it, so the detail renders in the request's language.
var jsonContexts = map[string]struct{ code, tmpl string }{
	"looking for beginning of value":             {"json.detail.value", "invalid character {char} looking for beginning of value"},
	"looking for beginning of object key string": {"json.detail.key", "invalid character {char} looking for beginning of object key string"},
	"after object key":                           {"json.detail.colon", "invalid character {char} after object key"},
	"after object key:value pair":                {"json.detail.pair", "invalid character {char} after object key:value pair"},
	"after array element":                        {"json.detail.element", "invalid character {char} after array element"},
	"in string literal":                          {"json.detail.string", "invalid character {char} in string literal"},
	"in string escape code":                      {"json.detail.escape", "invalid character {char} in string escape code"},
	`in \u hexadecimal character escape`:         {"json.detail.hex", `invalid character {char} in \u hexadecimal character escape`},
	"in numeric literal":                         {"json.detail.number", "invalid character {char} in numeric literal"},
	"after decimal point in numeric literal":     {"json.detail.decimal", "invalid character {char} after decimal point in numeric literal"},
	"in exponent of numeric literal":             {"json.detail.exponent", "invalid character {char} in exponent of numeric literal"},
	"after top-level value":                      {"json.detail.after", "invalid character {char} after top-level value"},
}

var jsonLiteral = regexp.MustCompile(`^in literal (true|false|null) \(expecting ('.')\)$`)

// Detail is what encoding/json found wrong with a body, as a message
// by code built from its error's parts (the character, where the scanner
// was, the literal it expected), so that a translated page says it in its
// own words. English reads as encoding/json writes it.
func Detail(err error) core.Msg {
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se):
		msg := se.Error()
		if msg == "unexpected end of JSON input" {
			return core.NewMsg("json.detail.end", "unexpected end of JSON input", nil)
		}
		if g := jsonSyntax.FindStringSubmatch(msg); g != nil {
			if c, ok := jsonContexts[g[2]]; ok {
				return core.NewMsg(c.code, c.tmpl, core.Args{"char": g[1]})
			}
			if l := jsonLiteral.FindStringSubmatch(g[2]); l != nil {
				return core.NewMsg("json.detail.literal", "invalid character {char} in literal {literal} (expecting {expect})", core.Args{"char": g[1], "literal": l[1], "expect": l[2]})
			}
		}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return core.NewMsg("json.detail.eof", "unexpected EOF", nil)
	}
	if f, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return core.NewMsg("json.detail.unknown", "json: unknown field {field:q}", core.Args{"field": strings.Trim(f, `"`)})
	}
	// encoding/json's rarer errors (nesting too deep, ...) stay as it
	// writes them.
	return core.NewMsg("json.detail.other", "{text}", core.Args{"text": err.Error()})
}
