// Package natstest starts real NATS servers, with JetStream, on loopback
// for the tests of the rooms and of the server: the bus and the room store
// are exercised over a real connection, as an external cluster would be.
package natstest

import (
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
)

// Start runs a NATS server with o on a random loopback port, with
// JetStream storing in a temporary directory, until the test ends.
func Start(t testing.TB, o natsserver.Options) *natsserver.Server {
	t.Helper()
	o.Host, o.Port, o.NoSigs, o.NoLog = "127.0.0.1", -1, true, true
	o.JetStream, o.StoreDir = true, t.TempDir()
	ns, err := natsserver.NewServer(&o)
	if err != nil {
		t.Fatal(err)
	}
	ns.Start()
	if !ns.ReadyForConnections(5 * time.Second) {
		t.Fatal("nats not ready")
	}
	t.Cleanup(ns.Shutdown)
	return ns
}

// Loopback starts an open NATS server and returns its URL.
func Loopback(t testing.TB) string {
	t.Helper()
	return Start(t, natsserver.Options{}).ClientURL()
}
