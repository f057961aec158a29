package e2e

import (
	"os"
	"testing"
)

func TestE2EDebugShot(t *testing.T) {
	base := startServer(t)
	ctx := newBrowser(t, false)
	os.Setenv("STRIDESCOPE_SHOTS", "/tmp/shots")
	os.MkdirAll("/tmp/shots", 0o755)
	waitLive(t, ctx, base+os.Getenv("SHOT_PATH"))
	shot(t, ctx, os.Getenv("SHOT_NAME"))
}
