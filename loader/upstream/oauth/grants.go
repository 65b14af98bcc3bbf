package oauth

import (
	"context"
	"errors"
)

// A GrantKey names one stored grant: whose it is, for which server, at
// which URL. Principal "" is the shared identity, the one login every
// caller of the server uses (today's only kind).
type GrantKey struct {
	Principal string
	Server    string
	Resource  string
}

// A Stamp identifies one version of a stored grant, so that a change made
// by another process (a login, a refresh, a logout) is noticed cheaply.
type Stamp interface {
	Same(other Stamp) bool
}

// Grants keep the grants of every login, durably and shared by every
// process that uses them: files only the user may read ([Store]), or a
// database every replica reads, the grants encrypted at rest (package
// internal/state/pgstate).
type Grants interface {
	// LoadGrant returns the stored grant (nil when there is none) and its
	// stamp.
	LoadGrant(ctx context.Context, k GrantKey) (*Grant, Stamp, error)
	// GrantStamp returns the stamp of the stored grant, cheaply.
	GrantStamp(ctx context.Context, k GrantKey) (Stamp, error)
	// SaveGrant stores g (a login's) under k, replacing any.
	SaveGrant(ctx context.Context, k GrantKey, g *Grant) (Stamp, error)
	// DeleteGrant forgets the grant; none stored is no error.
	DeleteGrant(ctx context.Context, k GrantKey) error
	// UpdateGrant runs fn with the grant as stored now, holding a lock on
	// it that every process honours (a file lock, a row lock), and stores
	// what fn returns unless that is nil. It is how a token is refreshed
	// once: a second process waits, then finds the refreshed grant. fn's
	// error is returned after what it returned is stored.
	UpdateGrant(ctx context.Context, k GrantKey, fn func(stored *Grant) (*Grant, error)) (*Grant, Stamp, error)
}

// ErrUnavailable marks a store that cannot be reached for now (a database
// that is down): the grant held in memory is used while it lasts, and
// nothing is stored until the store is back.
var ErrUnavailable = errors.New("the shared state cannot be reached")

// A GrantLister lists the grants people hold for one server at once: what
// a replica reads at start, so that a person's first call after it is
// served from what it read even if the store cannot be reached by then,
// and what `toolsearch auth status` shows the operator. The PostgreSQL
// store and the files are both.
type GrantLister interface {
	// PrincipalGrants returns every principal's own grant (Principal
	// not "") for server at resource, with its stamp. A grant stored that
	// does not open (another key, another version) is listed with Err
	// and no Grant: it is read again, and reported, when its principal
	// calls.
	PrincipalGrants(ctx context.Context, server, resource string) ([]StoredGrant, error)
}

// A StoredGrant is one grant as a GrantLister read it.
type StoredGrant struct {
	Key   GrantKey
	Grant *Grant
	Stamp Stamp
	// Err says why a grant stored could not be read (Grant is nil then).
	Err error
}
