package core

import "testing"

// TestWholeNumberReadsOnlyCanonicalDecimal: a message's string argument
// counts as a number (to be grouped the reader's way) only when it is
// written in canonical decimal within 64 bits.
func TestWholeNumberReadsOnlyCanonicalDecimal(t *testing.T) {
	for _, c := range []struct {
		in   any
		want any
	}{
		{"0", int64(0)}, {"7", int64(7)}, {"-12", int64(-12)}, {"4295032832", int64(4295032832)},
		{"9223372036854775807", int64(9223372036854775807)}, {"-9223372036854775808", int64(-9223372036854775808)},
		{"18446744073709551615", uint64(18446744073709551615)},
		{"18446744073709551616", nil}, {"-0", nil}, {"007", nil}, {"+5", nil}, {"0x10", nil}, {"", nil}, {"-", nil},
		{"1-2", nil}, {"sizes", nil}, {"1,024", nil}, {" 5", nil}, {int32(3), int32(3)}, {3.5, nil},
	} {
		got, ok := wholeNumber(c.in)
		if ok != (c.want != nil) || got != c.want {
			t.Errorf("wholeNumber(%#v) = %#v, %v; want %#v", c.in, got, ok, c.want)
		}
	}
}
