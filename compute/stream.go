package compute

import "unsafe"

// Streaming: when the output is larger than the caches, unit-step rows are
// written with non-temporal stores. A plain store to a line that is not
// cached first reads the line from memory; a non-temporal one does not, so
// the copy moves two thirds of the bytes (Go's copy() does the same for
// blocks of 1 MiB or more, which is what the engine is measured against).
// C1's 960-byte rows went from 0.56 to 0.86 x memcpy. Staging other
// kernels' rows through a buffer in L1 and streaming that out was tried and
// was slower than plain stores.

// streamMin is the output size from which the copy streams; the tests
// lower it.
var streamMin int64 = 4 << 20

// ntWrite writes b to dst byte q: the whole 64-byte lines with
// non-temporal stores, the partial lines at either end with plain ones.
func ntWrite(dp unsafe.Pointer, q int64, b []byte) {
	n := int64(len(b))
	if n == 0 {
		return
	}
	d := unsafe.Add(dp, q)
	head := min(int64(-uintptr(d)&63), n)
	body := (n - head) &^ 63
	if head > 0 {
		copy(unsafe.Slice((*byte)(d), head), b[:head])
	}
	if body > 0 {
		ntCopy(unsafe.Add(d, head), unsafe.Pointer(&b[head]), int(body))
	}
	if tail := n - head - body; tail > 0 {
		copy(unsafe.Slice((*byte)(unsafe.Add(d, head+body)), tail), b[head+body:])
	}
}

// streamRows executes the rows mode's units [first, first+cnt) of a
// unit-step plan with ntWrite.
func (x *exec) streamRows(dst, src []byte, first, cnt int64) {
	p := &x.p
	e := x.e
	dp := base(dst)
	p.walkRange(first, cnt, func(d, off, n, rows, rs int64) {
		for r := range rows {
			o := (off + r*rs) * e
			ntWrite(dp, (d+r*n)*e, src[o:o+n*e])
		}
	})
	sfence()
}
