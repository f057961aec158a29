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

// Options says how New reaches an external NATS server or
// cluster: where, as whom, and over what TLS. The zero value but URL is a
// plain connection without credentials.
//
// At most one way to authenticate: CredsFile (a NATS .creds file: a user
// JWT and its nkey seed), Token, or User and Password. Any tls:// URL, a
// CAFile or a client certificate makes the connection TLS only; tls://
// without CAFile trusts the system's roots.
//
// The package knows no flag or environment variable: its errors (Error)
// call the options by their field names, and a command renders them with
// its own names for them (Error.Text).
type Options struct {
	// URL is a NATS server or a comma-separated list of a cluster's,
	// e.g. "tls://nats1:4222,tls://nats2:4222".
	URL string
	// CredsFile is a .creds file.
	CredsFile string
	// Token is an authorization token.
	Token string
	// User and Password.
	User, Password string
	// CAFile holds PEM certificates of the CAs that sign the servers'
	// certificates.
	CAFile string
	// CertFile and KeyFile are a PEM client certificate and its key, for
	// servers that verify clients.
	CertFile, KeyFile string
	// Logger, when set, hears the connection's asynchronous errors, such
	// as a permissions violation (the server refusing a subscription or a
	// publish). Nil: they pass silently.
	Logger *slog.Logger
}

// Fields are the names of Options' fields that Error's messages mention.
var Fields = []string{"URL", "CredsFile", "Token", "User", "Password", "CAFile", "CertFile", "KeyFile"}

// Error is what New finds wrong with the options, or what refused the
// connection, when the user mends it by changing some of Options' fields.
// Its message names those fields by their Go names ("CredsFile"); Text
// names them as the user knows them (a flag, an environment variable).
type Error struct {
	msg string // with {Field} where a field is named
	err error  // the cause, if any
}

func optionError(err error, format string, args ...any) *Error {
	return &Error{msg: fmt.Sprintf(format, args...), err: err}
}

// Error is the message with each field called by its Go name.
func (e *Error) Error() string { return e.Text(nil) }

// Unwrap is the cause: a file's error, or the connection's.
func (e *Error) Unwrap() error { return e.err }

// Text is the message with each of Fields called name(field); nil or
// "" from it: its Go name.
func (e *Error) Text(name func(field string) string) string {
	s := e.msg
	for _, f := range Fields {
		n := f
		if name != nil && name(f) != "" {
			n = name(f)
		}
		s = strings.ReplaceAll(s, "{"+f+"}", n)
	}
	return s
}

// UsesTLS says whether the connection must be TLS: a tls:// URL, a CA or a
// client certificate. A token or a password crosses the network in clear
// text without it.
func (o Options) UsesTLS() bool {
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
// missing or malformed one fails at startup with the field that named it,
// and returns the nats.go options for authentication, TLS and the error
// log. It sets no disconnect or reconnect handler: those belong to the
// bus.
func (o Options) natsOptions() ([]nats.Option, error) {
	if strings.TrimSpace(o.URL) == "" {
		return nil, optionError(nil, "{URL}: empty")
	}
	var opts []nats.Option

	ways := 0
	for _, set := range []bool{o.CredsFile != "", o.Token != "", o.User != "" || o.Password != ""} {
		if set {
			ways++
		}
	}
	if ways > 1 {
		return nil, optionError(nil, "the bus has more than one set of credentials: give only one of {CredsFile}, {Token}, or {User} with {Password}")
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
			return nil, optionError(nil, "{Password} is set but {User} is empty")
		}
		if o.Password == "" {
			return nil, optionError(nil, "{User} is set but {Password} is empty")
		}
		opts = append(opts, nats.UserInfo(o.User, o.Password))
	}

	if o.UsesTLS() {
		// First, so that RootCAs and ClientCert below add to this config
		// rather than being replaced by it.
		opts = append(opts, nats.Secure(&tls.Config{MinVersion: tls.VersionTLS12}))
	}
	if o.CAFile != "" {
		pem, err := readFieldFile("CAFile", o.CAFile)
		if err != nil {
			return nil, err
		}
		if !x509.NewCertPool().AppendCertsFromPEM(pem) {
			return nil, optionError(nil, "{CAFile} %s: no PEM certificate in it", o.CAFile)
		}
		// nats.go reads the file again at every (re)connect, so a renewed
		// CA file is picked up without a restart.
		opts = append(opts, nats.RootCAs(o.CAFile))
	}
	if o.CertFile != "" || o.KeyFile != "" {
		if o.CertFile == "" || o.KeyFile == "" {
			return nil, optionError(nil, "{CertFile} and {KeyFile} go together: give both or neither")
		}
		certPEM, err := readFieldFile("CertFile", o.CertFile)
		if err != nil {
			return nil, err
		}
		keyPEM, err := readFieldFile("KeyFile", o.KeyFile)
		if err != nil {
			return nil, err
		}
		if _, err := tls.X509KeyPair(certPEM, keyPEM); err != nil {
			return nil, optionError(err, "{CertFile} %s, {KeyFile} %s: %v", o.CertFile, o.KeyFile, err)
		}
		opts = append(opts, nats.ClientCert(o.CertFile, o.KeyFile))
	}

	if l := o.Logger; l != nil {
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
	if _, err := readFieldFile("CredsFile", path); err != nil {
		return err
	}
	var no nats.Options
	if err := nats.UserCredentials(path)(&no); err != nil {
		return optionError(err, "{CredsFile} %s: %v", path, err)
	}
	jwt, err := no.UserJWT()
	if err != nil {
		return optionError(err, "{CredsFile} %s: %v", path, err)
	}
	if strings.Count(jwt, ".") != 2 {
		return optionError(nil, "{CredsFile} %s: no user JWT in it", path)
	}
	if _, err := no.SignatureCB([]byte("stridescope")); err != nil {
		return optionError(err, "{CredsFile} %s: no usable nkey seed in it: %v", path, err)
	}
	return nil
}

// readFieldFile reads the file an option's field names; its error names
// the field.
func readFieldFile(field, path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, optionError(err, "{%s} %s: %v", field, path, err)
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
		hint = "the server wants credentials: give {CredsFile}, {Token}, or {User} and {Password}"
	case errors.Is(err, nats.ErrAuthorization):
		hint = "the server refused these credentials"
	case errors.As(err, &unknownCA) && o.CAFile == "":
		hint = "the server's certificate is signed by a CA this machine does not trust: give its CA with {CAFile}"
	case errors.As(err, &unknownCA):
		hint = "the server's certificate is not signed by a CA in {CAFile} " + o.CAFile
	case errors.As(err, &badHost):
		hint = "the server's certificate does not name the host in {URL}"
	case errors.As(err, &remote) && remote.Op == "remote error" && o.CertFile == "",
		o.UsesTLS() && o.CertFile == "" && closedAfterHandshake(err):
		// A TLS alert from the server, such as "certificate required";
		// under TLS 1.3 the server checks the client's certificate after
		// the handshake, so the client may see only the connection close.
		hint = "the server may want a client certificate: give {CertFile} and {KeyFile}"
	case errors.Is(err, nats.ErrSecureConnWanted):
		hint = "the server offers no TLS, but a tls:// URL or {CAFile} asks for it"
	}
	if hint != "" {
		return optionError(err, "nats %s: %v (%s)", redactURL(o.URL), err, hint)
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
