package web

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
	"github.com/stridescope/stridescope/testkit"
)

// TestLongRequestsAnswerTheAPIsShape: an API request whose query (or
// headers) pass what the server reads before any handler runs (64 KiB)
// is answered as every other API error, {"errors": [...]} with a code,
// in the query's lang= when it has one; not net/http's plain text. A
// query past a route's own limit but under 64 KiB is the route's 400, as
// before; a page past 64 KiB is not given JSON. The connection's earlier
// requests (keep-alive) do not confuse it.
func TestLongRequestsAnswerTheAPIsShape(t *testing.T) {
	addr := serveOnLoopback(t, New(Config{Logger: testkit.Quiet()}))
	long := strings.Repeat("1,", 40000) + "1" // 80001 bytes
	client := &http.Client{}
	for _, c := range []struct {
		name, method, path string
		header             string // an extra header's value, of its size
		status             int
		code, message      string // "": not JSON
	}{
		{"a long query", "GET", "/api/v1/layout.svg?sizes=" + long, "", 414, "query.long", "the query is longer than 65536 bytes"},
		{"a long query on a POST route", "POST", "/api/v1/import?x=" + long, "", 414, "query.long", "the query is longer than 65536 bytes"},
		{"a long query on a JSON route", "GET", "/api/v1/dxdispatch/layout.json?sizes=" + long, "", 414, "query.long", "the query is longer than 65536 bytes"},
		{"long headers", "GET", "/api/v1/layout.svg?sizes=2", strings.Repeat("a", 80000), 431, "request.large", "the request's address and headers are longer than 65536 bytes"},
		{"a query past the route's limit", "GET", "/api/v1/layout.svg?sizes=" + long[:5001], "", 400, "query.long", "the query is longer than 4096 bytes"},
		// On the connection the 400 kept alive.
		{"a long query, in French", "GET", "/api/v1/slice1.svg?lang=fr&sizes=" + long, "", 414, "query.long", "la requête dépasse 65\u202f536 octets"},
		{"a short request after them", "GET", "/api/v1/layout.svg?sizes=2&lang=pt-BR&x=" + strings.Repeat("1", 100), "", 200, "", ""},
		{"a page", "GET", "/?sizes=" + long, "", 431, "", ""},
	} {
		req, _ := http.NewRequest(c.method, "http://"+addr+c.path, nil)
		if c.header != "" {
			req.Header.Set("X-Long", c.header)
		}
		res, err := client.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != c.status {
			t.Errorf("%s: status %d, want %d: %.200s", c.name, res.StatusCode, c.status, b)
			continue
		}
		isJSON := strings.HasPrefix(res.Header.Get("Content-Type"), "application/json")
		if c.code == "" {
			if c.status != 200 && isJSON {
				t.Errorf("%s: a page answered JSON: %s", c.name, b)
			}
			continue
		}
		var body struct {
			Errors []struct{ Field, Code, Message string }
		}
		if !isJSON || json.Unmarshal(b, &body) != nil || len(body.Errors) != 1 {
			t.Errorf("%s: %s %q, want the JSON errors", c.name, res.Header.Get("Content-Type"), b)
			continue
		}
		if e := body.Errors[0]; e.Code != c.code || e.Message != c.message || e.Field != "" {
			t.Errorf("%s: %+v, want %s %q", c.name, e, c.code, c.message)
		}
		if c.status != 400 && res.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("%s: no CORS header, which every API answer has", c.name)
		}
	}
}

// TestWebsocketsPassThroughTheLongRequestConn: a connection that became a
// websocket is passed through as it is, its half-close included: a
// frame header over the read limit gets its 1009 and then the end of the
// connection at once, not after the 2 s drain a server that cannot
// half-close waits out.
func TestWebsocketsPassThroughTheLongRequestConn(t *testing.T) {
	addr := serveOnLoopback(t, New(Config{Logger: testkit.Quiet()}))
	c, _, err := websocket.DefaultDialer.Dial("ws://"+addr+"/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	nc := c.NetConn()
	if _, err := nc.Write([]byte{0x81, 0x80 | 127, 0, 0, 0, 0, 0, 0x10, 0, 0, 1, 2, 3, 4}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	_ = nc.SetReadDeadline(time.Now().Add(10 * time.Second))
	got, err := io.ReadAll(nc) // the hello, the 1009, then the end
	if err != nil {
		t.Fatalf("after %v: %v", time.Since(start), err)
	}
	if !bytes.Contains(got, []byte{0x88, 0x02, 0x03, 0xf1}) { // close, 2 bytes, 1009
		t.Errorf("no close 1009 in %q", got)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("the connection ended %v after the 1009, want at once", d)
	}
}
