package i18n

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
)

// scriptUse is a module's t('key', 'English'…) or tr(…) call.
var scriptUse = regexp.MustCompile(`\btr?\('([a-z][a-zA-Z0-9.-]+)', (?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)"|` + "`([^`]*)`" + `)`)

// TestScriptStringsMatchTheModules: every string a module asks for by key
// is in the strings a translated page embeds, and the English the module
// falls back on is the catalog's English, so an English page (which
// embeds nothing) reads exactly what the catalog says.
func TestScriptStringsMatchTheModules(t *testing.T) {
	files, err := filepath.Glob("../static/*.js")
	if err != nil {
		t.Fatal(err)
	}
	embedded := ScriptStrings(French)
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range scriptUse.FindAllStringSubmatch(string(b), -1) {
			n++
			key, en := m[1], m[2]+m[3]
			if _, ok := embedded[key]; !ok {
				t.Errorf("%s: %q is not among the strings a page embeds", f, key)
				continue
			}
			if m[4] != "" {
				continue // a template literal: its English has a ${…} the catalog names
			}
			if got := English.T(Key(key), nil); got != en {
				t.Errorf("%s: %q falls back on %q, the catalog's English is %q", f, key, en, got)
			}
		}
	}
	if n < 25 {
		t.Fatalf("found only %d strings in the modules", n)
	}
	if ScriptStrings(English) != nil {
		t.Error("an English page embeds strings")
	}
}

// TestRoomErrorsInThePagesLanguage: every room error code the rooms
// module shows (ROOM_ERRORS in static/rooms.js) has words in every
// language, embedded in a translated page, and the module shows them by
// code rather than the server's English message.
func TestRoomErrorsInThePagesLanguage(t *testing.T) {
	b, err := os.ReadFile("../static/rooms.js")
	if err != nil {
		t.Fatal(err)
	}
	set := regexp.MustCompile(`ROOM_ERRORS = new Set\(\[([^\]]*)\]\)`).FindSubmatch(b)
	if set == nil || !regexp.MustCompile(`\bt\('js\.room\.err\.' \+ m\.code, m\.message\)`).Match(b) {
		t.Fatal("rooms.js has no ROOM_ERRORS or does not show them by code")
	}
	codes := regexp.MustCompile(`'([a-z-]+)'`).FindAllSubmatch(set[1], -1)
	if len(codes) < 6 {
		t.Fatalf("only %d room error codes", len(codes))
	}
	for _, c := range codes {
		code := string(c[1])
		if code == "reconnecting" {
			continue // shown as js.room.reconnecting
		}
		key := "js.room.err." + code
		for _, l := range Locales[1:] {
			got, ok := ScriptStrings(l)[key]
			if !ok || got == English.T(Key(key), nil) || got == key {
				t.Errorf("%s: room error %s has no words of its own (%q)", l, code, got)
			}
		}
	}
}
