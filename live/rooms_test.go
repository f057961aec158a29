package live

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/stridescope/stridescope/rooms"
	"github.com/stridescope/stridescope/rooms/natsbus"
	"github.com/stridescope/stridescope/testkit"
)

// roomHub serves sessions of a fresh Hub with a real room replica (NATS
// embedded in the process) over real websockets on loopback, and opens a
// room. Every socket carries the room's join ticket, as a browser that
// has opened /r/CODE does; a socket dialled with ?presenter=1 carries the
// presenter's token too.
func roomHub(t *testing.T) (h *Hub, ts *httptest.Server, code string) {
	t.Helper()
	bus, err := natsbus.NewEmbedded("")
	if err != nil {
		t.Fatal(err)
	}
	replica := rooms.NewReplica(bus, []byte("live test secret"), testkit.Quiet())
	ctx, stop := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() {
		defer close(ran)
		replica.Run(ctx)
	}()
	t.Cleanup(func() { stop(); <-ran; bus.Close() })
	<-replica.Running()
	code, token, err := replica.Create(context.Background(), rooms.State{Page: "layout", Query: "dt=FLOAT32&sizes=2,3"})
	if err != nil {
		t.Fatal(err)
	}
	base, cancel := context.WithCancelCause(context.Background())
	h = &Hub{Log: testkit.Quiet(), Timings: DefaultTimings, Base: base,
		MessagesPerSecond: 40, MessageBurst: 80, Answers: NewAnswers(DefaultAnswerBytes),
		Rooms: func() (*rooms.Replica, error) { return replica, nil }}
	var up websocket.Upgrader
	ts = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		peer := Peer{AddrKey: "127.0.0.1", Tickets: map[string]string{code: replica.Ticket(code)}}
		if r.URL.Query().Get("presenter") == "1" {
			peer.Tokens = map[string]string{code: token}
		}
		c, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		h.NewSession(c, peer).Run()
	}))
	t.Cleanup(ts.Close)
	t.Cleanup(func() { cancel(ErrShuttingDown) })
	return h, ts, code
}

// readRoomMsg reads until the next "room" message and returns it raw.
func readRoomMsg(t *testing.T, c *websocket.Conn) []byte {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		typ, data, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("waiting for a room state: %v", err)
		}
		var head struct{ Type, Code, Message string }
		if typ != websocket.TextMessage || json.Unmarshal(data, &head) != nil {
			continue
		}
		switch head.Type {
		case "room":
			return data
		case "error":
			t.Fatalf("room error %s: %s", head.Code, head.Message)
		}
	}
}

// TestRoomStateEncodedOnceForEveryFollower: followers of a room each get
// every state the presenter shares (none is superseded: the next is
// shared once all have it), as the same bytes with the room's viewer
// count, and the message is encoded once per state, not once per
// follower.
func TestRoomStateEncodedOnceForEveryFollower(t *testing.T) {
	h, ts, code := roomHub(t)
	wsURL := "ws" + strings.TrimPrefix(ts.URL, "http")
	const followers, states = 40, 5
	vs := make([]*websocket.Conn, followers)
	for i := range vs {
		vs[i] = dial(t, ts)
		if err := vs[i].WriteJSON(map[string]any{"v": ProtocolVersion, "type": "follow", "room": code}); err != nil {
			t.Fatal(err)
		}
		readRoomMsg(t, vs[i]) // the room's current state
	}
	p, _, err := websocket.DefaultDialer.Dial(wsURL+"?presenter=1", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if err := p.WriteJSON(map[string]any{"v": ProtocolVersion, "type": "present", "room": code}); err != nil {
		t.Fatal(err)
	}
	// A state carries the room's count when it is shared: wait until
	// every follower is counted (the count follows the joins on the bus).
	replica, _ := h.Rooms()
	for deadline := time.Now().Add(5 * time.Second); replica.Watching(code) != followers; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the room counts %d watching, want %d", replica.Watching(code), followers)
		}
	}
	before := h.roomEncodes.Load()
	for step := 1; step <= states; step++ {
		query := fmt.Sprintf("dt=FLOAT32&sizes=2,%d", 3+step)
		if err := p.WriteJSON(map[string]any{"v": ProtocolVersion, "type": "publish",
			"state": map[string]any{"page": "layout", "query": query, "step": step}}); err != nil {
			t.Fatal(err)
		}
		var first []byte
		for i, v := range vs {
			data := readRoomMsg(t, v)
			var m roomServerMsg
			if err := json.Unmarshal(data, &m); err != nil {
				t.Fatal(err)
			}
			if m.State == nil || m.State.Step != step || m.State.Query != query || m.Room != code || m.Watching != followers {
				t.Fatalf("follower %d: got %s, want step %d (%s) with %d watching", i, data, step, query, followers)
			}
			if first == nil {
				first = data
			} else if !bytes.Equal(data, first) {
				t.Fatalf("follower %d got %s, follower 0 %s", i, data, first)
			}
		}
	}
	if n := h.roomEncodes.Load() - before; n != states {
		t.Errorf("%d states to %d followers were encoded %d times, want %d (once each)", states, followers, n, states)
	}
}
