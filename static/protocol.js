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
