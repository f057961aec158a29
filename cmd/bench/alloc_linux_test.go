package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"unsafe"
)

// mappingFlags is the VmFlags line of the mapping of /proc/self/smaps that
// holds address a, or "" when no mapping does.
func mappingFlags(t *testing.T, a uintptr) string {
	t.Helper()
	b, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		t.Skipf("no /proc/self/smaps: %v", err)
	}
	in := false
	for _, line := range strings.Split(string(b), "\n") {
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x", &lo, &hi); n == 2 && strings.Contains(line[:strings.IndexByte(line, ' ')+1], "-") {
			in = lo <= a && a < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return line
		}
	}
	return ""
}

// TestBufferAsNumPyAllocates: a buffer of 4 MiB or more is its own
// mapping advised for huge pages (VmFlags "hg"), zeroed and writable, and
// gone once released; a smaller one comes from Go's heap.
func TestBufferAsNumPyAllocates(t *testing.T) {
	if _, err := os.Stat("/sys/kernel/mm/transparent_hugepage/enabled"); err != nil {
		t.Skip("no transparent huge pages in this kernel")
	}
	for _, n := range []int64{1, hugeMin - 1, hugeMin, 3*hugeMin + 5} {
		b, release := buffer(n)
		if int64(len(b)) != n {
			t.Fatalf("buffer(%d): len %d", n, len(b))
		}
		for i, v := range b {
			if v != 0 {
				t.Fatalf("buffer(%d)[%d] = %d, want 0", n, i, v)
			}
		}
		for i := range b {
			b[i] = byte(i)
		}
		a := uintptr(unsafe.Pointer(&b[0]))
		advised := strings.Contains(mappingFlags(t, a)+" ", " hg ")
		if advised != (n >= hugeMin) {
			t.Errorf("buffer(%d): advised for huge pages %v, want %v (%s)", n, advised, n >= hugeMin, mappingFlags(t, a))
		}
		release()
		if n >= hugeMin {
			if f := mappingFlags(t, a); f != "" {
				t.Errorf("buffer(%d): still mapped after release (%s)", n, f)
			}
		}
	}
}
