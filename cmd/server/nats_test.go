package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	natsserver "github.com/nats-io/nats-server/v2/server"

	"github.com/stridescope/stridescope/rooms/natstest"
)

// TestNATSErrorsNameTheFlags: what is wrong with the rooms' NATS options
// fails the start, naming the flag or environment variable to mend (the
// rooms' adapter knows only its options' fields).
func TestNATSErrorsNameTheFlags(t *testing.T) {
	dir := t.TempDir()
	missing := filepath.Join(dir, "nope.creds")
	notPEM := filepath.Join(dir, "not.pem")
	if err := os.WriteFile(notPEM, []byte("not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	wantsToken := natstest.Start(t, natsserver.Options{Authorization: "s3cret-token"}).ClientURL()
	for _, tc := range []struct {
		name    string
		args    []string
		env     map[string]string
		wantErr []string
	}{
		{name: "creds file missing", args: []string{"-nats-url", "nats://127.0.0.1:1", "-nats-creds", missing},
			wantErr: []string{"-nats-creds " + missing, "no such file"}},
		{name: "creds and a token", args: []string{"-nats-url", "nats://127.0.0.1:1", "-nats-creds", missing},
			env:     map[string]string{envNATSToken: "t"},
			wantErr: []string{"give only one of -nats-creds, STRIDESCOPE_NATS_TOKEN, or STRIDESCOPE_NATS_USER with STRIDESCOPE_NATS_PASSWORD"}},
		{name: "password without user", args: []string{"-nats-url", "nats://127.0.0.1:1"},
			env:     map[string]string{envNATSPassword: "p"},
			wantErr: []string{"STRIDESCOPE_NATS_PASSWORD is set but STRIDESCOPE_NATS_USER is empty"}},
		{name: "CA not PEM", args: []string{"-nats-url", "nats://127.0.0.1:1", "-nats-ca", notPEM},
			wantErr: []string{"-nats-ca " + notPEM + ": no PEM certificate"}},
		{name: "cert without key", args: []string{"-nats-url", "nats://127.0.0.1:1", "-nats-cert", notPEM},
			wantErr: []string{"-nats-cert and -nats-key go together"}},
		{name: "the server wants credentials", args: []string{"-nats-url", wantsToken},
			wantErr: []string{"Authorization Violation", "give -nats-creds, STRIDESCOPE_NATS_TOKEN, or STRIDESCOPE_NATS_USER and STRIDESCOPE_NATS_PASSWORD"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for _, v := range []string{envNATSToken, envNATSUser, envNATSPassword} {
				t.Setenv(v, tc.env[v])
			}
			err := run(context.Background(), append([]string{"-addr", "127.0.0.1:0", "-room-secret", "a test room secret"}, tc.args...))
			if err == nil {
				t.Fatalf("started; want an error with %q", tc.wantErr)
			}
			t.Log(err)
			for _, w := range tc.wantErr {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			for _, field := range []string{"CredsFile", "CAFile", "CertFile", "KeyFile", "{"} {
				if strings.Contains(err.Error(), field) {
					t.Errorf("error %q names the option %s, not its flag", err, field)
				}
			}
		})
	}
}
