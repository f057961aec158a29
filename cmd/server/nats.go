package main

import (
	"errors"
	"log/slog"

	"github.com/stridescope/stridescope/rooms/natsbus"
)

// Environment variables that carry a token or a user and password for the
// rooms' NATS: secrets stay off the command line, where ps shows them.
const (
	envNATSToken    = "STRIDESCOPE_NATS_TOKEN"
	envNATSUser     = "STRIDESCOPE_NATS_USER"
	envNATSPassword = "STRIDESCOPE_NATS_PASSWORD"
)

// natsNames are what a user of the server calls natsbus.Options' fields:
// the flags, and the environment variables.
var natsNames = map[string]string{
	"URL": "-nats-url", "CredsFile": "-nats-creds",
	"Token": envNATSToken, "User": envNATSUser, "Password": envNATSPassword,
	"CAFile": "-nats-ca", "CertFile": "-nats-cert", "KeyFile": "-nats-key",
}

// natsOptions are the rooms' NATS options from the flags' values and the
// environment (read through getenv, os.Getenv).
func natsOptions(url, creds, ca, cert, key string, getenv func(string) string, logger *slog.Logger) natsbus.Options {
	return natsbus.Options{
		URL: url, CredsFile: creds, CAFile: ca, CertFile: cert, KeyFile: key,
		Token: getenv(envNATSToken), User: getenv(envNATSUser), Password: getenv(envNATSPassword),
		Logger: logger,
	}
}

// dialNATS connects to the rooms' NATS. Its errors name the flags and
// variables that set what is wrong, as natsbus calls them by the fields
// of its options.
func dialNATS(o natsbus.Options, logger *slog.Logger) (*natsbus.Bus, error) {
	if (o.Token != "" || o.Password != "") && !o.UsesTLS() {
		logger.Warn("the NATS token or password crosses the network in clear text: use tls:// URLs or -nats-ca")
	}
	bus, err := natsbus.New(o)
	if err != nil {
		return nil, natsError(err)
	}
	return bus, nil
}

// natsError is err with natsbus's field names replaced by the flags' and
// variables' (errors.Is and As still see through it).
func natsError(err error) error {
	var e *natsbus.Error
	if !errors.As(err, &e) {
		return err
	}
	return &namedError{text: e.Text(func(field string) string { return natsNames[field] }), err: err}
}

type namedError struct {
	text string
	err  error
}

func (e *namedError) Error() string { return e.text }
func (e *namedError) Unwrap() error { return e.err }
