package compute

import (
	"os"
	"strings"
	"unsafe"
)

// haveSSE: the SSE2 kernels of stream_amd64.s, non-temporal stores among
// them, exist.
const haveSSE = true

// ntCopy copies n bytes, a multiple of 64, from src to dst, which is
// 16-byte aligned, with non-temporal stores: the lines go to memory without
// being read into the cache first.
//
//go:noescape
func ntCopy(dst, src unsafe.Pointer, n int)

// copyRows copies rows rows of chunks*16 bytes, row r from src +
// r*srcStride, to the contiguous, 16-byte aligned dst with non-temporal
// stores, in address order: the write-combining buffers assemble the lines
// that two rows share. wide: with 32-byte AVX stores (useAVX).
//
//go:noescape
func copyRows(dst, src unsafe.Pointer, chunks, rows, srcStride int, wide bool)

// hasAVX reports whether the CPU has AVX and the OS keeps its registers.
func hasAVX() bool

// useAVX: the kernels that have an AVX path take it. The tests also run
// them with it off. GODEBUG=cpu.avx=off (or cpu.all=off), which turns
// AVX off in the runtime's own copies, turns it off here too.
var useAVX = hasAVX() && !godebugOff(os.Getenv("GODEBUG"), "avx")

// godebugOff reports whether the GODEBUG value godebug turns the CPU
// feature off as the runtime reads it: cpu.<feature>=off or cpu.all=off,
// the last setting that names it winning.
func godebugOff(godebug, feature string) bool {
	off := false
	for _, kv := range strings.Split(godebug, ",") {
		k, v, ok := strings.Cut(strings.TrimSpace(kv), "=")
		if !ok || (k != "cpu."+feature && k != "cpu.all") {
			continue
		}
		switch v {
		case "off":
			off = true
		case "on":
			off = false
		}
	}
	return off
}

// sfence orders the non-temporal stores before any later store, so that
// the goroutine that hands dst on publishes them.
func sfence()

// The revLines functions write rows rows of lines*64 bytes each to dst,
// which is 64-byte aligned, with non-temporal stores: row r holds the
// elements of the lines*64 bytes from srcLow + r*srcStride, last first
// (stream_amd64.s).

//go:noescape
func revLines1(dst, srcLow unsafe.Pointer, lines, rows, srcStride int)

//go:noescape
func revLines2(dst, srcLow unsafe.Pointer, lines, rows, srcStride int)

//go:noescape
func revLines4(dst, srcLow unsafe.Pointer, lines, rows, srcStride int)

//go:noescape
func revLines8(dst, srcLow unsafe.Pointer, lines, rows, srcStride int)

// transpose4x16 copies, for a < na (a multiple of 4) and b < 16, the 4-byte
// element at src + b*srcRow + a*4 to dst + a*dstRow + b*4 with
// non-temporal stores; every dst + a*dstRow is 16-byte aligned.
//
//go:noescape
func transpose4x16(dst unsafe.Pointer, dstRow int, src unsafe.Pointer, srcRow, na int)

// revChunks4 writes rows rows of chunks*16 bytes to the contiguous dst with
// plain stores: row r holds the 4-byte elements of the chunks*16 bytes
// from srcLow + r*srcStride, last first.
//
//go:noescape
func revChunks4(dst, srcLow unsafe.Pointer, chunks, rows, srcStride int)

// gatherRows4 writes rows rows of chunks*16 bytes to the contiguous,
// 16-byte aligned dst with non-temporal stores: row r holds the 4-byte
// elements at src + r*srcStride + j*step, j < 4*chunks, and only those are
// read.
//
//go:noescape
func gatherRows4(dst, src unsafe.Pointer, chunks, rows, srcStride, step int)

// evenLines4 writes rows rows of lines*64 bytes to the contiguous, 64-byte
// aligned dst with non-temporal stores (AVX-512 F, useAVX512): row r holds
// the 4-byte elements at src + r*srcStride + 8*j, j < 16*lines. It reads
// all 128 bytes from src + r*srcStride on for each line, so the element
// after a row's last one must be inside src too.
//
//go:noescape
func evenLines4(dst, src unsafe.Pointer, lines, rows, srcStride int)

// gatherRows8 is gatherRows4 for 8-byte elements (two per chunk).
//
//go:noescape
func gatherRows8(dst, src unsafe.Pointer, chunks, rows, srcStride, step int)

// prefetchRows asks for the lines at p+offs[0], p+offs[step], ... (n of
// them, offsets in bytes) to be brought into L2 ahead of their loads.
//
//go:noescape
func prefetchRows(p unsafe.Pointer, offs *int32, n, step int)
