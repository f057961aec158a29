package compute

import (
	"os"
	"unsafe"
)

// permGroups gathers n >= 1 groups of elements of e = 1, 2, 4 or 8
// bytes with AVX-512 (perm_amd64.s): group j is read as one 64-byte window
// from src + starts[j] (the lanes in lmask only; masked-off lanes never
// fault), its lanes permuted by the indexes in ctl, and the lanes in smask
// written to dst + j*dstep.
//
//go:noescape
func permGroups(dst, src unsafe.Pointer, starts *int32, n int, ctl *[64]byte, dstep int, lmask, smask uint64, e int)

// hasAVX512 reports whether the CPU has AVX-512 F and BW with the OS
// saving its registers (bw), and VBMI besides (vbmi).
func hasAVX512() (bw, vbmi bool)

// useAVX512 and useAVX512VBMI: the permute mode runs (for 2-, 4- and 8-byte
// elements; for 1-byte elements, which need VBMI). GODEBUG's cpu.avx512f,
// cpu.avx512bw and cpu.avx512vbmi (or cpu.avx, cpu.all) =off turn them off
// as they do the runtime's own AVX-512 code.
var useAVX512, useAVX512VBMI = avx512Enabled(os.Getenv("GODEBUG"))

func avx512Enabled(godebug string) (perm, permBytes bool) {
	bw, vbmi := hasAVX512()
	for _, f := range []string{"avx", "avx512f", "avx512bw"} {
		if godebugOff(godebug, f) {
			return false, false
		}
	}
	return bw, bw && vbmi && !godebugOff(godebug, "avx512vbmi")
}
