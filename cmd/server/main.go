// Command server runs the stridescope web server: the explorer pages, the
// JSON API and the live websocket, everything embedded in the binary.
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
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

	srv := web.New(web.Config{
		Addr:            *addr,
		AllowedOrigins:  splitList(*origins),
		ShutdownTimeout: *shutdown,
		Logger:          logger,
	})
	if err := srv.ListenAndServe(ctx, nil); err != nil {
		return fmt.Errorf("serve %s: %w", *addr, err)
	}
	logger.Info("stopped")
	return nil
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
