package picture

import (
	"strconv"
	"strings"

	"github.com/stridescope/stridescope/core"
)

// ParseElementValues reads an input's values as PADDING1's and TILE's
// pages take them: exactly one number per logical element (n of them,
// at most max), or none. A wrong count and the values that are not numbers
// are reported together (the first maxBadValues of them), as every
// violation of a request is.
func ParseElementValues(text string, n, max int64) ([]string, []core.Violation) {
	if strings.TrimSpace(text) == "" {
		return nil, nil
	}
	parts := strings.Split(text, ",")
	var errs []core.Violation
	if int64(len(parts)) != n || n > max {
		errs = append(errs, core.NewMsg("padding.values.count", "{count} values for {n} input elements: give one value per element (at most {max}), or none for 1, 2, 3…", core.Args{"count": len(parts), "n": n, "max": max}).At("values"))
	}
	out := make([]string, 0, min(int64(len(parts)), max))
	bad := 0
	for i, s := range parts {
		s = strings.TrimSpace(s)
		x, err := strconv.ParseFloat(AsciiNumber(s), 64)
		if err != nil {
			if bad < maxBadValues {
				errs = append(errs, core.NewMsg("padding.values.invalid", "value {index} = {value:q} is not a number", core.Args{"index": i, "value": s}).At("values"))
			}
			bad++
			continue
		}
		out = append(out, strconv.FormatFloat(x, 'g', -1, 64))
	}
	if len(errs) > 0 {
		return nil, errs
	}
	return out, nil
}

// maxBadValues is how many values that are not numbers ParseElementValues
// reports: more would crowd the box's message.
const maxBadValues = 3
