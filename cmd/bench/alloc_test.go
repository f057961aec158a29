package main

import "testing"

func TestBufferIsZeroedWritableAndReleased(t *testing.T) {
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
		if b[n-1] != byte(n-1) {
			t.Fatalf("buffer(%d): last byte not written", n)
		}
		release()
	}
}
