package i18n

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// scriptUse is a module's t('key'…) or tr('key'…) call, and what
// follows the key: ", args)" or ")", never words of its own.
var scriptUse = regexp.MustCompile(`(?:^|[^\w.$])tr?\(\s*'([a-z][a-zA-Z0-9.-]+)'\s*([,)])\s*(.?)`)

// TestScriptStringsMatchTheModules: every string a module asks for by key
// is in the strings every page embeds, in every language, English too;
// and no module carries words of its own: a call passes its key and its
// arguments, never an English fallback.
func TestScriptStringsMatchTheModules(t *testing.T) {
	files, err := filepath.Glob("../static/*.js")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range scriptUse.FindAllStringSubmatch(string(b), -1) {
			n++
			key := m[1]
			if m[2] == "," && strings.ContainsAny(m[3], "'\"`") {
				t.Errorf("%s: t(%q, ...) passes words of its own: the catalog has them", f, key)
			}
			for _, l := range Locales {
				if got, ok := ScriptStrings(l)[key]; !ok || got == "" || got == key {
					t.Errorf("%s: %q is not among the strings a %s page embeds", f, key, l)
				}
			}
		}
	}
	if n < 50 {
		t.Fatalf("found only %d strings in the modules", n)
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
	if set == nil || !regexp.MustCompile(`\bt\('js\.room\.err\.' \+ m\.code\)`).Match(b) {
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
