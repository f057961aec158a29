//go:build !amd64

package compute

import "unsafe"

// transpose16x16s4 and transpose8x8s8 are never reached: useAVX512 is
// false here.
func transpose16x16s4(dst unsafe.Pointer, dstRow, dstStep int, src unsafe.Pointer, srcRow, srcStep, blocks int, nt bool) {
	panic("compute: transpose16x16s4 without AVX-512")
}

func transpose8x8s8(dst unsafe.Pointer, dstRow, dstStep int, src unsafe.Pointer, srcRow, srcStep, blocks int, nt bool) {
	panic("compute: transpose8x8s8 without AVX-512")
}
