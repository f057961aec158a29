package natsbus

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"strings"
	"syscall"

	"github.com/nats-io/nats.go"
)

// Environment variables that carry a token or a user and password for the
// bus: secrets stay off the command line, where ps shows them.
const (
	EnvNATSToken    = "STRIDESCOPE_NATS_TOKEN"
	EnvNATSUser     = "STRIDESCOPE_NATS_USER"
	EnvNATSPassword = "STRIDESCOPE_NATS_PASSWORD"
)

// Options says how New reaches an external NATS server or
// cluster: where, as whom, and over what TLS. The zero value but URL is a
// plain connection without credentials.
//
// At most one way to authenticate: CredsFile (a NATS .creds file: a user
// JWT and its nkey seed), Token, or User and Password. Any tls:// URL, a
// CAFile or a client certificate makes the connection TLS only; tls://
// without CAFile trusts the system's roots.
type Options struct {
	// URL is a NATS server or a comma-separated list of a cluster's
	// (-nats-url), e.g. "tls://nats1:4222,tls://nats2:4222".
	URL string
	// CredsFile is a .creds file (-nats-creds).
	CredsFile string
	// Token is an authorization token (STRIDESCOPE_NATS_TOKEN).
	Token string
	// User and Password (STRIDESCOPE_NATS_USER, STRIDESCOPE_NATS_PASSWORD).
	User, Password string
	// CAFile holds PEM certificates of the CAs that sign the servers'
	// certificates (-nats-ca).
	CAFile string
	// CertFile and KeyFile are a PEM client certificate and its key, for
	// servers that verify clients (-nats-cert, -nats-key).
	CertFile, KeyFile string
	// Logger, when set, hears the connection's asynchronous errors, such
	// as a permissions violation (the server refusing a subscription or a
	// publish), and a warning when a token or password would cross the
	// network without TLS. Nil: they pass silently.
	Logger *slog.Logger
}

// FromEnv fills Token, User and Password from the STRIDESCOPE_NATS_*
// variables read through getenv (os.Getenv), leaving the others as they
// are.
func (o *Options) FromEnv(getenv func(string) string) {
	o.Token = getenv(EnvNATSToken)
	o.User = getenv(EnvNATSUser)
	o.Password = getenv(EnvNATSPassword)
}

// usesTLS says whether the connection must be TLS: a tls:// URL, a CA or a
// client certificate.
func (o Options) usesTLS() bool {
	if o.CAFile != "" || o.CertFile != "" || o.KeyFile != "" {
		return true
	}
	for _, u := range strings.Split(o.URL, ",") {
		if strings.HasPrefix(strings.ToLower(strings.TrimSpace(u)), "tls://") {
			return true
		}
	}
	return false
}

// hasCredentials says whether any way to authenticate is set.
func (o Options) hasCredentials() bool {
	return o.CredsFile != "" || o.Token != "" || o.User != "" || o.Password != ""
}

// natsOptions checks the options, reading every file once so that a
// missing or malformed one fails at startup with the flag that named it,
// and returns the nats.go options for authentication, TLS and the error
// log. It sets no disconnect or reconnect handler: those belong to the
// bus.
func (o Options) natsOptions() ([]nats.Option, error) {
	if strings.TrimSpace(o.URL) == "" {
		return nil, errors.New("-nats-url: empty")
	}
	var opts []nats.Option

	ways := 0
	for _, set := range []bool{o.CredsFile != "", o.Token != "", o.User != "" || o.Password != ""} {
		if set {
			ways++
		}
	}
	if ways > 1 {
		return nil, fmt.Errorf("the bus has more than one set of credentials: give only one of -nats-creds, %s, or %s with %s", EnvNATSToken, EnvNATSUser, EnvNATSPassword)
	}
	switch {
	case o.CredsFile != "":
		if err := checkCredsFile(o.CredsFile); err != nil {
			return nil, err
		}
		opts = append(opts, nats.UserCredentials(o.CredsFile))
	case o.Token != "":
		opts = append(opts, nats.Token(o.Token))
	case o.User != "" || o.Password != "":
		if o.User == "" {
			return nil, fmt.Errorf("%s is set but %s is empty", EnvNATSPassword, EnvNATSUser)
		}
		if o.Password == "" {
			return nil, fmt.Errorf("%s is set but %s is empty", EnvNATSUser, EnvNATSPassword)
		}
		opts = append(opts, nats.UserInfo(o.User, o.Password))
	}

	if o.usesTLS() {
		// First, so that RootCAs and ClientCert below add to this config
		// rather than being replaced by it.
		opts = append(opts, nats.Secure(&tls.Config{MinVersion: tls.VersionTLS12}))
	}
	if o.CAFile != "" {
		pem, err := readFlagFile("-nats-ca", o.CAFile)
		if err != nil {
			return nil, err
		}
		if !x509.NewCertPool().AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("-nats-ca %s: no PEM certificate in it", o.CAFile)
		}
		// nats.go reads the file again at every (re)connect, so a renewed
		// CA file is picked up without a restart.
		opts = append(opts, nats.RootCAs(o.CAFile))
	}
	if o.CertFile != "" || o.KeyFile != "" {
		if o.CertFile == "" || o.KeyFile == "" {
			return nil, errors.New("-nats-cert and -nats-key go together: give both or neither")
		}
		certPEM, err := readFlagFile("-nats-cert", o.CertFile)
		if err != nil {
			return nil, err
		}
		keyPEM, err := readFlagFile("-nats-key", o.KeyFile)
		if err != nil {
			return nil, err
		}
		if _, err := tls.X509KeyPair(certPEM, keyPEM); err != nil {
			return nil, fmt.Errorf("-nats-cert %s, -nats-key %s: %w", o.CertFile, o.KeyFile, err)
		}
		opts = append(opts, nats.ClientCert(o.CertFile, o.KeyFile))
	}

	if l := o.Logger; l != nil {
		if (o.Token != "" || o.Password != "") && !o.usesTLS() {
			l.Warn("the NATS token or password crosses the network in clear text: use tls:// URLs or -nats-ca")
		}
		opts = append(opts,
			nats.ErrorHandler(func(_ *nats.Conn, sub *nats.Subscription, err error) {
				if sub != nil {
					l.Error("nats", "subject", sub.Subject, "err", err)
					return
				}
				l.Error("nats", "err", err)
			}),
		)
	}
	return opts, nil
}

// checkCredsFile reads a .creds file the way nats.go will at connect: the
// user JWT, then the nkey seed that signs the server's nonce.
func checkCredsFile(path string) error {
	if _, err := readFlagFile("-nats-creds", path); err != nil {
		return err
	}
	var no nats.Options
	if err := nats.UserCredentials(path)(&no); err != nil {
		return fmt.Errorf("-nats-creds %s: %w", path, err)
	}
	jwt, err := no.UserJWT()
	if err != nil {
		return fmt.Errorf("-nats-creds %s: %w", path, err)
	}
	if strings.Count(jwt, ".") != 2 {
		return fmt.Errorf("-nats-creds %s: no user JWT in it", path)
	}
	if _, err := no.SignatureCB([]byte("stridescope")); err != nil {
		return fmt.Errorf("-nats-creds %s: no usable nkey seed in it: %w", path, err)
	}
	return nil
}

// readFlagFile reads the file a flag names; its error names the flag.
func readFlagFile(flag, path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("%s %s: %w", flag, path, err)
	}
	return b, nil
}

// connectError wraps the error of a failed connect with the URL (without
// any credentials in it) and, for the usual mistakes, what to check.
func (o Options) connectError(err error) error {
	var hint string
	var unknownCA x509.UnknownAuthorityError
	var badHost x509.HostnameError
	var remote *net.OpError
	switch {
	case errors.Is(err, nats.ErrAuthorization) && !o.hasCredentials():
		hint = fmt.Sprintf("the server wants credentials: give -nats-creds, %s, or %s and %s", EnvNATSToken, EnvNATSUser, EnvNATSPassword)
	case errors.Is(err, nats.ErrAuthorization):
		hint = "the server refused these credentials"
	case errors.As(err, &unknownCA) && o.CAFile == "":
		hint = "the server's certificate is signed by a CA this machine does not trust: give its CA with -nats-ca"
	case errors.As(err, &unknownCA):
		hint = "the server's certificate is not signed by a CA in -nats-ca " + o.CAFile
	case errors.As(err, &badHost):
		hint = "the server's certificate does not name the host in -nats-url"
	case errors.As(err, &remote) && remote.Op == "remote error" && o.CertFile == "",
		o.usesTLS() && o.CertFile == "" && closedAfterHandshake(err):
		// A TLS alert from the server, such as "certificate required";
		// under TLS 1.3 the server checks the client's certificate after
		// the handshake, so the client may see only the connection close.
		hint = "the server may want a client certificate: give -nats-cert and -nats-key"
	case errors.Is(err, nats.ErrSecureConnWanted):
		hint = "the server offers no TLS, but a tls:// URL or -nats-ca asks for it"
	}
	if hint != "" {
		return fmt.Errorf("nats %s: %w (%s)", redactURL(o.URL), err, hint)
	}
	return fmt.Errorf("nats %s: %w", redactURL(o.URL), err)
}

// closedAfterHandshake reports a TLS connection the server closed right
// after the handshake, before NATS's greeting: how a TLS 1.3 server that
// wants a client certificate refuses one that sent none, when its alert
// is lost in the race with the client's first write.
func closedAfterHandshake(err error) bool {
	return errors.Is(err, syscall.EPIPE) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, io.EOF) ||
		strings.Contains(err.Error(), "connection closed by remote after TLS handshake")
}

// redactURL hides the user information of each URL in a comma-separated
// list (nats://user:password@host, nats://token@host) for messages.
func redactURL(urls string) string {
	parts := strings.Split(urls, ",")
	for i, p := range parts {
		scheme, rest, ok := strings.Cut(p, "://")
		if !ok {
			scheme, rest = "", p
		} else {
			scheme += "://"
		}
		if at := strings.LastIndex(rest, "@"); at >= 0 {
			parts[i] = scheme + "REDACTED" + rest[at:]
		}
	}
	return strings.Join(parts, ",")
}
