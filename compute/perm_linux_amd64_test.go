package compute

import (
	"math/rand/v2"
	"strings"
	"syscall"
	"testing"
)

// permWalks are walks whose trailing dimensions fit a 64-byte window at
// every element size: S2's slice, a crop with a reversed step-2 row, a
// broadcast inner dimension, and a single group.
var permWalks = []Walk{
	{Sizes: []int64{2, 2, 2, 2, 2, 3, 2, 2}, Strides: []int64{-648, 432, 108, -72, -18, 6, 3, -2}, Base: 648 + 72 + 18 + 2},
	{Sizes: []int64{9, 7, 4}, Strides: []int64{50, 6, -2}, Base: 6},
	{Sizes: []int64{300, 2, 3}, Strides: []int64{5, 1, 0}},
	{Sizes: []int64{2, 2}, Strides: []int64{-1, 2}, Base: 1},
}

func TestPermModeGathersEveryElementSize(t *testing.T) {
	if !useAVX512 {
		t.Skip("no AVX-512 F and BW here (or GODEBUG turns it off): the table mode runs instead")
	}
	setMode(t, variant{mode: -1, fast: true})
	rng := rand.New(rand.NewPCG(21, 22))
	for _, e := range elemSizes {
		for _, w := range permWalks {
			d, err := Explain(w, e)
			if err != nil {
				t.Fatal(err)
			}
			_, hi := span(w)
			// Every walk's trailing group fits the 32 or 64 lanes of
			// 1- and 2-byte elements.
			want := e == 2 || e == 1 && useAVX512VBMI
			if got := strings.HasPrefix(d, "permute"); want && !got {
				t.Errorf("Explain(%+v, %d) = %q, want the permute mode", w, e, d)
			}
			checkCopy(t, w, randBytes(rng, (hi+1)*int64(e)), e)
		}
	}
}

// TestPermWindowsStopAtTheBuffersEnd puts src against a page the process
// may not read: a window lane past the walk's last element would fault.
func TestPermWindowsStopAtTheBuffersEnd(t *testing.T) {
	if !useAVX512 {
		t.Skip("no AVX-512 here")
	}
	setMode(t, variant{mode: int(modePerm), fast: true})
	// Room for the largest walk (S2's 1296 8-byte elements), then the
	// page that faults.
	page := syscall.Getpagesize()
	page *= (1296*8 + page - 1) / page
	mem, err := syscall.Mmap(-1, 0, page+syscall.Getpagesize(), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[page:], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	rng := rand.New(rand.NewPCG(23, 24))
	for _, e := range elemSizes {
		for _, w := range permWalks {
			_, hi := span(w)
			n := (hi + 1) * int64(e)
			src := mem[int64(page)-n : page]
			copy(src, randBytes(rng, n))
			checkCopy(t, w, src, e)
		}
	}
}

// TestEvenRowsStopAtTheBuffersEnd: evenRows4's lines read one element
// past the last they keep; against a page that faults, a row that ends at
// src's last element must take its last line from gatherRows4.
func TestEvenRowsStopAtTheBuffersEnd(t *testing.T) {
	if !useAVX512 {
		t.Skip("no AVX-512 here")
	}
	setMode(t, variant{mode: int(modeRows), fast: true, stream: true})
	page := syscall.Getpagesize()
	size := 16 * page
	mem, err := syscall.Mmap(-1, 0, size+page, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_ANON|syscall.MAP_PRIVATE)
	if err != nil {
		t.Skipf("mmap: %v", err)
	}
	defer syscall.Munmap(mem)
	if err := syscall.Mprotect(mem[size:], syscall.PROT_NONE); err != nil {
		t.Skipf("mprotect: %v", err)
	}
	rng := rand.New(rand.NewPCG(25, 26))
	for _, w := range []Walk{
		{Sizes: []int64{1000}, Strides: []int64{2}},
		{Sizes: []int64{64}, Strides: []int64{2}, Base: 7},
		{Sizes: []int64{5, 48}, Strides: []int64{100, 2}, Base: 3},
		{Sizes: []int64{5, 48}, Strides: []int64{-100, 2}, Base: 400},
		{Sizes: []int64{3, 4, 160}, Strides: []int64{1000, 330, 2}},
	} {
		if d, err := Explain(w, 4); err != nil || !strings.HasSuffix(d, " avx512 streamed") {
			t.Errorf("Explain(%+v, 4) = %q, %v: want evenRows4", w, d, err)
		}
		_, hi := span(w)
		n := (hi + 1) * 4
		src := mem[int64(size)-n : size]
		copy(src, randBytes(rng, n))
		checkCopy(t, w, src, 4)
	}
}

func TestAVX512FollowsGODEBUG(t *testing.T) {
	bw, vbmi := hasAVX512()
	for _, c := range []struct {
		godebug         string
		perm, permBytes bool
	}{
		{"", bw, bw && vbmi},
		{"cpu.avx512f=off", false, false},
		{"cpu.avx512bw=off", false, false},
		{"cpu.avx=off", false, false},
		{"cpu.all=off", false, false},
		{"cpu.avx512vbmi=off", bw, false},
		{"cpu.avx2=off", bw, bw && vbmi},
	} {
		perm, permBytes := avx512Enabled(c.godebug)
		if perm != c.perm || permBytes != c.permBytes {
			t.Errorf("avx512Enabled(%q) = %v, %v, want %v, %v", c.godebug, perm, permBytes, c.perm, c.permBytes)
		}
	}
}
