//go:build !amd64

package compute

import "unsafe"

// transpose16x16s4 is never reached: useAVX512 is false here.
func transpose16x16s4(dst unsafe.Pointer, dstRow, dstStep int, src unsafe.Pointer, srcRow, srcStep, blocks int, nt bool) {
	panic("compute: transpose16x16s4 without AVX-512")
}
