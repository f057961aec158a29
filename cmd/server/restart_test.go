package main

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/url"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// serverProcess is the stridescope binary running as a child process.
type serverProcess struct {
	t    *testing.T
	bin  string
	args []string
	addr string
	cmd  *exec.Cmd
}

// buildServer builds this command into a temporary directory.
func buildServer(t *testing.T) string {
	t.Helper()
	if runtime.GOOS != "linux" {
		t.Skip("signals to a child process: Linux only")
	}
	if testing.Short() {
		t.Skip("builds and runs the server")
	}
	bin := filepath.Join(t.TempDir(), "stridescope")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// freeAddr is a loopback address nothing listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

func (p *serverProcess) start() {
	p.t.Helper()
	p.cmd = exec.Command(p.bin, append([]string{"-addr", p.addr, "-log-level", "warn"}, p.args...)...)
	if err := p.cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	deadline := time.Now().Add(15 * time.Second)
	for {
		res, err := http.Get("http://" + p.addr + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return
			}
		}
		if time.Now().After(deadline) {
			p.t.Fatalf("server not healthy after 15s: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (p *serverProcess) kill() {
	if p.cmd == nil {
		return
	}
	_ = p.cmd.Process.Signal(syscall.SIGKILL)
	_ = p.cmd.Wait()
	p.cmd = nil
}

type roomMsg struct {
	Type  string `json:"type"`
	Code  string `json:"code"`
	State struct {
		Query string `json:"query"`
	} `json:"state"`
}

// roomSocket dials /ws with the given cookie and sends first.
func roomSocket(t *testing.T, addr string, cookie *http.Cookie, first map[string]any) *websocket.Conn {
	t.Helper()
	h := http.Header{"Origin": {"http://" + addr}}
	if cookie != nil {
		h.Set("Cookie", cookie.Name+"="+cookie.Value)
	}
	c, _, err := websocket.DefaultDialer.Dial("ws://"+addr+"/ws", h)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.WriteJSON(first); err != nil {
		t.Fatal(err)
	}
	return c
}

// waitFor reads until a message of type typ (and, if query is set, that
// state) arrives; an error message fails the test.
func waitFor(t *testing.T, c *websocket.Conn, typ, query string) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		var m roomMsg
		kind, data, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("waiting for %s %s: %v", typ, query, err)
		}
		if kind != websocket.TextMessage || json.Unmarshal(data, &m) != nil {
			continue
		}
		if m.Type == "error" {
			t.Fatalf("waiting for %s: %s", typ, data)
		}
		if m.Type == typ && (query == "" || m.State.Query == query) {
			return
		}
	}
}

// TestRestartKeepsTheClass (F6, F9): kill -9 the server in the middle of a
// class and start it again with the same -data and -room-secret: the join
// URL answers 200 with the last state, the presenter presents again with
// the cookie it has, and viewers follow again, all within 5 s of the
// server being back.
func TestRestartKeepsTheClass(t *testing.T) {
	p := &serverProcess{t: t, bin: buildServer(t), addr: freeAddr(t),
		args: []string{"-data", t.TempDir(), "-room-secret", "restart test secret"}}
	p.start()
	defer p.kill()

	res, err := (&http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}).
		PostForm("http://"+p.addr+"/rooms", url.Values{"page": {"layout"}, "query": {"dt=FLOAT32&sizes=2,3"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	loc, _ := url.Parse(res.Header.Get("Location"))
	code := loc.Query().Get("room")
	var cookie *http.Cookie
	for _, c := range res.Cookies() {
		if strings.HasSuffix(c.Name, code) {
			cookie = c
		}
	}
	if res.StatusCode != http.StatusSeeOther || code == "" || cookie == nil {
		t.Fatalf("POST /rooms: %d, code %q, cookie %v", res.StatusCode, code, cookie)
	}
	const last = "dt=FLOAT16&sizes=3,5"
	pc := roomSocket(t, p.addr, cookie, map[string]any{"v": 2, "type": "present", "room": code})
	waitFor(t, pc, "presenting", "")
	vc := roomSocket(t, p.addr, nil, map[string]any{"v": 2, "type": "follow", "room": code})
	waitFor(t, vc, "room", "")
	if err := pc.WriteJSON(map[string]any{"v": 2, "type": "publish", "room": code, "state": map[string]any{"page": "layout", "query": last}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, vc, "room", last)
	time.Sleep(300 * time.Millisecond) // the record is written behind the bus message

	p.kill()
	p.start()
	back := time.Now()

	res, err = http.Get("http://" + p.addr + "/r/" + code)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || !strings.Contains(string(body), "sizes=3,5") {
		t.Errorf("GET /r/CODE after kill -9: %d, last state shown: %v", res.StatusCode, strings.Contains(string(body), "sizes=3,5"))
	}
	pc = roomSocket(t, p.addr, cookie, map[string]any{"v": 2, "type": "present", "room": code})
	waitFor(t, pc, "presenting", "")
	vc = roomSocket(t, p.addr, nil, map[string]any{"v": 2, "type": "follow", "room": code})
	waitFor(t, vc, "room", last)
	if err := pc.WriteJSON(map[string]any{"v": 2, "type": "publish", "room": code, "state": map[string]any{"page": "layout", "query": "dt=FLOAT16&sizes=4"}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, vc, "room", "dt=FLOAT16&sizes=4")
	if d := time.Since(back); d > 5*time.Second {
		t.Errorf("the class was back %v after the server, want within 5s", d)
	}
	t.Logf("class back %v after the server restarted", time.Since(back).Round(time.Millisecond))

	// Another process with another secret cannot read these rooms, and
	// the presenter's cookie means nothing to it.
	p.kill()
	p.args = []string{"-data", p.args[1], "-room-secret", "a different secret"}
	p.start()
	res, err = http.Get("http://" + p.addr + "/r/" + code)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /r/CODE with another secret: %d, want 404", res.StatusCode)
	}
}
