package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// startServer builds ./cmd/server and runs it with default flags (rooms
// in memory) on a free loopback port, returning its base URL and process
// id.
func startServer(t *testing.T) (string, int) {
	t.Helper()
	p := &serverProcess{t: t, bin: buildServer(t), addr: freeAddr(t), args: []string{"-data", ""}}
	p.start()
	t.Cleanup(p.kill)
	return "http://" + p.addr, p.cmd.Process.Pid
}

// peakRSS is the process's resident high-water mark (VmHWM), in bytes.
func peakRSS(t *testing.T, pid int) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatal("no VmHWM")
	return 0
}

// TestWorkBudgetStorm is finding F1 replayed against the real binary
// with its default flags: 30 concurrent 4096×4096 slice pages and 40
// concurrent slice pictures whose two elements lie 64 MB apart, in
// stormWaves waves, each sent once the last is answered. The
// process must live, answer each with 200, 413, 429 or 503, stay under
// 1 GiB resident, and keep answering a page to another address within
// 1 s (p90).
func TestWorkBudgetStorm(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and storms a server")
	}
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc and dials from 127.0.0.2")
	}
	const stormWaves = 5
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	base, pid := startServer(t)
	idle := peakRSS(t, pid)

	storm := []struct {
		path string
		n    int
	}{
		{"/slice?sizes=4096,4096", 30},
		{"/api/v1/slice1.svg?dt=FLOAT32&sizes=2&strides=16000000", 40},
	}
	client := &http.Client{Timeout: 45 * time.Second}
	var mu sync.Mutex
	statuses := map[int]int{}
	var stormErrs []error
	start := make(chan struct{})
	stormDone := make(chan struct{})
	go func() {
		defer close(stormDone)
		<-start
		for range stormWaves {
			var wg sync.WaitGroup
			for _, s := range storm {
				for range s.n {
					wg.Add(1)
					go func() {
						defer wg.Done()
						req, _ := http.NewRequestWithContext(ctx, "GET", base+s.path, nil)
						res, err := client.Do(req)
						mu.Lock()
						defer mu.Unlock()
						if err != nil {
							stormErrs = append(stormErrs, err)
							return
						}
						_, _ = io.Copy(io.Discard, res.Body)
						res.Body.Close()
						statuses[res.StatusCode]++
					}()
				}
			}
			wg.Wait()
		}
	}()

	// Another client, from another loopback address, reads a page
	// meanwhile.
	other := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{
		DialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP("127.0.0.2")}}).DialContext,
	}}
	close(start)
	var lat []time.Duration
	for len(lat) < 200 {
		t0 := time.Now()
		req, _ := http.NewRequestWithContext(ctx, "GET", base+"/", nil)
		res, err := other.Do(req)
		if err != nil {
			t.Fatalf("the page from 127.0.0.2: %v", err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			t.Errorf("the page from 127.0.0.2: status %d", res.StatusCode)
		}
		lat = append(lat, time.Since(t0))
		select {
		case <-stormDone:
		case <-time.After(20 * time.Millisecond):
			continue
		}
		break
	}
	select {
	case <-stormDone:
	case <-ctx.Done():
		t.Fatal("the storm was not answered in time")
	}

	res, err := http.Get(base + "/healthz")
	if err != nil {
		t.Fatalf("the server died: %v", err)
	}
	res.Body.Close()
	peak := peakRSS(t, pid)
	slices.Sort(lat)
	p90 := lat[(len(lat)*9+9)/10-1]
	t.Logf("statuses %v; peak RSS %.0f MiB (idle %.0f MiB); the other address: %d pages, p50 %v, p90 %v",
		statuses, float64(peak)/(1<<20), float64(idle)/(1<<20), len(lat), lat[len(lat)/2].Round(time.Millisecond), p90.Round(time.Millisecond))
	for _, err := range stormErrs {
		t.Errorf("a storm request failed: %v", err)
	}
	for code, n := range statuses {
		switch code {
		case http.StatusOK, http.StatusRequestEntityTooLarge, http.StatusTooManyRequests, http.StatusServiceUnavailable:
		default:
			t.Errorf("%d requests answered %d", n, code)
		}
	}
	if peak >= 1<<30 {
		t.Errorf("peak RSS %d bytes, want under 1 GiB", peak)
	}
	if p90 >= time.Second {
		t.Errorf("p90 of the other address %v, want under 1s", p90)
	}
}
