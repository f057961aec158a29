package slice1

import (
	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/views"
)

// SVGLimits reports why s cannot be drawn as a standalone SVG
// picture: too many elements to draw, or elements spread (by the
// strides) over more of the input buffer than the slice explorer
// computes values for; nil when it can.
func SVGLimits(s *core.Slice1) []core.Violation {
	const most = views.MaxSVGCells
	n, m := s.Input.LogicalElementCount(), s.OutputElementCount()
	if n > most || m > most {
		return []core.Violation{core.NewMsg("svg.slice.large",
			"the SVG picture draws at most {max} input and {max} output elements; this slice has {input} input and {output} output elements",
			core.Args{"max": most, "input": n, "output": m}).At("inputSizes")}
	}
	e := s.Input.DataType.Bits() / 8
	if b := (s.Input.IndexOfLastElement() + 1) * e; b > MaxSliceBytes {
		return []core.Violation{core.NewMsg("svg.slice.bytes",
			"the SVG picture shows the values of an input buffer of at most {mib} MiB; these strides spread {count} input elements over {bytes} bytes",
			core.Args{"mib": MaxSliceBytes >> 20, "count": n, "bytes": b}).At("inputStrides")}
	}
	return nil
}
