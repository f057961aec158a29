package live

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stridescope/stridescope/ops/layout"
	"github.com/stridescope/stridescope/testkit"

	"github.com/gorilla/websocket"

	"github.com/stridescope/stridescope/rooms"
)

// hubServer serves sessions of a fresh Hub over a real websocket on
// loopback, with no rooms.
func hubServer(t *testing.T) (*Hub, *httptest.Server) {
	t.Helper()
	base, cancel := context.WithCancelCause(context.Background())
	h := &Hub{Log: testkit.Quiet(), Timings: DefaultTimings, Base: base,
		MessagesPerSecond: 40, MessageBurst: 80, Answers: NewAnswers(DefaultAnswerBytes),
		Rooms: func() (*rooms.Replica, error) { return nil, errors.New("no rooms in this test") }}
	var up websocket.Upgrader
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		h.NewSession(c, Peer{AddrKey: "127.0.0.1"}).Run()
	}))
	t.Cleanup(ts.Close)
	t.Cleanup(func() { cancel(ErrShuttingDown) })
	return h, ts
}

// dial opens a session and reads its hello.
func dial(t *testing.T, ts *httptest.Server) *websocket.Conn {
	t.Helper()
	c, _ := testkit.Session(t, "ws"+strings.TrimPrefix(ts.URL, "http"), nil)
	return c
}

func sendEdit(t *testing.T, c *websocket.Conn, seq int64, query string) {
	t.Helper()
	if err := c.WriteJSON(map[string]any{"v": 2, "type": "edit", "seq": seq, "query": query}); err != nil {
		t.Fatal(err)
	}
}

// resultOf reads until the result of edit seq.
func resultOf(t *testing.T, c *websocket.Conn, seq int64) layout.Result {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	for {
		typ, data, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		var m layout.Result
		if typ == websocket.TextMessage && json.Unmarshal(data, &m) == nil && m.Type == "result" && m.Seq == seq {
			return m
		}
	}
}

func TestHardenHugeTensorsRefusedAtOnce(t *testing.T) {
	h := &Hub{}
	queries := []string{
		"sizes=1048576,1048576",                                     // 2^40 elements
		"sizes=65536,65536,65536,65536,65536,65536,65536,65536",     // 2^128
		"sizes=4294967295,4294967295&strides=4294967295,4294967295", // strides near 2^32
		"sizes=2,3&strides=4294967296,1",                            // a stride past UINT
	}
	for _, q := range queries {
		var ms0, ms1 runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms0)
		start := time.Now()
		var frames int
		err := h.runEdit(context.Background(), clientMsg{V: ProtocolVersion, Type: "edit", Seq: 1, Query: q}, func(f frame) error {
			frames++
			var m layout.Result
			if json.Unmarshal(f.data, &m) != nil || m.OK || len(m.Errors) == 0 {
				t.Errorf("%s: want a refusal, got %s", q, f.data)
			}
			return nil
		})
		took := time.Since(start)
		runtime.ReadMemStats(&ms1)
		if err != nil || frames != 1 {
			t.Fatalf("%s: err %v, %d frames", q, err, frames)
		}
		alloc := ms1.TotalAlloc - ms0.TotalAlloc
		t.Logf("%-60s refused in %v, %d bytes allocated", q, took, alloc)
		// Bounds far above the measured figures (tens of µs, tens of KB):
		// enumerating would take seconds and gigabytes.
		if alloc > 1<<20 {
			t.Errorf("%s: allocated %d bytes", q, alloc)
		}
		if took > 100*time.Millisecond {
			t.Errorf("%s: took %v", q, took)
		}
	}
}

func TestHardenPanicClosesOnlyThatConnection(t *testing.T) {
	h, ts := hubServer(t)
	h.editHook = func(m clientMsg) {
		if strings.Contains(m.Query, "boom") {
			panic("test panic")
		}
	}
	victim := dial(t, ts)
	bystander := dial(t, ts)
	sendEdit(t, victim, 1, "sizes=2,3&boom=1")
	_ = victim.SetReadDeadline(time.Now().Add(5 * time.Second))
	var code int
	for {
		_, _, err := victim.ReadMessage()
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			code = ce.Code
			break
		}
		if err != nil {
			t.Fatalf("victim: %v, want a close frame", err)
		}
	}
	t.Logf("the panicking connection closed with %d", code)
	if code != websocket.CloseInternalServerErr {
		t.Errorf("close code %d, want 1011", code)
	}
	sendEdit(t, bystander, 1, "sizes=2,3")
	if got := resultOf(t, bystander, 1); !got.OK {
		t.Errorf("the other connection broke: %+v", got)
	}
}

// TestWSSessionsShareAnswers: sessions asking the same query get the same
// answer, computed once; different queries and pages are not confused.
func TestWSSessionsShareAnswers(t *testing.T) {
	h, ts := hubServer(t)
	edit := func(c *websocket.Conn, seq int64, page, query string) [][]byte {
		t.Helper()
		if err := c.WriteJSON(map[string]any{"v": 2, "type": "edit", "seq": seq, "page": page, "query": query}); err != nil {
			t.Fatal(err)
		}
		return readAnswer(t, c, seq)
	}
	cases := []struct {
		name, page, query string
		frames            int // at least
	}{
		{"layout", "", "dt=FLOAT32&sizes=2,3&strides=5,1", 2},
		{"canvases and binary frames", "", "dt=FLOAT32&sizes=64,128", 3},
		{"invalid: an error at its field", "", "dt=FLOAT32&sizes=2,3&strides=0,-1", 1},
		{"slice", "slice", "dt=FLOAT32&sizes=4,4&np=x%5B1%3A3%2C+%3A%3A-2%5D", 2},
		{"slice canvases", "slice", "dt=FLOAT32&sizes=100,100&np=x%5B10%3A90%2C+%3A%3A-2%5D", 4},
	}
	a, b := dial(t, ts), dial(t, ts)
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := h.Answers.computed.Load()
			first := edit(a, int64(10+i), tc.page, tc.query)
			second := edit(b, int64(100+i), tc.page, tc.query)
			if len(first) < tc.frames || len(first) != len(second) {
				t.Fatalf("%d frames, then %d; want at least %d", len(first), len(second), tc.frames)
			}
			for k := range first {
				if !bytes.Equal(first[k], second[k]) {
					t.Errorf("frame %d differs:\n%.300s\n%.300s", k, first[k], second[k])
				}
			}
			if n := h.Answers.computed.Load() - before; n != 1 {
				t.Errorf("computed %d times for two sessions, want once", n)
			}
		})
	}
	// A page named "layout" or not named at all is the layout explorer.
	before := h.Answers.computed.Load()
	named, unnamed := edit(a, 60, "layout", "dt=FLOAT32&sizes=3,5"), edit(b, 61, "", "dt=FLOAT32&sizes=3,5")
	if n := h.Answers.computed.Load() - before; n != 1 || !bytes.Equal(named[0], unnamed[0]) {
		t.Errorf("page \"layout\" and no page: computed %d times, want once, with one answer", n)
	}
	// The layout and slice explorers' answers to one query differ.
	la, sl := edit(a, 50, "", "dt=FLOAT32&sizes=4,4"), edit(b, 51, "slice", "dt=FLOAT32&sizes=4,4")
	if bytes.Equal(la[0], sl[0]) {
		t.Error("the slice explorer got the layout explorer's answer")
	}
}
