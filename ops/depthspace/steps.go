package depthspace

import (
	"fmt"
	"net/url"
	"strconv"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/views"
)

// Steps is what the page's step-through (static/copy-steps.js) writes a
// step's channel formulas (DML_DEPTH_SPACE_ORDER's, one per order) from:
// the operator, the block size and both tensors' 4-D sizes.
type Steps struct {
	Op       string  `json:"op"` // depthToSpace or spaceToDepth
	Block    int64   `json:"block"`
	InSizes  []int64 `json:"inSizes"`
	OutSizes []int64 `json:"outSizes"`
}

// stepsOf is the step-through's numbers of a valid state, nil otherwise.
func stepsOf(v Validated) *Steps {
	if !v.OK() {
		return nil
	}
	s := v.DCR
	op := "spaceToDepth"
	if s.Op == core.DepthToSpace {
		op = "depthToSpace"
	}
	return &Steps{Op: op, Block: s.BlockSize, InSizes: s.Input.Sizes, OutSizes: s.Output.Sizes}
}

// pageStep is the step a page opened at t= shows without JavaScript,
// output element k of both orders, its cells marked in pic:
// copy-formulas.js's depthSpaceLines, from core.
func pageStep(q url.Values, v Validated, pic *PictureView) *views.CopyStep {
	if pic.Input.Mode != views.ModeDOM {
		return nil
	}
	s := views.StepOf("/depthspace", q, v.DCR.OutputElementCount())
	if s == nil {
		return nil
	}
	k := strconv.FormatInt(s.K, 10)
	views.MarkCells(&pic.DCR, "step-out", "dcr-"+k)
	views.MarkCells(&pic.CRD, "step-out", "crd-"+k)
	in := v.DCR.Input.Sizes
	fd, fc := v.DCR.InputCoordinate(s.K), v.CRD.InputCoordinate(s.K)
	views.MarkCells(&pic.Input, "step-src", "in-"+strconv.FormatInt(picture.RowMajorIndex(in, fd), 10), "in-"+strconv.FormatInt(picture.RowMajorIndex(in, fc), 10))
	s.Lines = depthSpaceLines(v.DCR, s.K, fd, fc)
	return s
}

// depthSpaceLines are output element k's lines in both orders, fd and fc
// the input coordinates DCR and CRD read.
func depthSpaceLines(d *core.DepthSpace, k int64, fd, fc []int64) []string {
	b, c := d.BlockSize, d.Output.Coordinate(k)
	n, ch, h, w, b2 := c[0], c[1], c[2], c[3], b*b
	at := picture.StepAt
	head := "Output[" + at(c) + "]"
	if d.Op == core.DepthToSpace {
		bh, bw, cOut := h%b, w%b, d.Output.Sizes[1]
		line := func(name, f string, v int64, from []int64) string {
			return fmt.Sprintf("%s: c_in = %s = %d; Input[{%d, %d, %d div %d, %d div %d}] = Input[%s]", name, f, v, n, v, h, b, w, b, at(from))
		}
		return []string{
			fmt.Sprintf("%s: bh = %d mod %d = %d, bw = %d mod %d = %d", head, h, b, bh, w, b, bw),
			line("DCR", fmt.Sprintf("(bh·B + bw)·C_out + c = (%d·%d + %d)·%d + %d", bh, b, bw, cOut, ch), (bh*b+bw)*cOut+ch, fd),
			line("CRD", fmt.Sprintf("c·B² + bh·B + bw = %d·%d + %d·%d + %d", ch, b2, bh, b, bw), ch*b2+bh*b+bw, fc),
		}
	}
	cIn := d.Input.Sizes[1]
	blk, r := ch/cIn, ch%b2
	input := func(cin, bh, bw int64, f string, from []int64) string {
		return fmt.Sprintf("%s; Input[{%d, %d, %d·%d + %d, %d·%d + %d}] = Input[%s]", f, n, cin, h, b, bh, w, b, bw, at(from))
	}
	return []string{head,
		"DCR: c = (bh·B + bw)·C_in + c_in: " + input(ch%cIn, blk/b, blk%b,
			fmt.Sprintf("c_in = %d mod %d = %d, bh = (%d div %d) div %d = %d, bw = (%d div %d) mod %d = %d", ch, cIn, ch%cIn, ch, cIn, b, blk/b, ch, cIn, b, blk%b), fd),
		"CRD: c = c_in·B² + bh·B + bw: " + input(ch/b2, r/b, ch%b,
			fmt.Sprintf("c_in = %d div %d = %d, bh = (%d mod %d) div %d = %d, bw = %d mod %d = %d", ch, b2, ch/b2, ch, b2, b, r/b, ch, b, ch%b), fc),
	}
}
