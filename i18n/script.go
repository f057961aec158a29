package i18n

// The strings the ES modules show (static/*.js) and the stale notes. The
// modules keep the English; a page in another language embeds these
// (ScriptStrings) for them to read.

var scriptEN = map[Key]string{
	"stale.tensor":         "The inputs have errors: the picture is of the last valid tensor.",
	"stale.slice":          "The inputs have errors: the picture is of the last valid slice.",
	"stale.none":           "The inputs have errors: fix them to see a picture.",
	"js.copied":            "Copied",
	"js.press":             "Press Ctrl+C",
	"js.import.empty":      "Paste a PyTorch size and stride, or the JSON of a NumPy view, an ONNX Slice or a DxDispatch model.",
	"js.import.busy":       "Importing…",
	"js.import.unreached":  "The import did not reach the server: {error}",
	"js.import.failed":     "Not imported:",
	"js.room.detached":     "exploring on your own: the presenter goes on without you",
	"js.room.stopped":      "The presenter has stopped presenting: this is their last picture. Detach to explore on your own, or stay: you follow them again when they come back.",
	"js.room.reconnecting": "reconnecting to the room…",
	"js.reconnecting":      "reconnecting…",
	"js.element":           "element ({c})",
	"js.more":              " and {n} more",
	"js.buffer.unused":     "buffer offset {o} is unused: past the last element",
	"js.buffer.padding":    "buffer offset {o} is padding: no element lives there",
	"js.buffer.holds":      "buffer offset {o} holds element {list}",
	"js.buffer.shared":     "buffer offset {o} is shared by {n} elements: {list}",
	"js.slice.out":         "Output[{oc}] = Input[{ic}] = {v}, read at buffer offset {o}",
	"js.slice.in":          "input ({ic}) = {v} at buffer offset {o}: ",
	"js.slice.copied":      "copied to Output[{oc}], output element {k}",
	"js.slice.skipped":     "in the window, not copied (the stride skips it, or the output is smaller)",
	"js.slice.outside":     "outside the window",
	"js.slice.buf.unused":  "buffer offset {o} holds no input element: unused, past the last element",
	"js.slice.buf.padding": "buffer offset {o} holds no input element: padding",
	"js.slice.buf.holds":   "buffer offset {o} holds {v} for input {list}: ",
	"js.slice.readby.one":  "read by output element {list}",
	"js.slice.readby.many": "read by output elements {list}",
	"js.slice.read":        "read by the slice",
	"js.slice.notread":     "not read by the slice",
	"js.step.of":           "step {n} of {total}",
	"js.steps":             "{total} steps",
}

var scriptZhTW = map[Key]string{
	"stale.tensor":         "輸入有錯誤：圖上是最後一個有效的張量。",
	"stale.slice":          "輸入有錯誤：圖上是最後一個有效的切片。",
	"stale.none":           "輸入有錯誤：修正後就能看到圖。",
	"js.copied":            "已複製",
	"js.press":             "請按 Ctrl+C",
	"js.import.empty":      "請貼上 PyTorch 的 size 與 stride，或 NumPy 檢視、ONNX Slice、DxDispatch 模型的 JSON。",
	"js.import.busy":       "匯入中…",
	"js.import.unreached":  "匯入的內容沒有送達伺服器：{error}",
	"js.import.failed":     "未匯入：",
	"js.room.detached":     "自行探索中：講者會繼續，不會等你",
	"js.room.stopped":      "講者已停止展示：這是最後的畫面。可以離開自行探索，或留在這裡：講者回來時你會再次跟隨。",
	"js.room.reconnecting": "正在重新連線到教室…",
	"js.reconnecting":      "重新連線中…",
	"js.element":           "元素 ({c})",
	"js.more":              "，還有 {n} 個",
	"js.buffer.unused":     "緩衝區偏移量 {o} 未被使用：在最後一個元素之後",
	"js.buffer.padding":    "緩衝區偏移量 {o} 是填補：沒有元素放在那裡",
	"js.buffer.holds":      "緩衝區偏移量 {o} 存放元素 {list}",
	"js.buffer.shared":     "緩衝區偏移量 {o} 由 {n} 個元素共用：{list}",
	"js.slice.out":         "Output[{oc}] = Input[{ic}] = {v}，讀自緩衝區偏移量 {o}",
	"js.slice.in":          "輸入 ({ic}) = {v}，位於緩衝區偏移量 {o}：",
	"js.slice.copied":      "複製到 Output[{oc}]，即輸出元素 {k}",
	"js.slice.skipped":     "在視窗內，但沒有被複製（步幅跳過它，或輸出比較小）",
	"js.slice.outside":     "在視窗外",
	"js.slice.buf.unused":  "緩衝區偏移量 {o} 沒有存放輸入元素：未使用，在最後一個元素之後",
	"js.slice.buf.padding": "緩衝區偏移量 {o} 沒有存放輸入元素：填補",
	"js.slice.buf.holds":   "緩衝區偏移量 {o} 存放 {v}，屬於輸入 {list}：",
	"js.slice.readby.one":  "被輸出元素 {list} 讀取",
	"js.slice.readby.many": "被輸出元素 {list} 讀取",
	"js.slice.read":        "被切片讀取",
	"js.slice.notread":     "沒有被切片讀取",
	"js.step.of":           "第 {n} 步，共 {total} 步",
	"js.steps":             "共 {total} 步",
}

var scriptPtBR = map[Key]string{
	"stale.tensor":         "As entradas têm erros: o desenho é do último tensor válido.",
	"stale.slice":          "As entradas têm erros: o desenho é da última fatia válida.",
	"stale.none":           "As entradas têm erros: corrija-os para ver um desenho.",
	"js.copied":            "Copiado",
	"js.press":             "Pressione Ctrl+C",
	"js.import.empty":      "Cole um size e um stride do PyTorch, ou o JSON de uma view NumPy, de um Slice ONNX ou de um modelo DxDispatch.",
	"js.import.busy":       "Importando…",
	"js.import.unreached":  "A importação não chegou ao servidor: {error}",
	"js.import.failed":     "Não importado:",
	"js.room.detached":     "explorando por conta própria: quem apresenta continua sem você",
	"js.room.stopped":      "Quem apresenta parou de apresentar: este é o último desenho. Saia para explorar por conta própria, ou fique: você volta a acompanhar quando a apresentação recomeçar.",
	"js.room.reconnecting": "reconectando à sala…",
	"js.reconnecting":      "reconectando…",
	"js.element":           "elemento ({c})",
	"js.more":              " e mais {n}",
	"js.buffer.unused":     "o deslocamento {o} do buffer está sem uso: depois do último elemento",
	"js.buffer.padding":    "o deslocamento {o} do buffer é preenchimento: nenhum elemento fica ali",
	"js.buffer.holds":      "o deslocamento {o} do buffer contém o elemento {list}",
	"js.buffer.shared":     "o deslocamento {o} do buffer é compartilhado por {n} elementos: {list}",
	"js.slice.out":         "Output[{oc}] = Input[{ic}] = {v}, lido no deslocamento {o} do buffer",
	"js.slice.in":          "entrada ({ic}) = {v} no deslocamento {o} do buffer: ",
	"js.slice.copied":      "copiado para Output[{oc}], elemento {k} da saída",
	"js.slice.skipped":     "na janela, não copiado (o passo o pula, ou a saída é menor)",
	"js.slice.outside":     "fora da janela",
	"js.slice.buf.unused":  "o deslocamento {o} do buffer não contém elemento da entrada: sem uso, depois do último elemento",
	"js.slice.buf.padding": "o deslocamento {o} do buffer não contém elemento da entrada: preenchimento",
	"js.slice.buf.holds":   "o deslocamento {o} do buffer contém {v} da entrada {list}: ",
	"js.slice.readby.one":  "lido pelo elemento {list} da saída",
	"js.slice.readby.many": "lido pelos elementos {list} da saída",
	"js.slice.read":        "lido pela fatia",
	"js.slice.notread":     "não lido pela fatia",
	"js.step.of":           "passo {n} de {total}",
	"js.steps":             "{total} passos",
}

var scriptFR = map[Key]string{
	"stale.tensor":         "Les entrées contiennent des erreurs : le dessin est celui du dernier tenseur valide.",
	"stale.slice":          "Les entrées contiennent des erreurs : le dessin est celui de la dernière tranche valide.",
	"stale.none":           "Les entrées contiennent des erreurs : corrigez-les pour voir un dessin.",
	"js.copied":            "Copié",
	"js.press":             "Appuyez sur Ctrl+C",
	"js.import.empty":      "Collez un size et un stride PyTorch, ou le JSON d'une vue NumPy, d'un Slice ONNX ou d'un modèle DxDispatch.",
	"js.import.busy":       "Import en cours…",
	"js.import.unreached":  "L'import n'a pas atteint le serveur : {error}",
	"js.import.failed":     "Non importé :",
	"js.room.detached":     "vous explorez seul : la présentation continue sans vous",
	"js.room.stopped":      "La présentation s'est arrêtée : voici son dernier dessin. Détachez-vous pour explorer seul, ou restez : vous la suivrez de nouveau à son retour.",
	"js.room.reconnecting": "reconnexion à la salle…",
	"js.reconnecting":      "reconnexion…",
	"js.element":           "élément ({c})",
	"js.more":              " et {n} de plus",
	"js.buffer.unused":     "le décalage {o} du tampon est inutilisé : après le dernier élément",
	"js.buffer.padding":    "le décalage {o} du tampon est du remplissage : aucun élément n'y est",
	"js.buffer.holds":      "le décalage {o} du tampon contient l'élément {list}",
	"js.buffer.shared":     "le décalage {o} du tampon est partagé par {n} éléments : {list}",
	"js.slice.out":         "Output[{oc}] = Input[{ic}] = {v}, lu au décalage {o} du tampon",
	"js.slice.in":          "entrée ({ic}) = {v} au décalage {o} du tampon : ",
	"js.slice.copied":      "copié vers Output[{oc}], élément {k} de la sortie",
	"js.slice.skipped":     "dans la fenêtre, non copié (le pas le saute, ou la sortie est plus petite)",
	"js.slice.outside":     "hors de la fenêtre",
	"js.slice.buf.unused":  "le décalage {o} du tampon ne contient aucun élément de l'entrée : inutilisé, après le dernier élément",
	"js.slice.buf.padding": "le décalage {o} du tampon ne contient aucun élément de l'entrée : remplissage",
	"js.slice.buf.holds":   "le décalage {o} du tampon contient {v} pour l'entrée {list} : ",
	"js.slice.readby.one":  "lu par l'élément {list} de la sortie",
	"js.slice.readby.many": "lu par les éléments {list} de la sortie",
	"js.slice.read":        "lu par la tranche",
	"js.slice.notread":     "non lu par la tranche",
	"js.step.of":           "étape {n} sur {total}",
	"js.steps":             "{total} étapes",
}

// scriptShared are keys of the pages the modules show too.
var scriptShared = []Key{"dot.hint", "copy.button", "room.following", "room.presenting", "import.open"}

// ScriptStrings is what the page's modules show, in l: nil for English,
// which the modules carry themselves.
func ScriptStrings(l Locale) map[string]string {
	if l == English {
		return nil
	}
	out := map[string]string{}
	for k := range scriptEN {
		out[string(k)] = l.T(k, nil)
	}
	for _, k := range scriptShared {
		out[string(k)] = l.T(k, nil)
	}
	return out
}
