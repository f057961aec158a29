package web

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"golang.org/x/time/rate"

	"github.com/stridescope/stridescope/core"
)

// Limits protect the server from floods while staying generous enough for
// a classroom of hundreds of devices behind one NAT address. Zero fields
// take the defaults of DefaultLimits.
type Limits struct {
	// MaxConns caps websockets server-wide; past it the upgrade gets 503.
	MaxConns int
	// MaxConnsPerAddr caps websockets from one client address (429).
	MaxConnsPerAddr int
	// MessagesPerSecond and MessageBurst pace one connection's messages:
	// past them the server stops reading that connection for a while,
	// which throttles it without touching anyone else.
	MessagesPerSecond float64
	MessageBurst      int
	// RequestsPerSecond and RequestBurst pace HTTP requests (including
	// websocket upgrades) per client address (429).
	RequestsPerSecond float64
	RequestBurst      int
}

// DefaultLimits are sized for one 2-core replica serving classrooms.
var DefaultLimits = Limits{
	MaxConns:          4000,
	MaxConnsPerAddr:   1000,
	MessagesPerSecond: 40,
	MessageBurst:      80,
	RequestsPerSecond: 200,
	RequestBurst:      4000,
}

func (l *Limits) setDefaults() {
	d := DefaultLimits
	if l.MaxConns == 0 {
		l.MaxConns = d.MaxConns
	}
	if l.MaxConnsPerAddr == 0 {
		l.MaxConnsPerAddr = d.MaxConnsPerAddr
	}
	if l.MessagesPerSecond == 0 {
		l.MessagesPerSecond = d.MessagesPerSecond
	}
	if l.MessageBurst == 0 {
		l.MessageBurst = d.MessageBurst
	}
	if l.RequestsPerSecond == 0 {
		l.RequestsPerSecond = d.RequestsPerSecond
	}
	if l.RequestBurst == 0 {
		l.RequestBurst = d.RequestBurst
	}
}

// ipExtractor trusts X-Forwarded-For only from the configured proxies;
// otherwise the client address is the TCP peer, so a client cannot spoof
// its way past the per-address limits.
func ipExtractor(trusted []string) (echo.IPExtractor, error) {
	if len(trusted) == 0 {
		return echo.ExtractIPDirect(), nil
	}
	opts := []echo.TrustOption{echo.TrustLoopback(false), echo.TrustLinkLocal(false), echo.TrustPrivateNet(false)}
	for _, cidr := range trusted {
		_, n, err := net.ParseCIDR(cidr)
		if err != nil {
			ip := net.ParseIP(cidr)
			if ip == nil {
				return nil, fmt.Errorf("trusted proxy %q is neither an IP nor a CIDR", cidr)
			}
			bits := 8 * len(ip.To16())
			if ip.To4() != nil {
				ip, bits = ip.To4(), 32
			}
			n = &net.IPNet{IP: ip, Mask: net.CIDRMask(bits, bits)}
		}
		opts = append(opts, echo.TrustIPRange(n))
	}
	return echo.ExtractIPFromXFFHeader(opts...), nil
}

// rateLimitMiddleware paces requests per client address.
func rateLimitMiddleware(l Limits) echo.MiddlewareFunc {
	store := middleware.NewRateLimiterMemoryStoreWithConfig(middleware.RateLimiterMemoryStoreConfig{
		Rate: rate.Limit(l.RequestsPerSecond), Burst: l.RequestBurst, ExpiresIn: 3 * time.Minute,
	})
	return middleware.RateLimiterWithConfig(middleware.RateLimiterConfig{
		Skipper: func(c echo.Context) bool { return c.Path() == "/healthz" },
		Store:   store,
		IdentifierExtractor: func(c echo.Context) (string, error) {
			return c.RealIP(), nil
		},
		DenyHandler: func(c echo.Context, id string, err error) error {
			c.Response().Header().Set("Retry-After", "1")
			return &apiError{status: http.StatusTooManyRequests, violations: []core.Violation{{Message: "too many requests from this address; slow down"}}}
		},
		ErrorHandler: func(c echo.Context, err error) error {
			return &apiError{status: http.StatusForbidden, violations: []core.Violation{{Message: "cannot identify the client address"}}}
		},
	})
}

// connCounter admits websockets up to a server-wide and a per-address cap.
type connCounter struct {
	limits Limits
	total  atomic.Int64
	mu     sync.Mutex
	byAddr map[string]int
}

func newConnCounter(l Limits) *connCounter {
	return &connCounter{limits: l, byAddr: map[string]int{}}
}

// acquire reserves a connection slot for addr, or says why not with the
// HTTP status to answer before the upgrade.
func (cc *connCounter) acquire(addr string) (release func(), status int, msg string) {
	if cc.total.Add(1) > int64(cc.limits.MaxConns) {
		cc.total.Add(-1)
		return nil, http.StatusServiceUnavailable, "the server is at its connection limit; try again shortly"
	}
	cc.mu.Lock()
	if cc.byAddr[addr] >= cc.limits.MaxConnsPerAddr {
		cc.mu.Unlock()
		cc.total.Add(-1)
		return nil, http.StatusTooManyRequests, "too many connections from this address"
	}
	cc.byAddr[addr]++
	cc.mu.Unlock()
	var once sync.Once
	return func() {
		once.Do(func() {
			cc.mu.Lock()
			if cc.byAddr[addr]--; cc.byAddr[addr] <= 0 {
				delete(cc.byAddr, addr)
			}
			cc.mu.Unlock()
			cc.total.Add(-1)
		})
	}, 0, ""
}

// Open is the number of websockets open now.
func (cc *connCounter) Open() int64 { return cc.total.Load() }
