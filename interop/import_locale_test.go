package interop

import (
	"strings"
	"testing"

	"github.com/stridescope/stridescope/i18n"
)

// TestImportNotesInEachLanguage: an import's notes render in the locale
// asked for, the note's nested part ("storage_offset 2 elements") too;
// English is what Import writes.
func TestImportNotesInEachLanguage(t *testing.T) {
	req, vs := ImportRequestOf(`{"torch":{"dtype":"torch.float32","size":[4],"stride":[1],"storage_offset":2}}`)
	if vs != nil {
		t.Fatal(vs)
	}
	res, ierr := Import(req)
	if ierr != nil {
		t.Fatal(ierr.Violations)
	}
	for _, tc := range []struct {
		l    i18n.Locale
		want string
	}{
		{i18n.English, "storage_offset 2 elements = 8 bytes"},
		{i18n.TraditionalChinese, "storage_offset 2 個元素"},
		{i18n.BrazilianPortuguese, "storage_offset de 2 elementos"},
		{i18n.French, "storage_offset de 2 éléments"},
	} {
		notes := res.Localize(tc.l).Notes
		if len(notes) != 1 || !strings.Contains(notes[0], tc.want) {
			t.Errorf("%s: notes %q, want one with %q", tc.l, notes, tc.want)
		}
	}
	if got := res.Localize(i18n.English).Notes; len(got) != 1 || got[0] != res.Notes[0] {
		t.Errorf("English notes %q, Import wrote %q", got, res.Notes)
	}
}
