package live

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// fakeAnswer emits a result, one binary frame and done for seq, like an
// edit's answer.
func fakeAnswer(seq int64, body string) func(emit func(frame) error) error {
	return func(emit func(frame) error) error {
		if err := emit(frame{kind: websocket.TextMessage, data: fmt.Appendf(nil, `{"v":2,"type":"result","seq":%d,"html":%q}`, seq, body), seq: seq}); err != nil {
			return err
		}
		bp, b := frameBuf(FrameHeaderLen + 8)
		putFrameHeader(b, FrameCounts, seq, 0, 1, 0)
		copy(b[FrameHeaderLen:], "offsets!")
		if err := emit(frame{kind: websocket.BinaryMessage, data: b, seq: seq, pooled: bp}); err != nil {
			return err
		}
		return emit(frame{kind: websocket.TextMessage, data: fmt.Appendf(nil, `{"v":2,"type":"done","seq":%d}`, seq), seq: seq})
	}
}

// gather collects what an answer emits.
func gather(frames *[]frame) func(frame) error {
	return func(f frame) error {
		*frames = append(*frames, frame{kind: f.kind, data: bytes.Clone(f.data), seq: f.seq})
		return nil
	}
}

// wantAnswer checks frames are fakeAnswer(seq, body)'s.
func wantAnswer(t *testing.T, frames []frame, seq int64, body string) {
	t.Helper()
	var want []frame
	if err := fakeAnswer(seq, body)(gather(&want)); err != nil {
		t.Fatal(err)
	}
	if len(frames) != len(want) {
		t.Fatalf("%d frames, want %d", len(frames), len(want))
	}
	for i := range want {
		if frames[i].kind != want[i].kind || !bytes.Equal(frames[i].data, want[i].data) || frames[i].seq != seq {
			t.Errorf("frame %d: %q (seq %d), want %q (seq %d)", i, frames[i].data, frames[i].seq, want[i].data, seq)
		}
	}
}

func TestAnswersReplayWithTheAskersSeq(t *testing.T) {
	a := newAnswers(1<<20, 1<<20, 16)
	key := answerKey{page: "layout", query: "sizes=2,3"}
	for _, seq := range []int64{7, 123456789012, 8, 1} {
		var got []frame
		if err := a.answer(context.Background(), key, seq, fakeAnswer(seq, "picture"), gather(&got)); err != nil {
			t.Fatal(err)
		}
		wantAnswer(t, got, seq, "picture")
	}
	if c, r := a.computed.Load(), a.replayed.Load(); c != 1 || r != 3 {
		t.Errorf("computed %d, replayed %d; want 1 and 3", c, r)
	}
	// Another query, or the same query on another page, is its own answer.
	for _, k := range []answerKey{{page: "layout", query: "sizes=3"}, {page: "slice", query: "sizes=2,3"}} {
		var got []frame
		if err := a.answer(context.Background(), k, 2, fakeAnswer(2, k.page+k.query), gather(&got)); err != nil {
			t.Fatal(err)
		}
		wantAnswer(t, got, 2, k.page+k.query)
	}
	if c := a.computed.Load(); c != 3 {
		t.Errorf("computed %d, want 3", c)
	}
}

// TestAnswersComputeOnceForConcurrentAskers: a room's viewers all ask at
// once; one computes, the others wait for its answer.
func TestAnswersComputeOnceForConcurrentAskers(t *testing.T) {
	a := newAnswers(1<<20, 1<<20, 16)
	key := answerKey{query: "q"}
	const askers = 50
	release := make(chan struct{})
	var wg sync.WaitGroup
	got := make([][]frame, askers)
	errs := make([]error, askers)
	for i := range askers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			seq := int64(i + 1)
			slow := func(emit func(frame) error) error {
				<-release
				return fakeAnswer(seq, "once")(emit)
			}
			errs[i] = a.answer(context.Background(), key, seq, slow, gather(&got[i]))
		}()
	}
	time.Sleep(50 * time.Millisecond) // let the askers queue up
	close(release)
	wg.Wait()
	for i := range askers {
		if errs[i] != nil {
			t.Fatalf("asker %d: %v", i, errs[i])
		}
		wantAnswer(t, got[i], int64(i+1), "once")
	}
	if c := a.computed.Load(); c != 1 {
		t.Errorf("computed %d times for %d concurrent askers, want once", c, askers)
	}
}

// TestAnswersAbandonedByTheComputingSession: the session computing an
// answer is superseded; a waiting session computes it instead.
func TestAnswersAbandonedByTheComputingSession(t *testing.T) {
	a := newAnswers(1<<20, 1<<20, 16)
	key := answerKey{query: "q"}
	started, abandon := make(chan struct{}), make(chan struct{})
	leaderErr := make(chan error, 1)
	go func() {
		leaderErr <- a.answer(context.Background(), key, 1, func(emit func(frame) error) error {
			close(started)
			<-abandon
			return context.Canceled
		}, func(frame) error { return nil })
	}()
	<-started
	waiterDone := make(chan []frame, 1)
	go func() {
		var got []frame
		if err := a.answer(context.Background(), key, 2, fakeAnswer(2, "again"), gather(&got)); err != nil {
			t.Error(err)
		}
		waiterDone <- got
	}()
	time.Sleep(20 * time.Millisecond) // the waiter waits
	close(abandon)
	if err := <-leaderErr; !errors.Is(err, context.Canceled) {
		t.Errorf("the abandoning session: %v", err)
	}
	wantAnswer(t, <-waiterDone, 2, "again")
	if c := a.computed.Load(); c != 2 {
		t.Errorf("computed %d, want 2 (abandoned, then again)", c)
	}
	// A waiter whose own edit is superseded stops waiting.
	a2 := newAnswers(1<<20, 1<<20, 16)
	block := make(chan struct{})
	defer close(block)
	go a2.answer(context.Background(), key, 1, func(func(frame) error) error { <-block; return nil }, func(frame) error { return nil })
	for a2.computed.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if err := a2.answer(ctx, key, 2, fakeAnswer(2, "x"), func(frame) error { return nil }); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a superseded waiter: %v", err)
	}
}

// TestAnswersTooBigAreStreamedNotKept: an answer over the entry cap goes
// out as it is computed, and later askers compute their own at once.
func TestAnswersTooBigAreStreamedNotKept(t *testing.T) {
	a := newAnswers(64, 1<<20, 16)
	key := answerKey{query: "big"}
	body := strings.Repeat("x", 100)
	for seq := int64(1); seq <= 3; seq++ {
		var got []frame
		if err := a.answer(context.Background(), key, seq, fakeAnswer(seq, body), gather(&got)); err != nil {
			t.Fatal(err)
		}
		wantAnswer(t, got, seq, body)
	}
	if c, r := a.computed.Load(), a.replayed.Load(); c != 3 || r != 0 {
		t.Errorf("computed %d, replayed %d; want 3 and 0", c, r)
	}
	if want := int64(len(key.query)); a.bytes != want {
		t.Errorf("kept %d bytes for a too big answer, want %d (its key)", a.bytes, want)
	}
}

func TestAnswersEvictLeastRecentlyUsed(t *testing.T) {
	var one []frame
	if err := fakeAnswer(1, "a")(gather(&one)); err != nil {
		t.Fatal(err)
	}
	size := int64(1) // the key, a one-byte query
	for _, f := range one {
		size += int64(len(f.data))
	}
	a := newAnswers(1<<20, 3*size, 16)
	ask := func(q string) {
		if err := a.answer(context.Background(), answerKey{query: q}, 1, fakeAnswer(1, "a"), func(frame) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	ask("1")
	ask("2")
	ask("3")
	ask("1") // 1 is now the most recent: 2 goes first
	ask("4")
	a.mu.Lock()
	_, has1 := a.entries[answerKey{query: "1"}]
	_, has2 := a.entries[answerKey{query: "2"}]
	n, b := len(a.entries), a.bytes
	a.mu.Unlock()
	if !has1 || has2 || n != 3 || b != 3*size {
		t.Errorf("after eviction: has 1 %v, has 2 %v, %d answers, %d bytes; want true, false, 3, %d", has1, has2, n, b, 3*size)
	}
	// And by count.
	c := newAnswers(1<<20, 1<<30, 2)
	for q := range 5 {
		if err := c.answer(context.Background(), answerKey{query: fmt.Sprint(q)}, 1, fakeAnswer(1, "a"), func(frame) error { return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if len(c.entries) != 2 || c.lru.Len() != 2 {
		t.Errorf("%d answers kept, want 2", len(c.entries))
	}
}

// readAnswer reads the frames of seq's answer until its done (or its
// result, when the edit is invalid), with seq written as 0 so that two
// sessions' answers compare.
func readAnswer(t *testing.T, c *websocket.Conn, seq int64) [][]byte {
	t.Helper()
	var out [][]byte
	for {
		_ = c.SetReadDeadline(time.Now().Add(30 * time.Second))
		typ, data, err := c.ReadMessage()
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		if typ == websocket.BinaryMessage {
			h, ok := ParseFrameHeader(data)
			if !ok || int64(h.Seq) != seq {
				continue
			}
			binary.LittleEndian.PutUint32(data[4:], 0)
			out = append(out, data)
			continue
		}
		field := fmt.Sprintf(`"seq":%d`, seq)
		i := bytes.Index(data, []byte(field))
		if i < 0 || (data[i+len(field)] != ',' && data[i+len(field)] != '}') {
			continue
		}
		out = append(out, bytes.Replace(data, []byte(field), []byte(`"seq":0`), 1))
		if bytes.Contains(data, []byte(`"type":"done"`)) || bytes.Contains(data, []byte(`"ok":false`)) {
			return out
		}
	}
}

// TestAnswersNotKeptWhenSuperseded: rendering stops early without an
// error when the computing session's edit is superseded; what it made is
// not an answer to keep.
func TestAnswersNotKeptWhenSuperseded(t *testing.T) {
	a := newAnswers(1<<20, 1<<20, 16)
	key := answerKey{query: "q"}
	ctx, cancel := context.WithCancel(context.Background())
	partial := func(emit func(frame) error) error {
		cancel() // superseded while rendering: an empty picture, no error
		return fakeAnswer(1, "")(emit)
	}
	_ = a.answer(ctx, key, 1, partial, func(frame) error { return nil })
	var got []frame
	if err := a.answer(context.Background(), key, 2, fakeAnswer(2, "whole"), gather(&got)); err != nil {
		t.Fatal(err)
	}
	wantAnswer(t, got, 2, "whole")
	if r := a.replayed.Load(); r != 0 {
		t.Errorf("replayed %d answers computed under a cancelled context", r)
	}
}

// TestAnswersPanicReleasesWaiters: a panic while computing (recovered by
// the session) leaves no asker waiting and nothing cached.
func TestAnswersPanicReleasesWaiters(t *testing.T) {
	a := newAnswers(1<<20, 1<<20, 16)
	key := answerKey{query: "q"}
	started, boom := make(chan struct{}), make(chan struct{})
	go func() {
		defer func() { _ = recover() }()
		_ = a.answer(context.Background(), key, 1, func(func(frame) error) error {
			close(started)
			<-boom
			panic("boom")
		}, func(frame) error { return nil })
	}()
	<-started
	done := make(chan []frame, 1)
	go func() {
		var got []frame
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := a.answer(ctx, key, 2, fakeAnswer(2, "after"), gather(&got)); err != nil {
			t.Errorf("the waiter: %v", err)
		}
		done <- got
	}()
	time.Sleep(20 * time.Millisecond)
	close(boom)
	wantAnswer(t, <-done, 2, "after")
	a.mu.Lock()
	n := len(a.entries)
	a.mu.Unlock()
	if n != 0 {
		t.Errorf("%d answers left after a panic, want 0", n)
	}
}
