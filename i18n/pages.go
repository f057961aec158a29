package i18n

// Keys of the pages' strings: the language switcher and the glossary.
const (
	KeyLangNav        Key = "lang.nav"
	KeyLangGlossary   Key = "lang.glossary"
	KeyGlossaryTitle  Key = "glossary.title"
	KeyGlossaryIntro  Key = "glossary.intro"
	KeyGlossaryNote   Key = "glossary.note"
	KeyGlossaryTerms  Key = "glossary.terms"
	KeyGlossaryAPI    Key = "glossary.api"
	KeyGlossaryPages  Key = "glossary.pages"
	KeyPagesIntro     Key = "glossary.pages.intro"
	KeyMisreadLiteral Key = "glossary.misread.literal"
	KeyMisreadMeant   Key = "glossary.misread.meant"
	KeyPageOpen       Key = "glossary.page.open"
	KeyPageStridesZh  Key = "glossary.page.strides.zh"
	KeyPageSliceZh    Key = "glossary.page.slice.zh"
	KeyPageStridesPt  Key = "glossary.page.strides.pt"
	KeyPageStridesFr  Key = "glossary.page.strides.fr"
	KeyGlossaryCounts Key = "glossary.counts"
	KeyGlossaryOpen   Key = "glossary.explore"
)
