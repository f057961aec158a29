package e2e

import (
	"context"
	"net"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/stridescope/stridescope/testkit"
	"github.com/stridescope/stridescope/web"
)

// serveOn runs a web.Server with cfg on addr until the returned stop is
// called (a graceful shutdown, like SIGTERM).
func serveOn(t *testing.T, addr string, cfg web.Config) (stop func()) {
	t.Helper()
	var ln net.Listener
	var err error
	for deadline := time.Now().Add(5 * time.Second); ; {
		if ln, err = net.Listen("tcp", addr); err == nil || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if err != nil {
		t.Fatal(err)
	}
	cfg.Logger = testkit.Quiet()
	s := web.New(cfg)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, ln, nil) }()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		if err := <-done; err != nil {
			t.Errorf("server: %v", err)
		}
	}
	t.Cleanup(stop)
	return stop
}

// TestE2ERoomSurvivesServerRestart (F9): the server restarts in the middle
// of a class, with the same data directory and room secret. The pages say
// they are reconnecting, reconnect by themselves, and within 5 s of the
// server being back the presenter presents again and the viewer follows
// again, with no click.
func TestE2ERoomSurvivesServerRestart(t *testing.T) {
	addr := testkit.FreeAddr(t)
	cfg := web.Config{DataDir: t.TempDir(), RoomSecret: []byte("e2e restart secret")}
	stop := serveOn(t, addr, cfg)
	base := "http://" + addr

	presenter := newBrowser(t, false)
	viewer := newBrowserContext(t, presenter)
	waitLive(t, presenter, base+"/?dt=FLOAT32&sizes=2,3&strides=5,1")
	do(t, presenter, "press Present this", chromedp.Click(chromedp.CSS(`[data-testid=present]`)))
	waitFor(t, presenter, "the room", roomState+` === 'presenting' && document.querySelector('#picture').dataset.state === 'done'`)
	join := eval[string](t, presenter, `document.querySelector('[data-testid=room-join-url]').textContent`)
	waitLive(t, viewer, join)
	waitFor(t, viewer, "the room's state", roomState+` === 'following' && (`+usedCells+`) === '0,1,2,5,6,7'`)

	stop()
	waitFor(t, viewer, "the viewer to see the server gone", roomState+` === 'offline'`)
	waitFor(t, presenter, "the presenter to see the server gone", roomState+` === 'offline'`)
	if got := eval[string](t, viewer, usedCells); got != "0,1,2,5,6,7" {
		t.Errorf("the viewer's picture changed to %q while the server was away", got)
	}
	serveOn(t, addr, cfg)
	back := time.Now()
	waitFor(t, presenter, "presenting again", roomState+` === 'presenting'`)
	waitFor(t, viewer, "following again", roomState+` === 'following'`)
	if d := time.Since(back); d > 5*time.Second {
		t.Errorf("the class came back %v after the server, want within 5s", d)
	}
	t.Logf("presenter and viewer back %v after the server", time.Since(back).Round(time.Millisecond))
	typeInto(t, presenter, "type a height stride of 4", `[data-testid=stride-0]`, "4")
	waitFor(t, viewer, "the viewer to follow the edit after the restart", `(`+usedCells+`) === '0,1,2,4,5,6'`)
}
