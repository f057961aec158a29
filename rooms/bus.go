package rooms

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Bus carries room state between the replicas that serve one classroom,
// and stores each room's record so that rooms outlive a replica. Only the
// small parameter state travels; every replica computes its own pictures.
type Bus interface {
	// Publish sends data to everyone subscribed to subject.
	Publish(subject string, data []byte) error
	// Subscribe calls fn for each message on subject (NATS wildcards
	// allowed) until the returned function is called.
	Subscribe(subject string, fn func(subject string, data []byte)) (unsubscribe func(), err error)
	// Serve answers requests on subject with fn's reply; a nil reply stays
	// silent so another replica may answer.
	Serve(subject string, fn func(data []byte) []byte) (stop func(), err error)
	// Request asks subject and returns the first answer within timeout.
	Request(subject string, data []byte, timeout time.Duration) ([]byte, error)

	// CreateRoom stores a new room's record: ErrRoomExists when the code
	// is taken.
	CreateRoom(ctx context.Context, code string, record []byte) error
	// PutRoom writes a record (a room's "someone is in it" stamp).
	PutRoom(ctx context.Context, code string, record []byte) error
	// UpdateRoom replaces a room's record only while the store has it:
	// ErrNoRoom when it has none (the room ended), so that no late write
	// brings an ended room back.
	UpdateRoom(ctx context.Context, code string, record []byte) error
	// GetRoom reads a room's record: ErrNoRoom when there is none.
	GetRoom(ctx context.Context, code string) ([]byte, error)
	// DeleteRoom ends a room.
	DeleteRoom(ctx context.Context, code string) error
	// ListRooms returns the keys of every stored record.
	ListRooms(ctx context.Context) ([]string, error)

	// Up reports whether the bus is connected now.
	Up() bool
	// Watch calls fn whenever the bus goes down or comes back.
	Watch(fn func(up bool))
	Close() error
}

// ErrNoAnswer is returned by Request when nobody answered in time.
var ErrNoAnswer = errors.New("no answer on the bus")

// ErrBusClosed is returned by Publish after Close (a session leaving a
// room while the server shuts down).
var ErrBusClosed = errors.New("the bus is closed")

// ErrRoomExists is returned by CreateRoom for a code already in use.
var ErrRoomExists = errors.New("the room code is taken")

// roomBucket is the JetStream key-value bucket of the rooms' records.
const roomBucket = "stridescope_rooms"

// Timings of a connection to an external NATS: a stalled server is
// noticed within about pingEvery*(maxPingsOut+1), and the client keeps
// trying to reconnect, without end.
const (
	natsPingEvery   = 2 * time.Second
	natsMaxPingsOut = 2
	natsFlushWait   = time.Second
)

// natsBus is a Bus over a NATS connection, optionally to a NATS server
// embedded in this process, with the rooms' records in JetStream.
type natsBus struct {
	conn     *nats.Conn
	kv       jetstream.KeyValue
	embedded *natsserver.Server
	tmpDir   string // the embedded server's store when it has no data directory

	mu       sync.Mutex
	up       bool
	watchers []func(bool)
}

// NewEmbeddedBus starts a NATS server inside the process that opens no
// port and connects to it in-process: rooms work with nothing else
// running. With dataDir the rooms are stored there and survive a restart;
// without, they are kept in memory.
func NewEmbeddedBus(dataDir string) (Bus, error) {
	b := &natsBus{up: true}
	store, storage := dataDir, jetstream.FileStorage
	if dataDir == "" {
		dir, err := os.MkdirTemp("", "stridescope-nats-")
		if err != nil {
			return nil, fmt.Errorf("embedded nats: %w", err)
		}
		b.tmpDir, store, storage = dir, dir, jetstream.MemoryStorage
	} else if err := os.MkdirAll(dataDir, 0o700); err != nil {
		return nil, fmt.Errorf("embedded nats: data directory: %w", err)
	}
	ns, err := natsserver.NewServer(&natsserver.Options{DontListen: true, NoSigs: true, NoLog: true,
		JetStream: true, StoreDir: store, ServerName: "stridescope"})
	if err != nil {
		b.removeTmp()
		return nil, fmt.Errorf("embedded nats: %w", err)
	}
	ns.Start()
	if !ns.ReadyForConnections(5 * time.Second) {
		ns.Shutdown()
		b.removeTmp()
		return nil, errors.New("embedded nats: not ready after 5s")
	}
	b.embedded = ns
	nc, err := nats.Connect(ns.ClientURL(), nats.InProcessServer(ns), nats.Name("stridescope"))
	if err != nil {
		b.Close()
		return nil, fmt.Errorf("embedded nats: connect: %w", err)
	}
	b.conn = nc
	if err := b.openStore(storage, 1); err != nil {
		b.Close()
		return nil, fmt.Errorf("embedded nats: %w", err)
	}
	return b, nil
}

// NewNATSBus connects to an external NATS server or cluster (o.URL, a
// comma separated list of URLs), so several replicas share rooms; o also
// holds the credentials and TLS files (see BusOptions). The servers must
// run JetStream: the rooms' records live in its key-value store.
func NewNATSBus(o BusOptions) (Bus, error) {
	auth, err := o.natsOptions()
	if err != nil {
		return nil, err
	}
	b := &natsBus{}
	opts := append([]nats.Option{nats.Name("stridescope"), nats.MaxReconnects(-1), nats.ReconnectWait(500 * time.Millisecond),
		nats.ReconnectJitter(250*time.Millisecond, time.Second),
		nats.PingInterval(natsPingEvery), nats.MaxPingsOutstanding(natsMaxPingsOut),
		nats.DisconnectErrHandler(func(*nats.Conn, error) { b.setUp(false) }),
		nats.ReconnectHandler(func(*nats.Conn) { b.setUp(true) }),
		nats.ClosedHandler(func(*nats.Conn) { b.setUp(false) }),
	}, auth...)
	nc, err := nats.Connect(o.URL, opts...)
	if err != nil {
		return nil, o.connectError(err)
	}
	b.conn = nc
	b.setUp(nc.IsConnected())
	if err := b.openStore(jetstream.FileStorage, 1); err != nil {
		nc.Close()
		return nil, fmt.Errorf("nats %s: %w (the NATS servers must run JetStream)", redactURL(o.URL), err)
	}
	return b, nil
}

// openStore binds the rooms' bucket, creating it if nobody has: an
// operator may create it beforehand with more replicas.
func (b *natsBus) openStore(storage jetstream.StorageType, replicas int) error {
	js, err := jetstream.New(b.conn)
	if err != nil {
		return fmt.Errorf("jetstream: %w", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	kv, err := js.KeyValue(ctx, roomBucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: roomBucket, Description: "stridescope classroom rooms",
			TTL: Lifetime, Storage: storage, Replicas: replicas, History: 1})
	}
	if err != nil {
		return fmt.Errorf("key-value bucket %s: %w", roomBucket, err)
	}
	b.kv = kv
	return nil
}

func (b *natsBus) setUp(up bool) {
	b.mu.Lock()
	if b.up == up {
		b.mu.Unlock()
		return
	}
	b.up = up
	ws := append([]func(bool){}, b.watchers...)
	b.mu.Unlock()
	for _, fn := range ws {
		fn(up)
	}
}

func (b *natsBus) Up() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.up
}

func (b *natsBus) Watch(fn func(bool)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.watchers = append(b.watchers, fn)
}

func (b *natsBus) Publish(subject string, data []byte) error {
	err := b.conn.Publish(subject, data)
	if errors.Is(err, nats.ErrConnectionClosed) {
		return ErrBusClosed
	}
	return err
}

func (b *natsBus) Subscribe(subject string, fn func(string, []byte)) (func(), error) {
	sub, err := b.conn.Subscribe(subject, func(m *nats.Msg) { fn(m.Subject, m.Data) })
	if err != nil {
		return nil, fmt.Errorf("subscribe %s: %w", subject, err)
	}
	// Make sure the server has the subscription before anyone relies on
	// it (a request from another replica right after this returns).
	if err := b.conn.FlushTimeout(natsFlushWait); err != nil {
		_ = sub.Unsubscribe()
		return nil, fmt.Errorf("subscribe %s: %w", subject, err)
	}
	return func() { _ = sub.Unsubscribe() }, nil
}

func (b *natsBus) Serve(subject string, fn func([]byte) []byte) (func(), error) {
	sub, err := b.conn.Subscribe(subject, func(m *nats.Msg) {
		if reply := fn(m.Data); reply != nil {
			_ = m.Respond(reply)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("serve %s: %w", subject, err)
	}
	if err := b.conn.FlushTimeout(natsFlushWait); err != nil {
		_ = sub.Unsubscribe()
		return nil, fmt.Errorf("serve %s: %w", subject, err)
	}
	return func() { _ = sub.Unsubscribe() }, nil
}

func (b *natsBus) Request(subject string, data []byte, timeout time.Duration) ([]byte, error) {
	m, err := b.conn.Request(subject, data, timeout)
	if errors.Is(err, nats.ErrTimeout) || errors.Is(err, nats.ErrNoResponders) {
		return nil, ErrNoAnswer
	}
	if err != nil {
		return nil, fmt.Errorf("request %s: %w", subject, err)
	}
	return m.Data, nil
}

func (b *natsBus) CreateRoom(ctx context.Context, code string, record []byte) error {
	_, err := b.kv.Create(ctx, code, record)
	if errors.Is(err, jetstream.ErrKeyExists) {
		return ErrRoomExists
	}
	return err
}

func (b *natsBus) PutRoom(ctx context.Context, code string, record []byte) error {
	_, err := b.kv.Put(ctx, code, record)
	return err
}

// UpdateRoom writes over the revision it read: an end in between (a purge
// is a revision too) makes the write fail, and the next read says
// ErrNoRoom.
func (b *natsBus) UpdateRoom(ctx context.Context, code string, record []byte) error {
	for range 3 {
		e, err := b.kv.Get(ctx, code)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			return ErrNoRoom
		}
		if err != nil {
			return err
		}
		if _, err := b.kv.Update(ctx, code, record, e.Revision()); !errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			return err
		}
	}
	return fmt.Errorf("update %s: the record kept changing under the write", code)
}

func (b *natsBus) GetRoom(ctx context.Context, code string) ([]byte, error) {
	e, err := b.kv.Get(ctx, code)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, ErrNoRoom
	}
	if err != nil {
		return nil, err
	}
	return e.Value(), nil
}

func (b *natsBus) DeleteRoom(ctx context.Context, code string) error {
	err := b.kv.Purge(ctx, code)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil
	}
	return err
}

func (b *natsBus) ListRooms(ctx context.Context) ([]string, error) {
	keys, err := b.kv.Keys(ctx)
	if errors.Is(err, jetstream.ErrNoKeysFound) {
		return nil, nil
	}
	return keys, err
}

func (b *natsBus) Close() error {
	var err error
	if b.conn != nil {
		err = b.conn.FlushTimeout(natsFlushWait)
		b.conn.Close()
	}
	if b.embedded != nil {
		b.embedded.Shutdown()
		b.embedded.WaitForShutdown()
	}
	b.removeTmp()
	return err
}

func (b *natsBus) removeTmp() {
	if b.tmpDir != "" {
		_ = os.RemoveAll(b.tmpDir)
	}
}
