package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/stridescope/stridescope/core"
	"github.com/stridescope/stridescope/i18n"
)

// maxHeaderBytes bounds a request's line and headers (http.Server's
// MaxHeaderBytes): memory per connection before any handler runs.
const maxHeaderBytes = 64 << 10

// netHTTP431 is net/http's own answer to a request whose line and
// headers pass MaxHeaderBytes, written on the connection before any
// handler (or the error handler) can run: plain text, where every other
// API error is {"errors": [...]}.
const netHTTP431 = "HTTP/1.1 431 Request Header Fields Too Large\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n431 Request Header Fields Too Large"

// longRequestListener hands the server connections that answer an API
// request refused for its length (an address with a query of 64 KiB and
// more, or as many bytes of headers) in the API's shape: a JSON error
// with a code, 414 for the address, 431 for the headers. Pages keep
// net/http's answer (the headers, and so the language and whether the
// client takes HTML, were never read).
type longRequestListener struct{ net.Listener }

func (l longRequestListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return c, err
	}
	return &longRequestConn{Conn: c}, nil
}

// headKeep is how much of a request's start a connection keeps: enough
// for the method, an API path and a lang= at the start of the query.
const headKeep = 512

// longRequestConn keeps the first bytes of the request being read (those
// read since the last answer was written) and whether its request line
// has ended, to tell what net/http's 431 refused.
type longRequestConn struct {
	net.Conn
	// upgraded: the connection carries a websocket now (a 101 was
	// written), and is passed through untouched: its frames are no
	// requests, and its reads and writes are the sessions' hot path.
	upgraded atomic.Bool
	mu       sync.Mutex // net/http reads in the background while a handler writes
	head     []byte
	lineDone bool
	wrote    bool // an answer was written since the last read: the next read starts a request
}

func (c *longRequestConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if c.upgraded.Load() {
		return n, err
	}
	c.mu.Lock()
	if c.wrote {
		c.head, c.lineDone, c.wrote = c.head[:0], false, false
	}
	if n > 0 && !c.lineDone {
		chunk := p[:n]
		if i := bytes.IndexByte(chunk, '\n'); i >= 0 && len(bytes.TrimSpace(append(c.head[:len(c.head):len(c.head)], chunk[:i]...))) > 0 {
			c.lineDone, chunk = true, chunk[:i]
		}
		if room := headKeep - len(c.head); room > 0 {
			c.head = append(c.head, chunk[:min(room, len(chunk))]...)
		}
	}
	c.mu.Unlock()
	return n, err
}

func (c *longRequestConn) Write(p []byte) (int, error) {
	if c.upgraded.Load() {
		return c.Conn.Write(p)
	}
	if bytes.HasPrefix(p, switchingProtocols) {
		c.upgraded.Store(true)
		return c.Conn.Write(p)
	}
	c.mu.Lock()
	c.wrote = true
	var answer []byte
	if len(p) == len(netHTTP431) && string(p) == netHTTP431 {
		answer = longRequestAnswer(c.head, c.lineDone)
	}
	c.mu.Unlock()
	if answer == nil {
		return c.Conn.Write(p)
	}
	if _, err := c.Conn.Write(answer); err != nil {
		return 0, err
	}
	return len(p), nil
}

// switchingProtocols starts the answer that makes a connection a
// websocket.
var switchingProtocols = []byte("HTTP/1.1 101 ")

// CloseWrite half-closes the connection (halfClose).
func (c *longRequestConn) CloseWrite() error { return halfClose(c.Conn) }

// halfClose shuts nc's writing side when nc can (a TCP or TLS connection,
// or a wrapper of one): a websocket session that refused a frame shuts
// its side so that the peer, having read the close frame, closes too. The
// server's connection wrappers pass it on, since a wrapper hides it.
func halfClose(nc net.Conn) error {
	if cw, ok := nc.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// longRequestAnswer is the API's answer to a request refused for its
// length, from the request's first bytes: nil for a request that is not
// the API's (or that cannot be read).
func longRequestAnswer(head []byte, lineDone bool) []byte {
	line := strings.TrimLeft(string(head), "\r\n")
	method, target, ok := strings.Cut(line, " ")
	if !ok || method == "" || strings.ContainsAny(method, "\r\n\t") {
		return nil
	}
	path, query, hasQuery := strings.Cut(target, "?")
	if !hasQuery {
		path, _, _ = strings.Cut(target, " ")
	}
	if !strings.HasPrefix(path, "/api/") {
		return nil
	}
	// The query's lang= when it comes first, as the pages' links write it;
	// the headers (Accept-Language, the cookie) were never read.
	loc := i18n.English
	for kv := range strings.SplitSeq(query, "&") {
		if v, ok := strings.CutPrefix(kv, "lang="); ok {
			if l, ok := i18n.Parse(v); ok {
				loc = l
			}
			break
		}
	}
	status := http.StatusRequestHeaderFieldsTooLarge
	v := core.NewMsg("request.large", "the request's address and headers are longer than {limit} bytes", core.Args{"limit": maxHeaderBytes}).At("")
	if !lineDone {
		// The request line never ended: the address is what is long.
		status = http.StatusRequestURITooLong
		if hasQuery {
			v = core.NewMsg("query.long", "the query is longer than {limit} bytes", core.Args{"limit": maxHeaderBytes}).At("")
		}
	}
	var body bytes.Buffer
	enc := json.NewEncoder(&body)
	enc.SetEscapeHTML(false)
	if enc.Encode(errorBody{Errors: loc.Violations([]core.Violation{v})}) != nil {
		return nil
	}
	return fmt.Appendf(nil, "HTTP/1.1 %d %s\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: %d\r\nX-Content-Type-Options: nosniff\r\nAccess-Control-Allow-Origin: *\r\nConnection: close\r\n\r\n%s",
		status, http.StatusText(status), body.Len(), body.Bytes())
}
