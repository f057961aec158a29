package i18n

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
)

// The catalogs are data: one JSON file a locale (catalog/en.json,
// zh-TW.json, pt-BR.json, fr.json), embedded, each an object of sections
// (catalog/README.md says what each holds and the words each language
// uses). Its keys are violation codes and the pages' strings; {name}
// marks an argument, {name:q} a quoted one.
//
//go:embed catalog/*.json
var catalogFiles embed.FS

// catalogSections are a catalog file's sections, in the order they are
// looked up.
type catalogSections struct {
	Messages map[Key]string `json:"messages"` // every violation code
	Pages    map[Key]string `json:"pages"`    // the language switcher and the glossary
	Site     map[Key]string `json:"site"`     // the site's frame, rooms, errors
	Explorer map[Key]string `json:"explorer"` // the explorers' chrome
	Facts    map[Key]string `json:"facts"`    // facts panels, subtitles, notes
	Script   map[Key]string `json:"script"`   // what the ES modules show
	Tour     map[Key]string `json:"tour"`     // the guided tour
	Words    map[Key]string `json:"words"`    // the words before a field's rule
	SVG      map[Key]string `json:"svg"`      // the SVG pictures' text
}

func (c catalogSections) all() []map[Key]string {
	return []map[Key]string{c.Messages, c.Pages, c.Site, c.Explorer, c.Facts, c.Script, c.Tour, c.Words, c.SVG}
}

// loadCatalog reads l's catalog file; a file that is not exactly the
// sections stops the program at its start, as a typo in Go would have
// stopped its build (TestCatalogsLoad checks every file).
func loadCatalog(l Locale) catalogSections {
	b, err := catalogFiles.ReadFile("catalog/" + string(l) + ".json")
	if err != nil {
		panic(fmt.Sprintf("i18n: the %s catalog: %v", l, err))
	}
	var c catalogSections
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		panic(fmt.Sprintf("i18n: the %s catalog: %v", l, err))
	}
	return c
}

var sections = map[Locale]catalogSections{
	English:             loadCatalog(English),
	TraditionalChinese:  loadCatalog(TraditionalChinese),
	BrazilianPortuguese: loadCatalog(BrazilianPortuguese),
	French:              loadCatalog(French),
}
