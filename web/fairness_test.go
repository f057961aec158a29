package web

// Fair sharing of websockets between client addresses (connCounter).

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

func TestAddrKey(t *testing.T) {
	tests := []struct{ ip, want string }{
		{"192.0.2.7", "192.0.2.7"},
		{"127.0.0.2", "127.0.0.2"},
		{"::ffff:192.0.2.7", "192.0.2.7"}, // IPv4-mapped: the IPv4 client
		{"2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"},
		{"2001:db8:1:2:ffff:ffff:ffff:ffff", "2001:db8:1:2::/64"}, // same /64
		{"2001:db8:1:3::1", "2001:db8:1:3::/64"},                  // next /64
		{"::1", "::/64"},
		{"fe80::1%eth0", "fe80::/64"}, // the zone does not make a new client
		{"2001:DB8::1", "2001:db8::/64"},
		{"not an ip", "not an ip"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := addrKey(tt.ip); got != tt.want {
			t.Errorf("addrKey(%q) = %q, want %q", tt.ip, got, tt.want)
		}
	}
}

// TestConnCounterRule walks the admission rule on the counter alone.
func TestConnCounterRule(t *testing.T) {
	cc := newConnCounter(Limits{MaxConns: 4, MaxConnsPerAddr: 3})
	take := func(ip string, want int) *connSlot {
		t.Helper()
		sl, st, _ := cc.acquire(ip)
		if got := map[bool]int{true: 101, false: st}[sl != nil]; got != want {
			t.Fatalf("%s: got %d, want %d (open %d)", ip, got, want, cc.Open())
		}
		return sl
	}
	a1 := take("192.0.2.1", 101)
	time.Sleep(time.Millisecond) // a1 is the least recently heard of A
	take("192.0.2.1", 101)
	take("192.0.2.1", 101)
	take("192.0.2.1", 429) // per-address cap
	take("192.0.2.2", 101) // full: A 3, B 1
	take("192.0.2.3", 101) // a new address takes A's idlest
	if !a1.gone || !a1.evicted {
		t.Errorf("A's oldest slot was not the one evicted")
	}
	take("192.0.2.2", 503) // B holds 1, the most any holds is 2: no gain
	take("2001:db8::1", 101)
	take("2001:db8::2", 503) // the same /64 holds 1 already
	if cc.Open() != 4 {
		t.Errorf("open %d, want 4", cc.Open())
	}
	a1.release() // releasing an evicted slot changes nothing
	if cc.Open() != 4 {
		t.Errorf("after releasing an evicted slot: open %d, want 4", cc.Open())
	}
	// At the smallest setting a new address still gets in.
	one := newConnCounter(Limits{MaxConns: 1, MaxConnsPerAddr: 1})
	if sl, _, _ := one.acquire("192.0.2.1"); sl == nil {
		t.Fatal("first slot refused")
	}
	if sl, st, _ := one.acquire("192.0.2.2"); sl == nil {
		t.Errorf("a new address was refused (%d) by one holding the only slot", st)
	}
}

// TestConnCounterExactUnderConcurrency races admissions, evictions and
// releases, then checks the books.
func TestConnCounterExactUnderConcurrency(t *testing.T) {
	l := Limits{MaxConns: 50, MaxConnsPerAddr: 30}
	cc := newConnCounter(l)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(g), 1))
			var held []*connSlot
			for range 3000 {
				if len(held) > 0 && r.IntN(3) == 0 {
					i := r.IntN(len(held))
					held[i].release()
					held = append(held[:i], held[i+1:]...)
					continue
				}
				if sl, _, _ := cc.acquire(fmt.Sprintf("192.0.2.%d", r.IntN(6))); sl != nil {
					held = append(held, sl)
				}
			}
			for _, sl := range held {
				sl.release()
			}
		}()
	}
	// Meanwhile the invariants hold at every look.
	stop := make(chan struct{})
	checked := make(chan int)
	go func() {
		n := 0
		defer func() { checked <- n }()
		for {
			select {
			case <-stop:
				return
			default:
			}
			cc.mu.Lock()
			sum := 0
			for key, slots := range cc.byAddr {
				if len(slots) == 0 || len(slots) > l.MaxConnsPerAddr {
					t.Errorf("%s holds %d", key, len(slots))
				}
				sum += len(slots)
			}
			if sum != cc.total || cc.total > l.MaxConns {
				t.Errorf("total %d, by address %d, cap %d", cc.total, sum, l.MaxConns)
			}
			cc.mu.Unlock()
			n++
			time.Sleep(100 * time.Microsecond)
		}
	}()
	wg.Wait()
	close(stop)
	t.Logf("books checked %d times during the run", <-checked)
	if cc.Open() != 0 || len(cc.byAddr) != 0 {
		t.Errorf("after every slot was released: open %d, %d addresses", cc.Open(), len(cc.byAddr))
	}
}

// dialFrom opens a websocket from a given loopback address; it returns
// the HTTP status of a refusal, or 101.
func dialFrom(url, ip string) (*websocket.Conn, int, error) {
	d := websocket.Dialer{
		NetDialContext:   (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 5 * time.Second}).DialContext,
		HandshakeTimeout: 5 * time.Second,
	}
	c, res, err := d.Dial(url, nil)
	if err != nil {
		if res != nil {
			return nil, res.StatusCode, nil
		}
		return nil, 0, err
	}
	return c, http.StatusSwitchingProtocols, nil
}

// flood opens n websockets from ip with a few dialers at once and keeps
// them open and idle; it counts the statuses.
func flood(t *testing.T, url, ip string, n int) ([]*websocket.Conn, map[int]int) {
	t.Helper()
	var (
		mu     sync.Mutex
		conns  []*websocket.Conn
		status = map[int]int{}
		wg     sync.WaitGroup
		next   = make(chan struct{}, n)
	)
	for range n {
		next <- struct{}{}
	}
	close(next)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range next {
				c, st, err := dialFrom(url, ip)
				mu.Lock()
				if err != nil {
					t.Errorf("dial from %s: %v", ip, err)
				}
				status[st]++
				if c != nil {
					conns = append(conns, c)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close()
		}
	})
	return conns, status
}

// readHello reads a session's first message.
func readHello(c *websocket.Conn) error {
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	_, data, err := c.ReadMessage()
	if err != nil {
		return err
	}
	if len(data) == 0 || data[0] != '{' {
		return fmt.Errorf("first message %q", data)
	}
	return nil
}

// closeCode reads until the server closes c; -1 if it hung up without a
// close frame.
func closeCode(c *websocket.Conn, within time.Duration) int {
	_ = c.SetReadDeadline(time.Now().Add(within))
	for {
		_, _, err := c.ReadMessage()
		var ce *websocket.CloseError
		if errors.As(err, &ce) {
			return ce.Code
		}
		if err != nil {
			return -1
		}
	}
}

func TestHardenEvictionClosesTheIdlestWith1013(t *testing.T) {
	s, ts := wsServer(t, Config{Limits: Limits{MaxConns: 3}}, nil)
	url := wsURL(ts)
	open := func(ip string) *websocket.Conn {
		t.Helper()
		c, st, err := dialFrom(url, ip)
		if c == nil {
			t.Fatalf("dial from %s: %d %v", ip, st, err)
		}
		t.Cleanup(func() { c.Close() })
		if err := readHello(c); err != nil {
			t.Fatal(err)
		}
		return c
	}
	idle := open("127.0.0.2")
	busy := open("127.0.0.2")
	open("127.0.0.3")
	sendEdit(t, busy, 1, "sizes=2,3") // heard from: the idle one goes first
	collect(t, busy, 1)
	start := time.Now()
	open("127.0.0.4")
	code := closeCode(idle, 5*time.Second)
	t.Logf("a newcomer at a full server: the idle socket of the address holding the most got %d after %v; open %d",
		code, time.Since(start), s.conns.Open())
	if code != websocket.CloseTryAgainLater {
		t.Errorf("close code %d, want 1013", code)
	}
	if s.conns.Open() != 3 || s.conns.addrOpen("127.0.0.2") != 1 {
		t.Errorf("open %d, 127.0.0.2 holds %d; want 3 and 1", s.conns.Open(), s.conns.addrOpen("127.0.0.2"))
	}
	sendEdit(t, busy, 2, "sizes=2,3")
	if got := collect(t, busy, 2); !got.result.OK {
		t.Errorf("the busy socket of the same address broke: %+v", got.result)
	}
}

func TestHardenEvictedNonReaderEndsPromptly(t *testing.T) {
	s, ts := wsServer(t, Config{Limits: Limits{MaxConns: 2}}, nil)
	url := wsURL(ts)
	stuck, _, err := dialFrom(url, "127.0.0.2")
	if stuck == nil {
		t.Fatal(err)
	}
	defer stuck.Close()
	other, _, err := dialFrom(url, "127.0.0.2")
	if other == nil {
		t.Fatal(err)
	}
	defer other.Close()
	// stuck asks for the largest stream there is, the counts of 2^24
	// overlapping elements (16 MiB), and stops reading once it streams:
	// its writer blocks on a full socket.
	sendEdit(t, stuck, 1, bigStream)
	_ = stuck.SetReadDeadline(time.Now().Add(20 * time.Second))
	for {
		typ, _, err := stuck.ReadMessage()
		if err != nil {
			t.Fatal(err)
		}
		if typ == websocket.BinaryMessage {
			break
		}
	}
	time.Sleep(300 * time.Millisecond)
	_ = other.WriteMessage(websocket.TextMessage, []byte(`{}`)) // heard from after stuck
	time.Sleep(50 * time.Millisecond)
	newcomer, st, err := dialFrom(url, "127.0.0.3")
	if newcomer == nil {
		t.Fatalf("newcomer: %d %v", st, err)
	}
	defer newcomer.Close()
	if s.conns.Open() != 2 || s.conns.addrOpen("127.0.0.2") != 1 {
		t.Errorf("open %d, 127.0.0.2 holds %d; want 2 and 1 at once", s.conns.Open(), s.conns.addrOpen("127.0.0.2"))
	}
	// Still not reading, past the grace: the server must have cut the
	// blocked write and hung up by itself. Draining then finds what the
	// kernel buffered and the end of the stream, not a 1013 that only a
	// writer unblocked by our reading could send.
	time.Sleep(evictGrace + 700*time.Millisecond)
	start := time.Now()
	_ = stuck.SetReadDeadline(time.Now().Add(5 * time.Second))
	var frames int
	for {
		if _, _, err = stuck.ReadMessage(); err != nil {
			break
		}
		frames++
	}
	t.Logf("the evicted socket, its writer blocked on 16 MiB it did not read, was hung up within %v of the eviction: %d buffered frames drained in %v, then %v",
		evictGrace+700*time.Millisecond, frames, time.Since(start), err)
	var ce *websocket.CloseError
	if isTimeout(err) || errors.As(err, &ce) && ce.Code != websocket.CloseAbnormalClosure {
		t.Errorf("the evicted session was still there once the peer read: %v", err)
	}
	if err := readHello(newcomer); err != nil {
		t.Errorf("newcomer: %v", err)
	}
}

// TestHardenFairSockets: four addresses flooding the server cannot keep a
// fifth, or a classroom behind one NAT, from getting websockets.
func TestHardenFairSockets(t *testing.T) {
	if testing.Short() {
		t.Skip("opens thousands of websockets")
	}
	lim, perAddr := Limits{}, 1100 // the defaults: 4000, 1000 per address
	if raceEnabled {
		// Still room for the class: 400 shared by six addresses is 66 each.
		lim, perAddr = Limits{MaxConns: 400, MaxConnsPerAddr: 100}, 110
	}
	begin := time.Now()
	s, ts := wsServer(t, Config{Limits: lim}, nil)
	lim = s.cfg.Limits
	url := wsURL(ts)
	attackers := []string{"127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5"}
	var wg sync.WaitGroup
	statuses := make([]map[int]int, len(attackers))
	for i, ip := range attackers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, statuses[i] = flood(t, url, ip, perAddr)
		}()
	}
	wg.Wait()
	t.Logf("%d addresses x %d websockets in %v: %v; open %d of %d",
		len(attackers), perAddr, time.Since(begin), statuses, s.conns.Open(), lim.MaxConns)
	if s.conns.Open() != int64(lim.MaxConns) {
		t.Fatalf("open %d, want the server full (%d)", s.conns.Open(), lim.MaxConns)
	}

	// A fifth address gets a live session.
	fifth, st, err := dialFrom(url, "127.0.0.6")
	if fifth == nil {
		t.Fatalf("fifth address refused: %d %v", st, err)
	}
	defer fifth.Close()
	if err := readHello(fifth); err != nil {
		t.Fatalf("fifth address: %v", err)
	}

	// A class of 40 behind one NAT gets in too, and is answered.
	const class = 40
	var students []*websocket.Conn
	for i := range class {
		c, st, err := dialFrom(url, "127.0.0.7")
		if c == nil {
			t.Fatalf("student %d refused: %d %v", i, st, err)
		}
		defer c.Close()
		if err := readHello(c); err != nil {
			t.Fatalf("student %d: %v", i, err)
		}
		students = append(students, c)
	}
	// The flooders come back for more; they can only take from each other.
	again := make([]map[int]int, len(attackers))
	for i, ip := range attackers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, again[i] = flood(t, url, ip, 25)
		}()
	}
	wg.Wait()
	for i, c := range students {
		sendEdit(t, c, 1, "sizes=3,4")
		if got := collect(t, c, 1); !got.result.OK {
			t.Fatalf("student %d: %+v", i, got.result)
		}
	}
	held := map[string]int{}
	for _, ip := range append(attackers, "127.0.0.6", "127.0.0.7") {
		held[ip] = s.conns.addrOpen(ip)
	}
	took := time.Since(begin)
	t.Logf("then 1 + %d newcomers got in, the flooders came back (%v); held %v, open %d; %v in all",
		class, again, held, s.conns.Open(), took)
	if held["127.0.0.6"] != 1 || held["127.0.0.7"] != class {
		t.Errorf("the newcomers hold %d and %d, want 1 and %d", held["127.0.0.6"], held["127.0.0.7"], class)
	}
	if s.conns.Open() != int64(lim.MaxConns) {
		t.Errorf("open %d, want %d", s.conns.Open(), lim.MaxConns)
	}
	if took > 30*time.Second {
		t.Errorf("took %v", took)
	}
}
