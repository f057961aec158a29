// Command loadtest measures a classroom room: one presenter shares a state
// -rate times a second for -duration while -viewers viewers follow over
// websockets, and it reports how many states reached the viewers and how
// long they took (publish to viewer, p50 and p99).
//
//	go run ./cmd/loadtest -self                          # an in-process server
//	go run ./cmd/loadtest -addr http://127.0.0.1:8080    # a running one
//
// With -mode answers, -students students on -replicas in-process replicas
// (one NATS) answer a room question within -within, and it reports whether
// every answer was counted exactly once and how fast the presenter's
// view counted them (p50, p99), with the load average beside them:
//
//	go run ./cmd/loadtest -mode answers -students 1000 -replicas 2
//
// With -mode edits it instead drives -clients explorer sessions that each
// send -edits edits -pace apart, and reports answers, p50 and p99:
//
//	go run ./cmd/loadtest -self -mode edits -clients 500 -edits 100
//
// Viewers get only the latest state when they fall behind, so delivery
// below 100 % means skipped intermediate states, not lost final ones: the
// final state must reach every viewer. -slow viewers read one message a
// second, to show that they slow nobody else down; -apply makes every
// viewer send each state back as an edit, as the page does, and measures
// publish to computed result.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gorilla/websocket"

	"github.com/stridescope/stridescope/live"
	"github.com/stridescope/stridescope/rooms"
	"github.com/stridescope/stridescope/web"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "loadtest:", err)
		os.Exit(1)
	}
}

type config struct {
	addr     string
	viewers  int
	slow     int
	rate     float64
	duration time.Duration
	self     bool
	apply    bool
	share    bool
}

func run(args []string, out io.Writer) (err error) {
	fs := flag.NewFlagSet("loadtest", flag.ContinueOnError)
	var c config
	fs.StringVar(&c.addr, "addr", "http://127.0.0.1:8080", "the server to load (ignored with -self)")
	fs.IntVar(&c.viewers, "viewers", 500, "viewers following the room")
	fs.IntVar(&c.slow, "slow", 0, "how many of the viewers read only one message a second")
	fs.Float64Var(&c.rate, "rate", 20, "states the presenter shares per second")
	fs.DurationVar(&c.duration, "duration", 10*time.Second, "how long the presenter shares")
	fs.BoolVar(&c.self, "self", false, "start a server in this process (embedded NATS) and load it")
	fs.BoolVar(&c.apply, "apply", false, "viewers send each state back as an edit and wait for the result, like the page")
	mode := fs.String("mode", "room", "room: a presenter and followers; edits: -clients each sending -edits paced edits; answers: -students answering a room question on -replicas replicas")
	var a answersConfig
	fs.IntVar(&a.students, "students", 30, "answers mode: students answering")
	fs.IntVar(&a.replicas, "replicas", 2, "answers mode: replicas sharing one NATS server, in this process")
	fs.DurationVar(&a.within, "within", 10*time.Second, "answers mode: every student answers at a random moment within this")
	fs.IntVar(&a.restart, "restart", -1, "answers mode: restart this replica (0: the presenter's) halfway through -within; -1: none")
	var e editsConfig
	fs.IntVar(&e.clients, "clients", 500, "edits mode: websocket clients")
	fs.IntVar(&e.edits, "edits", 100, "edits mode: edits per client")
	fs.DurationVar(&e.pace, "pace", 500*time.Millisecond, "edits mode: time between one client's edits")
	fs.DurationVar(&e.timeout, "timeout", 10*time.Second, "edits mode: an answer later than this is a failure")
	fs.BoolVar(&c.share, "share", true, "with -self: sessions share the answers to identical edits, as the server does by default; -share=false computes every edit (edits mode's clients cycle through eight states, so sharing answers most of them)")
	cpuProfile := fs.String("cpuprofile", "", "write a CPU profile of this process (with -self: the server too) to this file")
	mutexProfile := fs.String("mutexprofile", "", "write a mutex contention profile of this process to this file")
	blockProfile := fs.String("blockprofile", "", "write a blocking profile of this process to this file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	stopProfiles, err := startProfiles(*cpuProfile, *mutexProfile, *blockProfile)
	if err != nil {
		return err
	}
	defer func() {
		if perr := stopProfiles(); perr != nil && err == nil {
			err = perr
		}
	}()
	switch *mode {
	case "room":
	case "edits":
		return runEditsMode(c, e, out)
	case "answers":
		return runAnswersMode(a, out)
	default:
		return fmt.Errorf("-mode %q: want room, edits or answers", *mode)
	}
	if c.viewers < 1 || c.slow < 0 || c.slow > c.viewers || c.rate <= 0 || c.duration <= 0 {
		return errors.New("need -viewers >= 1, 0 <= -slow <= -viewers, -rate > 0 and -duration > 0")
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.duration+2*time.Minute)
	defer cancel()
	r, err := loadtest(ctx, c)
	if err != nil {
		return err
	}
	r.print(out)
	return nil
}

// startProfiles starts the profiles asked for; stop writes them.
func startProfiles(cpu, mutex, block string) (stop func() error, err error) {
	var cpuFile *os.File
	if cpu != "" {
		if cpuFile, err = os.Create(cpu); err != nil {
			return nil, fmt.Errorf("-cpuprofile: %w", err)
		}
		if err := pprof.StartCPUProfile(cpuFile); err != nil {
			cpuFile.Close()
			return nil, fmt.Errorf("-cpuprofile: %w", err)
		}
	}
	if mutex != "" {
		runtime.SetMutexProfileFraction(1)
	}
	if block != "" {
		runtime.SetBlockProfileRate(int(time.Microsecond)) // blocking events of 1 µs or more
	}
	return func() error {
		var errs []error
		if cpuFile != nil {
			pprof.StopCPUProfile()
			if err := cpuFile.Close(); err != nil {
				errs = append(errs, fmt.Errorf("-cpuprofile: %w", err))
			}
		}
		for _, p := range []struct{ name, file string }{{"mutex", mutex}, {"block", block}} {
			if p.file == "" {
				continue
			}
			if err := writeProfile(p.name, p.file); err != nil {
				errs = append(errs, fmt.Errorf("-%sprofile: %w", p.name, err))
			}
		}
		return errors.Join(errs...)
	}, nil
}

func writeProfile(name, file string) error {
	f, err := os.Create(file)
	if err != nil {
		return err
	}
	if err := pprof.Lookup(name).WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// report is what one run measured.
type report struct {
	cfg        config
	target     string
	published  int
	expected   int64 // published states times fast viewers
	delivered  int64 // states the fast viewers received
	finalFast  int   // fast viewers that received the final state
	finalSlow  int
	slowGot    int64
	p50, p99   time.Duration // publish to fast viewer
	max        time.Duration
	applied    int64 // -apply: results the viewers received
	ap50, ap99 time.Duration
	watching   int // the presenter's count at the end
	elapsed    time.Duration
	dialTime   time.Duration
	cpu        time.Duration // this process's CPU time while the presenter shared (0: not measured)
}

func (r report) deliveryPct() float64 {
	if r.expected == 0 {
		return 0
	}
	return 100 * float64(r.delivered) / float64(r.expected)
}

func (r report) print(w io.Writer) {
	c := r.cfg
	fmt.Fprintf(w, "room load test: %d viewers (%d slow) following one presenter at %g states/s for %v on %s\n", c.viewers, c.slow, c.rate, c.duration, r.target)
	fmt.Fprintf(w, "  connected and following in %v; the presenter saw %d watching\n", r.dialTime.Round(time.Millisecond), r.watching)
	fast := c.viewers - c.slow
	fmt.Fprintf(w, "  published %d states; fast viewers received %d of %d (%.2f %%); final state reached %d/%d fast viewers\n",
		r.published, r.delivered, r.expected, r.deliveryPct(), r.finalFast, fast)
	fmt.Fprintf(w, "  latency, publish to viewer: p50 %v, p99 %v, max %v\n", r.p50.Round(10*time.Microsecond), r.p99.Round(10*time.Microsecond), r.max.Round(10*time.Microsecond))
	if c.slow > 0 {
		fmt.Fprintf(w, "  slow viewers received %d states in all (latest only); final state reached %d/%d\n", r.slowGot, r.finalSlow, c.slow)
	}
	if c.apply {
		fmt.Fprintf(w, "  applied as edits: %d results; publish to computed result: p50 %v, p99 %v\n", r.applied, r.ap50.Round(10*time.Microsecond), r.ap99.Round(10*time.Microsecond))
	}
	if r.cpu > 0 && r.published > 0 && r.elapsed > 0 {
		who := "this process"
		if c.self {
			who = "this process (server and loader)"
		}
		fmt.Fprintf(w, "  CPU time of %s while sharing: %v, %v per state, %.2f cores on average\n",
			who, r.cpu.Round(time.Millisecond), (r.cpu / time.Duration(r.published)).Round(10*time.Microsecond), r.cpu.Seconds()/r.elapsed.Seconds())
	}
}

// roomMsg is what the server sends about rooms (and edits' results, for -apply).
type roomMsg struct {
	Type     string      `json:"type"`
	Seq      int64       `json:"seq"`
	State    rooms.State `json:"state"`
	Watching int         `json:"watching"`
	Code     string      `json:"code"`
	Message  string      `json:"message"`
}

// viewer is one follower's record; only its own goroutine writes it until
// the run ends.
type viewer struct {
	conn      *websocket.Conn
	slow      bool
	got       int64
	last      atomic.Int64 // step of the newest state received
	latencies []time.Duration
	applied   []time.Duration
}

func loadtest(ctx context.Context, c config) (report, error) {
	r := report{cfg: c, target: c.addr}
	base := strings.TrimRight(c.addr, "/")
	if !strings.Contains(base, "://") {
		base = "http://" + base
	}
	if c.self {
		addr, stop, err := startServer(c.viewers, c.share)
		if err != nil {
			return r, err
		}
		defer stop()
		base, r.target = "http://"+addr, "http://"+addr+" (in-process server, embedded NATS)"
	}
	code, cookie, err := openRoom(base)
	if err != nil {
		return r, err
	}
	wsBase := "ws" + strings.TrimPrefix(base, "http") + "/ws"

	// The viewers, dialled 50 at a time.
	t0 := time.Now()
	vs := make([]*viewer, c.viewers)
	var dialErr error
	var mu sync.Mutex
	var wg sync.WaitGroup
	sem := make(chan struct{}, 50)
	for i := range vs {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			v, err := follow(wsBase, code)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				dialErr = errors.Join(dialErr, err)
				return
			}
			v.slow = i < c.slow
			vs[i] = v
		}()
	}
	wg.Wait()
	defer func() {
		for _, v := range vs {
			if v != nil {
				v.conn.Close()
			}
		}
	}()
	if dialErr != nil {
		return r, fmt.Errorf("viewers: %w", dialErr)
	}
	r.dialTime = time.Since(t0)

	// The presenter.
	p, _, err := websocket.DefaultDialer.DialContext(ctx, wsBase, http.Header{"Cookie": {cookie.Name + "=" + cookie.Value}})
	if err != nil {
		return r, fmt.Errorf("presenter: %w", err)
	}
	defer p.Close()
	if err := p.WriteJSON(map[string]any{"v": live.ProtocolVersion, "type": "present", "room": code}); err != nil {
		return r, err
	}
	hello, err := readUntil(p, "presenting", 10*time.Second)
	if err != nil {
		return r, fmt.Errorf("presenter: %w", err)
	}
	var watching atomic.Int64
	watching.Store(int64(hello.Watching))
	go func() {
		for {
			_, data, err := p.ReadMessage()
			if err != nil {
				return
			}
			var m roomMsg
			if json.Unmarshal(data, &m) == nil && (m.Type == "watching" || m.Type == "presenting") {
				watching.Store(int64(m.Watching))
			}
		}
	}()

	// Sent times by step, and the viewers' readers.
	n := int(c.rate*c.duration.Seconds()) + 1
	sent := make([]atomic.Int64, n+1)
	epoch := time.Now()
	var readers sync.WaitGroup
	var stop atomic.Bool
	for _, v := range vs {
		readers.Add(1)
		go func() {
			defer readers.Done()
			v.read(sent, epoch, c.apply, &stop)
		}()
	}

	// Share n states at the rate; the last one is the final state.
	tick := time.NewTicker(time.Duration(float64(time.Second) / c.rate))
	defer tick.Stop()
	cpu0, cpuOK := processCPU()
	start := time.Now()
	for step := 1; step <= n; step++ {
		select {
		case <-tick.C:
		case <-ctx.Done():
			return r, ctx.Err()
		}
		sent[step].Store(int64(time.Since(epoch)))
		st := map[string]any{"page": "layout", "query": fmt.Sprintf("dt=FLOAT32&sizes=4,%d", 2+step%6), "step": step}
		if err := p.WriteJSON(map[string]any{"v": live.ProtocolVersion, "type": "publish", "state": st}); err != nil {
			return r, fmt.Errorf("publish: %w", err)
		}
	}
	r.published = n

	// Wait for the final state to reach every fast viewer, then stop
	// the readers.
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		done := 0
		for _, v := range vs {
			if v.slow || v.last.Load() == int64(n) {
				done++
			}
		}
		if done == len(vs) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	r.elapsed = time.Since(start)
	if cpu1, ok := processCPU(); ok && cpuOK {
		r.cpu = cpu1 - cpu0
	}
	r.watching = int(watching.Load())
	stop.Store(true)
	for _, v := range vs {
		_ = v.conn.SetReadDeadline(time.Now())
	}
	readers.Wait()

	var lat, app []time.Duration
	for _, v := range vs {
		final := v.last.Load() == int64(n)
		if v.slow {
			r.slowGot += v.got
			if final {
				r.finalSlow++
			}
			continue
		}
		r.delivered += v.got
		if final {
			r.finalFast++
		}
		lat = append(lat, v.latencies...)
		app = append(app, v.applied...)
	}
	r.expected = int64(n) * int64(c.viewers-c.slow)
	r.p50, r.p99, r.max = quantile(lat, .5), quantile(lat, .99), quantile(lat, 1)
	r.applied = int64(len(app))
	r.ap50, r.ap99 = quantile(app, .5), quantile(app, .99)
	return r, nil
}

// read records every room state until stop is set and the connection's
// deadline passes.
func (v *viewer) read(sent []atomic.Int64, epoch time.Time, apply bool, stop *atomic.Bool) {
	var buf bytes.Buffer
	for !stop.Load() {
		_, r, err := v.conn.NextReader()
		if err != nil {
			return
		}
		now := time.Since(epoch)
		// Decode only what is measured: an edit's result carries the
		// whole picture, and reading 1000 of those per state into fresh
		// buffers, let alone decoding them, would load this process (the
		// server's too, with -self) more than the server's own work. The
		// type is among the first bytes; the rest of other messages is
		// discarded as it arrives.
		buf.Reset()
		if _, err := io.CopyN(&buf, r, 64); err != nil && !errors.Is(err, io.EOF) {
			return
		}
		if t := messageType(buf.Bytes()); t != "room" && t != "done" {
			if _, err := io.Copy(io.Discard, r); err != nil {
				return
			}
			continue
		}
		if _, err := buf.ReadFrom(r); err != nil {
			return
		}
		var m roomMsg
		if json.Unmarshal(buf.Bytes(), &m) != nil {
			continue
		}
		switch m.Type {
		case "room":
			step := m.State.Step
			if step <= 0 || step >= len(sent) {
				continue // the room's state from before the run
			}
			v.got++
			v.last.Store(int64(step))
			v.latencies = append(v.latencies, now-time.Duration(sent[step].Load()))
			if apply {
				_ = v.conn.WriteJSON(map[string]any{"v": live.ProtocolVersion, "type": "edit", "seq": step, "query": m.State.Query})
			}
		case "done":
			if m.Seq > 0 && int(m.Seq) < len(sent) {
				v.applied = append(v.applied, now-time.Duration(sent[m.Seq].Load()))
			}
		}
		if v.slow {
			time.Sleep(time.Second)
		}
	}
}

// messageType is the type a server message names among its first fields.
func messageType(data []byte) string {
	const field = `"type":"`
	head := data[:min(len(data), 64)]
	i := bytes.Index(head, []byte(field))
	if i < 0 {
		return ""
	}
	rest := head[i+len(field):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return ""
	}
	return string(rest[:j])
}

// viewerDialer reads a message of up to 64 KiB (an edit's result, with
// -apply) with one system call, as a browser does, rather than several
// 4 KiB ones that would load this process's share of the machine.
var viewerDialer = websocket.Dialer{Proxy: http.ProxyFromEnvironment, HandshakeTimeout: 45 * time.Second, ReadBufferSize: 64 << 10}

// follow opens a viewer's socket and waits for the room's first state.
func follow(wsURL, code string) (*viewer, error) {
	conn, _, err := viewerDialer.Dial(wsURL, nil)
	if err != nil {
		return nil, err
	}
	if err := conn.WriteJSON(map[string]any{"v": live.ProtocolVersion, "type": "follow", "room": code}); err != nil {
		conn.Close()
		return nil, err
	}
	if _, err := readUntil(conn, "room", 30*time.Second); err != nil {
		conn.Close()
		return nil, err
	}
	return &viewer{conn: conn}, nil
}

// readUntil reads messages until one of type typ; a room error ends it.
func readUntil(c *websocket.Conn, typ string, within time.Duration) (roomMsg, error) {
	_ = c.SetReadDeadline(time.Now().Add(within))
	defer c.SetReadDeadline(time.Time{})
	for {
		_, data, err := c.ReadMessage()
		if err != nil {
			return roomMsg{}, err
		}
		var m roomMsg
		if json.Unmarshal(data, &m) != nil {
			continue
		}
		if m.Type == typ {
			return m, nil
		}
		if m.Type == "error" && m.Code != "" {
			return m, fmt.Errorf("%s: %s", m.Code, m.Message)
		}
	}
}

// openRoom presses "Present this": the room's code and the presenter's cookie.
func openRoom(base string) (string, *http.Cookie, error) {
	return openRoomWith(base, "dt=FLOAT32&sizes=4,4")
}

// openRoomWith is openRoom on the layout explorer's state query.
func openRoomWith(base, query string) (string, *http.Cookie, error) {
	client := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	res, err := client.PostForm(base+"/rooms", url.Values{"page": {"layout"}, "query": {query}})
	if err != nil {
		return "", nil, err
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther {
		return "", nil, fmt.Errorf("POST /rooms: %s", res.Status)
	}
	loc, err := url.Parse(res.Header.Get("Location"))
	if err != nil {
		return "", nil, err
	}
	code := loc.Query().Get("room")
	for _, ck := range res.Cookies() {
		if ck.Name == "stridescope_presenter_"+code {
			return code, ck, nil
		}
	}
	return "", nil, errors.New("POST /rooms set no presenter cookie")
}

// startServer runs a server in this process on a loopback port, with
// connection limits that admit every viewer from one address. share says
// whether sessions share the answers to identical edits (the server's
// default); without, every edit is computed.
func startServer(viewers int, share bool) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	cfg := web.Config{
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Limits: web.Limits{MaxConns: viewers + 100, MaxConnsPerAddr: viewers + 100, RequestBurst: viewers + 100},
	}
	if !share {
		cfg.AnswerCache = -1
	}
	s := web.New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, nil) }()
	return ln.Addr().String(), func() { cancel(); <-done }, nil
}

// quantile is the q-quantile of ds (nearest rank); 0 for none.
func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	ds = slices.Clone(ds)
	slices.Sort(ds)
	i := int(q*float64(len(ds))+0.5) - 1
	return ds[min(max(i, 0), len(ds)-1)]
}
