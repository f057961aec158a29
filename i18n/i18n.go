// Package i18n holds stridescope's message catalogs in English,
// Traditional Chinese (Taiwan), Brazilian Portuguese and French, and
// carries the locale a request chose in its context.
//
// It does what github.com/invopop/ctxi18n would (typed keys, a locale in
// the context, WithLocale and T) on golang.org/x/text alone: ctxi18n
// could not be fetched for this project. Catalogs are Go maps, one file
// per locale; a message is a template with {name} placeholders filled by
// core.Format, so a violation's code and arguments render the same rule
// in every language.
package i18n

import (
	"context"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/stridescope/stridescope/core"
)

// Locale is a BCP 47 tag the catalogs cover.
type Locale string

// The locales, English first: it is the default and the fallback.
const (
	English             Locale = "en"
	TraditionalChinese  Locale = "zh-TW"
	BrazilianPortuguese Locale = "pt-BR"
	French              Locale = "fr"
)

// Locales lists every locale, English first.
var Locales = []Locale{English, TraditionalChinese, BrazilianPortuguese, French}

// Key names a catalog entry: a violation code ("tensor.size.zero") or a
// string of the pages (the constants in keys.go).
type Key string

// catalogs holds every locale's entries: violation messages and page
// strings.
var catalogs = map[Locale][]map[Key]string{
	English:             sections[English].all(),
	TraditionalChinese:  sections[TraditionalChinese].all(),
	BrazilianPortuguese: sections[BrazilianPortuguese].all(),
	French:              sections[French].all(),
}

// The French catalog and glossary are written with plain spaces before
// : ; ? and !; French typography puts a no-break space before a colon
// and a narrow one before the others, so that no line (on a phone's
// narrow screen most of all) starts with the mark. They are set once,
// here, rather than typed invisibly into every string.
func init() {
	for _, m := range catalogs[French] {
		for k, v := range m {
			m[k] = frenchSpacing(v)
		}
	}
	for _, t := range Glossary {
		t.Word[French], t.Means[French] = frenchSpacing(t.Word[French]), frenchSpacing(t.Means[French])
	}
	for _, p := range LocalizedPages {
		for _, w := range p.Words {
			w.Literal[French] = frenchSpacing(w.Literal[French])
		}
	}
}

var frenchMarks = strings.NewReplacer(" :", "\u00a0:", " ;", "\u202f;", " ?", "\u202f?", " !", "\u202f!")

// frenchSpacing puts French typography's no-break spaces before : ; ? and
// ! where s has a plain space.
func frenchSpacing(s string) string { return frenchMarks.Replace(s) }

// lookup is l's text for key, or English's when l lacks it (a test keeps
// every locale complete), or the key itself.
func (l Locale) lookup(key Key) string {
	for _, loc := range []Locale{l, English} {
		for _, m := range catalogs[loc] {
			if s, ok := m[key]; ok {
				return s
			}
		}
	}
	return string(key)
}

// T is key's text in l with args filled in; an argument that is itself a
// core.Msg is rendered in l too.
func (l Locale) T(key Key, args core.Args) string {
	f := core.Formatting{Nested: l.msg, Quote: quotes[l]}
	if Known(string(key)) {
		// A message's numbers are prose, grouped l's way, but for those
		// inside its code (sizes[{axis}] = {value}).
		f.Whole = l.messageNumber
	}
	s := core.FormatWith(l.lookup(key), args, f)
	if l == TraditionalChinese {
		s = cornerSpacing.Replace(s) // 「」 carry their own space
	}
	return s
}

var cornerSpacing = strings.NewReplacer(" \u300c", "\u300c", "\u300d ", "\u300d")

// quotes write a quoted value ({name:q}) as each language quotes: French
// « x » with no-break spaces, Chinese 「x」, Brazilian Portuguese “x”;
// English keeps Go's "x". What %q escapes (a tab, a control character)
// stays escaped inside them.
var quotes = map[Locale]func(string) string{
	French:              quoteWith("\u00ab\u00a0", "\u00a0\u00bb"),
	TraditionalChinese:  quoteWith("\u300c", "\u300d"),
	BrazilianPortuguese: quoteWith("\u201c", "\u201d"),
}

func quoteWith(open, closing string) func(string) string {
	return func(s string) string {
		q := strconv.Quote(s)
		return open + strings.ReplaceAll(q[1:len(q)-1], `\"`, `"`) + closing
	}
}

func (l Locale) msg(m core.Msg) string {
	// A core.Count: its words agree with its number in l, which is
	// grouped as a message's other numbers are.
	if unit, ok := strings.CutPrefix(m.Code, "count."); ok {
		if n, ok := m.Args["n"].(int64); ok {
			return l.Count(n, l.prose(n), unit)
		}
	}
	if !Has(Key(m.Code)) {
		return m.Error() // no code the catalogs know: its English
	}
	return l.T(Key(m.Code), m.Args)
}

// prose is the whole number n as a message's prose writes it: grouped
// l's way (1.234 in Portuguese, 1 234 with a narrow no-break space in
// French, 1,234 in Chinese), as Num writes it; English keeps the plain
// digits core writes (the API's English messages are core's).
func (l Locale) prose(n any) string {
	if l == English {
		return fmt.Sprint(n)
	}
	return l.Number(n)
}

// messageNumber writes a whole number a message's template places
// between before and after: plain digits where it is part of code or a
// formula (sizes[{axis}], {field} = {value}, ({size} - 1) × {stride},
// {field} {value} < DMLCalcBufferTensorSize {min}), as DirectML values in code
// are everywhere on the site; in prose, grouped l's way (prose).
func (l Locale) messageNumber(n any, before, after string) string {
	for _, m := range codeBefore {
		if strings.HasSuffix(before, m) {
			return fmt.Sprint(n)
		}
	}
	for _, m := range codeAfter {
		if strings.HasPrefix(after, m) {
			return fmt.Sprint(n)
		}
	}
	// A value after a field ({field} {value}) or a DirectML name
	// (DimensionCount {rank}, DMLCalcBufferTensorSize {min}) is that
	// field's value, in code.
	if w, ok := strings.CutSuffix(before, " "); ok {
		if w = w[strings.LastIndexByte(w, ' ')+1:]; strings.HasSuffix(w, "}") || isDirectMLName(w) {
			return fmt.Sprint(n)
		}
	}
	return l.prose(n)
}

// isDirectMLName says whether w is a name such as DimensionCount,
// DML_SLICE1 or inputSizes: a word of ASCII letters, digits and
// underscores with a capital after its first letter or an underscore.
func isDirectMLName(w string) bool {
	code := false
	for i, r := range w {
		switch {
		case r == '_' || i > 0 && r >= 'A' && r <= 'Z':
			code = true
		case r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9':
		default:
			return false
		}
	}
	return code
}

// codeBefore and codeAfter are the marks that put a number next to them
// in code: an index, an operand, a value given to a field.
var (
	codeBefore = []string{"[", "|", "=", "= ", "< ", "> ", "+ ", "- ", "× ", "* ", "/ ", "^", "}."}
	codeAfter  = []string{"]", "|", " =", " <", " >", " !", " +", " -", " ×", " *", " /", "^", ".{"}
)

// Has says whether the catalogs hold key (English holds every key).
func Has(key Key) bool {
	for _, m := range catalogs[English] {
		if _, ok := m[key]; ok {
			return true
		}
	}
	return false
}

// Violation is v with its message in l; a violation without a code keeps
// its English message.
func (l Locale) Violation(v core.Violation) core.Violation {
	if Known(v.Code) {
		v.Message = l.T(Key(v.Code), v.Args)
	}
	return v
}

// Violations localises every violation of vs into a new slice.
func (l Locale) Violations(vs []core.Violation) []core.Violation {
	if vs == nil {
		return nil
	}
	out := make([]core.Violation, len(vs))
	for i, v := range vs {
		out[i] = l.Violation(v)
	}
	return out
}

// printers holds each locale's number printer, made once: making one
// loads the locale's decimal format, and an edit's answer formats many
// numbers. A Printer is safe for concurrent use.
var printers = func() map[Locale]*message.Printer {
	m := make(map[Locale]*message.Printer, len(Locales))
	for _, l := range Locales {
		m[l] = message.NewPrinter(language.Make(string(l)))
	}
	return m
}()

// Printer formats prose numbers the locale's way (1,234 / 1.234 / 1 234).
func (l Locale) Printer() *message.Printer {
	if p, ok := printers[l]; ok {
		return p
	}
	return message.NewPrinter(language.Make(string(l)))
}

// Name is the locale's name in its own language, for the switcher.
func (l Locale) Name() string {
	switch l {
	case TraditionalChinese:
		return "中文（台灣）"
	case BrazilianPortuguese:
		return "Português (Brasil)"
	case French:
		return "Français"
	}
	return "English"
}

type ctxKey struct{}

// WithLocale is ctx carrying l.
func WithLocale(ctx context.Context, l Locale) context.Context {
	return context.WithValue(ctx, ctxKey{}, l)
}

// LocaleOf is the locale ctx carries, English when none.
func LocaleOf(ctx context.Context) Locale {
	if l, ok := ctx.Value(ctxKey{}).(Locale); ok {
		return l
	}
	return English
}

// T is key's text in ctx's locale; args, if any, are merged.
func T(ctx context.Context, key Key, args ...core.Args) string {
	var a core.Args
	switch len(args) {
	case 0:
	case 1:
		a = args[0]
	default:
		a = core.Args{}
		for _, m := range args {
			for k, v := range m {
				a[k] = v
			}
		}
	}
	return LocaleOf(ctx).T(key, a)
}

var (
	tags    = []language.Tag{language.English, language.MustParse("zh-TW"), language.MustParse("pt-BR"), language.French}
	matcher = language.NewMatcher(tags)
)

// Match is the locale that best serves a list of preferences: Accept-
// Language headers or tags such as "fr-CA", best first. English when none
// is close enough.
func Match(prefs ...string) Locale {
	var want []language.Tag
	for _, p := range prefs {
		if p = strings.TrimSpace(p); p == "" {
			continue
		}
		ts, _, err := language.ParseAcceptLanguage(p)
		if err != nil {
			continue
		}
		want = append(want, ts...)
	}
	if len(want) == 0 {
		return English
	}
	_, i, conf := matcher.Match(want...)
	if conf == language.No {
		return English
	}
	return Locales[i]
}

// Parse reads a ?lang= value or cookie: a tag close enough to one of the
// locales ("fr", "pt", "zh-Hant", "zh-TW"); ok is false for anything else.
func Parse(s string) (Locale, bool) {
	s = strings.TrimSpace(s)
	if s == "" || len(s) > 35 {
		return English, false
	}
	t, err := language.Parse(s)
	if err != nil {
		return English, false
	}
	_, i, conf := matcher.Match(t)
	if conf == language.No {
		return English, false
	}
	return Locales[i], true
}

type urlKey struct{}

// WithURL is ctx carrying the URL a page was asked with, so the language
// switcher can link the same page in every language.
func WithURL(ctx context.Context, u *url.URL) context.Context {
	return context.WithValue(ctx, urlKey{}, u)
}

// pageURL is the URL WithURL gave ctx, or nil.
func pageURL(ctx context.Context) *url.URL {
	u, _ := ctx.Value(urlKey{}).(*url.URL)
	return u
}

// PagePath is the path of the page ctx renders ("" when ctx has no URL).
func PagePath(ctx context.Context) string {
	if u := pageURL(ctx); u != nil {
		return u.Path
	}
	return ""
}

// SwitchURL is the page ctx renders, asked for in l: the same path and
// query with lang=l.
func SwitchURL(ctx context.Context, l Locale) string {
	path, q := "/", url.Values{}
	if u := pageURL(ctx); u != nil {
		path, q = u.Path, u.Query()
	}
	q.Set("lang", string(l))
	return path + "?" + q.Encode()
}

// Asked is the locale the page's URL asks for with ?lang=, if it does.
func Asked(ctx context.Context) (Locale, bool) {
	if u := pageURL(ctx); u != nil {
		return Parse(u.Query().Get("lang"))
	}
	return English, false
}

// WithAsked is target (a path, with a query or not) with the ?lang= the
// page's URL asks for, if it does and target has none: where a link, a
// redirect or a form without JavaScript goes keeps the language in its
// URL, which is what is shared.
func WithAsked(ctx context.Context, target string) string {
	l, ok := Asked(ctx)
	if !ok || strings.Contains(target, "lang=") {
		return target
	}
	sep := "?"
	if strings.Contains(target, "?") {
		sep = "&"
	}
	return target + sep + "lang=" + url.QueryEscape(string(l))
}

// LangQuery is "lang=" and ctx's locale when it is not English, else "":
// for the URLs a page hands to another browser (an embed, a picture, a
// room's join link), which carries none of our cookies.
func LangQuery(ctx context.Context) string {
	if l := LocaleOf(ctx); l != English {
		return "lang=" + string(l)
	}
	return ""
}

// GlossaryURL links /glossary, keeping the page's ?lang= when it has one.
func GlossaryURL(ctx context.Context) string { return WithAsked(ctx, "/glossary") }

// Short is the locale's label in the switcher, in its own script.
func (l Locale) Short() string {
	switch l {
	case TraditionalChinese:
		return "繁中"
	case BrazilianPortuguese:
		return "PT"
	case French:
		return "FR"
	}
	return "EN"
}

type translatedKey struct{}

// Translated marks ctx's page as written in its locale. A page not marked
// (one whose text is not in the catalogs) stays lang="en" whatever the
// locale, so a screen reader reads it in English.
func Translated(ctx context.Context) context.Context {
	return context.WithValue(ctx, translatedKey{}, true)
}

// ContentLocale is the language of the page ctx renders: its locale when
// the page is Translated, English otherwise.
func ContentLocale(ctx context.Context) Locale {
	if t, _ := ctx.Value(translatedKey{}).(bool); t {
		return LocaleOf(ctx)
	}
	return English
}

// Keys lists every key the English catalogs hold (every locale holds the
// same), for tests that look for a key shown raw on a page.
func Keys() []Key {
	var out []Key
	for _, m := range catalogs[English] {
		for k := range m {
			out = append(out, k)
		}
	}
	return out
}

// Known says whether code is a violation code the catalogs render.
func Known(code string) bool {
	_, ok := sections[English].Messages[Key(code)]
	return ok
}

// Grouped is n as the facts and notes show it: in English in groups of
// three with a narrow no-break space from five digits on (16 777 216),
// in the other locales grouped their own way (Number).
func Grouped[N ~int | ~int64 | ~uint32 | ~uint64](ctx context.Context, n N) string {
	return LocaleOf(ctx).Grouped(n)
}

// Grouped is Grouped in l, for any whole number.
func (l Locale) Grouped(n any) string {
	if l == English {
		return GroupDigits(fmt.Sprint(n))
	}
	return l.Number(n)
}

// Group is n grouped as English facts are (Grouped in English).
func Group(n int64) string { return GroupDigits(strconv.FormatInt(n, 10)) }

// GroupDigits groups a whole number written in digits as Group does:
// from five digits on, in threes, with a narrow no-break space.
func GroupDigits(digits string) string {
	sign := ""
	if strings.HasPrefix(digits, "-") {
		sign, digits = "-", digits[1:]
	}
	if len(digits) < 5 {
		return sign + digits
	}
	var b strings.Builder
	for i, r := range digits {
		if i > 0 && (len(digits)-i)%3 == 0 {
			b.WriteRune('\u202f')
		}
		b.WriteRune(r)
	}
	return sign + b.String()
}

// CodeCount is how many violation codes the catalogs hold.
func CodeCount() int { return len(sections[English].Messages) }

// Args are a message's named arguments, as core fills them.
type Args = core.Args

// Num is n as prose in ctx's locale: grouped the locale's way (1.234 in
// Portuguese, 1 234 in French); English keeps the plain digits it has
// always shown. Numbers in code, coordinates and DirectML values are not
// prose and stay plain.
func Num[N ~int | ~int64 | ~uint32 | ~uint64](ctx context.Context, n N) string {
	l := LocaleOf(ctx)
	if l == English {
		return fmt.Sprint(n)
	}
	return l.Number(n)
}

// DecimalSeparator is the mark between a number's whole part and its
// fraction in l: a comma in Portuguese and French.
func (l Locale) DecimalSeparator() string {
	if l == BrazilianPortuguese || l == French {
		return ","
	}
	return "."
}

// Number is n (a whole number) grouped l's way: 1,234 (en, zh-TW), 1.234
// (pt-BR), 1 234 with a narrow no-break space (fr, as French typography
// and CLDR since version 34 write it; x/text's older data has a wide one).
func (l Locale) Number(n any) string {
	s := l.Printer().Sprint(n)
	if l == French {
		s = strings.ReplaceAll(s, "\u00a0", "\u202f")
	}
	return s
}

// Count is n things of unit ("elements", "bytes") in ctx's locale, n
// written as shown (grouped the caller's way): "1 element", "2 elements",
// "1 élément". French and Portuguese say 0 and 1 in the singular, English
// 1 only; a half byte is plural everywhere (pass n = 2). Chinese has no
// plural: its catalog gives the bare number and its templates the words.
func Count(ctx context.Context, n int64, shown, unit string) string {
	return LocaleOf(ctx).Count(n, shown, unit)
}

// Extent is a tensor's sizes and its element count, as the views'
// subtitles give them ("2×3 = 6 elements"); one dimension's size is its
// count, said once ("300 elements"). count is what Count wrote.
func Extent(ctx context.Context, rank int, sizes, count string) string {
	if rank == 1 {
		return T(ctx, "sub.extent.one", core.Args{"count": count})
	}
	return T(ctx, "sub.extent", core.Args{"sizes": sizes, "count": count})
}

// Count is Count in l.
func (l Locale) Count(n int64, shown, unit string) string {
	one := n == 1
	if l == French || l == BrazilianPortuguese {
		one = n == 0 || n == 1
	}
	form := ".other"
	if one {
		form = ".one"
	}
	return l.T(Key("count."+unit+form), core.Args{"n": shown})
}

// UpperFirst capitalises the first letter of a field name or a message
// ("sizes" -> "Sizes", "élément" -> "Élément"); a script without case
// (中文) is left as it is.
func UpperFirst(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if r == utf8.RuneError { // "" too
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

// Sentence makes a message a sentence of ctx's locale: its first letter
// capitalised where the script has case (UpperFirst), and the locale's
// full stop at the end ("。" in Chinese) unless it ends with one already.
func Sentence(ctx context.Context, msg string) string {
	if msg == "" {
		return msg
	}
	msg = UpperFirst(msg)
	if last, _ := utf8.DecodeLastRuneInString(msg); strings.ContainsRune(".!?。！？", last) {
		return msg
	}
	if LocaleOf(ctx) == TraditionalChinese {
		return msg + "。"
	}
	return msg + "."
}
