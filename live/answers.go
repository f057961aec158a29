package live

import (
	"bytes"
	"container/list"
	"context"
	"encoding/binary"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/gorilla/websocket"
)

// Answers shares the answers to edits between the sessions of a replica.
// In a room every viewer's page sends the presenter's state back as an edit
// of its own, so without sharing a replica would compute the same answer
// once per viewer: 500 viewers of a presenter at 20 states a second kept
// both cores of a small machine busy. An answer is a pure function of the
// page and the query, so it is computed once, kept if it is small, and
// replayed with each asker's sequence number.
//
// While an answer is being computed, later askers of the same query wait
// for it instead of computing it again. The computing session records the
// frames rather than sending them as it goes, so a slow peer on that
// session cannot hold up the others; an answer that grows past the entry
// cap is not kept, the waiters compute their own, and the computing
// session streams the rest directly.
type Answers struct {
	maxEntry, maxBytes int64
	maxEntries         int

	mu      sync.RWMutex
	entries map[answerKey]*list.Element // of *answer
	lru     list.List                   // most recently used at the front
	bytes   int64

	computed, replayed atomic.Int64 // answers computed and replayed, for tests
}

type answerKey struct{ page, query, locale, frames string }

// answer is one query's answer: its frames once ready is closed and kept
// is true. Not kept: the computation was abandoned (the waiters try again)
// or the answer is too big to keep (too big: they compute their own).
type answer struct {
	key    answerKey
	ready  chan struct{}
	frames []answerFrame
	size   int64
	kept   bool
	tooBig bool
}

// answerFrame is a recorded frame with the place of its sequence number:
// for text, the digits after "seq": at seqAt; for binary, the header's.
type answerFrame struct {
	kind   int
	data   []byte
	seqAt  int // -1: no sequence number to replace
	seqLen int
}

// Default caps: an answer of up to 8 MiB (the HTML of a layout drawn as
// 4096 DOM cells is about 3 MiB, of a slice about 4.5 MiB), 64 MiB and
// 2048 answers in all.
const (
	answerMaxEntry   = 8 << 20
	answerMaxBytes   = 64 << 20
	answerMaxEntries = 2048
)

// DefaultAnswerBytes is how many bytes of answers a replica keeps unless
// told otherwise.
const DefaultAnswerBytes = answerMaxBytes

// NewAnswers keeps up to maxBytes of answers, 8 MiB at most each.
func NewAnswers(maxBytes int64) *Answers {
	return newAnswers(answerMaxEntry, maxBytes, answerMaxEntries)
}

func newAnswers(maxEntry, maxBytes int64, maxEntries int) *Answers {
	return &Answers{maxEntry: min(maxEntry, maxBytes), maxBytes: maxBytes, maxEntries: maxEntries, entries: map[answerKey]*list.Element{}}
}

// answer sends seq's answer to key through emit: replayed when it is
// kept, after waiting for it when another session is computing it, else
// computed by compute (which emits frames of sequence number seq).
func (a *Answers) answer(ctx context.Context, key answerKey, seq int64, compute func(emit func(frame) error) error, emit func(frame) error) error {
	e, leader := a.acquire(key)
	if leader {
		return a.lead(ctx, e, seq, compute, emit)
	}
	select {
	case <-e.ready:
	case <-ctx.Done():
		return ctx.Err()
	}
	if e.kept {
		a.replayed.Add(1)
		return replay(e.frames, seq, emit)
	}
	// Too big to keep, or abandoned by the session computing it (its edit
	// was superseded there): compute it here, rather than queue again
	// behind a session that might abandon it again.
	a.computed.Add(1)
	return compute(emit)
}

// acquire returns key's answer, or a new one to compute (leader).
func (a *Answers) acquire(key answerKey) (e *answer, leader bool) {
	// A room's followers all ask for the same answer at once, and it is
	// the most recently used: then a read lock does, which they share,
	// instead of queueing one by one on the lock to move it to the front.
	a.mu.RLock()
	el, ok := a.entries[key]
	front := ok && a.lru.Front() == el
	a.mu.RUnlock()
	if front {
		return el.Value.(*answer), false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if el, ok := a.entries[key]; ok {
		a.lru.MoveToFront(el)
		return el.Value.(*answer), false
	}
	e = &answer{key: key, ready: make(chan struct{})}
	a.entries[key] = a.lru.PushFront(e)
	return e, true
}

// lead computes e under ctx, recording its frames; it sends them through
// emit only once the answer is complete, or as soon as it proves too big
// to keep.
func (a *Answers) lead(ctx context.Context, e *answer, seq int64, compute func(emit func(frame) error) error, emit func(frame) error) error {
	a.computed.Add(1)
	settled := false
	settle := func(kept, tooBig bool, size int64) {
		settled = true
		a.settle(e, kept, tooBig, size)
	}
	// A panic while computing must not leave the waiters waiting.
	defer func() {
		if !settled {
			a.settle(e, false, false, 0)
		}
	}()
	size := int64(len(e.key.page) + len(e.key.query))
	streaming := false
	err := compute(func(f frame) error {
		if streaming {
			return emit(f)
		}
		rec := recordFrame(f, seq)
		putPooled(f)
		size += int64(len(rec.data))
		e.frames = append(e.frames, rec)
		if size <= a.maxEntry && rec.seqAt >= 0 {
			return nil
		}
		// Too big to keep (or a frame without a sequence number, which
		// an edit never sends): release the waiters to compute their own
		// and stream from here on.
		frames := e.frames
		settle(false, true, int64(len(e.key.page)+len(e.key.query)))
		streaming = true
		for _, r := range frames {
			if err := emit(frame{kind: r.kind, data: r.data, seq: seq}); err != nil {
				return err
			}
		}
		return nil
	})
	if streaming {
		return err
	}
	// Rendering stops early when the edit is superseded, and may return
	// no error for it: only an answer computed under a live context is
	// complete.
	if err == nil {
		err = ctx.Err()
	}
	if err != nil {
		settle(false, false, 0)
		return err
	}
	settle(true, false, size)
	return replay(e.frames, seq, emit)
}

// settle makes e final: kept (its frames may be replayed), too big, or
// abandoned. Only a kept answer stays in the cache, and a too big one as
// a marker, so that askers compute at once instead of waiting. size
// counts the key too, so that long queries with small answers count.
func (a *Answers) settle(e *answer, kept, tooBig bool, size int64) {
	a.mu.Lock()
	defer a.mu.Unlock()
	e.kept, e.tooBig, e.size = kept, tooBig, size
	if !kept {
		e.frames = nil
	}
	close(e.ready)
	el, ok := a.entries[e.key]
	if !ok || el.Value.(*answer) != e {
		return
	}
	if !kept && !tooBig {
		a.lru.Remove(el)
		delete(a.entries, e.key)
		return
	}
	a.bytes += size
	// Evict the least recently used answers, but never one still being
	// computed (its waiters hold it) or the one just kept.
	for a.bytes > a.maxBytes || a.lru.Len() > a.maxEntries {
		back := a.lru.Back()
		for back != nil && (back == el || !isReady(back.Value.(*answer))) {
			back = back.Prev()
		}
		if back == nil {
			break
		}
		old := back.Value.(*answer)
		a.lru.Remove(back)
		delete(a.entries, old.key)
		a.bytes -= old.size
	}
}

func isReady(e *answer) bool {
	select {
	case <-e.ready:
		return true
	default:
		return false
	}
}

// recordFrame copies f, finding its sequence number seq.
func recordFrame(f frame, seq int64) answerFrame {
	r := answerFrame{kind: f.kind, data: bytes.Clone(f.data), seqAt: -1}
	switch f.kind {
	case websocket.BinaryMessage:
		if len(r.data) >= FrameHeaderLen && int64(binary.LittleEndian.Uint32(r.data[4:])) == int64(uint32(seq)) {
			r.seqAt, r.seqLen = 4, 4
		}
	case websocket.TextMessage:
		// Every message of an edit names its seq among its first fields,
		// before any text taken from the query.
		field := `"seq":` + strconv.FormatInt(seq, 10)
		head := r.data[:min(len(r.data), 64)]
		if i := bytes.Index(head, []byte(field)); i >= 0 {
			next := i + len(field)
			if next < len(r.data) && (r.data[next] == ',' || r.data[next] == '}') {
				r.seqAt, r.seqLen = i+len(`"seq":`), len(field)-len(`"seq":`)
			}
		}
	}
	return r
}

// replay sends recorded frames as the answer to seq.
func replay(frames []answerFrame, seq int64, emit func(frame) error) error {
	digits := strconv.AppendInt(nil, seq, 10)
	for _, r := range frames {
		var data []byte
		switch r.kind {
		case websocket.BinaryMessage:
			data = bytes.Clone(r.data)
			binary.LittleEndian.PutUint32(data[r.seqAt:], uint32(seq))
		default:
			data = make([]byte, 0, len(r.data)-r.seqLen+len(digits))
			data = append(data, r.data[:r.seqAt]...)
			data = append(data, digits...)
			data = append(data, r.data[r.seqAt+r.seqLen:]...)
		}
		if err := emit(frame{kind: r.kind, data: data, seq: seq}); err != nil {
			return err
		}
	}
	return nil
}

// putPooled returns a pooled frame's buffer once it has been copied.
func putPooled(f frame) {
	if f.pooled != nil {
		*f.pooled = (*f.pooled)[:0]
		framePool.Put(f.pooled)
	}
}
