package rooms

// Sealing: every message on the bus and every stored record carries an
// HMAC under a key derived from the room secret; presenter tokens are
// HMACs too, bound to the room's creation and expiry.

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"slices"
	"strconv"
	"strings"
	"time"
)

func deriveKey(secret []byte, purpose string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(purpose))
	return m.Sum(nil)
}

// seal prefixes data with its MAC, bound to the subject it travels on, so
// a message cannot be forged, nor replayed into another room.
func (r *Replica) seal(subj string, data []byte) []byte {
	m := hmac.New(sha256.New, r.busKey)
	m.Write([]byte(subj))
	m.Write([]byte{0})
	m.Write(data)
	mac := base64.RawURLEncoding.EncodeToString(m.Sum(nil))
	return append([]byte(mac+"."), data...)
}

// unseal returns the data of a sealed message, or false when its MAC is
// missing or wrong.
func (r *Replica) unseal(subj string, sealed []byte) ([]byte, bool) {
	mac, data, ok := strings.Cut(string(sealed), ".")
	if !ok {
		return nil, false
	}
	got, err := base64.RawURLEncoding.DecodeString(mac)
	if err != nil {
		return nil, false
	}
	m := hmac.New(sha256.New, r.busKey)
	m.Write([]byte(subj))
	m.Write([]byte{0})
	m.Write([]byte(data))
	return []byte(data), hmac.Equal(got, m.Sum(nil))
}

// token is the presenter's credential for a room: its expiry and an HMAC
// of the code, the room's creation and that expiry. Any replica with the
// secret checks it against the room's record; it cannot outlive the room
// nor open a later room that happens to get the same code.
func (r *Replica) token(code string, created, expires int64) string {
	exp := strconv.FormatInt(expires/1e6, 10)
	m := hmac.New(sha256.New, r.tokenKey)
	m.Write([]byte("presenter:" + code + ":" + strconv.FormatInt(created, 10) + ":" + exp))
	return exp + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))[:24]
}

// authorized checks a token against a room's record.
func (r *Replica) authorized(rm *room, token string, now time.Time) bool {
	exp, _, ok := strings.Cut(token, ".")
	if !ok {
		return false
	}
	e, err := strconv.ParseInt(exp, 10, 64)
	if err != nil || now.Unix() >= e {
		return false
	}
	return hmac.Equal([]byte(token), []byte(r.token(rm.code, rm.created, rm.expires)))
}

// Authorize reports whether token is the presenter's token of the room
// with code: nil, ErrNotPresenter, ErrNoRoom, or ErrBusDown when the
// room's record cannot be read now.
func (r *Replica) Authorize(ctx context.Context, code, token string) error {
	_, err := r.presentedBy(ctx, code, token)
	return err
}

// presentedBy is the room with code if token is its presenter token,
// with Authorize's errors.
func (r *Replica) presentedBy(ctx context.Context, code, token string) (*room, error) {
	if token == "" {
		return nil, ErrNotPresenter
	}
	rm, err := r.lookup(ctx, code)
	if err != nil {
		return nil, err
	}
	if !r.authorized(rm, token, r.now()) {
		return nil, ErrNotPresenter
	}
	return rm, nil
}

// TokenExpiry is when a token says it expires (zero for a malformed one).
func TokenExpiry(token string) time.Time {
	exp, _, _ := strings.Cut(token, ".")
	e, err := strconv.ParseInt(exp, 10, 64)
	if err != nil {
		return time.Time{}
	}
	return time.Unix(e, 0)
}

// BareCode is a typed code without the spaces and dashes people write
// in it ("ABCD-2345", "abcd 2345").
func BareCode(s string) string { return codeSeparators.Replace(s) }

var codeSeparators = strings.NewReplacer(" ", "", "-", "")

// NormalizeCode upper-cases a typed code and drops spaces and dashes.
func NormalizeCode(s string) (string, bool) {
	s = strings.ToUpper(BareCode(s))
	if len(s) != CodeLen {
		return "", false
	}
	for _, c := range s {
		if !strings.ContainsRune(CodeAlphabet, c) {
			return "", false
		}
	}
	return s, true
}

// CodeStrangers lists, once each and in the order typed, the first
// maxStrangers characters of a typed code that no room code holds
// (spaces and dashes aside, any case): a 0, O, 1, I or L read off a
// board, a stray symbol. The cap bounds the work and the message for a
// "code" of thousands of distinct characters.
func CodeStrangers(s string) []rune {
	var out []rune
	for _, c := range strings.ToUpper(BareCode(s)) {
		if !strings.ContainsRune(CodeAlphabet, c) && !slices.Contains(out, c) {
			if out = append(out, c); len(out) == maxStrangers {
				break
			}
		}
	}
	return out
}

const maxStrangers = 5

// randomString draws n symbols uniformly from alphabet with crypto/rand.
func randomString(n int, alphabet string) string {
	out := make([]byte, n)
	limit := 256 - 256%len(alphabet) // reject bytes that would bias the draw
	var b [1]byte
	for i := 0; i < n; {
		if _, err := rand.Read(b[:]); err != nil {
			panic(err) // crypto/rand never fails on Linux
		}
		if int(b[0]) < limit {
			out[i] = alphabet[int(b[0])%len(alphabet)]
			i++
		}
	}
	return string(out)
}

// Ticket is what a browser that has found the room with code is given
// (a cookie): with it, following the room again — a reload, a
// reconnect — skips the wrong-code guard, so a hostile page flooding the
// class's address with wrong codes cannot keep the class out. It opens
// nothing but that code's lookup, and cannot be made without the code.
func (r *Replica) Ticket(code string) string {
	m := hmac.New(sha256.New, r.ticketKey)
	m.Write([]byte("join:" + code))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))[:22]
}

// ValidTicket reports whether ticket is code's ticket.
func (r *Replica) ValidTicket(code, ticket string) bool {
	return ticket != "" && hmac.Equal([]byte(ticket), []byte(r.Ticket(code)))
}
