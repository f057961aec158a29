package web

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/stridescope/stridescope/rooms/natsbus"
	"github.com/stridescope/stridescope/rooms/natstest"
)

// TestRoomStoreLostAndBack (issue #35, finding 5): the rooms' bucket is taken away
// under two running replicas while the bus stays up. /readyz answers 503
// naming the store within 5 s, and opening a room is a 503; once the
// store is back, new rooms open again within 10 s with no restart (the
// bucket made again by the replicas), and the room that was live is
// written again from what its replica holds: a replica that never held
// it serves its last state from the new bucket, so a crash now would not
// roll it back.
func TestRoomStoreLostAndBack(t *testing.T) {
	const bucketStream = "KV_stridescope_rooms"
	for _, tc := range []struct {
		name string
		// lose takes the store away; back gives it back.
		lose, back func(t *testing.T, js jetstream.JetStream)
	}{
		{
			name: "bucket deleted and its name held by another stream",
			lose: func(t *testing.T, js jetstream.JetStream) {
				// The replicas make a deleted bucket again within a second:
				// the name is held so that the loss lasts.
				deadline := time.Now().Add(10 * time.Second)
				for {
					ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
					err := js.DeleteStream(ctx, bucketStream)
					if err == nil || errors.Is(err, jetstream.ErrStreamNotFound) {
						_, err = js.CreateStream(ctx, jetstream.StreamConfig{Name: bucketStream, Subjects: []string{"not.the.rooms.>"}})
					}
					cancel()
					if err == nil {
						return
					}
					if time.Now().After(deadline) {
						t.Fatalf("delete the bucket and hold its name: %v", err)
					}
				}
			},
			back: deleteStream(bucketStream),
		},
		{
			name: "bucket sealed, then deleted by the operator",
			lose: func(t *testing.T, js jetstream.JetStream) {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				s, err := js.Stream(ctx, bucketStream)
				if err != nil {
					t.Fatal(err)
				}
				cfg := s.CachedInfo().Config
				cfg.Sealed = true // refuses every write and delete
				if _, err := js.UpdateStream(ctx, cfg); err != nil {
					t.Fatal(err)
				}
			},
			back: deleteStream(bucketStream),
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url := natstest.Loopback(t)
			secret := []byte("store test secret")
			replica := func() *httptestServer {
				bus, err := natsbus.New(natsbus.Options{URL: url})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { bus.Close() })
				_, ts := roomServer(t, Config{Bus: bus, RoomSecret: secret})
				return &httptestServer{t: t, srv: ts, url: ts.URL}
			}
			a, b := replica(), replica()
			nc, err := nats.Connect(url)
			if err != nil {
				t.Fatal(err)
			}
			defer nc.Close()
			js, err := jetstream.New(nc)
			if err != nil {
				t.Fatal(err)
			}

			code, _, cookie := openRoom(t, a.ts(), "q=0")
			p := presentOn(t, a.ts(), code, cookie)
			v, _ := followOn(t, a.ts(), code)
			const last = "dt=FLOAT16&sizes=3,5"
			publish(t, p, last, "")
			readRoomUntil(t, v, last)
			a.waitReady(http.StatusOK, 10*time.Second)

			tc.lose(t, js)
			lost := time.Now()
			body := a.waitReady(http.StatusServiceUnavailable, 5*time.Second)
			t.Logf("/readyz 503 %v after the store was lost: %q", time.Since(lost).Round(time.Millisecond), body)
			if !strings.Contains(body, "store: cannot be written") {
				t.Errorf("/readyz does not name the store: %q", body)
			}
			if st := a.postRoom(); st != http.StatusServiceUnavailable {
				t.Errorf("POST /rooms with the store lost: %d, want 503", st)
			}

			tc.back(t, js)
			back := time.Now()
			for _, s := range []*httptestServer{a, b} {
				s.waitRoom(10*time.Second - time.Since(back))
			}
			t.Logf("new rooms open on both replicas %v after the store was back", time.Since(back).Round(time.Millisecond))
			a.waitReady(http.StatusOK, 10*time.Second)
			// b never held the room: it reads it from the new bucket.
			deadline := time.Now().Add(10 * time.Second)
			for {
				st, page := b.get("/r/" + code)
				if st == http.StatusOK && strings.Contains(page, "sizes=3,5") {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("GET /r/CODE on the replica that never held it: %d, last state shown %v", st, strings.Contains(page, "sizes=3,5"))
				}
				time.Sleep(100 * time.Millisecond)
			}
			t.Logf("the live room's record was written again %v after the store was back", time.Since(back).Round(time.Millisecond))
		})
	}
}

func deleteStream(name string) func(*testing.T, jetstream.JetStream) {
	return func(t *testing.T, js jetstream.JetStream) {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := js.DeleteStream(ctx, name); err != nil {
			t.Fatal(err)
		}
	}
}

// httptestServer is a replica's address, with what the test asks it.
type httptestServer struct {
	t   *testing.T
	srv *httptest.Server
	url string
}

func (s *httptestServer) ts() *httptest.Server { return s.srv }

func (s *httptestServer) get(path string) (int, string) {
	res, err := noRedirect.Get(s.url + path)
	if err != nil {
		s.t.Fatalf("GET %s: %v", path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(b)
}

func (s *httptestServer) postRoom() int {
	res, err := noRedirect.PostForm(s.url+"/rooms", map[string][]string{"page": {"layout"}, "query": {"q=1"}})
	if err != nil {
		s.t.Fatalf("POST /rooms: %v", err)
	}
	res.Body.Close()
	return res.StatusCode
}

// waitReady polls /readyz until it answers want, within d, and returns
// its body.
func (s *httptestServer) waitReady(want int, d time.Duration) string {
	s.t.Helper()
	deadline := time.Now().Add(d)
	for {
		st, body := s.get("/readyz")
		if st == want {
			return body
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("/readyz answered %d after %v, want %d: %q", st, d, want, body)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// waitRoom opens rooms until one opens (303), within d.
func (s *httptestServer) waitRoom(d time.Duration) {
	s.t.Helper()
	deadline := time.Now().Add(d)
	for {
		st := s.postRoom()
		if st == http.StatusSeeOther {
			return
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("POST /rooms still %d within %v of the store being back", st, d)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
