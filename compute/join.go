package compute

import (
	"context"
	"fmt"

	"github.com/stridescope/stridescope/core"
)

// JoinWalks are the strided copies a DML_JOIN is: input k read in
// row-major order (ins[k]) and written to its window of the output
// (outs[k]: input k's sizes over the output's strides, based at the
// window's start along the axis).
func JoinWalks(j *core.Join) (ins, outs []Walk) {
	for k, in := range j.Inputs {
		base, strides := j.OutputWindow(k)
		ins = append(ins, LayoutWalk(in))
		outs = append(outs, Walk{Sizes: append([]int64(nil), in.Sizes...), Strides: strides, Base: base})
	}
	return ins, outs
}

// Join executes a DML_JOIN: each input's buffer srcs[k] copied into its
// window of dst, the output's buffer, one strided copy (Identity) an
// input. The cells of dst no element reaches are left as they are.
func Join(ctx context.Context, dst []byte, srcs [][]byte, j *core.Join) error {
	if len(srcs) != len(j.Inputs) {
		return fmt.Errorf("%w: %d buffers for %d inputs", ErrInvalidWalk, len(srcs), len(j.Inputs))
	}
	e, err := elemBytes(j.Output.DataType)
	if err != nil {
		return err
	}
	ins, outs := JoinWalks(j)
	for k := range ins {
		if err := IdentityContext(ctx, dst, srcs[k], ins[k], outs[k], e); err != nil {
			return fmt.Errorf("input %d: %w", k, err)
		}
	}
	return nil
}

// Split executes a DML_SPLIT: output k is the DML_SLICE1 the split
// gives for it (core.Split.Slice1), copied by Slice when the output is
// packed and by Identity over the slice's walk when it has strides of
// its own.
func Split(ctx context.Context, dsts [][]byte, src []byte, s *core.Split) error {
	if len(dsts) != len(s.Outputs) {
		return fmt.Errorf("%w: %d buffers for %d outputs", ErrInvalidWalk, len(dsts), len(s.Outputs))
	}
	e, err := elemBytes(s.Input.DataType)
	if err != nil {
		return err
	}
	for k, out := range s.Outputs {
		sl, err := s.Slice1(k)
		if err != nil {
			return fmt.Errorf("output %d: %w", k, err)
		}
		if out.StridesImplicit && int64(len(dsts[k])) == out.LogicalElementCount()*int64(e) {
			err = Slice(dsts[k], src, sl)
		} else {
			err = IdentityContext(ctx, dsts[k], src, SliceWalk(sl), LayoutWalk(out), e)
		}
		if err != nil {
			return fmt.Errorf("output %d: %w", k, err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
	}
	return nil
}

func elemBytes(dt core.DataType) (int, error) {
	bits := dt.Bits()
	if bits%8 != 0 || bits == 0 {
		return 0, fmt.Errorf("%w: data type %s has no whole-byte elements", ErrInvalidWalk, dt)
	}
	return int(bits / 8), nil
}
