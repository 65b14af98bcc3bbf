package oauth

import "context"

// PrincipalGrants finds the grant one principal holds for one server: the
// lookup a server with identity: user makes before each call, so that a
// call goes out under its caller's own login or not at all. A principal
// with no grant is (nil, nil).
//
// It is the seam between the call path and wherever grants are kept: the
// files of a Store (one grant per server, whoever asks: SharedGrants), or
// a store keyed by (principal, server) that every replica reads.
type PrincipalGrants interface {
	PrincipalGrant(ctx context.Context, principal, server, resource string) (*Grant, error)
}

// SharedGrants is the shared identity's lookup over a Store: the one
// grant of each server, whichever principal asks. It is what every server
// without identity: user uses, and must never back a server with
// identity: user, whose callers would then share the operator's login.
type SharedGrants struct{ Store *Store }

// PrincipalGrant returns the server's one grant; principal is not looked at.
func (s SharedGrants) PrincipalGrant(_ context.Context, _, server, resource string) (*Grant, error) {
	return s.Store.Load(server, resource)
}

// ByPrincipal is identity: user's lookup over grants keyed by (principal,
// server): a principal's own grant, never the shared identity's (the key
// whose Principal is "").
type ByPrincipal struct{ Grants Grants }

// PrincipalGrant returns the grant stored under who's own key.
func (b ByPrincipal) PrincipalGrant(ctx context.Context, who, server, resource string) (*Grant, error) {
	if who == "" {
		return nil, nil // the shared identity's key is nobody's own
	}
	g, _, err := b.Grants.LoadGrant(ctx, GrantKey{Principal: who, Server: server, Resource: resource})
	return g, err
}
