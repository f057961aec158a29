package i18n

// The pages' strings: the language switcher and the glossary.
const (
	// placeholder until the switcher lands
	KeyLanguage Key = "lang.label"
)

var pagesEN = map[Key]string{
	KeyLanguage: "Language",
}

var pagesZhTW = map[Key]string{
	KeyLanguage: "語言",
}

var pagesPtBR = map[Key]string{
	KeyLanguage: "Idioma",
}

var pagesFR = map[Key]string{
	KeyLanguage: "Langue",
}
