package picture

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/views"
)

// InWords rewrites the errors a page shows so that each reads as words
// first, the rule as DirectML's names write it beside them after a dash:
// "The size of dimension W is 0: no dimension may be empty — sizes[1] ==
// 0: ...". rank names the dimensions (H, W, ...). The JSON API keeps the
// rules as they are.
func InWords(vs []core.Violation, rank int) []core.Violation {
	if len(vs) == 0 {
		return vs
	}
	labels := core.DimensionLabels(min(max(rank, 1), core.MaxDimensionCount))
	out := make([]core.Violation, len(vs))
	for i, v := range vs {
		out[i] = v
		if w := inWords(v, labels); w != "" {
			out[i].Message = w + " — " + v.Message
		}
	}
	return out
}

// fieldWords name a field of the forms in words.
var fieldWords = map[string]string{
	"sizes": "the size", "inputSizes": "the size", "strides": "the stride", "inputStrides": "the stride",
	"inputWindowOffsets": "the window's offset", "inputWindowSizes": "the window's size",
	"inputWindowStrides": "the window's stride", "outputSizes": "the output size",
}

var (
	indexedField = regexp.MustCompile(`^([A-Za-z]+)\[(\d+)\]$`)
	notWhole     = regexp.MustCompile(`^\S+ = (".*") is not a whole number: give (.*)$`)
	isNegative   = regexp.MustCompile(`^\S+ = (-\d+)`)
	tooLarge     = regexp.MustCompile(`(exceeds the UINT maximum|does not fit in 64 bits|is not a UINT|is not an INT)`)
	windowPast   = regexp.MustCompile(`= (\d+) > InputTensor\.Sizes\[\d+\] = (\d+)$`)
	outputRange  = regexp.MustCompile(`OutputSizes\[\d+\] = (\d+) not in \[1, MaxCopiedElements = (\d+)\]`)
	totalSmall   = regexp.MustCompile(`(\d+) < DMLCalcBufferTensorSize (\d+)`)
	alignPow2    = regexp.MustCompile(`must be 0 or a power of two$`)
	isEmpty      = regexp.MustCompile(`is empty: give (.*)$`)
)

// inWords is v's error in words, or "" when its rule reads well as it is.
func inWords(v core.Violation, labels []string) string {
	what, where := "", ""
	if g := indexedField.FindStringSubmatch(v.Field); g != nil {
		if w, ok := fieldWords[g[1]]; ok {
			i, _ := strconv.Atoi(g[2])
			what = w
			if i < len(labels) {
				where = fmt.Sprintf(" of dimension %s", labels[i])
			} else {
				where = fmt.Sprintf(" of dimension %d", i)
			}
			if strings.HasPrefix(g[1], "inputWindow") || g[1] == "outputSizes" {
				where = fmt.Sprintf(" on axis %d", i)
				if i < len(labels) {
					where += " (" + labels[i] + ")"
				}
			}
		}
	}
	m := v.Message
	switch {
	case what == "":
		switch {
		case totalSmall.MatchString(m):
			g := totalSmall.FindStringSubmatch(m)
			return fmt.Sprintf("TotalTensorSizeInBytes is %s bytes, fewer than the %s the tensor's elements need", views.GroupDigits(g[1]), views.GroupDigits(g[2]))
		case alignPow2.MatchString(m):
			return "The alignment must be 0 or a power of two (1, 2, 4, 8, 16, …)"
		}
		return ""
	case isEmpty.MatchString(m):
		return upper(what+where) + " is empty: give " + isEmpty.FindStringSubmatch(m)[1]
	case notWhole.MatchString(m):
		g := notWhole.FindStringSubmatch(m)
		return fmt.Sprintf("%s, %s, is not a whole number: give %s", upper(what+where), g[1], g[2])
	case strings.Contains(m, "== 0"):
		switch what {
		case "the window's size":
			return upper(what+where) + " is 0: the window must hold at least one element"
		case "the window's stride":
			return upper(what+where) + " is 0: the window must step forwards or backwards"
		}
		return upper(what+where) + " is 0: no dimension may be empty"
	case isNegative.MatchString(m) && what != "the window's stride": // a window stride may be negative
		g := isNegative.FindStringSubmatch(m)
		if strings.HasSuffix(what, "stride") {
			return upper(what+where) + " is negative (" + g[1] + "): a tensor's strides cannot be; a slice's window strides can reverse"
		}
		return upper(what+where) + " is negative (" + g[1] + ")"
	case tooLarge.MatchString(m):
		return upper(what+where) + " is out of the range DirectML takes"
	case windowPast.MatchString(m):
		g := windowPast.FindStringSubmatch(m)
		return fmt.Sprintf("The window%s runs past the input: it ends at %s, the input has %s", where, g[1], g[2])
	case outputRange.MatchString(m):
		g := outputRange.FindStringSubmatch(m)
		return fmt.Sprintf("The output size%s is %s, but the window gives at most %s", where, g[1], g[2])
	}
	return ""
}

func upper(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
