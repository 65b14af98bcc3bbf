// Package principal carries the principal of a request in its context:
// the person (or service) a request over HTTP is made for, named by its
// bearer token (http.tokens) or by its identity provider's JWT
// (http.jwt). server/web puts it there; server reads it for the activity
// record and hands it on with each call, and loader/upstream keys per-person
// logins (a server's oauth.identity: user) by it.
//
// A request that names no principal (stdio, a one-shot command, loopback
// without a token) is the operator's: the person who runs toolsearch.
package principal

import (
	"context"
	"fmt"
	"unicode"
	"unicode/utf8"
)

// Operator is the principal of the operator's own token, and of every
// request that names none, unless http.principal names it otherwise.
const Operator = "operator"

// MaxLen bounds a principal's name in bytes: it comes from a token's
// claim, and is logged, shown and used as a key.
const MaxLen = 256

type key struct{}

// With returns ctx carrying the principal name. An empty name leaves ctx
// as it is.
func With(ctx context.Context, name string) context.Context {
	if name == "" {
		return ctx
	}
	return context.WithValue(ctx, key{}, name)
}

// From returns the principal ctx carries, Operator when it carries none.
func From(ctx context.Context) string {
	if name, ok := ctx.Value(key{}).(string); ok && name != "" {
		return name
	}
	return Operator
}

// Named reports whether ctx carries a principal of its own, as a request
// over HTTP with a token does.
func Named(ctx context.Context) bool {
	name, ok := ctx.Value(key{}).(string)
	return ok && name != ""
}

// Check returns why name cannot be a principal, or nil: it must be
// non-empty valid UTF-8 of at most MaxLen bytes, without control or
// invisible characters, so that what logs and the status page show is
// what keys the person's logins.
func Check(name string) error {
	switch {
	case name == "":
		return fmt.Errorf("a principal's name is empty")
	case len(name) > MaxLen:
		return fmt.Errorf("a principal's name is %d bytes, over %d", len(name), MaxLen)
	case !utf8.ValidString(name):
		return fmt.Errorf("a principal's name is not valid UTF-8")
	}
	for _, r := range name {
		if unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || (unicode.IsSpace(r) && r != ' ') {
			return fmt.Errorf("a principal's name contains the character %U, which cannot be shown", r)
		}
	}
	return nil
}
