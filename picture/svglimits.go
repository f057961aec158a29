package picture

import (
	"context"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/views"
)

// LayoutSVGLimits reports why l cannot be drawn as a standalone SVG
// picture, which draws at most views.MaxSVGCells logical elements and as
// many buffer cells; nil when it can. The violation names the field to
// change: the sizes for too many elements, else what makes the buffer
// long (the strides, or a total past them).
func LayoutSVGLimits(l *core.Layout) []core.Violation {
	const most = views.MaxSVGCells
	n, cells := l.LogicalElementCount(), l.BufferElementCount()
	if n <= most && cells <= most {
		return nil
	}
	field := "sizes"
	if n <= most {
		field = "strides"
		if l.IndexOfLastElement() < most {
			field = "totalTensorSizeInBytes"
		}
	}
	return []core.Violation{core.NewMsg("svg.layout.large",
		"the SVG picture draws at most {max} logical elements and {max} buffer cells; this tensor has {count} logical elements in a buffer of {cells} cells (the explorer draws up to {explorer})",
		core.Args{"max": most, "count": n, "cells": cells, "explorer": int64(MaxInteractive)}).At(field)}
}

// NoSVG is what the share bar says instead of offering a picture that
// would be refused for vs (LayoutSVGLimits, SliceSVGLimits), in ctx's
// locale with its numbers grouped as prose; "" when vs is empty and the
// picture can be drawn.
func NoSVG(ctx context.Context, vs []core.Violation) string {
	if len(vs) == 0 {
		return ""
	}
	l := i18n.LocaleOf(ctx)
	args := make(i18n.Args, len(vs[0].Args))
	for k, a := range vs[0].Args {
		switch a.(type) {
		case int, int64:
			args[k] = l.Grouped(a)
		default:
			args[k] = a
		}
	}
	return l.T("share.nosvg", i18n.Args{"why": l.T(i18n.Key(vs[0].Code), args)})
}
