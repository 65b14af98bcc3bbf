package upstream

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/toolsearch/toolsearch/loader/upstream/oauth"
)

// A PersonLogin is one person's login to a server with identity: user, as
// the state (the files or the database) holds it: never a token or a
// secret.
type PersonLogin struct {
	Principal string
	// Info describes the grant; nil when it is stored but does not open.
	Info *oauth.Info
	// Err says why a grant stored does not open (another key file,
	// another version): its person logs in again, or it is forgotten.
	Err error
}

// ErrNoPersonLogin is LogoutPerson's error when the person holds no login
// to the server.
var ErrNoPersonLogin = errors.New("no login is stored for that principal")

// NotRevokedError is LogoutPerson's error when the login was forgotten but
// revoking its tokens failed.
type NotRevokedError struct{ Err error }

func (e *NotRevokedError) Error() string { return "forgotten, but not revoked: " + e.Err.Error() }
func (e *NotRevokedError) Unwrap() error { return e.Err }

// personServer returns a server whose logins are each person's own and
// the store that keeps them, or an error that says why it is not one.
func (m *Manager) personServer(server string) (*upstream, oauth.Grants, error) {
	u, err := m.server(server)
	if err != nil {
		return nil, nil, err
	}
	switch {
	case u.auth == nil:
		return nil, nil, fmt.Errorf("%s takes no OAuth login (a stdio server, or one whose entry sends its own Authorization header)", server)
	case !u.settings().OAuth.PerUser():
		return nil, nil, fmt.Errorf("%s has one login for everyone (oauth.identity: shared), not one per person: leave out --principal", server)
	case m.opts.TokenStore == nil:
		return nil, nil, fmt.Errorf("no place to keep logins: %w", m.tokenStoreErr)
	}
	return u, m.opts.TokenStore, nil
}

// PersonLogins lists the logins people hold for a server with identity:
// user, by principal, read from the state at now: what `toolsearch auth
// status` shows, for every replica since they share it.
func (m *Manager) PersonLogins(ctx context.Context, server string) ([]PersonLogin, error) {
	u, store, err := m.personServer(server)
	if err != nil {
		return nil, err
	}
	lister, ok := store.(oauth.GrantLister)
	if !ok {
		return nil, fmt.Errorf("the logins of %s's people cannot be listed from this state", server)
	}
	read, err := lister.PrincipalGrants(ctx, server, u.cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("reading the logins people hold for %s: %w", server, u.redact.Error(err))
	}
	now := time.Now()
	out := make([]PersonLogin, 0, len(read))
	for _, sg := range read {
		pl := PersonLogin{Principal: sg.Key.Principal, Info: sg.Grant.Info(now)}
		if sg.Err != nil {
			pl.Err = u.redact.Error(sg.Err)
		}
		out = append(out, pl)
	}
	slices.SortFunc(out, func(a, b PersonLogin) int { return strings.Compare(a.Principal, b.Principal) })
	return out, nil
}

// LogoutPerson revokes who's tokens for a server with identity: user where
// the authorization server offers revocation, and forgets them, for every
// replica (each reads the state again at the person's next call, which
// then asks them to log in). It returns the revocation endpoint used, ""
// when there was none. A grant that does not open is forgotten unrevoked.
// ErrNoPersonLogin when who holds none; the shared login is never touched.
func (m *Manager) LogoutPerson(ctx context.Context, server, who string) (revokedAt string, err error) {
	u, store, err := m.personServer(server)
	if err != nil {
		return "", err
	}
	if who == "" {
		return "", errors.New("a person's logout needs the person: name a principal")
	}
	k := oauth.GrantKey{Principal: who, Server: server, Resource: u.cfg.URL}
	g, _, err := store.LoadGrant(ctx, k)
	switch {
	case errors.Is(err, oauth.ErrUnavailable):
		return "", fmt.Errorf("%s's login to %s cannot be read while the shared state cannot be reached, so nothing was forgotten: %w", who, server, err)
	case err != nil || g == nil:
		if err == nil {
			return "", ErrNoPersonLogin
		}
		if err := store.DeleteGrant(ctx, k); err != nil {
			return "", fmt.Errorf("forgetting %s's login to %s: %w", who, server, err)
		}
		u.log.Info("a person's login forgotten; it did not open, so it was not revoked", "principal", who)
		return "", nil
	}
	revokedAt, err = oauth.NewTokensFor(store, k, m.opts.OAuthClient, u.log).Logout(ctx)
	if err != nil {
		err = u.redact.Error(err)
		if after, _, lerr := store.LoadGrant(ctx, k); lerr == nil && after == nil {
			err = &NotRevokedError{Err: err}
		}
	}
	u.log.Info("a person's login forgotten", "principal", who, "revoked", revokedAt != "")
	return revokedAt, err
}
