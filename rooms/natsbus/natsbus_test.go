package natsbus

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"log/slog"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/jwt/v2"
	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nkeys"
	"github.com/stridescope/stridescope/rooms"
	"github.com/stridescope/stridescope/rooms/natstest"
)

// testPKI is a CA, a server certificate for 127.0.0.1 and a client
// certificate it signed, and a second CA that signed neither, as PEM files.
type testPKI struct {
	dir                   string
	ca, otherCA           string
	serverCert, serverKey string
	clientCert, clientKey string
	serverTLS, mutualTLS  *tls.Config
	notPEM                string
}

func newTestPKI(t *testing.T) testPKI {
	t.Helper()
	dir := t.TempDir()
	p := testPKI{dir: dir}
	write := func(name, typ string, der []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	newKey := func() *ecdsa.PrivateKey {
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	serial := int64(1)
	newCert := func(tmpl *x509.Certificate, key *ecdsa.PrivateKey, parent *x509.Certificate, parentKey *ecdsa.PrivateKey) (*x509.Certificate, []byte) {
		serial++
		tmpl.SerialNumber = big.NewInt(serial)
		tmpl.NotBefore = time.Now().Add(-time.Hour)
		tmpl.NotAfter = time.Now().Add(time.Hour)
		if parent == nil {
			parent, parentKey = tmpl, key
		}
		der, err := x509.CreateCertificate(rand.Reader, tmpl, parent, &key.PublicKey, parentKey)
		if err != nil {
			t.Fatal(err)
		}
		c, err := x509.ParseCertificate(der)
		if err != nil {
			t.Fatal(err)
		}
		return c, der
	}
	caTmpl := func(name string) *x509.Certificate {
		return &x509.Certificate{
			Subject: pkix.Name{CommonName: name}, IsCA: true, BasicConstraintsValid: true,
			KeyUsage: x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		}
	}
	keyDER := func(k *ecdsa.PrivateKey) []byte {
		der, err := x509.MarshalECPrivateKey(k)
		if err != nil {
			t.Fatal(err)
		}
		return der
	}

	caKey := newKey()
	caCert, caDER := newCert(caTmpl("stridescope test CA"), caKey, nil, nil)
	p.ca = write("ca.pem", "CERTIFICATE", caDER)
	_, otherDER := newCert(caTmpl("some other CA"), newKey(), nil, nil)
	p.otherCA = write("other-ca.pem", "CERTIFICATE", otherDER)

	srvKey := newKey()
	_, srvDER := newCert(&x509.Certificate{
		Subject:     pkix.Name{CommonName: "nats test server"},
		DNSNames:    []string{"localhost"},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}, srvKey, caCert, caKey)
	p.serverCert = write("server.pem", "CERTIFICATE", srvDER)
	p.serverKey = write("server-key.pem", "EC PRIVATE KEY", keyDER(srvKey))

	cliKey := newKey()
	_, cliDER := newCert(&x509.Certificate{
		Subject:     pkix.Name{CommonName: "stridescope replica"},
		KeyUsage:    x509.KeyUsageDigitalSignature,
		ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}, cliKey, caCert, caKey)
	p.clientCert = write("client.pem", "CERTIFICATE", cliDER)
	p.clientKey = write("client-key.pem", "EC PRIVATE KEY", keyDER(cliKey))

	p.notPEM = filepath.Join(dir, "not.pem")
	if err := os.WriteFile(p.notPEM, []byte("not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}

	pair, err := tls.LoadX509KeyPair(p.serverCert, p.serverKey)
	if err != nil {
		t.Fatal(err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(caCert)
	p.serverTLS = &tls.Config{Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12}
	p.mutualTLS = &tls.Config{
		Certificates: []tls.Certificate{pair}, MinVersion: tls.VersionTLS12,
		ClientCAs: pool, ClientAuth: tls.RequireAndVerifyClientCert,
	}
	return p
}

// startNATS starts a NATS server on loopback with o and returns its port.
func startNATS(t *testing.T, o natsserver.Options) string {
	t.Helper()
	return strconv.Itoa(natstest.Start(t, o).Addr().(*net.TCPAddr).Port)
}

// busPermissions is what a replica needs: its rooms, their records in
// JetStream key-value storage, and replies to its requests (as in
// docs/operations.md).
var busPermissions = &natsserver.Permissions{
	Publish:   &natsserver.SubjectPermission{Allow: []string{"stridescope.>", "$KV.stridescope_rooms.>", "$JS.API.>", "$JS.ACK.>", "$JS.FC.>", "_INBOX.>"}},
	Subscribe: &natsserver.SubjectPermission{Allow: []string{"stridescope.>", "_INBOX.>"}},
}

// roundTrip checks that a message and a request go through bus.
func roundTrip(t *testing.T, bus rooms.Bus) {
	t.Helper()
	got := make(chan string, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	unsub, err := bus.Subscribe(ctx, "stridescope.test.>", func(subject string, data []byte) {
		got <- subject + " " + string(data)
	})
	if err != nil {
		t.Fatal(err)
	}
	defer unsub()
	if err := bus.Publish(ctx, "stridescope.test.a", []byte("hello")); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-got:
		if m != "stridescope.test.a hello" {
			t.Errorf("got %q", m)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no message within 5s")
	}
	stop, err := bus.Serve(ctx, "stridescope.ask", func(data []byte) []byte { return append([]byte("re: "), data...) })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	reply, err := bus.Request(ctx, "stridescope.ask", []byte("q"))
	if err != nil || string(reply) != "re: q" {
		t.Errorf("request: %q, %v", reply, err)
	}
}

// TestBusAuthNATS connects to NATS servers that want TLS and credentials,
// with the right ones (a round trip works) and the wrong ones (a clear
// error).
func TestBusAuthNATS(t *testing.T) {
	pki := newTestPKI(t)
	users := startNATS(t, natsserver.Options{
		TLS: true, TLSConfig: pki.serverTLS,
		Users: []*natsserver.User{{Username: "replica", Password: "right horse", Permissions: busPermissions}},
	})
	token := startNATS(t, natsserver.Options{TLS: true, TLSConfig: pki.serverTLS, Authorization: "s3cret-token"})
	mutual := startNATS(t, natsserver.Options{TLS: true, TLSVerify: true, TLSConfig: pki.mutualTLS})
	plain := startNATS(t, natsserver.Options{})

	for _, tc := range []struct {
		name    string
		opts    Options
		port    string
		wantErr []string // empty: connects and round-trips
	}{
		{name: "user and password, CA", port: users,
			opts: Options{User: "replica", Password: "right horse", CAFile: pki.ca}},
		{name: "nats:// with a CA is TLS", port: users,
			opts: Options{URL: "nats://127.0.0.1:" + users, User: "replica", Password: "right horse", CAFile: pki.ca}},
		{name: "token, CA", port: token,
			opts: Options{Token: "s3cret-token", CAFile: pki.ca}},
		{name: "client certificate", port: mutual,
			opts: Options{CAFile: pki.ca, CertFile: pki.clientCert, KeyFile: pki.clientKey}},
		{name: "no credentials", port: users,
			opts:    Options{CAFile: pki.ca},
			wantErr: []string{"authorization violation", "CredsFile", "User"}},
		{name: "wrong password", port: users,
			opts:    Options{User: "replica", Password: "wrong horse", CAFile: pki.ca},
			wantErr: []string{"authorization violation", "refused these credentials"}},
		{name: "wrong user", port: users,
			opts:    Options{User: "intruder", Password: "right horse", CAFile: pki.ca},
			wantErr: []string{"authorization violation"}},
		{name: "wrong token", port: token,
			opts:    Options{Token: "guess", CAFile: pki.ca},
			wantErr: []string{"authorization violation"}},
		{name: "no CA", port: users,
			opts:    Options{User: "replica", Password: "right horse"},
			wantErr: []string{"unknown authority", "give its CA with CAFile"}},
		{name: "another CA", port: users,
			opts:    Options{User: "replica", Password: "right horse", CAFile: pki.otherCA},
			wantErr: []string{"unknown authority", "not signed by a CA in CAFile"}},
		{name: "no client certificate", port: mutual,
			opts:    Options{CAFile: pki.ca},
			wantErr: []string{"certificate", "give CertFile and KeyFile"}},
		{name: "TLS wanted, server without", port: plain,
			opts:    Options{CAFile: pki.ca},
			wantErr: []string{"secure connection not available", "offers no TLS"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.opts.URL == "" {
				tc.opts.URL = "tls://127.0.0.1:" + tc.port
			}
			bus, err := New(tc.opts)
			if len(tc.wantErr) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				defer bus.Close()
				roundTrip(t, bus)
				return
			}
			if err == nil {
				bus.Close()
				t.Fatalf("connected; want an error with %q", tc.wantErr)
			}
			t.Log(err)
			for _, w := range tc.wantErr {
				if !strings.Contains(strings.ToLower(err.Error()), strings.ToLower(w)) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "horse") || strings.Contains(err.Error(), "s3cret") {
				t.Errorf("error %q shows a secret", err)
			}
		})
	}
}

// TestOptionsNATS: a missing or malformed file or a muddle of
// credentials fails before connecting, naming the field.
func TestOptionsNATS(t *testing.T) {
	pki := newTestPKI(t)
	creds := writeTestCreds(t)
	missing := filepath.Join(pki.dir, "nope.creds")
	const url = "tls://127.0.0.1:4222"
	for _, tc := range []struct {
		name    string
		opts    Options
		wantErr []string // empty: valid
	}{
		{name: "plain", opts: Options{URL: "nats://127.0.0.1:4222"}},
		{name: "everything", opts: Options{URL: url, CredsFile: creds, CAFile: pki.ca, CertFile: pki.clientCert, KeyFile: pki.clientKey}},
		{name: "no URL", opts: Options{}, wantErr: []string{"URL"}},
		{name: "creds file missing", opts: Options{URL: url, CredsFile: missing},
			wantErr: []string{"CredsFile", missing, "no such file"}},
		{name: "creds file without a seed", opts: Options{URL: url, CredsFile: pki.notPEM},
			wantErr: []string{"CredsFile", pki.notPEM}},
		{name: "creds and token", opts: Options{URL: url, CredsFile: creds, Token: "t"},
			wantErr: []string{"more than one", "CredsFile", "Token"}},
		{name: "token and user", opts: Options{URL: url, Token: "t", User: "u", Password: "p"},
			wantErr: []string{"more than one"}},
		{name: "password without user", opts: Options{URL: url, Password: "p"},
			wantErr: []string{"User is empty"}},
		{name: "user without password", opts: Options{URL: url, User: "u"},
			wantErr: []string{"Password is empty"}},
		{name: "CA missing", opts: Options{URL: url, CAFile: missing},
			wantErr: []string{"CAFile", "no such file"}},
		{name: "CA not PEM", opts: Options{URL: url, CAFile: pki.notPEM},
			wantErr: []string{"CAFile", "no PEM certificate"}},
		{name: "cert without key", opts: Options{URL: url, CertFile: pki.clientCert},
			wantErr: []string{"KeyFile"}},
		{name: "cert missing", opts: Options{URL: url, CertFile: missing, KeyFile: pki.clientKey},
			wantErr: []string{"CertFile", "no such file"}},
		{name: "key of another cert", opts: Options{URL: url, CertFile: pki.clientCert, KeyFile: pki.serverKey},
			wantErr: []string{"CertFile", "KeyFile"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.opts.natsOptions()
			if len(tc.wantErr) == 0 {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil {
				t.Fatalf("valid; want an error with %q", tc.wantErr)
			}
			if e := (*Error)(nil); !errors.As(err, &e) {
				t.Errorf("error %q is no *Error: a command could not name its flags in it", err)
			}
			t.Log(err)
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
		})
	}

	// New checks before it dials.
	_, err := New(Options{URL: url, CredsFile: missing})
	if err == nil || !strings.Contains(err.Error(), "CredsFile") {
		t.Errorf("New with a missing creds file: %v; want an error naming CredsFile", err)
	}
}

// writeTestCreds writes a .creds file: a user JWT signed by an account,
// and the user's seed.
func writeTestCreds(t *testing.T) string {
	t.Helper()
	account, err := nkeys.CreateAccount()
	if err != nil {
		t.Fatal(err)
	}
	user, err := nkeys.CreateUser()
	if err != nil {
		t.Fatal(err)
	}
	pub, _ := user.PublicKey()
	seed, _ := user.Seed()
	token, err := jwt.NewUserClaims(pub).Encode(account)
	if err != nil {
		t.Fatal(err)
	}
	creds, err := jwt.FormatUserConfig(token, seed)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "replica.creds")
	if err := os.WriteFile(path, creds, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// lockedBuffer is a log destination written from nats.go's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestBusPermissionsNATS: a user the server lets subscribe only to
// stridescope.public.> gets nothing from stridescope.rooms.>, and the
// refusal is logged.
func TestBusPermissionsNATS(t *testing.T) {
	pki := newTestPKI(t)
	port := startNATS(t, natsserver.Options{
		TLS: true, TLSConfig: pki.serverTLS,
		Users: []*natsserver.User{
			{Username: "replica", Password: "pw1", Permissions: busPermissions},
			{Username: "reader", Password: "pw2", Permissions: &natsserver.Permissions{
				Publish:   &natsserver.SubjectPermission{Deny: []string{">"}},
				Subscribe: &natsserver.SubjectPermission{Allow: []string{"stridescope.public.>"}},
			}},
		},
	})
	url := "tls://127.0.0.1:" + port
	pub, err := New(Options{URL: url, User: "replica", Password: "pw1", CAFile: pki.ca})
	if err != nil {
		t.Fatal(err)
	}
	defer pub.Close()
	// The reader is a plain connection with the bus's options: it may not
	// use the rooms' store, so it could not be a replica.
	var logs lockedBuffer
	ro := Options{URL: url, User: "reader", Password: "pw2", CAFile: pki.ca, Logger: slog.New(slog.NewTextHandler(&logs, nil))}
	opts, err := ro.natsOptions()
	if err != nil {
		t.Fatal(err)
	}
	reader, err := nats.Connect(url, opts...)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()

	denied, allowed := make(chan string, 1), make(chan string, 1)
	if _, err := reader.Subscribe("stridescope.rooms.>", func(m *nats.Msg) { denied <- m.Subject }); err != nil {
		t.Fatal(err)
	}
	if _, err := reader.Subscribe("stridescope.public.>", func(m *nats.Msg) { allowed <- m.Subject }); err != nil {
		t.Fatal(err)
	}
	reader.Flush()
	if err := pub.Publish(context.Background(), "stridescope.rooms.ABCD2345", []byte("state")); err != nil {
		t.Fatal(err)
	}
	if err := pub.Publish(context.Background(), "stridescope.public.x", []byte("hello")); err != nil {
		t.Fatal(err)
	}
	select {
	case <-allowed:
	case <-time.After(5 * time.Second):
		t.Fatal("the permitted subscription got nothing within 5s")
	}
	// The server delivers in order, so had the room's state been
	// delivered it would have come first.
	select {
	case s := <-denied:
		t.Errorf("a subscriber without permission got %s", s)
	case <-time.After(200 * time.Millisecond):
	}
	// The reader may not publish either: the server drops it.
	if err := reader.Publish("stridescope.rooms.ABCD2345", []byte("steer")); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		if l := logs.String(); strings.Contains(l, "Permissions Violation for Subscription") && strings.Contains(l, "stridescope.rooms.>") && strings.Contains(l, "Permissions Violation for Publish") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the refused subscription was not logged; log:\n%s", logs.String())
		}
	}
}

func TestRedactBusURL(t *testing.T) {
	for in, want := range map[string]string{
		"nats://a:4222":                          "nats://a:4222",
		"nats://user:pw@a:4222,tls://tok@b:4222": "nats://REDACTED@a:4222,tls://REDACTED@b:4222",
		"u:p@c:4222":                             "REDACTED@c:4222",
	} {
		if got := redactURL(in); got != want {
			t.Errorf("redactURL(%q) = %q, want %q", in, got, want)
		}
	}
}
