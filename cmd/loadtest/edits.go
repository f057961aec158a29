package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stridescope/stridescope/live"
)

// editsConfig describes the explorer load: clients that each send edits
// at a steady pace, as people typing would, and wait for each answer.
type editsConfig struct {
	addr    string // http://host:port
	clients int
	edits   int           // per client
	pace    time.Duration // between one client's edits
	timeout time.Duration // an answer later than this is a failure
}

// editsReport is what an edits load run measured.
type editsReport struct {
	clients, sent, answered, failed int
	p50, p99, max                   time.Duration
	elapsed                         time.Duration
	firstErr                        string
}

func (r editsReport) print(w io.Writer) {
	fmt.Fprintf(w, "clients %d, edits sent %d, answered %d (%.2f %%), failures %d, in %v\n",
		r.clients, r.sent, r.answered, 100*float64(r.answered)/float64(max(r.sent, 1)), r.failed, r.elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "edit round trip (send to done): p50 %v, p99 %v, max %v\n",
		r.p50.Round(time.Microsecond), r.p99.Round(time.Microsecond), r.max.Round(time.Microsecond))
	if r.firstErr != "" {
		fmt.Fprintf(w, "first failure: %s\n", r.firstErr)
	}
}

// runEditsMode is `loadtest -mode edits`: against -addr, or an in-process
// server with -self.
func runEditsMode(c config, e editsConfig, out io.Writer) error {
	if e.clients < 1 || e.edits < 1 || e.pace <= 0 || e.timeout <= 0 {
		return fmt.Errorf("need -clients >= 1, -edits >= 1, -pace > 0 and -timeout > 0")
	}
	e.addr = strings.TrimRight(c.addr, "/")
	if c.self {
		addr, stop, err := startServer(e.clients, c.share)
		if err != nil {
			return err
		}
		defer stop()
		e.addr = "http://" + addr
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Duration(e.edits)*e.pace+2*time.Minute)
	defer cancel()
	r, err := runEdits(ctx, e)
	if err != nil {
		return err
	}
	r.print(out)
	if r.failed > 0 {
		return fmt.Errorf("%d edits failed", r.failed)
	}
	return nil
}

// editQueries are small, valid explorer states of the kind a class edits:
// the strides page's examples and their neighbours.
var editQueries = []string{
	"sizes=2,3", "sizes=2,3&strides=1,2", "sizes=2,2,3", "sizes=2,3&strides=0,1",
	"sizes=2,3&strides=5,1", "sizes=1,1,3,5&strides=15,1,5,1", "dt=FLOAT16&sizes=4,4", "sizes=3,4&strides=1,1",
}

// runEdits drives c.clients websockets, each sending c.edits edits c.pace
// apart (starting at random offsets within one pace) and timing each edit
// from send to its "done" (or its error result).
func runEdits(ctx context.Context, c editsConfig) (editsReport, error) {
	ws := "ws" + strings.TrimPrefix(c.addr, "http") + "/ws"
	conns := make([]*websocket.Conn, c.clients)
	dialer := websocket.Dialer{HandshakeTimeout: 10 * time.Second}
	for i := range conns {
		conn, _, err := dialer.DialContext(ctx, ws, nil)
		if err != nil {
			for _, open := range conns[:i] {
				open.Close()
			}
			return editsReport{}, fmt.Errorf("client %d: dial: %w", i, err)
		}
		conns[i] = conn
	}
	defer func() {
		for _, conn := range conns {
			conn.Close()
		}
	}()

	var (
		mu       sync.Mutex
		lat      []time.Duration
		failed   int
		firstErr string
	)
	fail := func(msg string) {
		mu.Lock()
		failed++
		if firstErr == "" {
			firstErr = msg
		}
		mu.Unlock()
	}
	start := time.Now()
	var wg sync.WaitGroup
	for i, conn := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, _, err := conn.ReadMessage(); err != nil { // hello
				fail(fmt.Sprintf("client %d: hello: %v", i, err))
				return
			}
			mine := make([]time.Duration, 0, c.edits)
			next := time.Now().Add(time.Duration(rand.Int64N(int64(c.pace))))
			for seq := 1; seq <= c.edits; seq++ {
				select {
				case <-ctx.Done():
					fail("cancelled")
					return
				case <-time.After(time.Until(next)):
				}
				next = next.Add(c.pace)
				q := editQueries[(i+seq)%len(editQueries)]
				sent := time.Now()
				if err := conn.WriteJSON(map[string]any{"v": live.ProtocolVersion, "type": "edit", "seq": seq, "query": q}); err != nil {
					fail(fmt.Sprintf("client %d edit %d: send: %v", i, seq, err))
					return
				}
				if err := awaitDone(conn, int64(seq), sent.Add(c.timeout)); err != nil {
					fail(fmt.Sprintf("client %d edit %d: %v", i, seq, err))
					return
				}
				mine = append(mine, time.Since(sent))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	r := editsReport{clients: c.clients, sent: c.clients * c.edits, answered: len(lat), failed: failed, firstErr: firstErr,
		elapsed: time.Since(start), p50: quantile(lat, 0.50), p99: quantile(lat, 0.99), max: quantile(lat, 1)}
	return r, nil
}

// awaitDone reads until the answer to seq is complete: "done" after a
// valid edit, or a result that is not ok.
func awaitDone(conn *websocket.Conn, seq int64, deadline time.Time) error {
	_ = conn.SetReadDeadline(deadline)
	for {
		typ, data, err := conn.ReadMessage()
		if err != nil {
			return err
		}
		if typ != websocket.TextMessage {
			continue
		}
		var m struct {
			Type string `json:"type"`
			Seq  int64  `json:"seq"`
			OK   bool   `json:"ok"`
		}
		if err := json.Unmarshal(data, &m); err != nil {
			return fmt.Errorf("bad message: %v", err)
		}
		if m.Seq != seq {
			continue
		}
		switch {
		case m.Type == "done":
			return nil
		case m.Type == "result" && !m.OK:
			return fmt.Errorf("the server refused a valid edit: %s", data)
		case m.Type == "error":
			return fmt.Errorf("error reply: %s", data)
		}
	}
}
