// Package natsbus is the rooms' Bus over NATS: a NATS server embedded in
// the process (NewEmbedded), or an external server or cluster with
// credentials and TLS (New), with each room's record in a JetStream
// key-value bucket. The rooms themselves (package rooms) know only the
// Bus interface; everything NATS is here.
package natsbus

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

	"github.com/stridescope/stridescope/rooms"
)

// probeKey is the store's key that ProbeStore writes: no room code has a
// lower-case letter or an underscore, so it never names a room.
const probeKey = "_probe"

// Bucket is the JetStream key-value bucket of the rooms' records.
const Bucket = "stridescope_rooms"

// Timings of a connection to an external NATS: a stalled server is
// noticed within about pingEvery*(maxPingsOut+1), and the client keeps
// trying to reconnect, without end.
const (
	natsPingEvery   = 2 * time.Second
	natsMaxPingsOut = 2
	natsFlushWait   = time.Second
)

// Bus is a rooms.Bus over a NATS connection, optionally to a NATS server
// embedded in this process, with the rooms' records in JetStream.
type Bus struct {
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

var _ rooms.Bus = (*Bus)(nil)

// NewEmbedded starts a NATS server inside the process that opens no
// port and connects to it in-process: rooms work with nothing else
// running. With dataDir the rooms are stored there and survive a restart;
// without, they are kept in memory.
func NewEmbedded(dataDir string) (*Bus, error) {
	b := &Bus{up: true}
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

// New connects to an external NATS server or cluster (o.URL, a comma
// separated list of URLs), so several replicas share rooms; o also holds
// the credentials and TLS files (see Options). The servers must
// run JetStream: the rooms' records live in its key-value store.
func New(o Options) (*Bus, error) {
	auth, err := o.natsOptions()
	if err != nil {
		return nil, err
	}
	b := &Bus{}
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
func (b *Bus) openStore(storage jetstream.StorageType, replicas int) error {
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
func (b *Bus) bindStore(ctx context.Context, replicas int) (made bool, err error) {
	kv, err := b.js.KeyValue(ctx, Bucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		made = true
		kv, err = b.js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: Bucket, Description: "stridescope classroom rooms",
			TTL: rooms.Lifetime, Storage: b.storage, Replicas: replicas, History: 1})
	}
	if err != nil {
		return false, fmt.Errorf("key-value bucket %s: %w", Bucket, err)
	}
	b.mu.Lock()
	b.kv = kv
	b.mu.Unlock()
	return made, nil
}

func (b *Bus) store() jetstream.KeyValue {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.kv
}

// ProbeStore puts the probe key and reads that revision back. When the
// put fails and the bucket is gone, the bucket is made again (with one
// replica: an operator who made it with more makes it again so), since
// nothing else would: without it every new room fails on every replica
// until each restarts.
func (b *Bus) ProbeStore(ctx context.Context) (rooms.StoreProbe, error) {
	var p rooms.StoreProbe
	rev, err := b.store().Put(ctx, probeKey, []byte("probe"))
	if err != nil {
		if _, serr := b.js.Stream(ctx, "KV_"+Bucket); !errors.Is(serr, jetstream.ErrStreamNotFound) {
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

func (b *Bus) setUp(up bool) {
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

func (b *Bus) Up() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.up
}

func (b *Bus) Watch(fn func(bool)) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.watchers = append(b.watchers, fn)
}

// Publish hands data to the connection, which writes it out behind:
// ctx only keeps a caller that has gone from sending.
func (b *Bus) Publish(ctx context.Context, subject string, data []byte) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	err := b.conn.Publish(subject, data)
	if errors.Is(err, nats.ErrConnectionClosed) {
		return rooms.ErrBusClosed
	}
	return err
}

func (b *Bus) Subscribe(ctx context.Context, subject string, fn func(string, []byte)) (func(), error) {
	sub, err := b.conn.Subscribe(subject, func(m *nats.Msg) { fn(m.Subject, m.Data) })
	if err != nil {
		return nil, fmt.Errorf("subscribe %s: %w", subject, err)
	}
	// Make sure the server has the subscription before anyone relies on
	// it (a request from another replica right after this returns).
	if err := b.flush(ctx); err != nil {
		_ = sub.Unsubscribe()
		return nil, fmt.Errorf("subscribe %s: %w", subject, err)
	}
	return func() { _ = sub.Unsubscribe() }, nil
}

func (b *Bus) Serve(ctx context.Context, subject string, fn func([]byte) []byte) (func(), error) {
	sub, err := b.conn.Subscribe(subject, func(m *nats.Msg) {
		if reply := fn(m.Data); reply != nil {
			_ = m.Respond(reply)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("serve %s: %w", subject, err)
	}
	if err := b.flush(ctx); err != nil {
		_ = sub.Unsubscribe()
		return nil, fmt.Errorf("serve %s: %w", subject, err)
	}
	return func() { _ = sub.Unsubscribe() }, nil
}

// flush waits until the server has what was sent, for natsFlushWait at
// most, or until ctx is done.
func (b *Bus) flush(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, natsFlushWait)
	defer cancel()
	return b.conn.FlushWithContext(ctx)
}

func (b *Bus) Request(ctx context.Context, subject string, data []byte) ([]byte, error) {
	m, err := b.conn.RequestWithContext(ctx, subject, data)
	if errors.Is(err, nats.ErrTimeout) || errors.Is(err, nats.ErrNoResponders) || errors.Is(err, context.DeadlineExceeded) {
		return nil, rooms.ErrNoAnswer
	}
	if err != nil {
		return nil, fmt.Errorf("request %s: %w", subject, err)
	}
	return m.Data, nil
}

func (b *Bus) CreateRoom(ctx context.Context, code string, record []byte) error {
	_, err := b.store().Create(ctx, code, record)
	if errors.Is(err, jetstream.ErrKeyExists) {
		return rooms.ErrRoomExists
	}
	return err
}

func (b *Bus) PutRoom(ctx context.Context, code string, record []byte) error {
	_, err := b.store().Put(ctx, code, record)
	return err
}

// UpdateRoom writes over the revision that was read: any write in
// between (a purge is a revision too) makes it fail.
func (b *Bus) UpdateRoom(ctx context.Context, code string, record []byte, revision uint64) error {
	_, err := b.store().Update(ctx, code, record, revision)
	if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
		return rooms.ErrRoomChanged
	}
	return err
}

func (b *Bus) GetRoom(ctx context.Context, code string) (rooms.RoomEntry, error) {
	e, err := b.store().Get(ctx, code)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return rooms.RoomEntry{}, rooms.ErrNoRoom
	}
	if err != nil {
		return rooms.RoomEntry{}, err
	}
	return rooms.RoomEntry{Value: e.Value(), Revision: e.Revision(), Stored: e.Created()}, nil
}

func (b *Bus) DeleteRoom(ctx context.Context, code string) error {
	err := b.store().Purge(ctx, code)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil
	}
	return err
}

func (b *Bus) ListRooms(ctx context.Context) ([]string, error) {
	keys, err := b.store().Keys(ctx)
	if errors.Is(err, jetstream.ErrNoKeysFound) {
		return nil, nil
	}
	return slices.DeleteFunc(keys, func(k string) bool { return k == probeKey }), err
}

func (b *Bus) Close() error {
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

func (b *Bus) removeTmp() {
	if b.tmpDir != "" {
		_ = os.RemoveAll(b.tmpDir)
	}
}
