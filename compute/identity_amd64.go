package compute

import "unsafe"

// transpose16x16s4 transposes blocks 16 x 16 blocks of 4-byte elements
// in AVX-512 registers (identity_amd64.s): for k < blocks, the element
// at src + k*srcStep + r*srcRow + c*4 goes to dst + k*dstStep + c*dstRow
// + r*4 (r, c < 16). nt: non-temporal stores, every dst row 64-byte
// aligned. Only where useAVX512 holds.
//
//go:noescape
func transpose16x16s4(dst unsafe.Pointer, dstRow, dstStep int, src unsafe.Pointer, srcRow, srcStep, blocks int, nt bool)

// transpose8x8s8 is transpose16x16s4 for 8 x 8 blocks of 8-byte
// elements: the element at src + k*srcStep + r*srcRow + c*8 goes to dst
// + k*dstStep + c*dstRow + r*8 (r, c < 8).
//
//go:noescape
func transpose8x8s8(dst unsafe.Pointer, dstRow, dstStep int, src unsafe.Pointer, srcRow, srcStep, blocks int, nt bool)
