package web

import (
	"errors"
	"fmt"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
)

// Bus carries room state between the replicas that serve one classroom.
// Only the small parameter state travels; every replica computes its own
// pictures.
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
	Close() error
}

// ErrNoAnswer is returned by Request when nobody answered in time.
var ErrNoAnswer = errors.New("no answer on the bus")

// ErrBusClosed is returned by Publish after Close (a session leaving a
// room while the server shuts down).
var ErrBusClosed = errors.New("the bus is closed")

// natsBus is a Bus over a NATS connection, optionally to a NATS server
// embedded in this process.
type natsBus struct {
	conn     *nats.Conn
	embedded *natsserver.Server
}

// NewEmbeddedBus starts a NATS server inside the process that opens no port
// and connects to it in-process: rooms work with nothing else running.
func NewEmbeddedBus() (Bus, error) {
	ns, err := natsserver.NewServer(&natsserver.Options{DontListen: true, NoSigs: true, NoLog: true})
	if err != nil {
		return nil, fmt.Errorf("embedded nats: %w", err)
	}
	ns.Start()
	if !ns.ReadyForConnections(5 * time.Second) {
		ns.Shutdown()
		return nil, errors.New("embedded nats: not ready after 5s")
	}
	nc, err := nats.Connect(ns.ClientURL(), nats.InProcessServer(ns), nats.Name("stridescope"))
	if err != nil {
		ns.Shutdown()
		return nil, fmt.Errorf("embedded nats: connect: %w", err)
	}
	return &natsBus{conn: nc, embedded: ns}, nil
}

// NewNATSBus connects to an external NATS server or cluster (o.URL, a
// comma separated list of URLs), so several replicas share rooms; o also
// holds the credentials and TLS files (see BusOptions).
func NewNATSBus(o BusOptions) (Bus, error) {
	auth, err := o.natsOptions()
	if err != nil {
		return nil, err
	}
	opts := append([]nats.Option{nats.Name("stridescope"), nats.MaxReconnects(-1), nats.ReconnectWait(time.Second)}, auth...)
	nc, err := nats.Connect(o.URL, opts...)
	if err != nil {
		return nil, o.connectError(err)
	}
	return &natsBus{conn: nc}, nil
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
	if err := b.conn.Flush(); err != nil {
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
	if err := b.conn.Flush(); err != nil {
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

func (b *natsBus) Close() error {
	err := b.conn.Flush()
	b.conn.Close()
	if b.embedded != nil {
		b.embedded.Shutdown()
		b.embedded.WaitForShutdown()
	}
	return err
}
