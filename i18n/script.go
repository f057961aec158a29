package i18n

// The strings the ES modules show (static/*.js), the catalogs' "script"
// sections: every page embeds them (ScriptStrings) for its modules to
// read.

// scriptShared are keys of the pages the modules show too.
var scriptShared = []Key{"dot.hint", "copy.button", "room.following", "room.presenting", "import.open",
	// The data-movement explorers' step bar (copy-steps.js) has the slice's buttons.
	"step.back", "step.back.label", "step.next", "step.next.label", "step.play", "step.pause", "step.speed", "step.speed.label"}

// ScriptStrings is what the page's modules show, in l: every page embeds
// it, English too, since the modules carry no words of their own.
func ScriptStrings(l Locale) map[string]string {
	out := map[string]string{}
	for k := range sections[English].Script {
		out[string(k)] = l.T(k, nil)
	}
	for _, k := range scriptShared {
		out[string(k)] = l.T(k, nil)
	}
	return out
}
