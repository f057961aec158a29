package i18n

// Term is one DirectML word in the four languages: the word a teacher of
// that language uses, and one line saying what it is.
type Term struct {
	ID       string // the anchor on /glossary
	DirectML string // the name in DirectML's API, never translated ("" when none)
	Word     map[Locale]string
	Means    map[Locale]string
	// Page is the explorer that shows it ("/convert"), or "".
	Page string
}

// Misread is a word one of Microsoft's machine-translated DirectML pages
// prints where it means a DirectML term.
type Misread struct {
	Word    string            // as the page prints it
	Term    string            // the Term.ID it stands for
	Literal map[Locale]string // what the word says in everyday language
}

// LocalizedPage is one of Microsoft's translated DirectML pages with the
// words on it that mislead.
type LocalizedPage struct {
	Lang  string // the page's language tag, for lang=
	Title Key
	URL   string
	Words []Misread
}

// Glossary is the DirectML vocabulary, in the order a learner meets it.
var Glossary = []Term{
	{ID: "tensor", DirectML: "DML_BUFFER_TENSOR_DESC",
		Word: map[Locale]string{English: "tensor", TraditionalChinese: "張量", BrazilianPortuguese: "tensor", French: "tenseur"},
		Means: map[Locale]string{
			English:             "An n-dimensional array of elements of one data type, described by its sizes and strides.",
			TraditionalChinese:  "由同一種資料型別的元素組成的 n 維陣列，以大小與步幅來描述。",
			BrazilianPortuguese: "Um array n-dimensional de elementos de um mesmo tipo de dados, descrito por seus tamanhos e passos.",
			French:              "Un tableau à n dimensions d'éléments d'un même type de données, décrit par ses tailles et ses pas.",
		}},
	{ID: "dimension", DirectML: "DimensionCount",
		Word: map[Locale]string{English: "dimension", TraditionalChinese: "維度", BrazilianPortuguese: "dimensão", French: "dimension"},
		Means: map[Locale]string{
			English:             "One axis of a tensor; DimensionCount is how many it has (1 to 8).",
			TraditionalChinese:  "張量的一個軸；DimensionCount 是維度的個數（1 到 8）。",
			BrazilianPortuguese: "Um eixo do tensor; DimensionCount é quantas dimensões ele tem (de 1 a 8).",
			French:              "Un axe du tenseur ; DimensionCount est leur nombre (de 1 à 8).",
		}},
	{ID: "sizes", DirectML: "Sizes",
		Word: map[Locale]string{English: "sizes", TraditionalChinese: "大小", BrazilianPortuguese: "tamanhos", French: "tailles"},
		Means: map[Locale]string{
			English:             "How many elements the tensor has along each dimension: its logical shape.",
			TraditionalChinese:  "張量在每個維度上有幾個元素，也就是它的邏輯形狀。",
			BrazilianPortuguese: "Quantos elementos o tensor tem em cada dimensão: a sua forma lógica.",
			French:              "Le nombre d'éléments du tenseur le long de chaque dimension : sa forme logique.",
		}},
	{ID: "strides", DirectML: "Strides",
		Word: map[Locale]string{English: "strides", TraditionalChinese: "步幅", BrazilianPortuguese: "passos (strides)", French: "pas (strides)"},
		Means: map[Locale]string{
			English:             "How many elements to move forward in the buffer to reach the next element along each dimension.",
			TraditionalChinese:  "沿著某個維度走到下一個元素時，在緩衝區中要前進幾個元素。",
			BrazilianPortuguese: "Quantos elementos avançar no buffer para chegar ao próximo elemento em cada dimensão.",
			French:              "De combien d'éléments avancer dans le tampon pour atteindre l'élément suivant le long de chaque dimension.",
		}},
	{ID: "element", DirectML: "",
		Word: map[Locale]string{English: "element", TraditionalChinese: "元素", BrazilianPortuguese: "elemento", French: "élément"},
		Means: map[Locale]string{
			English:             "One value of the tensor, at one coordinate; it takes as many bytes as its data type (4 for FLOAT32).",
			TraditionalChinese:  "張量在某個座標上的一個值；佔用的位元組數取決於資料型別（FLOAT32 為 4）。",
			BrazilianPortuguese: "Um valor do tensor, em uma coordenada; ocupa tantos bytes quanto o seu tipo de dados (4 para FLOAT32).",
			French:              "Une valeur du tenseur, à une coordonnée ; elle occupe autant d'octets que son type de données (4 pour FLOAT32).",
		}},
	{ID: "datatype", DirectML: "DML_TENSOR_DATA_TYPE",
		Word: map[Locale]string{English: "data type", TraditionalChinese: "資料型別", BrazilianPortuguese: "tipo de dados", French: "type de données"},
		Means: map[Locale]string{
			English:             "What one element is (FLOAT32, INT8...), and so how many bytes it takes.",
			TraditionalChinese:  "一個元素是什麼（FLOAT32、INT8……），因此決定它佔幾個位元組。",
			BrazilianPortuguese: "O que é cada elemento (FLOAT32, INT8...) e, portanto, quantos bytes ele ocupa.",
			French:              "Ce qu'est un élément (FLOAT32, INT8...), et donc le nombre d'octets qu'il occupe.",
		}},
	{ID: "buffer", DirectML: "",
		Word: map[Locale]string{English: "buffer", TraditionalChinese: "緩衝區", BrazilianPortuguese: "buffer", French: "tampon"},
		Means: map[Locale]string{
			English:             "The linear memory (a Direct3D 12 resource) that holds the elements; the strides map each coordinate to one of its cells.",
			TraditionalChinese:  "存放元素的線性記憶體（Direct3D 12 資源）；步幅把每個座標對應到其中的一個格子。",
			BrazilianPortuguese: "A memória linear (um recurso do Direct3D 12) que guarda os elementos; os passos levam cada coordenada a uma de suas posições.",
			French:              "La mémoire linéaire (une ressource Direct3D 12) qui contient les éléments ; les pas associent chaque coordonnée à l'une de ses cases.",
		}},
	{ID: "offset", DirectML: "",
		Word: map[Locale]string{English: "offset", TraditionalChinese: "偏移量", BrazilianPortuguese: "deslocamento (offset)", French: "décalage (offset)"},
		Means: map[Locale]string{
			English:             "An element's position in the buffer: the sum of each coordinate times its stride.",
			TraditionalChinese:  "元素在緩衝區中的位置：各座標乘以對應步幅後的總和。",
			BrazilianPortuguese: "A posição de um elemento no buffer: a soma de cada coordenada vezes o seu passo.",
			French:              "La position d'un élément dans le tampon : la somme de chaque coordonnée multipliée par son pas.",
		}},
	{ID: "layout", DirectML: "",
		Word: map[Locale]string{English: "memory layout", TraditionalChinese: "記憶體配置", BrazilianPortuguese: "layout de memória", French: "disposition en mémoire"},
		Means: map[Locale]string{
			English:             "The order of the elements in the buffer (NCHW, NHWC...), which the strides express.",
			TraditionalChinese:  "元素在緩衝區中的排列順序（NCHW、NHWC……），由步幅來表達。",
			BrazilianPortuguese: "A ordem dos elementos no buffer (NCHW, NHWC...), que os passos expressam.",
			French:              "L'ordre des éléments dans le tampon (NCHW, NHWC...), que les pas expriment.",
		}},
	{ID: "packed", DirectML: "",
		Word: map[Locale]string{English: "packed", TraditionalChinese: "緊密排列", BrazilianPortuguese: "compacto (packed)", French: "compact (packed)"},
		Means: map[Locale]string{
			English:             "Strides with no gaps and no sharing: each element has its own cell and the buffer holds nothing else.",
			TraditionalChinese:  "步幅之間沒有空隙也沒有共用：每個元素各佔一格，緩衝區裡沒有其他東西。",
			BrazilianPortuguese: "Passos sem lacunas nem compartilhamento: cada elemento tem a sua posição e o buffer não guarda mais nada.",
			French:              "Des pas sans trou ni partage : chaque élément a sa propre case et le tampon ne contient rien d'autre.",
		}},
	{ID: "padding", DirectML: "",
		Word: map[Locale]string{English: "padding", TraditionalChinese: "填補", BrazilianPortuguese: "preenchimento (padding)", French: "remplissage (padding)"},
		Means: map[Locale]string{
			English:             "Buffer cells that no element uses, left by strides larger than the packed ones (to align rows, for example).",
			TraditionalChinese:  "沒有任何元素使用的緩衝區格子，來自比緊密排列更大的步幅（例如為了對齊每一列）。",
			BrazilianPortuguese: "Posições do buffer que nenhum elemento usa, deixadas por passos maiores que os compactos (para alinhar linhas, por exemplo).",
			French:              "Les cases du tampon qu'aucun élément n'utilise, laissées par des pas plus grands que les pas compacts (pour aligner les lignes, par exemple).",
		}},
	{ID: "broadcast", DirectML: "",
		Word: map[Locale]string{English: "broadcasting", TraditionalChinese: "廣播", BrazilianPortuguese: "broadcasting (difusão)", French: "diffusion (broadcasting)"},
		Means: map[Locale]string{
			English:             "A stride of 0: every index along that dimension reads the same elements, so the data repeats without being copied.",
			TraditionalChinese:  "步幅為 0：該維度上的每個索引都讀到相同的元素，資料不必複製就能重複。",
			BrazilianPortuguese: "Um passo igual a 0: todo índice nessa dimensão lê os mesmos elementos, e os dados se repetem sem ser copiados.",
			French:              "Un pas nul : chaque indice le long de cette dimension lit les mêmes éléments, et les données se répètent sans être copiées.",
		}},
	{ID: "total", DirectML: "TotalTensorSizeInBytes",
		Word: map[Locale]string{English: "total size in bytes", TraditionalChinese: "總位元組數", BrazilianPortuguese: "tamanho total em bytes", French: "taille totale en octets"},
		Means: map[Locale]string{
			English:             "The size of the buffer in bytes: at least DMLCalcBufferTensorSize, and a multiple of 4.",
			TraditionalChinese:  "緩衝區的位元組大小：至少為 DMLCalcBufferTensorSize，且是 4 的倍數。",
			BrazilianPortuguese: "O tamanho do buffer em bytes: no mínimo DMLCalcBufferTensorSize e múltiplo de 4.",
			French:              "La taille du tampon en octets : au moins DMLCalcBufferTensorSize, et un multiple de 4.",
		}},
	{ID: "slice", DirectML: "DML_SLICE1_OPERATOR_DESC",
		Word: map[Locale]string{English: "slice", TraditionalChinese: "切片", BrazilianPortuguese: "fatia (slice)", French: "tranche (slice)"},
		Means: map[Locale]string{
			English:             "The operator that copies a block of the input tensor (a window, possibly strided or reversed) into the output tensor.",
			TraditionalChinese:  "把輸入張量的一塊區域（一個視窗，可跳著取或反向）複製到輸出張量的運算子。",
			BrazilianPortuguese: "O operador que copia um bloco do tensor de entrada (uma janela, talvez com passo ou invertida) para o tensor de saída.",
			French:              "L'opérateur qui copie un bloc du tenseur d'entrée (une fenêtre, éventuellement avec un pas ou inversée) dans le tenseur de sortie.",
		}},
	{ID: "window", DirectML: "InputWindowOffsets, InputWindowSizes, InputWindowStrides",
		Word: map[Locale]string{English: "window", TraditionalChinese: "視窗", BrazilianPortuguese: "janela", French: "fenêtre"},
		Means: map[Locale]string{
			English:             "The part of the input a slice reads: for each dimension an offset, a size and a signed stride.",
			TraditionalChinese:  "切片讀取的輸入範圍：每個維度各有一個偏移量、一個大小和一個有正負號的步幅。",
			BrazilianPortuguese: "A parte da entrada que a fatia lê: em cada dimensão, um deslocamento, um tamanho e um passo com sinal.",
			French:              "La partie de l'entrée que lit une tranche : pour chaque dimension, un décalage, une taille et un pas signé.",
		}},
	{ID: "conversion", DirectML: "DML_ELEMENT_WISE_IDENTITY_OPERATOR_DESC", Page: "/convert",
		Word: map[Locale]string{English: "layout conversion", TraditionalChinese: "記憶體配置轉換", BrazilianPortuguese: "conversão de layout", French: "conversion de disposition"},
		Means: map[Locale]string{
			English:             "Copying a tensor from one layout to another (NHWC to NCHW, rows padded, a broadcast written out): DML_ELEMENT_WISE_IDENTITY with the same data type and sizes on both sides and different strides.",
			TraditionalChinese:  "把張量從一種記憶體配置複製到另一種（NHWC 轉成 NCHW、每列加上填補、把廣播實際寫出來）：兩邊資料型別與大小相同、步幅不同的 DML_ELEMENT_WISE_IDENTITY。",
			BrazilianPortuguese: "Copiar um tensor de um layout para outro (de NHWC para NCHW, linhas com preenchimento, um broadcasting escrito por extenso): DML_ELEMENT_WISE_IDENTITY com o mesmo tipo de dados e os mesmos tamanhos dos dois lados e passos diferentes.",
			French:              "Copier un tenseur d'une disposition à une autre (de NHWC vers NCHW, des lignes avec remplissage, une diffusion écrite en entier) : DML_ELEMENT_WISE_IDENTITY avec le même type de données et les mêmes tailles des deux côtés, et des pas différents.",
		}},
}

// lit builds a Misread's Literal in the order en, zh-TW, pt-BR, fr.
func lit(en, zh, pt, fr string) map[Locale]string {
	return map[Locale]string{English: en, TraditionalChinese: zh, BrazilianPortuguese: pt, French: fr}
}

// LocalizedPages are the machine-translated DirectML pages learners read,
// with the words on them that mislead (read from the pages, November 2026).
var LocalizedPages = []LocalizedPage{
	{Lang: "zh-TW", Title: KeyPageStridesZh, URL: "https://learn.microsoft.com/zh-tw/windows/ai/directml/dml-strides", Words: []Misread{
		{Word: "進展", Term: "strides", Literal: lit("progress", "事情的進度、發展", "progresso, andamento", "progrès, avancement")},
		{Word: "跨距", Term: "strides", Literal: lit("span, spacing (the same page also uses it for strides)", "間距、跨度（同一頁也用它指步幅）", "vão, espaçamento (a mesma página também o usa para strides)", "portée, écartement (la même page l'emploie aussi pour strides)")},
		{Word: "封裝", Term: "packed", Literal: lit("encapsulated, put in a package", "包裝、封裝（如晶片封裝）", "encapsulado, embalado", "encapsulé, mis sous emballage")},
		{Word: "位移", Term: "offset", Literal: lit("displacement (as in physics)", "物理上的位移", "deslocamento no sentido da física", "déplacement, au sens de la physique")},
		{Word: "專案", Term: "element", Literal: lit("project (it translates “item”)", "專案、計畫（原文是 item）", "projeto (traduz “item”)", "projet (traduit « item »)")},
		{Word: "版面配置", Term: "layout", Literal: lit("page layout, as in a document", "文件或網頁的版面安排", "diagramação de uma página", "mise en page d'un document")},
		{Word: "進步", Term: "strides", Literal: lit("improvement, getting better (DML_BUFFER_TENSOR_DESC::進步 is Strides)", "變得更好（DML_BUFFER_TENSOR_DESC::進步 就是 Strides）", "melhora, progresso (DML_BUFFER_TENSOR_DESC::進步 é Strides)", "amélioration, progrès (DML_BUFFER_TENSOR_DESC::進步, c'est Strides)")},
		{Word: "努力", Term: "strides", Literal: lit("effort, striving (it translates “Strides express…”)", "努力、盡力（原文是 Strides express…）", "esforço, empenho (traduz “Strides express…”)", "effort (traduit « Strides express… »)")},
	}},
	{Lang: "zh-TW", Title: KeyPageSliceZh, URL: "https://learn.microsoft.com/zh-tw/windows/win32/api/directml/ns-directml-dml_slice1_operator_desc", Words: []Misread{
		{Word: "配量", Term: "slice", Literal: lit("ration, allotted dose", "配給的分量、劑量", "ração, dose distribuída", "ration, dose attribuée")},
		{Word: "解壓縮", Term: "slice", Literal: lit("decompress (it translates “extracts”)", "解壓縮檔案（原文是 extracts，取出）", "descompactar (traduz “extracts”, extrair)", "décompresser (traduit « extracts », extraire)")},
		{Word: "專案", Term: "element", Literal: lit("project (it translates “items”)", "專案、計畫（原文是 items）", "projeto (traduz “items”)", "projet (traduit « items »)")},
		{Word: "進展", Term: "strides", Literal: lit("progress", "事情的進度、發展", "progresso, andamento", "progrès, avancement")},
		{Word: "進步", Term: "strides", Literal: lit("improvement (“正面進步”, “負面進步”: positive and negative strides)", "變得更好（「正面進步」「負面進步」原意是正的與負的步幅）", "melhora (“正面進步”, “負面進步”: passos positivos e negativos)", "amélioration (« 正面進步 », « 負面進步 » : pas positifs et négatifs)")},
		{Word: "正面的跨距", Term: "strides", Literal: lit("front-facing span (it means a positive stride)", "朝前的跨距（原意是正的步幅）", "vão da frente (quer dizer passo positivo)", "portée de face (il s'agit d'un pas positif)")},
	}},
	{Lang: "pt-BR", Title: KeyPageStridesPt, URL: "https://learn.microsoft.com/pt-br/windows/ai/directml/dml-strides", Words: []Misread{
		{Word: "dezenases", Term: "tensor", Literal: lit("a garbled “dezenas”: tens, groups of ten", "「dezenas」的變形：十個一組、數十", "um “dezenas” deformado: grupos de dez", "un « dezenas » déformé : des dizaines")},
		{Word: "tempos", Term: "tensor", Literal: lit("times", "時間、次數", "tempos, momentos", "temps, moments")},
		{Word: "progressos", Term: "strides", Literal: lit("progress", "進步、進展", "avanço, melhora", "progrès")},
		{Word: "avanços", Term: "strides", Literal: lit("advances", "前進、進步", "avanços, progressos", "avancées")},
		{Word: "Rides, prerides, sobrerides, transrides", Term: "strides", Literal: lit("leftovers of “Strides” cut in two, with a prefix stuck on (DML_BUFFER_TENSOR_DESC:: prerides is Strides)", "把 Strides 切掉一半、再加上字首的字（DML_BUFFER_TENSOR_DESC:: prerides 就是 Strides）", "pedaços de “Strides” cortado ao meio, com um prefixo colado (DML_BUFFER_TENSOR_DESC:: prerides é Strides)", "des restes de « Strides » coupé en deux, avec un préfixe collé (DML_BUFFER_TENSOR_DESC:: prerides, c'est Strides)")},
		{Word: "empacotado, empacotamento", Term: "packed", Literal: lit("bundled up, packaged (as goods)", "打包好的（像貨物）", "embrulhado em pacote, como uma mercadoria", "mis en paquet, comme une marchandise")},
		{Word: "embalado", Term: "packed", Literal: lit("gift-wrapped, packaged", "包裝好的（像禮物）", "embrulhado, como um presente", "emballé, comme un cadeau")},
		{Word: "transmissão, transmitindo", Term: "broadcast", Literal: lit("transmission, as of a TV or radio signal", "電視或廣播訊號的傳送", "transmissão de rádio ou TV", "transmission, comme d'un signal de radio ou de télévision")},
		{Word: "enchimento", Term: "padding", Literal: lit("stuffing, filling", "填充物、填料", "recheio, estofamento", "rembourrage, garniture")},
	}},
	{Lang: "fr", Title: KeyPageStridesFr, URL: "https://learn.microsoft.com/fr-fr/windows/ai/directml/dml-strides", Words: []Misread{
		{Word: "dizaines", Term: "tensor", Literal: lit("tens, groups of ten", "十個一組、數十", "dezenas", "groupes de dix")},
		{Word: "capteur", Term: "tensor", Literal: lit("sensor", "感測器", "sensor", "appareil de mesure")},
		{Word: "foulée", Term: "strides", Literal: lit("a runner's stride", "跑步時的步伐", "passada de um corredor", "l'enjambée d'un coureur")},
		{Word: "progrès, progression", Term: "strides", Literal: lit("progress", "進步、進展", "progresso", "amélioration, avancée")},
		{Word: "intervalle", Term: "strides", Literal: lit("interval", "區間、間隔", "intervalo", "intervalle de temps ou de valeurs")},
		{Word: "compressés", Term: "packed", Literal: lit("compressed (nothing is compressed)", "壓縮過的（其實沒有任何壓縮）", "comprimidos (nada é comprimido)", "compressés (rien n'est compressé)")},
		{Word: "emballé", Term: "packed", Literal: lit("wrapped, as a parcel", "包裝好的（像包裹）", "embrulhado, como um pacote", "mis dans un emballage, comme un colis")},
		{Word: "rembourré", Term: "padding", Literal: lit("stuffed, upholstered", "塞了填充物的（像沙發）", "estofado, acolchoado", "garni de rembourrage, comme un fauteuil")},
	}},
}
