// Package testkit is the tests' one harness: a quiet logger, a server on
// a loopback port that stops with its test, a websocket session that has
// said hello, and a headless Chromium. The web, live, e2e and command
// tests use it rather than keeping copies of their own; it imports none
// of the module, so a package's own (internal) tests can use it too.
package testkit

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os/exec"
	"slices"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/gorilla/websocket"
)

// Quiet is a logger that writes nothing: the tests' servers log to it.
func Quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// ServeFunc serves on ln until ctx ends, calling ready (if non-nil) once
// it accepts: web.Server.Serve's shape.
type ServeFunc func(ctx context.Context, ln net.Listener, ready func(net.Addr)) error

// Serve runs serve on a loopback port until the test ends, waits until it
// accepts, and gives its base URL ("http://127.0.0.1:port"). A server
// that fails to start fails the test, and so does one whose Serve returns
// an error when the test stops it.
func Serve(t testing.TB, serve ServeFunc) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan net.Addr, 1)
	done := make(chan error, 1)
	go func() { done <- serve(ctx, ln, func(a net.Addr) { ready <- a }) }()
	select {
	case <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("server did not start: %v", err)
	}
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server: %v", err)
		}
	})
	return "http://" + ln.Addr().String()
}

// Session dials the websocket at url (ws://...) with header, reads the
// server's first message, which must be its hello, and gives both; the
// connection closes when the test ends.
func Session(t testing.TB, url string, header http.Header) (*websocket.Conn, map[string]any) {
	t.Helper()
	c, res, err := websocket.DefaultDialer.Dial(url, header)
	if err != nil {
		status := 0
		if res != nil {
			status = res.StatusCode
		}
		t.Fatalf("dial %s: %v (status %d)", url, err, status)
	}
	t.Cleanup(func() { c.Close() })
	var hello map[string]any
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if err := c.ReadJSON(&hello); err != nil || hello["type"] != "hello" {
		t.Fatalf("first message %v (%v), want hello", hello, err)
	}
	_ = c.SetReadDeadline(time.Time{})
	return c, hello
}

// Browser starts a fresh headless Chromium (Debian's chromium on PATH;
// the test is skipped without it) and gives a tab, closed when the test
// ends; jsOff turns its JavaScript off, extra adds command-line options.
func Browser(t testing.TB, jsOff bool, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Skip("no chromium on PATH; install Debian's browser with `apt-get install chromium` to run the browser tests")
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.WindowSize(1440, 1000),
	}
	opts = append(opts, extra...)
	// On a loaded machine Chromium sometimes fails to start in time (its
	// launcher prints nothing wrong); that is the machine, not the page,
	// so it gets two more tries.
	var ctx context.Context
	for n := 1; ; n++ {
		// A profile of its own each try: a Chromium that failed may leave
		// its directory locked.
		try := append(slices.Clip(opts), chromedp.UserDataDir(t.TempDir()))
		actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), try...)
		tab, cancelTab := chromedp.NewContext(actx)
		err := chromedp.Do(tab)
		if err == nil {
			ctx = tab
			t.Cleanup(func() { cancelTab(); cancelAlloc() })
			break
		}
		cancelTab()
		cancelAlloc()
		if n == 3 {
			t.Fatalf("start chromium (3 tries): %v", err)
		}
		t.Logf("start chromium, try %d: %v", n, err)
	}
	if jsOff {
		if _, err := chromedp.Call(ctx, emulation.SetScriptExecutionDisabled, emulation.SetScriptExecutionDisabledParams{Value: true}); err != nil {
			t.Fatalf("disable JavaScript: %v", err)
		}
	}
	return ctx
}

// FreeAddr is a loopback address that is free now, for a server that a
// test stops and starts again at the same address (a restart).
func FreeAddr(t testing.TB) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}
