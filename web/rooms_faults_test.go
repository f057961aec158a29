package web

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stridescope/stridescope/rooms/natsbus"
)

// natsProcess is a real nats-server in a child process, so that a test
// can pause it (SIGSTOP), kill it and start it again on the same port and
// store, as an operator's cluster would fail.
type natsProcess struct {
	t     *testing.T
	bin   string
	port  int
	store string
	cmd   *exec.Cmd
}

// startNATSProcess builds nats-server from the module's own dependency and
// runs it with JetStream on a free loopback port.
func startNATSProcess(t *testing.T) *natsProcess {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("signals to a child process: Linux only")
	}
	if testing.Short() {
		t.Skip("builds and runs a nats-server process")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "nats-server")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/nats-io/nats-server/v2").CombinedOutput(); err != nil {
		t.Fatalf("build nats-server: %v\n%s", err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	ln.Close()
	n := &natsProcess{t: t, bin: bin, port: port, store: filepath.Join(dir, "store")}
	n.start()
	t.Cleanup(func() { n.signal(syscall.SIGCONT); n.kill() })
	return n
}

func (n *natsProcess) url() string { return fmt.Sprintf("nats://127.0.0.1:%d", n.port) }

func (n *natsProcess) start() {
	n.t.Helper()
	n.cmd = exec.Command(n.bin, "-a", "127.0.0.1", "-p", fmt.Sprint(n.port), "-js", "-sd", n.store)
	if err := n.cmd.Start(); err != nil {
		n.t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", strings.TrimPrefix(n.url(), "nats://"), time.Second)
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			n.t.Fatalf("nats-server not listening after 10s: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (n *natsProcess) signal(sig syscall.Signal) {
	if n.cmd != nil && n.cmd.Process != nil {
		_ = n.cmd.Process.Signal(sig)
	}
}

// waitState waits until the process's state (the third field of
// /proc/PID/stat) is state: 'T' once a SIGSTOP has taken hold.
func (n *natsProcess) waitState(state byte) {
	n.t.Helper()
	path := fmt.Sprintf("/proc/%d/stat", n.cmd.Process.Pid)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		b, err := os.ReadFile(path)
		if err != nil {
			n.t.Fatal(err)
		}
		// pid (comm) state ...: comm may hold spaces, so read after ')'.
		if i := strings.LastIndexByte(string(b), ')'); i >= 0 && i+2 < len(b) && b[i+2] == state {
			return
		}
	}
	n.t.Fatalf("nats-server never reached state %c", state)
}

func (n *natsProcess) kill() {
	if n.cmd == nil {
		return
	}
	n.signal(syscall.SIGKILL)
	_ = n.cmd.Wait()
	n.cmd = nil
}

// readRoomMsg reads until a room message of type typ arrives, failing on
// a "presence" that says the presenter stopped: a fault of the bus is no
// news about the presenter.
func readRoomMsg(t *testing.T, c *websocket.Conn, typ string, within time.Duration) roomIn {
	t.Helper()
	deadline := time.Now().Add(within)
	for {
		_ = c.SetReadDeadline(deadline)
		kind, data, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("waiting for %q: %v", typ, err)
		}
		if kind != websocket.TextMessage {
			continue
		}
		var m roomIn
		if err := json.Unmarshal(data, &m); err != nil {
			continue
		}
		if m.Type == "presence" && !m.Presenting {
			t.Fatalf("a viewer was told the presenter stopped while waiting for %q: %s", typ, data)
		}
		if m.Type == typ {
			return m
		}
	}
}

// TestRoomsThroughNATSFaults (F7): with the bus paused or killed, opening
// a room is a quick 503, the explorers, the API and /healthz are
// unaffected, /readyz says the bus is down, viewers hear "reconnecting"
// (never "presenter stopped"), and everyone follows again by themselves
// when the bus is back, with the room's record kept by JetStream.
func TestRoomsThroughNATSFaults(t *testing.T) {
	n := startNATSProcess(t)
	bus, err := natsbus.New(natsbus.Options{URL: n.url()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bus.Close() })
	_, ts := roomServer(t, Config{Bus: bus, RoomSecret: []byte("fault test secret")})
	code, _, cookie := openRoom(t, ts, "q=0")
	p := presentOn(t, ts, code, cookie)
	v, first := followOn(t, ts, code)
	if first.State.Query != "q=0" {
		t.Fatalf("viewer's first state %+v", first.State)
	}
	status := func(method, path, body string) (int, time.Duration) {
		start := time.Now()
		req, _ := http.NewRequest(method, ts.URL+path, strings.NewReader(body))
		if body != "" {
			req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
			if strings.HasPrefix(body, "{") {
				req.Header.Set("Content-Type", "application/json")
			}
		}
		res, err := noRedirect.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		res.Body.Close()
		return res.StatusCode, time.Since(start)
	}
	waitReady := func(want int) {
		t.Helper()
		deadline := time.Now().Add(15 * time.Second)
		for {
			st, _ := status(http.MethodGet, "/readyz", "")
			if st == want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("/readyz stayed %d, want %d", st, want)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	waitReady(http.StatusOK)

	// Paused: the server does not answer, and nothing says so at first.
	n.signal(syscall.SIGSTOP)
	n.waitState('T') // a busy machine may deliver the signal late
	paused := time.Now()
	form := url.Values{"page": {"layout"}}.Encode()
	st, d := status(http.MethodPost, "/rooms", form)
	if st != http.StatusServiceUnavailable || d > 2*time.Second {
		t.Errorf("POST /rooms with NATS paused: %d in %v, want 503 within 2s", st, d)
	}
	t.Logf("NATS paused: POST /rooms %d in %v", st, d.Round(time.Millisecond))
	for _, c := range []struct{ method, path, body string }{
		{http.MethodGet, "/healthz", ""},
		{http.MethodGet, "/?sizes=2,3", ""},
		{http.MethodPost, "/api/v1/layout", `{"dataType":"FLOAT32","sizes":[2,3]}`},
		{http.MethodGet, "/r/" + code, ""}, // this replica holds the room
	} {
		if st, d := status(c.method, c.path, c.body); st != http.StatusOK || d > time.Second {
			t.Errorf("%s %s with NATS paused: %d in %v, want 200 at once", c.method, c.path, st, d)
		}
	}
	if m := readRoomMsg(t, v, "link", 15*time.Second); m.Connected {
		t.Errorf("viewer's link message while NATS is paused: %+v", m)
	}
	t.Logf("NATS paused: viewers told reconnecting after %v", time.Since(paused).Round(time.Millisecond))
	waitReady(http.StatusServiceUnavailable)
	if st, _ := status(http.MethodGet, "/healthz", ""); st != http.StatusOK {
		t.Errorf("/healthz with the bus down: %d", st)
	}

	// Resumed: the link comes back, and so do the presenter's states.
	n.signal(syscall.SIGCONT)
	resumed := time.Now()
	if m := readRoomMsg(t, v, "link", 15*time.Second); !m.Connected {
		t.Errorf("viewer's link message after NATS resumed: %+v", m)
	}
	t.Logf("NATS resumed: viewers linked again after %v", time.Since(resumed).Round(time.Millisecond))
	waitReady(http.StatusOK)
	publish(t, p, "q=1", "")
	readRoomUntil(t, v, "q=1")

	// Killed and started again on the same store: the room's record is
	// still there for a replica that never held it.
	n.kill()
	if m := readRoomMsg(t, v, "link", 15*time.Second); m.Connected {
		t.Errorf("viewer's link message after NATS died: %+v", m)
	}
	n.start()
	restarted := time.Now()
	if m := readRoomMsg(t, v, "link", 15*time.Second); !m.Connected {
		t.Errorf("viewer's link message after NATS came back: %+v", m)
	}
	publish(t, p, "q=2", "")
	readRoomUntil(t, v, "q=2")
	t.Logf("NATS killed and restarted: the presenter's next state reached the viewer %v after NATS was back", time.Since(restarted).Round(time.Millisecond))

	bus2, err := natsbus.New(natsbus.Options{URL: n.url()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { bus2.Close() })
	_, ts2 := roomServer(t, Config{Bus: bus2, RoomSecret: []byte("fault test secret")})
	deadline := time.Now().Add(5 * time.Second)
	for {
		res, _ := getPage(t, ts2.URL+"/r/"+code, nil)
		if res.StatusCode == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("another replica after NATS restarted: GET /r/CODE %d", res.StatusCode)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
