package picture

import (
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/strictjson"
)

// Most violations an answer lists (the API's, an edit's on the websocket,
// a page's): for each field (sizes[0] ... sizes[n] are sizes's), and in
// all. A 64 KiB body of 5,000 zero sizes has 5,000 violations, an answer
// of 1.8 MB for one mistake made 5,000 times (a 4 KiB edit, 400 KB on
// every keystroke): each field says its first few and how many more.
const (
	MaxPerField = 16
	MaxReported = 256
)

// Capped is vs with at most MaxPerField violations of each field, each
// field's remainder counted in one more violation at the field, and at
// most MaxReported in all, the remainder counted at the body.
func Capped(vs []core.Violation) []core.Violation {
	if len(vs) <= MaxPerField {
		return vs
	}
	root := func(f string) string {
		if i := strings.IndexByte(f, '['); i >= 0 {
			return f[:i]
		}
		return f
	}
	seen := map[string]int{}
	var order []string
	var out []core.Violation
	for _, v := range vs {
		r := root(v.Field)
		if seen[r] == 0 {
			order = append(order, r)
		}
		if seen[r]++; seen[r] <= MaxPerField {
			out = append(out, v)
		}
	}
	for _, r := range order {
		if n := seen[r] - MaxPerField; n > 0 {
			out = append(out, core.NewMsg("errors.more", "{field}: {count} more violations, not listed (an answer lists the first {max} of each field)",
				core.Args{"field": FieldOrBody(r), "count": n, "max": MaxPerField}).At(r))
		}
	}
	if len(out) > MaxReported {
		n := len(out) - (MaxReported - 1)
		out = append(out[:MaxReported-1], core.NewMsg("errors.more.all", "{count} more violations, not listed (an answer lists at most {max})",
			core.Args{"count": n, "max": MaxReported}).At(""))
	}
	return out
}

// FieldOrBody is field, or "the body" for a request's whole body.
func FieldOrBody(field string) any { return strictjson.FieldOrBody(field) }
