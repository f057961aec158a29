package picture

import (
	"github.com/stridescope/stridescope/compute"
	"github.com/stridescope/stridescope/core"
)

// LayoutOffsets and SliceOffsets list per-element buffer offsets for the
// JSON answers, computed by the compute engine (callers bound the count by
// MaxListedElements).
func LayoutOffsets(l *core.Layout) []int64 {
	w := compute.LayoutWalk(l)
	o := make([]int64, w.Len())
	compute.Offsets(w, 0, o)
	return o
}
