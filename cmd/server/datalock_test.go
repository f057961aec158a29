package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestOneServerPerDataDirectory (issue #35, finding 4): a second server on the
// -data directory a running one uses refuses to start, exits non-zero and
// names the directory and the other process (its PID and address), by
// whatever path it reaches the directory; once the first is killed with
// SIGKILL (no clean-up of its own), a new server starts on it at once.
func TestOneServerPerDataDirectory(t *testing.T) {
	bin := buildServer(t)
	dir := t.TempDir()
	link := filepath.Join(t.TempDir(), "same-data")
	if err := os.Symlink(dir, link); err != nil {
		t.Fatal(err)
	}
	first := &serverProcess{t: t, bin: bin, addr: freeAddr(t), args: []string{"-data", dir}}
	first.start()
	defer first.kill()
	pid := strconv.Itoa(first.cmd.Process.Pid)

	for _, tc := range []struct{ name, data string }{
		{"the same path", dir},
		{"through a symlink", link},
		{"with a trailing slash", dir + "/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			out, err := exec.CommandContext(ctx, bin, "-addr", freeAddr(t), "-data", tc.data).CombinedOutput()
			if ctx.Err() != nil {
				t.Fatalf("the second server was still running after 30s: %s", out)
			}
			if err == nil {
				t.Fatalf("the second server exited 0: %s", out)
			}
			msg := string(out)
			for _, want := range []string{tc.data, "pid " + pid, first.addr} {
				if !strings.Contains(msg, want) {
					t.Errorf("the refusal does not name %q: %s", want, msg)
				}
			}
		})
	}

	first.kill() // SIGKILL: the kernel releases the lock
	again := &serverProcess{t: t, bin: bin, addr: freeAddr(t), args: []string{"-data", dir}}
	again.start() // fails the test unless healthy within 15 s
	defer again.kill()
	b, err := os.ReadFile(filepath.Join(dir, lockFileName))
	if err != nil || !strings.Contains(string(b), "pid "+strconv.Itoa(again.cmd.Process.Pid)) {
		t.Errorf("the lock file names %q (%v), want the new server's pid %d", b, err, again.cmd.Process.Pid)
	}
}
