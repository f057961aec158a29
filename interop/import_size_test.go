package interop

import (
	"strconv"
	"strings"
	"testing"
)

func TestCheckImportSize(t *testing.T) {
	list := func(n int, v string) string { return "[" + strings.TrimSuffix(strings.Repeat(v+",", n), ",") + "]" }
	obj := func(n int) string {
		var b strings.Builder
		for i := range n {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(`"k` + strconv.Itoa(i) + `":0`)
		}
		return "{" + b.String() + "}"
	}
	tests := []struct {
		name, body  string
		field, code string // "": accepted
	}{
		{"commands at the cap", `{"dxdispatch":{"commands":` + list(MaxImportCommands, "0") + `}}`, "", ""},
		{"commands past the cap", `{"dxdispatch":{"commands":` + list(MaxImportCommands+1, "0") + `}}`, "dxdispatch.commands", "import.entries"},
		{"a pasted model's commands", `{"commands":` + list(MaxImportCommands+1, "{}") + `}`, "commands", "import.entries"},
		{"dispatchables at the cap", `{"dxdispatch":{"dispatchables":` + obj(MaxImportDispatchables) + `}}`, "", ""},
		{"dispatchables past the cap", `{"dxdispatch":{"dispatchables":` + obj(MaxImportDispatchables+1) + `}}`, "dxdispatch.dispatchables", "import.entries"},
		{"resources past the cap", `{"resources":` + obj(MaxImportResources+1) + `}`, "resources", "import.entries"},
		{"initial values at the cap", `{"resources":{"r":{"initialValues":` + list(MaxImportValues, "1.5") + `}}}`, "", ""},
		{"initial values past the cap", `{"dxdispatch":{"resources":{"r":{"initialValues":` + list(MaxImportValues+1, "1.5") + `}}}}`, "dxdispatch.resources.r.initialValues", "import.entries"},
		{"a shape past the cap", `{"onnx":{"inputShape":` + list(MaxImportEntries+1, "1") + `}}`, "onnx.inputShape", "import.entries"},
		{"a list of lists", `{"torch":{"size":[` + list(MaxImportEntries+1, "1") + `]}}`, "torch.size[0]", "import.entries"},
		{"a commands key deeper is no model's", `{"dxdispatch":{"x":{"commands":` + list(MaxImportEntries+1, "0") + `}}}`, "dxdispatch.x.commands", "import.entries"},
		{"the body itself", list(MaxImportEntries+1, "0"), "", "import.entries"},
		{"deep", `{"onnx":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, "onnx" + strings.Repeat("[0]", MaxImportDepth-1), "import.depth"},
		{"not JSON is the decoder's to say", `torch.Size([2, 3]) (3, 1)`, "", ""},
		{"cut off", `{"commands":[1,2`, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckImportSize([]byte(tt.body))
			if tt.code == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("accepted")
			}
			if !err.TooLarge || len(err.Violations) != 1 {
				t.Fatalf("%+v, want one violation, too large", err)
			}
			if v := err.Violations[0]; v.Field != tt.field || v.Code != tt.code {
				t.Errorf("at %q (%s), want %q (%s): %s", v.Field, v.Code, tt.field, tt.code, v.Message)
			}
		})
	}
}

// BenchmarkCheckImportSizeMillionCommands: the body of the finding, a
// 2 MiB model listing a million commands, refused before decoding.
func BenchmarkCheckImportSizeMillionCommands(b *testing.B) {
	body := []byte(`{"dxdispatch":{"dispatchables":{},"commands":[` + strings.Repeat("0,", 1<<20-64) + `0]}}`)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		if CheckImportSize(body) == nil {
			b.Fatal("accepted")
		}
	}
}
