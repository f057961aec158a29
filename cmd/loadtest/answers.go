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
	// restart stops the replica of this index halfway through the
	// window and starts it again on the same address (-1: none): its
	// presenter and students reconnect, following as the same students.
	restart int
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
	restarted      bool
}

func (r answersReport) print(w io.Writer) {
	c := r.cfg
	fmt.Fprintf(w, "answers load test: %d students on %d replicas (one NATS), answering within %v\n", c.students, c.replicas, c.within)
	if r.restarted {
		fmt.Fprintf(w, "  replica %d restarted halfway (0: the presenter's): the sockets on it reconnected, as the same students\n", c.restart)
	}
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

// replicaSet is n servers sharing one NATS server on loopback, as
// replicas behind a load balancer would.
type replicaSet struct {
	url, dir string
	ns       *natsserver.Server
	students int
	addrs    []string // fixed once started: a restart keeps the address
	mu       sync.Mutex
	stops    []func() // under mu: a restart replaces one while the class answers
}

func startReplicas(n, students int) (*replicaSet, error) {
	dir, err := os.MkdirTemp("", "stridescope-loadtest-nats")
	if err != nil {
		return nil, err
	}
	ns, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: -1, NoSigs: true, NoLog: true, JetStream: true, StoreDir: dir})
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	ns.Start()
	rs := &replicaSet{url: ns.ClientURL(), dir: dir, ns: ns, students: students, addrs: make([]string, n), stops: make([]func(), n)}
	if !ns.ReadyForConnections(5 * time.Second) {
		rs.stop()
		return nil, errors.New("nats not ready")
	}
	for i := range n {
		addr, stop, err := rs.start("127.0.0.1:0")
		if err != nil {
			rs.stop()
			return nil, err
		}
		rs.addrs[i], rs.stops[i] = addr, stop
	}
	return rs, nil
}

// start runs a replica on addr and gives its address and how to stop it.
func (rs *replicaSet) start(addr string) (string, func(), error) {
	bus, err := natsbus.New(natsbus.Options{URL: rs.url})
	if err != nil {
		return "", nil, err
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		bus.Close()
		return "", nil, err
	}
	s := web.New(web.Config{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Bus: bus, RoomSecret: []byte("loadtest room secret"),
		Limits: web.Limits{MaxConns: rs.students + 100, MaxConnsPerAddr: rs.students + 100, RequestBurst: rs.students + 100}})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, nil) }()
	return ln.Addr().String(), func() { cancel(); <-done; bus.Close() }, nil
}

// restart stops replica i and starts it again on its address.
func (rs *replicaSet) restart(i int) error {
	rs.mu.Lock()
	stop := rs.stops[i]
	rs.stops[i] = nil
	rs.mu.Unlock()
	if stop != nil {
		stop()
	}
	var err error
	for range 50 { // the port may take a moment to be free again
		_, stop, err = rs.start(rs.addrs[i])
		if err == nil {
			rs.mu.Lock()
			rs.stops[i] = stop
			rs.mu.Unlock()
			return nil
		}
		time.Sleep(100 * time.Millisecond)
	}
	return err
}

func (rs *replicaSet) stop() {
	rs.mu.Lock()
	stops := slices.Clone(rs.stops)
	rs.mu.Unlock()
	for _, s := range slices.Backward(stops) {
		if s != nil {
			s()
		}
	}
	rs.ns.Shutdown()
	os.RemoveAll(rs.dir)
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
	rs, err := startReplicas(a.replicas, a.students)
	if err != nil {
		return r, err
	}
	defer rs.stop()
	code, cookie, err := openRoomWith("http://"+rs.addrs[0], "preset=padded")
	if err != nil {
		return r, err
	}
	ws := func(i int) string { return "ws://" + rs.addrs[i%len(rs.addrs)] + "/ws" }

	// The presenter, on replica 0; the question, asked once.
	presenterHeader := http.Header{"Cookie": {cookie.Name + "=" + cookie.Value}}
	p, err := present(ctx, ws(0), presenterHeader, code)
	if err != nil {
		return r, err
	}
	if err := sendMsg(p, map[string]any{"type": "question", "action": "ask", "ask": map[string]any{"kind": "cell", "element": []int{1, 2}}}); err != nil {
		p.Close()
		return r, err
	}
	qid, err := readTally(p)
	if err != nil {
		p.Close()
		return r, err
	}

	// The students, dialled 50 at a time, each on replica i % replicas,
	// following until they see the question.
	students := make([]*student, a.students)
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
			st := &student{url: ws(i), code: code, qid: qid}
			err := st.follow()
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				dialErr = errors.Join(dialErr, err)
				return
			}
			students[i] = st
		}()
	}
	wg.Wait()
	defer func() {
		for _, st := range students {
			if st != nil {
				st.close()
			}
		}
	}()
	if dialErr != nil {
		p.Close()
		return r, fmt.Errorf("students: %w", dialErr)
	}

	// The presenter's tallies, as they come: across a restart of its
	// replica, it presents again and reads on.
	tallies := make(chan tallySeen, 4096)
	readerDone := make(chan struct{})
	var pmu sync.Mutex
	rctx, stopReader := context.WithCancel(ctx)
	go func() {
		defer close(readerDone)
		defer close(tallies)
		for rctx.Err() == nil {
			pmu.Lock()
			c := p
			pmu.Unlock()
			_, data, err := c.ReadMessage()
			if err != nil {
				c.Close()
				np, err := redial(rctx, func() (*websocket.Conn, error) { return present(rctx, ws(0), presenterHeader, code) })
				if err != nil {
					return
				}
				pmu.Lock()
				p = np
				pmu.Unlock()
				continue
			}
			var m tallyMsg
			if json.Unmarshal(data, &m) != nil || m.Type != "tally" || m.Tally == nil {
				continue
			}
			s := tallySeen{at: time.Now(), answered: m.Tally.Answered, counts: map[int64]int{}}
			for _, c := range m.Tally.Counts {
				s.counts[c.Value] = c.N
			}
			select {
			case tallies <- s:
			case <-rctx.Done():
				return
			}
		}
	}()
	defer func() {
		stopReader()
		pmu.Lock()
		p.Close()
		pmu.Unlock()
		<-readerDone
	}()

	// The restart is over before the replicas stop (defers run last
	// first).
	var restarting sync.WaitGroup
	defer restarting.Wait()
	if a.restart >= 0 && a.restart < a.replicas {
		restarting.Add(1)
		go func() {
			defer restarting.Done()
			time.Sleep(a.within / 2)
			if err := rs.restart(a.restart); err == nil {
				mu.Lock()
				r.restarted = true
				mu.Unlock()
			}
		}()
	}

	// Each student answers once at a random moment within the window: a
	// third the packed layout's 5, the others 7.
	sentAt := make([]time.Time, a.students)
	want := map[int64]int{}
	refused := 0
	start := time.Now()
	for i, st := range students {
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
			if err := st.answer(ctx, value); err != nil {
				mu.Lock()
				refused++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	mu.Lock()
	r.sent, r.refusedAnswers = a.students, refused
	mu.Unlock()

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

func sendMsg(c *websocket.Conn, m map[string]any) error {
	m["v"] = live.ProtocolVersion
	return c.WriteJSON(m)
}

// present dials the presenter's socket and presents the room.
func present(ctx context.Context, url string, h http.Header, code string) (*websocket.Conn, error) {
	p, _, err := websocket.DefaultDialer.DialContext(ctx, url, h)
	if err != nil {
		return nil, fmt.Errorf("presenter: %w", err)
	}
	if err := sendMsg(p, map[string]any{"type": "present", "room": code}); err != nil {
		p.Close()
		return nil, err
	}
	if _, err := readUntil(p, "presenting", 10*time.Second); err != nil {
		p.Close()
		return nil, fmt.Errorf("presenter: %w", err)
	}
	return p, nil
}

// redial tries dial every 200 ms for 20 s: a replica restarting.
func redial(ctx context.Context, dial func() (*websocket.Conn, error)) (*websocket.Conn, error) {
	deadline := time.Now().Add(20 * time.Second)
	for {
		c, err := dial()
		if err == nil || time.Now().After(deadline) || ctx.Err() != nil {
			return c, err
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// student is one scripted student: its socket, and the token that makes
// it the same student after a reconnect.
type student struct {
	url, code, qid, token string
	conn                  *websocket.Conn
}

// follow follows the room, as the same student if it has a token, until
// its state asks the question.
func (st *student) follow() error {
	conn, _, err := viewerDialer.Dial(st.url, nil)
	if err != nil {
		return err
	}
	m := map[string]any{"type": "follow", "room": st.code}
	if st.token != "" {
		m["student"] = st.token
	}
	if err := sendMsg(conn, m); err != nil {
		conn.Close()
		return err
	}
	_ = conn.SetReadDeadline(time.Now().Add(30 * time.Second))
	defer conn.SetReadDeadline(time.Time{})
	asked := false
	for !asked || st.token == "" {
		_, data, err := conn.ReadMessage()
		if err != nil {
			conn.Close()
			return err
		}
		var msg struct {
			Type    string
			Student string
			State   struct{ Question *struct{ ID string } }
		}
		if json.Unmarshal(data, &msg) != nil {
			continue
		}
		switch msg.Type {
		case "student":
			st.token = msg.Student
		case "room":
			asked = asked || (msg.State.Question != nil && msg.State.Question.ID == st.qid)
		}
	}
	st.conn = conn
	return nil
}

// answer sends the answer until it is taken, following again (as the same
// student) when the socket drops.
func (st *student) answer(ctx context.Context, value int64) error {
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := sendMsg(st.conn, map[string]any{"type": "answer", "question": st.qid, "value": value})
		if err == nil {
			var m roomMsg
			m, err = readUntil(st.conn, "answered", 10*time.Second)
			if err == nil {
				return nil
			}
			if m.Code == "answer-refused" && !strings.Contains(err.Error(), "reconnecting") && !strings.Contains(err.Error(), "room service") {
				return err // refused for good
			}
		}
		if time.Now().After(deadline) || ctx.Err() != nil {
			return err
		}
		st.conn.Close()
		time.Sleep(200 * time.Millisecond)
		for st.follow() != nil {
			if time.Now().After(deadline) {
				return errors.New("could not follow again")
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
}

func (st *student) close() {
	if st.conn != nil {
		st.conn.Close()
	}
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
