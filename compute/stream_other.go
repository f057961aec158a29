//go:build !amd64

package compute

import "unsafe"

const haveNT = false

func ntCopy(dst, src unsafe.Pointer, n int) {
	copy(unsafe.Slice((*byte)(dst), n), unsafe.Slice((*byte)(src), n))
}

func sfence() {}
