package i18n

import "testing"

func TestUpperFirst(t *testing.T) {
	for in, want := range map[string]string{
		"":                       "",
		"sizes":                  "Sizes",
		"élément":                "Élément",
		"這個位址不接受這個方法":            "這個位址不接受這個方法",
		"the query is not valid": "The query is not valid",
		"\xffabc":                "\xffabc",
	} {
		if got := UpperFirst(in); got != want {
			t.Errorf("UpperFirst(%q) = %q, want %q", in, got, want)
		}
	}
}
