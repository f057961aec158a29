// The websocket protocol's numbers, named once as live/protocol.go names
// them (live's TestProtocolModuleMirrorsGo holds the two in step).

// PROTOCOL_VERSION is every message's "v" (live.ProtocolVersion).
export const PROTOCOL_VERSION = 2;
// FRAME_HEADER_LEN is the binary frames' header (live.FrameHeaderLen):
// the kind in byte 0, the first index as a little-endian uint64 at 16.
export const FRAME_HEADER_LEN = 24;
// FRAME is the binary frames' kinds (live.FrameCounts, FrameTouched,
// FrameCopied).
export const FRAME = Object.freeze({ counts: 2, touched: 3, copied: 4 });
// ENCODING is a binary frame's byte 2 (live.EncodingRaw, EncodingRuns):
// the page asks for runs with "frames":"runs" in its edits.
export const ENCODING = Object.freeze({ raw: 0, runs: 1 });

// framePayload is a binary frame's payload as a T (a typed array's
// constructor): the frame's own bytes when raw; for runs (a uint32 count
// of the bitmap's uint64 words, then uint32 pairs of start bit and
// length), the bitmap they describe.
export function framePayload(buf, T) {
  const d = new DataView(buf);
  if (d.getUint8(2) !== ENCODING.runs) return new T(buf, FRAME_HEADER_LEN);
  const w = new Uint32Array(2 * d.getUint32(FRAME_HEADER_LEN, true)); // bit k: w[k >> 5], bit k & 31
  for (let p = FRAME_HEADER_LEN + 4; p + 8 <= buf.byteLength; p += 8) {
    const s = d.getUint32(p, true), e = s + d.getUint32(p + 4, true);
    const a = s >>> 5, b = e >>> 5; // the words the run starts and ends in
    if (a === b) { w[a] |= mask(s & 31, e & 31); continue; }
    w[a] |= mask(s & 31, 32);
    w.fill(0xffffffff, a + 1, b);
    if (e & 31) w[b] |= mask(0, e & 31);
  }
  return new T(w.buffer);
}

// mask is the bits from i up to (not with) j of a uint32, 0 <= i < j <= 32.
const mask = (i, j) => ((j === 32 ? 0xffffffff : (1 << j) - 1) & ~((1 << i) - 1)) >>> 0;
