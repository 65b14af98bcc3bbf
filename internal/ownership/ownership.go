// Package ownership names the replica that owns a session or a parked
// request, in the value itself: an earlier protocol era's Mcp-Session-Id
// and a 2026-07-28 client's requestState live in one replica's memory, and
// a load balancer may send the next request anywhere. A value is
//
//	OWNER.VALUE.MAC
//
// with OWNER the replica's id (base64url), VALUE what the replica itself
// knows the session or call by, and MAC an HMAC-SHA256 over the kind of
// value, the owner, the value and the principal it was issued to, with a
// key every replica shares (derived from state.keyFile). A replica that
// reads one knows its owner, and that it was issued by a replica of the
// cluster to this caller: a forged value, or one copied from another
// caller, does not open, and is never forwarded.
//
// Without shared state there is no Sealer, and values are what they were.
package ownership

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"strings"

	"github.com/toolsearch/toolsearch/internal/principal"
)

// A Kind is what a value names; a value of one kind does not open as
// another.
type Kind string

// The kinds of values.
const (
	Session      Kind = "session"      // an Mcp-Session-Id
	RequestState Kind = "requestState" // a parked call's requestState
)

// macLen is how much of the HMAC a value carries: 128 bits.
const macLen = 16

// ErrForged is a value this cluster did not issue to this caller.
var ErrForged = errors.New("not issued by a replica of this cluster to this caller")

// A Sealer issues and reads the values of one replica.
type Sealer struct {
	key  []byte
	self string
}

// New returns the Sealer of replica self, signing with key.
func New(key []byte, self string) *Sealer { return &Sealer{key: key, self: self} }

// Self is the id of the replica the Sealer issues values for.
func (s *Sealer) Self() string { return s.self }

// Seal returns value as a value of this replica, issued to principal.
func (s *Sealer) Seal(kind Kind, principal, value string) string {
	owner := base64.RawURLEncoding.EncodeToString([]byte(s.self))
	return owner + "." + value + "." + base64.RawURLEncoding.EncodeToString(s.mac(kind, s.self, value, principal))
}

// Open reads a value Seal made, for principal: the replica owning it and
// the value it sealed. It returns ErrForged for anything else.
func (s *Sealer) Open(kind Kind, principal, sealed string) (owner, value string, err error) {
	enc, rest, ok := strings.Cut(sealed, ".")
	i := strings.LastIndexByte(rest, '.')
	if !ok || i < 0 {
		return "", "", ErrForged
	}
	value, sum := rest[:i], rest[i+1:]
	raw, err1 := base64.RawURLEncoding.DecodeString(enc)
	mac, err2 := base64.RawURLEncoding.DecodeString(sum)
	if err1 != nil || err2 != nil || value == "" {
		return "", "", ErrForged
	}
	owner = string(raw)
	if !hmac.Equal(mac, s.mac(kind, owner, value, principal)) {
		return "", "", ErrForged
	}
	return owner, value, nil
}

// mac is the value's HMAC, each field length-prefixed so that no two
// tuples share one.
func (s *Sealer) mac(kind Kind, owner, value, principal string) []byte {
	h := hmac.New(sha256.New, s.key)
	for _, f := range []string{string(kind), owner, value, principal} {
		h.Write(binary.BigEndian.AppendUint32(nil, uint32(len(f))))
		h.Write([]byte(f))
	}
	return h.Sum(nil)[:macLen]
}

type sealerKey struct{}

// With returns ctx carrying s, for the request states made while serving
// it (NewState).
func With(ctx context.Context, s *Sealer) context.Context {
	if s == nil {
		return ctx
	}
	return context.WithValue(ctx, sealerKey{}, s)
}

// From returns the Sealer ctx carries, or nil.
func From(ctx context.Context) *Sealer {
	s, _ := ctx.Value(sealerKey{}).(*Sealer)
	return s
}

// NewState returns a new request state for the request of ctx: random,
// and sealed for its principal when ctx carries a Sealer.
func NewState(ctx context.Context) string {
	v := rand.Text()
	if s := From(ctx); s != nil {
		return s.Seal(RequestState, principal.From(ctx), v)
	}
	return v
}

// CheckState reports whether state, a request state a retry brings, was
// issued to the caller of ctx when ctx carries a Sealer: ErrForged if not.
// Without one every state passes, as before.
func CheckState(ctx context.Context, state string) error {
	s := From(ctx)
	if s == nil {
		return nil
	}
	_, _, err := s.Open(RequestState, principal.From(ctx), state)
	return err
}
