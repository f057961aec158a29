package core

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Violation is one broken rule: the field it concerns (a JSON path such as
// "sizes[1]"), a stable code naming the rule ("tensor.size.zero"), the
// values the message uses, and the message in English. The code and its
// arguments let a catalog say the same in another language.
type Violation struct {
	Field   string `json:"field"`
	Code    string `json:"code,omitempty"`
	Message string `json:"message"`
	// Args are not part of the JSON: a value may itself be a Msg.
	Args Args `json:"-"`
	// template is the English the message was written from, so Renamed
	// can write it again for another field.
	template string
}

// Args are the values a message uses, by the names its templates give
// them.
type Args map[string]any

// Msg is a message by code: the English template and the values it fills
// in. It is an error, so a parser can return it and its caller place it
// at a field.
type Msg struct {
	Code     string
	Template string // English, with {name} placeholders
	Args     Args
	text     string // the English when already written (Violation.Msg)
}

// NewMsg is the message code says, in English tmpl filled with args.
func NewMsg(code, tmpl string, args Args) Msg { return Msg{Code: code, Template: tmpl, Args: args} }

func (m Msg) Error() string {
	if m.text != "" {
		return m.text
	}
	return Format(m.Template, m.Args, nil)
}

// Msg is v's message by code again, to nest inside another message.
func (v Violation) Msg() Msg { return Msg{Code: v.Code, Args: v.Args, text: v.Message} }

// At places m at a field.
func (m Msg) At(field string) Violation {
	return Violation{Field: field, Code: m.Code, Message: m.Error(), Args: m.Args, template: m.Template}
}

// Renamed is v reported at field instead of its own. A request that names
// a tensor's fields its own way ("inputSizes", "torch.size") reports
// core's violations there; a message that names its field ({field})
// names the new one too, in English and, through Args, in every catalog.
func (v Violation) Renamed(field string) Violation {
	if f, ok := v.Args["field"].(string); ok && f == v.Field {
		args := make(Args, len(v.Args))
		for k, a := range v.Args {
			args[k] = a
		}
		args["field"] = field
		v.Args = args
		if v.template != "" {
			v.Message = Format(v.template, args, nil)
		}
	}
	v.Field = field
	return v
}

// WithArg is v with its argument k set to a and its message written
// again: a message that names another field than its own ({of}) follows
// that field's renaming too.
func (v Violation) WithArg(k string, a any) Violation {
	args := make(Args, len(v.Args)+1)
	for key, val := range v.Args {
		args[key] = val
	}
	args[k] = a
	v.Args = args
	if v.template != "" {
		v.Message = Format(v.template, args, nil)
	}
	return v
}

// ViolationOf places err at field: with its code when it is a Msg, as
// plain text otherwise.
func ViolationOf(field string, err error) Violation {
	var m Msg
	if errors.As(err, &m) {
		return m.At(field)
	}
	return Violation{Field: field, Message: err.Error()}
}

// Format fills tmpl's placeholders from args: {name} prints the value as
// fmt's %v does, {name:q} quotes it as %q does. A value that is a Msg is
// rendered by nested (its English text when nested is nil), so a catalog
// can translate a message inside another. Braces that name no argument
// are left as they are.
func Format(tmpl string, args Args, nested func(Msg) string) string {
	return FormatQuoted(tmpl, args, nested, nil)
}

// FormatQuoted is Format with quote writing a {name:q} value, as a
// language quotes (« x », 「x」); nil quotes as %q does.
func FormatQuoted(tmpl string, args Args, nested func(Msg) string, quote func(string) string) string {
	return FormatWith(tmpl, args, Formatting{Nested: nested, Quote: quote})
}

// Formatting is how FormatWith writes the values it fills in; a nil
// function writes as Format does.
type Formatting struct {
	// Nested renders a value that is a Msg.
	Nested func(Msg) string
	// Quote writes a {name:q} value.
	Quote func(string) string
	// Whole writes an unquoted value that is a whole number (an int, an
	// int64, ..., or a string of decimal digits, as wholeNumber reads
	// it), given the template's text before and after its
	// placeholder: a language groups its digits in prose, not in code.
	Whole func(n any, before, after string) string
}

// FormatWith is Format writing values as f says.
func FormatWith(tmpl string, args Args, f Formatting) string {
	nested, quote := f.Nested, f.Quote
	whole := tmpl
	var b strings.Builder
	for {
		open := strings.IndexByte(tmpl, '{')
		if open < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		end := strings.IndexByte(tmpl[open:], '}')
		if end < 0 {
			b.WriteString(tmpl)
			return b.String()
		}
		name, quoted := tmpl[open+1:open+end], false
		if n, ok := strings.CutSuffix(name, ":q"); ok {
			name, quoted = n, true
		}
		v, ok := args[name]
		if !ok {
			b.WriteString(tmpl[:open+end+1])
			tmpl = tmpl[open+end+1:]
			continue
		}
		b.WriteString(tmpl[:open])
		if c, isCount := v.(Count); isCount {
			v = c.Msg()
		}
		if m, isMsg := v.(Msg); isMsg && nested != nil {
			v = nested(m)
		} else if isMsg {
			v = m.Error()
		}
		if n, ok := wholeNumber(v); ok && !quoted && f.Whole != nil {
			done := len(whole) - len(tmpl)
			b.WriteString(f.Whole(n, whole[:done+open], tmpl[open+end+1:]))
		} else if quoted && quote != nil {
			b.WriteString(quote(fmt.Sprint(v)))
		} else if quoted {
			fmt.Fprintf(&b, "%q", v)
		} else {
			fmt.Fprint(&b, v)
		}
		tmpl = tmpl[open+end+1:]
	}
}

// wholeNumber is v when it is a whole number of one of Go's integer
// types, or v read as one when it is a string that writes one in
// canonical decimal within 64 bits (a product written as text so that
// it cannot overflow, "4295032832"); "0x10", "007" and "+5" are not.
func wholeNumber(v any) (any, bool) {
	switch x := v.(type) {
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return v, true
	case string:
		// Most strings are words: those never reach strconv, whose
		// refusal allocates an error each time (a page's answer formats
		// hundreds of messages). Canonical decimal: digits, an optional
		// leading minus, no leading zero but in "0" itself.
		digits := strings.TrimPrefix(x, "-")
		if digits == "" || len(x) > 20 || strings.Trim(digits, "0123456789") != "" ||
			digits[0] == '0' && (len(digits) > 1 || len(digits) < len(x)) {
			return nil, false
		}
		if n, err := strconv.ParseInt(x, 10, 64); err == nil {
			return n, true
		}
		if n, err := strconv.ParseUint(x, 10, 64); err == nil {
			return n, true
		}
	}
	return nil, false
}

// ValidationError collects every violation found in one description, so a
// user sees all of them at once.
type ValidationError struct {
	Violations []Violation
}

func (e *ValidationError) Error() string {
	parts := make([]string, len(e.Violations))
	for i, v := range e.Violations {
		parts[i] = v.Field + ": " + v.Message
	}
	return "invalid description: " + strings.Join(parts, "; ")
}

// violations accumulates Violations while validating.
type violations []Violation

func (vs *violations) add(field, code, tmpl string, args Args) {
	*vs = append(*vs, NewMsg(code, tmpl, args).At(field))
}

func (vs violations) err() error {
	if len(vs) == 0 {
		return nil
	}
	return &ValidationError{Violations: vs}
}

func indexed(field string, i int) string { return fmt.Sprintf("%s[%d]", field, i) }

// Count is n things of a unit ("entries", "values", "bytes", "elements",
// "dimensions") as a message's argument, so that each language can agree
// the words with n: "1 entry", "2 entries", "1 entrée", "1 item". Format
// renders it as the Msg "count.<unit>" with n, which a catalog writes as
// i18n.Count does; String is the English.
type Count struct {
	N    int64
	Unit string
}

// singular is each unit's English for one.
var singular = map[string]string{
	"entries": "entry", "values": "value", "bytes": "byte", "elements": "element", "dimensions": "dimension",
}

func (c Count) String() string {
	if one, ok := singular[c.Unit]; ok && c.N == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", c.N, c.Unit)
}

// Msg is c as Format nests it: code "count.<unit>", argument n.
func (c Count) Msg() Msg {
	return Msg{Code: "count." + c.Unit, Args: Args{"n": c.N}, text: c.String()}
}
