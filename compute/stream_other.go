//go:build !amd64

package compute

import "unsafe"

// No SSE2 kernels here: haveSSE is false, so the streaming paths,
// and the stubs below, are never reached.
const haveSSE = false

func ntCopy(dst, src unsafe.Pointer, n int) {
	copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
}

func sfence() {}

func revLines1(dst, srcLow unsafe.Pointer, lines, rows, srcStride int) {
	panic("compute: no revLines here")
}
func revLines2(dst, srcLow unsafe.Pointer, lines, rows, srcStride int) {
	panic("compute: no revLines here")
}
func revLines4(dst, srcLow unsafe.Pointer, lines, rows, srcStride int) {
	panic("compute: no revLines here")
}
func revLines8(dst, srcLow unsafe.Pointer, lines, rows, srcStride int) {
	panic("compute: no revLines here")
}

func copyRows(dst, src unsafe.Pointer, chunks, rows, srcStride int, wide bool) {
	panic("compute: no copyRows here")
}

func transpose4x16(dst unsafe.Pointer, dstRow int, src unsafe.Pointer, srcRow, na int) {
	panic("compute: no transpose4x16 here")
}

func revChunks4(dst, srcLow unsafe.Pointer, chunks, rows, srcStride int) {
	panic("compute: no revChunks4 here")
}

func gatherRows4(dst, src unsafe.Pointer, chunks, rows, srcStride, step int) {
	panic("compute: no gatherRows4 here")
}

func evenLines4(dst, src unsafe.Pointer, lines, rows, srcStride int) {
	panic("compute: no evenLines4 here")
}

func gatherRows8(dst, src unsafe.Pointer, chunks, rows, srcStride, step int) {
	panic("compute: no gatherRows8 here")
}

// useAVX is never true here (no AVX kernels).
var useAVX = false

// No AVX-512 here: the permute mode never runs.
var useAVX512, useAVX512VBMI = false, false

func permGroups(dst, src unsafe.Pointer, starts *int32, n int, ctl *[64]byte, dstep int, lmask, smask uint64, e int) {
	panic("compute: no permGroups here")
}

func prefetchRows(p unsafe.Pointer, offs *int32, n, step int) {}
