package main

// -mode answers: a class answers a room question (docs/protocol.md,
// "Questions"). The presenter, on the first replica, asks which buffer
// cell holds element (1,2) on the padded preset; -students students,
// spread over -replicas replicas that share one NATS server, answer
// once each at a random moment within -within; the run checks that the
// presenter's tally counts every answer exactly once, with the values
// sent, and measures how long the presenter's view took to count each
// answer (from the answer's send to the first tally that counts as many
// answers as had been sent by then).

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	natsserver "github.com/nats-io/nats-server/v2/server"

	"github.com/stridescope/stridescope/live"
	"github.com/stridescope/stridescope/rooms/natsbus"
	"github.com/stridescope/stridescope/web"
)

type answersConfig struct {
	students int
	replicas int
	within   time.Duration
}

type answersReport struct {
	cfg            answersConfig
	sent, counted  int
	exact          bool // every value counted as many times as sent
	p50, p99, max  time.Duration
	elapsed        time.Duration // first answer sent to the tally counting all
	loadBefore     string
	loadAfter      string
	refusedAnswers int
}

func (r answersReport) print(w io.Writer) {
	c := r.cfg
	fmt.Fprintf(w, "answers load test: %d students on %d replicas (one NATS), answering within %v\n", c.students, c.replicas, c.within)
	fmt.Fprintf(w, "  sent %d answers (%d refused); the presenter's tally counted %d; each value exactly as sent: %v\n", r.sent, r.refusedAnswers, r.counted, r.exact)
	fmt.Fprintf(w, "  the presenter's view counted each answer: p50 %v, p99 %v, max %v; all counted %v after the first was sent\n",
		r.p50.Round(100*time.Microsecond), r.p99.Round(100*time.Microsecond), r.max.Round(100*time.Microsecond), r.elapsed.Round(time.Millisecond))
	fmt.Fprintf(w, "  load average before: %s; after: %s\n", r.loadBefore, r.loadAfter)
}

func runAnswersMode(a answersConfig, out io.Writer) error {
	if a.students < 1 || a.replicas < 1 || a.within <= 0 {
		return errors.New("need -students >= 1, -replicas >= 1 and -within > 0")
	}
	ctx, cancel := context.WithTimeout(context.Background(), a.within+2*time.Minute)
	defer cancel()
	r, err := loadAnswers(ctx, a)
	if err != nil {
		return err
	}
	r.print(out)
	return nil
}

// loadAvg is the first three fields of /proc/loadavg, or "n/a".
func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "n/a"
	}
	f := strings.Fields(string(b))
	return strings.Join(f[:min(3, len(f))], " ")
}

// startReplicas runs a NATS server on loopback and n servers sharing it,
// as replicas behind a load balancer would.
func startReplicas(n, students int) (addrs []string, stop func(), err error) {
	dir, err := os.MkdirTemp("", "stridescope-loadtest-nats")
	if err != nil {
		return nil, nil, err
	}
	ns, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: -1, NoSigs: true, NoLog: true, JetStream: true, StoreDir: dir})
	if err != nil {
		os.RemoveAll(dir)
		return nil, nil, err
	}
	ns.Start()
	var stops []func()
	stop = func() {
		for _, s := range slices.Backward(stops) {
			s()
		}
		ns.Shutdown()
		os.RemoveAll(dir)
	}
	if !ns.ReadyForConnections(5 * time.Second) {
		stop()
		return nil, nil, errors.New("nats not ready")
	}
	secret := []byte("loadtest room secret")
	for range n {
		bus, err := natsbus.New(natsbus.Options{URL: ns.ClientURL()})
		if err != nil {
			stop()
			return nil, nil, err
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			bus.Close()
			stop()
			return nil, nil, err
		}
		s := web.New(web.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Bus: bus, RoomSecret: secret,
			Limits: web.Limits{MaxConns: students + 100, MaxConnsPerAddr: students + 100, RequestBurst: students + 100}})
		sctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() { done <- s.Serve(sctx, ln, nil) }()
		stops = append(stops, func() { cancel(); <-done; bus.Close() })
		addrs = append(addrs, ln.Addr().String())
	}
	return addrs, stop, nil
}

// tallyMsg is the part of the presenter's "tally" the run reads.
type tallyMsg struct {
	Type     string `json:"type"`
	Question *struct {
		ID string `json:"id"`
	} `json:"question"`
	Tally *struct {
		Answered int `json:"answered"`
		Counts   []struct {
			Value int64 `json:"value"`
			N     int   `json:"n"`
		} `json:"counts"`
	} `json:"tally"`
}

type tallySeen struct {
	at       time.Time
	answered int
	counts   map[int64]int
}

func loadAnswers(ctx context.Context, a answersConfig) (answersReport, error) {
	r := answersReport{cfg: a, loadBefore: loadAvg()}
	addrs, stop, err := startReplicas(a.replicas, a.students)
	if err != nil {
		return r, err
	}
	defer stop()
	bases := make([]string, len(addrs))
	for i, addr := range addrs {
		bases[i] = "http://" + addr
	}
	code, cookie, err := openRoomWith(bases[0], "preset=padded")
	if err != nil {
		return r, err
	}
	ws := func(i int) string { return "ws://" + addrs[i%len(addrs)] + "/ws" }

	p, _, err := websocket.DefaultDialer.DialContext(ctx, ws(0), http.Header{"Cookie": {cookie.Name + "=" + cookie.Value}})
	if err != nil {
		return r, fmt.Errorf("presenter: %w", err)
	}
	defer p.Close()
	send := func(c *websocket.Conn, m map[string]any) error { m["v"] = live.ProtocolVersion; return c.WriteJSON(m) }
	if err := send(p, map[string]any{"type": "present", "room": code}); err != nil {
		return r, err
	}
	if _, err := readUntil(p, "presenting", 10*time.Second); err != nil {
		return r, fmt.Errorf("presenter: %w", err)
	}
	if err := send(p, map[string]any{"type": "question", "action": "ask", "ask": map[string]any{"kind": "cell", "element": []int{1, 2}}}); err != nil {
		return r, err
	}
	qid, err := readTally(p)
	if err != nil {
		return r, err
	}

	// The students, dialled 50 at a time, each on replica i % replicas,
	// following until they see the question.
	students := make([]*websocket.Conn, a.students)
	var mu sync.Mutex
	var wg sync.WaitGroup
	var dialErr error
	sem := make(chan struct{}, 50)
	for i := range students {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			c, err := followQuestion(ws(i), code, qid)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				dialErr = errors.Join(dialErr, err)
				return
			}
			students[i] = c
		}()
	}
	wg.Wait()
	defer func() {
		for _, c := range students {
			if c != nil {
				c.Close()
			}
		}
	}()
	if dialErr != nil {
		return r, fmt.Errorf("students: %w", dialErr)
	}

	// The presenter's tallies, as they come.
	tallies := make(chan tallySeen, 4096)
	go func() {
		defer close(tallies)
		for {
			_, data, err := p.ReadMessage()
			if err != nil {
				return
			}
			var m tallyMsg
			if json.Unmarshal(data, &m) != nil || m.Type != "tally" || m.Tally == nil {
				continue
			}
			s := tallySeen{at: time.Now(), answered: m.Tally.Answered, counts: map[int64]int{}}
			for _, c := range m.Tally.Counts {
				s.counts[c.Value] = c.N
			}
			tallies <- s
		}
	}()

	// Each student answers once at a random moment within the window: a
	// third the packed layout's 5, the others 7.
	sentAt := make([]time.Time, a.students)
	want := map[int64]int{}
	refused := 0
	start := time.Now()
	for i, c := range students {
		value := int64(7)
		if i%3 == 0 {
			value = 5
		}
		want[value]++
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(rand.N(a.within))
			mu.Lock()
			sentAt[i] = time.Now()
			mu.Unlock()
			if send(c, map[string]any{"type": "answer", "question": qid, "value": value}) != nil {
				return
			}
			if _, err := readUntil(c, "answered", 10*time.Second); err != nil {
				mu.Lock()
				refused++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	r.sent, r.refusedAnswers = a.students, refused

	var seen []tallySeen
	deadline := time.After(30 * time.Second)
wait:
	for {
		select {
		case s, ok := <-tallies:
			if !ok {
				break wait
			}
			seen = append(seen, s)
			if s.answered >= a.students-refused {
				break wait
			}
		case <-deadline:
			break wait
		}
	}
	if len(seen) == 0 {
		return r, errors.New("the presenter saw no tally")
	}
	last := seen[len(seen)-1]
	r.counted, r.exact = last.answered, maps(last.counts, want)
	r.loadAfter = loadAvg()

	// The i-th answer sent is counted by the first tally with more than i.
	slices.SortFunc(sentAt, func(x, y time.Time) int { return x.Compare(y) })
	var lat []time.Duration
	j := 0
	for i, t := range sentAt {
		for j < len(seen) && seen[j].answered < i+1 {
			j++
		}
		if j == len(seen) {
			break
		}
		lat = append(lat, max(0, seen[j].at.Sub(t)))
	}
	if len(lat) > 0 {
		r.p50, r.p99, r.max = quantile(lat, .5), quantile(lat, .99), slices.Max(lat)
	}
	r.elapsed = last.at.Sub(start)
	if first := sentAt[0]; !first.IsZero() {
		r.elapsed = last.at.Sub(first)
	}
	return r, nil
}

// maps reports whether got has exactly want's counts.
func maps(got, want map[int64]int) bool {
	if len(got) != len(want) {
		return false
	}
	for k, v := range want {
		if got[k] != v {
			return false
		}
	}
	return true
}

// readTally reads the presenter's messages until a tally with a question,
// and returns the question's id.
func readTally(c *websocket.Conn) (string, error) {
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	defer c.SetReadDeadline(time.Time{})
	for {
		_, data, err := c.ReadMessage()
		if err != nil {
			return "", fmt.Errorf("the question's tally: %w", err)
		}
		var m tallyMsg
		if json.Unmarshal(data, &m) == nil && m.Type == "tally" && m.Question != nil {
			return m.Question.ID, nil
		}
		if messageType(data) == "error" {
			return "", fmt.Errorf("asking: %s", data)
		}
	}
}

// followQuestion follows the room on wsURL until its state asks qid.
func followQuestion(wsURL, code, qid string) (*websocket.Conn, error) {
	conn, _, err := viewerDialer.Dial(wsURL, nil)
	if err != nil {
		return nil, err
	}
	if err := conn.WriteJSON(map[string]any{"v": live.ProtocolVersion, "type": "follow", "room": code}); err != nil {
		conn.Close()
		return nil, err
	}
	for {
		m, err := readUntil(conn, "room", 30*time.Second)
		if err != nil {
			conn.Close()
			return nil, err
		}
		if m.State.Question != nil && m.State.Question.ID == qid {
			return conn, nil
		}
	}
}
