package web

import (
	"cmp"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/stridescope/stridescope/explorer"
	"github.com/stridescope/stridescope/ops"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"

	"github.com/stridescope/stridescope/budget"
	"github.com/stridescope/stridescope/live"
	"github.com/stridescope/stridescope/rooms"
	"github.com/stridescope/stridescope/static"
)

// Config holds what the server needs from its flags.
type Config struct {
	// Addr is the listen address, e.g. 127.0.0.1:8080.
	Addr string
	// Kinds are the explorers the server shows; nil: every one (ops.All).
	Kinds explorer.Kinds
	// AllowedOrigins may open websockets besides the server's own origin.
	AllowedOrigins []string
	// TrustedProxies (IPs or CIDRs) may name the client in
	// X-Forwarded-For; with none, the TCP peer is the client.
	TrustedProxies []string
	// Limits pace clients; zero fields take DefaultLimits.
	Limits Limits
	// BodyLimit caps request bodies, in Echo's notation ("64KiB"); the
	// import routes take ImportBodyLimit ("2MiB" by default): a DxDispatch
	// model the site exports may hold 65,536 values.
	BodyLimit       string
	ImportBodyLimit string
	// ShutdownTimeout bounds graceful shutdown.
	ShutdownTimeout time.Duration
	// ReadHeaderTimeout cuts off clients that send headers too slowly
	// (slowloris); default 5s.
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a whole request, its body included; a
	// body that has not arrived by then is answered 408 (body.timeout);
	// default 15s.
	ReadTimeout time.Duration
	// FrameAncestors is the CSP frame-ancestors of the embeds (/embed/...
	// and the SVG pictures): which sites may frame them; default * (any).
	// Every other page may never be framed.
	FrameAncestors string
	Logger         *slog.Logger
	// Bus carries classroom rooms between replicas (natsbus.New). Nil: a
	// NATS server embedded in the process, opening no port, started when
	// the first room is; Close stops it. A Bus given here stays open.
	Bus rooms.Bus
	// AnswerCache is how many bytes of edits' answers a replica keeps to
	// share between sessions asking the same (a room's viewers): 0 takes
	// 64 MiB; negative shares nothing, so every edit is computed.
	AnswerCache int64
	// RoomSecret signs presenter tokens and seals every message on the
	// bus. Replicas that share rooms must share it; empty: random, so
	// rooms end with the process.
	RoomSecret []byte
	// DataDir is where the embedded NATS server stores the rooms, so they
	// survive a restart; empty keeps them in memory.
	DataDir string
	// MaxRooms is how many rooms this replica keeps (0: rooms.DefaultMax);
	// past it, the room empty for longest gives way.
	MaxRooms int
	// WorkBudget is how many bytes the heavy work in flight (pages,
	// pictures, edits, the JSON API) may allocate at once, server-wide:
	// 0 takes DefaultWorkBudget; negative: no budget.
	WorkBudget int64
	// WorkBudgetWait is how long a request waits for its share of the
	// budget before it is answered 503; 0 takes DefaultWorkBudgetWait.
	WorkBudgetWait time.Duration
	// Budget, when set, is the work budget itself, and WorkBudget and
	// WorkBudgetWait are unused: servers in one process can share one,
	// and a test can hold part of it.
	Budget *budget.Budget
}

func (c *Config) setDefaults() {
	if c.Addr == "" {
		c.Addr = "127.0.0.1:8080"
	}
	if c.BodyLimit == "" {
		c.BodyLimit = "64KiB"
	}
	if c.ImportBodyLimit == "" {
		c.ImportBodyLimit = "2MiB"
	}
	if c.ShutdownTimeout == 0 {
		c.ShutdownTimeout = 10 * time.Second
	}
	if c.ReadHeaderTimeout == 0 {
		c.ReadHeaderTimeout = 5 * time.Second
	}
	if c.ReadTimeout == 0 {
		c.ReadTimeout = 15 * time.Second
	}
	if c.FrameAncestors == "" {
		c.FrameAncestors = DefaultFrameAncestors
	}
	if c.WorkBudget == 0 {
		c.WorkBudget = DefaultWorkBudget
	}
	if c.WorkBudgetWait == 0 {
		c.WorkBudgetWait = DefaultWorkBudgetWait
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	c.Limits.setDefaults()
}

// Validate reports configuration a server cannot start with.
func (c Config) Validate() error {
	if c.FrameAncestors != "" {
		if err := CheckFrameAncestors(c.FrameAncestors); err != nil {
			return err
		}
	}
	if c.Limits.MaxConns < 0 || c.Limits.MaxConnsPerAddr < 0 {
		return fmt.Errorf("websocket caps %d (server-wide) and %d (per address): want 0 (the default) or more", c.Limits.MaxConns, c.Limits.MaxConnsPerAddr)
	}
	if c.ShutdownTimeout < 0 {
		return fmt.Errorf("shutdown timeout %v: want 0 (the default) or more", c.ShutdownTimeout)
	}
	for _, l := range []string{c.BodyLimit, c.ImportBodyLimit} {
		if l == "" {
			continue
		}
		if _, ok := limitBytes(l); !ok {
			return fmt.Errorf("body limit %q: want a size such as 64KiB or 2MiB", l)
		}
	}
	_, err := ipExtractor(c.TrustedProxies)
	return err
}

// Server is the stridescope HTTP server.
type Server struct {
	cfg  Config
	echo *echo.Echo
	log  *slog.Logger

	// hub is what the websocket sessions share; its Base is cancelled
	// when the server shuts down, since Shutdown does not wait for
	// hijacked connections.
	kinds      explorer.Kinds // the explorers, each served by explorerRoutes
	inflight   *inflight      // how many budgeted requests each address has at once
	hub        *live.Hub
	wsShutdown context.CancelFunc // cancels hub.Base with live.ErrShuttingDown
	conns      *connCounter
	sessions   sync.WaitGroup // every websocket session's handler
	rooms      roomService    // classroom rooms (rooms_http.go), started on first use
	budget     *budget.Budget // what heavy work may allocate at once; nil: unbounded

	bodyLimit, importLimit int64 // bytes: Config.BodyLimit and ImportBodyLimit
}

// New builds the server and its routes.
func New(cfg Config) *Server {
	cfg.setDefaults()
	e := echo.New()
	e.HideBanner = true
	e.HidePort = true
	s := &Server{cfg: cfg, echo: e, log: cfg.Logger}
	s.bodyLimit, s.importLimit = parseLimit(cfg.BodyLimit, 64<<10), parseLimit(cfg.ImportBodyLimit, 2<<20)
	base, cancel := context.WithCancelCause(context.Background())
	s.wsShutdown = func() { cancel(live.ErrShuttingDown) }
	if cfg.Budget != nil {
		s.budget = cfg.Budget
	} else if cfg.WorkBudget > 0 {
		s.budget = budget.New(cfg.WorkBudget, cfg.WorkBudgetWait)
	}
	s.inflight = newInflight(0)
	s.kinds = cfg.Kinds
	if s.kinds == nil {
		s.kinds = ops.All()
	}
	s.hub = &live.Hub{Log: cfg.Logger, Timings: live.DefaultTimings, Base: base, Pages: s.pages(),
		MessagesPerSecond: cfg.Limits.MessagesPerSecond, MessageBurst: cfg.Limits.MessageBurst,
		Rooms: s.roomsReady, Joins: &s.rooms.joins, Budget: s.budget}
	if cfg.AnswerCache >= 0 {
		s.hub.Answers = live.NewAnswers(cmp.Or(cfg.AnswerCache, live.DefaultAnswerBytes))
	}
	e.HTTPErrorHandler = httpErrorHandler
	e.JSONSerializer = plainJSON{}
	e.Pre(headAsGet) // head.go: every GET route answers HEAD
	// /slice/ is /slice: a page's address typed with a trailing slash
	// redirects rather than 404s (only GET: a POST must not turn into one).
	e.Pre(middleware.RemoveTrailingSlashWithConfig(middleware.TrailingSlashConfig{
		RedirectCode: http.StatusMovedPermanently,
		Skipper:      func(c echo.Context) bool { return c.Request().Method != http.MethodGet },
	}))
	e.Use(keepHead)
	s.conns = newConnCounter(cfg.Limits)
	extract, err := ipExtractor(cfg.TrustedProxies)
	if err != nil {
		s.log.Error("ignoring trusted proxies", "err", err)
		extract = echo.ExtractIPDirect()
	}
	e.IPExtractor = extract

	e.Use(middleware.RecoverWithConfig(middleware.RecoverConfig{
		LogErrorFunc: func(c echo.Context, err error, stack []byte) error {
			s.log.Error("panic while serving", "path", c.Path(), "err", err, "stack", string(stack))
			return err
		},
	}))
	e.Use(middleware.RequestID())
	e.Use(middleware.RequestLoggerWithConfig(middleware.RequestLoggerConfig{
		LogStatus: true, LogURI: true, LogMethod: true, LogLatency: true, LogRequestID: true, LogError: true,
		HandleError: true,
		LogValuesFunc: func(c echo.Context, v middleware.RequestLoggerValues) error {
			level := slog.LevelInfo
			if v.Status >= 500 {
				level = slog.LevelError
			}
			s.log.LogAttrs(c.Request().Context(), level, "request",
				slog.String("method", v.Method), slog.String("uri", redactURI(v.URI)), slog.Int("status", v.Status),
				slog.Duration("latency", v.Latency), slog.String("id", v.RequestID))
			return nil
		},
	}))
	e.Use(localeMiddleware()) // locale.go: ?lang=, the lang cookie, Accept-Language
	e.Use(compress())
	// headers.go: only the explorers' embeds and pictures may be framed.
	e.Use(securityHeaders(s.log, cfg.FrameAncestors, frameableRoutes(s.kinds)))
	e.Use(apiCORS())                             // headers.go: other sites' scripts may call the API
	e.Use(bodyLimit(s.bodyLimit, s.importLimit)) // limits.go
	e.Use(rateLimitMiddleware(cfg.Limits))

	s.routes()
	return s
}

func (s *Server) routes() {
	e := s.echo
	e.GET("/healthz", func(c echo.Context) error { return c.String(http.StatusOK, "ok\n") })
	e.GET("/readyz", s.getReadyz)
	e.GET("/glossary", s.getGlossary)
	e.GET("/operators", s.getOperators)
	e.GET(APIDocPath, s.getAPIDoc) // apidoc.go
	e.GET("/ws", s.getWS)
	files := http.StripPrefix("/static/", static.Handler())
	e.GET("/static/*", func(c echo.Context) error {
		if !static.Has(c.Param("*")) {
			return echo.ErrNotFound // the site's 404, not the file server's plain text
		}
		files.ServeHTTP(c.Response(), c.Request())
		return nil
	})

	e.POST("/import", s.budgeted(asPage, s.postImportPage))
	e.GET("/check", s.getCheckPage)
	e.POST("/check", s.budgeted(asPage, s.postCheckPage))

	api := e.Group("/api/v1")
	api.POST("/dxdispatch", s.budgeted(asAPI, s.postDxDispatch))
	s.dxRoutes(api)
	api.POST("/import", s.budgeted(asAPI, s.postImport))
	api.POST("/check", s.budgeted(asAPI, s.postCheck))
	s.explorerRoutes()
	s.roomRoutes()
	s.docsRoutes()
}

// compress gzips the dynamic answers (pages, JSON, SVG) for clients that
// accept it. The static files come gzipped already (static.Handler), and
// /ws is left alone: its upgrade is hijacked and its binary frames are
// the socket's own.
func compress() echo.MiddlewareFunc {
	return middleware.GzipWithConfig(middleware.GzipConfig{
		Level:     gzip.DefaultCompression,
		MinLength: 512, // below one packet, gzip saves nothing worth the work
		Skipper: func(c echo.Context) bool {
			p := c.Request().URL.Path
			return p == "/ws" || strings.HasPrefix(p, "/static/") || c.Request().Header.Get("Upgrade") != ""
		},
	})
}

// Handler is the server's root handler, for tests and embedding.
func (s *Server) Handler() http.Handler { return s.echo }

// ListenAndServe serves on cfg.Addr until ctx is done, then shuts down
// gracefully within ShutdownTimeout. ready, if non-nil, receives the bound
// address once the listener is open.
func (s *Server) ListenAndServe(ctx context.Context, ready func(addr net.Addr)) error {
	ln, err := net.Listen("tcp", s.cfg.Addr)
	if err != nil {
		return err
	}
	return s.Serve(ctx, ln, ready)
}

// Serve is ListenAndServe on an existing listener.
func (s *Server) Serve(ctx context.Context, ln net.Listener, ready func(addr net.Addr)) error {
	srv := &http.Server{
		Handler:           s.echo,
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		ReadTimeout:       s.cfg.ReadTimeout,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	defer s.Close() // the rooms and their bus outlive no server
	errc := make(chan error, 1)
	// An API request refused for its length is answered in JSON, as
	// every other API error (longrequest.go).
	go func() { errc <- srv.Serve(longRequestListener{ln}) }()
	if ready != nil {
		ready(ln.Addr())
	}
	s.log.Info("serving", "addr", "http://"+ln.Addr().String())
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down", "timeout", s.cfg.ShutdownTimeout)
	start := time.Now()
	sctx, cancel := context.WithTimeout(context.Background(), s.cfg.ShutdownTimeout)
	defer cancel()
	// Shutdown does not wait for hijacked connections: tell every session
	// to close (1001), and cut the reads and writes still going on half-way
	// through the timeout, so that a peer that stopped reading (its writer
	// blocked on a full socket) cannot hold the shutdown. A slow reader has
	// that half to take its pending frame and the 1001; the other half is
	// for the sessions to wind down.
	s.wsShutdown()
	s.conns.cutAll(start.Add(s.cfg.ShutdownTimeout / 2))
	if err := srv.Shutdown(sctx); err != nil {
		return fmt.Errorf("shut down HTTP: %w", err)
	}
	done := make(chan struct{})
	go func() { s.sessions.Wait(); close(done) }()
	select {
	case <-done:
	case <-sctx.Done():
		return fmt.Errorf("websocket sessions still open after %v: %w", s.cfg.ShutdownTimeout, sctx.Err())
	}
	if n := s.hub.Cut(); n > 0 {
		s.log.Warn("shut down, cutting websockets whose peers did not read", "cut", n, "took", time.Since(start))
	} else {
		s.log.Info("shut down", "took", time.Since(start))
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// secretParams are query parameters that must not reach the logs: k is a
// room's join ticket (the presenter's join link and QR code carry it), and
// whoever reads a logged ticket gets past the guard on wrong codes.
var secretParams = []string{"k"}

// redactURI is a request URI for the log: every secret parameter's value,
// however its name is escaped and wherever it is in the query, is
// REDACTED; the rest is as it was.
func redactURI(uri string) string {
	path, query, ok := strings.Cut(uri, "?")
	if !ok {
		return uri
	}
	parts := strings.Split(query, "&")
	changed := false
	for i, p := range parts {
		k, _, _ := strings.Cut(p, "=")
		if uk, err := url.QueryUnescape(k); slices.Contains(secretParams, k) || (err == nil && slices.Contains(secretParams, uk)) {
			parts[i], changed = k+"=REDACTED", true
		}
	}
	if !changed {
		return uri
	}
	return path + "?" + strings.Join(parts, "&")
}
