package web

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestMessagesCountInTheSingular: a count of one (of zero too, in French
// and Portuguese) is written in the singular wherever a message prints a
// count with its unit, in every language (Chinese has no plural).
func TestMessagesCountInTheSingular(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct {
		name, path, body, field string
		want                    map[string]string // lang -> a piece of the message
	}{
		{"one stride for two sizes", "/api/v1/layout", `{"dataType":"FLOAT32","sizes":[2,3],"strides":[1]}`, "strides", map[string]string{
			"en": "strides must have DimensionCount entries (2), got 1 entry", "fr": "il a 1 entrée", "pt-BR": "mas tem 1 item", "zh-TW": "實際有 1 項"}},
		{"two strides for one size", "/api/v1/layout", `{"dataType":"FLOAT32","sizes":[3],"strides":[1,1]}`, "strides", map[string]string{
			"en": "strides must have DimensionCount entries (1), got 2 entries", "fr": "il a 2 entrées", "pt-BR": "mas tem 2 itens"}},
		{"one window offset", "/api/v1/slice1", `{"dataType":"FLOAT32","inputSizes":[4,4],"inputWindowOffsets":[0],"inputWindowSizes":[1,1],"inputWindowStrides":[1,1]}`, "inputWindowOffsets", map[string]string{
			"en": "inputWindowOffsets has 1 entry: ", "fr": "inputWindowOffsets a 1 entrée\u00a0: ", "pt-BR": "inputWindowOffsets tem 1 item: ", "zh-TW": "inputWindowOffsets 有 1 項"}},
		{"a one-dimensional array indexed twice", "/api/v1/slice1/numpy", `{"inputSizes":[4],"expression":"x[1, 2]"}`, "expression", map[string]string{
			"en": "the array has 1 dimension, but 2 were indexed", "fr": "il a 1 dimension, mais", "pt-BR": "ele tem 1 dimensão, mas", "zh-TW": "陣列是 1 維"}},
		{"a one-byte NumPy offset", "/api/v1/import", `{"numpy":{"dtype":"int16","shape":[2],"offset":1}}`, "numpy.offset", map[string]string{
			"en": "offset = 1 byte must be", "fr": "offset = 1 octet doit", "pt-BR": "offset = 1 byte deve", "zh-TW": "offset = 1 位元組"}},
		{"ONNX starts for one dimension", "/api/v1/import", `{"onnx":{"inputShape":[4],"starts":[0,0],"ends":[1,1]}}`, "onnx.starts[1]", map[string]string{
			"en": "starts has 2 values for an input of 1 dimension;", "fr": "pour une entrée à 1 dimension\u202f;", "pt-BR": "para uma entrada de 1 dimensão;", "zh-TW": "輸入是 1 維"}},
		{"one ONNX axis", "/api/v1/import", `{"onnx":{"inputShape":[4,4],"starts":[0,0],"ends":[1,1],"axes":[0]}}`, "onnx.axes", map[string]string{
			"en": "axes has 1 value and starts 2", "fr": "axes a 1 valeur et", "pt-BR": "axes tem 1 valor e"}},
		{"an ONNX input of no dimension", "/api/v1/import", `{"onnx":{"inputShape":[],"starts":[],"ends":[]}}`, "onnx.inputShape", map[string]string{
			"en": "the input has 0 dimensions;", "fr": "l'entrée a 0 dimension\u202f;", "pt-BR": "a entrada tem 0 dimensão;"}},
	} {
		for lang, want := range c.want {
			_, vs := postLang(t, ts, c.path, "?lang="+lang, "", c.body)
			found := false
			for _, v := range vs {
				if v.Field == c.field {
					found = true
					if !strings.Contains(v.Message, want) {
						t.Errorf("%s (%s): %q, want %q in it", c.name, lang, v.Message, want)
					}
				}
			}
			if !found {
				t.Errorf("%s (%s): no violation at %s: %v", c.name, lang, c.field, vs)
			}
		}
	}
}

// TestImportNotesCountInTheSingular: an import's notes say one element or
// one byte in the singular.
func TestImportNotesCountInTheSingular(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct{ lang, body, want string }{
		{"en", `{"torch":{"dtype":"torch.int8","size":[4],"stride":[1],"storage_offset":1}}`, "storage_offset 1 element = 1 byte: "},
		{"fr", `{"torch":{"dtype":"torch.int8","size":[4],"stride":[1],"storage_offset":1}}`, "storage_offset de 1 élément = 1 octet\u00a0: "},
		{"pt-BR", `{"torch":{"dtype":"torch.int8","size":[4],"stride":[1],"storage_offset":1}}`, "storage_offset de 1 elemento = 1 byte: "},
		{"en", `{"torch":{"dtype":"torch.int8","size":[4],"stride":[1],"storage_offset":2}}`, "storage_offset 2 elements = 2 bytes: "},
		{"en", `{"numpy":{"dtype":"int8","shape":[4],"strides":[1]}}`, "divided by the element size, 1 byte."},
		{"fr", `{"numpy":{"dtype":"int8","shape":[4],"strides":[1]}}`, "divisés par la taille d'un élément, 1 octet."},
		{"en", `{"numpy":{"dtype":"float32","shape":[4],"strides":[4]}}`, "divided by the element size, 4 bytes."},
	} {
		res, err := http.Post(ts.URL+"/api/v1/import?lang="+c.lang, "application/json", strings.NewReader(c.body))
		if err != nil {
			t.Fatal(err)
		}
		var out struct{ Notes []string }
		err = json.NewDecoder(res.Body).Decode(&out)
		res.Body.Close()
		if err != nil || res.StatusCode != http.StatusOK {
			t.Fatalf("%s: status %d, %v", c.body, res.StatusCode, err)
		}
		if !strings.Contains(strings.Join(out.Notes, "\n"), c.want) {
			t.Errorf("%s (%s): notes %q, want %q", c.body, c.lang, out.Notes, c.want)
		}
	}
}

// TestPageCountsInTheSingular: the pages' worded field errors count bytes
// as the API does, and a one-dimensional tensor's subtitle gives its
// element count once instead of "300 = 300 elements".
func TestPageCountsInTheSingular(t *testing.T) {
	for _, c := range []struct{ path, id, want string }{
		{"/?sizes=2&total=1", "err-totalTensorSizeInBytes", "TotalTensorSizeInBytes is 1 byte, fewer than the 8 "},
		{"/?sizes=2&total=1&lang=fr", "err-totalTensorSizeInBytes", "TotalTensorSizeInBytes vaut 1 octet, moins que les 8 "},
		{"/?sizes=2&total=4", "err-totalTensorSizeInBytes", "TotalTensorSizeInBytes is 4 bytes, fewer than the 8 "},
		{"/?sizes=300", "logical-sub", "300 elements, {W}"},
		{"/?sizes=1", "logical-sub", "1 element, {W}"},
		{"/?sizes=2,3", "logical-sub", "2×3 = 6 elements, {H,W}"},
		{"/?sizes=300&lang=zh-TW", "logical-sub", "300 個元素，{W}"},
		{"/slice?sizes=300&woff=0&wsize=300&wstride=1", "input-sub", "300 elements, FLOAT32, strides {1}, window {0} + {300}"},
		{"/slice?sizes=300&woff=0&wsize=300&wstride=1", "output-sub", "300 elements, packed"},
		{"/slice?sizes=300&woff=0&wsize=300&wstride=1&lang=pt-BR", "output-sub", "300 elementos, compacto"},
		{"/slice?sizes=4,4&woff=0,0&wsize=4,4&wstride=1,1", "output-sub", "4×4 = 16 elements, packed"},
	} {
		_, d := page(t, c.path)
		if got := strings.TrimSpace(d.Find(tid(c.id)).Text()); !strings.HasPrefix(got, c.want) {
			t.Errorf("%s: %s = %q, want %q", c.path, c.id, got, c.want)
		}
	}
}
