package oauth

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolsearch/toolsearch/internal/redact"
	"golang.org/x/oauth2"
)

// maxEarly bounds how long before it expires an access token is refreshed.
// Short-lived tokens are refreshed at half their life instead.
const maxEarly = time.Minute

// freshFor is how long a token counts as just issued: a server that
// refuses a token this new will not take a refreshed one either, so it
// needs a login rather than another refresh.
const freshFor = 10 * time.Second

// Tokens are one server's tokens while toolsearch runs. Every session and
// call to the server shares them: an access token about to expire is
// refreshed once, by the first caller, while the others wait for it, and
// the refreshed grant is stored at once. A grant another process stored (a
// login, or a refresh of its own) is picked up at the next use.
//
// Tokens implements oauth2.TokenSource. It is safe for concurrent use.
type Tokens struct {
	store    Grants
	key      GrantKey
	server   string
	resource string
	client   *http.Client
	log      *slog.Logger
	now      func() time.Time // tests move time

	mu     sync.Mutex
	grant  *Grant
	seen   Stamp // of the stored grant that grant came from
	loaded bool  // seen was read
	// down is why the grant could not be read at all (the shared state
	// out of reach, nothing held yet): not knowing is not "no login", and
	// calls fail with it rather than ask for one.
	down error
	// unread is whether the last reload could not read the store: the
	// grant held may have been replaced elsewhere meanwhile.
	unread bool
	// version counts changes of the grant, in this process or on disk.
	version uint64
}

// NewTokens returns the shared identity's tokens for the server at
// resource (its URL), as stored; refreshes and revocations go through
// client (nil means http.DefaultClient), guarded (see Guard).
func NewTokens(store Grants, server, resource string, client *http.Client, log *slog.Logger) *Tokens {
	return NewTokensFor(store, GrantKey{Server: server, Resource: resource}, client, log)
}

// NewTokensFor returns the tokens of the grant k names: a principal's own,
// or the shared identity's (Principal "").
func NewTokensFor(store Grants, k GrantKey, client *http.Client, log *slog.Logger) *Tokens {
	client = Guard(client, k.Resource)
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Tokens{store: store, key: k, server: k.Server, resource: k.Resource, client: client, log: log, now: time.Now}
}

// storeTimeout bounds a read or write of the store.
const storeTimeout = 10 * time.Second

func storeContext() (context.Context, context.CancelFunc) {
	return context.WithTimeout(context.Background(), storeTimeout)
}

// Server returns the name of the server the tokens are for.
func (t *Tokens) Server() string { return t.server }

// Resource returns the URL the tokens are for.
func (t *Tokens) Resource() string { return t.resource }

// reload reads the grant again if it changed since it was read. Callers
// hold t.mu. It reports whether the grant changed. A store that cannot be
// reached (a database that is down) leaves the grant held in place.
func (t *Tokens) reload() bool {
	ctx, cancel := storeContext()
	defer cancel()
	v, err := t.store.GrantStamp(ctx, t.key)
	t.unread = err != nil
	if err != nil && t.loaded {
		return false
	}
	if err == nil && t.loaded && v.Same(t.seen) {
		return false
	}
	g, v, err := t.store.LoadGrant(ctx, t.key)
	t.unread = errors.Is(err, ErrUnavailable)
	switch {
	case errors.Is(err, ErrUnavailable):
		if t.loaded || t.grant != nil {
			// A grant held (read before, or a login or refresh this
			// process made and could not store) is still the grant:
			// not knowing what is stored now is not "none".
			return false
		}
		t.log.Warn("the OAuth grant cannot be read while the shared state is down", "server", t.server, "err", err)
		g = nil
		t.down = grantDownError{t.server, err}
	case err != nil:
		// Not a token file, or a grant that does not open (another
		// key): no grant, and the person logs in again, which
		// replaces it. A store that cannot be read now is the case
		// above.
		t.log.Warn("ignoring the OAuth token file", "server", t.server, "err", err)
		g = nil
	}
	t.grant, t.seen, t.loaded = g, v, v != nil && !errors.Is(err, ErrUnavailable)
	if !errors.Is(err, ErrUnavailable) {
		t.down = nil
	}
	t.version++
	return true
}

// grantDownError is a grant that could not be read: the shared state
// cannot be reached (or the token file cannot be read now), and this
// process holds none yet.
type grantDownError struct {
	server string
	cause  error
}

func (e grantDownError) Error() string {
	var fe *fileReadError
	if errors.As(e.cause, &fe) {
		return fmt.Sprintf("the login to %s cannot be read now (%v): try again once the file can be read", e.server, fe)
	}
	return fmt.Sprintf("the login to %s cannot be read while the shared state (the database) cannot be reached: try again once it is back", e.server)
}

func (grantDownError) Is(target error) bool { return target == ErrUnavailable }

// Grant returns a copy of the current grant, nil when there is none.
func (t *Tokens) Grant() *Grant {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.reload()
	if t.grant == nil {
		return nil
	}
	g := *t.grant
	if g.Token != nil {
		tok := *g.Token
		g.Token = &tok
	}
	return &g
}

// Version changes whenever the grant does, here or in the file; a server
// waiting for a login polls it.
func (t *Tokens) Version() uint64 {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.reload()
	return t.version
}

// NeedsLogin returns why the server needs a login, or "" when the tokens
// are usable or can be refreshed.
func (t *Tokens) NeedsLogin() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.reload()
	return t.needsLogin()
}

func (t *Tokens) needsLogin() string {
	if t.grant == nil && t.down != nil {
		return "" // unknown until the shared state is back
	}
	return needsLogin(t.grant, t.now())
}

// needsLogin returns why g cannot be used or refreshed at now, or "".
func needsLogin(g *Grant, now time.Time) string {
	switch {
	case g == nil:
		return "no login is stored for it"
	case g.Refused != "":
		return g.Refused
	case !g.Valid(now, 0) && !g.CanRefresh():
		return "its access token expired and the authorization server gave no refresh token"
	}
	return ""
}

// early is how long before expiry the grant's access token is refreshed.
func early(g *Grant) time.Duration {
	if g.Token.Expiry.IsZero() || g.Obtained.IsZero() {
		return maxEarly
	}
	return min(maxEarly, g.Token.Expiry.Sub(g.Obtained)/2)
}

// Token returns a valid access token, refreshing it first when it is about
// to expire. It fails with a *LoginRequiredError when only a login can help:
// no grant, no refresh token, or a refresh the authorization server
// refused (which is stored, so that every process sees it). Other failures
// (the authorization server unreachable) are plain errors: the next call
// tries again.
func (t *Tokens) Token() (*oauth2.Token, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.reload()
	g := t.grant
	if g != nil && g.Valid(t.now(), early(g)) {
		tok := *g.Token
		return &tok, nil
	}
	if g == nil && t.down != nil {
		return nil, t.down
	}
	if why := t.needsLogin(); why != "" {
		return nil, &LoginRequiredError{Server: t.server, Reason: why}
	}
	if !g.CanRefresh() { // expiring soon, not refreshable: use it while it lasts
		tok := *g.Token
		return &tok, nil
	}
	tok, err := t.refresh()
	if errors.Is(err, ErrUnavailable) && g.Valid(t.now(), 0) {
		// Due to be refreshed, but the refresh takes the grant's lock in
		// the shared state, which cannot be reached: the token held still
		// works, and is used while it lasts (as when the grant cannot be
		// read); the next call tries the refresh again.
		t.log.Debug("the OAuth token cannot be refreshed while the shared state is down; using the one held while it lasts", "server", t.server)
		held := *g.Token
		return &held, nil
	}
	return tok, err
}

// refresh exchanges the refresh token for new tokens and stores them,
// under the store's lock on the grant: across processes (replicas sharing
// a database, two toolsearch sharing a token file) a token is refreshed
// once, and a second refresher finds the first's tokens instead of
// spending a refresh token the authorization server has retired. Callers
// hold t.mu.
func (t *Tokens) refresh() (*oauth2.Token, error) {
	held := t.grant
	ctx, cancel := context.WithTimeout(context.Background(), grantLockTimeout+storeTimeout)
	defer cancel()
	var tok *oauth2.Token
	g, v, err := t.store.UpdateGrant(ctx, t.key, func(stored *Grant) (*Grant, error) {
		if stored == nil {
			return nil, &LoginRequiredError{Server: t.server, Reason: "no login is stored for it"}
		}
		if stored.Token.AccessToken != held.Token.AccessToken && stored.Valid(t.now(), 0) {
			tok = stored.Token // refreshed (or logged in) elsewhere meanwhile
			return nil, nil
		}
		if why := needsLogin(stored, t.now()); why != "" {
			return nil, &LoginRequiredError{Server: t.server, Reason: why}
		}
		next, err := t.exchange(stored)
		if next != nil && next.Refused == "" {
			tok = next.Token
		}
		return next, err
	})
	if err != nil && g == nil {
		if errors.Is(err, ErrUnavailable) {
			return nil, refreshDownError{t.server}
		}
		return nil, err
	}
	if g != nil {
		t.grant, t.seen, t.loaded = g, v, true
		t.version++
	}
	if err != nil {
		return nil, err
	}
	if tok == nil {
		return nil, &LoginRequiredError{Server: t.server, Reason: "no login is stored for it"}
	}
	out := *tok
	return &out, nil
}

// refreshDownError is a refresh that could not take the grant's lock: the
// shared state cannot be reached.
type refreshDownError struct{ server string }

func (e refreshDownError) Error() string {
	return fmt.Sprintf("the token for %s expired and cannot be refreshed while the shared state (the database) cannot be reached: try again once it is back", e.server)
}

func (refreshDownError) Is(target error) bool { return target == ErrUnavailable }

// exchange spends g's refresh token. It returns the grant to store: the
// refreshed one; g marked refused (with a *LoginRequiredError) when the
// authorization server refused; nil with a plain error when it could not
// be asked (the next call tries again).
func (t *Tokens) exchange(g *Grant) (*Grant, error) {
	cfg := &oauth2.Config{
		ClientID:     g.ClientID,
		ClientSecret: g.ClientSecret,
		Endpoint:     oauth2.Endpoint{AuthURL: g.AuthURL, TokenURL: g.TokenURL, AuthStyle: g.AuthStyle},
		Scopes:       g.Scopes,
	}
	ctx := context.WithValue(context.Background(), oauth2.HTTPClient, t.client)
	// An expired token makes the source refresh at once.
	src := cfg.TokenSource(ctx, &oauth2.Token{RefreshToken: g.Token.RefreshToken, Expiry: time.Unix(1, 0)})
	tok, err := src.Token()
	if err != nil {
		re, isRefusal := refused(err)
		if !isRefusal {
			return nil, fmt.Errorf("refreshing the token for %s: %w", t.server, sanitize(err, g.secrets()...))
		}
		why := "the authorization server refused to refresh its token: " + redact.New(g.secrets()).String(refusal(re))
		next := *g
		next.Refused = why
		return &next, &LoginRequiredError{Server: t.server, Reason: why}
	}
	next := *g
	next.Token, next.Obtained, next.Refused = tok, t.now(), ""
	next.Scopes = grantedScopes(tok, g.Scopes)
	return &next, nil
}

// save stores a grant and makes it current. Callers hold t.mu.
func (t *Tokens) save(g *Grant) error {
	t.grant, t.down = g, nil
	t.version++
	ctx, cancel := storeContext()
	defer cancel()
	v, err := t.store.SaveGrant(ctx, t.key, g)
	t.seen, t.loaded = v, v != nil
	if errors.Is(err, ErrUnavailable) {
		return fmt.Errorf("the login to %s cannot be stored while the shared state (the database) cannot be reached: try again once it is back: %w", t.server, err)
	}
	return err
}

// refuse marks the grant as no longer working, for every process. Callers
// hold t.mu.
func (t *Tokens) refuse(why string) {
	if t.grant == nil {
		return
	}
	g := *t.grant
	g.Refused = why
	_ = t.save(&g)
}

// Save stores the grant of a new login.
func (t *Tokens) Save(g *Grant) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.save(g)
}

// Forget deletes the grant.
func (t *Tokens) Forget() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	ctx, cancel := storeContext()
	defer cancel()
	err := t.store.DeleteGrant(ctx, t.key)
	v, serr := t.store.GrantStamp(ctx, t.key)
	t.grant, t.seen, t.loaded, t.down = nil, v, serr == nil, nil
	t.version++
	return err
}

// want records scopes the server asked for, so that the next login
// requests them.
func (t *Tokens) want(scopes []string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.reload()
	if t.grant == nil {
		return
	}
	g := *t.grant
	g.WantScopes = union(g.WantScopes, scopes)
	if !slices.Equal(g.WantScopes, t.grant.WantScopes) {
		_ = t.save(&g)
	}
}

// rejected handles a 401 to a request that carried the access token sent.
// It returns nil when the request may be retried: another caller has
// already replaced that token, or a refresh got a new one. Otherwise the
// server needs a login, which is stored.
func (t *Tokens) rejected(sent string) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.reload()
	g := t.grant
	if g == nil && t.down != nil {
		return t.down
	}
	if g == nil {
		return &LoginRequiredError{Server: t.server, Reason: "no login is stored for it"}
	}
	if g.Refused == "" && g.Token.AccessToken != sent {
		// Replaced meanwhile, or stored (by a login) after the request
		// went without one: retry with it.
		return nil
	}
	if why := t.needsLogin(); why != "" {
		return &LoginRequiredError{Server: t.server, Reason: why}
	}
	if t.now().Sub(g.Obtained) >= freshFor && g.CanRefresh() {
		if _, err := t.refresh(); err != nil {
			return err
		}
		return nil
	}
	if t.unread {
		// Refused just after it was issued, but another process may
		// have replaced it (a refresh on another replica retires it),
		// and what is stored cannot be read now: not knowing is not a
		// refused login.
		return refusedDownError{t.server}
	}
	why := "the server refused its access token"
	t.refuse(why)
	return &LoginRequiredError{Server: t.server, Reason: why}
}

// refusedDownError is a token refused while the shared state cannot be
// reached: the login that replaced it, if any, cannot be read, nor the
// token refreshed.
type refusedDownError struct{ server string }

func (e refusedDownError) Error() string {
	return fmt.Sprintf("the token for %s was refused and cannot be refreshed while the shared state (the database) cannot be reached: another process may have replaced it; try again once it is back", e.server)
}

func (refusedDownError) Is(target error) bool { return target == ErrUnavailable }

// union returns a followed by the elements of b it lacks.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}

// grantedScopes are the scopes a token response granted: its scope
// parameter, else those requested, which it may leave out when they are
// what was granted (RFC 6749 §5.1).
func grantedScopes(tok *oauth2.Token, requested []string) []string {
	if scope, ok := tok.Extra("scope").(string); ok && scope != "" {
		return strings.Fields(scope)
	}
	return requested
}

// has reports whether a grant is held, usable or not: requests then go
// through Token, which says why one cannot be used. A grant that cannot
// be read now (the shared state out of reach) is not held: requests go
// without a token, which a server that takes none answers (one that
// answers 401 is told, through rejected, that the login cannot be read
// now, never that there is none).
func (t *Tokens) has() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.reload()
	return t.grant != nil
}

// Read reads the grant if it was not read yet (or changed), and returns
// why it cannot be read now: nil once it was read, whether a grant is
// stored or none is, an error matching ErrUnavailable while the shared
// state cannot be reached and nothing is held. A replica is not ready
// until the grants of its servers were read (see upstream's GrantsRead).
func (t *Tokens) Read() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.reload()
	if t.grant == nil && t.down != nil {
		return t.down
	}
	return nil
}

// Info describes a server's login without its secrets, for display.
type Info struct {
	Issuer string   // the authorization server
	Scopes []string // granted
	// Wanted are the scopes the server asked for since (a 403
	// insufficient_scope), which the next login asks for too.
	Wanted  []string
	Expires time.Time // of the access token; zero when it does not say
	// Refreshable says whether a refresh token is held.
	Refreshable bool
	// NeedsLogin says why the tokens cannot be used, "" when they can.
	NeedsLogin string
	// Obtained is when the access token was issued.
	Obtained time.Time
}

// Secrets returns what of the current grant must never be shown: the
// client secret, its Basic form, the tokens. An error a server answers may
// quote them.
func (t *Tokens) Secrets() []string {
	return t.Grant().secrets()
}

// Info describes the current login, nil when there is none.
func (t *Tokens) Info() *Info {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.reload()
	return t.grant.Info(t.now())
}

// Info describes the login g holds at now, nil for none. It holds no
// secret: no token, no client secret.
func (g *Grant) Info(now time.Time) *Info {
	if g == nil {
		return nil
	}
	return &Info{
		Issuer:      g.Issuer,
		Scopes:      slices.Clone(g.Scopes),
		Wanted:      slices.Clone(g.WantScopes),
		Expires:     g.Token.Expiry,
		Refreshable: g.CanRefresh(),
		NeedsLogin:  needsLogin(g, now),
		Obtained:    g.Obtained,
	}
}

// Logout revokes the tokens where the authorization server offers
// revocation (see Revoke) and forgets them, even when revoking failed. It
// returns the revocation endpoint used, "" when there was none or nothing
// to log out of.
func (t *Tokens) Logout(ctx context.Context) (revokedAt string, err error) {
	g := t.Grant()
	if g == nil {
		return "", nil
	}
	revoked, rerr := Revoke(ctx, t.client, g)
	if err := t.Forget(); err != nil {
		return "", fmt.Errorf("forgetting the tokens of %s: %w", t.server, err)
	}
	if revoked && rerr == nil {
		revokedAt = g.RevocationURL
	}
	return revokedAt, rerr
}
