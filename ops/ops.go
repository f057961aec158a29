// Package ops lists the explorers a server shows: the tensor layout and
// each DirectML operator, in the order the site presents them. A new
// operator's package is added here, and nowhere else in the transport.
package ops

import (
	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/ops/convert"
	"github.com/stridescope/stridescope/ops/depthspace"
	"github.com/stridescope/stridescope/ops/join"
	"github.com/stridescope/stridescope/ops/layout"
	"github.com/stridescope/stridescope/ops/padding1"
	"github.com/stridescope/stridescope/ops/slice1"
	"github.com/stridescope/stridescope/ops/tile"
)

// All is every explorer.
func All() explorer.Kinds {
	return explorer.Kinds{layout.Kind{}, slice1.Kind{}, convert.Kind{}, depthspace.Kind{}, join.Kind{}, padding1.Kind{}, tile.Kind{}}
}
