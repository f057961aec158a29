package compute

import "github.com/stridescope/stridescope/core"

// DepthSpaceWalk walks the output elements of a DML_DEPTH_TO_SPACE1 or
// DML_SPACE_TO_DEPTH1 in row-major order and yields the input buffer
// offsets they read. Both operators in both orders are a reshape and a
// transpose, so the walk is the operator's 6-D view of the input
// (core.DepthSpace.View): Copy and Offsets run it with no per-element
// call, merging the dimensions whose strides chain (block size 1, or a
// packed input's runs of W).
func DepthSpaceWalk(s *core.DepthSpace) Walk {
	sizes, strides := s.View()
	return Walk{Sizes: sizes, Strides: strides}
}

// DepthSpace copies the input buffer src into the packed output dst.
func DepthSpace(dst, src []byte, s *core.DepthSpace) error {
	return Copy(dst, src, DepthSpaceWalk(s), int(s.Input.DataType.Bits()/8))
}
