package core

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// TestParseNumpyFullWidth: what a Chinese keyboard types in its own mode
// (，；：［］, full-width digits and minus, the ideographic space) is read
// as the ASCII it stands for, with NumPy's meaning unchanged: each
// expression selects what its ASCII form selects (issue #37, point 6).
func TestParseNumpyFullWidth(t *testing.T) {
	cases := []struct {
		sizes        []int64
		wide, narrow string
	}{
		{[]int64{4, 4}, "x[1：4，：：－2]", "x[1:4, ::-2]"},
		{[]int64{4, 4}, "x［1:4, ::-2］", "x[1:4, ::-2]"},
		{[]int64{4, 4}, "ｘ［１：４，　：：－２］", "x[1:4, ::-2]"},
		{[]int64{10}, "x[－３]", "x[-3]"},
		{[]int64{10}, "x[１２：：－１]", "x[12::-1]"},
		{[]int64{4, 5, 6}, "x[．．．，２]", "x[..., 2]"},
		{[]int64{4, 5, 6}, "x[１，：，－１]", "x[1, :, -1]"},
		{[]int64{1, 1, 4, 4}, "x[…, 1:4, ::-2]", ""}, // U+2026 is not full-width: refused below
	}
	for _, c := range cases {
		got, err := ParseNumpy(c.sizes, c.wide)
		if c.narrow == "" {
			if err == nil {
				t.Errorf("ParseNumpy(%v, %q) = %v, want an error", c.sizes, c.wide, numpyWindow(got))
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseNumpy(%v, %q): %v", c.sizes, c.wide, err)
			continue
		}
		want, err := ParseNumpy(c.sizes, c.narrow)
		if err != nil {
			t.Fatalf("ParseNumpy(%v, %q): %v", c.sizes, c.narrow, err)
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("ParseNumpy(%v, %q) = %v dropping %v, but %q is %v dropping %v", c.sizes, c.wide, numpyWindow(got), got.DroppedAxes, c.narrow, numpyWindow(want), want.DroppedAxes)
		}
	}
	// The errors are the ASCII form's, and quote it.
	for _, c := range []struct{ expr, code, says string }{
		{"x[１．５]", "numpy.entry", `"1.5" is not an integer`},
		{"x[０１]", "numpy.entry", `"01": leading zeros`},
		{"x［１：４", "numpy.bracket", "missing ']'"},
		{"x[：：０]", "numpy.axis", "slice step cannot be zero"},
	} {
		_, err := ParseNumpy([]int64{4}, c.expr)
		var m Msg
		if !errors.As(err, &m) || m.Code != c.code || !strings.Contains(err.Error(), c.says) {
			t.Errorf("ParseNumpy(%q): %v, want %s saying %q", c.expr, err, c.code, c.says)
		}
	}
}

// TestParseNumpySemicolon: a semicolon (；, the key of ':' without Shift
// on a Chinese keyboard, or ';') is no part of a Python subscript: it is
// refused by name, with what to write instead.
func TestParseNumpySemicolon(t *testing.T) {
	for _, expr := range []string{"x[1；4]", "x[1;4]", "x[1:4；::2]", "x[:;]"} {
		_, err := ParseNumpy([]int64{4, 4}, expr)
		var m Msg
		if !errors.As(err, &m) || m.Code != "numpy.semicolon" || !strings.Contains(err.Error(), "write ',' between entries") {
			t.Errorf("ParseNumpy(%q): %v, want numpy.semicolon", expr, err)
		}
	}
}

// TestParseNumpyEllipsisHint: NumPy applies x[1:4, ::-2] to the first
// axes; on a 4-D input whose first axes are 1 long that is an empty
// selection or an index out of bounds on axis 0 or 1. The error keeps
// NumPy's meaning and its own words, and then names the Ellipsis form
// that indexes the last axes, when that form selects something; with an
// ellipsis written, as many entries as axes, or an Ellipsis form that
// fails too, the error is NumPy's alone.
func TestParseNumpyEllipsisHint(t *testing.T) {
	cases := []struct {
		sizes []int64
		expr  string
		cause string // the first words of NumPy's error
		form  string // the hint's Ellipsis form; "" for none
	}{
		{[]int64{1, 1, 4, 4}, "x[1:4, ::-2]", "the selection is empty on axis 0", "x[..., 1:4, ::-2]"},
		{[]int64{1, 1, 4, 4}, "t[0:1, 2:3]", "the selection is empty on axis 1", "t[..., 0:1, 2:3]"},
		{[]int64{1, 3, 5, 5}, "x[2, 4]", "index 2 is out of bounds for axis 0 with size 1", "x[..., 2, 4]"},
		{[]int64{1, 1, 4, 4}, "x[1：4，：：－2]", "the selection is empty on axis 0", "x[..., 1:4, ::-2]"},
		{[]int64{1, 1, 4, 4}, "x[(1:4, ::-2)]", "", ""}, // a slice in a tuple is Python's syntax error; refused anyway
		{[]int64{1, 1, 4, 4}, "x[1:4,]", "the selection is empty on axis 0", "x[..., 1:4]"},
		// The Ellipsis form fails too: no hint.
		{[]int64{1, 1, 4, 4}, "x[5:, 1]", "index 1 is out of bounds for axis 1", ""},
		// An ellipsis written, or an entry for every axis: no hint.
		{[]int64{1, 1, 4, 4}, "x[1:4, ..., ::-2]", "the selection is empty on axis 0", ""},
		{[]int64{1, 1, 4, 4}, "x[1:4, :, :, ::-2]", "the selection is empty on axis 0", ""},
		{[]int64{4, 4}, "x[2:1]", "the selection is empty on axis 0", ""},
	}
	for _, c := range cases {
		w, err := ParseNumpy(c.sizes, c.expr)
		if err == nil {
			t.Errorf("ParseNumpy(%v, %q) = %v, want an error", c.sizes, c.expr, numpyWindow(w))
			continue
		}
		if c.cause == "" {
			continue
		}
		var m Msg
		errors.As(err, &m)
		if !strings.HasPrefix(err.Error(), c.cause) {
			t.Errorf("ParseNumpy(%v, %q): %q does not start with NumPy's %q", c.sizes, c.expr, err, c.cause)
		}
		switch {
		case c.form == "" && m.Code == "numpy.ellipsis.hint":
			t.Errorf("ParseNumpy(%v, %q): %q suggests a form, want none", c.sizes, c.expr, err)
		case c.form != "" && (m.Code != "numpy.ellipsis.hint" || m.Args["form"] != c.form):
			t.Errorf("ParseNumpy(%v, %q): %q (%s), want the hint %q", c.sizes, c.expr, err, m.Code, c.form)
		case c.form != "":
			// What the hint says selects what NumPy would.
			if _, err := ParseNumpy(c.sizes, c.form); err != nil {
				t.Errorf("the hint %q for %q fails: %v", c.form, c.expr, err)
			}
			if want := `write "` + c.form + `"`; !strings.HasSuffix(err.Error(), want) {
				t.Errorf("ParseNumpy(%v, %q): %q does not end with %q", c.sizes, c.expr, err, want)
			}
		}
	}
}
