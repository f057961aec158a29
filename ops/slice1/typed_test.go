package slice1

import (
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stridescope/stridescope/picture"
)

// TestTypedSignsAndFullWidthDigits: a number typed with the minus sign the
// pages print (U+2212, "{1,1,−2,2}" in the tour) or with a Chinese input
// method's full-width digits and signs reads as its ASCII twin, in the
// form's fields and in the slice's values; anything else in a number is
// still refused, quoted as typed.
func TestTypedSignsAndFullWidthDigits(t *testing.T) {
	for _, c := range []struct {
		query   string
		strides []int64 // the window's
		values  string  // the values read, as text
		err     string  // a part of the first error; "" when valid
	}{
		{"dt=INT32&sizes=４,４&wsize=２,２&wstride=1,\u22122", []int64{1, -2}, "", ""},
		{"dt=INT32&sizes=4,4&wsize=2,2&wstride=\uff0d1,\uff0b2", []int64{-1, 2}, "", ""},
		{"dt=INT32&sizes=4,4&vals=\u22121 ２ \uff0d３", []int64{1, 1}, "-1 2 -3", ""},
		{"dt=FLOAT32&sizes=4,4&vals=\u22121.5 ２.２５", []int64{1, 1}, "-1.5 2.25", ""},
		{"dt=INT32&sizes=4,4&wsize=2,2&wstride=1,2\u22122", nil, "", "\"2\u22122\""},
		{"dt=INT32&sizes=4,4&wsize=2,2&wstride=1,\u2013" + "2", nil, "", "\u20132"}, // an en dash is not a minus
	} {
		q, err := url.ParseQuery(c.query)
		if err != nil {
			t.Fatal(err)
		}
		v := Validate(StateFromQuery(q))
		if c.err != "" {
			if v.Slice != nil || len(v.Errors) == 0 || !strings.Contains(v.Errors[0].Message, c.err) {
				t.Errorf("%s: errors %v, want one quoting %s", c.query, v.Errors, c.err)
			}
			continue
		}
		if v.Slice == nil {
			t.Errorf("%s: refused: %v", c.query, v.Errors)
			continue
		}
		if !slices.Equal(v.Slice.WindowStrides, c.strides) {
			t.Errorf("%s: window strides %v, want %v", c.query, v.Slice.WindowStrides, c.strides)
		}
		var got []string
		for _, x := range v.Values {
			if x.isFloat {
				got = append(got, strconv.FormatFloat(x.f, 'g', -1, 64))
			} else {
				got = append(got, strconv.FormatInt(int64(x.bits), 10))
			}
		}
		if s := strings.Join(got, " "); s != c.values {
			t.Errorf("%s: values %q, want %q", c.query, s, c.values)
		}
	}
	// The layout explorer's fields too.
	q := url.Values{"dt": {"FLOAT32"}, "sizes": {"２,３"}, "strides": {"５,1"}, "total": {"４０"}, "mode": {"explicit"}}
	v := picture.Validate(picture.LayoutStateFromQuery(q))
	if v.Layout == nil || !slices.Equal(v.Layout.Sizes, []int64{2, 3}) || !slices.Equal(v.Layout.Strides, []int64{5, 1}) || v.Layout.TotalTensorSizeInBytes != 40 {
		t.Errorf("full-width layout: %+v, errors %v", v.Layout, v.Errors)
	}
}

// TestDecimalCommaWarns: the values box reads a comma as a separator;
// a value written with a decimal comma, as French and Portuguese write
// 1.5, is read as two values and a warning at the box says so. A list
// written with commas is not warned of.
func TestDecimalCommaWarns(t *testing.T) {
	for _, c := range []struct{ vals, warn string }{
		{"1,5 2,5 3,5", `"1,5" is read as two values, 1 and 5: a comma separates values; write a decimal with a point (1.5)`},
		{"-0,25", `"-0,25" is read as two values, -0 and 25`},
		{"7 1,5", `"1,5" is read as two values`},
		{"\uff11,\uff15", `"1,5" is read as two values`}, // full-width digits
		{"1,2,3,4", ""},
		{"1, 5", ""},
		{"1.5 2.5", ""},
		{"", ""},
	} {
		checkWarning(t, url.Values{"dt": {"FLOAT32"}, "sizes": {"2,3"}, "vals": {c.vals}}, "values", c.warn)
	}
}

// TestNumpyIntegerIndexSaysItKeepsTheAxis: an integer index of a NumPy
// expression is a window of one element on that axis, which DML_SLICE1
// keeps; a warning at the expression says so (NumPy would drop it).
func TestNumpyIntegerIndexSaysItKeepsTheAxis(t *testing.T) {
	for _, c := range []struct{ np, warn string }{
		{"x[0, 0, 1:3, 2]", "the integer indexes keep axes 0, 1, 3 as windows of one element"},
		{"x[:, :, 1:3, 2]", "the integer index keeps axis 3 as a window of one element"},
		{"x[:, :, 1:3, ::2]", ""},
	} {
		checkWarning(t, url.Values{"dt": {"FLOAT32"}, "sizes": {"1,1,4,4"}, "np": {c.np}, "use": {"np"}}, "expression", c.warn)
	}
}

// checkWarning checks that the valid slice of q warns at field with a
// message holding want, or, for want "", that it does not warn there.
func checkWarning(t *testing.T, q url.Values, field, want string) {
	t.Helper()
	v := Validate(StateFromQuery(q))
	if v.Slice == nil {
		t.Fatalf("%s: refused: %v", q.Encode(), v.Errors)
	}
	var got string
	for _, w := range v.Warnings {
		if w.Field == field {
			got = w.Message
		}
	}
	if !strings.Contains(got, want) || (want == "") != (got == "") {
		t.Errorf("%s: warning at %s %q, want %q", q.Encode(), field, got, want)
	}
}
