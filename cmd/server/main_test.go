package main

import (
	"bytes"
	"errors"
	"net/http"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// TestSIGTERMWithClientsThatDoNotRead runs the real binary: clients that
// asked for a 16 MiB stream and stopped reading must not hold a SIGTERM
// past -shutdown-timeout, nor make it a failure, and every client still
// reading gets 1001.
func TestSIGTERMWithClientsThatDoNotRead(t *testing.T) {
	bin, addr := buildServer(t), freeAddr(t)
	const timeout = 3 * time.Second
	var logs bytes.Buffer // read only once the process has exited
	srv := exec.Command(bin, "-addr", addr, "-shutdown-timeout", timeout.String(), "-data", "")
	srv.Stderr = &logs
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	t.Cleanup(func() {
		if srv.ProcessState == nil {
			_ = srv.Process.Kill()
			<-exited
		}
	})
	for i := 0; ; i++ {
		res, err := http.Get("http://" + addr + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				break
			}
		}
		if i == 100 {
			t.Fatalf("/healthz did not answer within 10s: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}

	dial := func() *websocket.Conn {
		t.Helper()
		c, _, err := websocket.DefaultDialer.Dial("ws://"+addr+"/ws", nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
		if _, _, err := c.ReadMessage(); err != nil { // hello
			t.Fatal(err)
		}
		return c
	}
	edit := func(c *websocket.Conn, query string) {
		t.Helper()
		if err := c.WriteJSON(map[string]any{"v": 2, "type": "edit", "seq": 1, "query": query}); err != nil {
			t.Fatal(err)
		}
	}
	// Clients that stop reading once their 16 MiB of counts stream:
	// each query differs, so that each session computes its own.
	for _, dt := range []string{"FLOAT32", "FLOAT16", "UINT8"} {
		c := dial()
		edit(c, "dt="+dt+"&sizes=4096,4096&strides=4095,1")
		for {
			typ, _, err := c.ReadMessage()
			if err != nil {
				t.Fatalf("%s: %v", dt, err)
			}
			if typ == websocket.BinaryMessage {
				break
			}
		}
	}
	// Clients that read to the end, one of them in the middle of a
	// picture of its own.
	codes := make([]int, 4)
	var wg sync.WaitGroup
	for i := range codes {
		c := dial()
		if i == 0 {
			edit(c, "sizes=2048,2048")
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			_ = c.SetReadDeadline(time.Now().Add(3 * timeout))
			for {
				_, _, err := c.ReadMessage()
				var ce *websocket.CloseError
				if errors.As(err, &ce) {
					codes[i] = ce.Code
					return
				}
				if err != nil {
					codes[i] = -1
					return
				}
			}
		}()
	}
	time.Sleep(300 * time.Millisecond) // the non-readers' writers block on full sockets

	start := time.Now()
	if err := srv.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
	case <-time.After(3 * timeout):
		t.Fatalf("the server was still running %v after SIGTERM", 3*timeout)
	}
	took := time.Since(start)
	wg.Wait()
	var warned string
	for line := range strings.Lines(logs.String()) {
		if strings.Contains(line, "did not read") {
			warned = strings.TrimSpace(line)
		}
	}
	t.Logf("SIGTERM with 3 clients not reading and 4 reading: exit status %d after %v (-shutdown-timeout %v); close codes of the readers %v; %q",
		srv.ProcessState.ExitCode(), took, timeout, codes, warned)
	if code := srv.ProcessState.ExitCode(); code != 0 {
		t.Errorf("exit status %d, want 0; log:\n%s", code, logs.String())
	}
	if took > timeout {
		t.Errorf("shutdown took %v, past -shutdown-timeout %v", took, timeout)
	}
	for i, code := range codes {
		if code != websocket.CloseGoingAway {
			t.Errorf("reading client %d: close code %d, want 1001", i, code)
		}
	}
	if !strings.Contains(warned, "level=WARN") {
		t.Errorf("no warning that the shutdown cut clients; log:\n%s", logs.String())
	}
}
