package live

import (
	"encoding/binary"
	"math/bits"
)

// Frame encodings (byte 2 of a binary frame's header). A bitmap frame of
// a picture is mostly long runs of set or clear bits (a packed buffer is
// one run, padded rows one run a row), so a page that asks for it
// (`"frames":"runs"` in its edit) gets such a frame as its runs: a 4096x4096
// edit's 2 MiB bitmap becomes a few bytes, which matters on a phone's
// network more than anywhere. A frame whose runs would not be smaller is
// sent as it is. The encoding is the server's choice and the client only
// expands it: the server never inflates what a client sends.
const (
	EncodingRaw  = 0 // the payload as the frame's kind describes it
	EncodingRuns = 1 // uint32 words of the bitmap, then (start, length) uint32 pairs of set bits
)

// appendRuns appends the runs of set bits of words to dst, as little-endian
// uint32 pairs (start bit, length) after a uint32 count of the words the
// frame covers, and reports whether they took fewer than limit bytes; past
// limit it stops. Bit k is bit k%64 of words[k/64], as in the raw frame.
func appendRuns(dst []byte, words []uint64, limit int) ([]byte, bool) {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(words)))
	start, n := -1, len(dst)
	flush := func(end int) bool {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(start))
		dst = binary.LittleEndian.AppendUint32(dst, uint32(end-start))
		start = -1
		return len(dst)-n+4 < limit
	}
	for i, w := range words {
		base := i * 64
		switch {
		case w == ^uint64(0):
			if start < 0 {
				start = base
			}
			continue
		case w == 0:
			if start >= 0 && !flush(base) {
				return dst, false
			}
			continue
		}
		for b := 0; b < 64; {
			if start < 0 {
				// the next set bit starts a run
				z := bits.TrailingZeros64(w >> b)
				if b+z >= 64 {
					break
				}
				b += z
				start = base + b
			}
			// the run goes on to the next clear bit
			o := bits.TrailingZeros64(^(w >> b))
			if b+o >= 64 {
				break // it reaches the word's end: the next word may go on
			}
			b += o
			if !flush(base + b) {
				return dst, false
			}
		}
	}
	if start >= 0 && !flush(len(words)*64) {
		return dst, false
	}
	return dst, true
}
