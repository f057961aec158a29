package web

// Hardening tests: each runs over real connections on loopback and logs the
// figures it measured (go test -v -run Harden ./web).

import (
	"bufio"
	"context"
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/picture"
	"github.com/stridescope/stridescope/testkit"
)

// rawWS opens a websocket by hand on a plain TCP connection, so the test
// can send frames no well-behaved client library would.
func rawWS(t *testing.T, addr string) (net.Conn, *bufio.Reader) {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	fmt.Fprintf(c, "GET /ws HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", addr)
	br := bufio.NewReader(c)
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	res, err := http.ReadResponse(br, nil)
	if err != nil || res.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("handshake: %v %v", err, res)
	}
	return c, br
}

// wsFrame builds one frame: fin, rsv bits, opcode, optional mask.
func wsFrame(fin bool, rsv byte, opcode byte, masked bool, payload []byte) []byte {
	b0 := opcode | rsv<<4
	if fin {
		b0 |= 0x80
	}
	out := []byte{b0}
	maskBit := byte(0)
	if masked {
		maskBit = 0x80
	}
	switch n := len(payload); {
	case n < 126:
		out = append(out, maskBit|byte(n))
	case n < 1<<16:
		out = append(out, maskBit|126, byte(n>>8), byte(n))
	default:
		out = append(out, maskBit|127)
		out = binary.BigEndian.AppendUint64(out, uint64(n))
	}
	if !masked {
		return append(out, payload...)
	}
	var key [4]byte
	_, _ = rand.Read(key[:])
	out = append(out, key[:]...)
	for i, p := range payload {
		out = append(out, p^key[i%4])
	}
	return out
}

// readUntilClosed reads frames until the server closes; it returns the
// close code the server sent (0 if it just hung up).
func readUntilClosed(t *testing.T, c net.Conn, br *bufio.Reader) (code int, took time.Duration) {
	t.Helper()
	start := time.Now()
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		var h [2]byte
		if _, err := io.ReadFull(br, h[:]); err != nil {
			if isTimeout(err) {
				t.Fatalf("the server kept the connection open for 5s")
			}
			return code, time.Since(start)
		}
		n := int(h[1] & 0x7f)
		switch n {
		case 126:
			var e [2]byte
			io.ReadFull(br, e[:])
			n = int(binary.BigEndian.Uint16(e[:]))
		case 127:
			var e [8]byte
			io.ReadFull(br, e[:])
			n = int(binary.BigEndian.Uint64(e[:]))
		}
		p := make([]byte, n)
		if _, err := io.ReadFull(br, p); err != nil {
			return code, time.Since(start)
		}
		if h[0]&0x0f == 0x8 && len(p) >= 2 {
			code = int(binary.BigEndian.Uint16(p))
		}
	}
}

// settleGoroutines waits for the goroutine count to fall to at most want.
func settleGoroutines(want int) int {
	var n int
	for range 100 {
		if n = runtime.NumGoroutine(); n <= want {
			return n
		}
		time.Sleep(20 * time.Millisecond)
	}
	return n
}

func TestHardenMalformedFramesCloseCleanly(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	addr := strings.TrimPrefix(ts.URL, "http://")
	// Warm up so the server's own goroutines exist before the baseline.
	warm := dial(t, ts, nil)
	warm.Close()
	base := settleGoroutines(runtime.NumGoroutine())
	tests := []struct {
		name  string
		frame []byte
	}{
		{"reserved bits set", wsFrame(true, 0x4, websocket.TextMessage, true, []byte(`{}`))},
		{"unmasked client frame", wsFrame(true, 0, websocket.TextMessage, false, []byte(`{}`))},
		{"oversized control frame", wsFrame(true, 0, websocket.PingMessage, true, make([]byte, 200))},
		{"fragmented control frame", wsFrame(false, 0, websocket.PingMessage, true, []byte("x"))},
		{"unknown opcode", wsFrame(true, 0, 0x3, true, []byte("x"))},
		{"continuation without a start", wsFrame(true, 0, 0x0, true, []byte("x"))},
		{"length past the limit", wsFrame(true, 0, websocket.TextMessage, true, make([]byte, 70000))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, br := rawWS(t, addr)
			if _, err := c.Write(tt.frame); err != nil {
				t.Fatal(err)
			}
			code, took := readUntilClosed(t, c, br)
			t.Logf("closed with code %d after %v", code, took)
		})
	}
	// No session leaked, and the server still serves.
	if n := settleGoroutines(base); n > base {
		t.Errorf("%d goroutines after the bad frames, %d before", n, base)
	}
	c := dial(t, ts, nil)
	sendEdit(t, c, 1, "sizes=2,3")
	if got := collect(t, c, 1); !got.result.OK {
		t.Errorf("the server no longer answers edits: %+v", got.result)
	}
}

func TestHardenBadEditsGetTypedErrorsAndKeepTheSocket(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	c := dial(t, ts, nil)
	tests := []struct {
		name string
		msg  string
		seq  int64
		want string // "error" (a protocol error) or "result" (field errors)
	}{
		{"negative size", `{"v":2,"type":"edit","seq":11,"query":"sizes=-2,3"}`, 11, "result"},
		{"fractional stride", `{"v":2,"type":"edit","seq":12,"query":"sizes=2,3&strides=1.5,1"}`, 12, "result"},
		{"enormous size", `{"v":2,"type":"edit","seq":13,"query":"sizes=99999999999999999999999,3"}`, 13, "result"},
		{"2^40 elements", `{"v":2,"type":"edit","seq":14,"query":"sizes=1048576,1048576"}`, 14, "result"},
		{"nine dimensions", `{"v":2,"type":"edit","seq":15,"query":"sizes=1,1,1,1,1,1,1,1,1"}`, 15, "result"},
		{"strides near 2^32", `{"v":2,"type":"edit","seq":16,"query":"sizes=3,3&strides=4294967295,4294967295"}`, 16, "result"},
		{"missing type", `{"v":2,"seq":17,"query":""}`, 17, "error"},
		{"missing seq", `{"v":2,"type":"edit","query":""}`, 0, "error"},
		{"extra field", `{"v":2,"type":"edit","seq":18,"query":"","extra":1}`, 18, "error"},
		{"fractional seq", `{"v":2,"type":"edit","seq":19.5,"query":""}`, 0, "error"},
		{"trailing garbage", `{"v":2,"type":"edit","seq":20,"query":""} garbage`, 20, "error"},
		{"not JSON", `sizes=2,3`, 0, "error"},
		{"wrong version", `{"v":1,"type":"edit","seq":22,"query":""}`, 22, "error"},
		{"unknown type", `{"v":2,"type":"rm -rf","seq":23,"query":""}`, 23, "error"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := c.WriteMessage(websocket.TextMessage, []byte(tt.msg)); err != nil {
				t.Fatalf("the socket closed: %v", err)
			}
			var m map[string]any
			readJSON(t, c, &m)
			seq, _ := m["seq"].(float64)
			if m["type"] != tt.want || int64(seq) != tt.seq {
				t.Fatalf("got %v, want a %s with seq %d", m, tt.want, tt.seq)
			}
			if tt.want == "result" && (m["ok"] != false || len(m["errors"].([]any)) == 0) {
				t.Errorf("want field errors, got %v", m)
			}
			if tt.want == "error" && m["message"] == "" {
				t.Errorf("error without a message: %v", m)
			}
		})
	}
	sendEdit(t, c, 100, "sizes=2,3")
	if got := collect(t, c, 100); !got.result.OK {
		t.Errorf("after the bad edits a good one fails: %+v", got.result)
	}
}

func TestHardenFloodIsThrottledOthersUnaffected(t *testing.T) {
	limits := Limits{MessagesPerSecond: 20, MessageBurst: 20}
	_, ts := wsServer(t, Config{Limits: limits}, nil)
	flood := dial(t, ts, nil)
	calm := dial(t, ts, nil)

	// The flood: 1000 small edits as fast as the socket takes them, for 1s.
	var sent int
	stop := time.Now().Add(time.Second)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ; time.Now().Before(stop) && sent < 1000; sent++ {
			_ = flood.SetWriteDeadline(stop)
			if flood.WriteJSON(map[string]any{"v": 2, "type": "edit", "seq": sent + 1, "query": "sizes=2,3"}) != nil {
				return
			}
		}
	}()
	// Meanwhile a calm client's edits are answered promptly.
	var worst time.Duration
	for i := int64(1); i <= 10; i++ {
		start := time.Now()
		sendEdit(t, calm, i, "sizes=4,5")
		if got := collect(t, calm, i); !got.result.OK {
			t.Fatalf("calm client: %+v", got.result)
		}
		worst = max(worst, time.Since(start))
	}
	wg.Wait()
	// Count what the flood got answered within the second.
	answered := map[int64]bool{}
	_ = flood.SetReadDeadline(time.Now().Add(300 * time.Millisecond))
	for {
		_, data, err := flood.ReadMessage()
		if err != nil {
			break
		}
		var m struct {
			Seq int64 `json:"seq"`
		}
		if json.Unmarshal(data, &m) == nil && m.Seq > 0 {
			answered[m.Seq] = true
		}
	}
	maxRead := int(limits.MessageBurst) + int(1.3*limits.MessagesPerSecond) + 2
	t.Logf("flood sent %d edits in 1s; the server read at most %d of them (%d answered, latest wins); calm client's worst round trip %v",
		sent, maxRead, len(answered), worst)
	if len(answered) > maxRead {
		t.Errorf("the flood got %d answers, more than the limit allows (%d)", len(answered), maxRead)
	}
	if worst > 2*time.Second {
		t.Errorf("the calm client waited %v", worst)
	}
}

func TestHardenConnectionCapsAndSpoofing(t *testing.T) {
	dialStatus := func(url string, h http.Header) (*websocket.Conn, int) {
		c, res, err := websocket.DefaultDialer.Dial(url, h)
		if err != nil {
			if res == nil {
				t.Fatalf("dial: %v", err)
			}
			return nil, res.StatusCode
		}
		t.Cleanup(func() { c.Close() })
		return c, http.StatusSwitchingProtocols
	}
	t.Run("per address", func(t *testing.T) {
		_, ts := wsServer(t, Config{Limits: Limits{MaxConnsPerAddr: 3}}, nil)
		for i := range 3 {
			if _, st := dialStatus(wsURL(ts), nil); st != 101 {
				t.Fatalf("connection %d: %d", i, st)
			}
		}
		// Spoofing X-Forwarded-For does not make a new address.
		_, st := dialStatus(wsURL(ts), http.Header{"X-Forwarded-For": {"203.0.113.9"}})
		t.Logf("4th connection from one address with a forged X-Forwarded-For: %d", st)
		if st != http.StatusTooManyRequests {
			t.Errorf("status %d, want 429", st)
		}
	})
	t.Run("trusted proxy", func(t *testing.T) {
		_, ts := wsServer(t, Config{Limits: Limits{MaxConnsPerAddr: 1}, TrustedProxies: []string{"127.0.0.1"}}, nil)
		for i := range 3 {
			h := http.Header{"X-Forwarded-For": {fmt.Sprintf("198.51.100.%d", i+1)}}
			if _, st := dialStatus(wsURL(ts), h); st != 101 {
				t.Errorf("client %d behind the trusted proxy: %d", i, st)
			}
		}
		if _, st := dialStatus(wsURL(ts), http.Header{"X-Forwarded-For": {"198.51.100.1"}}); st != http.StatusTooManyRequests {
			t.Errorf("second connection of one proxied client: %d, want 429", st)
		}
	})
	t.Run("global cap", func(t *testing.T) {
		s, ts := wsServer(t, Config{Limits: Limits{MaxConns: 2}}, nil)
		dialStatus(wsURL(ts), nil)
		dialStatus(wsURL(ts), nil)
		start := time.Now()
		_, st := dialStatus(wsURL(ts), nil)
		t.Logf("3rd connection with a cap of 2: %d in %v (open: %d)", st, time.Since(start), s.conns.Open())
		if st != http.StatusServiceUnavailable {
			t.Errorf("status %d, want 503", st)
		}
	})
	t.Run("request rate per address", func(t *testing.T) {
		_, ts := wsServer(t, Config{Limits: Limits{RequestsPerSecond: 1, RequestBurst: 5}}, nil)
		var codes []int
		for i := range 8 {
			req, _ := http.NewRequest("GET", ts.URL+"/api/v1/nothing", nil)
			req.Header.Set("X-Forwarded-For", fmt.Sprintf("192.0.2.%d", i))
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			codes = append(codes, res.StatusCode)
		}
		t.Logf("8 requests, burst 5, forged X-Forwarded-For each time: %v", codes)
		if codes[5] != http.StatusTooManyRequests || codes[7] != http.StatusTooManyRequests {
			t.Errorf("codes %v: want 429 after the burst", codes)
		}
		res, err := http.Get(ts.URL + "/healthz")
		if err != nil || res.StatusCode != 200 {
			t.Errorf("/healthz must not be rate limited: %v %v", err, res)
		}
	})
}

func TestHardenSlowReaderBlocksNoOne(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	slow := dial(t, ts, nil)
	// The largest stream there is (16 MiB); the slow peer never reads it.
	sendEdit(t, slow, 1, bigStream)
	time.Sleep(200 * time.Millisecond)
	fast := dial(t, ts, nil)
	var worst time.Duration
	for i := int64(1); i <= 20; i++ {
		start := time.Now()
		sendEdit(t, fast, i, "sizes=8,8")
		if got := collect(t, fast, i); !got.result.OK {
			t.Fatalf("fast client: %+v", got.result)
		}
		worst = max(worst, time.Since(start))
	}
	t.Logf("20 edits of a fast client while a slow reader sits on 16 MiB: worst round trip %v", worst)
	if worst > 2*time.Second {
		t.Errorf("worst round trip %v", worst)
	}
}

// serveOnLoopback serves s with its own http.Server settings (timeouts)
// on a loopback port until the test ends, and gives the address.
func serveOnLoopback(t *testing.T, s *Server) string {
	t.Helper()
	return strings.TrimPrefix(testkit.Serve(t, s.Serve), "http://")
}

func TestHardenSlowlorisIsCutOff(t *testing.T) {
	addr := serveOnLoopback(t, New(Config{Logger: testkit.Quiet(), ReadHeaderTimeout: 500 * time.Millisecond}))

	var wg sync.WaitGroup
	cut := make([]time.Duration, 5)
	for i := range cut {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			start := time.Now()
			fmt.Fprintf(c, "GET / HTTP/1.1\r\nHost: x\r\n")
			// Dribble a header byte every 100ms, never finishing.
			for time.Since(start) < 5*time.Second {
				if _, err := c.Write([]byte("X")); err != nil {
					break
				}
				_ = c.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
				if _, err := c.Read(make([]byte, 1)); err != nil && !isTimeout(err) {
					break
				}
			}
			cut[i] = time.Since(start)
		}()
	}
	// Normal requests are served meanwhile.
	for range 5 {
		res, err := http.Get("http://" + addr + "/healthz")
		if err != nil || res.StatusCode != 200 {
			t.Fatalf("normal request during slowloris: %v %v", err, res)
		}
		res.Body.Close()
	}
	wg.Wait()
	t.Logf("slow-header clients cut off after %v (ReadHeaderTimeout 500ms)", cut)
	for _, d := range cut {
		if d > 3*time.Second {
			t.Errorf("a slow client lasted %v", d)
		}
	}
}

func TestHardenGracefulShutdown(t *testing.T) {
	before := settleGoroutines(runtime.NumGoroutine())
	s := New(Config{Logger: testkit.Quiet(), ShutdownTimeout: 3 * time.Second})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, nil) }()
	var conns []*websocket.Conn
	for range 20 {
		c, _, err := websocket.DefaultDialer.Dial("ws://"+ln.Addr().String()+"/ws", nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		if _, _, err := c.ReadMessage(); err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	// One of them is busy streaming a large
	_ = conns[0].WriteJSON(map[string]any{"v": 2, "type": "edit", "seq": 1, "query": "sizes=2048,2048"})
	start := time.Now()
	cancel()
	if err := <-done; err != nil {
		t.Fatalf("serve: %v", err)
	}
	took := time.Since(start)
	var codes []int
	for _, c := range conns {
		_ = c.SetReadDeadline(time.Now().Add(3 * time.Second))
		for {
			_, _, err := c.ReadMessage()
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				codes = append(codes, ce.Code)
				break
			}
			if err != nil {
				codes = append(codes, -1)
				break
			}
		}
		c.Close()
	}
	leftover := settleGoroutines(before)
	t.Logf("shutdown with 20 sockets took %v; close codes %v; goroutines %d before, %d after", took, codes, before, leftover)
	for _, code := range codes {
		if code != websocket.CloseGoingAway {
			t.Errorf("close codes %v, want all 1001", codes)
			break
		}
	}
	if took > 3*time.Second {
		t.Errorf("shutdown took %v, deadline 3s", took)
	}
	if leftover > before {
		buf := make([]byte, 1<<16)
		t.Errorf("%d goroutines left (%d before):\n%s", leftover, before, buf[:runtime.Stack(buf, true)])
	}
}

func TestHardenNoCompression(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	d := websocket.Dialer{EnableCompression: true}
	c, res, err := d.Dial(wsURL(ts), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if ext := res.Header.Get("Sec-WebSocket-Extensions"); ext != "" {
		t.Errorf("the server negotiated %q; compression must stay off", ext)
	}
}

// TestHardenBodiesThatDoNotArrive: a body declared larger than the limit
// is refused at once, though none of it is sent (net/http would wait to
// read it before answering); one that stalls is answered 408
// body.timeout once the read timeout passes, in the request's language
// and without the transport's error (socket addresses).
func TestHardenBodiesThatDoNotArrive(t *testing.T) {
	addr := serveOnLoopback(t, New(Config{Logger: testkit.Quiet(), ReadTimeout: 400 * time.Millisecond}))
	for _, tc := range []struct {
		name, path, lang string
		length           int
		status           int
		code, word       string
		within           time.Duration
	}{
		{"declared over 64 KiB", "/api/v1/layout", "en", 100_000, 413, "body.large", "65536", 300 * time.Millisecond},
		{"declared over 64 KiB, slice1", "/api/v1/slice1", "en", 70_000, 413, "body.large", "65536", 300 * time.Millisecond},
		{"stalled", "/api/v1/layout", "en", 100, 408, "body.timeout", "in time", 3 * time.Second},
		{"stalled, in French", "/api/v1/slice1", "fr", 100, 408, "body.timeout", "à temps", 3 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("tcp", addr)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			start := time.Now()
			// Only the first byte of the body is sent.
			fmt.Fprintf(c, "POST %s?lang=%s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{", tc.path, tc.lang, tc.length)
			_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
			res, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatalf("no answer: %v", err)
			}
			defer res.Body.Close()
			took := time.Since(start)
			body, _ := io.ReadAll(res.Body)
			if res.StatusCode != tc.status || !strings.Contains(string(body), `"code":"`+tc.code+`"`) || !strings.Contains(string(body), tc.word) {
				t.Errorf("%d %s, want %d %s naming %q", res.StatusCode, body, tc.status, tc.code, tc.word)
			}
			if strings.Contains(string(body), "127.0.0.1") || strings.Contains(string(body), "i/o timeout") {
				t.Errorf("the answer shows the transport's error: %s", body)
			}
			if took > tc.within {
				t.Errorf("answered after %v, want within %v", took, tc.within)
			}
		})
	}
}

// TestHardenDeeplyNestedBodiesAreRefusedQuickly: a body that is nothing
// but brackets, as deep as the body limit allows (2 MiB on the import),
// is a clear 400 at once (413 on the import, which refuses bodies past
// what it can use before decoding them): looking for keys given twice
// once walked it token by token, slower the deeper, for hours.
func TestHardenDeeplyNestedBodiesAreRefusedQuickly(t *testing.T) {
	ts := newTestServer(t)
	for _, tc := range []struct {
		path, field string
		depth       int
		status      int
	}{
		{"/api/v1/layout", "sizes", 32<<10 - 32, http.StatusBadRequest},
		{"/api/v1/import", "onnx", 1<<20 - 32, http.StatusRequestEntityTooLarge},
	} {
		body := `{"` + tc.field + `":` + strings.Repeat("[", tc.depth) + strings.Repeat("]", tc.depth) + `}`
		start := time.Now()
		status, out := post(t, ts, tc.path, body)
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s, %d deep: answered after %v", tc.path, tc.depth, d)
		}
		if status != tc.status || len(errorFields(out)) == 0 {
			t.Errorf("%s, %d deep: %d %v, want a %d saying why", tc.path, tc.depth, status, out, tc.status)
		}
	}
}

// TestHardenOneMistakeManyTimesIsAnsweredBriefly: a body that makes the
// same mistake at thousands of indices is answered with each field's first
// few violations and a count of the rest, not megabytes of them; and a
// body of thousands of unknown fields with at most picture.MaxReported in all.
func TestHardenOneMistakeManyTimesIsAnsweredBriefly(t *testing.T) {
	ts := newTestServer(t)
	repeat := func(item string, n int) string { return strings.TrimSuffix(strings.Repeat(item+",", n), ",") }
	var unknown strings.Builder
	for i := range 3000 {
		fmt.Fprintf(&unknown, `"x%d":1,`, i)
	}
	for _, tc := range []struct {
		name, path, body string
		more             map[string]float64 // field -> the count its errors.more gives
		total            int
	}{
		{"zero sizes and negative strides", "/api/v1/layout", `{"dataType":"FLOAT32","sizes":[` + repeat("0", 5000) + `],"strides":[` + repeat("-1", 5000) + `]}`,
			map[string]float64{"sizes": 5000 + 1 - picture.MaxPerField, "strides": 5000 - picture.MaxPerField}, 2*picture.MaxPerField + 2},
		{"nulls in a list", "/api/v1/layout", `{"dataType":"FLOAT32","sizes":[` + repeat("null", 5000) + `]}`,
			map[string]float64{"sizes": 5000 - picture.MaxPerField}, picture.MaxPerField + 1},
		{"unknown fields", "/api/v1/layout", `{` + unknown.String() + `"sizes":[2]}`, map[string]float64{"": 3000 - picture.MaxReported + 1}, picture.MaxReported},
		// Under the caps nothing is counted away: a 9-entry list's every fault.
		{"nine zero sizes", "/api/v1/layout", `{"dataType":"FLOAT32","sizes":[` + repeat("0", 9) + `]}`, nil, 10},
	} {
		res, err := http.Post(ts.URL+tc.path, "application/json", strings.NewReader(tc.body))
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if len(b) > 32<<10 {
			t.Errorf("%s: an answer of %d bytes", tc.name, len(b))
		}
		var out struct{ Errors []core.Violation }
		if err := json.Unmarshal(b, &out); err != nil {
			t.Fatalf("%s: %v: %s", tc.name, err, b)
		}
		if len(out.Errors) != tc.total {
			t.Errorf("%s: %d errors, want %d", tc.name, len(out.Errors), tc.total)
		}
		more := map[string]float64{}
		for _, v := range out.Errors {
			if strings.HasPrefix(v.Code, "errors.more") {
				var n float64
				if _, err := fmt.Sscan(strings.TrimPrefix(v.Message, v.Field+": "), &n); err != nil {
					t.Errorf("%s: %q gives no count", tc.name, v.Message)
				}
				more[v.Field] = n
			}
		}
		if !maps.Equal(more, tc.more) && !(len(more) == 0 && len(tc.more) == 0) {
			t.Errorf("%s: counted away %v, want %v", tc.name, more, tc.more)
		}
	}
}

// TestHardenAnEditOfManyZerosIsAnsweredBriefly: over the websocket too, an
// edit that makes one mistake at a thousand dimensions gets each field's
// first few errors and a count of the rest, not one per dimension on
// every keystroke.
func TestHardenAnEditOfManyZerosIsAnsweredBriefly(t *testing.T) {
	_, ts := wsServer(t, Config{}, nil)
	c := dial(t, ts, nil)
	sendEdit(t, c, 1, "dt=FLOAT32&sizes="+strings.TrimSuffix(strings.Repeat("0,", 1500), ","))
	got := collect(t, c, 1)
	var sizes, more int
	for _, v := range got.result.Errors {
		if strings.HasPrefix(v.Field, "sizes") {
			sizes++
		}
		if v.Code == "errors.more" {
			more++
		}
	}
	if got.result.OK || sizes > picture.MaxPerField+1 || more != 1 {
		t.Errorf("ok %v, %d errors at sizes, %d counts of the rest: %v", got.result.OK, sizes, more, got.result.Errors)
	}
}
