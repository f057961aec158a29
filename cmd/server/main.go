// Command server runs the stridescope web server: the explorer pages, the
// JSON API and the live websocket, everything embedded in the binary.
package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"syscall"
	"time"

	"github.com/stridescope/stridescope/web"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, args []string) error {
	fs := flag.NewFlagSet("server", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "listen address")
	origins := fs.String("allowed-origins", "", "comma-separated origins besides the server's own that may open websockets")
	logLevel := fs.String("log-level", "info", "log level: debug, info, warn or error")
	logJSON := fs.Bool("log-json", false, "write logs as JSON")
	shutdown := fs.Duration("shutdown-timeout", 10*time.Second, "how long graceful shutdown may take")
	proxies := fs.String("trusted-proxies", "", "comma-separated IPs or CIDRs of reverse proxies whose X-Forwarded-For is believed")
	frameAncestors := fs.String("frame-ancestors", web.DefaultFrameAncestors, "CSP frame-ancestors of the embeds (/embed/..., the SVG pictures): * for any site, or space-separated origins such as \"'self' https://docs.example.com\"; every other page is never framed")
	d := web.DefaultLimits
	maxConns := fs.Int("max-conns", d.MaxConns, "websockets open at once, server-wide; when full, an address holding fewer takes one from the address holding the most (closed with 1013), else 503")
	maxPerAddr := fs.Int("max-conns-per-addr", d.MaxConnsPerAddr, "websockets from one client address (a classroom behind one NAT counts as one; an IPv6 /64 counts as one)")
	msgRate := fs.Float64("msg-rate", d.MessagesPerSecond, "messages per second one websocket may send (burst: twice that)")
	reqRate := fs.Float64("req-rate", d.RequestsPerSecond, "HTTP requests per second from one client address")
	reqBurst := fs.Int("req-burst", d.RequestBurst, "HTTP requests one client address may send in a burst")
	natsURL := fs.String("nats-url", "", "NATS server or cluster (comma-separated URLs) that carries rooms between replicas; empty: a NATS server embedded in this process, no port opened")
	natsCreds := fs.String("nats-creds", "", "NATS .creds file (user JWT and nkey seed) for -nats-url; or a token in STRIDESCOPE_NATS_TOKEN, or STRIDESCOPE_NATS_USER and STRIDESCOPE_NATS_PASSWORD")
	natsCA := fs.String("nats-ca", "", "PEM file of the CAs that sign the NATS servers' certificates; implies TLS (as does a tls:// URL, which without it trusts the system's CAs)")
	natsCert := fs.String("nats-cert", "", "PEM client certificate for NATS servers that verify clients (with -nats-key)")
	natsKey := fs.String("nats-key", "", "PEM private key of -nats-cert")
	roomSecret := fs.String("room-secret", "", "secret that signs presenter tokens; replicas behind one load balancer must share it (or set STRIDESCOPE_ROOM_SECRET; neither: the one kept in -data's room-secret file, made on first start, or with -data empty a random one, so tokens end with the process)")
	dataDir := fs.String("data", defaultDataDir(), "directory where the embedded NATS server keeps the rooms, so that they survive a restart (with -nats-url the cluster keeps them); empty: in memory only")
	answerMB := fs.Int64("answer-cache-mb", 64, "MiB of edits' answers kept to share between sessions that ask the same (a room's viewers); 0: share nothing")
	budgetMB := fs.Int64("work-budget-mb", web.DefaultWorkBudget>>20, "MiB that heavy work in flight (pages, SVG pictures, websocket edits, the JSON API) may allocate at once, server-wide: past it a request waits up to 2s, then gets 503; 0: no budget")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var level slog.Level
	if err := level.UnmarshalText([]byte(*logLevel)); err != nil {
		return fmt.Errorf("-log-level: %w", err)
	}
	opts := &slog.HandlerOptions{Level: level}
	var handler slog.Handler = slog.NewTextHandler(os.Stderr, opts)
	if *logJSON {
		handler = slog.NewJSONHandler(os.Stderr, opts)
	}
	logger := slog.New(handler)

	cfg := web.Config{
		Addr:           *addr,
		AllowedOrigins: splitList(*origins),
		TrustedProxies: splitList(*proxies),
		FrameAncestors: *frameAncestors,
		Limits: web.Limits{
			MaxConns: *maxConns, MaxConnsPerAddr: *maxPerAddr,
			MessagesPerSecond: *msgRate, MessageBurst: int(2 * *msgRate),
			RequestsPerSecond: *reqRate, RequestBurst: *reqBurst,
		},
		ShutdownTimeout: *shutdown,
		Logger:          logger,
		AnswerCache:     -1,
	}
	if *answerMB < 0 {
		return fmt.Errorf("-answer-cache-mb %d: want 0 (off) or more", *answerMB)
	}
	if *answerMB > 0 {
		cfg.AnswerCache = *answerMB << 20
	}
	if *budgetMB < 0 || *budgetMB > 1<<30 {
		return fmt.Errorf("-work-budget-mb %d: want 0 (no budget) up to 2^30", *budgetMB)
	}
	cfg.WorkBudget = -1
	if *budgetMB > 0 {
		cfg.WorkBudget = *budgetMB << 20
		setMemoryLimit(logger, cfg.WorkBudget, max(cfg.AnswerCache, 0))
	}
	if err := cfg.Validate(); err != nil {
		return err
	}
	if *roomSecret == "" {
		*roomSecret = os.Getenv("STRIDESCOPE_ROOM_SECRET")
	}
	if *natsURL == "" && *dataDir != "" {
		// The embedded NATS server keeps the rooms in -data: one process
		// per directory, checked before anything in it is read.
		if err := lockDataDir(*dataDir, *addr); err != nil {
			return err
		}
	}
	if *roomSecret == "" && *natsURL == "" && *dataDir != "" {
		// Rooms kept in -data must be readable after a restart, so the
		// secret that seals them is kept beside them.
		secret, err := dataSecret(*dataDir)
		if err != nil {
			return err
		}
		*roomSecret = secret
	}
	cfg.RoomSecret = []byte(*roomSecret)
	cfg.DataDir = *dataDir
	busOpts := natsOptions(*natsURL, *natsCreds, *natsCA, *natsCert, *natsKey, os.Getenv, logger)
	if *natsURL == "" && (*natsCreds != "" || *natsCA != "" || *natsCert != "" || *natsKey != "") {
		return errors.New("-nats-creds, -nats-ca, -nats-cert and -nats-key need -nats-url")
	}
	if *natsURL != "" {
		if *roomSecret == "" {
			logger.Warn("-nats-url without -room-secret: presenter tokens of this replica are not valid on the others")
		}
		if strings.Contains(*natsURL, "@") {
			logger.Warn("-nats-url carries credentials, which ps shows to every user of the machine: use -nats-creds or " + envNATSUser + " and " + envNATSPassword)
		}
		bus, err := dialNATS(busOpts, logger)
		if err != nil {
			return err
		}
		defer bus.Close()
		cfg.Bus = bus
	}
	srv := web.New(cfg)
	if err := srv.ListenAndServe(ctx, nil); err != nil {
		return fmt.Errorf("serve %s: %w", *addr, err)
	}
	logger.Info("stopped")
	return nil
}

// defaultDataDir is a stridescope folder in the user's cache directory,
// or none (rooms in memory) when there is no such directory.
func defaultDataDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "stridescope")
}

// dataSecret reads the room secret kept in dir, making one the first time.
func dataSecret(dir string) (string, error) {
	path := filepath.Join(dir, "room-secret")
	switch b, err := os.ReadFile(path); {
	case err == nil && len(bytes.TrimSpace(b)) >= 16:
		return string(bytes.TrimSpace(b)), nil
	case err == nil:
		// Replacing it would make every stored room unreadable: say so.
		return "", fmt.Errorf("-data %s: %s holds a room secret of %d characters, want at least 16; fix or remove it", dir, path, len(bytes.TrimSpace(b)))
	case !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("-data %s: read the room secret: %w", dir, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("-data %s: %w", dir, err)
	}
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	secret := hex.EncodeToString(b)
	if err := os.WriteFile(path, []byte(secret+"\n"), 0o600); err != nil {
		return "", fmt.Errorf("-data %s: keep the room secret: %w", dir, err)
	}
	return secret, nil
}

// memoryOverhead is what the process holds besides the work budget and
// the answers cache: the runtime, the embedded assets and NATS server,
// idle connections' buffers, pooled frames, replayed answers in flight.
const memoryOverhead = 256 << 20

// setMemoryLimit makes the budget's bound hold for the heap too. The
// budget bounds what work keeps live, but with GOGC=100 the collector
// lets the heap grow to twice the live data before it runs, so a full
// budget of short-lived buffers could still take the process to twice
// the budget. A soft limit of budget + cache + overhead makes the
// collector work harder near it instead, and never stops the process: a
// limit below the live heap costs CPU (capped by the runtime), not
// memory. GOMEMLIMIT, when set, is the operator's choice and is kept.
func setMemoryLimit(logger *slog.Logger, budget, cache int64) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	limit := budget + cache + memoryOverhead
	debug.SetMemoryLimit(limit)
	logger.Debug("memory limit set from the work budget", "bytes", limit)
}

func splitList(s string) []string {
	var out []string
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			out = append(out, p)
		}
	}
	return out
}
