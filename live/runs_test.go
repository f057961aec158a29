package live

import (
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// expandRuns is what a page does with a frame of EncodingRuns: the
// bitmap's words back from its runs.
func expandRuns(t *testing.T, p []byte) []uint64 {
	t.Helper()
	if len(p) < 4 || (len(p)-4)%8 != 0 {
		t.Fatalf("a runs payload of %d bytes", len(p))
	}
	words := make([]uint64, binary.LittleEndian.Uint32(p))
	for p = p[4:]; len(p) > 0; p = p[8:] {
		s, n := binary.LittleEndian.Uint32(p), binary.LittleEndian.Uint32(p[4:])
		if n == 0 || int(s)+int(n) > 64*len(words) {
			t.Fatalf("run (%d, %d) outside %d words", s, n, len(words))
		}
		for k := s; k < s+n; k++ {
			words[k/64] |= 1 << (k % 64)
		}
	}
	return words
}

func bitmapOf(n int, set func(k int) bool) []uint64 {
	w := make([]uint64, (n+63)/64)
	for k := range n {
		if set(k) {
			w[k/64] |= 1 << (k % 64)
		}
	}
	return w
}

func TestRunsExpandToTheBitmap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		name    string
		words   []uint64
		smaller bool // the runs are smaller than the raw words
		runs    int  // how many (-1: not counted)
	}{
		{"empty", bitmapOf(4096, func(int) bool { return false }), true, 0},
		{"packed", bitmapOf(4095*4096, func(int) bool { return true }), true, 1},
		{"packed, a ragged end", bitmapOf(1000, func(int) bool { return true }), true, 1},
		{"padded rows", bitmapOf(64*4097, func(k int) bool { return k%4097 < 4096 }), true, 64},
		{"rows of 3 in 5 across words", bitmapOf(5*200, func(k int) bool { return k%5 < 3 }), false, 200},
		{"one bit a word's last", bitmapOf(64*9, func(k int) bool { return k%64 == 63 }), false, 9},
		{"runs across a word's end", bitmapOf(64*9, func(k int) bool { return k%64 >= 60 || k%64 < 4 }), false, 10},
		{"every other bit", bitmapOf(64*32, func(k int) bool { return k%2 == 0 }), false, 1024},
		{"random", bitmapOf(64*64, func(int) bool { return rng.IntN(2) == 0 }), false, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			raw := 8 * len(c.words)
			p, ok := appendRuns(nil, c.words, raw)
			if ok != c.smaller {
				t.Fatalf("smaller = %v, want %v (%d bytes of runs for %d raw)", ok, c.smaller, len(p), raw)
			}
			if ok && len(p) >= raw {
				t.Errorf("%d bytes of runs for %d raw", len(p), raw)
			}
			// Without a limit, the runs of any bitmap expand to it.
			p, ok = appendRuns(nil, c.words, 1<<30)
			if !ok {
				t.Fatal("no runs under no limit")
			}
			if got := (len(p) - 4) / 8; c.runs >= 0 && got != c.runs {
				t.Errorf("%d runs, want %d", got, c.runs)
			}
			if got := expandRuns(t, p); !slices.Equal(got, c.words) {
				t.Error("the runs do not expand to the bitmap")
			}
		})
	}
}

// TestWSBitmapFramesAsRuns: over a real websocket, a page that asks for
// runs gets the same bitmap as one that does not, in fewer bytes, and a
// bitmap runs cannot shrink comes raw to both.
func TestWSBitmapFramesAsRuns(t *testing.T) {
	_, ts := hubServer(t)
	for _, c := range []struct {
		name, query string
		runs        bool // sent as runs when asked
	}{
		{"packed 1024x1024", "dt=FLOAT32&sizes=1024,1024", true},
		{"padded rows", "dt=FLOAT32&sizes=300,300&strides=301,1", true},
		{"every other cell", "dt=FLOAT32&sizes=300,300&strides=600,2", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got [2][]uint64
			var bytes [2]int
			for i, frames := range []string{"", "runs"} {
				conn := dial(t, ts)
				msg := map[string]any{"v": ProtocolVersion, "type": "edit", "seq": 1, "query": c.query}
				if frames != "" {
					msg["frames"] = frames
				}
				if err := conn.WriteJSON(msg); err != nil {
					t.Fatal(err)
				}
				got[i], bytes[i] = readTouched(t, conn, c.runs && frames == "runs")
				conn.Close()
			}
			if !slices.Equal(got[0], got[1]) {
				t.Fatal("the bitmap read as runs differs from the raw one")
			}
			if c.runs && bytes[1] >= bytes[0]/4 {
				t.Errorf("runs took %d bytes, raw %d", bytes[1], bytes[0])
			}
			if !c.runs && bytes[1] != bytes[0] {
				t.Errorf("a bitmap runs cannot shrink took %d bytes, raw %d", bytes[1], bytes[0])
			}
		})
	}
}

// readTouched reads edit 1's touched frames until its done, expanding
// runs, and says how many bytes the frames' payloads took.
func readTouched(t *testing.T, c *websocket.Conn, wantRuns bool) ([]uint64, int) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(20 * time.Second))
	var words []uint64
	n := 0
	for {
		typ, data, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		if typ == websocket.TextMessage {
			var m struct{ Type, Message string }
			_ = json.Unmarshal(data, &m)
			switch m.Type {
			case "done":
				return words, n
			case "error":
				t.Fatal(m.Message)
			}
			continue
		}
		if data[0] != FrameTouched {
			t.Fatalf("a frame of kind %d", data[0])
		}
		first := binary.LittleEndian.Uint64(data[16:])
		p := data[FrameHeaderLen:]
		n += len(p)
		var ws []uint64
		switch enc := data[2]; {
		case enc == EncodingRuns && wantRuns:
			ws = expandRuns(t, p)
		case enc == EncodingRaw && !wantRuns:
			for ; len(p) >= 8; p = p[8:] {
				ws = append(ws, binary.LittleEndian.Uint64(p))
			}
		default:
			t.Fatalf("encoding %d, want runs: %v", enc, wantRuns)
		}
		if int(first) != len(words) {
			t.Fatalf("a frame at word %d after %d words", first, len(words))
		}
		words = append(words, ws...)
	}
}

func TestEditFramesMustBeRunsOrLeftOut(t *testing.T) {
	_, problem := decodeClientMsg([]byte(`{"v":2,"type":"edit","seq":1,"query":"sizes=2","frames":"gzip"}`))
	if !strings.Contains(problem, "frames") {
		t.Errorf("frames=gzip: problem %q, want one naming frames", problem)
	}
	if _, problem := decodeClientMsg([]byte(`{"v":2,"type":"edit","seq":1,"query":"sizes=2","frames":"runs"}`)); problem != "" {
		t.Errorf("frames=runs: %s", problem)
	}
}
