package compute

import "unsafe"

// haveNT: the architecture has non-temporal stores (stream_amd64.s).
const haveNT = true

// ntCopy copies n bytes, a multiple of 64, from src to dst, which is
// 16-byte aligned, with non-temporal stores: the lines go to memory without
// being read into the cache first.
//
//go:noescape
func ntCopy(dst, src unsafe.Pointer, n int)

// sfence orders the non-temporal stores before any later store, so that
// the goroutine that hands dst on publishes them.
func sfence()
