package web

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stridescope/stridescope/ops/layout"
	"github.com/stridescope/stridescope/testkit"

	"github.com/gorilla/websocket"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
	"github.com/stridescope/stridescope/live"
)

// wsServer starts a real httptest server; configure may adjust the server
// before it serves.
func wsServer(t *testing.T, cfg Config, configure func(*Server)) (*Server, *httptest.Server) {
	t.Helper()
	cfg.Logger = testkit.Quiet()
	s := New(cfg)
	if configure != nil {
		configure(s)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	t.Cleanup(s.wsShutdown)
	return s, ts
}

func wsURL(ts *httptest.Server) string { return "ws" + strings.TrimPrefix(ts.URL, "http") + "/ws" }

// dial opens a session and reads the hello, of this protocol's version.
func dial(t *testing.T, ts *httptest.Server, header http.Header) *websocket.Conn {
	t.Helper()
	c, hello := testkit.Session(t, wsURL(ts), header)
	if hello["v"] != float64(live.ProtocolVersion) {
		t.Fatalf("first message %v, want hello v%d", hello, live.ProtocolVersion)
	}
	return c
}

func readJSON(t *testing.T, c *websocket.Conn, v any) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	typ, data, err := c.ReadMessage()
	if err != nil {
		t.Fatalf("read: %v", err)
	}
	if typ != websocket.TextMessage {
		t.Fatalf("got a binary frame, want JSON")
	}
	if err := json.Unmarshal(data, v); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
}

func sendEdit(t *testing.T, c *websocket.Conn, seq int64, query string) {
	t.Helper()
	if err := c.WriteJSON(map[string]any{"v": 2, "type": "edit", "seq": seq, "query": query}); err != nil {
		t.Fatal(err)
	}
}

// collected is everything one edit sent.
type collected struct {
	result  layout.Result
	offsets []uint32
	counts  []uint8
	frames  []live.FrameHeader
	done    bool
}

// collect reads the frames of edit seq until its done (or its result, for
// an invalid edit), skipping frames of other edits.
func collect(t *testing.T, c *websocket.Conn, seq int64) collected {
	t.Helper()
	var got collected
	for {
		_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
		typ, data, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		if typ == websocket.BinaryMessage {
			h, ok := live.ParseFrameHeader(data)
			if !ok {
				t.Fatalf("short binary frame of %d bytes", len(data))
			}
			if int64(h.Seq) != seq {
				continue
			}
			got.frames = append(got.frames, h)
			p := data[live.FrameHeaderLen:]
			switch h.Kind {
			case live.FrameCounts:
				copy(got.counts[h.First:], p)
			case live.FrameTouched:
				for i := 0; i < len(p); i += 8 {
					w := binary.LittleEndian.Uint64(p[i:])
					for b := range 64 {
						if k := (int(h.First)+i/8)*64 + b; w&(1<<b) != 0 && k < len(got.counts) {
							got.counts[k] = 1
						}
					}
				}
			default:
				t.Fatalf("unknown frame kind %d", h.Kind)
			}
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(data, &m); err != nil {
			t.Fatal(err)
		}
		if s, ok := m["seq"].(float64); !ok || int64(s) != seq {
			continue // another edit's, or a room message
		}
		switch m["type"] {
		case "result":
			if err := json.Unmarshal(data, &got.result); err != nil {
				t.Fatal(err)
			}
			if !got.result.OK {
				return got
			}
			got.offsets = pageOffsets(got.result.Meta.Sizes, got.result.Meta.Strides)
			got.counts = make([]uint8, got.result.Meta.Cells)
		case "done":
			got.done = true
			return got
		default:
			t.Fatalf("unexpected %s", data)
		}
	}
}

func TestWSEditAnswersWithFragmentsAndOffsets(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	c := dial(t, ts, nil)
	sendEdit(t, c, 1, "dt=FLOAT32&sizes=2,3&strides=5,1&total=40")
	got := collect(t, c, 1)
	r := got.result
	if !r.OK || !got.done {
		t.Fatalf("result %+v", r)
	}
	if r.Query != "dt=FLOAT32&sizes=2,3&strides=5,1&total=40" {
		t.Errorf("canonical query %q", r.Query)
	}
	if got := pageOffsets(r.Meta.Sizes, r.Meta.Strides); csv32(got) != "0,1,2,5,6,7" {
		t.Errorf("offsets %v", got)
	}
	if len(r.Counts) != 10 || r.Counts[3] != 0 || r.Counts[5] != 1 {
		t.Errorf("counts %v", r.Counts)
	}
	if r.Meta.LogicalMode != "dom" || r.Meta.BufferMode != "dom" || r.Meta.Cells != 10 || r.Meta.Last != 7 {
		t.Errorf("meta %+v", r.Meta)
	}
	if !strings.Contains(r.HTML.Buffer, `data-testid="bcell"`) || strings.Count(r.HTML.Logical, `data-testid="lcell"`) != 6 {
		t.Error("fragments are not the templ views")
	}
	if !strings.Contains(r.HTML.Facts, "DML_BUFFER_TENSOR_DESC") {
		t.Error("no C++ in the facts")
	}
	if r.Stream != nil || len(got.frames) != 0 {
		t.Error("a small tensor needs no binary frames")
	}
}

func TestWSInvalidEditReportsEachField(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	c := dial(t, ts, nil)
	sendEdit(t, c, 1, "dt=FLOAT32&sizes=2,0&strides=1,-1&align=3")
	r := collect(t, c, 1).result
	if r.OK || r.HTML != nil || r.Meta != nil {
		t.Fatalf("an invalid edit must not send a picture: %+v", r)
	}
	fields := map[string]string{}
	for _, v := range r.Errors {
		fields[v.Field] = v.Message
	}
	if ruleOf(fields["sizes[1]"]) != "sizes[1] == 0: specifying a size of zero in any dimension is invalid" {
		t.Errorf("sizes[1]: %q", fields["sizes[1]"])
	}
	if !strings.HasPrefix(ruleOf(fields["strides[1]"]), "strides[1] = -1: DML_BUFFER_TENSOR_DESC::Strides is const UINT*") {
		t.Errorf("strides[1]: %q", fields["strides[1]"])
	}
	if fields["guaranteedBaseOffsetAlignment"] == "" {
		t.Error("no alignment error")
	}
	if strings.Join(r.Form.Sizes, ",") != "2,0" {
		t.Errorf("form %+v", r.Form)
	}
	// The session goes on.
	sendEdit(t, c, 2, "preset=WH")
	got := collect(t, c, 2)
	if !got.result.OK || csv32(got.offsets) != "0,2,4,1,3,5" || strings.Join(got.result.Form.Strides, ",") != "1,2" {
		t.Errorf("preset WH: %+v", got.result)
	}
}

func TestWSLargeTensorStreamsBinaryChunks(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	c := dial(t, ts, nil)
	// 512x1024 with a padded row: 524288 elements in 1024*511+1024 cells.
	sendEdit(t, c, 7, "dt=FLOAT32&sizes=512,1024&strides=1030,1")
	got := collect(t, c, 7)
	r := got.result
	if !r.OK || !got.done || r.Stream == nil {
		t.Fatalf("result %+v", r)
	}
	if r.Meta.LogicalMode != "canvas" || r.Meta.BufferMode != "canvas" || r.Counts != nil {
		t.Errorf("large views must stream: %+v", r.Meta)
	}
	if r.Stream.CountKind != "touched" || r.Stream.CountFrames != 1 {
		t.Errorf("stream %+v", r.Stream)
	}
	if len(got.frames) != r.Stream.CountFrames {
		t.Errorf("%d frames, announced %+v", len(got.frames), r.Stream)
	}
	for _, h := range got.frames {
		if h.Version != live.ProtocolVersion || h.Chunks == 0 || h.Chunk >= h.Chunks {
			t.Errorf("header %+v", h)
		}
	}
	l, err := core.NewLayout(core.TensorDesc{DataType: core.Float32, Sizes: []int64{512, 1024}, Strides: []int64{1030, 1}})
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int64{0, 1, 1023, 1024, 300000, 524287} {
		want, _ := l.Offset(l.Coordinate(i))
		if int64(got.offsets[i]) != want {
			t.Errorf("offset[%d] = %d, want %d", i, got.offsets[i], want)
		}
	}
	// Cells 1024..1029 are padding, 1030 holds element (1,0).
	for k, want := range map[int]uint8{0: 1, 1023: 1, 1024: 0, 1029: 0, 1030: 1} {
		if got.counts[k] != want {
			t.Errorf("count[%d] = %d, want %d", k, got.counts[k], want)
		}
	}
	// Overlapping strides send saturated counts instead of a bitmap.
	sendEdit(t, c, 8, "sizes=300,4096&strides=1,1")
	got = collect(t, c, 8)
	if got.result.Stream == nil || got.result.Stream.CountKind != "counts" {
		t.Fatalf("stream %+v", got.result.Stream)
	}
	if got.counts[0] != 1 || got.counts[299] != 255 || got.counts[4394] != 1 {
		t.Errorf("counts %d %d %d", got.counts[0], got.counts[299], got.counts[4394])
	}
}

func TestWSLatestEditWins(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	c := dial(t, ts, nil)
	sendEdit(t, c, 1, bigStream) // 16 M overlapping elements: long enough to be superseded
	sendEdit(t, c, 2, "sizes=2,3&strides=0,1")
	var sawResult2 bool
	for {
		_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
		typ, data, err := c.ReadMessage()
		if err != nil {
			t.Fatal(err)
		}
		var seq int64
		if typ == websocket.BinaryMessage {
			h, _ := live.ParseFrameHeader(data)
			seq = int64(h.Seq)
		} else {
			var m struct {
				Type string
				Seq  int64
				OK   bool
			}
			_ = json.Unmarshal(data, &m)
			seq = m.Seq
			if m.Type == "done" && seq == 1 {
				t.Error("the superseded edit ran to its end")
			}
			if m.Type == "result" && seq == 2 {
				sawResult2 = true
			}
			if m.Type == "done" && seq == 2 {
				break
			}
		}
		if sawResult2 && seq == 1 {
			t.Fatal("a frame of the superseded edit came after the newer result")
		}
	}
	if !sawResult2 {
		t.Error("no result for the newer edit")
	}
}

func TestWSProtocolErrorsKeepTheSession(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	c := dial(t, ts, nil)
	for _, msg := range []string{`not json`, `{"v":1,"type":"edit","seq":1,"query":""}`, `{"v":2,"type":"draw","seq":1}`, `{"v":2,"type":"edit","seq":0,"query":""}`, `{"v":2,"type":"edit","seq":1,"query":"","extra":1}`} {
		if err := c.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
			t.Fatal(err)
		}
		var m live.ErrorMsg
		readJSON(t, c, &m)
		if m.Type != "error" || m.Message == "" {
			t.Errorf("%s: got %+v, want an error message", msg, m)
		}
	}
	if err := c.WriteMessage(websocket.BinaryMessage, []byte{1, 2, 3}); err != nil {
		t.Fatal(err)
	}
	var m live.ErrorMsg
	readJSON(t, c, &m)
	if m.Type != "error" {
		t.Errorf("binary from the client: %+v", m)
	}
	sendEdit(t, c, 3, "")
	if got := collect(t, c, 3); !got.result.OK || got.result.Query != "dt=FLOAT32&sizes=2,3" {
		t.Errorf("empty query is the default: %+v", got.result)
	}
}

func TestWSMessageOverReadLimitCloses1009(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	c := dial(t, ts, nil)
	big := `{"v":2,"type":"edit","seq":1,"query":"` + strings.Repeat("a", 100<<10) + `"}`
	if err := c.WriteMessage(websocket.TextMessage, []byte(big)); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, _, err := c.ReadMessage()
		if err == nil {
			continue
		}
		var ce *websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.CloseMessageTooBig {
			t.Fatalf("got %v, want close 1009", err)
		}
		return
	}
}

// TestWSFrameHeaderOverReadLimitClosesAtOnce: a frame whose header claims
// more than 16 KiB is refused when its header arrives, not after its
// payload: a peer that sends the header alone once held the reader until
// its deadline.
func TestWSFrameHeaderOverReadLimitClosesAtOnce(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	c := dial(t, ts, nil)
	// FIN and text; masked, with a 64-bit length of 1 MiB; the mask key;
	// then nothing of the payload.
	header := []byte{0x81, 0x80 | 127, 0, 0, 0, 0, 0, 0x10, 0, 0, 1, 2, 3, 4}
	if _, err := c.NetConn().Write(header); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		_, _, err := c.ReadMessage()
		if err == nil {
			continue // the hello
		}
		var ce *websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != websocket.CloseMessageTooBig {
			t.Fatalf("got %v after %v, want close 1009", err, time.Since(start))
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("closed after %v, want at once", d)
		}
		return
	}
}

func TestWSOriginCheck(t *testing.T) {
	_, ts := wsServer(t, Config{AllowedOrigins: []string{"https://teach.example"}}, nil)
	host := strings.TrimPrefix(ts.URL, "http://")
	for _, tc := range []struct {
		origin string
		ok     bool
	}{
		{"", true}, // not a browser
		{"http://" + host, true},
		{"https://teach.example", true},
		{"https://evil.example", false},
		{"http://" + host + ".evil.example", false},
		{"null", false},
	} {
		h := http.Header{}
		if tc.origin != "" {
			h.Set("Origin", tc.origin)
		}
		c, res, err := websocket.DefaultDialer.Dial(wsURL(ts), h)
		if tc.ok {
			if err != nil {
				t.Errorf("origin %q refused: %v", tc.origin, err)
				continue
			}
			c.Close()
			continue
		}
		if err == nil {
			c.Close()
			t.Errorf("origin %q accepted", tc.origin)
			continue
		}
		if res == nil || res.StatusCode != http.StatusForbidden {
			t.Errorf("origin %q: %v, want 403", tc.origin, res)
		}
	}
}

func TestWSPingsDetectDeadPeers(t *testing.T) {
	_, ts := wsServer(t, Config{}, func(s *Server) {
		s.hub.Timings = live.Timings{WriteWait: time.Second, PongWait: time.Second, PingPeriod: 100 * time.Millisecond}
	})
	// A live peer answers pings (gorilla's client does while it reads) and
	// stays connected well past pongWait.
	live := dial(t, ts, nil)
	var pings int
	live.SetPingHandler(func(d string) error {
		pings++
		return live.WriteControl(websocket.PongMessage, []byte(d), time.Now().Add(time.Second))
	})
	_ = live.SetReadDeadline(time.Now().Add(2500 * time.Millisecond))
	if _, _, err := live.ReadMessage(); err == nil || !isTimeout(err) {
		t.Fatalf("live peer: %v, want a read timeout on our side only", err)
	}
	if pings < 5 {
		t.Errorf("%d pings in 2.5 s, want about 25", pings)
	}
	// A dead peer never reads, so never answers: the server hangs up.
	raw, err := net.Dial("tcp", strings.TrimPrefix(ts.URL, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	_, err = raw.Write([]byte("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"))
	if err != nil {
		t.Fatal(err)
	}
	_ = raw.SetReadDeadline(time.Now().Add(8 * time.Second))
	start := time.Now()
	if _, err := io.Copy(io.Discard, raw); err != nil {
		t.Fatalf("the server did not close the dead connection: %v", err)
	}
	if d := time.Since(start); d > 4*time.Second {
		t.Errorf("closed after %v", d)
	}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

func TestWSShutdownClosesSessions(t *testing.T) {
	s := New(Config{Logger: testkit.Quiet(), ShutdownTimeout: 2 * time.Second})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, nil) }()
	c, _, err := websocket.DefaultDialer.Dial("ws://"+ln.Addr().String()+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, _, err := c.ReadMessage(); err != nil { // hello
		t.Fatal(err)
	}
	cancel()
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, _, err = c.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseGoingAway {
		t.Errorf("got %v, want close 1001", err)
	}
	if err := <-done; err != nil {
		t.Errorf("serve: %v", err)
	}
}

// bigStream is the edit with the largest stream there is: 2^24 elements
// that overlap (offset 4095·row + column) in 16,773,121 buffer cells,
// sent as one count byte a cell, 16 MiB, more than loopback sockets
// buffer. Tests that need a writer blocked on a peer that does not read
// ask for it.
const bigStream = "sizes=4096,4096&strides=4095,1"

// pageOffsets is what the page computes from a result's meta (protocol v2
// sends no offsets; static/layout.js offsetsOf): each element's buffer
// offset, row-major. The tests compare it with core's answers.
func pageOffsets(sizes, strides []int64) []uint32 {
	n := int64(1)
	for _, s := range sizes {
		n *= s
	}
	out := make([]uint32, n)
	for i := range n {
		var off int64
		for d, r := len(sizes)-1, i; d >= 0; d-- {
			off += r % sizes[d] * strides[d]
			r /= sizes[d]
		}
		out[i] = uint32(off)
	}
	return out
}

func csv32(vs []uint32) string {
	s := make([]int64, len(vs))
	for i, v := range vs {
		s[i] = int64(v)
	}
	return csv(s)
}

// TestWSEditSpeaksThePagesLanguage: what an edit renders is in the
// language the page's upgrade request asked for (the lang cookie, or
// Accept-Language), and sessions of other languages asking the same
// query are not handed the shared answer of another.
func TestWSEditSpeaksThePagesLanguage(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	const query = "dt=FLOAT32&sizes=2,3&strides=5,1"
	facts := map[i18n.Locale]string{}
	for _, tc := range []struct {
		loc    i18n.Locale
		header http.Header
	}{
		{i18n.French, http.Header{"Accept-Language": {"fr-FR,fr;q=0.9"}}},
		{i18n.English, nil},
		{i18n.TraditionalChinese, http.Header{"Cookie": {"lang=zh-TW"}}},
		{i18n.French, http.Header{"Cookie": {"lang=fr"}}},
	} {
		c := dial(t, ts, tc.header)
		sendEdit(t, c, 1, query)
		got := collect(t, c, 1)
		if !got.result.OK {
			t.Fatalf("%s: %+v", tc.loc, got.result)
		}
		want := i18n.T(i18n.WithLocale(context.Background(), tc.loc), "fact.last")
		if !strings.Contains(got.result.HTML.Facts, want) {
			t.Errorf("%s: the facts lack %q", tc.loc, want)
		}
		if prev, ok := facts[tc.loc]; ok && prev != got.result.HTML.Facts {
			t.Errorf("%s: two sessions got different facts", tc.loc)
		}
		facts[tc.loc] = got.result.HTML.Facts
		c.Close()
	}
	if facts[i18n.French] == facts[i18n.English] || facts[i18n.TraditionalChinese] == facts[i18n.English] {
		t.Error("an answer was shared across languages")
	}
}

// TestWSErrorsSpeakThePagesLanguage: a broken edit's errors, worded
// beside the form, come back in the page's language, both explorers';
// English exactly as before.
func TestWSErrorsSpeakThePagesLanguage(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	for _, tc := range []struct {
		header http.Header
		slice  bool
		query  string
		want   string
	}{
		{nil, false, "dt=FLOAT32&sizes=2,0",
			"The size of dimension W is 0: no dimension may be empty — sizes[1] == 0: specifying a size of zero in any dimension is invalid"},
		{http.Header{"Accept-Language": {"pt-BR"}}, false, "dt=FLOAT32&sizes=2,0",
			"O tamanho da dimensão W é 0: nenhuma dimensão pode ser vazia — sizes[1] == 0: um tamanho zero em qualquer dimensão é inválido"},
		{http.Header{"Cookie": {"lang=fr"}}, true, "dt=FLOAT32&sizes=4,4&woff=0,0&wsize=4,4&wstride=1,0",
			"Le pas de la fenêtre sur l'axe 1 (W) vaut 0\u00a0: la fenêtre doit avancer ou reculer — axe 1\u00a0: InputWindowStrides[1] == 0 (un pas ne peut pas être nul)"},
	} {
		c := dial(t, ts, tc.header)
		msg := map[string]any{"v": live.ProtocolVersion, "type": "edit", "seq": 1, "query": tc.query}
		if tc.slice {
			msg["page"] = "slice"
		}
		if err := c.WriteJSON(msg); err != nil {
			t.Fatal(err)
		}
		var res struct {
			Type   string           `json:"type"`
			OK     bool             `json:"ok"`
			Errors []core.Violation `json:"errors"`
		}
		for res.Type != "result" {
			readJSON(t, c, &res)
		}
		if res.OK || len(res.Errors) == 0 {
			t.Fatalf("%s: %+v", tc.query, res)
		}
		if res.Errors[0].Message != tc.want {
			t.Errorf("%v %s: %q\nwant %q", tc.header, tc.query, res.Errors[0].Message, tc.want)
		}
		c.Close()
	}
}

// TestWSSubtitlesSpeakThePagesLanguage: the views' subtitles an edit
// sends are in the page's language, their numbers grouped its way.
func TestWSSubtitlesSpeakThePagesLanguage(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	for _, tc := range []struct {
		header            http.Header
		logical, buffered string
	}{
		{nil, "301×301 = 90\u202f601 elements, {H,W}", "90\u202f608 elements of 4 bits = 45\u202f304 bytes"},
		{http.Header{"Cookie": {"lang=pt-BR"}}, "301×301 = 90.601 elementos, {H,W}", "90.608 elementos de 4 bits = 45.304 bytes"},
		{http.Header{"Accept-Language": {"fr"}}, "301×301 = 90\u202f601 éléments, {H,W}", "90\u202f608 éléments de 4 bits = 45\u202f304 octets"},
	} {
		c := dial(t, ts, tc.header)
		sendEdit(t, c, 1, "dt=UINT4&sizes=301,301")
		got := collect(t, c, 1).result
		if !got.OK || got.HTML == nil {
			t.Fatalf("%v: %+v", tc.header, got)
		}
		if got.HTML.LogicalSub != tc.logical || got.HTML.BufferSub != tc.buffered {
			t.Errorf("%v: subtitles %q, %q\nwant %q, %q", tc.header, got.HTML.LogicalSub, got.HTML.BufferSub, tc.logical, tc.buffered)
		}
		c.Close()
	}
}

// TestWSBufferSizeKeepsTheBytesLeftOver: an edit to a
// TotalTensorSizeInBytes that is not a whole number of elements sends a
// subtitle and facts that give the same buffer size.
func TestWSBufferSizeKeepsTheBytesLeftOver(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	for _, tc := range []struct {
		header            http.Header
		query             string
		buffered, inFacts string
	}{
		{nil, "dt=FLOAT32&sizes=2,3&strides=5,1&total=46",
			"11 elements of 32 bits + 2 bytes left over = 46 bytes", "46 bytes = 11 elements and 2 bytes left over"},
		{http.Header{"Cookie": {"lang=zh-TW"}}, "dt=FLOAT16&sizes=2,3&strides=5,1&total=35",
			"17 個 16 位元的元素 + 餘下 1 位元組 = 35 位元組", "35 位元組 = 17 個元素，餘 1 位元組"},
	} {
		c := dial(t, ts, tc.header)
		sendEdit(t, c, 1, tc.query)
		got := collect(t, c, 1).result
		if !got.OK || got.HTML == nil {
			t.Fatalf("%s: %+v", tc.query, got)
		}
		if got.HTML.BufferSub != tc.buffered {
			t.Errorf("%s: buffer subtitle %q, want %q", tc.query, got.HTML.BufferSub, tc.buffered)
		}
		if !strings.Contains(got.HTML.Facts, tc.inFacts) {
			t.Errorf("%s: facts lack %q", tc.query, tc.inFacts)
		}
		c.Close()
	}
}

// TestWSSliceDimsSpeakThePagesLanguage: the slice explorer's window table
// an edit sends back (defaults, verdicts, the E2 erratum) is in the
// page's language.
func TestWSSliceDimsSpeakThePagesLanguage(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	for _, l := range i18n.Locales {
		c := dial(t, ts, http.Header{"Cookie": {"lang=" + string(l)}})
		sendSliceEdit(t, c, 1, "dt=FLOAT32&sizes=1,1,4,4&woff=0,0,0,1&wsize=1,1,4,3&wstride=1,1,-2,2")
		dims := collectSlice(t, c, 1).result.HTML.Dims
		ctx := i18n.WithLocale(context.Background(), l)
		for _, want := range []string{i18n.T(ctx, "dims.yes.default"), i18n.T(ctx, "dims.default", i18n.Args{"n": 2})} {
			if !strings.Contains(dims, want) {
				t.Errorf("%s: the window table lacks %q", l, want)
			}
		}
		c.Close()
	}
}

// TestWSLangQueryWins: the pages open /ws?lang= with their own language
// (static/live.js wsURL): it wins over the lang cookie (switched since in
// another tab) and over Accept-Language (an embed on another site, whose
// socket carries no cookie of ours).
func TestWSLangQueryWins(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	c, _, err := websocket.DefaultDialer.Dial(wsURL(ts)+"?lang=zh-TW", http.Header{"Cookie": {"lang=fr"}, "Accept-Language": {"pt-BR"}})
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	var hello map[string]any
	readJSON(t, c, &hello)
	sendEdit(t, c, 1, "dt=FLOAT32&sizes=2,3&strides=5,1")
	got := collect(t, c, 1)
	if want := i18n.T(i18n.WithLocale(context.Background(), i18n.TraditionalChinese), "fact.last"); !got.result.OK || !strings.Contains(got.result.HTML.Facts, want) {
		t.Errorf("the facts lack %q: %+v", want, got.result)
	}
}
