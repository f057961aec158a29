package slice1

import (
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/picture"
)

// TestPageErrorsNameTheirField: the explorers' field errors (the pages'
// and the websocket's) name the field they stand beside, in every
// language, and a size the tensor rules refuse is not reported a second
// time at the NumPy expression.
func TestPageErrorsNameTheirField(t *testing.T) {
	for _, c := range []struct {
		query  string
		slice  bool
		fields []string // fields with an error
		none   string   // a field without one
	}{
		{"sizes=2,0&strides=1&mode=explicit", false, []string{"strides", "sizes[1]"}, ""},
		{"sizes=0,6&np=" + url.QueryEscape("x[1]"), true, []string{"inputSizes[0]"}, "expression"},
		{"sizes=2,3&strides=1&woff=0,0&wsize=2,3&wstride=1,1", true, []string{"inputStrides"}, ""},
		{"sizes=4,-1&np=" + url.QueryEscape("x[1]"), true, []string{"inputSizes[1]"}, "expression"},
	} {
		q, err := url.ParseQuery(c.query)
		if err != nil {
			t.Fatal(err)
		}
		var vs []core.Violation
		if c.slice {
			st, qvs := StateFromQuery(q)
			vs = Validate(st, qvs).Errors
		} else {
			st, qvs := picture.LayoutStateFromQuery(q)
			vs = picture.Validate(st, qvs).Errors
		}
		var got []string
		for _, v := range vs {
			got = append(got, v.Field)
		}
		for _, f := range c.fields {
			if !slices.Contains(got, f) {
				t.Errorf("%s: no error at %s: %v", c.query, f, vs)
			}
		}
		if c.none != "" && slices.Contains(got, c.none) {
			t.Errorf("%s: an error at %s: %v", c.query, c.none, vs)
		}
		for _, l := range i18n.Locales {
			for _, v := range l.Violations(vs) {
				if strings.Contains(i18n.English.T(i18n.Key(v.Code), nil), "{field}") && !strings.Contains(v.Message, v.Field) {
					t.Errorf("%s (%s): the message at %s names another field: %q", c.query, l, v.Field, v.Message)
				}
			}
		}
	}
}
