package picture

import (
	"strconv"
	"strings"
)

// The data-movement explorers' step formulas, as the server writes them
// for a page opened at t= without JavaScript, in static/copy-formulas.js's
// notation exactly: integers with a real minus sign, a coordinate as
// {0,1}, a list of terms as {a, b}.

// StepMinus is the formulas' minus sign.
const StepMinus = "\u2212"

// StepInt writes n with a real minus sign.
func StepInt(n int64) string {
	if n < 0 {
		return StepMinus + strconv.FormatInt(-n, 10)
	}
	return strconv.FormatInt(n, 10)
}

// StepAt writes a coordinate: {0,−1,2}.
func StepAt(c []int64) string {
	s := make([]string, len(c))
	for i, v := range c {
		s[i] = StepInt(v)
	}
	return "{" + strings.Join(s, ",") + "}"
}

// StepTerms writes a list of terms: {a, b}.
func StepTerms(ts []string) string { return "{" + strings.Join(ts, ", ") + "}" }

// StepDiff writes a − b.
func StepDiff(a, b int64) string { return StepInt(a) + " " + StepMinus + " " + StepInt(b) }
