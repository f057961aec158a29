package rooms

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
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
	// UpdateRoom replaces a room's record only while the store holds it
	// at revision (as GetRoom read it): ErrRoomChanged when it has been
	// written since, ErrNoRoom when it is gone, so that the caller reads
	// it again and decides again (a write in flight never lands on an
	// end).
	UpdateRoom(ctx context.Context, code string, record []byte, revision uint64) error
	// GetRoom reads a room's record: ErrNoRoom when there is none.
	GetRoom(ctx context.Context, code string) (RoomEntry, error)
	// DeleteRoom ends a room.
	DeleteRoom(ctx context.Context, code string) error
	// ListRooms returns the keys of every stored record.
	ListRooms(ctx context.Context) ([]string, error)
	// ProbeStore writes to the store and reads the write back, so that a
	// store that cannot be written is noticed before a room needs it,
	// and tells when the store wrote it, on the store's clock. A store
	// whose bucket is gone (deleted, or NATS restarted on an empty store)
	// gets it made again, and says so (StoreProbe.Recreated).
	ProbeStore(ctx context.Context) (StoreProbe, error)

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

// ErrRoomChanged is returned by UpdateRoom when the record was written
// after it was read.
var ErrRoomChanged = errors.New("the room's record changed since it was read")

// RoomEntry is a record as the store holds it.
type RoomEntry struct {
	Value    []byte
	Revision uint64
	// Stored is when the store wrote it, on the store's clock, which no
	// client sets: a record written back later, even byte for byte, has
	// a later one.
	Stored time.Time
}

// StoreProbe is what ProbeStore found.
type StoreProbe struct {
	Revision  uint64    // the probe's revision: a smaller one than before means a new bucket
	Stored    time.Time // when the store wrote the probe, on its clock (zero if it could not be read back)
	Recreated bool      // the bucket was gone and this probe made it again
}

// probeKey is the store's key that ProbeStore writes: no room code has a
// lower-case letter or an underscore, so it never names a room.
const probeKey = "_probe"

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
	js       jetstream.JetStream
	storage  jetstream.StorageType // of the bucket, when this bus makes it
	embedded *natsserver.Server
	tmpDir   string // the embedded server's store when it has no data directory

	mu       sync.Mutex
	kv       jetstream.KeyValue // replaced when the bucket is made again
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
	b.js, b.storage = js, storage
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err = b.bindStore(ctx, replicas)
	return err
}

// bindStore binds the rooms' bucket, making it when it does not exist;
// made reports that it did.
func (b *natsBus) bindStore(ctx context.Context, replicas int) (made bool, err error) {
	kv, err := b.js.KeyValue(ctx, roomBucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		made = true
		kv, err = b.js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: roomBucket, Description: "stridescope classroom rooms",
			TTL: Lifetime, Storage: b.storage, Replicas: replicas, History: 1})
	}
	if err != nil {
		return false, fmt.Errorf("key-value bucket %s: %w", roomBucket, err)
	}
	b.mu.Lock()
	b.kv = kv
	b.mu.Unlock()
	return made, nil
}

func (b *natsBus) store() jetstream.KeyValue {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.kv
}

// ProbeStore puts the probe key and reads that revision back. When the
// put fails and the bucket is gone, the bucket is made again (with one
// replica: an operator who made it with more makes it again so), since
// nothing else would: without it every new room fails on every replica
// until each restarts.
func (b *natsBus) ProbeStore(ctx context.Context) (StoreProbe, error) {
	var p StoreProbe
	rev, err := b.store().Put(ctx, probeKey, []byte("probe"))
	if err != nil {
		if _, serr := b.js.Stream(ctx, "KV_"+roomBucket); !errors.Is(serr, jetstream.ErrStreamNotFound) {
			return p, fmt.Errorf("the store refuses writes: %w", err)
		}
		made, berr := b.bindStore(ctx, 1)
		if berr != nil {
			return p, fmt.Errorf("the store's bucket is gone and cannot be made again: %w", berr)
		}
		p.Recreated = made
		if rev, err = b.store().Put(ctx, probeKey, []byte("probe")); err != nil {
			return p, fmt.Errorf("the store refuses writes: %w", err)
		}
	}
	p.Revision = rev
	// Another replica's probe may have replaced this one already (one
	// revision per key is kept): then only the time is missing.
	if e, err := b.store().GetRevision(ctx, probeKey, rev); err == nil {
		p.Stored = e.Created()
	}
	return p, nil
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
	_, err := b.store().Create(ctx, code, record)
	if errors.Is(err, jetstream.ErrKeyExists) {
		return ErrRoomExists
	}
	return err
}

func (b *natsBus) PutRoom(ctx context.Context, code string, record []byte) error {
	_, err := b.store().Put(ctx, code, record)
	return err
}

// UpdateRoom writes over the revision that was read: any write in
// between (a purge is a revision too) makes it fail.
func (b *natsBus) UpdateRoom(ctx context.Context, code string, record []byte, revision uint64) error {
	_, err := b.store().Update(ctx, code, record, revision)
	if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
		return ErrRoomChanged
	}
	return err
}

func (b *natsBus) GetRoom(ctx context.Context, code string) (RoomEntry, error) {
	e, err := b.store().Get(ctx, code)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return RoomEntry{}, ErrNoRoom
	}
	if err != nil {
		return RoomEntry{}, err
	}
	return RoomEntry{Value: e.Value(), Revision: e.Revision(), Stored: e.Created()}, nil
}

func (b *natsBus) DeleteRoom(ctx context.Context, code string) error {
	err := b.store().Purge(ctx, code)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil
	}
	return err
}

func (b *natsBus) ListRooms(ctx context.Context) ([]string, error) {
	keys, err := b.store().Keys(ctx)
	if errors.Is(err, jetstream.ErrNoKeysFound) {
		return nil, nil
	}
	return slices.DeleteFunc(keys, func(k string) bool { return k == probeKey }), err
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
