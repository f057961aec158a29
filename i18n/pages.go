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
)

var pagesEN = map[Key]string{
	KeyLangNav:        "Language",
	KeyLangGlossary:   "Glossary",
	KeyGlossaryTitle:  "Glossary",
	KeyGlossaryIntro:  "The words of DirectML's tensor layouts in English, Traditional Chinese (Taiwan), Brazilian Portuguese and French, each with one line that says what it is.",
	KeyGlossaryNote:   "Names from DirectML's API (Sizes, Strides, TotalTensorSizeInBytes, DML_SLICE1_OPERATOR_DESC) stay in English in every language, as they do in code. In Portuguese this tool says “passo” for stride and in French “pas”, as teachers of both languages do, and a step of the tour or of the copy is an “etapa” and an “étape”, so that no word means two things; many in Brazil simply say “stride”, so the glossary gives both.",
	KeyGlossaryTerms:  "Terms in four languages",
	KeyGlossaryAPI:    "In DirectML's API: {name}",
	KeyGlossaryPages:  "Words that mislead on Microsoft's translated pages",
	KeyPagesIntro:     "Microsoft publishes the DirectML pages in other languages as machine translations, and they get key words wrong. If you read one of them, this is what the words below stand for.",
	KeyMisreadLiteral: "In everyday language:",
	KeyMisreadMeant:   "On the page it means:",
	KeyPageOpen:       "Open the page",
	KeyPageStridesZh:  "“使用進展來表示填補和記憶體版面配置”, the strides page in Traditional Chinese",
	KeyPageSliceZh:    "DML_SLICE1_OPERATOR_DESC, in Traditional Chinese",
	KeyPageStridesPt:  "“Usando progressos para expressar o layout de enchimento e de memória”, the strides page in Portuguese",
	KeyPageStridesFr:  "“Utilisation de Strides pour exprimer le remplissage et la disposition de la mémoire”, the strides page in French (the current text and an older translation)",
	KeyGlossaryCounts: "{terms} terms, {words} misleading words on {pages} pages",
}

var pagesZhTW = map[Key]string{
	KeyLangNav:        "語言",
	KeyLangGlossary:   "詞彙表",
	KeyGlossaryTitle:  "詞彙表",
	KeyGlossaryIntro:  "DirectML 張量記憶體配置的用語，以英文、繁體中文（台灣）、巴西葡萄牙文與法文列出，每個詞都附上一句說明。",
	KeyGlossaryNote:   "DirectML API 裡的名稱（Sizes、Strides、TotalTensorSizeInBytes、DML_SLICE1_OPERATOR_DESC）在各種語言中都保留英文，就像在程式碼裡一樣。中文採用台灣的用語：張量、步幅、緩衝區、記憶體、記憶體配置、切片、維度、元素、偏移量，每個概念只用一個詞。",
	KeyGlossaryTerms:  "四種語言的用語",
	KeyGlossaryAPI:    "DirectML API 中的名稱：{name}",
	KeyGlossaryPages:  "微軟翻譯頁面上容易誤導的詞",
	KeyPagesIntro:     "微軟以機器翻譯發布其他語言的 DirectML 頁面，關鍵用語常常譯錯。讀這些頁面時，下面這些詞其實是指右欄的概念。",
	KeyMisreadLiteral: "一般的意思：",
	KeyMisreadMeant:   "頁面上指的是：",
	KeyPageOpen:       "開啟頁面",
	KeyPageStridesZh:  "〈使用進展來表示填補和記憶體版面配置〉：步幅說明頁的繁體中文版",
	KeyPageSliceZh:    "DML_SLICE1_OPERATOR_DESC 繁體中文版",
	KeyPageStridesPt:  "〈Usando progressos para expressar o layout de enchimento e de memória〉：步幅說明頁的葡萄牙文版",
	KeyPageStridesFr:  "〈Utilisation de Strides pour exprimer le remplissage et la disposition de la mémoire〉：步幅說明頁的法文版（目前的版本與較早的譯本）",
	KeyGlossaryCounts: "{terms} 個用語；{pages} 個頁面上共 {words} 個容易誤導的詞",
}

var pagesPtBR = map[Key]string{
	KeyLangNav:        "Idioma",
	KeyLangGlossary:   "Glossário",
	KeyGlossaryTitle:  "Glossário",
	KeyGlossaryIntro:  "Os termos dos layouts de tensores do DirectML em inglês, chinês tradicional (Taiwan), português do Brasil e francês, cada um com uma linha que diz o que ele é.",
	KeyGlossaryNote:   "Os nomes da API do DirectML (Sizes, Strides, TotalTensorSizeInBytes, DML_SLICE1_OPERATOR_DESC) ficam em inglês em todos os idiomas, como no código. Aqui usamos “passo” para stride, como se ensina em português, e “etapa” para cada etapa do tour e da cópia, para que nenhuma palavra queira dizer duas coisas; muita gente no Brasil diz simplesmente “stride”, por isso o glossário traz os dois nomes.",
	KeyGlossaryTerms:  "Termos em quatro idiomas",
	KeyGlossaryAPI:    "Na API do DirectML: {name}",
	KeyGlossaryPages:  "Palavras que confundem nas páginas traduzidas da Microsoft",
	KeyPagesIntro:     "A Microsoft publica as páginas do DirectML em outros idiomas com tradução automática, e os termos principais saem errados. Se você ler uma delas, é isto que as palavras abaixo querem dizer.",
	KeyMisreadLiteral: "No uso comum:",
	KeyMisreadMeant:   "Na página, quer dizer:",
	KeyPageOpen:       "Abrir a página",
	KeyPageStridesZh:  "“使用進展來表示填補和記憶體版面配置”, a página dos passos em chinês tradicional",
	KeyPageSliceZh:    "DML_SLICE1_OPERATOR_DESC, em chinês tradicional",
	KeyPageStridesPt:  "“Usando progressos para expressar o layout de enchimento e de memória”, a página dos passos em português",
	KeyPageStridesFr:  "“Utilisation de Strides pour exprimer le remplissage et la disposition de la mémoire”, a página dos passos em francês (o texto atual e uma tradução anterior)",
	KeyGlossaryCounts: "{terms} termos, {words} palavras que confundem em {pages} páginas",
}

var pagesFR = map[Key]string{
	KeyLangNav:        "Langue",
	KeyLangGlossary:   "Glossaire",
	KeyGlossaryTitle:  "Glossaire",
	KeyGlossaryIntro:  "Les termes des dispositions de tenseurs DirectML en anglais, en chinois traditionnel (Taïwan), en portugais du Brésil et en français, chacun avec une ligne qui dit ce qu'il désigne.",
	KeyGlossaryNote:   "Les noms de l'API DirectML (Sizes, Strides, TotalTensorSizeInBytes, DML_SLICE1_OPERATOR_DESC) restent en anglais dans toutes les langues, comme dans le code. En français, cet outil dit « pas » pour stride, « tampon » pour buffer et « tranche » pour slice, comme en cours.",
	KeyGlossaryTerms:  "Les termes en quatre langues",
	KeyGlossaryAPI:    "Dans l'API DirectML : {name}",
	KeyGlossaryPages:  "Les mots trompeurs des pages traduites par Microsoft",
	KeyPagesIntro:     "Microsoft publie les pages DirectML dans d'autres langues en traduction automatique, et les termes clés y sont faux. Si vous lisez l'une d'elles, voici ce que désignent les mots ci-dessous.",
	KeyMisreadLiteral: "Dans la langue courante :",
	KeyMisreadMeant:   "Sur la page, cela désigne :",
	KeyPageOpen:       "Ouvrir la page",
	KeyPageStridesZh:  "« 使用進展來表示填補和記憶體版面配置 », la page sur les pas en chinois traditionnel",
	KeyPageSliceZh:    "DML_SLICE1_OPERATOR_DESC, en chinois traditionnel",
	KeyPageStridesPt:  "« Usando progressos para expressar o layout de enchimento e de memória », la page sur les pas en portugais",
	KeyPageStridesFr:  "« Utilisation de Strides pour exprimer le remplissage et la disposition de la mémoire », la page sur les pas en français (le texte actuel et une traduction plus ancienne)",
	KeyGlossaryCounts: "{terms} termes, {words} mots trompeurs sur {pages} pages",
}
