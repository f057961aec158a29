package picture

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
)

// InWords rewrites the errors a page shows so that each reads as words
// first, the rule as DirectML's names write it beside them after a dash:
// "The size of dimension W is 0: no dimension may be empty — sizes[1] ==
// 0: ...". Both parts are in l, rendered from each violation's code and
// arguments; a form entry that is empty or not a number, which breaks no
// DirectML rule, reads as words alone. rank names the dimensions (H, W,
// ...). The JSON API keeps the rules as they are.
func InWords(l i18n.Locale, vs []core.Violation, rank int) []core.Violation {
	if len(vs) == 0 {
		return vs
	}
	labels := core.DimensionLabels(min(max(rank, 1), core.MaxDimensionCount))
	out := l.Violations(vs)
	for i, v := range vs {
		w := inWords(l, v, labels)
		switch {
		case w == "":
		case v.Code == "whole.empty" || v.Code == "whole.invalid":
			// Not a DirectML rule: the words already say all the rule
			// would (the field, what was typed, what to give).
			out[i].Message = w
		default:
			out[i].Message = w + " — " + out[i].Message
		}
	}
	return out
}

// fieldWords are the keys naming a field of the forms in words.
var fieldWords = map[string]i18n.Key{
	"sizes": "words.field.size", "inputSizes": "words.field.size",
	"strides": "words.field.stride", "inputStrides": "words.field.stride", "outputStrides": "words.field.stride",
	"inputWindowOffsets": "words.field.window.offset", "inputWindowSizes": "words.field.window.size",
	"inputWindowStrides": "words.field.window.stride", "outputSizes": "words.field.output.size",
}

var indexedField = regexp.MustCompile(`^([A-Za-z]+)\[(\d+)\]$`)

// subject is field (one of fieldWords, indexed) in words, capitalised, or
// "" for a field the forms do not name. A window's field is named by its
// axis, a tensor's by its dimension; what overrides the field's own word.
func subject(l i18n.Locale, field string, labels []string, what i18n.Key) string {
	g := indexedField.FindStringSubmatch(field)
	if g == nil {
		return ""
	}
	w, ok := fieldWords[g[1]]
	if !ok {
		return ""
	}
	if what != "" {
		w = what
	}
	i, _ := strconv.Atoi(g[2])
	args := i18n.Args{"what": l.T(w, nil), "axis": i, "dim": i}
	if i < len(labels) {
		args["dim"] = labels[i]
	}
	key := i18n.Key("words.subject.dim")
	if strings.HasPrefix(g[1], "inputWindow") || g[1] == "outputSizes" {
		key = "words.subject.axis"
		if i < len(labels) {
			key = "words.subject.axis.dim"
		}
	}
	return upper(l.T(key, args))
}

// inWords is v's error in words in l, or "" when its rule reads well as
// it is.
func inWords(l i18n.Locale, v core.Violation, labels []string) string {
	a := v.Args
	switch v.Code {
	case "tensor.total.small":
		n, _ := a["value"].(int64)
		return l.T("words.total.small", i18n.Args{"value": l.Count(n, l.Grouped(n), "bytes"), "min": l.Grouped(a["min"])})
	case "tensor.alignment.pow2":
		return l.T("words.alignment.pow2", nil)
	case "tensor.count.logical":
		// The output's sizes are worked out, not typed (tile's repeats,
		// padding's start and end): say which tensor is too large.
		if v.Field == "outputSizes" {
			return l.T("words.output.tensor", nil)
		}
	}
	what := ""
	if g := indexedField.FindStringSubmatch(v.Field); g != nil {
		what = string(fieldWords[g[1]])
	}
	if what == "" {
		return ""
	}
	s := subject(l, v.Field, labels, "")
	// A window's stride may be negative: out of range is all it can be.
	negative := strings.HasPrefix(fmt.Sprint(a["value"]), "-") && what != "words.field.window.stride"
	var key i18n.Key
	args := i18n.Args{"subject": s, "value": a["value"], "want": a["want"]}
	switch v.Code {
	case "whole.empty":
		key = "words.empty"
	case "whole.invalid":
		key = "words.whole"
	case "tensor.size.zero":
		key = "words.zero"
	case "slice1.window.empty":
		key = "words.zero.window.size"
	case "slice1.stride.zero":
		key = "words.zero.window.stride"
	case "tensor.stride.negative":
		key = "words.negative.stride"
	case "tensor.size.negative":
		key = "words.negative"
	case "whole.range", "slice1.offset.uint", "slice1.window.uint":
		key = "words.range"
		if negative {
			key = "words.negative"
			if what == "words.field.stride" {
				key = "words.negative.stride"
			}
		}
	case "tensor.size.uint", "tensor.stride.uint", "tensor.alignment.uint", "slice1.stride.int":
		key = "words.range"
	case "slice1.window.outside":
		key, args["subject"] = "words.window.past", subject(l, v.Field, labels, "words.field.window")
		args["end"], args["size"] = a["end"], a["size"]
		if n, ok := a["size"].(int64); ok {
			args["last"] = n - 1
		}
	case "slice1.output.range":
		key, args["max"] = "words.output.range", a["max"]
		if n, ok := a["value"].(int64); ok && n < 1 {
			key = "words.output.low"
		}
	default:
		return ""
	}
	return l.T(key, args)
}

func upper(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	return string(unicode.ToUpper(r)) + s[n:]
}
