package web

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/labstack/echo/v4/middleware"
	"github.com/labstack/gommon/bytes"
	"golang.org/x/time/rate"

	"github.com/stridescope/stridescope/core"
)

// Limits protect the server from floods while staying generous enough for
// a classroom of hundreds of devices behind one NAT address. Zero fields
// take the defaults of DefaultLimits.
type Limits struct {
	// MaxConns caps websockets server-wide. When the server is full, a
	// client address holding fewer websockets than another takes one of
	// that address's (connCounter); past that the upgrade gets 503.
	MaxConns int
	// MaxConnsPerAddr caps websockets from one client address (429); an
	// IPv6 /64 counts as one address (addrKey).
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
	// A negative cap would refuse everyone (Config.Validate rejects it).
	if l.MaxConns <= 0 {
		l.MaxConns = d.MaxConns
	}
	if l.MaxConnsPerAddr <= 0 {
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
			return addrKey(c.RealIP()), nil
		},
		DenyHandler: func(c echo.Context, id string, err error) error {
			c.Response().Header().Set("Retry-After", "1")
			return &apiError{status: http.StatusTooManyRequests, violations: []core.Violation{core.NewMsg("limit.rate", "too many requests from this address; slow down", nil).At("")}}
		},
		ErrorHandler: func(c echo.Context, err error) error {
			return &apiError{status: http.StatusForbidden, violations: []core.Violation{core.NewMsg("limit.address", "cannot identify the client address", nil).At("")}}
		},
	})
}

// addrKey is the client address that per-address limits count: an IPv4
// address as it is, an IPv6 address as its /64, since one subscriber is
// typically given a whole /64 and could otherwise pose as 2^64 clients.
// An IPv4-mapped IPv6 address counts as its IPv4 address; a string that
// is not an IP is returned unchanged.
func addrKey(ip string) string {
	a, err := netip.ParseAddr(ip)
	if err != nil {
		return ip
	}
	a = a.Unmap().WithZone("")
	if a.Is4() {
		return a.String()
	}
	p, err := a.Prefix(64)
	if err != nil {
		return ip
	}
	return p.String()
}

// connCounter admits websockets and keeps the slots they hold, by client
// address (addrKey), so that no set of addresses can starve another:
//
//   - an address holding MaxConnsPerAddr websockets gets no more (429);
//   - below MaxConns, every other upgrade is admitted;
//   - at MaxConns, an address holding c websockets is admitted if another
//     holds at least c+2, or if c is 0 and another holds any: the address
//     holding the most loses its least recently heard-from websocket,
//     closed with 1013 (try again later). Otherwise 503.
//
// So shares converge on max-min fairness: a new address always gets a
// websocket, whatever the flags and however many the others hold, and a
// classroom behind one NAT is never the one to lose sockets while other
// addresses hold more than it.
type connCounter struct {
	limits Limits
	mu     sync.Mutex
	total  int                               // slots held; under mu
	byAddr map[string]map[*connSlot]struct{} // by addrKey; under mu
	cut    time.Time                         // set at shutdown: no session's I/O outlasts it; under mu
}

// connSlot is one admitted websocket.
type connSlot struct {
	cc    *connCounter
	key   string
	heard atomic.Int64 // unix nanoseconds the peer last sent anything (or was admitted)
	// under cc.mu:
	ws      *wsConn // nil until the upgrade is done
	gone    bool    // released or evicted: no longer counted
	evicted bool
}

func newConnCounter(l Limits) *connCounter {
	return &connCounter{limits: l, byAddr: map[string]map[*connSlot]struct{}{}}
}

// acquire reserves a websocket slot for the client at ip, evicting
// another address's if fairness says so, or says why not with the HTTP
// status to answer before the upgrade.
func (cc *connCounter) acquire(ip string) (slot *connSlot, status int, msg core.Msg) {
	key := addrKey(ip)
	cc.mu.Lock()
	if !cc.cut.IsZero() {
		cc.mu.Unlock()
		return nil, http.StatusServiceUnavailable, core.NewMsg("ws.shutdown", "the server is shutting down", nil)
	}
	held := len(cc.byAddr[key])
	if held >= cc.limits.MaxConnsPerAddr {
		cc.mu.Unlock()
		return nil, http.StatusTooManyRequests, core.NewMsg("ws.address", "too many connections from this address", nil)
	}
	var victim *wsConn
	if cc.total >= cc.limits.MaxConns {
		v := cc.victimFor(held)
		if v == nil {
			cc.mu.Unlock()
			return nil, http.StatusServiceUnavailable, core.NewMsg("ws.limit", "the server is at its connection limit; try again shortly", nil)
		}
		cc.drop(v)
		v.evicted = true
		victim = v.ws // nil: the upgrade is in progress; attach evicts it
	}
	slot = &connSlot{cc: cc, key: key}
	slot.heard.Store(time.Now().UnixNano())
	if cc.byAddr[key] == nil {
		cc.byAddr[key] = map[*connSlot]struct{}{}
	}
	cc.byAddr[key][slot] = struct{}{}
	cc.total++
	cc.mu.Unlock()
	if victim != nil {
		victim.evict()
	}
	return slot, 0, core.Msg{}
}

// victimFor picks the slot a newcomer holding held websockets may take:
// the least recently heard-from of the address holding the most, if that
// address holds at least held+2 (or held is 0). Called under cc.mu.
func (cc *connCounter) victimFor(held int) *connSlot {
	var most map[*connSlot]struct{}
	for _, slots := range cc.byAddr {
		if len(slots) > len(most) {
			most = slots
		}
	}
	if len(most) < held+2 && !(held == 0 && len(most) > 0) {
		return nil
	}
	var v *connSlot
	for sl := range most {
		if v == nil || sl.heard.Load() < v.heard.Load() {
			v = sl
		}
	}
	return v
}

// drop stops counting sl. Called under cc.mu.
func (cc *connCounter) drop(sl *connSlot) {
	sl.gone = true
	slots := cc.byAddr[sl.key]
	delete(slots, sl)
	if len(slots) == 0 {
		delete(cc.byAddr, sl.key)
	}
	cc.total--
}

// attach binds the upgraded session to its slot, closing it at once if
// the slot was evicted or the server shut down during the upgrade.
func (cc *connCounter) attach(sl *connSlot, ws *wsConn) {
	cc.mu.Lock()
	sl.ws = ws
	evicted, cut := sl.evicted, cc.cut
	cc.mu.Unlock()
	if !cut.IsZero() {
		ws.nc.cut(cut)
	}
	if evicted {
		ws.evict()
	}
}

// cutAll bounds every session's reads and writes, now and to come, to
// end by t; admits no more websockets.
func (cc *connCounter) cutAll(t time.Time) {
	cc.mu.Lock()
	cc.cut = t
	var open []*wsConn
	for _, slots := range cc.byAddr {
		for sl := range slots {
			if sl.ws != nil {
				open = append(open, sl.ws)
			}
		}
	}
	cc.mu.Unlock()
	for _, ws := range open {
		ws.nc.cut(t)
	}
}

// release gives the slot back; after an eviction it does nothing.
func (sl *connSlot) release() {
	sl.cc.mu.Lock()
	if !sl.gone {
		sl.cc.drop(sl)
	}
	sl.cc.mu.Unlock()
}

// touch records that the peer sent something: the slot is in use.
func (sl *connSlot) touch() { sl.heard.Store(time.Now().UnixNano()) }

// Open is the number of websockets open now (evicted ones not counted).
func (cc *connCounter) Open() int64 {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	return int64(cc.total)
}

// addrOpen is the number of websockets the client at ip holds.
func (cc *connCounter) addrOpen(ip string) int {
	cc.mu.Lock()
	defer cc.mu.Unlock()
	return len(cc.byAddr[addrKey(ip)])
}

// limitBytes reads a body limit in Echo's notation ("64KiB", "2MiB").
func limitBytes(l string) (int64, bool) {
	n, err := bytes.Parse(l)
	return n, err == nil && n > 0
}

// parseLimit is limitBytes, or def for a limit that does not parse
// (Config.Validate reports it).
func parseLimit(l string, def int64) int64 {
	if n, ok := limitBytes(l); ok {
		return n
	}
	return def
}

// bodyLimit caps request bodies at limit bytes, the import routes' at
// importLimit: a body declared larger is refused at once, and one sent in
// chunks stops at the limit (http.MaxBytesReader), both answered 413 with
// body.large naming the limit, never as a body that does not parse.
func bodyLimit(limit, importLimit int64) echo.MiddlewareFunc {
	return func(next echo.HandlerFunc) echo.HandlerFunc {
		return func(c echo.Context) error {
			r := c.Request()
			n := limit
			if p := c.Path(); p == "/import" || p == "/api/v1/import" || p == "/check" || p == "/api/v1/check" {
				n = importLimit
			}
			if r.ContentLength > n {
				// Closing the connection spares the wait for a body
				// that will not be read: net/http would otherwise read
				// up to 256 KiB of it before answering.
				c.Response().Header().Set("Connection", "close")
				return tooLarge(n)
			}
			if r.Body != nil && r.Body != http.NoBody {
				r.Body = http.MaxBytesReader(c.Response(), r.Body, n)
			}
			return next(c)
		}
	}
}

// tooLarge is the answer to a body over limit bytes.
func tooLarge(limit int64) *apiError {
	return &apiError{status: http.StatusRequestEntityTooLarge, violations: []core.Violation{
		core.NewMsg("body.large", "the body is larger than {limit} bytes", core.Args{"limit": limit}).At("")}}
}

// parseForm reads a form (its body and its address's query): a body over
// the limit is tooLarge, a form that does not parse a 400 (FormValue
// would quietly see no fields).
func parseForm(c echo.Context) error {
	err := c.Request().ParseForm()
	var max *http.MaxBytesError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &max):
		return tooLarge(max.Limit)
	}
	return badRequest("", "form.invalid", "the form is not valid: {detail}", core.Args{"detail": err.Error()})
}
