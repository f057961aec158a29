package live

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/stridescope/stridescope/explorer"
)

// The explorers' websocket protocol, version 2 (docs/protocol.md). Version
// 1 also sent every element's buffer offset (a JSON array, or frames of
// kind 1); the pages compute them from meta's sizes and strides, so a
// 16M-element edit sends about 2 MiB instead of 66 MiB.
const (
	ProtocolVersion = explorer.ProtocolVersion

	// wsReadLimit is the largest message a client may send; a larger one
	// closes the connection with 1009 (message too big).
	wsReadLimit = 16 << 10

	// Binary frame kinds: the explorers' (explorer.FrameCounts...).
	FrameCounts  = explorer.FrameCounts
	FrameTouched = explorer.FrameTouched
	FrameCopied  = explorer.FrameCopied

	// FrameHeaderLen is the size of a binary frame's header.
	FrameHeaderLen = 24

	// Chunk sizes (items per binary frame): 1 MiB of payload each.
	maxFramePayload = 1 << 20
	CountsPerFrame  = explorer.CountsPerFrame
	WordsPerFrame   = explorer.WordsPerFrame
)

// clientMsg is what the page sends: one edit, the whole state as a query.
type clientMsg struct {
	V     int    `json:"v"`
	Type  string `json:"type"`
	Seq   int64  `json:"seq"`
	Query string `json:"query"`
	// Page is the explorer the query is of: "layout" (the default) or
	// "slice" (the DML_SLICE1 explorer, slice_ws.go).
	Page string `json:"page,omitempty"`
	// Frames is how the page reads binary frames: "" (raw only) or
	// "runs" (bitmaps may come as runs, EncodingRuns).
	Frames string `json:"frames,omitempty"`
}

// helloMsg greets a new connection with the limits the server draws by.
type helloMsg struct {
	V              int    `json:"v"`
	Type           string `json:"type"`
	MaxDOMCells    int    `json:"maxDomCells"`
	MaxInteractive int    `json:"maxInteractive"`
	ReadLimit      int    `json:"readLimit"`
}

// doneMsg ends the frames of one edit.
type doneMsg struct {
	V    int    `json:"v"`
	Type string `json:"type"`
	Seq  int64  `json:"seq"`
}

// ErrorMsg reports a message the server could not act on.
type ErrorMsg struct {
	V    int    `json:"v"`
	Type string `json:"type"`
	Seq  int64  `json:"seq,omitempty"`
	// Code names a refusal the page may act on: "busy" (the server's work
	// budget is in use: ask again after RetryAfter seconds) or
	// "too-large" (the edit alone needs more than the whole budget).
	Code       string `json:"code,omitempty"`
	Message    string `json:"message"`
	RetryAfter int    `json:"retryAfter,omitempty"`
}

// putFrameHeader writes the 24-byte little-endian header of a binary frame:
// kind, version, 2 reserved bytes, seq, chunk index, chunk count, and the
// index of the first item of the payload.
func putFrameHeader(b []byte, kind byte, seq int64, chunk, chunks int, first int64) {
	b[0], b[1], b[2], b[3] = kind, ProtocolVersion, 0, 0
	binary.LittleEndian.PutUint32(b[4:], uint32(seq))
	binary.LittleEndian.PutUint32(b[8:], uint32(chunk))
	binary.LittleEndian.PutUint32(b[12:], uint32(chunks))
	binary.LittleEndian.PutUint64(b[16:], uint64(first))
}

// FrameHeader is a decoded binary frame header.
type FrameHeader struct {
	Kind    byte
	Version byte
	Seq     uint32
	Chunk   uint32
	Chunks  uint32
	First   uint64
}

// ParseFrameHeader decodes the header of a binary frame.
func ParseFrameHeader(b []byte) (FrameHeader, bool) {
	if len(b) < FrameHeaderLen {
		return FrameHeader{}, false
	}
	return FrameHeader{
		Kind: b[0], Version: b[1],
		Seq:    binary.LittleEndian.Uint32(b[4:]),
		Chunk:  binary.LittleEndian.Uint32(b[8:]),
		Chunks: binary.LittleEndian.Uint32(b[12:]),
		First:  binary.LittleEndian.Uint64(b[16:]),
	}, true
}

// mustJSON encodes v into a pooled buffer and returns an exact copy: a
// 64x64 result holds megabytes of HTML, which json.Marshal's fresh buffer
// reaches by doubling. HTML is not escaped: the text is read by
// JSON.parse, never spliced into a page, and < > & as \u003c... made the
// HTML frames several times longer.
func mustJSON(v any) []byte {
	b := jsonPool.Get().(*bytes.Buffer)
	defer func() {
		if b.Cap() <= 8<<20 { // an outsized one is left to the collector
			b.Reset()
			jsonPool.Put(b)
		}
	}()
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // every message type here marshals
	}
	return bytes.Clone(bytes.TrimSuffix(b.Bytes(), []byte("\n")))
}

var jsonPool = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// looseSeq finds a plausible seq in a message that failed to decode, so
// the error reply can name the edit it answers; 0 when there is none.
func looseSeq(data []byte) int64 {
	var probe struct {
		Seq json.Number `json:"seq"`
	}
	if json.Unmarshal(data, &probe) != nil {
		return 0
	}
	n, err := probe.Seq.Int64()
	if err != nil || n <= 0 || n > 1<<32-1 {
		return 0
	}
	return n
}

func decodeClientMsg(data []byte) (clientMsg, string) {
	var m clientMsg
	dec := json.NewDecoder(strings.NewReader(string(data)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&m); err != nil {
		m.Seq = looseSeq(data)
		return m, "the message is not a JSON object of the protocol: " + err.Error()
	}
	if dec.More() {
		return m, "the message must be exactly one JSON object; found more after it"
	}
	switch {
	case m.V != ProtocolVersion:
		return m, fmt.Sprintf("unsupported protocol version %d; this server speaks v=%d (reload the page)", m.V, ProtocolVersion)
	case m.Type != "edit":
		return m, "unknown message type " + quote(m.Type) + "; the types are \"edit\" and, for rooms, \"present\", \"unpresent\", \"publish\", \"follow\", \"unfollow\", \"question\", \"answer\", \"pace\" and \"where\""
	case m.Seq <= 0 || m.Seq > 1<<32-1:
		return m, "seq must be a whole number from 1 to 2^32-1, increasing with each edit"
	case m.Frames != "" && m.Frames != "runs":
		return m, "frames must be \"runs\" or left out"
	}
	return m, ""
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }
