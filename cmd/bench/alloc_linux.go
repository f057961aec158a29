package main

import (
	"fmt"
	"syscall"
)

// hugeMin is the size from which NumPy asks Linux for transparent huge
// pages (madvise MADV_HUGEPAGE on allocations of 4 MiB and more, its
// default since 1.20).
const hugeMin = 4 << 20

// buffer is n bytes of zeroed memory allocated as NumPy allocates its
// arrays, so that both sides of a comparison sit on the same kind of
// pages: with the kernel's transparent huge pages in madvise mode (a
// common default), Go's heap gets 4 KiB pages and NumPy's large arrays
// 2 MiB ones, and TLB-bound cases (transposes, 8-D walks) would measure
// the page size rather than the kernels. release gives it back.
func buffer(n int64) (b []byte, release func()) {
	if n < hugeMin {
		return make([]byte, n), func() {}
	}
	m, err := syscall.Mmap(-1, 0, int(n), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return make([]byte, n), func() {}
	}
	// Without transparent huge pages the advice fails and the pages stay
	// small, as NumPy's would.
	_ = syscall.Madvise(m, syscall.MADV_HUGEPAGE)
	return m, func() {
		if err := syscall.Munmap(m); err != nil {
			panic(fmt.Sprintf("release a %d-byte buffer: %v", len(m), err))
		}
	}
}
