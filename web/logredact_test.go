package web

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// lockedBuffer is a log's output that the test reads while the server
// writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// uris are the URIs of the request lines logged so far.
func (l *lockedBuffer) uris() []string {
	var uris []string
	for _, line := range strings.Split(l.String(), "\n") {
		var rec struct{ Msg, URI string }
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == "request" {
			uris = append(uris, rec.URI)
		}
	}
	return uris
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRequestLogRedactsJoinTickets (issue #35, finding 8): a room's join ticket
// (?k=, in the presenter's join link and QR code) never reaches the
// request log, however the request spells it; the rest of the URI does.
func TestRequestLogRedactsJoinTickets(t *testing.T) {
	var logged lockedBuffer
	s := New(Config{Logger: slog.New(slog.NewJSONHandler(&logged, nil))})
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(ts.Close)
	t.Cleanup(func() { s.Close() })

	code, location, presenter := openRoom(t, ts, "q=log")
	_, doc := getPage(t, ts.URL+location, cookieHeader(presenter))
	link, err := url.Parse(doc.Find(`[data-testid=room-join-url]`).AttrOr("href", ""))
	if err != nil || link.Query().Get("k") == "" {
		t.Fatalf("the presenter's join link %q carries no ticket", link)
	}
	ticket := link.Query().Get("k")
	esc := url.QueryEscape(ticket)
	for _, tc := range []struct {
		name, uri, want string
	}{
		{"the presenter's join link", link.RequestURI(), strings.Replace(link.RequestURI(), "k="+esc, "k=REDACTED", 1)},
		{"the ticket first", "/r/" + code + "?k=" + esc + "&lang=fr", "/r/" + code + "?k=REDACTED&lang=fr"},
		{"twice", "/r/" + code + "?k=" + esc + "&k=" + esc + "x", "/r/" + code + "?k=REDACTED&k=REDACTED"},
		{"an escaped name", "/r/" + code + "?%6B=" + esc, "/r/" + code + "?%6B=REDACTED"},
		{"no value", "/r/" + code + "?k", "/r/" + code + "?k=REDACTED"},
		{"no ticket", "/r/" + code + "?lang=fr&kk=1", "/r/" + code + "?lang=fr&kk=1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := http.Get(ts.URL + tc.uri)
			if err != nil {
				t.Fatal(err)
			}
			res.Body.Close()
			// The line is written once the handler returns, which may be
			// after the client has the response.
			deadline := time.Now().Add(10 * time.Second)
			for !slices.Contains(logged.uris(), tc.want) && time.Now().Before(deadline) {
				time.Sleep(5 * time.Millisecond)
			}
			if !slices.Contains(logged.uris(), tc.want) {
				t.Errorf("no request logged as %q; logged: %q", tc.want, logged.uris())
			}
		})
	}
	if strings.Contains(logged.String(), ticket) || strings.Contains(logged.String(), esc) {
		t.Errorf("the ticket %q is in the log:\n%s", ticket, logged.String())
	}
}
